"""Racing in the player's view: sampled worlds solved in rounds, cards clearly worse than the best dropped."""

from __future__ import annotations

import contextlib
import math
import operator
import os
import statistics
import sys

import pytest

from helpers_cli import EXAMPLES

from sheepsolve import player as V
from sheepsolve import pool as P
from sheepsolve import worlds as W
from sheepsolve.record import load_record


# (example, cards played before the decision): small positions where every consistent world can be solved. Their
# movers hold fewer than RACE_MIN_HAND cards, where racing does not pay and is off by default: the tests of its
# mechanism ask for it with race="always"
SMALL = [("solo-acorns-finished.toml", 20), ("solo-acorns-finished.toml", 21), ("wenz-finished.toml", 22),
         ("ramsch-finished.toml", 21), ("ramsch-finished.toml", 23), ("sauspiel-finished.toml", 20)]


def _knowledge(name: str, upto: int) -> W.Knowledge:
    return W.Knowledge.from_record(load_record(EXAMPLES / name), None, upto)


def test_rounds_are_fixed():
    assert V.race_rounds(100) == [20, 40, 100] and V.race_rounds(200) == [20, 40, 80, 200]
    assert V.race_rounds(19) == [19] and V.race_rounds(1) == [1]
    for n in range(1, 400):
        ends = V.race_rounds(n)
        assert ends[-1] == n and ends == sorted(set(ends)) and (ends[0] >= V.RACE_FIRST or ends == [n])


def test_keep_drops_only_beyond_z_standard_errors():
    worse = [(10, 9)] * 10 + [(10, 11)] * 10  # card 1: mean diff 0, never dropped
    assert V.race_keep(worse, [0, 1], True) == [0, 1]
    clear = [(10, 4)] * 20
    assert V.race_keep(clear, [0, 1], True) == [0] and V.race_keep(clear, [0, 1], False) == [1]
    assert V.race_keep(clear[:19], [0, 1], True) == [0, 1]  # before RACE_FIRST worlds nothing is dropped
    # mean diff -1 with standard error 1/sqrt(20)*sd: dropped exactly when -1 + 3 se < 0
    noisy = [(0, -1 + d) for d in ([3, -3] * 10)]
    diffs = [w[1] - w[0] for w in noisy]
    se = statistics.stdev(diffs) / math.sqrt(len(diffs))
    assert (V.race_keep(noisy, [0, 1], True) == [0]) == (statistics.fmean(diffs) + V.RACE_Z * se < 0)


def test_keep_drops_nothing_before_race_first_effective_worlds():
    """Weighted worlds: two heavy worlds among many light ones are worth about two, too few to drop a card on,
    however large the worlds' count (the story of tests/records/story_wenz_schwarz.toml, where the old rule dropped
    every card but the worst after 40 worlds worth about one)."""
    from sheepsolve.weighting import effective_size

    values = [(10, 4)] * 2 + [(10, 10)] * 38  # card 1 six points worse in the two heavy worlds, equal elsewhere
    heavy = [1.0, 1.0] + [1e-4] * 38
    assert effective_size(heavy) < 2.1
    assert V.race_keep(values, [0, 1], True, heavy) == [0, 1]
    assert V.race_keep(values[::-1], [0, 1], True, heavy[::-1]) == [0, 1]
    # as many effective worlds as RACE_FIRST: the rule of uniform worlds, dropping a card always worse
    clear = [(10, 4)] * V.RACE_FIRST
    assert V.race_keep(clear, [0, 1], True, [2.0] * V.RACE_FIRST) == [0]
    assert V.race_keep(clear + [(10, 4)], [0, 1], True, [2.0] * V.RACE_FIRST + [50.0]) == [0, 1]  # worth 2.7


@pytest.mark.parametrize("name,upto", SMALL)
def test_racing_keeps_the_best_and_drops_only_worse_cards(name, upto):
    k = _knowledge(name, upto)
    exact = V.player_view(k, "all", payments=False)
    assert all(cv.worlds_solved == exact.worlds for cv in exact.cards.values())  # exact: no racing
    dropped = 0
    for seed in range(4):
        v = V.player_view(k, 80, seed=seed, payments=False, race="always")
        for c in exact.best:
            if exact.cards[c].vs_best == 0:
                assert v.cards[c].worlds_solved == 80, (seed, c)
        for c, cv in v.cards.items():
            if cv.worlds_solved < 80:
                dropped += 1
                assert cv.worlds_solved in V.race_rounds(80)
                assert exact.cards[c].vs_best > 0 and c not in exact.best, (seed, c)
    assert name == "sauspiel-finished.toml" or dropped  # the test does see cards dropped


