"""The record format and the rules ship with the project (docs/), and everything points there."""

from __future__ import annotations

import json
import re
import shlex

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


def test_limits_are_documented_as_they_are() -> None:
    from sheepsolve.files import CLIP_LENGTH, MAX_INPUT_BYTES
    from sheepsolve.games import MAX_MULTIPLIER, MAX_TARIFF
    from sheepsolve.record import MAX_NAME_LENGTH, MAX_RECORD_BYTES
    from sheepsolve.scoring import MAX_DOUBLERS
    from sheepsolve.pool import MAX_JOBS
    from sheepsolve.player.options import MAX_ANNOTATE_WORLDS, MAX_SEED, MAX_WORLDS
    from sheepsolve.batch import MAX_CHUNK_SIZE

    assert MAX_SEED == 2**63 - 1

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    limits = readme.split("## Limits", 1)[1].split("\n## ", 1)[0]
    for words in [f"at most {MAX_INPUT_BYTES // 2**20} MiB", f"record file at most {MAX_RECORD_BYTES // 2**20} MiB", f"`doublers` 0 to {MAX_DOUBLERS}",
                  f"1 to {MAX_MULTIPLIER}", f"0 to {MAX_TARIFF}", f"at most {MAX_NAME_LENGTH} characters",
                  f"after {CLIP_LENGTH} characters", f"at most {MAX_JOBS}", f"`--worlds` 1 to {MAX_WORLDS:,}",
                  f"`--chunk-size` 1 to {MAX_CHUNK_SIZE:,}", f"`annotate --view player --worlds` 1 to {MAX_ANNOTATE_WORLDS:,}", "`--seed` 0 to 2**63 - 1"]:
        assert words in limits, words
    rules = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    assert f"1 to {MAX_MULTIPLIER}" in rules and f"0 to {MAX_TARIFF}" in rules and f"0 to {MAX_DOUBLERS}" in rules
    assert "Threads" in __import__("sheepsolve.solver").solver.Solver.__doc__


def test_readme_german_record_reads_without_an_option(tmp_path, run) -> None:
    """Issue 34: the README shows a German record read with no option; its trump "S" is Schellen, decided by the
    German cards (it was read as spades, and German cards needed --german)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = next(b.split("```", 1)[0] for b in readme.split("```toml\n")[1:] if 'trump = "S"' in b)
    path = tmp_path / "solo.toml"
    path.write_text(block, encoding="utf-8")
    r = run("show", path)
    assert r.exit_code == 0, r.output
    assert r.output.startswith("Schellen-Solo") and "EO GO HO SO SU S10 S9" in r.output, r.output


def test_readme_player_seat_output_is_what_the_command_prints(run) -> None:
    """Issue 36: README's "From the player's seat" shows the beliefs and --constrain with the output its command
    prints today, every line of it (it showed figures no command printed, abbreviated with '...')."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## From the player's seat")[1].split("\n## ")[0]
    commands, shown = section.split("The second prints")[0], section.split("The second prints")[1]
    command = commands.split("```sh\n")[-1].split("```")[0].strip().splitlines()[1]
    shown = shown.split("```text\n")[1].split("```")[0]
    args = shlex.split(command)
    assert args[0] == "sheepsolve" and "--constrain" in args
    res = run(*args[1:])
    assert res.exit_code == 0, res.output
    assert res.output == shown
    assert "beliefs (" in shown and "trumps >= 4" in shown


def test_rules_say_how_the_choices_worlds_are_weighted(run) -> None:
    """Issue 36: pick, choose and bury --view picker weigh their deals by the passes before the seat by default;
    docs/RULES.md said their worlds were the deals 'uniformly', and its sampling bullet that sampling is uniform."""
    rules = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    section = rules.split("## The player's view: how sheepsolve reads it")[1].split("\n## ")[0]
    choices = section.split("- `bury`, `pick` and `choose` ask before the first lead")[1].split("\n- ")[0]
    for command in ("pick", "choose", "bury"):
        res = run(command, "--help")
        assert "[default: auction]" in " ".join(res.output.split()), command
    assert "weighted by the calls made before the seat's own decision" in choices and "--inference none" in choices
    assert "record's `auction`" in choices and "every seat before\n  it passed" in choices  # without an auction
    sampling = next(b for b in section.split("\n- ") if "dealt with\n  exactly by counting" in b)
    assert sampling.startswith("With `--inference none` sampling is uniform")
