"""Hardening (issue 26): whatever the input or the caller does, no crash, no hang, no unbounded resource use, one
``error:`` line. Unbounded stakes and rule values, worker processes beyond the cores, numbers the core cannot
hold, puzzle records that are not puzzles, echoed values without bounds or with control characters, click's own
usage messages, and a solver shared by threads."""

from __future__ import annotations

import os
import random
import threading
import time
from pathlib import Path

import pytest

from helpers_cli import EXAMPLES, ROOT

from sheepsolve.record import RecordError, load_record, record_from_dict
from sheepsolve.scoring import Stakes

JD_FULL = EXAMPLES / "bury-jd-full.toml"
PUZZLE = EXAMPLES / "puzzles" / "05-easy-sauspiel.toml"


def with_lines(tmp_path: Path, src: Path, *lines: str, name: str = "rec.toml") -> Path:
    """``src`` with top-level ``lines`` put first (before any table)."""
    p = tmp_path / name
    p.write_text("\n".join(lines) + "\n" + src.read_text(encoding="utf-8"), encoding="utf-8")
    return p


# --------------------------------------------------------------------------------------------------------------
# 2. Stakes and rule values without bounds


@pytest.mark.parametrize("doublers", [17, 20000, 10**12])
@pytest.mark.parametrize("command", [["show"], ["annotate", "--no-bury"], ["bury", "--jobs", "1"]])
def test_doublers_are_capped(tmp_path: Path, command: list[str], doublers: int, run, assert_input_error) -> None:
    rec = with_lines(tmp_path, JD_FULL, f"doublers = {doublers}")
    assert_input_error(run(*command, rec), "doublers", "at most 16")


def test_sixteen_doublers_still_work(tmp_path: Path, run) -> None:
    import json

    rec = with_lines(tmp_path, EXAMPLES / "sheepshead-jd-finished.toml", "doublers = 16")
    r = run("show", "--json", rec)
    plain = run("show", "--json", EXAMPLES / "sheepshead-jd-finished.toml")
    assert r.exit_code == 0 and plain.exit_code == 0, r.output
    pay, pay0 = json.loads(r.output)["payments"], json.loads(plain.output)["payments"]
    assert pay == {k: v * 65536 for k, v in pay0.items()} and any(pay0.values())


def test_stakes_refuse_more_doublers() -> None:
    assert Stakes(doublers=16).factor == 2**16
    with pytest.raises(ValueError, match="at most 16"):
        Stakes(doublers=17)
    with pytest.raises(ValueError, match="at most 16"):
        Stakes(doublers=10**12)


@pytest.mark.parametrize("switch, value", [("tout_multiplier", 10**12), ("sie_multiplier", 65),
                                           ("tariff_solo", 10**9), ("ramsch_tariff", 100_001),
                                           ("run_min", 9), ("laufende_from", 15)])
def test_rule_values_are_capped(switch: str, value: int) -> None:
    with pytest.raises(RecordError, match=f"rules.{switch}: must be at most"):
        record_from_dict({"game": "sauspiel", "declarer": "1", "called": "AS", "rules": {switch: value}})


def test_alone_multiplier_is_capped(tmp_path: Path, run, assert_input_error) -> None:
    rec = tmp_path / "r.toml"
    rec.write_text('game = "sheepshead"\npicker = "1"\n[rules]\nalone_multiplier = 1000000000000\n')
    assert_input_error(run("show", rec), "rules.alone_multiplier", "at most 64")


# --------------------------------------------------------------------------------------------------------------
# 3. --jobs without bounds


