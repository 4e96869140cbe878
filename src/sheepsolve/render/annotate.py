"""``sheepsolve annotate``: the post-mortem as text and as an HTML report.

>>> from sheepsolve.annotate import annotate_play
>>> from sheepsolve.cards import parse_cards
>>> from sheepsolve.engine import Setup
>>> from sheepsolve.games import make_game
>>> g = make_game("solo", trump="H")
>>> hands = [parse_cards(h) for h in ("9C AS AH", "TC TS 9S", "7S AD TD", "AC 8S TH")]
>>> a = annotate_play(Setup.create(g, hands, declarer=0), parse_cards("AH TC 7S TH 9C 9S AD AC 8S AS TS TD"))
>>> print(render_text(a, "ascii", min_cost=5).split(2 * chr(10))[1])
trick  player  card  value  cost      best  every legal card  won by
    2  2       9S    52>62    10  ??  TS    TS 52 9S 62
                                            changes the result: loss -> win (payment -50 -> +50)
>>> print(render_text(a, "german", min_cost=5).split(2 * chr(10))[1].splitlines()[1])
    2  2       G9    52>62    10  ??  G10   G10 52 G9 62
>>> render_html(a).startswith("<!DOCTYPE html>")
True
"""

from __future__ import annotations

import textwrap
from typing import Any

from collections.abc import Sequence

from ..annotate import Annotation, Decision, PlayerSummary
from ..bury.choices import PickerChoice
from ..cards import Card, format_card
from ..objective import NO_TRICK
from ..player.annotate import BuryViewRow
from ..scoring import schneider_points
from ..contracts import contract_name, game_title
from ..engine import Setup
from .charts import value_line
from .html import html_style, render_page
from .show import skat_value_line
from .text import number, signed, table, width

__all__ = ["render_text", "render_html", "summary_text", "side_name", "expected_text"]

_YELLOW, _RED, _BOLD, _RESET = "\x1b[33m", "\x1b[31m", "\x1b[1m", "\x1b[0m"


TEXT_WIDTH = 100
"""The width ``annotate --view player``'s text is wrapped to (its prose; its table keeps within it too)."""
EVERY_PER_LINE = 4
"""Legal cards on one line of the table's \"every legal card\" column, with the player's view (at most: fewer
where wider cards would not fit :data:`TEXT_WIDTH`)."""
VIEW_CELL_WIDTH = 20
"""The width of the player's-view column: a longer verdict goes on to the next lines."""

def _explore_command(source: str | None) -> str:
    """``sheepsolve explore FILE``, the file quoted for a shell (``FILE`` when the record came from elsewhere)."""
    import shlex

    from ..files import clip

    return "sheepsolve explore " + (shlex.quote(clip(source, 300)) if source else "FILE")


def shown(ann: Annotation, min_cost: int | None) -> list[Decision]:
    """The decisions a reader asked for: all of them, or (``min_cost``) those that cost at least that much and
    every one that changed the result."""
    if min_cost is None:
        return list(ann.decisions)
    return [d for d in ann.decisions if not d.forced and (d.cost >= min_cost or d.swing is not None)]


def _flagged(d: Decision, min_cost: int | None) -> bool:
    return d.error and (min_cost is None or d.cost >= min_cost or d.swing is not None)


