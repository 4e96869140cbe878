"""The reference scorer: card points, tricks, outcome and payments of a hand, for every game in RULES.md.

:func:`score` takes a finished :class:`~sheepsolve.engine.State` (and the :class:`Stakes`) and gives a
:class:`Result`; :func:`tally` gives the points and tricks so far of any state. The pure helpers
:func:`outcome_for`, :func:`payment_for`, :func:`laufende_of` and the payments of one setup
(:func:`payment_terms`, :func:`side_payment`, :func:`seat_payment`) are the rules that :mod:`sheepsolve.judge`
applies for every command; :func:`score` uses the same ones.

Seats are 0-based, as in :class:`~sheepsolve.engine.Setup` (seat 0 leads the first trick).

Outcome strings
---------------
Sheepshead (``sheepshead``, ``sheepshead-3``, ``sheepshead-4``), seen from the picker's side, the bury counted:

- ``schwarz``: the side took every trick (paid 3 units);
- ``schneider``: 91-120 points (2 units);
- ``win``: 61-90 points (1 unit);
- ``loss``: 31-60 points (60-60 goes to the defenders; -1 unit);
- ``schneidered``: 0-30 points (-2 units);
- ``schwarzed``: the side took no trick (-3 units).

Schwarz in Sheepshead is about tricks, never points: 120 points with a trick lost is ``schneider``.

Schafkopf contracts, seen from the declaring side (declarer and partner, or the soloist):

- ``win``, ``win-schneider`` (91+ points), ``win-schwarz`` (the defenders took no trick; with the switch
  ``schwarz_by_points``: the side has 120 points);
- ``loss``, ``loss-schneider`` (the side has 30 or less), ``loss-schwarz`` (the side took no trick; with
  ``schwarz_by_points``: 0 points);
- tout (any solo-type contract with ``tout``): ``win`` when the declarer took every trick, else ``loss``;
- sie: always ``win`` (not played out).

Leaster: ``winner:<seat>`` (the fewest points among the players who took a trick), or ``tie:<seat>,<seat>`` when
several share the fewest (nobody pays).

Ramsch: ``loser:<seat>`` (the most points), ``durchmarsch:<seat>`` (one player took every trick),
``losers:<seat>,<seat>`` (a tie for the most points, switch ``ramsch_ties = "all-lose"``) or
``tie:<seat>,<seat>`` (a tie, ``ramsch_ties = "nobody"``: nobody pays).

Payments
--------
``Result.payments`` is per seat and sums to zero. ``Result.base`` is the amount before the multipliers (units in
Sheepshead and leaster, the tariff with its bonuses in Schafkopf, the ramsch tariff) and ``Result.multiplier``
the product of every multiplier that applied. In two-sided games each defender pays or receives
``base * multiplier``; in leaster each other player pays the winner that much; in ramsch each loser pays that
much to each other player, double to a Jungfrau.

Readings where RULES.md is silent
---------------------------------
- 60-60 goes to the defenders in every two-sided game.
- ``bury_needs_trick``: when the picker's side takes no trick the bury counts for nobody (the points then sum
  to less than 120); the outcome is ``schwarzed`` either way.
- The picker is *alone* when the setup has no partner (he holds or buried the jack of diamonds, partner rule
  ``alone``, or he went alone on a called ace); ``alone_multiplier`` applies in 5-hand only. With a partner
  the side's total splits picker 2 : partner 1, which is exact since three defenders pay.
- Blitz: the picker held QC and QS in his hand at the first lead (after the bury); it doubles wins and losses.
  ``double_on_bump`` doubles every payment of a hand the picker's side loses.
- ``Stakes.doublers`` apply in every game (x2 each); crack and re-crack (Kontra/Re) only where there are
  sides: leaster and ramsch raise ValueError.
- Schafkopf schwarz is schneider too: a won schwarz sauspiel is 10 + 10 + 10. Laufende are paid in full once
  the run reaches the threshold (3 Laufende = 3 x ``tariff_bonus``), to whichever side won; the run starts at
  the highest trump, so it is the side holding it that has them.
- Tout: (tariff + Laufende) x ``tout_multiplier``, then Kontra/Re. Sie: not played out, valued as a won
  schwarz solo with its Laufende (from the declarer's hand: 8 with the long deck),
  (tariff_solo + 10 + 10 + 10 per Laufender) x ``sie_multiplier``; its points and tricks are what was played
  (normally nothing).
- Ramsch: each loser pays each other player; a Jungfrau (no trick) receives double from each loser; with
  ``all-lose`` tied players pay only players not tied (if all four tie, nobody pays). Durchmarsch: each
  other player pays ``tariff_solo`` + 2 x ``tariff_bonus`` (a won schwarz solo without Laufende), no
  Jungfrau doubling.
- Leaster: with ``leaster_blind = "nobody"`` the blind counts for no one; ties for the fewest points pay
  nothing; a player who took no trick pays the winner like everyone else.
- A setup dealt mid-hand (fewer cards than a full hand) has no result: :func:`score` refuses it and
  :func:`tally` gives its points.

>>> from sheepsolve.games import make_game
>>> g = make_game("sheepshead")
>>> outcome_for(g, 61), outcome_for(g, 60), outcome_for(g, 120, 5), outcome_for(g, 120, 6)
('win', 'loss', 'schneider', 'schwarz')
>>> payment_for(g, "schneider", stakes=Stakes(crack=True))
4
>>> payment_for(make_game("sauspiel"), "loss-schneider", laufende=3)
-50
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import Card
from .engine import Setup, State
from .files import clip
from .games import RULE_SWITCHES, Game

__all__ = [
    "MAX_DOUBLERS",
    "Stakes",
    "Tally",
    "Result",
    "score",
    "tally",
    "outcome_for",
    "payment_for",
    "laufende_of",
    "PaymentTerms",
    "payment_terms",
    "side_payment",
    "seat_payment",
    "SHEEPSHEAD_OUTCOMES",
    "SCHAFKOPF_OUTCOMES",
]

SHEEPSHEAD_OUTCOMES = ("schwarz", "schneider", "win", "loss", "schneidered", "schwarzed")
"""Sheepshead outcomes of the picker's side, best first."""

