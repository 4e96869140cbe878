"""Helpers every text output shares: aligned tables (color codes do not count toward a column's width), signed
numbers, card lists and the names of the sides.

>>> print("\\n".join(table([["card", "value"], ["EO", "61"], ["GU", "7"]], "<>")))
  card  value
  EO       61
  GU        7
>>> signed(5), signed(0), signed(-3)
('+5', '0', '-3')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ..cards import Card, format_card
from ..engine import Setup
from ..games import Game

__all__ = ["NONE", "number", "percent", "width", "pad", "table", "signed", "cards", "side_of", "names_of"]

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


NONE = "-"
"""What text shows for a figure that has none (a standard error of one world, a rate of no hands)."""


def number(x: float | None, digits: int = 1, none: str = NONE) -> str:
    """``x`` with ``digits`` decimals, or ``none`` when there is no figure: every text table's one number format.

    >>> number(2.345), number(3, 2), number(None), number(None, none="")
    ('2.3', '3.00', '-', '')
    """
    return none if x is None else f"{x:.{digits}f}"


def percent(p: float | None, none: str = NONE) -> str:
    """A share as a whole percentage, or ``none`` when there is no figure.

    >>> percent(0.615), percent(None)
    ('62%', '-')
    """
    return none if p is None else f"{100 * p:.0f}%"


def width(s: str) -> int:
    """The width of ``s`` on a terminal, color codes left out."""
    return len(_ANSI.sub("", s))


def pad(s: str, w: int, align: str = "<") -> str:
    """``s`` padded to ``w`` columns, on the right (``<``) or on the left (``>``)."""
    gap = " " * max(0, w - width(s))
    return gap + s if align == ">" else s + gap


def table(rows: Sequence[Sequence[str]], align: str, indent: int = 2, gap: int = 2) -> list[str]:
    """Aligned columns; ``align`` holds one ``<`` or ``>`` per column (missing ones align left)."""
    if not rows:
        return []
    ncol = max(len(r) for r in rows)
    widths = [max((width(r[i]) for r in rows if i < len(r)), default=0) for i in range(ncol)]
    out = []
    for r in rows:
        cells = [pad(r[i] if i < len(r) else "", widths[i], align[i] if i < len(align) else "<")
                 for i in range(ncol)]
        out.append((" " * indent + (" " * gap).join(cells)).rstrip())
    return out


def signed(x: int | float) -> str:
    """``+5``, ``-3``, ``0``."""
    return f"{x:+d}" if x and isinstance(x, int) else (f"{x:+g}" if x else "0")


def cards(cs: Iterable[Card], style: str, sep: str = " ") -> str:
    """Cards in one notation (a :func:`~sheepsolve.cards.format_card` style)."""
    return sep.join(format_card(c, style) for c in cs)


def names_of(players: Sequence[str], seats: Iterable[int]) -> str:
    """``Ann, Bob`` for seats 0 and 1."""
    return ", ".join(players[s] for s in sorted(seats))


def side_of(setup: Setup) -> str:
    """The declaring side by its role: ``the picker``, ``the picker's side``, ``the declarer's side``."""
    g = setup.game
    who = "picker" if g.kind == "picker" and g.family != "skat" else "declarer"  # Skat says declarer
    return f"the {who}" if setup.partner is None else f"the {who}'s side"


def seat_roles(setup: Setup) -> list[str]:
    """Each seat's role in the contract: ``picker`` or ``declarer``, ``partner``, ``defender``; ``""`` for every
    seat of a game without sides (ramsch, leaster)."""
    g = setup.game
    out = []
    for s in range(g.seats):
        if s == setup.declarer:
            out.append("picker" if g.kind == "picker" and g.family != "skat" else "declarer")
        elif g.two_sided and s in setup.team:
            out.append("partner")
        elif g.two_sided:
            out.append("defender")
        else:
            out.append("")
    return out


def line_tricks(state, cards: Sequence[Card]) -> tuple[list[dict], object]:
    """``cards`` played from ``state`` cut into tricks: ``[{"plays": [(seat, card), ...], "winner": seat or None
    (the trick left unfinished), "points": int, "number": 1-based trick number}]``, and the position at the
    end. The first trick starts with the cards already on the table."""
    out: list[dict] = []
    s = state
    cur: list[tuple[int, Card]] = [((state.leader + k) % state.game.seats, c) for k, c in enumerate(state.trick)]
    number = len(state.tricks) + 1
    for c in cards:
        seat = s.to_move
        before = len(s.tricks)
        s = s.play(c)
        cur.append((seat, c))
        if len(s.tricks) > before:
            t = s.tricks[-1]
            out.append({"plays": cur, "winner": t.winner, "points": t.points, "number": number})
            cur = []
            number += 1
    if cur:
        out.append({"plays": cur, "winner": None, "points": sum(c.points for _, c in cur), "number": number})
    return out, s


def trick_text(t: dict, players: Sequence[str], style: str) -> str:
    """``Ann Q♣, Bob 7♥, Cal A♠ -> Ann (14)``."""
    seq = ", ".join(f"{players[s]} {format_card(c, style)}" for s, c in t["plays"])
    return seq + (f" -> {players[t['winner']]} ({t['points']})" if t["winner"] is not None else "")