def render_text(ann: Annotation, style: str = "symbols", *, color: bool = False, min_cost: int | None = None) -> str:
    """The annotation as text: header, bury, a trick-by-trick table of the decisions, the summary.

    ``style`` is a card style of :func:`sheepsolve.cards.format_card`; ``color`` colors the marks (use it only on
    a terminal). ``min_cost`` shows only the decisions that cost at least that many points, and the ones that
    changed the result whatever they cost.
    """
    g = ann.game

    def card_text(c: Card) -> str:
        return format_card(c, style)

    def mark_text(m: str) -> str:
        if not color or not m:
            return m
        return (_RED + _BOLD if m == "??" else _YELLOW) + m + _RESET

    lines = [annotation_title(ann, style) + call_text(ann, card_text)]
    if ann.stakes.factor > 1:
        lines[0] += f"; stakes x{ann.stakes.factor}"
    if ann.two_sided and g.no_trick:
        lines.append("Values: the declarer's tricks under perfect play (he wins with none); cost in tricks to the "
                     "mover's side.")
    elif ann.two_sided:
        lines.append("Values: the declaring side's final card points under perfect play; cost in points to the "
                     "mover's side.")
    else:
        lines.append("Values: the mover's own final card points, every other player against him (lower is "
                     "better); cost in points." + (f" {NO_TRICK}: he takes no trick." if g.kind == "leaster" else ""))
    summary = summary_text(ann)
    if summary:
        lines.append(summary)
    if ann.view is not None:
        lines.append(view_legend(ann, style))
    lines.append("")
    b = ann.bury
    if b is not None:
        calls = b.kind != "bury"
        lines.append(f"{b.kind.capitalize()}: {b.picker} {_chose(b.chosen, style, calls, g)} "
                     f"(worth {b.chosen.value}, {b.chosen.outcome})")
        if b.cost > 0:
            lines.append(f"  best: {'; '.join(option_label(o, g, style, calls=calls) for o in b.best[:3])} (worth "
                         f"{b.best_value}): cost {b.cost} {mark_text(b.mark)}" + (f", {b.swing}" if b.swing else ""))
        else:
            lines.append(f"  nothing better among {len(b.options)} compared ({b.compared})")
        if b.view is not None:
            lines.append("  " + bury_view_text(b, style, g))
        alt = next((o for o in b.others if o.exact), None)
        if alt is not None:
            lines.append(f"  {'with a partner' if b.chosen.alone else 'going alone'}, the best was "
                         f"{option_label(alt, g, style, calls=not alt.alone)} (worth {alt.value}, {alt.outcome}; "
                         f"not compared: a choice of stakes)")
        lines.append("")
    # long sentences (the summary, the player's view's legend) are wrapped to fit a terminal
    lines = [wrapped for line in lines for wrapped in
             ((textwrap.wrap(line, TEXT_WIDTH, subsequent_indent="  ") or [""]) if width(line) > TEXT_WIDTH
              else [line])]
    won = trick_winners(ann)
    picked = shown(ann, min_cost)
    if ann.view is not None and min_cost is not None:
        seen = {d.index for d in picked}
        picked = [d for d in ann.decisions if d.index in seen or (d.view is not None and d.view.error)]
    align = ">" + "<<>>" + "<" * (4 if ann.view is None else 5)
    # one line a decision where it fits TEXT_WIDTH, else a result's swing wrapped under the legal cards and the
    # legal cards fewer to a line (with the player's view four at most)
    most = max((len(d.values) for d in picked), default=1)
    for per in ([None, *range(most, 0, -1)] if ann.view is None else range(EVERY_PER_LINE, 0, -1)):
        rows, notes = _decision_rows(ann, picked, card_text, mark_text, won, min_cost, per)
        decisions = _with_notes(table(rows, align, indent=0), rows, notes)
        if max(map(width, decisions)) <= TEXT_WIDTH:
            break
    if picked:
        lines += decisions
    elif min_cost is not None:
        lines.append(f"No decision cost {min_cost} or more.")
    else:
        lines.append("No card was played.")
    lines.append("")
    srows = [["player", "side", "decisions", "forced", "errors", "given away", "largest error"]]
    for p in ann.summary.players:
        big = p.largest
        srows.append([p.player, p.side, str(p.decisions), str(p.forced), str(p.errors), str(p.given_away),
                      "" if big is None else f"{big.cost} (trick {big.trick}, {card_text(big.card)}; best "
                      f"{' '.join(card_text(c) for c in big.best)}){' ' + mark_text('??') if big.swing else ''}"])
    lines += table(srows, "<<>>>><", indent=0)
    if ann.view is not None:  # a table of its own: one table of both would not fit a terminal
        vrows = [["player", "side", "expected loss", "luck"]]
        for p in ann.summary.players:
            pv = p.view
            vrows.append([p.player, p.side] + (["", ""] if pv is None or not pv.decisions else
                         [f"{pv.expected_loss:.1f}" + (f" ±{pv.expected_loss_stderr:.1f}" if pv.expected_loss_stderr
                                                       else ""), "" if pv.luck is None else f"{pv.luck:+.1f}"]))
        lines += ["", "From the player's view:"] + table(vrows, "<<>>", indent=0)
        lines += belief_text(ann, card_text)
    return "\n".join(lines) + "\n"


