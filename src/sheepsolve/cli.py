"""The command line: a thin wrapper over the library.

Bad input (a record that does not parse or breaks the rules, an unknown game, a missing file) prints one line
``error: ...`` naming what is wrong and exits with status 2, never a traceback.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import time
from collections.abc import Sequence
from typing import Any, Callable

import click

from .cards import NOTATIONS, CardError, card_style as _card_style, format_card, use_color
from .games import RULE_SWITCHES, GameError, list_games, PRESETS
from .record import Record, RecordError, load_record
from .engine import RulesError
from .files import FileError, about_file, check_output_path, clip, write_output_atomically
from .memory import memory_message
from .signals import INTERRUPTED_STATUS, Terminated
from .solver import DEFAULT_TABLE_MIB, SolverError
from .player.options import MAX_SEED
from .batch import MAX_CHUNK_SIZE

__all__ = ["main"]


#: ``--seed`` of every sampling command and of puzzle generate: 0 to 2**63 - 1 (player.options.MAX_SEED).
SEED = click.IntRange(0, MAX_SEED)

#: The longest error line printed (a safety net: the values a message echoes are clipped where it is made).
MAX_ERROR_LENGTH = 2000


class InputError(click.ClickException):
    exit_code = 2

    def show(self, file: Any = None) -> None:
        # one line whatever the message holds: control characters escaped, the length bounded
        click.echo(f"error: {clip(self.format_message(), MAX_ERROR_LENGTH)}", err=True)


def _usage_error(e: click.UsageError) -> InputError:
    """Click's own complaint (an unknown option, a value out of range, a folder given as FILE) as one
    ``error:`` line naming the command whose help explains it."""
    where = f" (see `{e.ctx.command_path} --help`)" if e.ctx is not None else ""
    return InputError(f"{e.format_message().rstrip('.')}{where}")


class _OneLineErrors(click.Group):
    """A group whose commands report click's usage errors as one ``error: ...`` line with exit status 2, like
    every other error, instead of click's usage block."""

    group_class = type  # sub-groups (puzzle) are of this class too

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        try:
            return super().make_context(*args, **kwargs)
        except click.UsageError as e:
            if type(e).__name__ == "NoArgsIsHelpError":  # click >= 8.2: the help, as asked
                raise
            raise _usage_error(e) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as e:
            if type(e).__name__ == "NoArgsIsHelpError":
                raise
            raise _usage_error(e) from None
        except KeyboardInterrupt:
            # Ctrl-C (SIGINT): worker processes are stopped on the way out (signals.py); end with the status a
            # shell gives a process the signal ended, not click's "Aborted!" and 1 (a batch with bad records)
            sys.exit(INTERRUPTED_STATUS)


