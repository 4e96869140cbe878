"""``sheepsolve suggest`` as text (one line per legal card, best first) and as a page (:func:`suggest_html`)."""

from __future__ import annotations

from typing import Any

from ..cards import Card, format_card
from ..player.suggest import View
from ..contracts import game_title
from ..scoring import schneider_points
from .charts import histogram
from .choices import CHARTED
from .html import html_style, render_page
from .text import number, percent, table

__all__ = ["render_suggest", "suggest_html", "suggest_position"]


def render_suggest(v: View, style: str = "ascii") -> str:
    """The answer as text: one line per legal card, best first.

    >>> from sheepsolve.player.suggest import suggest_record
    >>> from sheepsolve.record import load_record
    >>> v = suggest_record(load_record("examples/sauspiel-midtrick.toml"), worlds=30)
    >>> print(render_suggest(v).splitlines()[0])
    Sauspiel on AS: Resi to move (declaring side), 30 sampled worlds
    """
    k = v.knowledge
    g = k.game
    side = ("declaring side" if v.declaring else "defending") if g.two_sided else "own points, lower is better"
    what = (f"every consistent world solved ({v.worlds})" if v.exact else f"{v.worlds} sampled worlds")
    if v.weights is not None:
        what += f", worth {v.effective:.1f} uniform worlds"
    where = "" if v.at is None else f" at trick {v.at[0]}, card {v.at[1]}"
    lines = [f"{game_title(g, style, called=k.called)}: {v.seat_name} to move{where} ({side}), {what}"]
    scale = v.scale.replace(" (lower is better)", "")
    lines.append(f"  mean: {scale}; ± one standard error")
    sign = 1 if v.maximize else -1
    order = sorted(v.cards, key=lambda c: (-sign * v.cards[c].mean, list(v.cards).index(c)))
    # null and Bettel: how often the declarer takes no trick, where the point games give P(61+) and P(91+)
    chances = ["P(no trick)"] if g.no_trick else ["P(61+)", f"P({schneider_points(g)}+)"]  # Skat's schneider: 90
    head = ["card", "mean", "±", *chances, "payment", "vs best", ""]
    if v.double_dummy is not None:
        head.insert(len(head) - 1, "double dummy")
    rows = [head]
    for c in order:
        cv = v.cards[c]
        # a figure that does not apply leaves its cell blank
        odds = [cv.p_no_trick] if g.no_trick else [cv.p61, cv.p91]
        row = [format_card(c, style), number(cv.mean, none=""), number(cv.stderr, none=""),
               *(percent(x, none="") for x in odds), number(cv.payment, 2, none=""),
               "" if c in v.best and cv.vs_best == 0 else f"-{cv.vs_best:.1f}",
               "best" if c in v.best else ""]
        if v.double_dummy is not None:
            row.insert(len(row) - 1, str(v.double_dummy[c]))
        rows.append(row)
    lines += table(rows, "<" + ">" * (len(head) - 2) + "<")
    best = " ".join(format_card(c, style) for c in v.best)
    if len(v.best) > 1:
        lines.append(f"best: {best} (a tie: within noise of each other)" if not v.exact else
                     f"best: {best} (equal in every world on average)")
    else:
        lines.append(f"best: {best}")
    if v.played is not None:
        cost = v.cost(v.played)
        verdict = ("one of the best" if v.played in v.best else
                   f"{cost:.1f} points worse than the best in expectation")
        lines.append(f"played: {format_card(v.played, style)} ({verdict})")
    if not g.two_sided:
        lines.append("(ramsch and leaster: no payment or P(61+) from one seat's points)")
    lines.extend(belief_lines(v, style))
    lines.append(f"worlds: {v.assumes_in(style)}")
    lines.append("Each world is solved double dummy: the figures read the players as seeing every card from then "
                 "on, so they flatter guesses a player could not make.")
    return "\n".join(lines) + "\n"


def belief_lines(v: View, style: str = "ascii") -> list[str]:
    """What the player may believe of each other hand: expected trumps and each top trump's and plain ace's
    chance, as text lines (none when there are no beliefs)."""
    if not v.beliefs:
        return []
    k = v.knowledge
    out = ["beliefs (what each other hand holds now, over the worlds):"]
    for s, b in v.beliefs.items():
        chances = "  ".join(f"{format_card(Card.parse(c), style)} {100 * p:.0f}%" for c, p in b["cards"].items())
        trumps = f"{b['trumps']:.1f} trumps" if k.game.trumps else ""  # null and Bettel have none
        out.append(f"  {k.players[s]}: " + "; ".join(x for x in (trumps, chances) if x))
    return out


def suggest_html(v, style: str | None = None) -> str:
    """``sheepsolve suggest`` as a page: the seat's hand, every legal card over the worlds (best first) and the
    points each of the best cards leads to, world by world."""
    k = v.knowledge
    g = k.game
    style = style or html_style(None, g)
    sign = 1 if v.maximize else -1
    order = sorted(v.cards, key=lambda c: (-sign * v.cards[c].mean, list(v.cards).index(c)))
    legal = list(v.cards)
    charts = []
    if g.two_sided and not g.no_trick:  # null and Bettel: a world's value is only whether the declarer took a trick
        for c in order[:CHARTED]:
            j = legal.index(c)
            points = [w[j] for w in v.values if w[j] is not None]
            if points:
                ch = histogram(points, label=f"points over the worlds after {format_card(c, style)}",
                               schneider=schneider_points(g))
                charts.append({"card": c, "chart": ch, "stats": v.cards[c]})
    side = ("the declaring side" if v.declaring else "the defenders") if g.two_sided else "his own points"
    names = list(next(iter(v.beliefs.values()))["cards"]) if v.beliefs else []
    belief_rows = [{"who": k.players[s], "trumps": b["trumps"],
                    "cells": [(b["cards"][c], f"{100 * b['cards'][c]:.0f}%") for c in names]}
                   for s, b in (v.beliefs or {}).items()]
    return render_page("suggest.html", notation=style, is_trump=g.is_trump, family=g.family, no_trick=g.no_trick,
                       schneider=schneider_points(g),
                       title=f"{game_title(g, style, called=k.called)}: what to play",
                       subtitle=f"{v.seat_name} to move ({side})",
                       command="suggest", v=v, who=v.seat_name, order=order, charts=charts,
                       two_sided=g.two_sided, belief_cards=[Card.parse(c) for c in names], beliefs=belief_rows,
                       has_trumps=bool(g.trumps), assumes=v.assumes_in(style), **suggest_position(v))


def suggest_position(v) -> dict[str, Any]:
    """The position the answer is about, as the seat sees it: the cards still in his hand, the tricks so far and
    the cards on the table (each as (player, card)), which decision (``trick 3, card 2``) and, with ``--at``,
    the verdict on the card the record's player played there."""
    k = v.knowledge
    g = k.game
    names = k.players or tuple(str(s + 1) for s in range(g.seats))
    played = [(names[s], c) for s, c in k.plays]
    done = len(played) // g.seats * g.seats
    mine = {c for s, c in k.plays if s == k.seat}
    verdict = None
    if v.played is not None:
        verdict = ("one of the best" if v.played in v.best else
                   f"{v.cost(v.played):.1f} points worse than the best in expectation")
    return {"hand": g.sort_cards([c for c in k.hand if c not in mine]),
            "tricks": [played[i:i + g.seats] for i in range(0, done, g.seats)], "on_table": played[done:],
            "decision": f"trick {done // g.seats + 1}, card {len(played) - done + 1}", "verdict": verdict}