def first_beliefs(ann: Annotation) -> list[Decision]:
    """Each player's first decision judged from his own view that carries beliefs (what he could believe of the
    other hands there, over his worlds: the moment his luck is counted from), in the order of play."""
    seen: set[int] = set()
    out = []
    for d in ann.decisions:
        if d.view is not None and d.view.beliefs and d.seat not in seen:
            seen.add(d.seat)
            out.append(d)
    return out


def belief_text(ann: Annotation, card_text) -> list[str]:
    """The beliefs at each player's first decision (:func:`first_beliefs`) as text lines within
    :data:`TEXT_WIDTH`: each other hand's expected trumps and its chance of holding each top trump and plain ace
    the player had not seen."""
    firsts = first_beliefs(ann)
    if not firsts:
        return []
    lines = ["", "What each player could believe at his first decision (the other hands then, over his worlds):"]
    for d in firsts:
        lines.append(f"  {d.player}, trick {d.trick}, card {d.index % ann.game.seats + 1}:")
        for who, b in d.view.beliefs.items():
            chances = [f"{card_text(Card.parse(c))} {100 * p:.0f}%" for c, p in b["cards"].items()]
            trumps = f"{b['trumps']:.1f} trumps" if ann.game.trumps else ""  # null and Bettel have none
            line = f"    {who}: " + trumps + ("; " if trumps and chances else "")
            for i, chance in enumerate(chances):  # wrapped between two cards' chances, never inside one
                gap = "  " if i else ""
                if i and width(line + gap + chance) > TEXT_WIDTH:
                    lines.append(line)
                    line, gap = "      ", ""
                line += gap + chance
            lines.append(line)
    return lines


def _decision_rows(ann: Annotation, picked: list[Decision], card_text, mark_text, won: dict[int, str],
                   min_cost: int | None, per: int | None) -> tuple[list[list[str]], dict[int, str]]:
    """The rows of the table of decisions: one a decision, or with the player's view (``per`` legal cards on a
    line) the legal cards and the player's-view verdict continued on the next lines; and the notes of a result's
    swing, each by the row it follows (:func:`_with_notes`)."""
    rows = [["trick", "player", "card", "value", "cost", "", "best", "every legal card", "won by"]]
    if ann.view is not None:
        rows[0].insert(8, "player's view")
    chunks_of = {}
    for d in picked:
        every = [f"{card_text(c)} {v}" for c, v in d.values.items()]
        step = per or len(every) or 1
        chunks_of[d.index] = [" ".join(every[i:i + step]) for i in range(0, len(every), step)] or [""]
    notes: dict[int, str] = {}
    last_trick = 0
    for d in picked:
        tcol = str(d.trick) if d.trick != last_trick or min_cost is not None else ""
        last_trick = d.trick
        value = "" if d.value is None else (str(d.value) if d.after == d.value else f"{d.value}>{d.after}")
        w = won.get(d.index, "") if min_cost is None else ""
        if d.forced:
            rows.append([tcol, d.player, card_text(d.card), value, "", "", "forced", "", w])
            if ann.view is not None:
                rows[-1].insert(8, "")
            continue
        best = " ".join(card_text(c) for c in d.best) if d.cost > 0 or d.swing else ""
        chunks = chunks_of[d.index]
        rows.append([tcol, d.player, card_text(d.card), value, str(d.cost) if d.cost else "", mark_text(d.mark),
                     best, chunks[0], w])
        if ann.view is not None:
            view = textwrap.wrap(view_cell(d, card_text), VIEW_CELL_WIDTH) or [""]
            rows[-1].insert(8, view[0])
            for i in range(1, max(len(chunks), len(view))):
                rows.append(["", "", "", "", "", "", "", chunks[i] if i < len(chunks) else "",
                             view[i] if i < len(view) else "", ""])
        else:  # the legal cards that did not fit on the decision's line go on below it
            rows += [["", "", "", "", "", "", "", chunk, ""] for chunk in chunks[1:]]
        if d.swing is not None:
            notes[len(rows) - 1] = f"changes the result: {d.swing}"
    return rows, notes


