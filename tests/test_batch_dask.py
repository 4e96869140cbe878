"""``sheepsolve batch --scheduler``: the same batch through a real Dask ``LocalCluster`` (two worker processes
on loopback) gives the local run's output, timings aside."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers_cli import EXAMPLES

from sheepsolve.cli import main

distributed = pytest.importorskip("distributed")


def lines(path: Path) -> list:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=":0", silence_logs=40) as c:
        yield c


def test_examples_annotated_on_the_cluster_as_locally(tmp_path: Path, cluster, timeless) -> None:
    local, remote = tmp_path / "local.jsonl", tmp_path / "dask.jsonl"
    args = ["batch", "annotate", "--no-bury", str(EXAMPLES)]
    r1 = CliRunner().invoke(main, [*args, "--out", str(local), "--jobs", "2"])
    r2 = CliRunner().invoke(main, [*args, "--out", str(remote), "--scheduler", cluster.scheduler_address,
                                   "--chunk-size", "4"])
    assert r1.exit_code == r2.exit_code == 1, (r1.output, r2.output)  # the examples hold partial records
    a, b = lines(local), lines(remote)
    assert len(a) > 50 and sum("result" in x for x in a) > 50
    assert timeless(a) == timeless(b)
    # the work ran as tasks of the cluster, in chunks of 4 records
    prefix = cluster.scheduler.task_prefixes.get("run_chunk")
    assert prefix is not None and sum(prefix.state_counts.values()) >= -(-len(a) // 4)


def test_sampled_command_on_the_cluster_as_locally(tmp_path: Path, cluster, timeless) -> None:
    inputs = [str(EXAMPLES / "bury-jd-picker-only.toml"), str(EXAMPLES / "bury-choose-sauspiel-hand.toml")]
    local, remote = tmp_path / "local.jsonl", tmp_path / "dask.jsonl"
    r1 = CliRunner().invoke(main, ["batch", "pick", "--worlds", "8", "--seed", "3", "--seat", "Cal", *inputs,
                                   "--out", str(local), "--jobs", "1"])
    r2 = CliRunner().invoke(main, ["batch", "pick", "--worlds", "8", "--seed", "3", "--seat", "Cal", *inputs,
                                   "--out", str(remote), "--scheduler", cluster.scheduler_address])
    assert r1.exit_code == r2.exit_code == 1
    a, b = lines(local), lines(remote)
    assert "result" in a[0] and "error" in a[1]
    assert timeless(a) == timeless(b)


def test_unreachable_scheduler_is_a_clear_error(tmp_path: Path) -> None:
    from sheepsolve.batch import BatchError, run_batch

    with pytest.raises(BatchError, match="^--scheduler: cannot connect to tcp://127.0.0.1:9"):
        run_batch("show", {}, [str(EXAMPLES / "wenz-finished.toml")], str(tmp_path / "o.jsonl"),
                  scheduler="tcp://127.0.0.1:9", connect_timeout=1)
