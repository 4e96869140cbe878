"""Everything sheepsolve shows a person: text for the terminal and self-contained HTML reports.

The analyses (:mod:`sheepsolve.annotate`, :mod:`sheepsolve.bury`, :mod:`sheepsolve.puzzle`, ...) return objects;
this package turns them into words and pages, in the reader's card notation (``--cards german|french|ascii``,
:func:`sheepsolve.cards.card_style`):

- :mod:`.show`: the hand record (``sheepsolve show``);
- :mod:`.text`: aligned tables, signed numbers, the sides' names, shared by every text output;
- :mod:`.html`: Jinja2 templates (autoescaped: whatever a record supplies is escaped), one stylesheet, one set of
  card faces, inline SVG charts (:mod:`.charts`); pages fetch nothing;
- :mod:`.annotate`, :mod:`.choices` (bury, pick, choose), :mod:`.puzzle`, :mod:`.solve`: one module per command.

``from sheepsolve.render import hand_view, render`` keeps working: the names of :mod:`.show` are here.
"""

from __future__ import annotations

from .show import HandFacts, TrickFacts, hand_view, render, view_data

__all__ = ["HandFacts", "TrickFacts", "hand_view", "render", "view_data"]