def test_jobs_never_start_more_processes_than_cores(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, run) -> None:
    import sheepsolve.bury as B
    import sheepsolve.worlds as W

    started: list[int] = []

    class FakePool:
        def __init__(self, n: int, **kwargs: object) -> None:
            started.append(n)

        def __enter__(self) -> "FakePool":
            return self

        def __exit__(self, *exc: object) -> None:
            pass

        def imap(self, fn, items, chunksize=1):  # noqa: ANN001
            return (fn(i) for i in items)

        def apply_async(self, fn, args):  # noqa: ANN001
            class Done:
                def get(self, timeout=None):  # noqa: ANN001
                    return fn(*args)
            return Done()

        def close(self) -> None:
            pass

        def terminate(self) -> None:
            pass

        def join(self) -> None:
            pass

    class FakeContext:
        def Pool(self, n: int, **kwargs: object) -> FakePool:  # noqa: N802
            return FakePool(n, **kwargs)

    # bury runs its units through worlds.map_units, batch its chunks through batch._local: both start their
    # processes with signals.process_pool
    import sheepsolve.signals as signals

    monkeypatch.setattr(signals.multiprocessing, "get_context", lambda kind: FakeContext())
    # the fake stands for every start method: none is asked for the fork server's preload (a test run that left a
    # thread behind, e.g. Dask's, makes start_method choose forkserver)
    monkeypatch.setattr(signals, "START_METHOD", "spawn")
    monkeypatch.setattr(B, "PARALLEL_AFTER_SECONDS", 0.0)
    cores = len(os.sched_getaffinity(0))
    r = run("bury", JD_FULL, "--view", "picker", "--worlds", "40", "--jobs", "1000", "--json")
    assert r.exit_code == 0, r.output
    assert all(n <= cores for n in started), (started, cores)
    assert started or cores < 2  # the pool was used
    assert B.worker_count(1000, 10**6) == B.default_jobs() <= min(cores, B.MAX_JOBS)
    import sheepsolve.batch as batch

    started.clear()
    r = run("batch", "show", EXAMPLES, "--out", tmp_path / "out.jsonl", "--jobs", "1000", "--chunk-size", "1")
    assert r.exit_code in (0, 1), r.output
    assert started and all(n <= cores for n in started), (started, cores)
    assert B.worker_count(None, 1) == 1 and B.worker_count(1, 100) == 1


# --------------------------------------------------------------------------------------------------------------
# 4. Numbers that would overflow the core


@pytest.mark.parametrize("target", ["99999999999999999999999", str(2**31), str(2**63), "-1", "122",
                                    "-99999999999999999999999"])
def test_solve_target_out_of_range(target: str, run, assert_input_error) -> None:
    assert_input_error(run("solve", EXAMPLES / "sauspiel-midtrick.toml", "--target", target), "--target", "between 0")


def test_solve_trick_target_range(run, assert_input_error) -> None:
    assert_input_error(run("solve", EXAMPLES / "sauspiel-midtrick.toml", "--tricks", "--target", "9"), "--target",
                       "between 0 and 8")
    r = run("solve", EXAMPLES / "sauspiel-midtrick.toml", "--tricks", "--target", "8", "--json")
    assert r.exit_code == 0, r.output


def test_solver_takes_any_integer_without_overflow() -> None:
    from sheepsolve.solver import Solver, SolverError

    state = load_record(EXAMPLES / "sauspiel-midtrick.toml").state()
    s = Solver()
    v = s.value(state)
    assert s.reach(state, v) and not s.reach(state, v + 1)
    for big in (2**31, 2**63, 10**30):
        assert s.reach(state, big) is False
        assert s.reach(state, -big) is True
        assert s.value(state, guess=big) == v
        assert s.value(state, guess=-big) == v
        assert max(s.card_values(state, guess=big).values()) in (v, min(s.card_values(state).values()), v)
    with pytest.raises(SolverError, match="target"):
        s.reach(state, "61")  # type: ignore[arg-type]
    with pytest.raises(SolverError, match="guess"):
        s.value(state, guess=61.5)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------------------------
# 5. Puzzle records that are not puzzles


PUZZLE_TABLE = '\n[puzzle]\ngoal = {goal}\nto_move = "Sepp"\nsolution = "AC"\ndifficulty = "easy"\n'


@pytest.mark.parametrize("example", ["ramsch-finished", "leaster-finished", "leaster-4-midtrick",
                                     "sauspiel-finished", "sheepshead-jd-finished"])
@pytest.mark.parametrize("command", ["show", "check"])
def test_puzzle_commands_refuse_what_is_not_a_puzzle(tmp_path: Path, example: str, command: str, run, assert_input_error) -> None:
    p = tmp_path / "p.toml"
    p.write_text((EXAMPLES / f"{example}.toml").read_text() + PUZZLE_TABLE.format(goal=61))
    r = run("puzzle", command, p)
    assert_input_error(r)
    assert ("declaring side" in r.output) or ("hand is over" in r.output), r.output
    assert "Trick 9" not in r.output


@pytest.mark.parametrize("goal", ['"²"', '"٦١"', '"6²"', '"0061000"', '"1e3"'])
@pytest.mark.parametrize("command", ["show", "check"])
def test_puzzle_goals_that_only_look_like_numbers(tmp_path: Path, goal: str, command: str, run, assert_input_error) -> None:
    text = PUZZLE.read_text()
    lines = [f"goal = {goal}" if line.startswith("goal = ") else line for line in text.splitlines()]
    p = tmp_path / "p.toml"
    p.write_text("\n".join(lines) + "\n")
    assert_input_error(run("puzzle", command, p), "goal")


