"""Records whose players are named to attack an HTML page: every report must show these names as text."""

from __future__ import annotations

import json
from pathlib import Path

from sheepsolve.record import load_record

HOSTILE = ['<script>window.pwned=1</script>', '"><img src=x onerror="window.pwned=2">', "Hias & <b>Resi</b>",
           "O'Brien"]


def hostile_copy(path: Path, folder: Path) -> Path:
    """The record at ``path`` as JSON in ``folder``, its players renamed to :data:`HOSTILE` everywhere (hands,
    declarer, the puzzle's player to move, ...)."""
    rec = load_record(path)
    raw = json.loads(json.dumps(_record_dict(path)))
    text = json.dumps(raw)
    for old, new in zip(rec.players, HOSTILE):
        text = text.replace(json.dumps(old), json.dumps(new))
    out = folder / (path.stem + "-hostile.json")
    out.write_text(text, encoding="utf-8")
    return out


def _record_dict(path: Path) -> dict:
    import tomllib

    if path.suffix == ".json":
        return json.loads(path.read_text(encoding="utf-8"))
    return tomllib.loads(path.read_text(encoding="utf-8"))


def assert_escaped(page: str) -> None:
    """No hostile name reaches the page as markup: each shows only in its escaped form."""
    for name in HOSTILE:
        if any(ch in name for ch in "<>&\""):
            assert name not in page, name
    from markupsafe import escape

    assert any(str(escape(name)) in page for name in HOSTILE)  # and at least one shows, escaped
    assert "<img" not in page and "onerror=\"window" not in page
