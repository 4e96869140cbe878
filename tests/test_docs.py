"""The record format and the rules ship with the project (docs/), and everything points there."""

from __future__ import annotations

import json
import re

from click.testing import CliRunner

from helpers_cli import ROOT

from sheepsolve.cli import main
from sheepsolve.games import RULE_SWITCHES
from sheepsolve.record import INFO_KEYS, RECORD_KEYS

FORMAT = (ROOT / "docs" / "RECORD-FORMAT.md").read_text(encoding="utf-8")
RULES = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")


def test_every_record_key_is_documented() -> None:
    for key in RECORD_KEYS + INFO_KEYS:
        assert re.search(rf"(`|^|\[){key}\b", FORMAT, re.M), key


def test_every_rule_switch_is_documented() -> None:
    for name, switch in RULE_SWITCHES.items():
        row = next((line for line in RULES.splitlines() if line.startswith(f"| `{name}` |")), None)
        assert row is not None, name
        assert json.dumps(switch.default).strip('"') in row, (name, row)


def test_solve_json_fields_are_documented() -> None:
    res = CliRunner().invoke(main, ["solve", str(ROOT / "examples" / "sheepshead-jd-midtrick.toml"), "--json"])
    assert res.exit_code == 0, res.output
    section = FORMAT.split("## `sheepsolve solve FILE --json`: every field")[1].split("\n## ")[0]
    for key in json.loads(res.output):
        assert f"`{key}`" in section, key


def test_show_json_fields_are_documented() -> None:
    res = CliRunner().invoke(main, ["show", str(ROOT / "examples" / "sheepshead-jd-finished.toml"), "--json"])
    assert res.exit_code == 0, res.output
    section = FORMAT.split("## `sheepsolve show FILE --json`")[1].split("\n## ")[0]
    for key in json.loads(res.output):
        assert f"`{key}`" in section, key


def test_annotate_json_fields_are_documented() -> None:
    res = CliRunner().invoke(main, ["annotate", str(ROOT / "examples" / "annotate-blunder-sheepshead.toml"),
                                    "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    section = FORMAT.split("## `sheepsolve annotate FILE --json`")[1].split("\n## ")[0]
    keys = set(data) | set(data["decisions"][0]) | set(data["bury"]) | set(data["summary"])
    keys |= set(data["summary"]["players"]["Ann"])
    for key in keys:
        assert f"`{key}`" in section, key


def test_nothing_points_outside_the_project() -> None:
    texts = [(ROOT / "README.md").read_text(encoding="utf-8"),
             (ROOT / "examples" / "README.md").read_text(encoding="utf-8"),
             CliRunner().invoke(main, ["--help"]).output]
    texts += [CliRunner().invoke(main, [cmd, "--help"]).output for cmd in ("solve", "show", "annotate", "bury")]
    for t in texts:
        assert "shared/" not in t
    assert "docs/RECORD-FORMAT.md" in texts[0] and "docs/RECORD-FORMAT.md" in texts[2]