def _with_notes(lines: list[str], rows: list[list[str]], notes: dict[int, str]) -> list[str]:
    """The table's ``lines`` (of ``rows``, :func:`~sheepsolve.render.text.table` with no indent) with each note
    after its row, under the legal cards and running on over the columns after them, wrapped to fit
    :data:`TEXT_WIDTH` (never narrower than the legal cards' column)."""
    widths = [max((width(r[i]) for r in rows if i < len(r)), default=0) for i in range(max(map(len, rows)))]
    start = sum(widths[:7]) + 2 * 7  # where the legal cards' column starts
    out = []
    for i, line in enumerate(lines):
        out.append(line)
        if i in notes:
            out += [" " * start + part for part in textwrap.wrap(notes[i], max(widths[7], TEXT_WIDTH - start))]
    return out


def view_cell(d: Decision, card_text) -> str:
    """The player's-view judgement of one decision: its expected cost ± standard error, ``(!)`` for a
    player's-view error with the best cards."""
    v = d.view
    if v is None:
        return ""
    if v.exact:  # every consistent world solved: no sampling error
        out = f"{v.cost:.1f} exact"
    else:
        out = f"{v.cost:.1f}" + (f" ±{v.cost_stderr:.1f}" if v.cost_stderr else "")
    if v.error:
        out += " (!) best " + " ".join(card_text(c) for c in v.best)
    return out


def bury_view_text(b, style: str, g: Any) -> str:
    """The bury (or call) judged from the picker's view, in one line: its expected cost ± standard error against
    the best in expectation, ``(!)`` for a player's-view error, and the best choices (a sauspiel's call as its
    contract, :func:`option_label`)."""
    v = b.view
    calls = b.kind != "bury"
    what = f"every world ({v.worlds})" if v.exact else f"{v.worlds} worlds"
    if v.weighted and v.effective is not None:
        what += f", worth {v.effective:.1f} uniform"
    best = "; ".join(option_label(r, g, style, calls=calls) for r in v.best[:3]) + ("; ..." if len(v.best) > 3 else "")
    out = f"player's view ({what}): expected {expected_text(v.chosen)}"
    if v.cost > 0 or not v.chosen.best:
        out += f", cost {v.cost:.1f}" + (f" ±{v.cost_stderr:.1f}" if v.cost_stderr else "")
    out += " (!)" if v.error else ""
    tie = " (within noise)" if len(v.best) > 1 else ""
    return out + f"; best in expectation: {best} ({expected_text(v.best[0])}){tie}"


def view_legend(ann: Annotation, style: str = "ascii") -> str:
    """One line on how the player's view was judged."""
    s = ann.view
    what = ("every consistent world" if s.worlds == "all" else
            f"{s.worlds} worlds (every one, exactly, where no more are possible)")
    return (f"Player's view: each decision judged again over {what} of the cards the mover could not see "
            f"(expected cost ± standard error, or exact; (!) a player's-view error: beyond the noise"
            f"{f' and at least {s.min_cost}' if s.min_cost else ''}); luck: the result against what the player "
            f"could expect at his first decision, less his own expected losses, for his side. "
            f"Worlds: {s.assumes_in(style) or 'every deal that fits the play is equally likely'}. Expected loss and "
            f"luck rest on averages of double-dummy values: from the next card on everyone is read as seeing every "
            f"card, so they flatter guesses a player could not make."
            + (" Null and Bettel: a world's value is 1 when the declarer takes a trick, 0 when he takes none, so"
               " an expected cost is a chance of the game." if ann.game.no_trick else ""))


def _chose(o: PickerChoice, style: str, calls: bool, g: Any = None) -> str:
    """``called EA``, ``went alone``, ``buried E10 H10``, ``buried E10 H10, call EA``."""
    if g is not None and g.partner == "sauspiel" and o.call is not None and not o.bury:
        return "played " + contract_name("sauspiel", style, called=o.call)
    label = o.label(style, calls=calls)
    if label.startswith("call "):
        return "called " + label[len("call "):]
    if label == "alone":
        return "went alone"
    return ("buried " if o.bury else "chose ") + label


