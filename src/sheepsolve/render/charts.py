"""Charts as plain geometry (:class:`Scene`), drawn by the one ``chart`` macro of ``macros.html`` as inline SVG.

- :func:`value_line`: the declaring side's value after every card of a hand, 61 and 91 marked (Skat's schneider:
  90), errors as dots;
- :func:`histogram`: how often each range of card points came up over sampled worlds, 61 and 91 (or 90) marked.

>>> s = histogram([30, 65, 70, 95], label="points")
>>> [float(r["h"]) > 0 for r in s.rects].count(True)
4
>>> [t["text"] for t in s.texts if t["cls"] == "axis"]
['card points of the declaring side', 'worlds']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Scene", "value_line", "histogram"]


@dataclass
class Scene:
    width: int
    height: int
    label: str
    lines: list[dict[str, Any]] = field(default_factory=list)
    texts: list[dict[str, Any]] = field(default_factory=list)
    rects: list[dict[str, Any]] = field(default_factory=list)
    dots: list[dict[str, Any]] = field(default_factory=list)
    polyline: str = ""

    def line(self, x1: float, y1: float, x2: float, y2: float, cls: str) -> None:
        self.lines.append({"x1": f"{x1:.1f}", "y1": f"{y1:.1f}", "x2": f"{x2:.1f}", "y2": f"{y2:.1f}", "cls": cls})

    def text(self, x: float, y: float, text: str, cls: str = "", anchor: str = "middle", rotate: bool = False) -> None:
        self.texts.append({"x": f"{x:.1f}", "y": f"{y:.1f}", "text": text, "cls": cls, "anchor": anchor,
                           "rotate": rotate})


# The thresholds of a two-sided game: schneider-free (31), the game (61), schneider (91; Skat's: 90).
TICKS = (0, 31, 61, 91, 120)


def _marks(schneider: int) -> tuple[int, ...]:
    """The ticks with the game's schneider (:func:`sheepsolve.scoring.schneider_points`)."""
    return tuple(schneider if v == 91 else v for v in TICKS)


def _ticks(scene: Scene, y, left: float, right: float, top: int, schneider: int) -> None:
    for v in _marks(schneider)[:-1] + (top,):
        if v in (61, schneider):
            continue
        scene.line(left, y(v), right, y(v), "grid")
        scene.text(left - 6, y(v) + 4, str(v), anchor="end")
    for v, cls in ((61, "rule61"), (schneider, "rule91")):
        if v <= top:
            scene.line(left, y(v), right, y(v), cls)
            scene.text(left - 6, y(v) + 4, str(v), cls="mark61" if v == 61 else "", anchor="end")
            scene.text(right + 4, y(v) + 4, "game" if v == 61 else "schneider", cls="mark61" if v == 61 else "",
                       anchor="start")