def test_raced_values_are_the_full_solves_values():
    """A card solved alone (the position after it) has the value card_values gives it in the same world, and each
    card's figures are over the worlds it was solved in."""
    k = _knowledge("ramsch-finished.toml", 21)
    raced = V.player_view(k, 60, seed=1, race="always")
    full = V.player_view(k, 60, seed=1, race=False)
    assert any(cv.worlds_solved < 60 for cv in raced.cards.values())
    assert all(cv.worlds_solved == 60 for cv in full.cards.values())
    for w_r, w_f in zip(raced.values, full.values):
        assert all(a is None or a == b for a, b in zip(w_r, w_f))
    for j, (c, cv) in enumerate(raced.cards.items()):
        col = [w[j] for w in raced.values if w[j] is not None]
        assert len(col) == cv.worlds_solved and col == [w[j] for w in full.values][:len(col)]
        assert cv.mean == pytest.approx(statistics.fmean(col))
        assert cv.stderr == pytest.approx(statistics.stdev(col) / math.sqrt(len(col)))
        top = list(raced.cards).index(raced.top)
        diffs = [-(w[top] - w[j]) for w in raced.values if w[j] is not None]  # ramsch: lower is better
        if c != raced.top:
            assert cv.vs_best == pytest.approx(statistics.fmean(diffs))
    d = raced.to_dict()
    assert {c: x["worlds_solved"] for c, x in d["cards"].items()} == \
        {str(c): cv.worlds_solved for c, cv in raced.cards.items()}


def test_racing_only_while_the_mover_holds_enough_cards():
    from sheepsolve.games import make_game

    for name, least in (("sauspiel", V.RACE_MIN_HAND), ("sheepshead", V.RACE_MIN_HAND), ("wenz", V.RACE_MIN_HAND),
                        ("ramsch", V.RACE_MIN_HAND_EACH_FOR_HIMSELF),
                        ("leaster", V.RACE_MIN_HAND_EACH_FOR_HIMSELF)):
        g = make_game(name)
        assert V.race_min_hand(g) == least
        assert V.races(True, g, least) and V.races(True, g, 10) and not V.races(True, g, least - 1)
        assert V.races("always", g, 2) and not V.races(False, g, 10) and not V.races(False, g, 2)
        with pytest.raises(ValueError, match="race"):
            V.races("sometimes", g, 8)


def _cards_left(k: W.Knowledge) -> int:
    return len(k.hand - {c for s, c in k.plays if s == k.seat})


def _without_seconds(v) -> dict:
    d = v.to_dict()
    d.pop("seconds", None)
    return d


@pytest.mark.parametrize("name,upto", SMALL[:4])
def test_below_the_threshold_every_card_is_solved_in_every_world(name, upto):
    """Racing asked for (the default) at a mover with fewer than RACE_MIN_HAND cards: no card dropped, the very
    answer of --no-race, where racing would have dropped some."""
    k = _knowledge(name, upto)
    assert _cards_left(k) < V.race_min_hand(k.game)
    dropped = 0
    for seed in range(2):
        default = V.player_view(k, 80, seed=seed)
        assert all(cv.worlds_solved == 80 for cv in default.cards.values())
        assert _without_seconds(default) == _without_seconds(V.player_view(k, 80, seed=seed, race=False))
        always = V.player_view(k, 80, seed=seed, race="always")
        dropped += sum(cv.worlds_solved < 80 for cv in always.cards.values())
    assert dropped  # racing forced on does drop cards here: the rule, not the position, kept them


def test_at_the_threshold_racing_is_on():
    """A mover holding RACE_MIN_HAND cards (Sheepshead's first trick) races by default: the answer of
    race="always", with cards dropped."""
    k = _knowledge("sheepshead-jd-finished.toml", 2)
    v = V.player_view(k, 60, seed=0)
    assert _cards_left(k) == V.RACE_MIN_HAND
    assert any(cv.worlds_solved < 60 for cv in v.cards.values())
    assert _without_seconds(v) == _without_seconds(V.player_view(k, 60, seed=0, race="always"))