SCHAFKOPF_OUTCOMES = ("win-schwarz", "win-schneider", "win", "loss", "loss-schneider", "loss-schwarz")
"""Schafkopf outcomes of the declaring side, best first (tout and sie use ``win`` and ``loss`` only)."""

_SHEEPSHEAD_UNITS = {"schwarz": 3, "schneider": 2, "win": 1, "loss": -1, "schneidered": -2, "schwarzed": -3}


def _rule(game: Game, key: str) -> Any:
    return game.rules.get(key, RULE_SWITCHES[key].default)


# --------------------------------------------------------------------------------------------------------------
# Stakes


MAX_DOUBLERS = 16
"""The most doublers a hand takes (x65536): a sane stake, and a bound on the payments computed."""


@dataclass(frozen=True)
class Stakes:
    """What was doubled at the table: each of these doubles the payments.

    ``crack``/``recrack`` are Sheepshead's crack and re-crack, and Schafkopf's Kontra and Re (``recrack``
    needs ``crack``). ``doublers`` counts doubled hands (Sheepshead doubler after an all-pass; in Schafkopf
    read it as Klopfen/Legen): x2 each, in every game. Leaster and ramsch have no sides, so they take no crack.

    At most :data:`MAX_DOUBLERS` doublers (x65536): more is refused, not computed.

    >>> Stakes(crack=True, recrack=True, doublers=1).factor
    8
    """

    crack: bool = False
    recrack: bool = False
    doublers: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.doublers, bool) or not isinstance(self.doublers, int) or self.doublers < 0:
            raise ValueError(f"stakes.doublers: must be a whole number 0 or more, not {clip(repr(self.doublers))}")
        if self.doublers > MAX_DOUBLERS:
            raise ValueError(f"stakes.doublers: at most {MAX_DOUBLERS} (x{2 ** MAX_DOUBLERS}), not "
                             f"{clip(self.doublers)}")
        if self.recrack and not self.crack:
            raise ValueError("stakes.recrack: a re-crack (Re) needs a crack (Kontra) first")

    @property
    def factor(self) -> int:
        """The product of the doublings: crack x2, re-crack x2 more, x2 per doubler."""
        return 2 ** (int(self.crack) + int(self.recrack) + self.doublers)