def trick_winners(ann: Annotation) -> dict[int, str]:
    """``"Cal 16"`` keyed by the index of each finished trick's last card."""
    state = ann.setup.start()
    out = {}
    for d in ann.decisions:
        state = state.play(d.card)
        if not state.trick:
            t = state.tricks[-1]
            out[d.index] = f"{ann.players[t.winner]} {t.points}"
    return out


def annotation_title(ann: Annotation, style: str) -> str:
    """The contract as players say it (:func:`~sheepsolve.contracts.game_title`): ``Sauspiel auf die Blaue``,
    ``Gras-Solo``, ``Sheepshead (5-hand)``."""
    return game_title(ann.game, style, called=ann.setup.called)


def option_label(o: PickerChoice, g: Any, style: str, *, calls: bool = True) -> str:
    """A choice in words: a sauspiel's call as its contract (``Sauspiel auf die Alte``), else the bury option's
    own label (``KS 8C, call AH``)."""
    if g.partner == "sauspiel" and o.call is not None and not o.bury:
        return contract_name("sauspiel", style, called=o.call)
    return o.label(style, calls=calls)


def call_text(ann: Annotation, card_text) -> str:
    """`` — picker Ann, called AH, partner Bob; buried KS 8C`` (cards through ``card_text``)."""
    st, names, g = ann.setup, ann.players, ann.game
    if st.declarer is None:
        return ""
    skat = g.family == "skat"
    role = "picker" if g.kind == "picker" and not skat else "declarer"
    s = f" — {role} {names[st.declarer]}"
    if st.called is not None and g.partner != "sauspiel":  # a sauspiel's title names its call
        s += f", called {card_text(st.called)}"
    if st.partner is not None:
        s += f", partner {names[st.partner]}"
    elif g.two_sided and g.partner not in ("none",) and not skat:  # a Skat declarer is always alone
        s += ", alone"
    if st.bury and skat:  # the discard; a hand game discards nothing
        s += "; hand game" if g.hand else f"; discarded {' '.join(card_text(c) for c in st.bury)}"
    elif st.bury:
        s += f"; buried {' '.join(card_text(c) for c in st.bury)}"
    return s


# --------------------------------------------------------------------------------------------------------------
# HTML.


def _chart(ann: Annotation, min_cost: int | None, style: str):
    first = next((d.value for d in ann.decisions if d.value is not None), None)
    if first is None:
        return None
    pts: list[tuple[float, int, str, str]] = [(0, first, "", "")]
    for d in ann.decisions:  # the value after a card, in the middle of that card's slot
        if d.after is not None:
            mark = d.mark if _flagged(d, min_cost) else ""
            pts.append((d.index + 0.5, d.after, mark,
                        f"trick {d.trick}: {d.player} {format_card(d.card, style)}, cost {d.cost}" if mark else ""))
    return value_line(pts, cards=len(ann.decisions), seats=ann.game.seats, schneider=schneider_points(ann.game))


