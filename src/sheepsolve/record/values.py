"""The free values a record holds, checked: player names, and informational values (any plain data)."""

from __future__ import annotations

import datetime
import math
import unicodedata
from collections.abc import Mapping
from typing import Any

from ..files import clip, control_character, invisible_character
from .errors import RecordError, check_text, key_name, kind_of, shown

__all__ = ["MAX_NAME_LENGTH", "player_names", "info_value", "scan_values"]

MAX_NAME_LENGTH = 100
"""The longest player name (in characters)."""
_INT64 = 2**63
MAX_DEPTH = 32
"""The deepest nesting of lists and tables a record may hold."""


def player_names(players: list[Any] | tuple[Any, ...]) -> tuple[str, ...]:
    """The players' names, each one line of printable text of at most :data:`MAX_NAME_LENGTH` characters, no
    two alike."""
    names: list[str] = []
    for i, name in enumerate(players):
        where = f"players: player {i + 1}"
        if not isinstance(name, str):
            raise RecordError(f"{where}: a name must be a string, not {kind_of(name)}")
        check_text(name, where)
        if not name.strip():
            raise RecordError(f"{where}: the name is empty")
        bad = control_character(name)
        if bad is not None and not _invisible_only(bad):
            raise RecordError(f"{where}: {shown(name)} holds a control character ({clip(bad)}): a name is one "
                              f"line of printable text")
        bad = invisible_character(name)
        if bad is not None:  # "Hi\u200bas" would print as "Hias"
            raise RecordError(f"{where}: {shown(name)} holds an invisible character ({_named(bad)}): a name is "
                              f"one line of printable text, its spaces plain ones")
        if len(name) > MAX_NAME_LENGTH:
            raise RecordError(f"{where}: the name has {len(name)} characters, at most {MAX_NAME_LENGTH}")
        if name in names:
            raise RecordError(f"players: {shown(name)} is listed twice")
        names.append(name)
    return tuple(names)


def _invisible_only(ch: str) -> bool:
    """A format character that hides rather than controls (a zero-width space, a soft hyphen); the
    bidirectional controls, which reorder what is shown, count as control characters."""
    return unicodedata.category(ch) == "Cf" and ch not in _BIDI


_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")


def _named(ch: str) -> str:
    """A character as U+XXXX and its Unicode name: ``U+200B ZERO WIDTH SPACE``."""
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X}" + (f" {name}" if name else "")


def scan_values(v: Any, where: str, depth: int) -> None:
    """Refuse, anywhere in the data, nesting deeper than any record needs and integers beyond 64 bits."""
    if depth > MAX_DEPTH:
        raise RecordError(f"{where}: nested too deeply")
    if isinstance(v, int) and not isinstance(v, bool) and not -_INT64 <= v < _INT64:
        raise RecordError(f"{where}: integer out of range (a record holds 64-bit integers)")
    if isinstance(v, (list, tuple)):
        for i, x in enumerate(v):
            scan_values(x, f"{where}[{i}]", depth + 1)
    elif isinstance(v, Mapping):
        for k, x in v.items():
            scan_values(x, key_name(k) if where == "record" else f"{where}.{key_name(k)}", depth + 1)


def info_value(v: Any, where: str, depth: int) -> Any:
    """An informational value as plain JSON-compatible data; dates become ISO text."""
    if isinstance(v, (bool, int)):
        return v
    if isinstance(v, float):
        if not math.isfinite(v):
            raise RecordError(f"{where}: {v} is not a finite number")
        return v
    if isinstance(v, str):
        check_text(v, where)
        return v
    if isinstance(v, (datetime.date, datetime.time)):
        return v.isoformat()
    if isinstance(v, (list, tuple)):
        return [info_value(x, f"{where}[{i}]", depth + 1) for i, x in enumerate(v)]
    if isinstance(v, Mapping):
        out = {}
        for k, x in v.items():
            if not isinstance(k, str):
                raise RecordError(f"{where}: keys must be strings, not {shown(k)}")
            check_text(k, where)
            out[k] = info_value(x, f"{where}.{key_name(k)}", depth + 1)
        return out
    raise RecordError(f"{where}: {kind_of(v)} is not a value a record can hold")