def input_errors(fn: Callable) -> Callable:
    """Turn every bad-input exception into ``error: ...`` and exit status 2."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except FileError as e:  # names its own file (an output file, say)
            raise InputError(str(e)) from None
        except (RecordError, GameError, CardError, RulesError, SolverError) as e:
            raise InputError(about_file(str(e), kwargs.get("file"))) from None
        except Terminated as e:
            # SIGTERM or SIGHUP while worker processes ran: they are stopped; end as the signal would, without a
            # traceback
            sys.exit(e.status)
        except MemoryError as e:  # a ulimit -v, a small machine: what was asked for, and how to ask for less
            raise InputError(memory_message(e, kwargs)) from None
        except BrokenPipeError:
            # the reader went away (``sheepsolve ... | head``): not bad input; stop quietly
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(1)
        except OSError as e:
            where = f"{e.filename}: " if e.filename else ""
            raise InputError(f"{where}{e.strerror or e}") from None

    return wrapper


GERMAN_HELP = "Not needed: German card names (EO, Herz-Sau) are always read; kept for old scripts."


def read_record(path: str, german: bool = False) -> Record:
    return load_record(path, german=german)


def fmt(card, style: str) -> str:
    return format_card(card, style)


# --------------------------------------------------------------------------------------------------------------
# Card notation (--cards) and HTML reports (--html), shared by every command that shows cards.


def cards_option(fn: Callable) -> Callable:
    """``--cards german|french|ascii``: the notation of text and HTML (JSON is always canonical ASCII)."""
    return click.option("--cards", "notation", type=click.Choice(NOTATIONS), default=None,
                        help="Card notation of text and HTML: german (Eichel, Gras, Herz, Schellen; Ober, Unter, "
                             "Sau), french (clubs, spades, hearts, diamonds) or ascii (QC, TS) [default: german for "
                             "Schafkopf games, french for Sheepshead]. JSON always uses ASCII.")(fn)


def text_style(notation: str | None, game: Any) -> str:
    """The card style of terminal text: the reader's notation or the game family's, colored on a terminal."""
    return _card_style(notation, game.family, color=use_color())


def page_style(notation: str | None, game: Any) -> str:
    """The card style of an HTML page (never ANSI-colored)."""
    return _card_style(notation, game.family)


def write_report(path: str, text: str, inputs: Sequence[str] = (), *, err: bool = True) -> None:
    """Write an HTML report to ``path`` at once (never over one of ``inputs``) and say so (on standard error)."""
    write_output_atomically(path, text, inputs=inputs, label="--html")
    click.echo(f"wrote {clip(path, 200)}", err=err)


@click.group(cls=_OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sheepsolve")
def main() -> None:
    """sheepsolve: double-dummy solver and hand analyzer for Sheepshead and Schafkopf.

    Hand records and every command's JSON output: docs/RECORD-FORMAT.md. The games, their defaults and the
    [rules] switches: docs/RULES.md (and `sheepsolve games`).
    """


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
    from .render.games import render_games

    click.echo(render_games(data, switches, PRESETS, notation=notation, color=use_color()), nl=False)


# --------------------------------------------------------------------------------------------------------------
@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "json_out", is_flag=True, help="One JSON object (every field: docs/RECORD-FORMAT.md).")
@click.option("--seat", "seat_name", default=None, help="Ramsch and leaster: the player solved for.")
@click.option("--target", type=int, default=None,
              help="Only answer whether the value reaches TARGET (e.g. 61, 91): faster than the exact value.")
@click.option("--all-tricks", is_flag=True, help="Only answer whether the side can take every trick.")
@click.option("--no-tricks", is_flag=True,
              help="Only answer whether the side is held to no trick at all (the others take every trick).")
@click.option("--tricks", "trick_objective", is_flag=True, help="Count tricks instead of card points.")
@click.option("--no-line", is_flag=True, help="Skip the best line of play.")
@click.option("--table-mib", type=click.IntRange(1, 256), default=DEFAULT_TABLE_MIB, show_default=True,
              help="Memory of the solver's tables (transpositions and shapes). Small tables stay in the "
                   "processor's cache and are faster; more only helps very long searches.")
@click.option("--german", is_flag=True, help=GERMAN_HELP)
@cards_option
@input_errors
def solve(file: str, json_out: bool, seat_name: str | None, target: int | None, all_tricks: bool, no_tricks: bool,
          trick_objective: bool, no_line: bool, table_mib: int, german: bool, notation: str | None) -> None:
    """Solve the position after the record's last card, double dummy."""
    from . import commands

    answer, res = commands.solve(commands.Source.file(file), seat_name=seat_name, target=target,
                                 all_tricks=all_tricks, no_tricks=no_tricks, trick_objective=trick_objective,
                                 no_line=no_line, table_mib=table_mib, german=german)
    if json_out:
        click.echo(json.dumps(res, indent=2))
        return
    from .render.solve import render_solve

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
    from . import commands
    from .render import render

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
@click.option("--min-cost", type=click.IntRange(0, 120), default=None, metavar="N",
              help="Show only decisions that cost at least N points, 0 to 120 (and every one that changed the "
                   "result).")
@click.option("--no-bury", is_flag=True, help="Do not judge the bury and the call (the slow part in 3- and 4-hand).")
@click.option("--table-mib", type=click.IntRange(1, 256), default=DEFAULT_TABLE_MIB, show_default=True,
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
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help="With --view player: worker processes [default: every core]; the answer is the same.")
@click.option("--race/--no-race", default=None,
              help="With --view player: racing [default: on]: the worlds solved in rounds (of 100: 20, 40, 100), "
                   "a card clearly worse than the best no longer solved after a round; --no-race: every card in "
                   "every world.")
