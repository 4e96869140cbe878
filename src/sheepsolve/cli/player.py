"""The player's view: ``suggest``, ``explore``, ``import openschafkopf``."""

from __future__ import annotations

import json
import os

import click

from ..record import RecordError
from ..files import check_output_path, clip, write_output_atomically
from ..player.solve import RACE_MIN_HAND, RACE_MIN_HAND_EACH_FOR_HIMSELF
from .base import DigitsIntRange
from .base import (GERMAN_HELP, InputError, Progress, SEED, cards_option, constrain_option, inference_option,
                   input_errors, main, page_style, text_style, write_report)


# --------------------------------------------------------------------------------------------------------------
# The player's view (library: worlds/, player/).


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--seat", "seat_name", default=None,
              help="The player to judge for [default: the player to move]; must be the one to move.")
@click.option("--worlds", "worlds_text", default="100", show_default=True, metavar="N|all",
              help="Worlds sampled (1 to 20,000), or all: every consistent world, exactly (refused above "
                   "20,000 worlds).")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="World i is dealt from (seed, i): the same seed gives the same answer.")
@click.option("--jobs", type=DigitsIntRange(min=1), default=None,
              help="Worker processes [default: every core]; the answer for a seed is the same.")
@click.option("--no-race", is_flag=True,
              help="Solve every card in every sampled world (by default, while the player holds "
                   f"{RACE_MIN_HAND} cards or more, in Ramsch and leaster {RACE_MIN_HAND_EACH_FOR_HIMSELF}, a card "
                   "clearly worse than the best is no longer solved after 20 worlds; its figures are over the worlds "
                   "it was solved in).")
@click.option("--at", "at", default=None, metavar="TRICK[.CARD]",
              help="Judge the decision at this point of the record's play instead (3: the lead of trick 3, 3.2: "
                   "its second card), from what its player knew then; the card played there is named with its "
                   "cost in expectation.")
@click.option("--json", "json_out", is_flag=True,
              help='One JSON object: {"seat", "worlds", "exact", "cards": {card: {"mean", "stderr", "p61", "p91", '
                   '"payment", ...}}, "best", "double_dummy", ...}.')
@click.option("--german", is_flag=True, help=GERMAN_HELP)
@click.option("--html", "html_out", type=click.Path(dir_okay=False), default=None, metavar="OUT",
              help="Also write a self-contained HTML report to OUT (every card, and charts of the points over the "
                   "worlds).")
@constrain_option
@inference_option
@click.option("--play-model", is_flag=True,
              help="Also weigh each world by the cards the others played, each by its double-dummy cost there "
                   "(slow: a search per card played and world; docs/TUNING.md).")
@cards_option
@input_errors
def suggest(file: str, seat_name: str | None, worlds_text: str, seed: int, jobs: int | None, no_race: bool,
            at: str | None, json_out: bool, german: bool, html_out: str | None, notation: str | None,
            inference: str, constrain: tuple[str, ...], play_model: bool) -> None:
    """What to play from the seat of the player to move: every legal card judged over the worlds of the cards
    that player cannot see (mean points ± standard error, P(61+), P(91+), expected payment), the best card or
    the cards tied within noise, and the double-dummy values beside when every hand is known."""
    from .. import commands
    from ..render.suggest import render_suggest

    if html_out is not None:
        check_output_path(html_out, inputs=[file], label="--html", page=True)
    with Progress("worlds") as progress:
        res, data = commands.suggest(commands.Source.file(file), seat_name=seat_name, worlds_text=worlds_text,
                                     seed=seed, jobs=jobs, german=german, no_race=no_race, progress=progress,
                                     at=at, inference=inference, constrain=constrain, play_model=play_model)
    if html_out is not None:
        from ..render.suggest import suggest_html

        write_report(html_out, suggest_html(res, page_style(notation, res.knowledge.game)), inputs=[file])
    if json_out:
        click.echo(json.dumps(data, indent=2))
        return
    click.echo(render_suggest(res, text_style(notation, res.knowledge.game)), nl=False)


# --------------------------------------------------------------------------------------------------------------
# A hand in the browser (library: explore/).


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--seat", "seat_name", default=None,
              help="Show the table as this player saw it (the other hands hidden; a switch on the page too).")
@click.option("--port", type=DigitsIntRange(0, 65535), default=0, show_default=True,
              help="The port on 127.0.0.1 (0: a free one).")
