"""One hand record: ``games``, ``show``, ``solve``, ``annotate``."""

from __future__ import annotations

import json

import click

from ..cards import use_color
from ..games import RULE_SWITCHES, list_games, PRESETS
from ..files import check_output_path
from ..player.solve import RACE_MIN_HAND, RACE_MIN_HAND_EACH_FOR_HIMSELF
from ..solver import DEFAULT_TABLE_MIB
from .base import DigitsInt, DigitsIntRange
from .base import (GERMAN_HELP, INFERENCE_HELP, Progress, SEED, cards_option, constrain_option, input_errors, main,
                   page_style, text_style, write_report)


# --------------------------------------------------------------------------------------------------------------
@main.command()
@click.option("--json", "json_out", is_flag=True, help="Machine-readable output.")
@cards_option
def games(json_out: bool, notation: str | None) -> None:
    """List every game with its trump order, deal sizes and rule switches."""
    data = list_games()
    switches = [{"name": s.name, "default": s.default, "family": s.family, "choices": list(s.choices or []),
                 "doc": s.doc} for s in RULE_SWITCHES.values()]
    if json_out:
        click.echo(json.dumps({"games": data, "switches": switches, "presets": PRESETS}, indent=2))
        return
    from ..render.games import render_games

    click.echo(render_games(data, switches, PRESETS, notation=notation, color=use_color()), nl=False)


# --------------------------------------------------------------------------------------------------------------
@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "json_out", is_flag=True, help="One JSON object (every field: docs/RECORD-FORMAT.md).")
@click.option("--seat", "seat_name", default=None, help="Ramsch and leaster: the player solved for.")
@click.option("--target", type=DigitsInt(), default=None,
              help="Only answer whether the value reaches TARGET (e.g. 61, 91): faster than the exact value.")
@click.option("--all-tricks", is_flag=True, help="Only answer whether the side can take every trick.")
@click.option("--no-tricks", is_flag=True,
              help="Only answer whether the side is held to no trick at all (the others take every trick).")
@click.option("--tricks", "trick_objective", is_flag=True, help="Count tricks instead of card points.")
@click.option("--no-line", is_flag=True, help="Skip the best line of play.")
@click.option("--table-mib", type=DigitsIntRange(1, 256), default=DEFAULT_TABLE_MIB, show_default=True,
              help="Memory of the solver's tables (transpositions and shapes). Small tables stay in the "
                   "processor's cache and are faster; more only helps very long searches.")
@click.option("--german", is_flag=True, help=GERMAN_HELP)
@cards_option
@input_errors
def solve(file: str, json_out: bool, seat_name: str | None, target: int | None, all_tricks: bool, no_tricks: bool,
          trick_objective: bool, no_line: bool, table_mib: int, german: bool, notation: str | None) -> None:
    """Solve the position after the record's last card, double dummy."""
    from .. import commands

    answer, res = commands.solve(commands.Source.file(file), seat_name=seat_name, target=target,
                                 all_tricks=all_tricks, no_tricks=no_tricks, trick_objective=trick_objective,
                                 no_line=no_line, table_mib=table_mib, german=german)
    if json_out:
        click.echo(json.dumps(res, indent=2))
        return
    from ..render.solve import render_solve

    click.echo(render_solve(answer, text_style(notation, answer.game), tricks=trick_objective), nl=False)


# --------------------------------------------------------------------------------------------------------------
@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "json_out", is_flag=True,
              help="One JSON object: points, side_points, tricks, outcome, payments, to_move, legal, "
                   "tricks_played, ...")
@click.option("--german", is_flag=True, help=GERMAN_HELP)
@cards_option
@input_errors
def show(file: str, json_out: bool, german: bool, notation: str | None) -> None:
    """Show a hand: the deal, every trick, running points, and the result or the player to move.

    Works on records with unknown hands too: what the record gives is shown, and what is missing is named.
    """
    from .. import commands
    from ..render import render

    view, data = commands.show(commands.Source.file(file), german=german)
    if json_out:
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    click.echo(render(view, text_style(notation, view.record.game)), nl=False)