def test_annotate_races_only_the_decisions_where_it_pays():
    """annotate --view player: a decision whose mover holds RACE_MIN_HAND cards or more is raced as with
    race="always", every other one solved as with race=False."""
    from sheepsolve.annotate import annotate_record

    ann = annotate_record(load_record(EXAMPLES / "solo-acorns-finished.toml"), judge_bury=False)
    views = {race: V.annotate_view(ann, worlds=45, seed=3, jobs=1, race=race) for race in (True, "always", False)}
    raced = small = 0
    for d, d_always, d_full in zip(*(v.decisions for v in views.values())):
        v = d.view
        if v is None:
            continue
        cards_left = ann.setup.game.hand_size - d.trick + 1
        least = V.race_min_hand(ann.setup.game)
        same = d_always.view if cards_left >= least else d_full.view
        assert v == same, (d.trick, d.player)
        if cards_left < least and not v.exact:
            small += 1
            assert set(v.worlds_solved.values()) == {v.worlds}
            raced += any(n < v.worlds for n in d_always.view.worlds_solved.values())
        elif any(n < v.worlds for n in v.worlds_solved.values()):
            raced += 1
    assert small and raced


@pytest.fixture
def pools_started(monkeypatch):
    """The worker counts of every process pool that pool.UnitRunner starts."""
    started: list[int] = []
    real = P.process_pool

    def counting(workers, **kwargs):
        started.append(workers)
        return real(workers, **kwargs)

    monkeypatch.setattr(P, "process_pool", counting)
    return started


@pytest.fixture
def helpers_started(monkeypatch):
    """The helpers forked by every pool.UnitRunner that shares its units (one entry a runner)."""
    started: list[int] = []
    real = P.UnitRunner._start_helpers

    def counting(self, left):
        real(self, left)
        started.append(len(self.helpers))

    monkeypatch.setattr(P.UnitRunner, "_start_helpers", counting)
    return started


def test_racing_same_answer_whatever_jobs(monkeypatch, pools_started, helpers_started):
    from sheepsolve import signals

    k = _knowledge("solo-acorns-finished.toml", 21)
    one = V.player_view(k, 80, seed=0, jobs=1, race="always")
    assert any(cv.worlds_solved < 80 for cv in one.cards.values())
    assert pools_started == [] and helpers_started == []
    monkeypatch.setattr(P, "PARALLEL_AFTER_SECONDS", 0.0)  # processes even for this little work
    two = V.player_view(k, 80, seed=0, jobs=2, race="always")
    # for the run's three rounds: one helper forked beside this process, or one pool of 2 where workers do not
    # start by fork
    assert (pools_started, helpers_started) == (([], [1]) if signals.start_method() == "fork" else ([2], []))
    assert one.values == two.values and one.payments == two.payments
    assert one.to_dict()["cards"] == two.to_dict()["cards"] and one.best == two.best
    # payments only where the card was solved, each the payment of that world's value
    assert [[p is None for p in w] for w in one.payments] == [[x is None for x in w] for w in one.values]
    full = V.player_view(k, 80, seed=0, race=False)
    for w_r, w_f in zip(one.payments, full.payments):
        assert all(a is None or a == b for a, b in zip(w_r, w_f))


def test_annotate_racing_same_answer_whatever_jobs_and_documented(monkeypatch, pools_started):
    from sheepsolve.annotate import annotate_record

    ann = annotate_record(load_record(EXAMPLES / "solo-acorns-finished.toml"), judge_bury=False)
    one = V.annotate_view(ann, worlds=45, seed=3, jobs=1, race=True).to_dict()
    assert pools_started == []
    monkeypatch.setattr(P, "PARALLEL_AFTER_SECONDS", 0.0)
    two = V.annotate_view(ann, worlds=45, seed=3, jobs=2, race=True).to_dict()
    assert pools_started == [2]  # one pool for every round of every decision
    for d in (one, two):
        d.pop("seconds"), d["view"].pop("seconds")
    assert one == two
    views = [x["view"] for x in one["decisions"] if not x["forced"]]
    assert any(n < 45 for v in views for n in v["worlds_solved"].values())
    full = V.annotate_view(ann, worlds=45, seed=3, jobs=1, race=False).to_dict()
    for a, b in zip(one["decisions"], full["decisions"]):
        if a.get("view"):
            n = a["view"]["worlds"]  # 45, or fewer where no more are possible: every one, exactly
            assert n == 45 or a["view"]["exact"]
            assert set(a["view"]["worlds_solved"].values()) >= {n}
            assert set(b["view"]["worlds_solved"].values()) == {n}
            assert a["view"]["best"][0] in b["view"]["best"] or b["view"]["best"][0] in a["view"]["best"]


