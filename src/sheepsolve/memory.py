"""Running out of memory: one line saying how much was asked for and how to ask for less.

A command that runs out of memory (a ``ulimit -v``, a small machine) ends with one ``error:`` line instead of a
``MemoryError`` traceback: :class:`TableMemoryError` when the solver's tables cannot be had (their size is
known), :func:`memory_message` for any other ``MemoryError``, built from the options the command was given.

>>> memory_message(MemoryError(), {"worlds": 20000, "jobs": 2}, limit=512 * 2**20)
'out of memory (this process may use at most 512 MiB: ulimit -v) with --worlds 20000 and --jobs 2; ask for less: fewer --worlds, or --jobs 1'
>>> memory_message(TableMemoryError(256 * 2**20 + 2**22), {"table_mib": 256}, limit=None)
"out of memory: the solver's tables need 260 MiB (--table-mib 256); ask for less: a smaller --table-mib"
"""

from __future__ import annotations

import resource
from collections.abc import Mapping
from typing import Any

__all__ = ["TableMemoryError", "memory_message", "address_space_limit"]

_MIB = 1024 * 1024


class TableMemoryError(MemoryError):
    """The solver's tables could not be allocated; ``nbytes``: what they need."""

    def __init__(self, nbytes: int) -> None:
        super().__init__(f"the solver's tables need {-(-nbytes // _MIB)} MiB")
        self.nbytes = nbytes


def address_space_limit() -> int | None:
    """The most bytes of memory this process may map (``ulimit -v``), None when there is no such limit."""
    try:
        soft, _hard = resource.getrlimit(resource.RLIMIT_AS)
    except (OSError, ValueError):  # pragma: no cover - a platform without it
        return None
    return None if soft == resource.RLIM_INFINITY else soft


_UNSET = object()


def memory_message(error: MemoryError, options: Mapping[str, Any], limit: Any = _UNSET) -> str:
    """The one-line message for ``error`` raised by a command given ``options`` (its keyword options: ``worlds``,
    ``jobs``, ``table_mib`` are looked at): what was asked for, the process's limit (``limit``: bytes, None for
    none; by default :func:`address_space_limit`), and what to ask for less of."""
    if limit is _UNSET:
        limit = address_space_limit()
    cap = f" (this process may use at most {limit // _MIB} MiB: ulimit -v)" if limit else ""
    asked: list[str] = []
    less: list[str] = []
    table_mib = options.get("table_mib")
    if isinstance(error, TableMemoryError):
        head = f"out of memory{cap}: {error}"
        if table_mib is not None:
            head += f" (--table-mib {table_mib})"
        return f"{head}; ask for less: a smaller --table-mib"
    worlds = options.get("worlds", options.get("worlds_text"))
    if worlds is not None:
        asked.append(f"--worlds {worlds}")
        less.append("fewer --worlds")
    if isinstance(table_mib, int) and table_mib > 1:
        asked.append(f"--table-mib {table_mib}")
        less.append("a smaller --table-mib")
    jobs = options.get("jobs")
    if isinstance(jobs, int) and jobs > 1:
        asked.append(f"--jobs {jobs}")
        less.append("--jobs 1")
    if not asked:
        return f"out of memory{cap}; ask for less: a smaller input, or give the process more memory"
    return f"out of memory{cap} with {' and '.join(asked)}; ask for less: {', or '.join(less)}"