# --------------------------------------------------------------------------------------------------------------
@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "json_out", is_flag=True,
              help="One JSON object: decisions (trick, player, card, legal, values, best, cost, swing, forced), "
                   "bury, summary.")
@click.option("--html", "html_out", type=click.Path(dir_okay=False), default=None, metavar="OUT",
              help="Also write a self-contained HTML report (hands, every trick, errors highlighted) to OUT.")
@click.option("--min-cost", type=DigitsIntRange(0, 120), default=None, metavar="N",
              help="Show only decisions that cost at least N points, 0 to 120 (and every one that changed the "
                   "result).")
@click.option("--no-bury", is_flag=True, help="Do not judge the bury and the call (the slow part in 3- and 4-hand).")
@click.option("--table-mib", type=DigitsIntRange(1, 256), default=DEFAULT_TABLE_MIB, show_default=True,
              help="Memory of the solver's tables (transpositions and shapes). Small tables stay in the "
                   "processor's cache and are faster; more only helps very long searches.")
@click.option("--german", is_flag=True, help=GERMAN_HELP)
@click.option("--view", "view_kind", type=click.Choice(["player"]), default=None,
              help="player: also judge every decision from the mover's own view at that moment (the unseen cards "
                   "dealt in every way that fits what he saw), with a summary per player (expected loss, loss "
                   "double dummy, luck).")
@click.option("--worlds", "worlds_text", default=None, metavar="N|all",
              help="With --view player: worlds per decision, 1 to 2,000 [default: 100], or all (every "
                   "consistent world, refused above 20,000).")
@click.option("--seed", type=SEED, default=None, help="With --view player: the worlds' seed [default: 0].")
@click.option("--jobs", type=DigitsIntRange(min=1), default=None,
              help="With --view player: worker processes [default: every core]; the answer is the same.")
@click.option("--inference", type=click.Choice(["auction", "none"]), default=None,
              help="With --view player: " + INFERENCE_HELP + " [default: auction]")
@constrain_option
@click.option("--race/--no-race", default=None,
              help="With --view player: racing [default: on]: at a decision whose mover holds "
                   f"{RACE_MIN_HAND} cards or more (Ramsch and leaster {RACE_MIN_HAND_EACH_FOR_HIMSELF}), the worlds "
                   "solved in rounds (of 100: 20, 40, 100), a card clearly worse than the best no longer solved "
                   "after a round; --no-race: every card in every world.")
@cards_option
@input_errors
def annotate(file: str, json_out: bool, html_out: str | None, min_cost: int | None, no_bury: bool, table_mib: int,
             german: bool, view_kind: str | None, worlds_text: str | None, seed: int | None, jobs: int | None,
             race: bool | None, notation: str | None, inference: str | None, constrain: tuple[str, ...]) -> None:
    """Post-mortem of a played hand: every decision judged double dummy (value of every legal card, the cost of
    the card played, result swings), the bury and the call, and a summary per player.

    Marks: ? cost points, ?? changed the result. Needs every hand (those the play determines may be left out);
    an unfinished hand is annotated as far as it goes.
    """
    from .. import commands
    from ..render.annotate import render_html, render_text

    if html_out is not None:
        check_output_path(html_out, inputs=[file], label="--html", page=True)
    with Progress("worlds") as progress:
        ann, data = commands.annotate(commands.Source.file(file), min_cost=min_cost, no_bury=no_bury,
                                      table_mib=table_mib, german=german, view_kind=view_kind, worlds_text=worlds_text,
                                      seed=seed, jobs=jobs, race=race, inference=inference, constrain=constrain,
                                      progress=progress if view_kind else None)
    if html_out is not None:
        write_report(html_out, render_html(ann, page_style(notation, ann.game), min_cost=min_cost, source=file),
                     inputs=[file])
    if json_out:
        click.echo(json.dumps(data, indent=2))
        return
    click.echo(render_text(ann, text_style(notation, ann.game), color=use_color(), min_cost=min_cost), nl=False)