@pytest.mark.parametrize("goal", ["²", "٦١", "99999999999999999999999"])
def test_puzzle_generate_goal_that_only_looks_like_a_number(tmp_path: Path, goal: str, run, assert_input_error) -> None:
    assert_input_error(run("puzzle", "generate", "--game", "wenz", "--cards-left", "3", "--count", "1", "--goal",
                           goal, "--out", tmp_path), "goal")


# --------------------------------------------------------------------------------------------------------------
# 7, 8. Echoed values: bounded, one line


def test_huge_values_are_clipped_in_errors(tmp_path: Path, run, assert_input_error) -> None:
    for key in ("game", "trump", "deck", "partner", "picker", "dealer"):
        with pytest.raises(RecordError) as info:
            record_from_dict({"game": "sheepshead", "picker": "1", key: "x" * 10_000_000})
        assert len(str(info.value)) < 1000, key
    huge = "x" * 900_000  # a file under the size limit
    for key, value in [("game", huge), ("trump", huge), ("deck", huge), ("partner", huge),
                       ("picker", huge), ("dealer", huge)]:
        p = tmp_path / "r.json"
        d = {"game": "sheepshead", "picker": "1"}
        d[key] = value
        import json

        p.write_text(json.dumps(d))
        r = run("show", p)
        assert_input_error(r, key)
        assert len(r.output) < 2000, (key, len(r.output))
    p = tmp_path / "cards.toml"
    p.write_text(f'game = "sheepshead"\npicker = "1"\nblind = "{huge}"\n')
    r = run("show", p)
    assert_input_error(r, "blind")
    assert len(r.output) < 2000


@pytest.mark.parametrize("name", ["Ann\nerror: forged", "Ann\rBob", "A\x1b[31mnn", "Ann\u2028Bob", "Ann\x00",
                                  "Ann\u202eboB"])
def test_control_characters_in_names_are_refused(tmp_path: Path, name: str, run, assert_input_error) -> None:
    import json

    p = tmp_path / "r.json"
    p.write_text(json.dumps({"game": "sheepshead-3", "players": [name, "Bob", "Cal"], "picker": "Bob"}))
    assert_input_error(run("show", p), "players: player 1", "control character")


def test_long_names_are_refused() -> None:
    with pytest.raises(RecordError, match="at most 100"):
        record_from_dict({"game": "sheepshead-3", "players": ["A" * 101, "B", "C"], "picker": "B"})
    assert record_from_dict({"game": "sheepshead-3", "players": ["A" * 100, "B", "C"], "picker": "B"})


def test_show_keeps_informational_text_on_one_line(tmp_path: Path, run) -> None:
    rec = with_lines(tmp_path, EXAMPLES / "sheepshead-jd-finished.toml", 'event = "Club night\\nerror: forged"')
    r = run("show", rec)
    assert r.exit_code == 0, r.output
    assert "\nerror: forged" not in r.output and "Club night\\nerror: forged" in r.output


def test_error_line_is_one_line_whatever_the_message() -> None:
    from sheepsolve.cli import InputError

    class Capture:
        text = ""

    import click

    out: list[str] = []
    orig = click.echo
    try:
        click.echo = lambda msg=None, **kw: out.append(str(msg))  # type: ignore[assignment]
        InputError("a\nb" + "c" * 100_000).show()
    finally:
        click.echo = orig  # type: ignore[assignment]
    assert len(out) == 1 and "\n" not in out[0] and len(out[0]) < 2100


# --------------------------------------------------------------------------------------------------------------
# 12. Click's own complaints: one line, exit status 2


@pytest.mark.parametrize("args, words", [
    (["show", str(EXAMPLES)], ["FILE", "directory"]),
    (["solve", str(EXAMPLES / "sheepshead.toml"), "--table-mib", "0"], ["--table-mib"]),
    (["bury", str(JD_FULL), "--jobs", "0"], ["--jobs"]),
    (["bury", str(JD_FULL), "--worlds", "x"], ["--worlds"]),
    (["annotate", str(EXAMPLES / "sheepshead.toml"), "--min-cost", "-1"], ["--min-cost"]),
    (["solve", str(EXAMPLES / "sheepshead.toml"), "--bogus"], ["--bogus"]),
    (["solve"], ["FILE"]),
    (["nosuchcommand"], ["nosuchcommand"]),
    (["puzzle", "nosuch"], ["nosuch"]),
    (["puzzle", "generate", "--game", "wenz"], ["--cards-left"]),
    (["puzzle", "generate", "--game", "wenz", "--cards-left", "3", "--out", "x", "--count", "0"], ["--count"]),
    (["solve", str(EXAMPLES / "sheepshead.toml"), "--target", "99999999999999999999999999999999999" * 200], ["--target"]),
])
def test_usage_errors_are_one_line(args: list[str], words: list[str], run, assert_input_error) -> None:
    r = run(*args)
    assert_input_error(r, *words)
    assert "Usage:" not in r.output


