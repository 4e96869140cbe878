"""Choices before the first lead: ``bury``, ``pick``, ``choose`` (library: bury/)."""

from __future__ import annotations

import json
from typing import Any, Callable

import click

from ..files import check_output_path
from .base import DigitsIntRange
from .base import (GERMAN_HELP, Progress, SEED, cards_option, inference_option, input_errors, main, page_style,
                   text_style, write_report)


# --------------------------------------------------------------------------------------------------------------
# Choices before the first lead: bury, pick, choose (library: bury.py).


class _WorldsType(click.ParamType):
    """``--worlds`` of bury, pick and choose: a number of worlds (1 or more) or ``all`` (every deal of the unseen
    cards, exactly; refused above the cap with the count)."""

    name = "N|all"

    def convert(self, value: Any, param: Any, ctx: Any) -> int | str:
        from ..player.options import parse_worlds
        from ..worlds import WorldsError

        if value == "all" or (isinstance(value, int) and not isinstance(value, bool)):
            return value
        try:
            return parse_worlds(value)
        except WorldsError as e:
            self.fail(str(e).removeprefix("--worlds: "), param, ctx)


WORLDS = _WorldsType()


def _sampling_options(fn: Callable) -> Callable:
    fn = cards_option(fn)
    fn = inference_option(fn)
    fn = click.option("--html", "html_out", type=click.Path(dir_okay=False), default=None, metavar="OUT",
                      help="Also write a self-contained HTML report to OUT (the table, and charts of the "
                           "points over the worlds).")(fn)
    fn = click.option("--german", is_flag=True, help=GERMAN_HELP)(fn)
    fn = click.option("--by", type=click.Choice(["payment", "points"]), default="payment", show_default=True,
                      help="Rank by the declarer's own payment (then points), or by points (then payment).")(fn)
    fn = click.option("--jobs", type=DigitsIntRange(min=1), default=None,
                      help="Worker processes [default: every core; never more than the cores this process may use]; "
                           "the answer for a seed is the same.")(fn)
    fn = click.option("--seed", type=SEED, default=0, show_default=True,
                      help="World i is dealt from (seed, i): the same seed gives the same answer.")(fn)
    return fn


def _choice_command(file: str, compute: Callable[..., Any], page: Callable[..., str], render_text: Callable[..., str],
                    *, json_out: bool, notation: str | None, html_out: str | None, unit: str, **options: Any) -> None:
    """What bury, pick and choose share: refuse a bad --html OUT before any work, compute with a progress bar
    over ``unit``, write the page, then print the JSON or the text."""
    from .. import commands

    if html_out is not None:
        check_output_path(html_out, inputs=[file], label="--html", page=True)
    with Progress(unit, estimate=True) as progress:
        res, data = compute(commands.Source.file(file), progress=progress, **options)
    if html_out is not None:
        write_report(html_out, page(res, page_style(notation, res.game)), inputs=[file])
    if json_out:
        click.echo(json.dumps(data, indent=2))
        return
    click.echo(render_text(res, text_style(notation, res.game)), nl=False)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "json_out", is_flag=True,
              help='One JSON object: {"buries": [{"cards", "call", "under", "value" or "mean", "stderr", "p61", '
                   '"p91", "pschwarz", "payment", "rank", ...}], "best", "lesson", ...}, best first.')
@click.option("--view", type=click.Choice(["actual", "picker"]), default=None,
              help="actual: double dummy on the dealt cards (needs every hand); picker: only the picker's hand "
                   "and the blind known, the other cards sampled. Default: actual when every hand is known and "
                   "--worlds is not given, else picker.")
@click.option("--worlds", type=WORLDS, default=None,
              help="Worlds sampled for the picker's view, 1 to 20,000 [default: 100]; all: every deal of the "
                   "unseen cards (at most 20,000).")