def test_cli_race_switches():
    import json

    from click.testing import CliRunner

    from sheepsolve.cli import main

    rec = EXAMPLES / "sauspiel-midtrick.toml"
    r = CliRunner().invoke(main, ["suggest", str(rec), "--worlds", "60", "--no-race", "--json"])
    assert r.exit_code == 0, r.output
    assert {c["worlds_solved"] for c in json.loads(r.output)["cards"].values()} == {60}
    solo = str(EXAMPLES / "solo-acorns-finished.toml")
    for flag in ("--race", "--no-race"):  # only with --view player
        r = CliRunner().invoke(main, ["annotate", solo, flag])
        assert r.exit_code == 2 and r.output.startswith("error: ") and f"{flag}: only with --view player" in r.output
    # annotate --view player races by default; --no-race solves every card in every world, --race is the default
    got = {}
    for flags in ((), ("--race",), ("--no-race",)):
        r = CliRunner().invoke(main, ["annotate", solo, "--view", "player", "--worlds", "45", "--seed", "3",
                                      "--jobs", "1", "--json", "--inference", "none", *flags])
        assert r.exit_code == 0, r.output
        got[flags] = [n for d in json.loads(r.output)["decisions"] if d.get("view") and not d["view"]["exact"]
                      for n in d["view"]["worlds_solved"].values()]  # (exact: every possible world, no racing)
    assert got[()] == got[("--race",)] and min(got[()]) < 45
    assert set(got[("--no-race",)]) == {45}


class _FakePool:
    """In-process stand-in for a worker pool: runs the units here, records the batches it was given."""

    def __init__(self) -> None:
        self.batches: list[int] = []

    def imap(self, run, units, chunksize=1):
        units = list(units)
        self.batches.append(len(units))
        return map(run, units)


def test_runner_starts_one_pool_when_the_rest_of_the_run_is_long(monkeypatch):
    """The pace of the units run here, times what is left of the whole run (``later`` included), decides; once
    started the pool takes every later unit, batch after batch."""
    import contextlib
    import time

    pools: list[_FakePool] = []

    @contextlib.contextmanager
    def fake_pool(workers, **kwargs):
        pools.append(_FakePool())
        yield pools[-1]

    monkeypatch.setattr(P, "process_pool", fake_pool)
    slow = lambda i: time.sleep(0.01) or i  # noqa: E731
    with P.UnitRunner(2, parallel_after=0.5) as runner:  # 0.01 s a unit, 100 more to come: 1 s > 0.5 s
        assert runner.map(abs, 6, local=slow, later=100) == list(range(6))
        assert len(pools) == 1 and pools[0].batches == [5]  # one unit here, the rest of the batch there
        assert runner.map(abs, 30, local=slow, later=70) == list(range(30))
        assert runner.map(abs, 70, local=slow) == list(range(70))
    assert len(pools) == 1 and pools[0].batches == [5, 30, 70]
    with P.UnitRunner(2, parallel_after=0.5) as runner:  # the pace trusted after 4 units only
        assert runner.map(abs, 10, local=slow, later=100, sample=4) == list(range(10))
    assert len(pools) == 2 and pools[1].batches == [6]
    with P.UnitRunner(2, parallel_after=5.0) as runner:  # 0.01 s a unit: a run of 60 stays here
        for n in (20, 40):
            assert runner.map(abs, n, local=slow, later=60 - n) == list(range(n))
    with P.UnitRunner(1, parallel_after=0.0) as runner:  # one job: never a pool
        assert runner.map(abs, 5, later=10) == list(range(5))
    assert len(pools) == 2


def test_runner_pool_lives_across_batches_and_ends_with_the_run(monkeypatch):
    """A real pool: the same workers serve every batch, and they are gone when the run ends, also when it ends
    by Ctrl-C (KeyboardInterrupt) between batches."""
    for interrupted in (False, True):
        procs = []
        with contextlib.suppress(KeyboardInterrupt):
            with P.UnitRunner(2, parallel_after=0.0) as runner:
                assert runner.map(abs, 7) == list(range(7))
                procs = list(runner.pool._pool)
                assert runner.map(operator.neg, 9) == [-i for i in range(9)]
                assert list(runner.pool._pool) == procs and all(p.is_alive() for p in procs)
                if interrupted:
                    raise KeyboardInterrupt
        assert len(procs) == 2 and not any(p.is_alive() for p in procs), interrupted
        assert runner.pool is None


