"""Terminal text for a hand record: what ``sheepsolve show`` prints.

:func:`render` turns a :class:`~sheepsolve.hand.HandFacts` (what the record tells about the hand, worked out by
:func:`~sheepsolve.hand.hand_view` from the record's kept replay) into aligned text; :func:`view_data` is its
JSON (:meth:`~sheepsolve.hand.HandFacts.to_dict`). Nothing is replayed or scored here.

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
>>> view_data(v)["to_move"]
'Bob'
>>> print(render(v, "ascii").splitlines()[0])
Sheepshead (3-hand)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import Card, card_name, format_card, suit_title
from ..files import clip
from ..games import RULE_SWITCHES
from ..hand import HandFacts, TrickFacts, hand_view
from ..record import Record
from ..scoring import Result, SkatValue, Tally
from ..contracts import contract_name, game_title
from .text import names_of, signed, table as _table

__all__ = ["HandFacts", "TrickFacts", "hand_view", "render", "view_data", "header_lines", "result_text",
           "skat_value_line"]


def view_data(v: HandFacts) -> dict[str, Any]:
    """The view as JSON-ready data (:meth:`HandFacts.to_dict <sheepsolve.hand.HandFacts.to_dict>`)."""
    return v.to_dict()


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


def _names(v: HandFacts, seats: Sequence[int]) -> str:
    return names_of(v.players, seats)


_signed = signed


def _header(v: HandFacts, style: str) -> list[str]:
    rec, g = v.record, v.game
    title = game_title(g, style, called=rec.called)
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


def _hands_table(v: HandFacts, style: str, hands: Sequence[Sequence[Card] | None], title: str) -> list[str]:
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


def _set_position_lines(v: HandFacts) -> list[str]:
    """A position set by its cards: what was taken before it (by side, or in ramsch and leaster by player)."""
    pos = v.record.position
    if pos is None:
        return []
    st = v.state.setup
    if not st.past_tricks:
        return ["Position set by its cards: only the tricks still to play count"]
    if v.game.two_sided:
        side = sum(st.past_points[s] for s in st.team), sum(st.past_tricks[s] for s in st.team)
        rest = sum(st.past_points) - side[0], sum(st.past_tricks) - side[1]
        return [f"Position set by its cards: before it the declaring side took {side[0]} points in {side[1]} "
                f"trick{'s' if side[1] != 1 else ''}, the defenders {rest[0]} in {rest[1]}"]
    taken = ", ".join(f"{name} {p} in {k}" for name, p, k in zip(v.players, st.past_points, st.past_tricks))
    return [f"Position set by its cards: before it the players took (points in tricks) {taken}"]


def _call_lines(v: HandFacts, style: str) -> list[str]:
    rec, g = v.record, v.game
    names = v.players
    out = _set_position_lines(v)
    p = rec.declarer
    if g.family == "skat":  # the skat, the discard (none in a hand game), the contract and the bid
        return out + _skat_lines(v, style)
    if g.blind_size and (rec.position is None or rec.blind):
        if rec.blind is None:
            out.append("Blind:  (unknown)")
        else:
            pts = sum(c.points for c in rec.blind)
            who = ""
            if g.kind == "leaster":
                where = g.rules.get("leaster_blind", "last")
                who = " — counts for nobody" if where == "nobody" else f" — goes to the winner of the {where} trick"
            out.append(f"Blind:  {_cards(rec.blind, style)}  ({pts} points){who}")
    if g.bury_size and p is not None and rec.position is None:
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
            h = v.holder(rec.called) if rec.position is None else v.state.setup.partner
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
            if not rec.alone and v.holder(jd) == p:
                why = f" (he {'buried' if jd in (rec.bury or ()) else 'holds'} {format_card(jd, style)})"
            out.append(f"Partner: none — {names[p]} {alone}{why}")
        else:
            partner = sorted(v.team - {p})[0]
            # call-up: the partner holds the highest jack the picker lacks, the highest jack he holds himself
            card = jd if v.holder(jd) == partner else next(
                (c for c in (Card.make("J", s) for s in "CSHD") if v.holder(c) == partner), jd)
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


def _skat_lines(v: HandFacts, style: str) -> list[str]:
    """A Skat record's skat, discard and game: ``Skat:    8♠ K♥  (4 points)``, ``Discard: A♥ K♦  (15 points for
    Bob)`` (a hand game: the skat as dealt counts for him), ``Game:    Bob plays Grand, bid 18``."""
    rec, g = v.record, v.game
    p = rec.declarer
    who = v.players[p] if p is not None else "the declarer"
    out = []
    held = rec.position is not None  # a position by the cards still held: the skat and discard when given
    if rec.blind is None or (held and not rec.blind):
        if not held:
            out.append("Skat:    (unknown)")
    else:
        counts = f" — a hand game: it counts for {who}" if g.hand else ""
        out.append(f"Skat:    {_cards(rec.blind, style)}  ({sum(c.points for c in rec.blind)} points){counts}")
    if not g.hand and not (held and not rec.bury):
        if rec.bury is None:
            out.append(f"Discard: (unknown) — {who} took up the skat")
        else:
            out.append(f"Discard: {_cards(rec.bury, style)}  ({sum(c.points for c in rec.bury)} points for {who})")
    if p is not None:
        bid = f", bid {g.bid}" if g.bid is not None else ""
        out.append(f"Game:    {who} plays {game_title(g, style)}{bid}")
    return out


def _tricks_table(v: HandFacts, style: str) -> list[str]:
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


def _trick_card(v: HandFacts, c: Card, style: str) -> str:
    """A card as played; the card under (played face down for the called suit) in parentheses."""
    return f"({format_card(c, style)})" if c == v.record.under else format_card(c, style)


def _side_heads(v: HandFacts) -> tuple[str, str]:
    if v.game.kind == "picker" and v.game.family != "skat":
        return ("Picker side", "Defenders")
    return ("Declarers", "Defenders") if v.team is not None and len(v.team) > 1 else ("Declarer", "Defenders")


def _totals_table(v: HandFacts) -> list[str]:
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


def _outcome_text(v: HandFacts, r: Result) -> str:
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
    lead = "picker" if v.game.kind == "picker" and v.game.family != "skat" else "declarer"
    p = v.record.declarer
    who = f"the {lead}'s side ({side})" if len(r.declaring) > 1 else f"{names[p]} (alone)" if p is not None \
        else side
    return (f"{who} {word}: {sp['declaring']} to {sp['defending']} points, "
            f"{st['declaring']} to {st['defending']} tricks")


def _result_lines(v: HandFacts) -> list[str]:
    g = v.game
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
    if g.kind == "contract" and not g.no_trick:
        if g.sie:
            out.append(f"  Laufende: {r.laufende}")
        else:
            assert v.laufende is not None
            run, mine = v.laufende
            holders = "declaring side" if mine else "defenders"
            if r.laufende:
                out.append(f"  Laufende: {r.laufende} (held by the {holders})")
            else:
                out.append(f"  Laufende: none (a run of {run} held by the {holders}; they count from "
                           f"{g.laufende_from})")
    if r.skat is not None:  # the game value by the ISkO, and the list score
        out.append(f"  {skat_value_line(r.skat)}")
    elif r.multiplier != 1:
        out.append(f"  Multiplier: x{r.multiplier}")
    played = not g.sie
    head = ["Player"] + (["Role"] if any(v.roles) else []) + (["Tricks", "Points"] if played else []) + \
        ["Score" if r.skat is not None else "Payment"]
    rows = [head]
    for s in range(g.seats):
        rows.append([names[s]] + ([v.roles[s]] if any(v.roles) else []) +
                    ([str(r.tricks[s]), str(r.points[s])] if played else []) + [_signed(r.payments[s])])
    align = "<" + ("<" if any(v.roles) else "") + ">" * (3 if played else 1)
    return out + _table(rows, align)


def skat_value_line(value: SkatValue) -> str:
    """A Skat game's value and list score in words: ``Game value: with 1, game 2 x 24 = 48; lost: -96 (twice the
    value)``, ``Game value: null ouvert 46; won: +46``, an overbid ``..., overbid (bid 72): 77; lost: -154``."""
    text = f"Game value: {value}"
    verdict = "won" if value.won else "lost"
    return text + f"; {verdict}: {_signed(value.list_score)}" + ("" if value.won else " (twice the value)")


def _position_lines(v: HandFacts, style: str) -> list[str]:
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


def header_lines(v: HandFacts, style: str) -> list[str]:
    """The lines of ``show``'s text that tell the game: its title and rules, the stakes, the record's notes, the
    blind, the bury and the call (the contract)."""
    return _header(v, style) + _call_lines(v, style)


def result_text(v: HandFacts) -> str | None:
    """``show``'s result line of a finished hand (``the picker's side (Bob, Dee) won: 67 to 53 points, ...``),
    or None before the end."""
    if not v.finished:
        return None
    line = _result_lines(v)[0].removeprefix("Result: ")
    if v.result is not None and v.result.skat is not None:  # Skat: and the game value
        line += "; " + skat_value_line(v.result.skat)[0].lower() + skat_value_line(v.result.skat)[1:]
    return line


def _inferred_words(rec: Record) -> list[str]:
    """``["Ann's hand", "the bury"]`` for the keys of ``rec.inferred``."""
    return [f"{k[len('hands.'):]}'s hand" if k.startswith("hands.") else f"the {k}" for k in rec.inferred]


def render(v: HandFacts | Record, style: str = "symbols") -> str:
    """The hand as aligned text. ``style`` is a :func:`~sheepsolve.cards.format_card` style: ``ascii``,
    ``symbols`` or ``color`` (the caller decides, e.g. color only on a terminal)."""
    if isinstance(v, Record):
        v = hand_view(v)
    rec = v.record
    lines = _header(v, style)
    lines.append("")
    lines += _hands_table(v, style, rec.hands, "Hands as dealt" if rec.position is None else "Hands held")
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
