"""The choices before the first lead as text and HTML: ``bury`` (every bury and call ranked), ``pick`` (pick or
pass), ``choose`` (every Schafkopf contract). The pages chart the declaring side's points over the sampled
worlds for the best choices, 61 and 91 marked.

>>> from sheepsolve.bury import choose_contract, Contract
>>> from sheepsolve.cards import parse_cards
>>> from sheepsolve.games import make_game
>>> c = choose_contract(make_game("solo", trump="H"), parse_cards("QC JC"), 0, worlds=10, seed=2,
...                     unseen=parse_cards("AH TH AS TS KS 9S"),
...                     contracts=[Contract("solo", "S"), Contract("wenz"), Contract("geier", tout=True),
...                                Contract("solo", "C", tout=True)])
>>> text = render_choose(c, "german").splitlines()
>>> [line.split()[1:3] for line in text[2:4]], text[4].split()
([['Geier', 'Tout'], ['Eichel-Solo', 'Tout']], ['pass', '+0.00'])
>>> text[-5]
'no sauspiel: 1 keeps no Eichel, Gras or Schellen card that is not a trump (a Sau can be called only by a \
player who lacks it and keeps a card of its suit)'
>>> text[-3]
'best: Geier Tout, Eichel-Solo Tout (a tie: within two standard errors of the first, world by world)'
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence


from ..bury import (BURY_CAVEAT, BURY_CAVEAT_ACTUAL, CHOOSE_CAVEAT, BuryRanking, BuryRow, ChoiceResult, Contract,
                    ContractRow, BuryDecision, PickResult, SampledRow, sauspiel_blocks)
from ..bury.results import BuryLesson, DealLesson, RecordLesson, Sampled
from ..cards import RANKS, SUITS, Card, card_name, suit_name
from ..games import Game, GameError
from .charts import histogram
from .html import html_style, render_page
from ..contracts import contract_name, game_title
from ..scoring import schneider_points
from .text import cards as _cards, number, percent

__all__ = ["render_bury", "render_pick", "render_choose", "bury_html", "pick_html", "choose_html",
           "decision_text", "contract_text", "no_sauspiel_text", "worlds_text", "lesson_text", "value_text",
           "mean_text"]

_SHOWN = 8  # choices listed on one line of text; the JSON lists them all
CHARTED = 4  # choices (or contracts) charted on a page


def _pct(p: float | None) -> str:
    """A share in a column four wide."""
    return percent(p).rjust(4)


def decision_text(d: BuryDecision, style: str) -> str:
    """A bury and its call in one notation: ``K♠ 8♣, call A♥ (8♣ under)``, ``9♣ 9♦, alone``
    (:meth:`BuryDecision.label <sheepsolve.bury.choices.BuryDecision.label>`)."""
    return d.label(style)


def contract_text(c: Contract, style: str) -> str:
    """A contract as players say it (:func:`~sheepsolve.render.text.contract_name`); a Skat contract
    by its German name (``Grand Hand``, ``Herz-Spiel, skat taken``, ``Null ouvert Hand``; with the skat known
    ``Kreuz-Spiel, discard 9♣ 8♣``)."""
    if c.skat is None:
        return contract_name(c.game, style, trump=c.trump, called=c.called, tout=c.tout)
    name = contract_name(c.game, style, trump=c.trump, ouvert=c.ouvert, hand=c.skat == "hand")
    name += ", skat taken" if c.skat == "taken" else ""
    return name + (f", discard {_cards(c.discard, style)}" if c.discard else "")


def _group_text(decisions: Sequence[BuryDecision], style: str) -> str:
    out = "; ".join(decision_text(d, style) for d in decisions[:_SHOWN])
    if len(decisions) > _SHOWN:
        out += f" and {len(decisions) - _SHOWN} more"
    return out


def _title(g: Game, style: str) -> str:
    return game_title(g, style) + (f" ({g.partner})" if g.name == "sheepshead" else "")


def render_bury(r: BuryRanking, style: str = "ascii") -> str:
    """The ranking as text: one line per rank, equal choices grouped on it."""
    g = r.game
    names = r.players
    lines = [f"{_title(g, style)}: {names[r.picker]} {_picks_up(g)} {_cards(r.blind, style)}; hand "
             f"{_cards(g.sort_cards(r.hand), style)}"]
    n = len(r.rows)
    if r.view == "actual":
        lines.append(f"{n} legal choices ({r.solved} distinct), double dummy on the actual deal, ranked by "
                     f"{r.by}; payment is {names[r.picker]}'s own")
        lines.append(f"{'rank':>4}  {'value':>5}  {'outcome':<11} {'pay':>4}  choices")
        for rank, group in itertools.groupby(r.rows, key=lambda x: x.rank):
            grp = list(group)
            row = grp[0]
            assert isinstance(row, BuryRow)
            lines.append(f"{rank:>4}  {number(row.value, 0):>5}  {row.outcome:<11} {row.payment:>+4}  "
                         + _group_text([x.decision for x in grp], style))
        lines.append(f"{r.nodes} nodes, {r.seconds * 1000:.1f} ms")
        lines.append("caveat: " + r.caveat)
    else:
        lines.append(f"{n} legal choices ({r.solved} distinct) from {names[r.picker]}'s view: "
                     f"{worlds_of(r)}, every choice in the same worlds; ranked by {r.by}")
        lines.append(f"{'rank':>4}  {'points':>12}  {'61+':>4} {_third_column(g):>4} {'schw':>4}  {'payment':>13}  "
                     f"{'vs best':>13}  {'':4}  choices")
        for rank, group in itertools.groupby(r.rows, key=lambda x: x.rank):
            grp = list(group)
            row = grp[0]
            assert isinstance(row, SampledRow)
            s = row.stats
            third = s.pwin if g.family == "skat" else s.p91
            lines.append(f"{rank:>4}  {number(s.mean):>5} ± {number(s.stderr):<4}  {_pct(s.p61)} {_pct(third)} "
                         f"{_pct(s.pschwarz)}  {s.payment:>+6.2f} ± {number(s.payment_stderr, 2):<4}  "
                         f"{s.vs_best:>+6.2f} ± {number(s.vs_best_stderr, 2):<4}  "
                         f"{'best' if row.tie or rank == 1 else '':4}  "
                         + _group_text([x.decision for x in grp], style))
        tied = [x for x in r.rows if isinstance(x, SampledRow) and x.tie and x.rank > 1]
        lines.append(f"best: {_group_text(r.best, style)}"
                     + (" (a tie: within two standard errors of the first, world by world)" if tied else ""))
        lines.append(f"{r.seconds:.2f} s")
        if r.actual is not None:
            a = r.actual.rows[0]
            assert isinstance(a, BuryRow)
            lines.append(f"actual deal, double dummy: best {'; '.join(decision_text(d, style) for d in r.actual.best)}"
                         f" ({value_text(a.value, a.outcome)}, {a.payment:+d})")
            if r.actual_agrees:
                lines.append("the best choice on the actual deal is also among the best in expectation")
        lesson = lesson_text(r.lesson, style)
        if lesson:
            lines.append("lesson: " + lesson)
    if r.record_choice is not None:
        row = r.row_of(r.record_choice)
        lines.append(f"the record's choice {decision_text(r.record_choice, style)}: "
                     + (f"rank {row.rank} of {n}" if row else "not among the legal choices")
                     + _cost_text(r))
    if r.view == "picker":
        lines.append("caveat: " + r.caveat)
    for note in r.notes:
        lines.append("note: " + note)
    return "\n".join(lines) + "\n"


def value_text(value: int | None, outcome: str) -> str:
    """A choice's result on one deal in words: ``60 points, loss``, or in null (no points question) ``win``."""
    return outcome if value is None else f"{value} points, {outcome}"


