"""The limits and options of the player's view: ``--worlds``, ``--seed``, the table size of its solvers."""

from __future__ import annotations

import re

from ..files import clip
from ..worlds import ALL_WORLDS_CAP, WorldsError

__all__ = ["VIEW_TABLE_MIB", "MAX_WORLDS", "MAX_ANNOTATE_WORLDS", "MAX_SEED", "parse_worlds"]


VIEW_TABLE_MIB = 1
"""Table size of the solver that works through the worlds (each world starts from a cleared table)."""


MAX_WORLDS = ALL_WORLDS_CAP
"""The most worlds ``--worlds N`` samples (suggest, annotate --view player, bury, pick, choose): as many as
``--worlds all`` enumerates. Beyond it the standard error hardly moves (points lie in 0..120, so it is at most
60/sqrt(N)) while the memory keeps growing (suggest holds every sampled world) and the time too (docs/TUNING.md,
"The player's view: memory")."""

MAX_ANNOTATE_WORLDS = 2_000
"""The most worlds per decision of ``annotate --view player``: every decision of the hand is solved in that
many worlds and the worlds of all of them are held at once (docs/TUNING.md, "The player's view: memory")."""

MAX_SEED = 2**63 - 1
"""The largest ``--seed``: seeds are 0 to 2**63 - 1, what a signed 64-bit integer holds (they go into the JSON
output and into puzzle file names)."""


def parse_worlds(text: str | int | None, default: int = 100, cap: int = MAX_WORLDS) -> int | str:
    """``--worlds``: a number of worlds, 1 to ``cap`` (:data:`MAX_WORLDS`), or ``"all"``. Raises
    :class:`WorldsError` otherwise (a number written in other than the digits 0-9 too).

    >>> parse_worlds("200"), parse_worlds("ALL"), parse_worlds(None)
    (200, 'all', 100)
    >>> parse_worlds("1000000")
    Traceback (most recent call last):
    ...
    sheepsolve.worlds.WorldsError: --worlds: at most 20000 worlds (or "all"), not 1000000
    """
    if text is None:
        return default
    if isinstance(text, int) and not isinstance(text, bool):
        n = text
    else:
        t = str(text).strip().lower()
        if t == "all":
            return "all"
        if not re.fullmatch(r"[+-]?[0-9]{1,30}", t):
            raise WorldsError(f"--worlds: must be a number of worlds (1 or more) or \"all\", not {clip(repr(text))}")
        n = int(t)
    if n < 1:
        raise WorldsError(f"--worlds: must be 1 or more (or \"all\"), not {n}")
    if n > cap:
        raise WorldsError(f"--worlds: at most {cap} worlds (or \"all\"), not {n}")
    return n
