"""``puzzle generate``, ``puzzle check``, ``puzzle show``."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

import click

from ..cards import SuitError, format_card, in_notation, parse_suit
from ..commands import ANALYSIS_ERRORS, in_record_words
from ..files import FileError, about_file, check_output_path, clip, write_output_atomically
from .base import DigitsInt, DigitsIntRange
from .base import InputError, SEED, cards_option, input_errors, main, page_style, read_record, text_style, write_report

if TYPE_CHECKING:
    from ..puzzle import Puzzle


# --------------------------------------------------------------------------------------------------------------
@main.group()
def puzzle() -> None:
    """Double-dummy puzzles: generate, check and show them."""


@puzzle.command("generate")
@click.option("--game", "game_name", required=True,
              help="The game (see `sheepsolve games`); it needs a declaring side.")
@click.option("--trump", default=None,
              help="Trump suit of solo, farbwenz, farbgeier: its name in either notation (Eichel, Gras, Herz, "
                   "Schellen; clubs, spades, hearts, diamonds) or a letter (E G C H D; S alone is refused: "
                   "Schellen or spades?).")
@click.option("--partner", default=None, help="Sheepshead partner rule: jack-of-diamonds, called-ace or alone.")
@click.option("--deck", type=click.Choice(["long", "short"]), default=None, help="Schafkopf deck.")
@click.option("--tout", is_flag=True, help="A tout (the goal is then every trick).")
@click.option("--cards-left", type=DigitsInt(), required=True,
              help="Cards in each hand when the puzzle's trick starts.")
@click.option("--count", type=DigitsIntRange(1, 1000), default=10, show_default=True, help="Puzzles to find.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="The same seed gives the same puzzles.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), required=True, help="Directory for the files.")
@click.option("--goal", "goals", multiple=True,
              help="A points threshold (61, 91, 31, ...), all-tricks or max; repeat for several, tried in order "
                   "(default: 61, 91 (in Skat 90), all-tricks, 31, max). Null and Bettel: no-trick (the declarer takes no "
                   "trick), their only goal.")
@click.option("--play", "mode", type=click.Choice(["heuristic", "solver"]), default="heuristic", show_default=True,
              help="How the deal is played up to the puzzle: a rule-of-thumb player, or double-dummy best cards.")
@click.option("--position", type=click.Choice(["any", "lead", "follow"]), default="any", show_default=True,
              help="Whether the player to move leads or follows.")
@click.option("--min-difficulty", type=click.Choice(["easy", "medium", "hard"]), default="easy", show_default=True)
@click.option("--force", is_flag=True, help="Overwrite puzzle files of the same names in the folder.")
@input_errors
def puzzle_generate(game_name: str, trump: str | None, partner: str | None, deck: str | None, tout: bool,
                    cards_left: int, count: int, seed: int, out_dir: str, goals: tuple[str, ...], mode: str,
                    position: str, min_difficulty: str, force: bool) -> None:
    """Find COUNT puzzles in seeded deals and write each as a hand record with a [puzzle] table."""
    import os

    from ..games import make_game
    from ..puzzle import generate

    if not out_dir.strip():
        raise InputError("--out: the folder name is empty")
    if trump is not None:
        try:  # no record's cards decide here: S alone (Schellen or spades?) is refused, asking for the word
            trump = parse_suit(trump)
        except SuitError as e:
            raise InputError(f"--trump: {e}") from None
    game = make_game(game_name, trump=trump, deck=deck, tout=tout or None, partner=partner)
    slug = "-".join([game.name] + ([game.trump_suit.lower()] if game.trump_suit else [])
                    + ([game.partner] if game.name == "sheepshead" else []) + (["tout"] if game.tout else []))
    paths = [os.path.join(out_dir, f"{slug}-s{seed}-{i:02d}.toml") for i in range(1, count + 1)]
    taken = [path for path in paths if os.path.lexists(path)]
    if taken and not force:
        more = f" (and {len(taken) - 1} more of the names this run writes)" if len(taken) > 1 else ""
        raise InputError(f"--out: {clip(taken[0], 200)} already exists{more}; pass --force to overwrite, or choose "
                         "another folder or --seed")
    found = generate(game, cards_left=cards_left, count=count, seed=seed, goals=list(goals) or None, mode=mode,
                     position=position, min_difficulty=min_difficulty)
    os.makedirs(out_dir, exist_ok=True)
    for path, p in zip(paths, found):
        write_output_atomically(path, p.dumps(), label="--out")
        click.echo(f"{path}: goal {p.goal}, {p.to_move} to move, {p.difficulty}")
    if len(found) < count:
        click.echo(f"only {len(found)} of {count} puzzles found", err=True)
        sys.exit(1)


@contextlib.contextmanager
def _about(file: str) -> Iterator[None]:
    """An error about one of several puzzle files starts with that file and names its cards as the file does."""
    try:
        yield
    except FileError:
        raise
    except ANALYSIS_ERRORS as e:
        raise InputError(about_file(in_record_words(str(e), file), file)) from None


def _puzzle(file: str) -> Puzzle:
    """The puzzle of the record ``file``, its errors led by the file."""
    from ..puzzle import puzzle_from_record

    with _about(file):
        return puzzle_from_record(read_record(file))


@puzzle.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@cards_option
@input_errors
def puzzle_check(files: tuple[str, ...], notation: str | None) -> None:
    """Prove each puzzle's solution right and unique and its refutations sound; exit 1 with the reasons if not."""
    from ..puzzle import check_puzzle

    bad = 0
    for file in files:
        p = _puzzle(file)
        with _about(file):
            res = check_puzzle(p)
        if res.ok:
            style = text_style(notation, p.record.game)
            click.echo(f"{clip(file, 200)}: ok ({p.to_move} plays {' '.join(format_card(c, style) for c in p.solution)}; "
                       f"{len(p.refutations)} wrong card{'s' if len(p.refutations) != 1 else ''} refuted)")
        else:
            bad += 1
            click.echo(f"{clip(file, 200)}: not a sound puzzle")
            for r in res.reasons:  # cards named as the record writes them, as its errors are
                click.echo(f"  - {in_notation(r, p.record.notation)}")
    if bad:
        sys.exit(1)


@puzzle.command("show")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--html", "html_out", type=click.Path(dir_okay=False), default=None, metavar="OUT",
              help="Write one self-contained HTML page to OUT instead of printing text: the reader clicks a card; "
                   "a wrong one shows its refutation, the right one the winning line. Several puzzles make one "
                   "booklet with a score.")
@click.option("--reveal", is_flag=True, help="Show the answer and the refutations (open on the page).")
@cards_option
@input_errors
def puzzle_show(files: tuple[str, ...], html_out: str | None, reveal: bool, notation: str | None) -> None:
    """Present puzzles: hands, the trick so far, who is to move and the goal; the answer hidden unless --reveal."""
    from ..render.puzzle import render_html, render_text

    if html_out is not None:
        check_output_path(html_out, inputs=files, label="--html", page=True)
    ps = [_puzzle(file) for file in files]
    if html_out is not None:
        style = page_style(notation, ps[0].state.game) if notation else None  # None: each puzzle its game's cards
        write_report(html_out, render_html(ps, reveal=reveal, style=style), inputs=files, err=False)
        return
    for i, p in enumerate(ps):
        if len(ps) > 1:
            click.echo(("\n" if i else "") + f"Puzzle {i + 1} of {len(ps)} ({clip(files[i], 200)})")
        click.echo(render_text(p, reveal=reveal, style=text_style(notation, p.state.game)), nl=False)