def render_html(ann: Annotation, style: str | None = None, *, min_cost: int | None = None,
                source: str | None = None) -> str:
    """One self-contained HTML page: summary, the value chart (61 and 91 marked), the hands as dealt, the bury
    and call, every trick with its errors highlighted, the per-player table. ``style``: a card style (default:
    the game family's notation); ``min_cost``: flag only errors that cost at least that much (and every one that
    changed the result), as the text does; ``source``: the record file, named in the command that explores the
    hand in the browser (``sheepsolve explore FILE``)."""
    g, st = ann.game, ann.setup
    style = style or html_style(None, g)
    sm = ann.summary
    stats = []
    if ann.two_sided and sm.deal_value is not None:
        stats.append(("", str(sm.deal_value), f"worth at the first lead ({sm.deal_outcome})"))
        stats.append(("", str(sm.result_value), ("result" if sm.finished else "value now") +
                      f" ({sm.result_outcome})"))
        ga = sm.given_away or 0
        stats.append(("bad" if ga > 0 else "good", signed(-ga) if ga else "0", "net for the declaring side"))
    errs = sum(p.errors for p in sm.players)
    swings = sum(p.swings for p in sm.players)
    stats.append(("bad" if errs else "good", str(errs), "errors"))
    stats.append(("bad" if swings else "good", str(swings), "result-changing errors"))
    if ann.bury is not None:
        stats.append(("bad" if ann.bury.cost else "good", str(ann.bury.cost), f"cost of the {ann.bury.kind}"))

    hands = []
    played_cards = {d.card for d in ann.decisions}
    for seat, name in enumerate(ann.players):
        if st.declarer == seat:
            tag = ("picker" if g.kind == "picker" and g.family != "skat" else "declarer", "decl")
        elif st.partner == seat:
            tag = ("partner", "decl")
        elif g.two_sided:
            tag = ("defender", "")
        else:
            tag = None
        hands.append({"name": name, "tag": tag,
                      "cards": [(c, "gone" if (c in played_cards and not ann.finished) else "")
                                for c in g.sort_cards(st.hands[seat], st.suit_class)]})

    state = st.start()
    for d in ann.decisions:
        state = state.play(d.card)
    winners = {i: (t.winner, t.points) for i, t in enumerate(state.tricks, 1)}
    tricks: dict[int, dict[str, Any]] = {}
    for d in ann.decisions:
        w = winners.get(d.trick)
        t = tricks.setdefault(d.trick, {"number": d.trick, "leader": d.player, "winner":
                                        (ann.players[w[0]], w[1]) if w else None, "plays": [], "notes": [],
                                        "view_notes": []})
        flagged = _flagged(d, min_cost)
        cls = (" e2" if d.mark == "??" else " e1") if flagged else ""
        if w and d.seat == w[0]:
            cls += " win"
        t["plays"].append({"d": d, "cls": cls, "mark": d.mark if flagged else ""})
        if flagged:
            t["notes"].append({"d": d, "cls": "e2" if d.swing else "e1",
                               "swing": str(d.swing).replace("->", "→") if d.swing else ""})
        if d.view is not None and (flagged or d.view.error):
            t["view_notes"].append({"d": d, "v": d.view, "cls": "e1" if d.view.error else "ok"})

    sm_top = max([p.given_away for p in sm.players] + [1])
    players = [{"p": p, "bar": int(120 * p.given_away / sm_top) if p.given_away else 0} for p in sm.players]
    scale = ("Values are the declarer's tricks under perfect play by everyone from that point (double dummy): "
             "he wins with none; costs are in tricks to the mover's side." if ann.two_sided and g.no_trick else
             "Values are the declaring side's final card points under perfect play by everyone from that point "
             "(double dummy); costs are in points to the mover's side." if ann.two_sided else
             "Values are the mover's own final card points, every other player playing against him (paranoid, "
             "double dummy); lower is better; costs are in points." +
             (f" In a leaster {NO_TRICK} means the player can take no trick." if g.kind == "leaster" else ""))
    sub = call_text(ann, lambda c: format_card(c, style)).lstrip(" —")
    if ann.stakes.factor > 1:
        sub += f" · stakes ×{ann.stakes.factor}"
    b = ann.bury
    bury_rows = []
    if b is not None:
        rows = [o for o in b.options if o.exact][:8]
        if b.chosen not in rows:
            rows.append(b.chosen)
        bury_rows = [{"o": o, "cls": "chosen" if o is b.chosen else ("best" if o in b.best else ""),
                      "chosen": o is b.chosen} for o in rows]
    return render_page(
        "annotate.html", notation=style, is_trump=lambda c: g.is_trump(c), family=g.family,
        schneider=schneider_points(g),
        explore=_explore_command(source),
        title=f"{annotation_title(ann, style)} — annotated", subtitle=sub or ", ".join(ann.players), command="annotate",
        ann=ann, summary=sm, summary_text=summary_text(ann), expected_text=expected_text, stats=stats, value_chart=_chart(ann, min_cost, style) if ann.two_sided else None,
        hands=hands,
        blind=g.sort_cards(st.blind) if st.blind else [], buried=g.sort_cards(st.bury) if st.bury else [],
        has_bury=bool(st.bury), bury=b, bury_rows=bury_rows,
        bury_rest=(len(b.options) - len([o for o in b.options if o.exact])) if b is not None else 0,
        tricks=list(tricks.values()), players=players, scale=scale, min_cost=min_cost,
        label=_bury_label, view_legend=view_legend(ann, style) if ann.view is not None else "",
        beliefs=_belief_tables(ann), has_trumps=bool(g.trumps),
        contract_of_call=lambda c: contract_name("sauspiel", style, called=c))