def mean_text(s: Sampled) -> str:
    """A choice's points over the worlds in words: ``mean 61.2 points``, or in null ``won in 40%``."""
    return f"won in {s.pwin:.0%}" if s.mean is None else f"mean {number(s.mean)} points"


def lesson_text(lesson: BuryLesson | None, style: str = "ascii") -> str | None:
    """A bury ranking's lesson (:attr:`BuryRanking.lesson <sheepsolve.bury.results.BuryRanking.lesson>`) in
    words, the cards in one notation (a :func:`~sheepsolve.cards.format_card` style): the text's and the page's
    ``lesson``, and in ``ascii`` the JSON's (:func:`sheepsolve.commands.bury`). None without a lesson."""
    if lesson is None:
        return None
    parts = [x for x in (_deal_lesson_text(lesson, lesson.deal, style),
                         _record_lesson_text(lesson, lesson.record, style)) if x]
    return " ".join(parts) if parts else None


def _record_lesson_text(lesson: BuryLesson, record: RecordLesson | None, style: str) -> str | None:
    if record is None:
        return None
    who, unit, best, stats = lesson.seat, lesson.unit, record.best, record.row.stats
    tied = f"; {record.others_tied} more within noise of it" if record.others_tied else ""
    return (f"{who}'s choice {record.choice.label(style)} ({mean_text(stats)}, {stats.payment:+.2f} {unit} a hand) "
            f"costs {record.cost:.2f} ± {number(record.cost_stderr, 2)} {lesson.measure} a hand in expectation "
            f"against the best from what {who} could see, {best.decision.label(style)} ({mean_text(best.stats)}, "
            f"{best.stats.payment:+.2f} {unit}{tied}), world by world over {lesson.worlds} worlds: beyond the "
            f"noise (more than two standard errors).")


