"""Many records at once: ``batch``, and the season ``report`` over its output."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from ..files import FileError, check_output_path
from ..memory import memory_message
from ..signals import Terminated
from ..batch import MAX_CHUNK_SIZE
from .base import DigitsIntRange
from .base import InputError, input_errors, main, write_report


# --------------------------------------------------------------------------------------------------------------
# Many records at once (library: batch.py, commands.py).


@main.command(context_settings={"ignore_unknown_options": True, "allow_interspersed_args": True})
@click.argument("command", metavar="COMMAND", type=click.Choice(["show", "solve", "annotate", "bury", "pick",
                                                                  "choose", "suggest"]))
@click.argument("args", nargs=-1, type=click.UNPROCESSED, metavar="[OPTIONS] INPUT...")
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False), metavar="FILE.jsonl",
              help="The JSON Lines output: one line per record, {\"id\", \"result\"} or {\"id\", \"error\"}.")
@click.option("--resume", is_flag=True, help="Keep the lines already in --out and run only the other records.")
@click.option("--force", is_flag=True, help="Start --out over when it already holds lines.")
@click.option("--jobs", type=DigitsIntRange(min=1), default=None,
              help="Worker processes [default: every core]; the output is the same whatever the number.")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
              help="Run on this Dask distributed scheduler instead (pip install 'sheepsolve[cluster]').")
@click.option("--chunk-size", type=DigitsIntRange(1, MAX_CHUNK_SIZE), default=None,
              help="Records per task [default: an eighth of each worker's share of what is left, at most 64 "
                   f"records, so the tasks shrink towards the end; at most {MAX_CHUNK_SIZE:,}].")
@click.option("--progress/--no-progress", default=None,
              help="Draw the progress bar on standard error [default: when it is a terminal].")
def batch(command: str, args: tuple[str, ...], out: str, resume: bool, force: bool, jobs: int | None,
          scheduler: str | None, chunk_size: int | None, progress: bool | None) -> None:
    """Run COMMAND (show, solve, annotate, suggest, bury, pick or choose, with its own options) over many records.

    An INPUT is a record file, a folder (searched recursively for *.toml, *.json, *.jsonl), a JSON Lines file
    (*.jsonl, one record per line) or - for standard input. Each record gives one line of FILE.jsonl, in input
    order: {"id": ..., "result": {...}} with exactly what `sheepsolve COMMAND FILE --json` prints, or
    {"id": ..., "error": "..."} with its message. The id is the path, plus :LINE for JSON Lines. A bad record
    never stops the batch; the exit status is 1 when some record failed, 130 after Ctrl-C, 143 after SIGTERM, 129
    after SIGHUP, 2 when the batch cannot start or write FILE.jsonl (which one batch at a time may write: it is
    locked). Example:

        sheepsolve batch annotate --no-bury examples --out season.jsonl
    """
    from ..batch import BatchError, run_batch

    options = _batch_options(command, args)
    inputs = options.pop("inputs")
    try:
        summary = run_batch(command, options, inputs, out, jobs=jobs, scheduler=scheduler, chunk_size=chunk_size,
                            resume=resume, force=force, progress=progress)
    except (BatchError, FileError) as e:
        raise InputError(str(e)) from None
    except MemoryError as e:
        raise InputError(memory_message(e, dict(options, jobs=jobs))) from None
    except Terminated as e:  # SIGTERM, SIGHUP: the workers are stopped, the lines written so far kept (--resume)
        sys.exit(e.status)
    click.echo(summary.text(command, out), err=True)
    if summary.errors:
        sys.exit(1)


def _batch_options(command: str, args: tuple[str, ...]) -> dict[str, Any]:
    """COMMAND's own options and the inputs, parsed by COMMAND's own option definitions (``--json`` is implied;
    ``--jobs`` is the batch's; ``--html`` writes one file per record and has no place in a batch)."""
    cmd = main.commands[command]
    params = [p for p in cmd.params if p.name not in ("file", "jobs")]
    params.append(click.Argument(["inputs"], nargs=-1, required=True, metavar="INPUT..."))
    parser = click.Command(f"batch {command}", params=params, add_help_option=False)
    try:
        ctx = parser.make_context(f"sheepsolve batch {command}", list(args))
    except click.UsageError as e:
        raise InputError(f"{command} options: {e.format_message()}") from None
    options = dict(ctx.params)
    options.pop("json_out", None)
    options.pop("notation", None)  # how cards are drawn in text; JSON is always ASCII
    if options.pop("html_out", None) is not None:
        raise InputError("--html: a batch writes JSON Lines; run `sheepsolve annotate FILE --html OUT` per hand, "
                         "or `sheepsolve report` over the batch")
    return options


# --------------------------------------------------------------------------------------------------------------
# A season report over a batch of annotated hands (library: report.py).


@main.command()
@click.argument("file", type=click.Path(dir_okay=False), metavar="FILE.jsonl")
@click.option("--html", "html_out", type=click.Path(dir_okay=False), default=None, metavar="OUT",
              help="Also write a self-contained HTML page with charts to OUT.")
@click.option("--json", "json_out", is_flag=True, help="One JSON object: hands, errors, players, forms, failed.")
@input_errors
def report(file: str, html_out: str | None, json_out: bool) -> None:
    """A season report over `sheepsolve batch annotate ... --out FILE.jsonl`: per player the decisions, errors,
    result-changing errors and points lost double dummy; per game form the hands, the declaring side's win rate
    and mean points."""
    from ..render.report import render_html, render_text
    from ..report import ReportError, read_report

    if html_out is not None:
        check_output_path(html_out, inputs=[file], label="--html", page=True)
    try:
        rep = read_report(file)
    except ReportError as e:
        raise InputError(str(e)) from None
    if html_out is not None:
        write_report(html_out, render_html(rep), inputs=[file])
    if json_out:
        click.echo(json.dumps(rep.to_dict(), indent=2, ensure_ascii=False))
        return
    click.echo(render_text(rep), nl=False)
