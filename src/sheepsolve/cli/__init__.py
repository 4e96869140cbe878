"""The command line: a thin wrapper over the library.

Bad input (a record that does not parse or breaks the rules, an unknown game, a missing file) prints one line
``error: ...`` naming what is wrong and exits with status 2, never a traceback.

The commands by family: base (the group and what every family shares), hands, puzzles, choices, player, batch."""

from .base import InputError, Progress, main
from . import batch, choices, hands, player, puzzles  # noqa: F401  (each registers its commands on main)

__all__ = ["main"]