# --------------------------------------------------------------------------------------------------------------
# Pure helpers


def _check_points(game: Game, points: int, tricks: int | None, total_tricks: int) -> None:
    if not 0 <= points <= game.total_points:
        raise ValueError(f"declaring points {points} out of range 0..{game.total_points}")
    if tricks is not None and not 0 <= tricks <= total_tricks:
        raise ValueError(f"declaring tricks {tricks} out of range 0..{total_tricks}")


def outcome_for(game: Game, declaring_points: int, declaring_tricks: int | None = None,
                total_tricks: int | None = None) -> str:
    """The outcome of a two-sided game from the declaring side's card points (the bury counted).

    ``declaring_tricks`` None means the tricks are unknown: the outcome is then decided by points alone, so
    the trick-based results (Sheepshead ``schwarz``/``schwarzed``, Schafkopf schwarz unless
    ``schwarz_by_points``) are never given, and a tout counts as won with every card point
    (``game.total_points``), its best reading from points. ``total_tricks`` defaults to ``game.tricks``.
    Raises ValueError for leaster and ramsch, which have no sides.

    >>> from sheepsolve.games import make_game
    >>> g = make_game("sheepshead")
    >>> [outcome_for(g, p) for p in (30, 31, 60, 61, 90, 91)]
    ['schneidered', 'loss', 'loss', 'win', 'win', 'schneider']
    >>> outcome_for(g, 0, 0), outcome_for(g, 0, 1)
    ('schwarzed', 'schneidered')
    >>> s = make_game("sauspiel")
    >>> outcome_for(s, 91), outcome_for(s, 30), outcome_for(s, 120, 8), outcome_for(s, 120, 7)
    ('win-schneider', 'loss-schneider', 'win-schwarz', 'win-schneider')
    >>> outcome_for(make_game("sauspiel", rules={"schwarz_by_points": True}), 120, 7)
    'win-schwarz'
    >>> outcome_for(make_game("wenz", tout=True), 120, 7)
    'loss'
    """
    if total_tricks is None:
        total_tricks = game.tricks
    _check_points(game, declaring_points, declaring_tricks, total_tricks)
    total = game.total_points
    p, t = declaring_points, declaring_tricks
    if game.kind == "picker":
        if t is not None and t == total_tricks:
            return "schwarz"
        if t is not None and t == 0:
            return "schwarzed"
        if p * 4 > total * 3:  # 91-120
            return "schneider"
        if p * 2 > total:  # 61-90
            return "win"
        if p * 4 > total:  # 31-60
            return "loss"
        return "schneidered"
    if game.kind != "contract":
        raise ValueError(f"{game.name} has no declaring side: its outcome depends on every player's points")
    if game.sie:
        return "win"
    if game.tout:
        if t is not None:
            return "win" if t == total_tricks else "loss"
        return "win" if p == total else "loss"
    won = p * 2 > total  # 60-60 goes to the defenders
    if _rule(game, "schwarz_by_points"):
        schwarz = p == total if won else p == 0
    elif t is not None:
        schwarz = t == total_tricks if won else t == 0
    else:
        schwarz = False
    if won:
        schneider = p * 4 > total * 3  # 91+
    else:
        schneider = p * 4 <= total  # 30 or less
    if schwarz:
        return "win-schwarz" if won else "loss-schwarz"
    if schneider:
        return "win-schneider" if won else "loss-schneider"
    return "win" if won else "loss"


