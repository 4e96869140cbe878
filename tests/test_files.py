"""Files in and out (sheepsolve.files) and the commands that use them: input that is not a regular file or is too
large, output written atomically, never through a symbolic link, never over an input, never to an empty name."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from helpers_cli import ROOT

import sheepsolve.files as files
from sheepsolve.files import (
    FileError,
    check_output_path,
    clip,
    control_character,
    read_input_file,
    read_input_text,
    write_output_atomically,
)
from sheepsolve.record import RecordError, load_record

ANNOTATE = ROOT / "examples" / "annotate-decided-solo.toml"
PUZZLE = ROOT / "examples" / "puzzles" / "05-easy-sauspiel.toml"
RECORD_COMMANDS = ["show", "solve", "annotate", "bury", "pick", "choose", "puzzle show", "puzzle check"]


# --------------------------------------------------------------------------------------------------------------
# clip and control characters


def test_clip_escapes_every_control_character_and_cuts() -> None:
    for ch in [chr(i) for i in range(32)] + ["\x7f", "\x85", "\u2028", "\u2029", "\u202e"]:
        out = clip(f"a{ch}b")
        assert out.isprintable() and "\n" not in out and ch not in out, repr(out)
        assert control_character(f"a{ch}b") == ch
    assert control_character("Müller ♣ 李") is None
    long = "é" * 10_000_000
    out = clip(long)
    assert len(out) < 120 and out.endswith("... (10000000 characters)")
    assert clip("x" * files.CLIP_LENGTH) == "x" * files.CLIP_LENGTH
    # escapes count towards the limit: a text of newlines is cut too
    assert len(clip("\n" * 1000, 20)) < 60


# --------------------------------------------------------------------------------------------------------------
# read_input_file


def test_read_regular_file(tmp_path: Path) -> None:
    p = tmp_path / "r.toml"
    p.write_bytes(b"game = 1\n")
    assert read_input_file(p) == b"game = 1\n"
    assert read_input_text(str(p)) == "game = 1\n"


def test_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    done: list[str] = []

    def reader() -> None:
        try:
            read_input_file(fifo)
        except FileError as e:
            done.append(str(e))

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    t.join(10)
    assert done and "pipe (FIFO)" in done[0], done


def test_devices_and_folders_are_refused(tmp_path: Path) -> None:
    with pytest.raises(FileError, match="character device"):
        read_input_file("/dev/zero")
    with pytest.raises(FileError, match="a folder"):
        read_input_file(tmp_path)
    with pytest.raises(FileError, match="cannot read the file"):
        read_input_file(tmp_path / "missing.toml")
    with pytest.raises(FileError, match="empty"):
        read_input_file("")


def test_size_cap(tmp_path: Path) -> None:
    p = tmp_path / "big.toml"
    p.write_bytes(b"#" * 101)
    with pytest.raises(FileError, match="too large"):
        read_input_file(p, max_bytes=100)
    assert len(read_input_file(p, max_bytes=101)) == 101


def test_not_utf8(tmp_path: Path) -> None:
    p = tmp_path / "latin.toml"
    p.write_bytes(b"caf\xe9")
    with pytest.raises(FileError, match="offset 3"):
        read_input_text(p)


def test_load_record_refuses_fifo_dev_zero_and_huge_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    with pytest.raises(RecordError, match="FIFO"):
        load_record(fifo)
    with pytest.raises(RecordError, match="character device"):
        load_record("/dev/zero")
    from sheepsolve.record import MAX_RECORD_BYTES

    big = tmp_path / "big.toml"
    big.write_bytes(b'game = "wenz"\ndeclarer = "1"\n' + b"#" * MAX_RECORD_BYTES + b"\n")
    t0 = time.perf_counter()
    with pytest.raises(RecordError, match="too large"):
        load_record(big)
    assert time.perf_counter() - t0 < 5  # refused without being parsed
    big.write_bytes(b'game = "wenz"\ndeclarer = "1"\n' + b"#" * (MAX_RECORD_BYTES - 100) + b"\n")
    assert load_record(big).game.name == "wenz"


@pytest.mark.parametrize("command", RECORD_COMMANDS)
def test_commands_refuse_fifo_and_dev_zero(tmp_path: Path, command: str, run, assert_input_error) -> None:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    extra = ["--seat", "1"] if command in ("pick", "choose") else []
    assert_input_error(run(*command.split(), fifo, *extra), "FIFO")
    assert_input_error(run(*command.split(), "/dev/zero", *extra), "character device")


# --------------------------------------------------------------------------------------------------------------
# write_output_atomically


def test_write_new_and_replace(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    write_output_atomically(out, "one")
    assert out.read_text() == "one"
    mask = os.umask(0)
    os.umask(mask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~mask
    out.chmod(0o640)
    write_output_atomically(out, "two")
    assert out.read_text() == "two"
    assert out.stat().st_mode & 0o777 == 0o640  # keeps its permissions
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html"]  # no temporary file left


def test_refusals(tmp_path: Path) -> None:
    inp = tmp_path / "in.toml"
    inp.write_text("x")
    target = tmp_path / "target.html"
    target.write_text("old")
    link = tmp_path / "link.html"
    link.symlink_to(target)
    hard = tmp_path / "hard.toml"
    os.link(inp, hard)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    cases = [
        ("", "empty"),
        ("  ", "empty"),
        (link, "symbolic link"),
        (inp, "one of the input files"),
        (hard, "one of the input files"),
        (tmp_path, "a folder"),
        (fifo, "FIFO"),
        (tmp_path / "no" / "such" / "x.html", "does not exist"),
        (str(tmp_path) + "/", "names a folder"),
    ]
    for path, words in cases:
        with pytest.raises(FileError, match=words):
            check_output_path(path, inputs=[inp], label="--html")
        with pytest.raises(FileError, match=words) as info:
            write_output_atomically(path, "new", inputs=[inp], label="--html")
        assert str(info.value).startswith("--html: ")
    assert target.read_text() == "old" and inp.read_text() == "x"
    # an input given through a symbolic link is still the same file
    with pytest.raises(FileError, match="one of the input files"):
        write_output_atomically(target, "new", inputs=[link])


def test_failed_write_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "r.html"
    out.write_text("old report")

    def broken_replace(a: str, b: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", broken_replace)
    with pytest.raises(FileError, match="No space left"):
        write_output_atomically(out, "new report")
    assert out.read_text() == "old report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html"]


# --------------------------------------------------------------------------------------------------------------
# The commands that write files


def test_annotate_html_failure_keeps_the_old_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run) -> None:
    import sheepsolve.render.annotate as annotate

    out = tmp_path / "report.html"
    out.write_text("old report")

    def broken(*a: object, **k: object) -> str:
        raise RuntimeError("the page could not be built")

    monkeypatch.setattr(annotate, "render_html", broken)
    r = run("annotate", "--no-bury", ANNOTATE, "--html", out)
    assert r.exit_code != 0
    assert out.read_text() == "old report"


def test_annotate_html_writes_and_replaces(tmp_path: Path, run) -> None:
    out = tmp_path / "report.html"
    out.write_text("\ufeff\n<!DOCTYPE html><p>old report")  # an earlier page (a byte-order mark, a blank line)
    r = run("annotate", "--no-bury", ANNOTATE, "--html", out)
    assert r.exit_code == 0, r.output
    assert out.read_text().lstrip().lower().startswith("<!doctype html") and "old report" not in out.read_text()
    empty = tmp_path / "empty.html"
    empty.write_text("")
    assert run("annotate", "--no-bury", ANNOTATE, "--html", empty).exit_code == 0
    assert empty.read_text().lstrip().lower().startswith("<!doctype html")


HTML_COMMANDS = {
    "annotate": (ANNOTATE, ["--no-bury"]),
    "puzzle show": (PUZZLE, []),
    "bury": (ROOT / "examples" / "bury-jd-full.toml", ["--jobs", "1"]),
    "pick": (ROOT / "examples" / "bury-jd-picker-only.toml", ["--worlds", "1", "--jobs", "1"]),
    "choose": (ROOT / "examples" / "bury-choose-sauspiel-hand.toml", ["--worlds", "1", "--jobs", "1"]),
}


@pytest.mark.parametrize("command", sorted(HTML_COMMANDS))
def test_html_output_refusals(tmp_path: Path, command: str, run, assert_input_error) -> None:
    src, extra = HTML_COMMANDS[command]
    rec = tmp_path / "rec.toml"
    rec.write_bytes(src.read_bytes())
    before = rec.read_bytes()
    other = tmp_path / "other.html"
    other.write_text("keep me")
    link = tmp_path / "link.html"
    link.symlink_to(other)
    args = command.split() + extra
    assert_input_error(run(*args, rec, "--html", rec), "--html", "input")
    assert rec.read_bytes() == before
    assert_input_error(run(*args, rec, "--html", ""), "--html", "empty")
    assert_input_error(run(*args, rec, "--html", link), "--html", "symbolic link")
    assert other.read_text() == "keep me"
    assert_input_error(run(*args, rec, "--html", tmp_path / "nowhere" / "x.html"), "does not exist")
    # a file that is not a page (a record named by mistake, this one not an input) is never replaced by one
    assert_input_error(run(*args, rec, "--html", other), "--html", "other.html", "not an HTML page")
    assert other.read_text() == "keep me"
    assert_input_error(run(*args, rec, "--html", "-"), "--html", "'-'", "file name")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.html", "other.html", "rec.toml"]


def test_import_out_dash_is_refused_not_a_file_named_dash(tmp_path: Path, run, assert_input_error,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    r = run("import", "openschafkopf", "--rules", "rufspiel eichel von 1", "--hand", "eo go ho so eu gu hu su",
            "--out", "-")
    assert_input_error(r, "--out", "'-'")
    assert list(tmp_path.iterdir()) == []


def test_puzzle_show_html_writes(tmp_path: Path, run) -> None:
    out = tmp_path / "p.html"
    r = run("puzzle", "show", PUZZLE, "--html", out)
    assert r.exit_code == 0, r.output
    assert "<html" in out.read_text().lower()


def test_puzzle_generate_refuses_an_empty_folder_name(run, assert_input_error) -> None:
    assert_input_error(run("puzzle", "generate", "--game", "wenz", "--cards-left", "3", "--count", "1", "--out", ""),
                       "--out", "empty")
