"""A hand's points and tricks so far (:func:`tally`) and the score of a finished hand (:func:`score`), by the
rules of :mod:`sheepsolve.scoring.rules`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine import Setup, State
from ..games import Game
from .rules import (Stakes, base_and_multiplier, is_won, laufende_of, outcome_for, payment_terms, rule,
                    seat_payment)
from .skat import SkatValue, game_value

__all__ = ["Tally", "Result", "tally", "score"]


@dataclass(frozen=True)
class Tally:
    """Card points and tricks so far, per seat and (two-sided games) per side.

    ``points`` counts the bury for the picker (``bury_needs_trick``: only once his side has a trick) and, in
    leaster, the blind for the winner of the trick it goes to once that trick is played.
    """

    points: tuple[int, ...]
    tricks: tuple[int, ...]
    side_points: dict[str, int] | None = field(default=None, hash=False)
    side_tricks: dict[str, int] | None = field(default=None, hash=False)
    declaring: tuple[int, ...] = ()


def _bury_counts(setup: Setup, side_tricks: int) -> bool:
    return not rule(setup.game, "bury_needs_trick") or side_tricks > 0


def tally(state: State) -> Tally:
    """Points and tricks taken so far, in finished tricks (the trick on the table is not counted).

    >>> from sheepsolve.games import make_game
    >>> from sheepsolve.cards import parse_cards
    >>> g = make_game("sheepshead-3")
    >>> hands = [parse_cards("QC QS QH QD JC JS JH JD AD TD"), parse_cards("KD 9D 8D 7D AC TC KC 9C 8C 7C"),
    ...          parse_cards("AS TS KS 9S 8S 7S AH 8H KH 9H")]
    >>> s = Setup.create(g, hands, declarer=0, blind=parse_cards("TH 7H"), bury=parse_cards("TH 7H")).start()
    >>> t = tally(s.play_cards(parse_cards("QC KD AS")))
    >>> t.points, t.side_points
    ((28, 0, 0), {'declaring': 28, 'defending': 0})
    """
    setup = state.setup
    g = setup.game
    pts = list(state.trick_points())
    tricks = state.tricks_taken()
    team = sorted(setup.team)
    if g.kind == "picker" and setup.declarer is not None:
        if _bury_counts(setup, sum(tricks[s] for s in team)):
            pts[setup.declarer] += sum(c.points for c in setup.bury)
    if g.kind == "leaster" and setup.blind:
        where = rule(g, "leaster_blind")
        last = max(len(h) for h in setup.hands) - 1  # the setup may be dealt mid-hand
        idx = 0 if where == "first" else (last if where == "last" else None)
        if idx is not None and 0 <= idx < len(state.tricks):
            pts[state.tricks[idx].winner] += sum(c.points for c in setup.blind)
    side_points = side_tricks = None
    if g.two_sided:
        # a position set by its cards: what each side took before it (its seats' tallies do not count it)
        past_pts = setup.past_points or (0,) * g.seats
        past_tricks = setup.past_tricks or (0,) * g.seats
        side_points = {"declaring": sum(pts[s] + past_pts[s] for s in team),
                       "defending": sum(p + past_pts[s] for s, p in enumerate(pts) if s not in setup.team)}
        side_tricks = {"declaring": sum(tricks[s] + past_tricks[s] for s in team),
                       "defending": sum(t + past_tricks[s] for s, t in enumerate(tricks) if s not in setup.team)}
    return Tally(points=tuple(pts), tricks=tuple(tricks), side_points=side_points, side_tricks=side_tricks,
                 declaring=tuple(team))


_SEAT_OUTCOMES = ("winner:", "loser:", "losers:", "durchmarsch:", "tie:")


@dataclass(frozen=True)
class Result:
    """The score of a finished hand. ``payments`` sum to zero, but in Skat, where they are each player's list
    score of the game; ``winners``/``losers`` are seats. ``skat``: a Skat game's value (else None)."""

    game: str
    points: tuple[int, ...]
    tricks: tuple[int, ...]
    side_points: dict[str, int] | None = field(hash=False)
    side_tricks: dict[str, int] | None = field(hash=False)
    outcome: str
    laufende: int
    base: int
    multiplier: int
    payments: tuple[int, ...]
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    declaring: tuple[int, ...] = ()
    skat: SkatValue | None = None

    def to_dict(self, players: Sequence[str] | None = None) -> dict[str, Any]:
        """JSON-ready data keyed by player name (``players`` per seat; default ``"1"``, ``"2"``, ...).

        Seats inside the outcome string (leaster, ramsch) are replaced by names.

        >>> r = Result(game="leaster", points=(20, 50, 50), tricks=(1, 5, 4), side_points=None,
        ...            side_tricks=None, outcome="winner:0", laufende=0, base=1, multiplier=1,
        ...            payments=(2, -1, -1), winners=(0,), losers=(1, 2))
        >>> d = r.to_dict(["Ann", "Bo", "Cy"])
        >>> d["outcome"], d["payments"]
        ('winner:Ann', {'Ann': 2, 'Bo': -1, 'Cy': -1})
        """
        n = len(self.points)
        names = [str(i + 1) for i in range(n)] if players is None else [str(p) for p in players]
        if len(names) != n or len(set(names)) != n:
            raise ValueError(f"players: need {n} distinct names, got {list(names)!r}")
        outcome = self.outcome
        for prefix in _SEAT_OUTCOMES:
            if outcome.startswith(prefix):
                seats = outcome[len(prefix):].split(",")
                outcome = prefix + ",".join(names[int(s)] for s in seats)

        def by_name(values: Sequence[int]) -> dict[str, int]:
            return {names[i]: int(v) for i, v in enumerate(values)}

        return {
            "game": self.game,
            "outcome": outcome,
            "points": by_name(self.points),
            "tricks": by_name(self.tricks),
            "side_points": dict(self.side_points) if self.side_points is not None else None,
            "side_tricks": dict(self.side_tricks) if self.side_tricks is not None else None,
            "declaring": [names[s] for s in self.declaring],
            "laufende": self.laufende,
            "base": self.base,
            "multiplier": self.multiplier,
            "payments": by_name(self.payments),
            "winners": [names[s] for s in self.winners],
            "losers": [names[s] for s in self.losers],
            "skat": self.skat.to_dict() if self.skat is not None else None,
        }


