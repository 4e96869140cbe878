"""HTML pages from Jinja2 templates (``render/templates``), autoescaped: player names, free text and every other
string a record supplies come out escaped. One stylesheet (``render/static/sheepsolve.css``) and one set of
card faces (:class:`Faces`, the ``card`` macro of ``macros.html``, the German suit symbols of ``suits.svg``) serve
every report; pages are self-contained (inline CSS, SVG and script) and fetch nothing.

>>> from sheepsolve.cards import Card
>>> f = Faces("german")(Card.parse("QC"))
>>> f["rank"], f["name"], f["icon"]
('O', 'Eichel-Ober', True)
>>> page = render_page("base.html", title="<b>Ann</b>", subtitle="", command="test", notation="german")
>>> "&lt;b&gt;Ann&lt;/b&gt;" in page and "<b>Ann</b>" not in page
True
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined

from ..cards import SUIT_SYMBOLS, Card, card_name, card_style, notation_of, rank_label
from ..games import Game

__all__ = ["Faces", "render_page", "render_fragment", "html_style", "stylesheet"]


@functools.lru_cache(maxsize=1)
def _env() -> Environment:
    env = Environment(loader=PackageLoader("sheepsolve.render", "templates"), autoescape=True,
                      trim_blocks=True, lstrip_blocks=True, undefined=StrictUndefined, keep_trailing_newline=True)
    env.filters["signed"] = lambda x, nd=0: (f"{x:+.{nd}f}" if nd else f"{x:+d}") if x else ("0" if not nd else
                                                                                           f"{0:.{nd}f}")
    env.filters["pct"] = lambda p: "–" if p is None else f"{100 * p:.0f}%"
    env.filters["num"] = lambda x, nd=1: "–" if x is None else f"{x:.{nd}f}"
    return env


@functools.lru_cache(maxsize=1)
def stylesheet() -> str:
    """The one stylesheet of every page."""
    return resources.files(__package__).joinpath("static/sheepsolve.css").read_text(encoding="utf-8")


def html_style(notation: str | None, game: Game | None = None) -> str:
    """The card style of a page: the reader's notation, else the game family's (never colored: pages color
    their own faces)."""
    return card_style(notation, game.family if game is not None else "sheepshead")


class Faces:
    """Card faces in one notation: ``faces(card)`` gives what the ``card`` macro draws (rank label, suit symbol or
    German suit icon, red or not, trump or not, the card's name, its canonical id)."""

    def __init__(self, style: str, is_trump: Any = None, family: str | None = None) -> None:
        self.style = style
        self.notation = notation_of(style)
        self.is_trump = is_trump
        self.family = family  # "skat": the cards named Kreuz-Bube, Pik-Dame, ...

    def __call__(self, card: Card) -> dict[str, Any]:
        german = self.notation == "german"
        return {
            "id": str(card),
            "rank": rank_label(card, self.style),
            "suit": card.suit,
            "glyph": SUIT_SYMBOLS[card.suit] if self.notation == "french" else card.suit,
            "icon": german,
            "red": card.suit in "HD" and not german,
            "trump": bool(self.is_trump(card)) if self.is_trump is not None else False,
            "name": card_name(card, self.style, self.family) if self.notation != "ascii" else str(card),
        }


def render_page(template: str, *, notation: str, is_trump: Any = None, family: str | None = None,
                **context: Any) -> str:
    """Render ``template`` (a page extending ``base.html``) with the stylesheet and the card faces of
    ``notation`` (a card style of :func:`~sheepsolve.cards.format_card`; ``family``: the game's, which names the
    cards: Skat's German names)."""
    faces = Faces(notation, is_trump, family)
    return _env().get_template(template).render(css=stylesheet(), faces=faces, style=notation, **context)


def render_fragment(template: str, *, notation: str = "ascii", is_trump: Any = None, **context: Any) -> str:
    """Render ``template``, a part of a page (no stylesheet, no ``base.html``), with the card faces of
    ``notation``: what a live page (``sheepsolve explore``) fetches and puts in place."""
    return _env().get_template(template).render(faces=Faces(notation, is_trump), style=notation, **context)