@cards_option
@input_errors
def annotate(file: str, json_out: bool, html_out: str | None, min_cost: int | None, no_bury: bool, table_mib: int,
             german: bool, view_kind: str | None, worlds_text: str | None, seed: int | None, jobs: int | None,
             race: bool | None, notation: str | None) -> None:
    """Post-mortem of a played hand: every decision judged double dummy (value of every legal card, the cost of
    the card played, result swings), the bury and the call, and a summary per player.

    Marks: ? cost points, ?? changed the result. Needs every hand (those the play determines may be left out);
    an unfinished hand is annotated as far as it goes.
    """
    from . import commands
    from .render.annotate import render_html, render_text

    if html_out is not None:
        check_output_path(html_out, inputs=[file], label="--html")
    with _Progress("worlds") as progress:
        ann, data = commands.annotate(commands.Source.file(file), min_cost=min_cost, no_bury=no_bury,
                                      table_mib=table_mib, german=german, view_kind=view_kind, worlds_text=worlds_text,
                                      seed=seed, jobs=jobs, race=race,
                                      progress=progress if view_kind else None)
    if html_out is not None:
        write_report(html_out, render_html(ann, page_style(notation, ann.game), min_cost=min_cost, source=file),
                     inputs=[file])
    if json_out:
        click.echo(json.dumps(data, indent=2))
        return
    click.echo(render_text(ann, text_style(notation, ann.game), color=use_color(), min_cost=min_cost), nl=False)


# --------------------------------------------------------------------------------------------------------------
@main.group()
def puzzle() -> None:
    """Double-dummy puzzles: generate, check and show them."""


@puzzle.command("generate")
@click.option("--game", "game_name", required=True,
              help="The game (see `sheepsolve games`); it needs a declaring side.")
@click.option("--trump", default=None, help="Trump suit of solo, farbwenz, farbgeier: C, S, H or D.")
@click.option("--partner", default=None, help="Sheepshead partner rule: jack-of-diamonds, called-ace or alone.")
@click.option("--deck", type=click.Choice(["long", "short"]), default=None, help="Schafkopf deck.")
@click.option("--tout", is_flag=True, help="A tout (the goal is then every trick).")
@click.option("--cards-left", type=int, required=True, help="Cards in each hand when the puzzle's trick starts.")
@click.option("--count", type=click.IntRange(1, 1000), default=10, show_default=True, help="Puzzles to find.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="The same seed gives the same puzzles.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), required=True, help="Directory for the files.")
@click.option("--goal", "goals", multiple=True,
              help="A points threshold (61, 91, 31, ...), all-tricks or max; repeat for several, tried in order "
                   "(default: 61, 91, all-tricks, 31, max).")
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

    from .games import make_game
    from .puzzle import generate

    if not out_dir.strip():
        raise InputError("--out: the folder name is empty")
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


@puzzle.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@cards_option
@input_errors
def puzzle_check(files: tuple[str, ...], notation: str | None) -> None:
    """Prove each puzzle's solution right and unique and its refutations sound; exit 1 with the reasons if not."""
    from .puzzle import check_puzzle, puzzle_from_record

    bad = 0
    for file in files:
        p = puzzle_from_record(read_record(file))
        res = check_puzzle(p)
        if res.ok:
            style = text_style(notation, p.record.game)
            click.echo(f"{clip(file, 200)}: ok ({p.to_move} plays {' '.join(format_card(c, style) for c in p.solution)}; "
                       f"{len(p.refutations)} wrong card{'s' if len(p.refutations) != 1 else ''} refuted)")
        else:
            bad += 1
            click.echo(f"{clip(file, 200)}: not a sound puzzle")
            for r in res.reasons:
                click.echo(f"  - {r}")
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
    from .puzzle import puzzle_from_record
    from .render.puzzle import render_html, render_text

    if html_out is not None:
        check_output_path(html_out, inputs=files, label="--html")
    ps = [puzzle_from_record(read_record(file)) for file in files]
    if html_out is not None:
        style = page_style(notation, ps[0].state.game) if notation else None  # None: each puzzle its game's cards
        write_report(html_out, render_html(ps, reveal=reveal, style=style), inputs=files, err=False)
        return
    for i, p in enumerate(ps):
        if len(ps) > 1:
            click.echo(("\n" if i else "") + f"Puzzle {i + 1} of {len(ps)} ({clip(files[i], 200)})")
        click.echo(render_text(p, reveal=reveal, style=text_style(notation, p.state.game)), nl=False)


