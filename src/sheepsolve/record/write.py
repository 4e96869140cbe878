"""Writing a record: TOML (written here, no dependency) or JSON text that reads back to an equal record."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from .errors import RecordError, kind_of, shown
from .model import Record

__all__ = ["dump_record"]


def dump_record(rec: Record, fmt: str = "toml") -> str:
    """The record as TOML (written here, no dependency) or JSON text; reading it back gives an equal record.

    >>> from sheepsolve.record import record_from_dict
    >>> rec = record_from_dict({"game": "solo", "trump": "s", "deck": "short", "declarer": "4",
    ...                         "event": "Stammtisch", "play": [["QC", "9S"]]})
    >>> print(dump_record(rec), end="")
    game = "solo"
    trump = "S"
    deck = "short"
    players = ["1", "2", "3", "4"]
    declarer = "4"
    event = "Stammtisch"
    play = [
      "QC 9S",
    ]
    """
    d = rec.to_dict()
    if fmt == "json":
        return json.dumps(d, indent=2, ensure_ascii=False) + "\n"
    if fmt != "toml":
        raise RecordError(f'fmt: must be "toml" or "json", not {shown(fmt)}')
    lines: list[str] = []
    _toml_table(d, [], lines)
    return "\n".join(lines).lstrip("\n") + "\n"


_TOML_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _toml_str(s: str) -> str:
    out = ['"']
    for ch in s:
        if ch in _TOML_ESCAPES:
            out.append(_TOML_ESCAPES[ch])
        elif ch < " " or ch == "\x7f":
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _toml_key(k: str) -> str:
    return k if _BARE_KEY.fullmatch(k) else _toml_str(k)


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)  # finite: checked when read
    if isinstance(v, str):
        return _toml_str(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(x)}" for k, x in v.items()) + "}"
    raise RecordError(f"record: cannot write {kind_of(v)} as TOML")


def _toml_table(d: Mapping[str, Any], path: list[str], lines: list[str]) -> None:
    plain = [(k, v) for k, v in d.items() if not isinstance(v, Mapping)]
    tables = [(k, v) for k, v in d.items() if isinstance(v, Mapping)]
    if path and (plain or not tables):
        lines += ["", "[" + ".".join(_toml_key(k) for k in path) + "]"]
    for k, v in plain:
        if not path and k == "play" and isinstance(v, list):
            lines += ["play = ["] + [f"  {_toml_value(x)}," for x in v] + ["]"]
        else:
            lines.append(f"{_toml_key(k)} = {_toml_value(v)}")
    for k, v in tables:
        _toml_table(v, path + [k], lines)