def _won(outcome: str) -> bool:
    return outcome in ("schwarz", "schneider", "win") or outcome.startswith("win-")


def _amount(game: Game, outcome: str, *, laufende: int = 0, stakes: Stakes | None = None, alone: bool = False,
            blitz: bool = False) -> tuple[int, int]:
    """(base, multiplier) of a two-sided game; base is signed, positive when the declaring side won."""
    stakes = stakes or Stakes()
    mult = stakes.factor
    if game.kind == "picker":
        if outcome not in _SHEEPSHEAD_UNITS:
            raise ValueError(f"unknown Sheepshead outcome {outcome!r} (one of {', '.join(SHEEPSHEAD_OUTCOMES)})")
        base = _SHEEPSHEAD_UNITS[outcome]
        if alone and game.seats == 5:
            mult *= _rule(game, "alone_multiplier")
        if blitz and _rule(game, "blitz"):
            mult *= 2
        if base < 0 and _rule(game, "double_on_bump"):
            mult *= 2
        return base, mult
    if game.kind != "contract":
        raise ValueError(f"{game.name} has no declaring side: use score() for its payments")
    bonus = _rule(game, "tariff_bonus")
    tariff = _rule(game, "tariff_solo") if game.solo_type else _rule(game, "tariff_sauspiel")
    if laufende < 0:
        raise ValueError(f"laufende must be 0 or more, not {laufende}")
    if game.sie:
        if outcome != "win":
            raise ValueError(f"a sie has only the outcome 'win', not {outcome!r}")
        return tariff + 2 * bonus + laufende * bonus, mult * _rule(game, "sie_multiplier")
    if game.tout:
        if outcome not in ("win", "loss"):
            raise ValueError(f"a tout is won or lost, not {outcome!r}")
        base = tariff + laufende * bonus
        return (base if outcome == "win" else -base), mult * _rule(game, "tout_multiplier")
    if outcome not in SCHAFKOPF_OUTCOMES:
        raise ValueError(f"unknown Schafkopf outcome {outcome!r} (one of {', '.join(SCHAFKOPF_OUTCOMES)})")
    base = tariff + laufende * bonus
    if outcome.endswith("schneider"):
        base += bonus
    elif outcome.endswith("schwarz"):
        base += 2 * bonus  # schwarz is schneider too
    return (base if _won(outcome) else -base), mult


def payment_for(game: Game, outcome: str, *, laufende: int = 0, stakes: Stakes | None = None,
                alone: bool = False, blitz: bool = False) -> int:
    """What each defender pays the declaring side (negative: what each receives), every multiplier applied.

    Sheepshead: 1/2/3 units per defender for win/schneider/schwarz, mirrored for losses. ``alone`` (the picker
    has no partner) multiplies by ``alone_multiplier`` in 5-hand only: in 3-hand and 4-hand the picker is
    always alone and no alone multiplier applies. ``blitz`` (the picker held QC and QS at the first lead)
    doubles only under the ``blitz`` switch; ``double_on_bump`` doubles losses.

    Schafkopf: tariff (sauspiel ``tariff_sauspiel``, solo-type ``tariff_solo``) + ``tariff_bonus`` for
    schneider, again for schwarz, and per Laufender (``laufende``: the count that is paid, 0 below the game's
    threshold); a tout is (tariff + Laufende) x ``tout_multiplier``; a sie is valued as a won schwarz solo with
    its Laufende, x ``sie_multiplier``. Kontra/Re (``stakes.crack``/``recrack``) and doublers double.

    >>> from sheepsolve.games import make_game
    >>> g = make_game("sheepshead")
    >>> payment_for(g, "win", alone=True), payment_for(make_game("sheepshead-3"), "win", alone=True)
    (2, 1)
    >>> payment_for(make_game("solo", trump="H"), "win-schwarz", laufende=4, stakes=Stakes(crack=True))
    220
    >>> payment_for(make_game("wenz", tout=True), "loss", laufende=2)
    -140
    """
    base, mult = _amount(game, outcome, laufende=laufende, stakes=stakes, alone=alone, blitz=blitz)
    return base * mult