# --------------------------------------------------------------------------------------------------------------
# Choices before the first lead: bury, pick, choose (library: bury.py).


ESTIMATE_AFTER_SECONDS = 10.0
"""A run whose time left is estimated beyond this gets the estimate printed (once, on standard error)."""
FIRST_WORLDS_SECONDS = 2.0
"""The estimate is made once this long has passed with some units done (or a hundredth of them is done)."""


def duration_text(seconds: float) -> str:
    """A duration as a reader takes it in: ``45 s``, ``27 min``, ``1 h 14 min``.

    >>> duration_text(44.6), duration_text(27 * 60 + 10), duration_text(74 * 60)
    ('45 s', '27 min', '1 h 14 min')
    """
    if seconds < 90:
        return f"{max(1, round(seconds))} s"
    minutes = round(seconds / 60)
    return f"{minutes} min" if minutes < 60 else f"{minutes // 60} h {minutes % 60} min"


class _Progress:
    """Progress of a long sampling run on standard error: once the first units are done, one line with the time
    left when it is over :data:`ESTIMATE_AFTER_SECONDS` (printed whether or not standard error is a terminal, so
    a log shows it too; ``estimate``: only bury, pick and choose, the runs of up to an hour, ask for it), and on
    a terminal a progress bar showing the time left."""

    def __init__(self, label: str, clock: Callable[[], float] = time.monotonic, *, estimate: bool = False) -> None:
        self.label = label
        self.estimate = estimate
        self.bar: Any = None
        self.on = sys.stderr.isatty()
        self.clock = clock
        self.start: tuple[float, int] | None = None  # (when, units done) at the first call
        self.told = False

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        if self.start is None:
            self.start = (now, done)
        self._estimate(done, total, now)
        if not self.on:
            return
        if self.bar is None:
            self.bar = click.progressbar(length=total, label=self.label, file=sys.stderr, show_eta=True,
                                         show_percent=True)
            self.bar.__enter__()
        self.bar.update(done - self.bar.pos)

    def _estimate(self, done: int, total: int, now: float) -> None:
        assert self.start is not None
        t0, done0 = self.start
        ran, spent = done - done0, now - t0
        if self.told or not self.estimate or ran <= 0 or done >= total:
            return
        if spent < FIRST_WORLDS_SECONDS and ran < max(1, total // 100):
            return
        self.told = True
        left = spent / ran * (total - done)
        if left >= ESTIMATE_AFTER_SECONDS:
            lead = "\n" if self.bar is not None else ""
            click.echo(f"{lead}{self.label}: about {duration_text(left)} left ({done:,} of {total:,} done in "
                       f"{duration_text(spent)})", err=True)

    def __enter__(self) -> "_Progress":
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)


class _WorldsType(click.ParamType):
    """``--worlds`` of bury, pick and choose: a number of worlds (1 or more) or ``all`` (every deal of the unseen
    cards, exactly; refused above the cap with the count)."""

    name = "N|all"

    def convert(self, value: Any, param: Any, ctx: Any) -> int | str:
        from .player.options import parse_worlds
        from .worlds import WorldsError

        if value == "all" or (isinstance(value, int) and not isinstance(value, bool)):
            return value
        try:
            return parse_worlds(value)
        except WorldsError as e:
            self.fail(str(e).removeprefix("--worlds: "), param, ctx)


WORLDS = _WorldsType()