def _deal_lesson_text(lesson: BuryLesson, deal: DealLesson | None, style: str) -> str | None:
    if deal is None:
        return None
    unit = lesson.unit
    a, e = deal.deal_best, deal.expected_best
    text = (f"On the actual deal the best choice is {a.decision.label(style)} ({value_text(a.value, a.outcome)}, "
            f"{a.payment:+d} {unit}), but from what {lesson.seat} could see the best is "
            f"{e.decision.label(style)} ({mean_text(e.stats)}, {e.stats.payment:+.2f} {unit} a hand).")
    on_deal = deal.expected_best_on_deal
    if on_deal is not None:
        text += (f" On this deal {e.decision.label(style)} gives "
                 + (f"{on_deal.value} points ({on_deal.outcome}, " if on_deal.value is not None else
                    f"a {on_deal.outcome} (") + f"{on_deal.payment:+d});")
    if deal.deal_best_in_worlds is not None:
        st = deal.deal_best_in_worlds.stats
        text += (f" over the worlds {a.decision.label(style)} averages "
                 + (f"{number(st.mean)} points" if st.mean is not None else f"{st.pwin:.0%} won") + ", "
                 f"{st.payment:+.2f} {unit} ({st.vs_best:+.2f} ± {number(st.vs_best_stderr, 2)} "
                 f"{unit if lesson.by == 'payment' else 'points'} against the best, world by world).")
        if st.vs_best_stderr is None:
            text += " With one world there is no noise to measure: more worlds would tell whether it is real."
        else:  # not a tie with the best (the lesson is not given then): beyond two standard errors
            text += (f" From the {lesson.role}'s seat the better choice is the one in expectation: the "
                     "double-dummy best only suits this lie of the cards.")
    return text


def _picks_up(g: Game) -> str:
    """What the picker does with the blind, in the game's words: ``picks up``, in Skat ``takes the skat``."""
    return "takes the skat" if g.family == "skat" else "picks up"


def _bury_word(g: Game) -> str:
    """``bury``, in Skat ``discard``."""
    return "discard" if g.family == "skat" else "bury"


def _third_column(g: Game) -> str:
    """The sampled ranking's third column: P(91+), in Skat P(won) (in null the chance of taking no trick)."""
    return "win" if g.family == "skat" else _schneider_head(g)


def _schneider_head(g: Game) -> str:
    """The head of the schneider column: ``91+``, in Skat ``90+`` (:func:`~sheepsolve.scoring.schneider_points`)."""
    return f"{schneider_points(g)}+"


