"""The error of a record that cannot be read, and how a value is named in its message."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = ["RecordError", "kind_of", "shown", "key_name", "shortened", "counted", "check_text"]


class RecordError(ValueError):
    """A record that cannot be read or breaks the format or the rules. The message starts with the key."""



def check_text(s: str, where: str) -> None:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        raise RecordError(f"{where}: the text is not valid Unicode (it holds a lone surrogate)") from None



def kind_of(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return f"a boolean ({'true' if v else 'false'})"
    if isinstance(v, int):
        return "an integer"
    if isinstance(v, float):
        return "a number"
    if isinstance(v, str):
        return f"the text {shown(v)}"
    if isinstance(v, (list, tuple)):
        return "a list"
    if isinstance(v, Mapping):
        return "a table"
    return f"a {type(v).__name__}"


def shown(v: Any) -> str:
    if isinstance(v, str):
        return shortened(json.dumps(v, ensure_ascii=not v.isprintable()), 60)
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return shortened(repr(v), 60)
    return kind_of(v)


def key_name(k: Any) -> str:
    if isinstance(k, str) and k.isprintable() and k.strip() == k and k and len(k) <= 60:
        return k
    return shown(k)


def shortened(s: str, n: int) -> str:
    return s if len(s) <= n else s[: n - 3] + "..."


def counted(k: int, word: str) -> str:
    return f"{k} {word}" if k == 1 else f"{k} {word}s"