@_sampling_options
@input_errors
def bury(file: str, json_out: bool, view: str | None, worlds: int | str | None, seed: int, jobs: int | None, by: str,
         german: bool, notation: str | None, html_out: str | None, inference: str) -> None:
    """Rank every legal bury (and call, and card under) of the record's pick, best first.

    Double dummy on the actual deal, or from the picker's view: the unseen cards dealt at random, every choice
    solved in the same worlds (mean points ± standard error, P(61+), P(91+), P(schwarz), expected payment).
    Payments are the picker's own.
    """
    from .. import commands
    from ..render.choices import bury_html, render_bury

    _choice_command(file, commands.bury, bury_html, render_bury, json_out=json_out, notation=notation,
                    html_out=html_out, unit="solving", view=view, worlds=worlds, seed=seed, jobs=jobs, by=by,
                    german=german, inference=inference)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--seat", "seat_name", default=None, help="The player who would pick [default: the record's picker].")
@click.option("--worlds", type=WORLDS, default=100, show_default=True,
              help="Worlds sampled (the blind and the other hands), 1 to 20,000; all: every deal (at most "
                   "20,000).")
@click.option("--json", "json_out", is_flag=True,
              help='One JSON object: {"choices": [{"choice": "pick", "mean", "stderr", "p61", "p91", "pschwarz", '
                   '"payment", ...}, {"choice": "pass", "payment": 0}], "decision", ...}, best first.')
@_sampling_options
@input_errors
def pick(file: str, seat_name: str | None, worlds: int | str, json_out: bool, seed: int, jobs: int | None, by: str,
         german: bool, notation: str | None, html_out: str | None, inference: str) -> None:
    """Pick or pass: the expected payment of picking from this hand against passing (worth 0).

    In each sampled world the picker makes that world's best double-dummy bury and call.
    """
    from .. import commands
    from ..render.choices import pick_html, render_pick

    _choice_command(file, commands.pick, pick_html, render_pick, json_out=json_out, notation=notation,
                    html_out=html_out, unit="worlds", seat_name=seat_name, worlds=worlds, seed=seed, jobs=jobs,
                    by=by, german=german, inference=inference)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--seat", "seat_name", default=None,
              help="The player who would declare [default: the record's declarer].")
@click.option("--worlds", type=WORLDS, default=100, show_default=True,
              help="Worlds sampled (the other hands), 1 to 20,000; all: every deal (at most 20,000).")
@click.option("--json", "json_out", is_flag=True,
              help='One JSON object: {"contracts": [{"contract", "mean", "stderr", "p61", "p91", "pschwarz", '
                   '"pwin", "payment", ...}, ..., {"contract": "pass", "payment": 0}, ...], "decision", ...}, best '
                   'first.')
@click.option("--skat-taken", is_flag=True,
              help="Skat: after the skat is taken (the record's skat known), every contract with its best discard. "
                   "Default: before, every contract as a hand game and with the skat taken, the skat unseen.")
@_sampling_options
@input_errors
def choose(file: str, seat_name: str | None, worlds: int | str, json_out: bool, skat_taken: bool, seed: int,
           jobs: int | None, by: str, german: bool, notation: str | None, html_out: str | None,
           inference: str) -> None:
    """Game choice: the expected payment of every contract the hand may declare against passing (worth 0).
    Schafkopf: sauspiel on each callable ace, solos, wenz, geier, farbwenz, farbgeier, their tout forms, sie.
    Skat: grand, the suit games, null and null ouvert, as hand games and with the skat taken (--skat-taken: the
    skat known), each counting the bid."""
    from .. import commands
    from ..render.choices import choose_html, render_choose

    _choice_command(file, commands.choose, choose_html, render_choose, json_out=json_out, notation=notation,
                    html_out=html_out, unit="worlds", seat_name=seat_name, worlds=worlds, seed=seed, jobs=jobs,
                    by=by, german=german, inference=inference, **({"skat_taken": True} if skat_taken else {}))
