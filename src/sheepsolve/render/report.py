"""``sheepsolve report`` as aligned text and as one page with charts (the data: :mod:`sheepsolve.report`)."""

from __future__ import annotations

import math
from typing import Any

from ..report import SeasonReport
from .charts import Scene
from .html import render_page
from .text import number, percent

__all__ = ["render_text", "render_html"]


def render_text(r: SeasonReport) -> str:
    """The report as aligned text."""
    out = [f"{r.hands} hand{'s' if r.hands != 1 else ''} annotated"
           + (f"; {r.errors} batch line{'s' if r.errors != 1 else ''} with an error (not counted)" if r.errors
              else "") + "."]
    out += ["", "Per player (points lost double dummy: the sum of the costs of the player's cards)"]
    view = any(p.view_hands for p in r.players)
    rows = [["player", "hands", "decisions", "errors", "result-changing", "points lost", "per hand"]
            + (["view: hands", "errors", "points lost"] if view else [])]
    rows += [[p.player, str(p.hands), str(p.decisions), str(p.errors), str(p.swings), str(p.points_lost),
              number(p.points_lost_per_hand)]
             + ([str(p.view_hands), str(p.view_errors), number(p.view_loss)] if view else []) for p in r.players]
    out += _table(rows)
    if view:
        out.append("  view: judged again from the player's own view (annotate --view player): errors beyond the "
                   "noise, and the expected points lost")
    out += ["", "Per game form (the declaring side over the finished hands)"]
    rows = [["game", "hands", "finished", "declaring side won", "mean points"]]
    rows += [[f.name or f.form, str(f.hands), str(f.finished),
              percent(f.win_rate) + (f" of {f.two_sided}" if f.two_sided else ""), number(f.mean_points)]
             for f in r.forms]
    out += _table(rows)
    if r.failed:
        out += ["", "Lines with an error:"] + [f"  {e}" for _, e in r.failed[:20]]
        if len(r.failed) > 20:
            out.append(f"  ... and {len(r.failed) - 20} more")
    return "\n".join(out) + "\n"


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  " + "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))
            for row in rows]


def wilson_interval(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a rate of ``k`` in ``n`` at ``z`` standard errors (1.96: the usual
    two-sided interval), sound for small ``n``: one hand won of one is no certainty.

    >>> [round(100 * x) for x in wilson_interval(1, 1)], [round(100 * x) for x in wilson_interval(5, 10)]
    ([21, 100], [24, 76])
    """
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _bars(items: list[tuple[str, float]], *, label: str, axis: str, notes: list[str] | None = None) -> Any:
    """A horizontal bar chart (a :class:`~sheepsolve.render.charts.Scene`) of ``items`` (name, value), each
    value followed by its note (``of 3 hands``) when given. The names are never cut: the margin fits the
    longest (up to 40 characters)."""

    longest = max([len(name) for name, _ in items] + [8])
    row, left, top = 22, 12 + 7 * min(longest, 40), 10
    right = left + 330
    h = top + row * max(1, len(items)) + 34
    s = Scene(right + 150, h, label)
    most = max([v for _, v in items] + [1e-9])
    for i, (name, v) in enumerate(items):
        y = top + i * row
        w = (right - left) * v / most if most > 0 else 0
        note = f" {notes[i]}" if notes else ""
        s.rects.append({"x": f"{left:.1f}", "y": f"{y + 3:.1f}", "w": f"{max(w, 0.5):.1f}", "h": f"{row - 6:.1f}",
                        "cls": "col", "title": f"{name}: {v:g}{note}"})
        s.text(left - 6, y + row - 7, name if len(name) <= 40 else name[:39] + "…", anchor="end")
        s.text(left + w + 4, y + row - 7, f"{v:g}{note}", anchor="start")
    s.line(left, top, left, top + row * max(1, len(items)), "grid")
    s.text((left + right) / 2, h - 8, axis, cls="axis")
    return s


def render_html(r: SeasonReport, *, title: str = "Season report") -> str:
    """The report as one self-contained page (the project's templates, autoescaped), with charts."""
    lost = _bars([(p.player, p.points_lost) for p in r.players[:30]], label="points lost per player",
                 axis="card points lost double dummy, the whole season")
    rated = [f for f in r.forms if f.win_rate is not None]
    notes = []
    for f in rated:
        won = f.won
        lo, hi = wilson_interval(won, f.two_sided)
        notes.append(f"({won} of {f.two_sided}; 95%: {100 * lo:.0f}-{100 * hi:.0f}%)")
    wins = _bars([(f.name or f.form, round(100 * f.win_rate)) for f in rated], notes=notes,
                 label="declaring side's win rate per game form",
                 axis="declaring side won, % of finished hands (count and 95% interval beside each)")
    return render_page("report.html", notation="ascii", title=title, subtitle=f"{r.hands} hands annotated",
                       command="report", r=r, lost=lost, wins=wins, view=any(p.view_hands for p in r.players))