def _sampling_options(fn: Callable) -> Callable:
    fn = cards_option(fn)
    fn = click.option("--html", "html_out", type=click.Path(dir_okay=False), default=None, metavar="OUT",
                      help="Also write a self-contained HTML report to OUT (the table, and charts of the "
                           "points over the worlds).")(fn)
    fn = click.option("--german", is_flag=True, help=GERMAN_HELP)(fn)
    fn = click.option("--by", type=click.Choice(["payment", "points"]), default="payment", show_default=True,
                      help="Rank by the declarer's own payment (then points), or by points (then payment).")(fn)
    fn = click.option("--jobs", type=click.IntRange(min=1), default=None,
                      help="Worker processes [default: every core; never more than the cores this process may use]; "
                           "the answer for a seed is the same.")(fn)
    fn = click.option("--seed", type=SEED, default=0, show_default=True,
                      help="World i is dealt from (seed, i): the same seed gives the same answer.")(fn)
    return fn


def _choice_command(file: str, compute: Callable[..., Any], page: Callable[..., str], render_text: Callable[..., str],
                    *, json_out: bool, notation: str | None, html_out: str | None, unit: str, **options: Any) -> None:
    """What bury, pick and choose share: refuse a bad --html OUT before any work, compute with a progress bar
    over ``unit``, write the page, then print the JSON or the text."""
    from . import commands

    if html_out is not None:
        check_output_path(html_out, inputs=[file], label="--html")
    with _Progress(unit, estimate=True) as progress:
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
         german: bool, notation: str | None, html_out: str | None) -> None:
    """Rank every legal bury (and call, and card under) of the record's pick, best first.

    Double dummy on the actual deal, or from the picker's view: the unseen cards dealt at random, every choice
    solved in the same worlds (mean points ± standard error, P(61+), P(91+), P(schwarz), expected payment).
    Payments are the picker's own.
    """
    from . import commands
    from .render.choices import bury_html, render_bury

    _choice_command(file, commands.bury, bury_html, render_bury, json_out=json_out, notation=notation,
                    html_out=html_out, unit="solving", view=view, worlds=worlds, seed=seed, jobs=jobs, by=by,
                    german=german)


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
         german: bool, notation: str | None, html_out: str | None) -> None:
    """Pick or pass: the expected payment of picking from this hand against passing (worth 0).

    In each sampled world the picker makes that world's best double-dummy bury and call.
    """
    from . import commands
    from .render.choices import pick_html, render_pick

    _choice_command(file, commands.pick, pick_html, render_pick, json_out=json_out, notation=notation,
                    html_out=html_out, unit="worlds", seat_name=seat_name, worlds=worlds, seed=seed, jobs=jobs,
                    by=by, german=german)


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
@_sampling_options
@input_errors
def choose(file: str, seat_name: str | None, worlds: int | str, json_out: bool, seed: int, jobs: int | None, by: str,
           german: bool, notation: str | None, html_out: str | None) -> None:
    """Schafkopf game choice: the expected payment of every contract the hand may declare (sauspiel on each
    callable ace, solos, wenz, geier, farbwenz, farbgeier, their tout forms, sie) against passing (worth 0)."""
    from . import commands
    from .render.choices import choose_html, render_choose

    _choice_command(file, commands.choose, choose_html, render_choose, json_out=json_out, notation=notation,
                    html_out=html_out, unit="worlds", seat_name=seat_name, worlds=worlds, seed=seed, jobs=jobs,
                    by=by, german=german)


# --------------------------------------------------------------------------------------------------------------
# The player's view (library: worlds.py, player/).


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--seat", "seat_name", default=None,
              help="The player to judge for [default: the player to move]; must be the one to move.")