def worlds_text(worlds: int, seed: int | None, exact: bool, assumes: str = "", effective: float | None = None,
                weighted: bool = False) -> str:
    """``200 worlds (seed 0)``, or with every deal solved ``every one of the 90 deals of the unseen cards``; with
    ``assumes`` (what the worlds assume) and the effective number of worlds when they are ``weighted`` (or
    differ).

    >>> worlds_text(200, 0, False), worlds_text(90, 0, True)
    ('200 worlds (seed 0)', 'every one of the 90 deals of the unseen cards (exact)')
    >>> worlds_text(200, 0, False, "deals weighted by the passes", 151.26)
    '200 worlds (seed 0; deals weighted by the passes, worth 151.3 uniform worlds)'
    >>> worlds_text(200, 0, False, "deals weighted by the passes", 200.0, weighted=True)
    '200 worlds (seed 0; deals weighted by the passes, worth 200.0 uniform worlds)'
    """
    out = f"every one of the {worlds} deals of the unseen cards (exact)" if exact else f"{worlds} worlds (seed {seed})"
    if not assumes:
        return out
    worth = (f", worth {effective:.1f} uniform worlds"
             if effective is not None and (weighted or abs(effective - worlds) > 1e-6) else "")
    return out[:-1] + f"; {assumes}{worth})"


def worlds_of(r: BuryRanking | PickResult | ChoiceResult) -> str:
    """:func:`worlds_text` of a sampled answer."""
    return worlds_text(r.worlds, r.seed, r.exact, r.assumes, r.effective, r.inference == "auction")


def _cost_text(r: BuryRanking) -> str:
    """The record's choice against the best in expectation (picker's view)."""
    cost = r.record_cost()
    if cost is None:
        return ""
    c, se, tie = cost
    if c <= 1e-9:
        return ", the best in expectation"
    what = f"{c:.2f} ± {number(se, 2)} {r.unit} a hand below the best in expectation"
    return f", {what}: " + ("within noise of the best (a tie)" if tie else "beyond the noise")


def render_pick(r: PickResult, style: str = "ascii") -> str:
    names = r.players
    s = r.pick
    lines = [f"{_title(r.game, style)}: {names[r.seat]} holds {_cards(r.game.sort_cards(r.hand), style)}; "
             f"{worlds_of(r)}, the blind and the other hands unseen",
             f"pick: {s.payment:+.2f} ± {number(s.payment_stderr, 2)} units a hand ({names[r.seat]}'s own), "
             f"points {number(s.mean)} ± {number(s.stderr)}, 61+ {_pct(s.p61).strip()}, 91+ {_pct(s.p91).strip()}, "
             f"schwarz {_pct(s.pschwarz).strip()}",
             "pass: +0.00 (a leaster or another player's pick after a pass is out of scope)",
             f"decision: {r.decision}" + (" (a tie with passing: within two standard errors of it)"
                                          if len(r.best) > 1 and r.decision == "pick" else
                                          " (a tie with picking: within two standard errors of it)"
                                          if len(r.best) > 1 else ""),
             "outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(r.outcomes.items(), key=lambda kv: -kv[1])),
             "most chosen buries: " + "; ".join(f"{decision_text(d, style)} ({k})" for d, k in r.buries[:5]),
             "procedure: in each world the best double-dummy bury (and call) of that world: the picker is "
             "credited with seeing every card when he buries, so picking is read optimistically"]
    if r.actual is not None:
        d, v, o, p = r.actual
        lines.append(f"actual deal: best {decision_text(d, style)}, {v} points, {o}, {p:+d}")
    lines.append(f"{r.seconds:.2f} s")
    return "\n".join(lines) + "\n"


def hand_order(cards: Iterable[Card]) -> list[Card]:
    """A Schafkopf hand before its contract is chosen: by suit (Eichel, Gras, Herz, Schellen), high to low."""
    return sorted(cards, key=lambda c: (SUITS.index(c.suit), RANKS.index(c.rank)))


def hopeless(row: ContractRow) -> bool:
    """A tout never won in any sampled world: folded into one line."""
    return row.contract.tout and row.stats.pwin == 0


def no_sauspiel_text(r: ChoiceResult, style: str) -> str | None:
    """Why the hand has no sauspiel row, when it has none because no Sau can be called."""
    if r.game.family != "schafkopf" or any(row.contract.game == "sauspiel" for row in r.rows):
        return None
    try:
        blocks = sauspiel_blocks(r.game, r.hand)
    except GameError:
        return None  # no sauspiel in this game at all (3 players)
    if not blocks:
        return None
    who = r.players[r.seat]
    held = [a for a, why in blocks if why == "held"]
    void = [a for a, why in blocks if why == "void"]
    parts = []
    if held:
        parts.append("holds " + " and the ".join(["the " + card_name(held[0], style)]
                                                 + [card_name(a, style) for a in held[1:]]) + " himself")
    if void:
        suits = [suit_name(a.suit, style) for a in void]
        parts.append("keeps no " + (", ".join(suits[:-1]) + " or " if len(suits) > 1 else "") + suits[-1]
                     + " card that is not a trump")
    return (f"no sauspiel: {who} " + " and ".join(parts) + " (a Sau can be called only by a player who lacks it "
            "and keeps a card of its suit)")


