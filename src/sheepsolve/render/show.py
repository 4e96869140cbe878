"""Terminal text (and JSON-ready data) for a hand record: what ``sheepsolve show`` prints.

:func:`hand_view` gathers everything a record tells: the players and their roles, the hands as dealt sorted in
the game's order, the blind, bury and call, every trick (leader, cards in play order, winner, points), the
running points per player and per side, and either the result (outcome, Laufende, payments) of a finished hand
or the player to move and the legal cards of an unfinished one. :func:`render` turns it into aligned text,
:func:`view_data` into plain data for ``--json``. Points, outcomes and payments come from
:mod:`sheepsolve.scoring` (:func:`~sheepsolve.scoring.tally`, :func:`~sheepsolve.scoring.score`), never
computed here.

A record that leaves hands out is shown as far as it is known: the play is replayed through the engine with
the known hands held to the rules (as :mod:`sheepsolve.record` checks it when reading), so every finished
trick has its winner and points; the declaring side is named when the call or the play reveals it; the result
and, when the hand of the player to move is unknown, the legal cards are left out, and
:attr:`HandView.missing` says what is missing.

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
>>> d = view_data(v)
>>> d["tricks_played"][0]
{'number': 1, 'leader': 'Ann', 'cards': ['QC', 'KD', 'AS'], 'players': ['Ann', 'Bob', 'Cal'], 'winner': 'Ann', \
'points': 18}
>>> print(render(v, "ascii").splitlines()[0])
Sheepshead (3-hand)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card, card_name, format_card, suit_title
from ..engine import Setup, State
from ..files import clip
from ..games import RULE_SWITCHES, Game
from ..record import Record, RecordError
from ..scoring import Result, Stakes, Tally, laufende_of, score, tally
from .text import contract_name, game_title, names_of, signed, table as _table

__all__ = ["HandView", "TrickView", "hand_view", "render", "view_data", "header_lines", "result_text"]


# --------------------------------------------------------------------------------------------------------------
# The view: everything known about a record, computed once, shown as text or data.


@dataclass(frozen=True)
class TrickView:
    """One trick: its number (1-based), leader seat, cards in play order and the seat of each card."""

    number: int
    leader: int
    cards: tuple[Card, ...]
    seats: tuple[int, ...]
    winner: int | None  # None while the trick is on the table
    points: int  # card points of the cards played so far


@dataclass(frozen=True)
class HandView:
    """What a record tells about a hand. Seats are 0-based; names are in ``players``.

    ``state`` is the engine's position after the last card (for a partial record: replayed with the unknown
    hands standing in, good for the tricks and the legal cards of a known hand, nothing else). ``team`` is the
    declaring side when it is known (``None`` in games without sides, or when the record does not reveal the
    partner). ``running`` holds the tally after each finished trick; ``opening`` the tally before the first
    trick (the bury). ``result`` is the score of a finished, complete hand; ``no_result`` says why there is
    none when the hand is finished but cannot be scored.
    """

    record: Record
    state: State
    complete: bool
    missing: tuple[str, ...]
    tricks: tuple[TrickView, ...]
    current: TrickView | None
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
        return {"declaring": sum(p for s, p in enumerate(t.points) if s in self.team),
                "defending": sum(p for s, p in enumerate(t.points) if s not in self.team)}

    def side_tricks(self, t: Tally) -> dict[str, int] | None:
        if self.team is None:
            return None
        return {"declaring": sum(x for s, x in enumerate(t.tricks) if s in self.team),
                "defending": sum(x for s, x in enumerate(t.tricks) if s not in self.team)}


def hand_view(rec: Record) -> HandView:
    """Gather what ``rec`` tells about the hand (see :class:`HandView`)."""
    g = rec.game
    missing = tuple(_missing(rec))
    complete = not missing
    if complete:
        setup = rec.setup()
        states = _replay_prefixes(setup, rec.play)
    else:
        setup, states = _partial_replay(rec)
    state = states[-1]
    team = setup.team if complete and g.two_sided else (_known_team(rec, state) if g.two_sided else None)
    if not complete and g.two_sided:
        # The stand-in setup made up the partner: tally with the side the record reveals, or else with the
        # picker alone (with ``bury_needs_trick`` his bury then counts only once he has taken a trick himself)
        known_side = team if team is not None else frozenset({rec.declarer} if rec.declarer is not None else ())
        setup = dataclasses.replace(setup, team=frozenset(known_side))
        states = [_with_setup(s, setup) for s in states]
        state = states[-1]
    tricks = tuple(TrickView(number=i, leader=t.leader, cards=t.cards,
                             seats=tuple((t.leader + k) % g.seats for k in range(len(t.cards))),
                             winner=t.winner, points=t.points)
                   for i, t in enumerate(state.tricks, 1))
    current = None
    if state.trick:
        current = TrickView(number=len(state.tricks) + 1, leader=state.leader, cards=state.trick,
                            seats=tuple((state.leader + k) % g.seats for k in range(len(state.trick))),
                            winner=None, points=sum(c.points for c in state.trick))
    # running tallies: one state per finished trick (states holds one per trick of the record, the last one
    # possibly unfinished)
    done_states = [s for s in states[1:] if not s.trick]
    opening = tally(states[0])
    running = tuple(tally(s) for s in done_states)
    now = tally(state)
    finished = g.sie or (len(state.tricks) == g.tricks and not state.trick)
    result = None
    no_result = None
    if finished:
        if complete:
            try:
                result = score(state, Stakes(crack=rec.crack, recrack=rec.recrack, doublers=rec.doublers))
            except ValueError as e:
                no_result = str(e)
        else:
            no_result = "the record is incomplete (" + "; ".join(missing) + ")"
    to_move = None if finished else state.to_move
    legal: tuple[Card, ...] | None = ()
    if not finished:
        known = complete or rec.hands[state.to_move] is not None and (
            g.kind != "picker" or state.to_move != rec.declarer or (rec.blind is not None and rec.bury is not None))
        legal = tuple(state.legal()) if known else None
    return HandView(record=rec, state=state, complete=complete, missing=missing, tricks=tricks, current=current,
                    team=team, roles=_roles(rec, team), opening=opening, running=running, tally=now,
                    finished=finished, result=result, no_result=no_result, to_move=to_move, legal=legal)


def _missing(rec: Record) -> list[str]:
    out = []
    absent = [p for p, h in zip(rec.players, rec.hands) if h is None]
    if absent:
        out.append("no hand for " + ", ".join(absent))
    if rec.blind is None:
        out.append("no blind")
    if rec.bury is None:
        out.append("no bury")
    return out


def _replay_prefixes(setup: Setup, play: Sequence[Sequence[Card]]) -> list[State]:
    """The start and the state after each trick of ``play`` (the last may be unfinished)."""
    s = setup.start()
    out = [s]
    for trick in play:
        s = s.play_cards(trick)
        out.append(s)
    return out


def _partial_replay(rec: Record) -> tuple[Setup, list[State]]:
    """Replay a partial record the way :mod:`sheepsolve.record` checks it: a stand-in setup carrying the
    record's call, the known hands held to every rule, a card of an unknown hand played from a hand of that one
    card. Raises :class:`RecordError` (naming what is missing) if that cannot be done."""
    try:
        from ..record.replay import call_setup as _call_setup, first_lead_hands as _first_lead_hands, replay_record as _replay
    except ImportError:  # pragma: no cover - record.py changed its internals
        raise RecordError("show: cannot replay a record with unknown hands (" + "; ".join(_missing(rec)) + ")")
    first = _first_lead_hands(rec)
    meta = _call_setup(rec)
    setup = dataclasses.replace(meta, hands=tuple(h if h is not None else frozenset() for h in first),
                                blind=rec.blind or (), bury=rec.bury or ())
    known = frozenset(s for s, h in enumerate(first) if h is not None)
    states = [setup.start()]
    for k in range(1, len(rec.play) + 1):
        states.append(_replay(dataclasses.replace(rec, play=rec.play[:k]), setup, known))
    # The states hold the known hands; their setup keeps the stand-in's full-size hands, so that what reads the
    # hand size from the setup (the trick the leaster blind goes to) sees a whole hand.
    setup = dataclasses.replace(setup, hands=meta.hands)
    return setup, [_with_setup(s, setup) for s in states]


def _with_setup(state: State, setup: Setup) -> State:
    return dataclasses.replace(state, setup=setup)


def _played_by(state: State) -> dict[Card, int]:
    out: dict[Card, int] = {}
    for t in state.tricks:
        out.update(((c, (t.leader + k) % state.n) for k, c in enumerate(t.cards)))
    out.update(((c, (state.leader + k) % state.n) for k, c in enumerate(state.trick)))
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
    lead = "picker" if g.kind == "picker" else "declarer"
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


# --------------------------------------------------------------------------------------------------------------
# Plain data (``sheepsolve show --json``).


def view_data(v: HandView) -> dict[str, Any]:
    """The view as JSON-ready data keyed by player name; cards in canonical ASCII.

    Fields: ``game``, ``title``, ``players``, ``roles``, ``declarer``, ``partner``, ``declaring``, ``complete``,
    ``missing``, ``inferred`` (the keys the reader completed from the play: ``hands.<player>``, ``blind``,
    ``bury``), ``hands`` (as dealt, trumps first; null where unknown), ``blind``, ``bury``, ``called``,
    ``under``, ``stakes``, ``tricks_played`` (each ``number``, ``leader``, ``cards``, ``players``, ``winner``,
    ``points``), ``current_trick`` (the unfinished trick, or null), ``points`` (per player, the bury counted
    for the picker), ``tricks`` (taken per player), ``side_points`` and ``side_tricks`` (``declaring``,
    ``defending``; null without known sides), ``finished``, ``outcome``, ``laufende``, ``multiplier``,
    ``payments`` (null unless scored), ``no_result`` (why a finished hand has no result), ``to_move`` and
    ``legal`` (null and ``[]`` for a finished hand; ``legal`` null when the hand to move is unknown).
    """
    rec, g = v.record, v.game
    names = v.players

    def name(s: int | None) -> str | None:
        return names[s] if s is not None else None

    def cards(cs: Sequence[Card] | None) -> list[str] | None:
        return [str(c) for c in cs] if cs is not None else None

    def trick(t: TrickView) -> dict[str, Any]:
        return {"number": t.number, "leader": names[t.leader], "cards": cards(t.cards),
                "players": [names[s] for s in t.seats], "winner": name(t.winner), "points": t.points}

    partner = None
    if v.team is not None and rec.declarer is not None:
        others = sorted(v.team - {rec.declarer})
        partner = names[others[0]] if others else None
    out: dict[str, Any] = {
        "game": g.name,
        "title": g.title,
        "players": list(names),
        "roles": {names[s]: r for s, r in enumerate(v.roles)},
        "declarer": name(rec.declarer),
        "partner": partner,
        "declaring": [names[s] for s in sorted(v.team)] if v.team is not None else None,
        "complete": v.complete,
        "missing": list(v.missing),
        "inferred": list(rec.inferred),
        "hands": {names[s]: cards(g.sort_cards(h)) if h is not None else None for s, h in enumerate(rec.hands)},
        "blind": cards(rec.blind) if g.blind_size else None,
        "bury": cards(rec.bury) if g.bury_size else None,
        "called": str(rec.called) if rec.called is not None else None,
        "under": str(rec.under) if rec.under is not None else None,
        "stakes": {"crack": rec.crack, "recrack": rec.recrack, "doublers": rec.doublers},
        "tricks_played": [trick(t) for t in v.tricks],
        "current_trick": trick(v.current) if v.current is not None else None,
        "finished": v.finished,
    }
    if v.result is not None:
        r = v.result.to_dict(names)
        out.update({"points": r["points"], "tricks": r["tricks"], "side_points": r["side_points"],
                    "side_tricks": r["side_tricks"], "outcome": r["outcome"],
                    "laufende": r["laufende"] if g.kind == "contract" else None, "multiplier": r["multiplier"],
                    "payments": r["payments"], "winners": r["winners"], "losers": r["losers"]})
    else:
        t = v.tally
        out.update({"points": {names[s]: p for s, p in enumerate(t.points)},
                    "tricks": {names[s]: x for s, x in enumerate(t.tricks)},
                    "side_points": v.side_points(t), "side_tricks": v.side_tricks(t), "outcome": None,
                    "laufende": None, "multiplier": None, "payments": None, "winners": None, "losers": None})
    out["no_result"] = v.no_result
    out["to_move"] = name(v.to_move)
    out["legal"] = cards(v.legal)
    return out


# --------------------------------------------------------------------------------------------------------------
# Text.

_OUTCOME_WORDS = {
    "schwarz": "won schwarz (every trick)",
    "schneider": "won schneider (91 or more)",
    "win": "won",
    "loss": "lost",
    "schneidered": "lost schneidered (30 or less)",
    "schwarzed": "lost schwarz (no trick)",
    "win-schwarz": "won schwarz",
    "win-schneider": "won schneider",
    "loss-schneider": "lost schneider",
    "loss-schwarz": "lost schwarz",
}


def _cards(cs: Sequence[Card], style: str) -> str:
    return " ".join(format_card(c, style) for c in cs)


def _names(v: HandView, seats: Sequence[int]) -> str:
    return names_of(v.players, seats)


_signed = signed


def _header(v: HandView, style: str) -> list[str]:
    rec, g = v.record, v.game
    title = game_title(g, style)
    bits = []
    if g.name == "sheepshead":
        bits.append("partner by " + {"jack-of-diamonds": "the " + card_name(Card.make("J", "D"), style),
                                      "called-ace": "called ace",
                                      "alone": "nobody: the picker plays alone"}[g.partner])
    if g.family == "schafkopf" and len(g.deck) < 32:
        bits.append("short deck")
    out = [title + (" — " + ", ".join(bits) if bits else "")]
    rules = []
    preset = g.rules.get("preset")
    if preset:
        rules.append(f"preset {preset}")
    for k, val in g.rules.items():
        sw = RULE_SWITCHES.get(k)
        if sw is not None and val != sw.default and not (preset and k in _preset_keys(preset)):
            rules.append(f"{k} = {str(val).lower() if isinstance(val, bool) else val}")
    if rules:
        out.append("Rules: " + ", ".join(rules))
    stakes = []
    if rec.crack:
        stakes.append("Kontra" if g.family == "schafkopf" else "crack")
    if rec.recrack:
        stakes.append("Re" if g.family == "schafkopf" else "re-crack")
    if rec.doublers:
        stakes.append(f"{rec.doublers} doubler" + ("s" if rec.doublers > 1 else ""))
    if stakes:
        out.append("Stakes: " + ", ".join(stakes))
    for key in ("event", "site", "date", "round", "source", "comment", "notes"):
        val = rec.extra.get(key)
        if isinstance(val, (str, int, float)):
            out.append(f"{key.capitalize()}: {clip(val, 500)}")  # one line: control characters escaped
    return out


def _preset_keys(preset: str) -> set[str]:
    from ..games import PRESETS

    return set(PRESETS.get(preset, {}))


def _hands_table(v: HandView, style: str, hands: Sequence[Sequence[Card] | None], title: str) -> list[str]:
    g = v.game
    classes = g.classes
    head = ["Seat", "Player", "Role"] if any(v.roles) else ["Seat", "Player"]
    head += ["Trump" if cls == "T" else suit_title(cls, style) for cls in classes]
    rows = [head]
    for s, h in enumerate(hands):
        row = [str(s + 1), v.players[s]] + ([v.roles[s]] if any(v.roles) else [])
        if h is None:
            row.append("(unknown)")
        else:
            for cls in classes:
                row.append(_cards(g.sort_cards(c for c in h if g.suit_class(c) == cls), style) or "—")
        rows.append(row)
    align = ">" + "<" * (len(head) - 1)
    return [title] + _table(rows, align)


def _call_lines(v: HandView, style: str) -> list[str]:
    rec, g = v.record, v.game
    names = v.players
    out = []
    p = rec.declarer
    if g.blind_size:
        if rec.blind is None:
            out.append("Blind:  (unknown)")
        else:
            pts = sum(c.points for c in rec.blind)
            who = ""
            if g.kind == "leaster":
                where = g.rules.get("leaster_blind", "last")
                who = " — counts for nobody" if where == "nobody" else f" — goes to the winner of the {where} trick"
            out.append(f"Blind:  {_cards(rec.blind, style)}  ({pts} points){who}")
    if g.bury_size and p is not None:
        if rec.bury is None:
            out.append(f"Bury:   (unknown) — {names[p]} picked")
        else:
            pts = sum(c.points for c in rec.bury)
            cond = ", if his side takes a trick" if g.rules.get("bury_needs_trick") else ""
            out.append(f"Bury:   {_cards(rec.bury, style)}  ({pts} points for {names[p]}'s side{cond})")
    if g.kind == "contract" and p is not None and g.sie:
        out.append(f"Sie: {names[p]} holds every Ober and Unter; the hand is not played out")
    if g.partner in ("called-ace", "sauspiel") and p is not None:
        if rec.called is None:
            out.append(f"Call:   {names[p]} goes alone")
        else:
            h = _holder(rec, v.state, rec.called)
            who = f" — {names[h]} is the partner" if h is not None else " — the partner is not known"
            under = (f", {format_card(rec.under, style)} under (in parentheses when played)"
                     if rec.under is not None else "")
            out.append(f"Call:   {names[p]} calls {format_card(rec.called, style)}{under}{who}")
    elif g.partner == "jack-of-diamonds" and p is not None:
        jd = Card.make("J", "D")
        if v.team is None:
            out.append(f"Partner: the holder of {format_card(jd, style)} (not known)")
        elif v.team == frozenset({p}):
            alone = "went alone" if rec.alone else "plays alone"
            why = ""
            if not rec.alone and _holder(rec, v.state, jd) == p:
                why = f" (he {'buried' if jd in (rec.bury or ()) else 'holds'} {format_card(jd, style)})"
            out.append(f"Partner: none — {names[p]} {alone}{why}")
        else:
            partner = sorted(v.team - {p})[0]
            # call-up: the partner holds the highest jack the picker lacks, the highest jack he holds himself
            card = jd if _holder(rec, v.state, jd) == partner else next(
                (c for c in (Card.make("J", s) for s in "CSHD") if _holder(rec, v.state, c) == partner), jd)
            out.append(f"Partner: {names[partner]} (holds {format_card(card, style)})")
    elif g.kind == "picker" and p is not None and g.partner == "alone" and rec.game.seats == 5:
        out.append(f"Partner: none — {names[p]} plays alone")
    if g.kind == "contract" and p is not None and not g.sie:
        if g.trump_suit or g.name in ("wenz", "geier"):
            out.append(f"Game:   {names[p]} plays "
                       + contract_name(g.name, style, trump=g.trump_suit, tout=bool(g.tout)))
        elif g.partner == "sauspiel" and rec.called is not None:
            out.append(f"Game:   {names[p]} plays " + contract_name("sauspiel", style, called=rec.called))
    return out


def _tricks_table(v: HandView, style: str) -> list[str]:
    names = v.players
    all_tricks = list(v.tricks) + ([v.current] if v.current is not None else [])
    if not all_tricks:
        return []
    n = v.game.seats
    head = ["#", "Leader"] + [f"{i}." for i in range(1, n + 1)] + ["Winner", "Pts"]
    rows = [head]
    for t in all_tricks:
        cells = [f"{_trick_card(v, c, style)} {names[s]}" for c, s in zip(t.cards, t.seats)]
        cells += ["·"] * (n - len(cells)) if t.winner is None else []
        rows.append([str(t.number), names[t.leader]] + cells +
                    ([names[t.winner], str(t.points)] if t.winner is not None else ["—", ""]))
    return ["Tricks (cards in play order)"] + _table(rows, ">" + "<" * (n + 2) + ">")


def _trick_card(v: HandView, c: Card, style: str) -> str:
    """A card as played; the card under (played face down for the called suit) in parentheses."""
    return f"({format_card(c, style)})" if c == v.record.under else format_card(c, style)


def _side_heads(v: HandView) -> tuple[str, str]:
    if v.game.kind == "picker":
        return ("Picker side", "Defenders")
    return ("Declarers", "Defenders") if v.team is not None and len(v.team) > 1 else ("Declarer", "Defenders")


def _totals_table(v: HandView) -> list[str]:
    if not v.running:
        return []
    names = v.players
    sides = v.team is not None
    head = ["After"] + list(names) + (list(_side_heads(v)) if sides else [])
    rows = [head]

    def row(label: str, t: Tally) -> list[str]:
        r = [label] + [str(p) for p in t.points]
        sp = v.side_points(t)
        if sp is not None:
            r += [str(sp["declaring"]), str(sp["defending"])]
        return r

    if any(v.opening.points):
        rows.append(row("start", v.opening))
    for i, t in enumerate(v.running, 1):
        rows.append(row(f"trick {i}", t))
    return ["Points taken (running totals)"] + _table(rows, "<" + ">" * (len(head) - 1))


def _outcome_text(v: HandView, r: Result) -> str:
    names = v.players
    o = r.outcome
    if ":" in o:
        kind, seats_s = o.split(":", 1)
        seats = [int(s) for s in seats_s.split(",")]
        who = _names(v, seats)
        return {"winner": f"{who} wins (fewest points, with a trick)",
                "loser": f"{who} loses (most points)",
                "losers": f"{who} lose (tied for the most points)",
                "durchmarsch": f"Durchmarsch: {who} took every trick",
                "tie": f"tie between {who}: nobody pays"}.get(kind, o)
    side = _names(v, r.declaring)
    word = _OUTCOME_WORDS.get(o, o)
    if v.game.sie:
        return f"{side} wins the Sie without playing"

    assert r.side_points is not None and r.side_tricks is not None
    sp, st = r.side_points, r.side_tricks
    lead = "picker" if v.game.kind == "picker" else "declarer"
    p = v.record.declarer
    who = f"the {lead}'s side ({side})" if len(r.declaring) > 1 else f"{names[p]} (alone)" if p is not None \
        else side
    return (f"{who} {word}: {sp['declaring']} to {sp['defending']} points, "
            f"{st['declaring']} to {st['defending']} tricks")


def _result_lines(v: HandView) -> list[str]:
    g, rec = v.game, v.record
    names = v.players
    out = []
    r = v.result
    if r is None:
        out.append("Result: none — " + (v.no_result or "the hand is not over"))
        t = v.tally
        rows = [["Player", "Tricks", "Points"]] + [[names[s], str(t.tricks[s]), str(t.points[s])]
                                                  for s in range(g.seats)]
        return out + _table(rows, "<>>")
    out.append("Result: " + _outcome_text(v, r))
    if g.kind == "contract":
        if g.sie:
            out.append(f"  Laufende: {r.laufende}")
        else:
            run, mine = laufende_of(rec.setup())
            holders = "declaring side" if mine else "defenders"
            if r.laufende:
                out.append(f"  Laufende: {r.laufende} (held by the {holders})")
            else:
                out.append(f"  Laufende: none (a run of {run} held by the {holders}; they count from "
                           f"{g.laufende_from})")
    if r.multiplier != 1:
        out.append(f"  Multiplier: x{r.multiplier}")
    played = not g.sie
    head = ["Player"] + (["Role"] if any(v.roles) else []) + (["Tricks", "Points"] if played else []) + ["Payment"]
    rows = [head]
    for s in range(g.seats):
        rows.append([names[s]] + ([v.roles[s]] if any(v.roles) else []) +
                    ([str(r.tricks[s]), str(r.points[s])] if played else []) + [_signed(r.payments[s])])
    align = "<" + ("<" if any(v.roles) else "") + ">" * (3 if played else 1)
    return out + _table(rows, align)


def _position_lines(v: HandView, style: str) -> list[str]:
    names = v.players
    s = v.to_move
    assert s is not None
    out = []
    trick_no = len(v.tricks) + 1
    if v.current is not None:
        out.append(f"Trick {trick_no}: {names[s]} to move "
                   f"({_cards(v.current.cards, style)} on the table, led by {names[v.current.leader]})")
    else:
        out.append(f"Trick {trick_no}: {names[s]} to lead")
    if v.legal is None:
        out.append(f"Legal cards: unknown ({names[s]}'s hand is not in the record)")
    else:
        out.append(f"Legal cards: {_cards(v.legal, style)}")
    if v.complete and (v.state.trick or v.state.tricks or v.game.bury_size):  # else: the hands as dealt
        out.append("")
        out += _hands_table(v, style, [v.game.sort_cards(h) for h in v.state.hands], "Cards left")
    t = v.tally
    sp = v.side_points(t)
    if sp is not None:
        a, b = _side_heads(v)
        out.append(f"Points so far: {a.lower()} {sp['declaring']}, {b.lower()} {sp['defending']}")
    return out


def header_lines(v: HandView, style: str) -> list[str]:
    """The lines of ``show``'s text that tell the game: its title and rules, the stakes, the record's notes, the
    blind, the bury and the call (the contract)."""
    return _header(v, style) + _call_lines(v, style)


def result_text(v: HandView) -> str | None:
    """``show``'s result line of a finished hand (``the picker's side (Bob, Dee) won: 67 to 53 points, ...``),
    or None before the end."""
    if not v.finished:
        return None
    return _result_lines(v)[0].removeprefix("Result: ")


def _inferred_words(rec: Record) -> list[str]:
    """``["Ann's hand", "the bury"]`` for the keys of ``rec.inferred``."""
    return [f"{k[len('hands.'):]}'s hand" if k.startswith("hands.") else f"the {k}" for k in rec.inferred]


def render(v: HandView | Record, style: str = "symbols") -> str:
    """The hand as aligned text. ``style`` is a :func:`~sheepsolve.cards.format_card` style: ``ascii``,
    ``symbols`` or ``color`` (the caller decides, e.g. color only on a terminal)."""
    if isinstance(v, Record):
        v = hand_view(v)
    rec = v.record
    lines = _header(v, style)
    lines.append("")
    lines += _hands_table(v, style, rec.hands, "Hands as dealt")
    calls = _call_lines(v, style)
    if calls:
        lines.append("")
        lines += calls
    if rec.inferred:
        lines.append("")
        lines.append("Inferred from the play (not in the record): " + ", ".join(_inferred_words(rec)) + ".")
    if v.missing:
        lines.append("")
        lines.append("Not in the record: " + "; ".join(v.missing) +
                     ". Shown: the play as recorded" + ("" if v.team is not None or not v.game.two_sided
                                                         else "; the sides are not known") + ".")
    tricks = _tricks_table(v, style)
    if tricks:
        lines.append("")
        lines += tricks
    totals = _totals_table(v)
    if totals:
        lines.append("")
        lines += totals
    lines.append("")
    if v.finished:
        lines += _result_lines(v)
    else:
        lines += _position_lines(v, style)
    return "\n".join(lines) + "\n"