@click.option("--worlds", "worlds_text", default="100", show_default=True, metavar="N|all",
              help="Worlds sampled (1 to 20,000), or all: every consistent world, exactly (refused above "
                   "20,000 worlds).")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="World i is dealt from (seed, i): the same seed gives the same answer.")
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help="Worker processes [default: every core]; the answer for a seed is the same.")
@click.option("--no-race", is_flag=True,
              help="Solve every card in every sampled world (by default a card clearly worse than the best is no "
                   "longer solved after 20 worlds; its figures are over the worlds it was solved in).")
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
@cards_option
@input_errors
def suggest(file: str, seat_name: str | None, worlds_text: str, seed: int, jobs: int | None, no_race: bool,
            at: str | None, json_out: bool, german: bool, html_out: str | None, notation: str | None) -> None:
    """What to play from the seat of the player to move: every legal card judged over the worlds of the cards
    that player cannot see (mean points ± standard error, P(61+), P(91+), expected payment), the best card or
    the cards tied within noise, and the double-dummy values beside when every hand is known."""
    from . import commands
    from .render.suggest import render_suggest

    if html_out is not None:
        check_output_path(html_out, inputs=[file], label="--html")
    with _Progress("worlds") as progress:
        res, data = commands.suggest(commands.Source.file(file), seat_name=seat_name, worlds_text=worlds_text,
                                     seed=seed, jobs=jobs, german=german, no_race=no_race, progress=progress,
                                     at=at)
    if html_out is not None:
        from .render.choices import suggest_html

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
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="The port on 127.0.0.1 (0: a free one).")
@click.option("--no-browser", is_flag=True, help="Only print the address (with its token); open no browser.")
@click.option("--worlds", type=click.IntRange(1, 2000), default=100, show_default=True,
              help="Worlds of the player's view and of the engine's every card (as suggest --worlds).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="The worlds' seed (as suggest --seed).")
@click.option("--german", is_flag=True, help="Accept German card names (EO, Herz-Sau, ...) in the record.")
@cards_option
@input_errors
def explore(file: str, seat_name: str | None, port: int, no_browser: bool, worlds: int, seed: int, german: bool,
            notation: str | None) -> None:
    """Explore a hand in the browser: step through it card by card (arrow keys), see every legal card's
    double-dummy value, try other cards in a tree of variations, download a variation as a record, see the
    mover's own view, and play on against the engine. Serves on 127.0.0.1 only, every request with the
    printed token; Ctrl-C stops it."""
    from .explore import Explorer, Settings, serve

    ex = Explorer.open(file, style=notation, german=german)
    seat = None
    if seat_name is not None:
        try:
            seat = ex.record.seat_of(seat_name)
        except RecordError as e:
            raise InputError(f"--seat: {e}") from None
    try:
        serve(ex, port=port, open_browser=not no_browser, settings=Settings(worlds=worlds, seed=seed, seat=seat),
              echo=lambda text: click.echo(text, err=False))
    except OSError as e:
        raise InputError(f"--port {port}: {e.strerror or e}") from None


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
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help="Worker processes [default: every core]; the output is the same whatever the number.")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
              help="Run on this Dask distributed scheduler instead (pip install 'sheepsolve[cluster]').")
@click.option("--chunk-size", type=click.IntRange(1, MAX_CHUNK_SIZE), default=None,
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
    from .batch import BatchError, run_batch

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
    from .render.report import render_html, render_text
    from .report import ReportError, read_report

    if html_out is not None:
        check_output_path(html_out, inputs=[file], label="--html")
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
@click.option("--jobs", type=click.IntRange(min=1), default=None, help="With --suggest: worker processes.")
@click.option("--json", "json_out", is_flag=True, help="With --suggest: suggest's JSON.")
@cards_option
@input_errors
def import_openschafkopf(rules: str, hand: str, table: str, deck: str | None, out: str | None, force: bool,
                         do_suggest: bool, worlds_text: str, seed: int, jobs: int | None, json_out: bool,
                         notation: str | None) -> None:
    """Read a position in openschafkopf's notation and write it as a hand record holding the given hand (the
    other hands unknown), or with --suggest answer from that player's view. The mapping is in
    docs/RECORD-FORMAT.md ("Importing openschafkopf positions")."""
    from . import commands
    from .importers import openschafkopf_position
    from .record import dump_record

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
    from .render.suggest import render_suggest

    with _Progress("worlds") as progress:
        res, res_data = commands.suggest(commands.Source.of_record("openschafkopf position", rec),
                                         worlds_text=worlds_text, seed=seed, jobs=jobs, progress=progress)
    if json_out:
        click.echo(json.dumps(res_data, indent=2))
        return
    click.echo(render_suggest(res, text_style(notation, res.knowledge.game)), nl=False)


if __name__ == "__main__":  # pragma: no cover
    main()