# --------------------------------------------------------------------------------------------------------------
# Units shared with helpers forked from this process (UnitRunner's share)

_SHARED_TEST: dict = {}  # set before a helper forks: what it inherits


class _Square:
    """A helper's unit (picklable): i squared, and the event set that says a helper ran a unit."""

    def __call__(self, i: int) -> int:
        _SHARED_TEST["ran"].set()
        return i * i


class _DiesOn(_Square):
    def __call__(self, i: int) -> int:
        if i == 1:
            _SHARED_TEST["ran"].set()
            os._exit(3)  # the helper dies with unit 1 taken
        return super().__call__(i)


class _FailsOn(_Square):
    def __call__(self, i: int) -> int:
        if i == 1:
            _SHARED_TEST["ran"].set()
            raise ValueError("unit 1 in a helper")
        return super().__call__(i)


@pytest.fixture
def forking(monkeypatch):
    """Workers start by fork (Linux), whatever threads an earlier test left; the event a helper's unit sets."""
    import multiprocessing

    from sheepsolve import signals

    if "fork" not in multiprocessing.get_all_start_methods() or not sys.platform.startswith("linux"):
        pytest.skip("helpers are forked on Linux only")
    monkeypatch.setattr(signals, "START_METHOD", "fork")
    _SHARED_TEST["ran"] = multiprocessing.get_context("fork").Event()
    yield _SHARED_TEST["ran"]
    _SHARED_TEST.clear()


def _after_a_helper(ran, result=lambda i: i * i):
    """This process's units: unit 0 waits until a helper has run a unit (so that one surely does)."""
    def local(i: int):
        if i == 0:
            assert ran.wait(120), "no helper ran a unit"
        return result(i)
    return local


def test_shared_units_run_here_and_in_a_helper(forking):
    """With ``share`` the units of every batch are taken one by one by this process and a forked helper, the
    results in unit order; the helper serves every batch and is gone when the run ends."""
    with P.UnitRunner(2, parallel_after=0.0, share=True) as runner:
        assert runner.forks
        assert runner.map(_Square(), 30, local=_after_a_helper(forking)) == [i * i for i in range(30)]
        assert len(runner.helpers) == 1 and runner.helper_units >= 1 and runner.pool is None
        helper = runner.helpers[0][0]
        assert runner.map(_Square(), 12, local=lambda i: i * i) == [i * i for i in range(12)]
        assert [h for h, _ in runner.helpers] == [helper] and helper.is_alive()
    assert not helper.is_alive() and runner.helpers == []
    with P.UnitRunner(1, parallel_after=0.0, share=True) as runner:  # one job: nothing forked
        assert not runner.forks and runner.map(_Square(), 5) == [i * i for i in range(5)]


def test_shared_units_of_a_helper_that_died_run_here(forking):
    with P.UnitRunner(2, parallel_after=0.0, share=True) as runner:
        assert runner.map(_DiesOn(), 20, local=_after_a_helper(forking)) == [i * i for i in range(20)]
        assert runner.helpers == []  # the dead helper is let go; the next batch runs here
        assert runner.map(_Square(), 6, local=lambda i: -i) == [-i for i in range(6)]


def test_shared_unit_that_failed_in_a_helper_fails_here(forking):
    """A unit that raised in a helper is run here again, so its error is this process's, as with one job; the
    helper is killed and waited for."""
    def fail(i: int) -> int:
        if i == 1:
            raise ValueError("unit 1 here")
        return i * i

    helpers = []
    with pytest.raises(ValueError, match="unit 1 here"):
        with P.UnitRunner(2, parallel_after=0.0, share=True) as runner:
            runner.map(_FailsOn(), 20, local=_after_a_helper(forking, fail), progress=lambda d, n: helpers.extend(
                h for h, _ in runner.helpers if h not in helpers))
    assert helpers and not any(h.is_alive() for h in helpers)


@pytest.mark.parametrize("name,upto", [("sheepshead-jd-finished.toml", 0), ("sheepshead-called-ace-finished.toml", 6),
                                       ("sheepshead-4-midtrick.toml", None), ("sheepshead-3-finished.toml", 3),
                                       ("sauspiel-finished.toml", 0), ("solo-acorns-finished.toml", 9),
                                       ("wenz-finished.toml", 2)])
