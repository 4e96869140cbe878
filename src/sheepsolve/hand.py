"""What a hand record tells about the hand, worked out once from its kept replay: the players and their roles,
every trick (leader, cards in play order, winner, points), the running points per player and per side, and either
the result (outcome, Laufende, payments) of a finished hand or the player to move and the legal cards.

Points, outcomes and payments come from :mod:`sheepsolve.scoring` (:func:`~sheepsolve.scoring.tally`,
:func:`~sheepsolve.scoring.score`), never computed here. A record that leaves hands out is told as far as it is
known: its replay (:attr:`Record.replay <sheepsolve.record.Record.replay>`) holds the known hands to the rules,
so every finished trick has its winner and points; the declaring side is named when the call or the play reveals
it; the result and, when the hand of the player to move is unknown, the legal cards are left out, and
:attr:`HandFacts.missing` says what is missing. :mod:`sheepsolve.render.show` turns a :class:`HandFacts` into text
(``sheepsolve show``); :meth:`HandFacts.to_dict` is its JSON.

>>> from sheepsolve.record import parse_record
>>> rec = parse_record('''
... game = "sheepshead-3"
... players = ["Ann", "Bob", "Cal"]
... picker = "Ann"
... blind = "8H 7H"
... bury = "8H 7H"
... play = ["QC KD AS", "QS"]
... [hands]
... Ann = "QC QS QH QD JC JS JH JD AD TD"
... Bob = "KD 9D 8D 7D AC TC KC 9C 8C 7C"
... Cal = "AS TS KS 9S 8S 7S AH TH KH 9H"
... ''')
>>> v = hand_view(rec)
>>> v.players[v.to_move], [str(c) for c in v.legal][:3], v.tally.points
('Bob', ['9D', '8D', '7D'], (18, 0, 0))
>>> v.to_dict()["tricks_played"][0]
{'number': 1, 'leader': 'Ann', 'cards': ['QC', 'KD', 'AS'], 'players': ['Ann', 'Bob', 'Cal'], 'winner': 'Ann', \
'points': 18}
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card
from .engine import State
from .games import Game
from .record import Record
from .scoring import Result, Stakes, Tally, laufende_of, score, tally

__all__ = ["HandFacts", "TrickFacts", "hand_view"]


@dataclass(frozen=True)
class TrickFacts:
    """One trick: its number (1-based), leader seat, cards in play order and the seat of each card."""

    number: int
    leader: int
    cards: tuple[Card, ...]
    seats: tuple[int, ...]
    winner: int | None  # None while the trick is on the table
    points: int  # card points of the cards played so far


@dataclass(frozen=True)
class HandFacts:
    """What a record tells about a hand. Seats are 0-based; names are in ``players``.

    ``state`` is the engine's position after the last card (for a partial record: replayed with the unknown
    hands standing in, good for the tricks and the legal cards of a known hand, nothing else). ``team`` is the
    declaring side when it is known (``None`` in games without sides, or when the record does not reveal the
    partner). ``running`` holds the tally after each finished trick; ``opening`` the tally before the first
    trick (the bury). ``result`` is the score of a finished, complete hand; ``no_result`` says why there is
    none when the hand is finished but cannot be scored; ``laufende`` is a finished, complete contract's run
    (:func:`~sheepsolve.scoring.laufende_of`: its length, and whether the declaring side holds it).
    """

    record: Record
    state: State
    complete: bool
    missing: tuple[str, ...]
    tricks: tuple[TrickFacts, ...]
    current: TrickFacts | None
    team: frozenset[int] | None
    roles: tuple[str, ...]
    opening: Tally
    running: tuple[Tally, ...]
    tally: Tally
    finished: bool
    result: Result | None
    no_result: str | None
    to_move: int | None
    legal: tuple[Card, ...] | None  # None: the hand of the player to move is unknown
    laufende: tuple[int, bool] | None = None  # a played contract's run and whether the declaring side holds it

    @property
    def game(self) -> Game:
        return self.record.game

    @property
    def players(self) -> tuple[str, ...]:
        return self.record.players

    def side_points(self, t: Tally) -> dict[str, int] | None:
        """Points per side of a tally, when the sides are known."""
        if self.team is None:
            return None
        past = self.state.setup.past_points or (0,) * len(t.points)  # a position's earlier tricks, by side
        return {"declaring": sum(p + past[s] for s, p in enumerate(t.points) if s in self.team),
                "defending": sum(p + past[s] for s, p in enumerate(t.points) if s not in self.team)}

    def side_tricks(self, t: Tally) -> dict[str, int] | None:
        if self.team is None:
            return None
        past = self.state.setup.past_tricks or (0,) * len(t.tricks)
        return {"declaring": sum(x + past[s] for s, x in enumerate(t.tricks) if s in self.team),
                "defending": sum(x + past[s] for s, x in enumerate(t.tricks) if s not in self.team)}


    def holder(self, card: Card) -> int | None:
        """Who held ``card`` when play started: from the hands as dealt (the blind and bury are the picker's),
        or from who played it; None if unknown."""
        return _holder(self.record, self.state, card)

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON-ready data keyed by player name; cards in canonical ASCII.

        Fields: ``game``, ``title``, ``players``, ``roles``, ``declarer``, ``partner``, ``declaring``, ``complete``,
        ``missing``, ``inferred`` (the keys the reader completed from the play: ``hands.<player>``, ``blind``,
        ``bury``), ``hands`` (as dealt, trumps first; null where unknown), ``blind``, ``bury``, ``called``,
        ``under``, ``stakes``, ``tricks_played`` (each ``number``, ``leader``, ``cards``, ``players``, ``winner``,
        ``points``), ``current_trick`` (the unfinished trick, or null), ``points`` (per player, the bury counted
        for the picker), ``tricks`` (taken per player), ``side_points`` and ``side_tricks`` (``declaring``,
        ``defending``; null without known sides), ``finished``, ``outcome``, ``laufende``, ``multiplier``,
        ``payments`` (null unless scored), ``skat`` (Skat only: the game value and list score, null unless
        scored: :meth:`sheepsolve.scoring.SkatValue.to_dict`), ``no_result`` (why a finished hand has no result), ``to_move`` and
        ``legal`` (null and ``[]`` for a finished hand; ``legal`` null when the hand to move is unknown).
        """
        rec, g = self.record, self.game
        names = self.players

        def name(s: int | None) -> str | None:
            return names[s] if s is not None else None

        def cards(cs: Sequence[Card] | None) -> list[str] | None:
            return [str(c) for c in cs] if cs is not None else None

        def trick(t: TrickFacts) -> dict[str, Any]:
            return {"number": t.number, "leader": names[t.leader], "cards": cards(t.cards),
                    "players": [names[s] for s in t.seats], "winner": name(t.winner), "points": t.points}

        partner = None
        if self.team is not None and rec.declarer is not None:
            others = sorted(self.team - {rec.declarer})
            partner = names[others[0]] if others else None
        out: dict[str, Any] = {
            "game": g.name,
            "title": g.title,
            "players": list(names),
            "roles": {names[s]: r for s, r in enumerate(self.roles)},
            "declarer": name(rec.declarer),
            "partner": partner,
            "declaring": [names[s] for s in sorted(self.team)] if self.team is not None else None,
            "complete": self.complete,
            "missing": list(self.missing),
            "inferred": list(rec.inferred),
            "hands": {names[s]: cards(g.sort_cards(h)) if h is not None else None for s, h in enumerate(rec.hands)},
            "blind": cards(rec.blind) if g.blind_size else None,
            "bury": cards(rec.bury) if g.bury_size else None,
            "called": str(rec.called) if rec.called is not None else None,
            "under": str(rec.under) if rec.under is not None else None,
            "stakes": {"crack": rec.crack, "recrack": rec.recrack, "doublers": rec.doublers},
            "tricks_played": [trick(t) for t in self.tricks],
            "current_trick": trick(self.current) if self.current is not None else None,
            "finished": self.finished,
        }
        if self.result is not None:
            r = self.result.to_dict(names)
            out.update({"points": r["points"], "tricks": r["tricks"], "side_points": r["side_points"],
                        "side_tricks": r["side_tricks"], "outcome": r["outcome"],
                        "laufende": r["laufende"] if g.kind == "contract" and not g.no_trick else None, "multiplier": r["multiplier"],
                        "payments": r["payments"], "winners": r["winners"], "losers": r["losers"]})
            if g.family == "skat":
                out["skat"] = r["skat"]
        else:
            t = self.tally
            out.update({"points": {names[s]: p for s, p in enumerate(t.points)},
                        "tricks": {names[s]: x for s, x in enumerate(t.tricks)},
                        "side_points": self.side_points(t), "side_tricks": self.side_tricks(t), "outcome": None,
                        "laufende": None, "multiplier": None, "payments": None, "winners": None, "losers": None})
            if g.family == "skat":
                out["skat"] = None
        out["no_result"] = self.no_result
        out["to_move"] = name(self.to_move)
        out["legal"] = cards(self.legal)
        return out


def hand_view(rec: Record) -> HandFacts:
    """Gather what ``rec`` tells about the hand (see :class:`HandFacts`)."""
    g = rec.game
    missing = tuple(rec.missing_parts())
    complete = not missing
    replay = rec.replay
    setup = replay.setup
    states = replay.trick_ends()
    state = states[-1]
    team = setup.team if complete and g.two_sided else (_known_team(rec, state) if g.two_sided else None)
    if not complete and g.two_sided:
        # The stand-in setup made up the partner: tally with the side the record reveals, or else with the
        # picker alone (with ``bury_needs_trick`` his bury then counts only once he has taken a trick himself)
        known_side = team if team is not None else frozenset({rec.declarer} if rec.declarer is not None else ())
        setup = dataclasses.replace(setup, team=frozenset(known_side))
        states = [dataclasses.replace(s, setup=setup) for s in states]
        state = states[-1]
    tricks = tuple(TrickFacts(number=i, leader=t.leader, cards=t.cards,
                             seats=tuple((t.leader + k) % g.seats for k in range(len(t.cards))),
                             winner=t.winner, points=t.points)
                   for i, t in enumerate(state.tricks, 1))
    current = None
    if state.trick:
        current = TrickFacts(number=len(state.tricks) + 1, leader=state.leader, cards=state.trick,
                            seats=tuple((state.leader + k) % g.seats for k in range(len(state.trick))),
                            winner=None, points=sum(c.points for c in state.trick))
    # running tallies: one state per finished trick (states holds one per trick of the record, the last one
    # possibly unfinished)
    done_states = [s for s in states[1:] if not s.trick]
    opening = tally(states[0])
    running = tuple(tally(s) for s in done_states)
    now = tally(state)
    # a position set by its cards plays out the tricks its hands hold
    tricks_in_play = max(len(h) for h in setup.hands) if rec.position is not None else g.tricks
    finished = g.sie or (len(state.tricks) == tricks_in_play and not state.trick)
    result = None
    no_result = None
    laufende = None
    if finished:
        if complete:
            try:
                result = score(state, Stakes(crack=rec.crack, recrack=rec.recrack, doublers=rec.doublers))
            except ValueError as e:
                no_result = str(e)
            if g.kind == "contract" and not g.sie and not g.no_trick:
                try:
                    laufende = laufende_of(setup)
                except ValueError:  # a position set by its cards whose run reaches a trump played before it
                    laufende = None
        else:
            no_result = "the record is incomplete (" + "; ".join(missing) + ")"
    to_move = None if finished else state.to_move
    legal: tuple[Card, ...] | None = ()
    if not finished:
        known = complete or rec.hands[state.to_move] is not None and (
            g.kind != "picker" or state.to_move != rec.declarer or (rec.blind is not None and rec.bury is not None))
        legal = tuple(state.legal()) if known else None
    return HandFacts(record=rec, state=state, complete=complete, missing=missing, tricks=tricks, current=current,
                    team=team, roles=_roles(rec, team), opening=opening, running=running, tally=now,
                    finished=finished, result=result, no_result=no_result, to_move=to_move, legal=legal,
                    laufende=laufende)



def _played_by(state: State) -> dict[Card, int]:
    out: dict[Card, int] = {}
    for t in state.tricks:
        out.update(((c, (t.leader + k) % state.seats) for k, c in enumerate(t.cards)))
    out.update(((c, (state.leader + k) % state.seats) for k, c in enumerate(state.trick)))
    return out


def _holder(rec: Record, state: State, card: Card) -> int | None:
    """Who held ``card`` when play started: from the hands as dealt (the blind and bury are the picker's), or
    from who played it; None if unknown."""
    for s, h in enumerate(rec.hands):
        if h is not None and card in h:
            return s
    if card in (rec.blind or ()) or card in (rec.bury or ()):
        return rec.declarer
    return _played_by(state).get(card)


def _known_team(rec: Record, state: State) -> frozenset[int] | None:
    """The declaring side of a partial record, when its call or its play reveals it (engine's rules of
    :meth:`~sheepsolve.engine.Setup.create`); None when it does not."""
    g, p = rec.game, rec.declarer
    if p is None:
        return None
    if g.partner in ("alone", "none") or rec.alone:
        return frozenset({p})
    if g.partner in ("called-ace", "sauspiel"):
        if rec.called is None:
            return frozenset({p})
        h = _holder(rec, state, rec.called)
        return frozenset({p, h}) if h is not None else None
    if g.partner == "jack-of-diamonds":
        jd = Card.make("J", "D")
        target: Card | None = jd
        if g.rules.get("call_up"):
            h = _holder(rec, state, jd)
            if h is None:
                return None
            if h == p:
                if rec.hands[p] is None or rec.blind is None:
                    return None
                mine = set(rec.hands[p]) | set(rec.blind)  # type: ignore[arg-type]
                target = next((Card.make("J", s) for s in "CSHD" if Card.make("J", s) not in mine), None)
        if target is None:
            return frozenset({p})
        h = _holder(rec, state, target)
        if h is None:
            return None
        return frozenset({p, h})
    return None


def _roles(rec: Record, team: frozenset[int] | None) -> tuple[str, ...]:
    g, p = rec.game, rec.declarer
    roles = [""] * g.seats
    if p is None or not g.two_sided:
        return tuple(roles)
    lead = "picker" if g.kind == "picker" and g.family != "skat" else "declarer"
    for s in range(g.seats):
        if s == p:
            roles[s] = lead
        elif team is None:
            roles[s] = "?"
        elif s in team:
            roles[s] = "partner"
        else:
            roles[s] = "defender"
    if team == frozenset({p}) and g.partner in ("jack-of-diamonds", "called-ace"):
        roles[p] = f"{lead}, alone"
    return tuple(roles)