def _belief_tables(ann: Annotation) -> list[dict[str, Any]]:
    """The page's table of beliefs at each player's first decision (:func:`first_beliefs`)."""
    out = []
    for d in first_beliefs(ann):
        names = list(next(iter(d.view.beliefs.values()))["cards"])
        out.append({"player": d.player, "where": f"trick {d.trick}, card {d.index % ann.game.seats + 1}",
                    "cards": [Card.parse(c) for c in names],
                    "rows": [{"who": who, "trumps": b["trumps"],
                              "cells": [(b["cards"][c], f"{100 * b['cards'][c]:.0f}%") for c in names]}
                             for who, b in d.view.beliefs.items()]})
    return out


def _bury_label(o: PickerChoice) -> dict[str, Any]:
    return {"bury": list(o.bury), "call": o.call, "under": o.under, "alone": o.alone}


# --------------------------------------------------------------------------------------------------------------
# The hand as a whole in words


def expected_text(row: BuryViewRow) -> str:
    """A choice's mean over the player's worlds (a :class:`~sheepsolve.player.annotate.BuryViewRow`): the mean
    points ``61.2``, or in null the share won ``won in 40%``."""
    return f"won in {row.pwin:.0%}" if row.mean is None else number(row.mean)


def summary_text(ann: Annotation) -> str:
    """The hand as a whole in words: what the deal was worth and what play gave away (two-sided games), or what
    each player gave away and the card points (ramsch, leaster); a finished Skat hand's game value. The text's
    line, the page's lead and the JSON's ``summary.text`` (:func:`sheepsolve.commands.annotate`)."""
    s, g = ann.summary, ann.game
    if not g.two_sided:
        assert s.points is not None
        return (_sides_free_text(s.players, s.finished) + " Card points" + (": " if s.finished else " so far: ")
                + ", ".join(f"{n} {p}" for n, p in s.points.items()) + (f" ({s.outcome})." if s.outcome else "."))
    decl, dfn, given = s.declaring_cost, s.defending_cost, s.given_away
    who = side_name(ann.setup, ann.players)
    if not ann.decisions and g.sie:
        text = f"A sie: {who} holds every Ober and Unter; there is no play to judge."
    else:
        text = f"The deal was worth {s.deal_value} for {who} ({s.deal_outcome}); "
        if s.finished:
            text += f"the result was {s.result_value} ({s.result_outcome}): "
        else:
            text += f"the hand is unfinished, worth {s.result_value} ({s.result_outcome}) from its last position: "
        if given and given > 0:
            text += f"play gave away {given}."
        elif given and given < 0:
            text += f"the defenders gave away {-given}."
        else:
            text += "play gave away nothing" + (" net." if decl or dfn else ".")
        if decl and dfn:
            text = text[:-1] + f" (declaring side lost {decl}, defenders {dfn})."
    if s.skat is not None:  # Skat: the game value and the list score (ISkO)
        text += f" {skat_value_line(s.skat)}."
    return text


def side_name(setup: Setup, players: Sequence[str]) -> str:
    """The declaring side by role and name: ``the picker Ann and partner Bob``, ``the soloist Sepp``."""
    g = setup.game
    if setup.declarer is None:
        return "the declaring side"
    who = players[setup.declarer]
    role = ("the declarer" if g.family == "skat" or g.partner == "sauspiel" else
            "the picker" if g.kind == "picker" else "the soloist")
    if setup.partner is None:
        return f"{role} {who}"
    return f"{role} {who} and partner {players[setup.partner]}"


def _sides_free_text(per: Sequence[PlayerSummary], finished: bool) -> str:
    total = sum(p.given_away for p in per)
    if not total:
        return "Nobody gave anything away: every card kept the player's own best value." + (
            "" if finished else " (The hand is unfinished.)")
    worst = max(per, key=lambda p: p.given_away)
    return (f"Players gave away {total} points between them (each counted against his own best); "
            f"{worst.player} gave away the most, {worst.given_away}." + ("" if finished else " (Unfinished.)"))