def laufende_of(setup: Setup) -> tuple[int, bool]:
    """The unbroken run of top trumps held by one side at the first lead, and whether that side declares.

    The run is counted in full, before the game's threshold (``game.laufende_from``): a run shorter than the
    threshold pays nothing. Only for two-sided games.

    >>> from sheepsolve.games import make_game
    >>> from sheepsolve.cards import parse_cards
    >>> g = make_game("wenz")
    >>> hands = [parse_cards("JC JS AC TC KC AS TS KS"), parse_cards("JH QC 9C 8C 7C QS 9S 8S"),
    ...          parse_cards("JD 7S AH TH KH QH 9H 8H"), parse_cards("AD TD KD QD 9D 8D 7D 7H")]
    >>> laufende_of(Setup.create(g, hands, declarer=0))
    (2, True)
    >>> laufende_of(Setup.create(g, hands, declarer=1))
    (2, False)
    """
    g = setup.game
    if not g.two_sided:
        raise ValueError(f"{g.name} has no sides and no Laufende")
    owner: dict[Card, int] = {c: seat for seat, h in enumerate(setup.hands) for c in h}
    if setup.declarer is not None:
        owner.update({c: setup.declarer for c in setup.bury})  # the bury is the picker's
    run = 0
    side: bool | None = None
    for c in g.trumps:
        seat = owner.get(c)
        if seat is None:  # not in play: the run stops
            break
        mine = seat in setup.team
        if side is None:
            side = mine
        elif mine != side:
            break
        run += 1
    return run, bool(side)


# --------------------------------------------------------------------------------------------------------------
# The payments of one setup


_QC, _QS = Card.make("Q", "C"), Card.make("Q", "S")


@dataclass(frozen=True)
class PaymentTerms:
    """What a two-sided setup's payments depend on besides the outcome and the stakes: the Laufende paid (the
    run, 0 below the game's threshold; Schafkopf), whether the declarer has no partner, and blitz (the picker
    holds both black queens at the first lead; Sheepshead)."""

    laufende: int
    alone: bool
    blitz: bool


def payment_terms(setup: Setup) -> PaymentTerms:
    """The :class:`PaymentTerms` of a two-sided ``setup``."""
    g = setup.game
    laufende, blitz = 0, False
    if g.kind == "contract":
        run, _ = laufende_of(setup)
        laufende = run if run >= g.laufende_from else 0
    elif setup.declarer is not None:
        hand = setup.hands[setup.declarer]
        blitz = _QC in hand and _QS in hand
    return PaymentTerms(laufende, setup.partner is None, blitz)


def side_payment(game: Game, outcome: str, terms: PaymentTerms, stakes: Stakes | None = None) -> int:
    """What each defender pays the declaring side for ``outcome`` (negative: what each receives): :func:`payment_for`
    with the setup's :class:`PaymentTerms`."""
    return payment_for(game, outcome, laufende=terms.laufende, stakes=stakes, alone=terms.alone, blitz=terms.blitz)