def score(state: State, stakes: Stakes | None = None) -> Result:
    """Score a finished hand (a sie is scored without play).

    Raises ValueError naming why it cannot: the hand is unfinished, the setup was dealt mid-hand, a crack in
    a game without sides, a sauspiel without partner.

    >>> from sheepsolve.games import make_game
    >>> from sheepsolve.cards import parse_cards
    >>> g = make_game("sheepshead-3")
    >>> hands = [parse_cards("QC QS QH QD JC JS JH JD AD TD"), parse_cards("KD 9D 8D 7D AC TC KC 9C 8C 7C"),
    ...          parse_cards("AS TS KS 9S 8S 7S AH TH KH 9H")]
    >>> s = Setup.create(g, hands, declarer=0, blind=parse_cards("8H 7H"), bury=parse_cards("8H 7H")).start()
    >>> while not s.finished:
    ...     s = s.play(s.legal()[0])
    >>> r = score(s)
    >>> r.side_points, r.outcome, r.payments
    ({'declaring': 120, 'defending': 0}, 'schwarz', (6, -3, -3))
    """
    stakes = stakes or Stakes()
    setup = state.setup
    g = setup.game
    if not state.finished and not g.sie:
        left = sum(len(h) for h in state.hands) + len(state.trick)
        raise ValueError(f"the hand is not finished: trick {state.trick_number} of {g.tricks} is being played, "
                         f"{left} cards still to play")
    dealt = max(len(h) for h in setup.hands)
    if dealt != g.hand_size and not g.sie:
        raise ValueError(f"the setup was dealt mid-hand ({dealt} cards each, not {g.hand_size}): the earlier "
                         f"tricks are unknown, so there is no result to score (tally() gives the points)")
    t = tally(state)
    if g.two_sided:
        return _score_sides(state, t, stakes)
    if stakes.crack:
        raise ValueError(f"{g.name} has no sides to crack (Kontra): only doublers apply")
    if g.kind == "leaster":
        return _score_leaster(g, t, stakes)
    if g.kind == "ramsch":
        return _score_ramsch(g, t, stakes)
    raise ValueError(f"cannot score a game of kind {g.kind!r}")  # pragma: no cover