def _choose_family(r: ChoiceResult) -> str:
    return "Skat" if r.game.family == "skat" else "Schafkopf"


def _skat_text(r: ChoiceResult, style: str) -> str:
    """Skat: the skat (unseen, or taken and known) and the bid to cover, for the first line of ``choose``."""
    if r.game.family != "skat":
        return ""
    bid = getattr(r.game, "bid", None)
    out = (", the skat unseen" if r.skat is None else f", the skat {_cards(r.skat, style)} taken")
    return out + (f", bid {bid}" if bid is not None else "")


def render_choose(r: ChoiceResult, style: str = "ascii") -> str:
    """Every contract, best first, against passing; touts never won folded into one line; a word when no
    sauspiel is possible."""
    names = r.players
    labels = {row.contract: contract_text(row.contract, style) for row in r.rows}
    width = max([len(x) for x in labels.values()] + [16])
    lines = [f"{_choose_family(r)}: {names[r.seat]} holds {_cards(hand_order(r.hand), style)}"
             + _skat_text(r, style) + "; "
             f"{worlds_of(r)}, every contract in the same worlds; payment is "
             f"{names[r.seat]}'s own",
             f"{'rank':>4}  {'contract':<{width}} {'points':>12}  {'win':>4} {_schneider_head(r.game):>4} {'schw':>4}  "
             f"{'payment':>15}  "
             f"{'vs best':>15}"]
    passed = False
    folded = [row for row in r.rows if hopeless(row)]
    pass_line = (f"{'':>4}  {'pass':<{width}} {'':>12}  {'':>4} {'':>4} {'':>4}  {0:>+8.2f}"
                 + (f"  {'':>17}  best" if r.pass_tie else ""))
    for row in r.rows:
        s = row.stats
        if not passed and s.payment <= 0:
            lines.append(pass_line)
            passed = True
        if row in folded:
            continue
        pts = f"{number(s.mean):>5} ± {number(s.stderr):<4}" if s.mean is not None else f"{'(tricks)':>12}"
        lines.append((f"{row.rank:>4}  {labels[row.contract]:<{width}} {pts}  {_pct(s.pwin)} {_pct(s.p91)} "
                      f"{_pct(s.pschwarz)}  {s.payment:>+8.2f} ± {number(s.payment_stderr, 2):<5}  "
                      f"{s.vs_best:>+8.2f} ± {number(s.vs_best_stderr, 2):<5}  {'best' if row.tie else ''}").rstrip())
    if not passed:
        lines.append(pass_line)
    if folded:
        pays = sorted({round(row.stats.payment, 2) for row in folded})
        pay = f"{pays[0]:+.2f} each" if len(pays) == 1 else f"{pays[0]:+.2f} to {pays[-1]:+.2f}"
        lines.append(f"{'':>4}  {len(folded)} tout contract{'s' if len(folded) > 1 else ''} won in none of the "
                     f"{r.worlds} worlds ({pay}): " + ", ".join(labels[row.contract] for row in folded))
    note = no_sauspiel_text(r, style)
    if note:
        lines.append(note)
    decision = "pass" if r.decision == "pass" else labels[r.rows[0].contract]
    lines.append(f"decision: {decision}")
    named = {row.contract.label(): labels[row.contract] for row in r.rows}
    best = r.best
    if len(best) > 1:
        lines.append("best: " + ", ".join(named.get(b, b) for b in best)
                     + " (a tie: within two standard errors of the first, world by world)")
    lines.append("caveat: " + CHOOSE_CAVEAT)
    lines.append(f"{r.seconds:.2f} s")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------------------------------
# HTML


def _chart(values: Sequence[int | None], label: str, schneider: int):
    vals = [v for v in values if v is not None]
    if not vals:
        return None
    return histogram(vals, label=label, schneider=schneider)