def value_line(points: Sequence[tuple[float, int, str, str]], *, cards: int, seats: int,
               label: str = "the declaring side's value after each card", schneider: int = 91) -> Scene:
    """``points``: (position in cards, value, mark ``""``/``?``/``??``, a title for the dot) with the value
    before the first card at position 0; ``cards`` played in all, ``seats`` cards a trick; ``schneider``: the
    schneider line (90 in Skat)."""
    w, h, left, right, top_pad, bottom = 1040, 230, 62, 970, 14, 44
    n = max(-(-cards // seats) * seats, seats)
    top = 120 if max((p[1] for p in points), default=0) <= 120 else max(p[1] for p in points)
    s = Scene(w, h, label)

    def x(i: float) -> float:
        return left + (right - left) * i / n

    def y(v: float) -> float:
        return h - bottom - (h - bottom - top_pad) * v / top

    _ticks(s, y, left, right, top, schneider)
    for t in range(0, n + 1, seats):
        s.line(x(t), top_pad, x(t), h - bottom, "grid")
        if t < n:
            s.text(x(t + seats / 2), h - bottom + 16, str(t // seats + 1))
    s.text((left + right) / 2, h - 6, "trick", cls="axis")
    s.text(16, (h - bottom + top_pad) / 2, "card points of the declaring side", cls="axis", rotate=True)
    s.polyline = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v, _, _ in points)
    for i, v, m, title in points:
        if m:
            s.dots.append({"x": f"{x(i):.1f}", "y": f"{y(v):.1f}", "cls": "e2" if m == "??" else "e1",
                           "title": title})
    return s


def histogram(values: Sequence[int], *, label: str, axis: str = "card points of the declaring side",
              width: int = 5, top: int = 120, schneider: int = 91) -> Scene:
    """Worlds per range of ``width`` points: 0, then 1-5, 6-10, ..., so that 31, 61 and ``schneider`` (91; 90 in
    Skat, where the range below it is one point shorter) each start a range; ranges of 61 or more are drawn as
    won, those of 30 or less as schneidered.

    >>> [r["title"] for r in histogram([89, 90], label="x", schneider=90).rects[17:20]]
    ['81-85: 0 worlds', '86-89: 1 world', '90-94: 1 world']
    """
    w, h, left, right, top_pad, bottom = 520, 210, 48, 480, 12, 42
    s = Scene(w, h, label)
    hi = max(top, max(values, default=0))
    # the ranges start at 1, 6, 11, ... and, from schneider on, at schneider, schneider + width, ...
    shift = (schneider - 1) % width
    nbins = (hi - 1) // width + 2 + (1 if shift and hi >= schneider else 0)
    cut = (schneider - 1) // width + 1  # the first range from schneider on (when shifted)

    def bin_of(v: int) -> int:
        if v <= 0:
            return 0
        if shift and v >= schneider:
            return cut + 1 + (v - schneider) // width
        return (v - 1) // width + 1

    def low(b: int) -> int:
        if b == 0:
            return 0
        if shift and b > cut:
            return schneider + (b - cut - 1) * width
        return (b - 1) * width + 1

    def high(b: int) -> int:
        up = 0 if b == 0 else low(b) + width - 1
        if not shift:
            return up
        return min(up, schneider - 1) if low(b) < schneider else min(up, hi)

    bins = [0] * nbins
    for v in values:
        bins[bin_of(v)] += 1
    most = max(bins + [1])

    def x(v: float) -> float:
        return left + (right - left) * (v + 1) / (hi + 2)

    def y(k: float) -> float:
        return h - bottom - (h - bottom - top_pad) * k / most

    step = max(1, -(-most // 4))
    for k in range(0, most + 1, step):
        s.line(left, y(k), right, y(k), "grid")
        s.text(left - 6, y(k) + 4, str(k), anchor="end")
    for b, k in enumerate(bins):
        lo, up = low(b), high(b)
        cls = "col win" if lo >= 61 else ("col lose" if up <= 30 else "col")
        x0, x1 = x(lo - 1 if b else -1), x(up)
        s.rects.append({"x": f"{x0 + 1:.1f}", "y": f"{y(k):.1f}", "w": f"{max(1.0, x1 - x0 - 2):.1f}",
                        "h": f"{y(0) - y(k):.1f}", "cls": cls,
                        "title": (f"{lo}-{up}" if up != lo else str(lo)) + f": {k} world{'s' if k != 1 else ''}"})
    for v in _marks(schneider)[:-1] + (hi,):
        s.text(x(v - 0.5), h - bottom + 15, str(v))
    for v, cls in ((61, "rule61"), (schneider, "rule91")):
        if v <= hi:
            s.line(x(v - 1), top_pad, x(v - 1), h - bottom, cls)
            s.text(x(v - 1) + 3, top_pad + 8, "61 game" if v == 61 else f"{schneider} schneider",
                   cls="mark61" if v == 61 else "", anchor="start")
    s.text((left + right) / 2, h - 6, axis, cls="axis")
    s.text(14, (h - bottom + top_pad) / 2, "worlds", cls="axis", rotate=True)
    return s