def _score_sides(state: State, t: Tally, stakes: Stakes) -> Result:
    setup = state.setup
    g = setup.game
    if setup.declarer is None:
        raise ValueError(f"{g.name}: no declarer (picker) in the setup")
    if g.partner == "sauspiel" and setup.partner is None:
        raise ValueError("sauspiel: no partner (the called ace) in the setup")
    assert t.side_points is not None and t.side_tricks is not None
    outcome = outcome_for(g, t.side_points["declaring"], t.side_tricks["declaring"], g.tricks)
    terms = payment_terms(setup)
    base, mult = base_and_multiplier(g, outcome, laufende=terms.laufende, stakes=stakes, alone=terms.alone, blitz=terms.blitz)
    team = set(setup.team)
    defenders = [s for s in range(g.seats) if s not in team]
    pay = [seat_payment(setup, s, outcome, stakes, terms) for s in range(g.seats)]
    laufende = terms.laufende
    won = is_won(outcome)
    skat = None
    if g.family == "skat":  # the game value; an overbid is lost whatever the play
        skat = game_value(g, outcome, *laufende_of(setup)) if not g.no_trick else game_value(g, outcome)
        won = skat.won
    side = tuple(sorted(team))
    return Result(game=g.name, points=t.points, tricks=t.tricks, side_points=t.side_points,
                  side_tricks=t.side_tricks, outcome=outcome, laufende=laufende, base=abs(base), multiplier=mult,
                  payments=tuple(pay), winners=side if won else tuple(defenders),
                  losers=tuple(defenders) if won else side, declaring=side, skat=skat)


def _seats(seats: Sequence[int]) -> str:
    return ",".join(str(s) for s in seats)


def _score_leaster(g: Game, t: Tally, stakes: Stakes) -> Result:
    n = g.seats
    eligible = [s for s in range(n) if t.tricks[s] > 0]
    low = min(t.points[s] for s in eligible)
    best = [s for s in eligible if t.points[s] == low]
    mult = stakes.factor
    pay = [0] * n
    if len(best) == 1:
        w = best[0]
        for s in range(n):
            pay[s] = mult * (n - 1) if s == w else -mult
        outcome, winners, losers = f"winner:{w}", (w,), tuple(s for s in range(n) if s != w)
    else:
        outcome, winners, losers = f"tie:{_seats(best)}", (), ()
    return Result(game=g.name, points=t.points, tricks=t.tricks, side_points=None, side_tricks=None,
                  outcome=outcome, laufende=0, base=1, multiplier=mult, payments=tuple(pay), winners=winners,
                  losers=losers)


def _score_ramsch(g: Game, t: Tally, stakes: Stakes) -> Result:
    n = g.seats
    mult = stakes.factor
    pay = [0] * n
    bonus = rule(g, "tariff_bonus")
    sweep = [s for s in range(n) if t.tricks[s] == g.tricks]
    if sweep:
        w = sweep[0]
        base = rule(g, "tariff_solo") + 2 * bonus  # a won schwarz solo, no Laufende
        for s in range(n):
            pay[s] = base * mult * (n - 1) if s == w else -base * mult
        return Result(game=g.name, points=t.points, tricks=t.tricks, side_points=None, side_tricks=None,
                      outcome=f"durchmarsch:{w}", laufende=0, base=base, multiplier=mult, payments=tuple(pay),
                      winners=(w,), losers=tuple(s for s in range(n) if s != w))
    base = rule(g, "ramsch_tariff")
    high = max(t.points)
    tied = [s for s in range(n) if t.points[s] == high]
    if len(tied) > 1 and rule(g, "ramsch_ties") == "nobody":
        return Result(game=g.name, points=t.points, tricks=t.tricks, side_points=None, side_tricks=None,
                      outcome=f"tie:{_seats(tied)}", laufende=0, base=base, multiplier=mult,
                      payments=tuple(pay), winners=(), losers=())
    others = [s for s in range(n) if s not in tied]
    for loser in tied:
        for s in others:
            amount = base * mult * (2 if t.tricks[s] == 0 else 1)  # a Jungfrau is paid double
            pay[loser] -= amount
            pay[s] += amount
    outcome = f"loser:{tied[0]}" if len(tied) == 1 else f"losers:{_seats(tied)}"
    return Result(game=g.name, points=t.points, tricks=t.tricks, side_points=None, side_tricks=None,
                  outcome=outcome, laufende=0, base=base, multiplier=mult, payments=tuple(pay),
                  winners=tuple(others) if others else (), losers=tuple(tied) if others else ())