def bury_html(r: BuryRanking, style: str | None = None) -> str:
    """The ranking as a page: the hand and blind, every rank, and (picker's view) the points of the best
    choices over the worlds."""
    style = style or html_style(None, r.game)
    groups = []
    for rank, group in itertools.groupby(r.rows, key=lambda x: x.rank):
        grp = list(group)
        groups.append({"rank": rank, "row": grp[0], "decisions": [x.decision for x in grp]})
    charts = []
    if r.view == "picker":
        for g in groups[:CHARTED]:
            row = g["row"]
            assert isinstance(row, SampledRow)
            ch = _chart(row.stats.values, f"points over the worlds: {decision_text(g['decisions'][0], 'ascii')}",
                        schneider_points(r.game))
            if ch is not None:
                charts.append({"decision": g["decisions"][0], "chart": ch, "stats": row.stats, "rank": g["rank"]})
    record_row = r.row_of(r.record_choice) if r.record_choice is not None else None
    return render_page("choices.html", notation=style, worlds=worlds_of(r),
                       is_trump=r.game.is_trump, kind="bury", schneider=schneider_points(r.game),
                       title=f"{_title(r.game, style)}: the {_bury_word(r.game)}",
                       subtitle=f"{r.players[r.picker]} " + ("takes the skat" if r.game.family == "skat" else "picks"),
                       third=_third_column(r.game), blind_word="skat" if r.game.family == "skat" else "blind",
                       command="bury", r=r, who=r.players[r.picker], hand=r.game.sort_cards(r.hand),
                       groups=groups, charts=charts, lesson=lesson_text(r.lesson, style), record_row=record_row,
                       rows_n=len(r.rows), cost=_cost_text(r),
                       tied=any(isinstance(x, SampledRow) and x.tie and x.rank > 1 for x in r.rows),
                       caveat=r.caveat)


def pick_html(r: PickResult, style: str | None = None) -> str:
    """Pick or pass as a page: the hand, picking's figures and its points over the worlds."""
    style = style or html_style(None, r.game)
    ch = _chart(r.pick.values, "points over the worlds when picking", schneider_points(r.game))
    return render_page("choices.html", notation=style, worlds=worlds_of(r),
                       is_trump=r.game.is_trump, kind="pick", schneider=schneider_points(r.game),
                       title=f"{_title(r.game, style)}: pick or pass", subtitle=f"{r.players[r.seat]}'s hand",
                       command="pick", r=r, who=r.players[r.seat], hand=r.game.sort_cards(r.hand),
                       charts=[{"chart": ch, "stats": r.pick}] if ch else [],
                       outcomes=sorted(r.outcomes.items(), key=lambda kv: -kv[1]))


def choose_html(r: ChoiceResult, style: str | None = None) -> str:
    """Every contract as a page: the table (touts never won folded), the points over the worlds of the best
    contracts that are a points question, and why there is no sauspiel when there is none."""
    style = style or html_style(None, r.game)
    rows = [row for row in r.rows if not hopeless(row)]
    folded = [row for row in r.rows if hopeless(row)]
    at = next((i for i, row in enumerate(rows) if row.stats.payment <= 0), len(rows))
    charts = []
    for row in r.rows:
        if len(charts) >= CHARTED:
            break
        ch = _chart(row.stats.values, f"points over the worlds: {contract_text(row.contract, 'ascii')}",
                    schneider_points(r.game))
        if ch is not None:
            charts.append({"name": contract_text(row.contract, style), "chart": ch, "stats": row.stats,
                           "rank": row.rank})
    decision = "pass" if r.decision == "pass" else contract_text(r.rows[0].contract, style)
    return render_page("choices.html", notation=style, worlds=worlds_of(r),
                       is_trump=None, kind="choose", schneider=schneider_points(r.game),
                       title=f"{_choose_family(r)}: which game?",
                       subtitle=f"{r.players[r.seat]}'s hand" + _skat_text(r, style), command="choose",
                       r=r, who=r.players[r.seat], hand=hand_order(r.hand), rows=rows, pass_at=at, folded=folded,
                       names={row.contract: contract_text(row.contract, style) for row in r.rows},
                       best_names={row.contract.label(): contract_text(row.contract, style) for row in r.rows},
                       charts=charts, note=no_sauspiel_text(r, style), verdict=decision, caveat=CHOOSE_CAVEAT)