def test_payments_ask_for_tricks_only_at_no_point_beyond_the_floor(name, upto):
    """solve_world's payments equal the outcomes read with the tricks each side can take in every case: a side
    with points beyond its floor (the bury) can always take a trick, so 30 or fewer is schneidered, not
    schwarzed, without a tricks search."""
    from sheepsolve.judge import in_play, no_trick_points, tricks_objective
    from sheepsolve.objective import Objective
    from sheepsolve.scoring import outcome_for, seat_payment
    from sheepsolve.solver import Solver

    k = _knowledge(name, upto) if upto is not None else W.Knowledge.from_record(load_record(EXAMPLES / name))
    solver, tsolver = Solver(1), Solver(1)
    beyond = 0
    for w in W.WorldSampler(k).sample(12, seed=5):
        values, pays = V.solve_world(k, w, solver, tsolver)
        g, setup = w.setup.game, w.setup
        n, _ = in_play(setup)
        floor = no_trick_points(Objective.for_setup(setup))
        for c, v, p in zip(w.state.legal(), values, pays):
            child = w.state.play(c)
            reach = lambda t: tsolver.reach(child, t, tricks_objective(setup.team))  # noqa: E731
            took = n if reach(n) else (1 if reach(1) else 0)
            if v > floor:
                assert took >= 1, (c, v, floor)
                beyond += v * 4 <= g.total_points
            assert p == seat_payment(setup, k.seat, outcome_for(g, v, took, n), k.stakes), (str(c), v, floor, took)
    assert beyond or name != "sheepshead-jd-finished.toml"  # the case is met


def test_suggest_starts_workers_sooner_when_they_start_by_fork(monkeypatch):
    """One question's worlds (suggest) go to processes after FORKED_PARALLEL_AFTER_SECONDS when workers start by
    fork, never later than the general threshold; otherwise after PARALLEL_AFTER_SECONDS."""
    from sheepsolve import signals

    monkeypatch.setattr(signals, "START_METHOD", "fork")
    assert P.quick_parallel_after() == P.FORKED_PARALLEL_AFTER_SECONDS < P.PARALLEL_AFTER_SECONDS
    monkeypatch.setattr(P, "PARALLEL_AFTER_SECONDS", 0.0)
    assert P.quick_parallel_after() == 0.0
    monkeypatch.setattr(P, "PARALLEL_AFTER_SECONDS", 3.0)
    for method in ("spawn", "forkserver"):
        monkeypatch.setattr(signals, "START_METHOD", method)
        assert P.quick_parallel_after() == 3.0


def _race_pays_script():
    """benchmarks/race_pays.py, the measurement behind RACE_MIN_HAND, loaded as a module."""
    import importlib.util
    from pathlib import Path

    name = "race_pays_bench"
    if name not in sys.modules:
        path = Path(__file__).resolve().parent.parent / "benchmarks" / "race_pays.py"
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def test_race_pays_measurement_is_seeded_and_summed(tmp_path):
    """The measurement's positions are the same every run, every trick from the first lead to two cards a hand;
    its rows carry what the tables group by, and the rule's column follows races()."""
    import io
    import json

    bench = _race_pays_script()
    first = [(i, plays) for i, _, plays, _ in bench.positions("sheepshead-jd", 2)]
    assert first == [(i, plays) for i, _, plays, _ in bench.positions("sheepshead-jd", 2)]
    hands = [len(s.hands[s.to_move]) for _, _, _, s in bench.positions("sheepshead-jd", 1)]
    assert hands == [6, 5, 4, 3, 2]
    out = io.StringIO()
    bench.measure("sheepshead-jd", 1, 24, False, out)
    rows = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [r["hand"] for r in rows] == hands
    assert all(r["race"] > 0 and r["full"] > 0 and r["solves_raced"] <= r["solves_full"] for r in rows)
    path = tmp_path / "rows.jsonl"
    path.write_text(out.getvalue())
    text = bench.summary(str(path))
    used = [r for r in rows if not r["exact"] and r["legal"] > 1]
    rule = sum(r["race"] if r["hand"] >= V.RACE_MIN_HAND else r["full"] for r in used)
    assert f"| {rule:.2f} |" in text.split("rule / always")[1]
    assert "6 cards" in bench.matrix(str(path)) or not any(r["hand"] == 6 for r in used)
