"""``sheepsolve games`` as text: every game with its deal, decks, trumps and plain ranks in the reader's
notation, then the rule switches and the presets (the data: :func:`sheepsolve.games.list_games`)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..cards import Card, card_style, format_card, rank_label
from ..games import REGISTRY

__all__ = ["render_games"]

TRUMP_SUIT_PREFIX = "(trump suit: "
"""How :func:`~sheepsolve.games.list_games` writes the ranks of a chosen trump suit among the trumps."""


def render_games(games: Sequence[dict[str, Any]], switches: Sequence[dict[str, Any]], presets: Sequence[str], *,
                 notation: str | None = None, color: bool = False) -> str:
    """The listing as text; each game's cards in its family's notation unless ``notation`` names one.

    >>> from sheepsolve.games import list_games
    >>> print(render_games(list_games()[:1], [], ["x"], notation="ascii").splitlines()[0][:25])
    sheepshead     Sheepshead
    """
    lines = []
    for g in games:
        deal = f"{'/'.join(map(str, g['players']))} players, {g['hand_size']} cards each"
        if g["blind_size"]:
            deal += f" + {g['blind_size']} blind"
        lines.append(f"{g['name']:<14} {g['title']} ({deal}; decks: {', '.join(g['decks'])})")
        if g["aliases"]:
            lines.append(f"{'':14} aliases: {', '.join(g['aliases'])}")
        style = card_style(notation, REGISTRY[g["name"]].family, color=color)

        def ranks(text: str) -> str:
            return " ".join(rank_label(Card.parse(r + "C"), style) for r in text)

        trumps = " ".join(f"{TRUMP_SUIT_PREFIX}{ranks(c[len(TRUMP_SUIT_PREFIX):-1])})"
                          if c.startswith(TRUMP_SUIT_PREFIX) else format_card(Card.parse(c), style)
                          for c in g["trumps"])
        plain = ranks(g["plain_ranks"])
        lines.append(f"{'':14} trumps: {trumps}; plain suits: {plain}")
        if g["partners"]:
            lines.append(f"{'':14} partner rules: {', '.join(g['partners'])}")
        if g["tout"]:
            lines.append(f"{'':14} tout = true allowed")
        lines.append(f"{'':14} {g['doc']}")
    lines.append("\nRule switches ([rules] table; default in brackets):")
    for s in switches:
        choices = f" one of {', '.join(map(str, s['choices']))}" if s["choices"] else ""
        lines.append(f"  {s['name']:<28} [{json.dumps(s['default'])}] ({s['family']}){choices}: {s['doc']}")
    lines.append(f"\nPresets (rules.preset): {', '.join(presets)}")
    return "\n".join(lines) + "\n"
