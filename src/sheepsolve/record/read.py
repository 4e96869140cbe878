"""Reading a record: TOML or JSON text, a file, or plain data, into a checked :class:`~sheepsolve.record.Record`."""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Mapping
from typing import Any

from ..files import FileError, clip, read_input_text
from .check import check_data
from .errors import RecordError, kind_of, shortened, shown
from .model import MAX_RECORD_BYTES, Record

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
    if fmt == "toml":
        try:
            data: Any = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise RecordError(f"TOML syntax error: {e}") from None
        except (ValueError, RecursionError) as e:  # tomllib's int() on a huge number, deep nesting
            raise RecordError(f"TOML: cannot read the record: {shortened(str(e) or type(e).__name__, 200)}") from None
    elif fmt == "json":
        try:
            data = json.loads(text, object_pairs_hook=_json_object)
        except json.JSONDecodeError as e:
            raise RecordError(f"JSON syntax error: {e.msg} (at line {e.lineno}, column {e.colno})") from None
        except RecordError:
            raise
        except (ValueError, RecursionError) as e:
            raise RecordError(f"JSON: cannot read the record: {shortened(str(e) or type(e).__name__, 200)}") from None
    else:
        raise RecordError(f'fmt: must be "toml" or "json", not {shown(fmt)}')
    return data


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