def seat_payment(setup: Setup, seat: int, outcome: str, stakes: Stakes | None = None,
                 terms: PaymentTerms | None = None) -> int:
    """What ``seat`` is paid (negative: pays) for the declaring side's ``outcome``: a defender pays
    :func:`side_payment`; the declaring side receives every defender's, the declarer alone all of it, a
    Sheepshead picker and partner 2 : 1 (exact, since three defenders pay), a sauspiel's declarer and partner
    one defender's each.

    >>> from sheepsolve.games import make_game
    >>> from sheepsolve.cards import parse_cards
    >>> g = make_game("sheepshead")
    >>> hands = [parse_cards(h) for h in ("QC QS JC AD TD KD", "QH JD AC TC KC 9C", "QD JS AS TS KS 9S",
    ...                                   "JH AH TH KH 9H 8H", "9D 8D 8C 7C 8S 7S")]
    >>> st = Setup.create(g, hands, declarer=0, blind=parse_cards("7D 7H"), bury=parse_cards("7D 7H"))
    >>> [seat_payment(st, s, "win") for s in range(5)], [seat_payment(st, s, "schneidered") for s in range(5)]
    ([2, 1, -1, -1, -1], [-4, -2, 2, 2, 2])
    """
    g = setup.game
    each = side_payment(g, outcome, terms or payment_terms(setup), stakes)
    if seat not in setup.team:
        return -each
    defenders = g.seats - len(setup.team)
    total = each * defenders
    if setup.partner is None:
        return total
    if g.kind == "picker":  # picker 2 : partner 1
        if total % 3:
            raise ValueError(f"{g.name}: {defenders} defenders do not split 2:1")  # pragma: no cover
        return total // 3 * 2 if seat == setup.declarer else total // 3
    if defenders != 2:  # sauspiel: each loser pays one winner
        raise ValueError(f"{g.name}: a sauspiel needs 2 against 2")  # pragma: no cover
    return each


# --------------------------------------------------------------------------------------------------------------
# Tally and result


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
    return not _rule(setup.game, "bury_needs_trick") or side_tricks > 0


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
        where = _rule(g, "leaster_blind")
        last = max(len(h) for h in setup.hands) - 1  # the setup may be dealt mid-hand
        idx = 0 if where == "first" else (last if where == "last" else None)
        if idx is not None and 0 <= idx < len(state.tricks):
            pts[state.tricks[idx].winner] += sum(c.points for c in setup.blind)
    side_points = side_tricks = None
    if g.two_sided:
        side_points = {"declaring": sum(pts[s] for s in team),
                       "defending": sum(p for s, p in enumerate(pts) if s not in setup.team)}
        side_tricks = {"declaring": sum(tricks[s] for s in team),
                       "defending": sum(t for s, t in enumerate(tricks) if s not in setup.team)}
    return Tally(points=tuple(pts), tricks=tuple(tricks), side_points=side_points, side_tricks=side_tricks,
                 declaring=tuple(team))


_SEAT_OUTCOMES = ("winner:", "loser:", "losers:", "durchmarsch:", "tie:")


@dataclass(frozen=True)
class Result:
    """The score of a finished hand. ``payments`` sum to zero; ``winners``/``losers`` are seats."""

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
    base, mult = _amount(g, outcome, laufende=terms.laufende, stakes=stakes, alone=terms.alone, blitz=terms.blitz)
    team = set(setup.team)
    defenders = [s for s in range(g.seats) if s not in team]
    pay = [seat_payment(setup, s, outcome, stakes, terms) for s in range(g.seats)]
    laufende = terms.laufende
    won = _won(outcome)
    side = tuple(sorted(team))
    return Result(game=g.name, points=t.points, tricks=t.tricks, side_points=t.side_points,
                  side_tricks=t.side_tricks, outcome=outcome, laufende=laufende, base=abs(base), multiplier=mult,
                  payments=tuple(pay), winners=side if won else tuple(defenders),
                  losers=tuple(defenders) if won else side, declaring=side)


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
    bonus = _rule(g, "tariff_bonus")
    sweep = [s for s in range(n) if t.tricks[s] == g.tricks]
    if sweep:
        w = sweep[0]
        base = _rule(g, "tariff_solo") + 2 * bonus  # a won schwarz solo, no Laufende
        for s in range(n):
            pay[s] = base * mult * (n - 1) if s == w else -base * mult
        return Result(game=g.name, points=t.points, tricks=t.tricks, side_points=None, side_tricks=None,
                      outcome=f"durchmarsch:{w}", laufende=0, base=base, multiplier=mult, payments=tuple(pay),
                      winners=(w,), losers=tuple(s for s in range(n) if s != w))
    base = _rule(g, "ramsch_tariff")
    high = max(t.points)
    tied = [s for s in range(n) if t.points[s] == high]
    if len(tied) > 1 and _rule(g, "ramsch_ties") == "nobody":
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