def test_help_still_works(run) -> None:
    r = run("bury", "--help")
    assert r.exit_code == 0 and "Usage:" in r.output and "--jobs" in r.output


# --------------------------------------------------------------------------------------------------------------
# 1. One solver shared by threads


def _positions(n: int, seed: int, every_game: bool = True):  # noqa: ANN202
    """Seeded random mid-hand positions of several games, 5 or 6 cards in each hand."""
    from sheepsolve.deals import deal
    from sheepsolve.engine import Setup
    from sheepsolve.games import make_game

    rng = random.Random(seed)
    games = [make_game("solo", trump="H"), make_game("wenz"), make_game("sheepshead-3"),
             make_game("sauspiel", deck="short")]
    out = []
    while len(out) < n:
        g = rng.choice(games)
        try:
            setup = _random_setup(g, rng)
        except ValueError:  # a sauspiel hand with no ace to call
            continue
        st = setup.start()
        while len(st.hands[st.to_move]) > 5 and not st.finished:
            st = st.play(rng.choice(sorted(st.legal(), key=int)))
        out.append(st)
    if every_game:
        assert {st.game.name for st in out} == {g.name for g in games}, "every game is in the sample"
    return out


def _random_setup(g, rng):  # noqa: ANN001, ANN202
    from sheepsolve.bury import legal_decisions
    from sheepsolve.engine import Setup

    cards = list(g.deck)
    rng.shuffle(cards)
    n, k = g.seats, g.hand_size
    hands = [cards[i * k:(i + 1) * k] for i in range(n)]
    blind = cards[n * k:n * k + g.blind_size]
    if g.kind == "picker":
        d = rng.choice(legal_decisions(g, hands[0] + blind))
        return Setup.create(g, hands, declarer=0, blind=blind, bury=d.bury, called=d.called, under=d.under,
                            alone=d.alone)
    if g.partner == "sauspiel":
        from sheepsolve.engine import legal_calls

        calls = [c for c in legal_calls(g, hands[0]) if c.card is not None]
        if not calls:
            raise ValueError("no call")
        return Setup.create(g, hands, declarer=0, called=calls[0].card)
    return Setup.create(g, hands, declarer=0)


def test_one_solver_shared_by_threads_gives_single_threaded_answers() -> None:
    from sheepsolve.solver import Solver

    positions = _positions(32, seed=2601)
    single = Solver()
    expected = [(single.value(s), single.card_values(s), single.solve(s).value) for s in positions]
    shared = Solver()
    errors: list[BaseException] = []
    results: dict[tuple[int, int], tuple] = {}
    deadline = time.monotonic() + 60

    def work(t: int) -> None:
        order = list(range(len(positions)))
        random.Random(t).shuffle(order)
        try:
            for rep in range(10):
                for i in order:
                    if time.monotonic() > deadline:
                        return
                    s = positions[i]
                    got = (shared.value(s), shared.card_values(s), shared.solve(s).value)
                    results[(t, i)] = got
                    if got != expected[i]:
                        raise AssertionError(f"thread {t}, position {i}: {got} != {expected[i]}")
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(120)
    assert not any(th.is_alive() for th in threads)
    assert not errors, errors[:3]
    assert len(results) >= len(positions)


def test_module_level_solve_from_threads() -> None:
    from sheepsolve.solver import Solver, solve

    positions = _positions(8, seed=77, every_game=False)
    expected = [Solver().solve(s).value for s in positions]
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for i, s in enumerate(positions):
                assert solve(s).value == expected[i]
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(3)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(120)
    assert not errors, errors[:3]


# --------------------------------------------------------------------------------------------------------------
# 11. pick, choose and bury validate what they read, as show does


BAD_RECORDS = sorted(p for p in (ROOT / "tests" / "bad_records").iterdir() if p.suffix in (".toml", ".json"))


def _expected(path: Path) -> str:
    if path.suffix == ".json":
        return path.with_suffix(".expect").read_text().strip()
    return path.read_text().splitlines()[0][len("# expect: "):]


