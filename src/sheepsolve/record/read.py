"""Reading a record: TOML or JSON text, a file, or plain data, into a checked :class:`~sheepsolve.record.Record`."""

from __future__ import annotations

import json
import os
import re
import sys
import tomllib
from collections.abc import Mapping
from typing import Any

from ..files import FileError, clip, read_input_text
from .check import check_data
from .errors import RecordError, kind_of, shortened, shown
from .model import MAX_RECORD_BYTES, Record
from .values import MAX_DEPTH

MAX_DIGITS = getattr(sys, "get_int_max_str_digits", lambda: 4300)() or 4300
"""The most digits of a number Python reads from text (beyond them it refuses, and so does a record)."""

__all__ = ["parse_record", "parse_data", "load_record", "read_record_file", "record_from_dict"]




def parse_record(text: str, fmt: str = "toml", *, german: bool = False) -> Record:
    """Read a record from TOML (``fmt="toml"``) or JSON (``fmt="json"``) text.

    ``german=True`` also accepts German card names (``EO``, ``Herz-Sau``) in every card field.

    >>> try:
    ...     parse_record('game = "wenz"\\nplayers = ["A", "B", "C", "D"]\\ndeclarer = "B"\\nhands.C = "JC JC"')
    ... except RecordError as e:
    ...     print(e)
    hands.C: duplicate card JC (twice in hands.C)
    >>> try:
    ...     parse_record('game = "leaster"\\nplayers = [Ann]')
    ... except RecordError as e:
    ...     print(e)
    TOML syntax error: Invalid value (at line 2, column 12)
    """
    return record_from_dict(parse_data(text, fmt), german=german)


def parse_data(text: str, fmt: str = "toml") -> Any:
    """The plain data of a record's TOML (``fmt="toml"``) or JSON text, which :func:`record_from_dict` reads;
    errors as :func:`parse_record` gives them.

    >>> parse_data('game = "wenz"')
    {'game': 'wenz'}
    """
    if not isinstance(text, str):
        raise RecordError(f"record: the text must be a string, not {kind_of(text)}")
    if fmt not in ("toml", "json"):
        raise RecordError(f'fmt: must be "toml" or "json", not {shown(fmt)}')
    if text.startswith(BOM):  # a byte-order mark, as Windows editors write one: not part of the record
        text = text[len(BOM):]
    if fmt == "toml":
        try:
            data: Any = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise RecordError(f"TOML syntax error: {e}") from None
        except (ValueError, RecursionError) as e:  # tomllib's int() on a huge number, deep nesting
            raise RecordError(f"TOML: {_unreadable(text, e)}") from None
    else:
        try:
            data = json.loads(text, object_pairs_hook=_json_object)
        except json.JSONDecodeError as e:
            raise RecordError(f"JSON syntax error: {e.msg} (at line {e.lineno}, column {e.colno})") from None
        except RecordError:
            raise
        except (ValueError, RecursionError) as e:  # int() on a huge number, deep nesting
            raise RecordError(f"JSON: {_unreadable(text, e)}") from None
    return data


BOM = "\ufeff"
"""The byte-order mark some editors put at the start of a UTF-8 file; a record's text may start with one."""

_LONG_DIGITS = re.compile(r"[0-9][0-9_]{%d,}" % (MAX_DIGITS - 1))
_KEY_BEFORE = re.compile(r'(?:"((?:[^"\\\n]|\\.){1,60})"|([A-Za-z0-9_.-]{1,60}))\s*[:=]\s*[-+]?$')


def _position(text: str, at: int) -> str:
    line = text.count("\n", 0, at) + 1
    return f"line {line}, column {at - (text.rfind(chr(10), 0, at) + 1) + 1}"


def _unreadable(text: str, error: BaseException) -> str:
    """What the parser could not take, and where: a number with too many digits, nesting too deep (found in the
    text, so the message names its line, column and key), else the parser's own words."""
    if isinstance(error, RecursionError):
        found = _too_deep(text)
        where = ""
        if found is not None:
            at, outer = found
            k = _KEY_BEFORE.search(text, max(0, outer - 80), outer)
            where = f"{_position(text, at)}{f' ({k.group(1) or k.group(2)})' if k is not None else ''}: "
        return f"{where}nested too deeply (a record nests lists and tables at most {MAX_DEPTH} deep)"
    m = _LONG_DIGITS.search(text)
    if m is not None:
        digits = sum(c.isdigit() for c in m.group())
        k = _KEY_BEFORE.search(text, max(0, m.start() - 80), m.start())
        key = f" ({k.group(1) or k.group(2)})" if k is not None else ""
        return (f"{_position(text, m.start())}{key}: a number of {digits:,} digits; a record holds 64-bit "
                f"integers")
    return f"cannot read the record: {shortened(str(error) or type(error).__name__, 200)}"


def _too_deep(text: str) -> tuple[int, int] | None:
    """The offset of the first bracket or brace that opens more than :data:`MAX_DEPTH` levels deep, outside
    quoted text (TOML's and JSON's strings), and that of the outermost one around it that follows a key (the
    first of a JSON record's own braces is not), or None."""
    depth = 0
    outer = [0, 0]  # where the brackets of depth 1 and 2 opened
    quote = ""
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if quote:
            if c == "\\" and quote == '"':
                i += 2
                continue
            if c == quote or c == "\n":
                quote = ""
        elif c in "\"'":
            quote = c
        elif c == "#":  # a TOML comment, to the end of the line
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        elif c in "[{":
            depth += 1
            if depth <= 2:
                outer[depth - 1] = i
            if depth > MAX_DEPTH + 1:
                first = outer[0]
                keyed = _KEY_BEFORE.search(text, max(0, first - 80), first) is not None
                return i, (first if keyed else outer[1])
        elif c in "]}":
            depth = max(0, depth - 1)
        i += 1
    return None


def _json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise RecordError(f"record: key {shown(k)} appears twice in one JSON object")
        out[k] = v
    return out


def load_record(path: str | os.PathLike[str], *, german: bool = False) -> Record:
    """Read a record file: JSON if the name ends in ``.json``, else TOML. Errors start with the path.

    Only a regular file of at most :data:`MAX_RECORD_BYTES` is read (see
    :func:`~sheepsolve.files.read_input_file`)."""
    label, fmt, text = read_record_file(path)
    try:
        return parse_record(text, fmt, german=german)
    except RecordError as e:
        raise RecordError(f"{label}: {e}") from None


def read_record_file(path: str | os.PathLike[str]) -> tuple[str, str, str]:
    """``(label, fmt, text)`` of a record file as :func:`load_record` reads it: the path as errors name it, the
    format by the file name, the text (a :class:`RecordError` when the file cannot be read)."""
    try:
        p = os.fspath(path)
    except TypeError:
        raise RecordError(f"record: a path must be a string, not {kind_of(path)}") from None
    try:
        text = read_input_text(p, max_bytes=MAX_RECORD_BYTES)
    except FileError as e:
        raise RecordError(str(e)) from None
    return clip(p, 200), ("json" if str(p).lower().endswith(".json") else "toml"), text


def record_from_dict(d: Mapping[str, Any], *, german: bool = False) -> Record:
    """Validate plain data (parsed TOML or JSON, or built in Python) and build the :class:`Record`.

    >>> try:
    ...     record_from_dict({"game": "sheepshead", "picker": "1", "piker": "2"})
    ... except RecordError as e:
    ...     print(e)
    piker: unknown key (did you mean "picker"?)
    """
    try:
        return check_data(d, german)
    except RecursionError:
        raise RecordError("record: nested too deeply") from None