@click.option("--no-browser", is_flag=True, help="Only print the address (with its token); open no browser.")
@click.option("--worlds", type=DigitsIntRange(1, 2000), default=100, show_default=True,
              help="Worlds of the player's view and of the engine's every card (as suggest --worlds).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="The worlds' seed (as suggest --seed).")
@click.option("--german", is_flag=True, help="Accept German card names (EO, Herz-Sau, ...) in the record.")
@inference_option
@cards_option
@input_errors
def explore(file: str, seat_name: str | None, port: int, no_browser: bool, worlds: int, seed: int, german: bool,
            notation: str | None, inference: str) -> None:
    """Explore a hand in the browser: step through it card by card (arrow keys), see every legal card's
    double-dummy value, try other cards in a tree of variations, download a variation as a record, see the
    mover's own view, and play on against the engine. Serves on 127.0.0.1 only, every request with the
    printed token; Ctrl-C stops it."""
    from ..explore import Explorer, Settings, serve

    ex = Explorer.open(file, style=notation, german=german)
    seat = None
    if seat_name is not None:
        try:
            seat = ex.record.seat_of(seat_name)
        except RecordError as e:
            raise InputError(f"--seat: {e}") from None
    try:
        serve(ex, port=port, open_browser=not no_browser, settings=Settings(worlds=worlds, seed=seed, seat=seat,
                                                                           inference=inference),
              echo=lambda text: click.echo(text, err=False))
    except OSError as e:
        raise InputError(f"--port {port}: {e.strerror or e}") from None


# --------------------------------------------------------------------------------------------------------------
# Positions from other programs (library: importers.py).


@main.group("import")
def import_group() -> None:
    """Positions written by other programs, as hand records."""


@import_group.command("openschafkopf")
@click.option("--rules", "rules", required=True, metavar="TEXT",
              help='The game as openschafkopf describes it: "rufspiel eichel von 1", "herz-solo von 0", '
                   '"wenz von 0", "gras-wenz tout von 2", "ramsch" (players 0 to 3; 0 leads the first trick).')
@click.option("--hand", "hand", required=True, metavar="CARDS",
              help='The cards the player to move holds now, in openschafkopf\'s notation: suit e g h s, then rank '
                   'a z k o u 9 8 7 ("eo hu sz" is QC JH TD).')
@click.option("--cards-on-table", "table", default="", metavar="CARDS",
              help="Every card played so far, in order from the first lead (same notation).")
@click.option("--deck", type=click.Choice(["long", "short"]), default=None, help="Schafkopf deck [default: long].")
@click.option("--out", "out", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write the record (TOML) to FILE instead of printing it (a FILE that exists only with --force).")
@click.option("--force", is_flag=True, help="With --out: replace FILE when it exists.")
@click.option("--suggest", "do_suggest", is_flag=True,
              help="Answer at once from the player's view (sheepsolve suggest on the record).")
@click.option("--worlds", "worlds_text", default="100", show_default=True, metavar="N|all",
              help="With --suggest: worlds sampled (1 to 20,000), or all.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="With --suggest: the seed of the worlds.")
@click.option("--jobs", type=DigitsIntRange(min=1), default=None, help="With --suggest: worker processes.")
@click.option("--json", "json_out", is_flag=True, help="With --suggest: suggest's JSON.")
@constrain_option
@inference_option
@cards_option
@input_errors
def import_openschafkopf(rules: str, hand: str, table: str, deck: str | None, out: str | None, force: bool,
                         do_suggest: bool, worlds_text: str, seed: int, jobs: int | None, json_out: bool,
                         notation: str | None, inference: str, constrain: tuple[str, ...]) -> None:
    """Read a position in openschafkopf's notation and write it as a hand record holding the given hand (the
    other hands unknown), or with --suggest answer from that player's view. The mapping is in
    docs/RECORD-FORMAT.md ("Importing openschafkopf positions")."""
    from .. import commands
    from ..importers import openschafkopf_position
    from ..record import dump_record

    if out is not None:  # any file, README.md too, was replaced without a word
        check_output_path(out, label="--out")
        if os.path.lexists(out) and not force:
            raise InputError(f"--out: {clip(out, 200)} already exists; pass --force to replace it, or choose another "
                             "name")
    rec = openschafkopf_position(rules, hand, table, deck=deck)
    text = dump_record(rec)
    if out is not None:
        write_output_atomically(out, text, label="--out")
        click.echo(f"wrote {clip(out, 200)}", err=True)
    if not do_suggest:
        if out is None:
            click.echo(text, nl=False)
        return
    from ..render.suggest import render_suggest

    with Progress("worlds") as progress:
        res, res_data = commands.suggest(commands.Source.of_record("openschafkopf position", rec),
                                         worlds_text=worlds_text, seed=seed, jobs=jobs, progress=progress,
                                         inference=inference, constrain=constrain)
    if json_out:
        click.echo(json.dumps(res_data, indent=2))
        return
    click.echo(render_suggest(res, text_style(notation, res.knowledge.game)), nl=False)