def _seat_and_family(path: Path) -> tuple[str, str | None]:
    import json
    import tomllib

    from sheepsolve.games import REGISTRY, resolve_name

    try:
        d = json.loads(path.read_text()) if path.suffix == ".json" else tomllib.loads(path.read_text())
        seat = d.get("picker") or d.get("declarer") or (d.get("players") or ["1"])[0]
        canon = resolve_name(d["game"])[0]
        return str(seat), REGISTRY[canon].family if canon not in ("leaster",) else None
    except Exception:  # noqa: BLE001
        return "1", None


@pytest.mark.parametrize("path", BAD_RECORDS, ids=lambda p: p.name)
def test_pick_choose_and_bury_refuse_every_bad_record(path: Path, run, assert_input_error) -> None:
    seat, family = _seat_and_family(path)
    want = _expected(path)
    for command in ("pick", "choose", "bury"):
        args = [command, path, "--worlds", "1", "--jobs", "1"] + (["--seat", seat] if command != "bury" else [])
        r = run(*args)
        assert_input_error(r)
        fits = (command == "choose") == (family == "schafkopf") and family is not None
        if fits and "the hand of the player" not in r.output and "is needed" not in r.output:
            assert want in r.output, (command, want, r.output)


def test_limits_are_documented_as_they_are() -> None:
    from sheepsolve.files import CLIP_LENGTH, MAX_INPUT_BYTES
    from sheepsolve.games import MAX_MULTIPLIER, MAX_TARIFF
    from sheepsolve.record import MAX_NAME_LENGTH, MAX_RECORD_BYTES
    from sheepsolve.scoring import MAX_DOUBLERS
    from sheepsolve.worlds import MAX_JOBS
    from sheepsolve.view import MAX_ANNOTATE_WORLDS, MAX_SEED, MAX_WORLDS
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


def test_long_card_lists_and_plays_are_refused_without_reading_them_all() -> None:
    t0 = time.perf_counter()
    with pytest.raises(RecordError, match="hands.1: 100000 cards, more than the deck holds"):
        record_from_dict({"game": "sheepshead-3", "picker": "1", "hands": {"1": "AS " * 100_000}})
    with pytest.raises(RecordError, match="blind: 100000 cards"):
        record_from_dict({"game": "sheepshead-3", "picker": "1", "blind": ["AS"] * 100_000})
    with pytest.raises(RecordError, match="play: trick 1, card 4: one card too many"):
        record_from_dict({"game": "sheepshead-3", "picker": "1", "play": ["AS KS QS JS " + "XX " * 100_000]})
    with pytest.raises(RecordError, match="play: trick 11: the hand is over after 10 tricks"):
        record_from_dict({"game": "sheepshead-3", "picker": "1", "play": ["AS KS QS"] * 100_000})
    assert time.perf_counter() - t0 < 5


def test_the_lock_is_per_solver() -> None:
    """A call on one solver never waits for another solver's call (no global lock); a second call on the same
    solver waits for the first."""
    from sheepsolve.solver import Solver

    state = load_record(EXAMPLES / "sauspiel-midtrick.toml").state()
    a, b = Solver(), Solver()
    other: list[int] = []
    same: list[int] = []
    with a._lock:  # as if a call on a were running
        t = threading.Thread(target=lambda: other.append(b.value(state)))
        t.start()
        t.join(30)
        assert other, "a call on another solver waited"
        t2 = threading.Thread(target=lambda: same.append(a.value(state)))
        t2.start()
        t2.join(0.3)
        assert not same, "a call on the same solver did not wait"
    t2.join(30)
    assert same == other


def _square(i: int) -> int:
    return i * i


def test_a_pool_that_finishes_is_closed_not_terminated(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pool whose work is done ends by close and join, never by sending its workers SIGTERM: a worker stopped
    while it holds one of the pool's queue locks leaves another waiting for that lock, and the join then waited
    forever (seen once in a test run of bury's --jobs determinism test)."""
    import multiprocessing.pool

    import sheepsolve.worlds as W

    terminated: list[int] = []
    real_terminate = multiprocessing.pool.Pool.terminate

    def spy(self: multiprocessing.pool.Pool) -> None:
        terminated.append(1)
        real_terminate(self)

    monkeypatch.setattr(multiprocessing.pool.Pool, "terminate", spy)
    assert W.map_units(_square, 40, 2, parallel_after=0.0) == [i * i for i in range(40)]
    assert terminated == []
