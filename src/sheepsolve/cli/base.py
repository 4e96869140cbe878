"""The command line's shared parts: the group ``main``, one-line input errors, the options and helpers every family
uses."""

from __future__ import annotations

import functools
import gc
import os
import re
import sys
import time
from collections.abc import Sequence
from typing import Any, Callable

import click

from .. import __version__
from ..cards import NOTATIONS, CardError, card_style as _card_style, format_card, use_color
from ..commands import in_record_words
from ..games import GameError
from ..record import Record, RecordError, load_record
from ..engine import RulesError
from ..files import FileError, about_file, clip, write_output_atomically
from ..memory import memory_message
from ..signals import INTERRUPTED_STATUS, Terminated
from ..solver import SolverError
from ..player.options import MAX_SEED

__all__ = ["main"]


class _Digits:
    """A whole number option read only from the digits 0-9 (docs: README "Limits"): ``int()`` also reads other
    scripts' digits (``٣``, full-width ``３``), which were taken silently."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not re.fullmatch(r"\s*[+-]?[0-9]+\s*", value):
            self.fail(f"{clip(repr(value))} is not a whole number written in the digits 0-9", param, ctx)
        return super().convert(value, param, ctx)  # type: ignore[misc]


class DigitsInt(_Digits, click.types.IntParamType):
    """``type=int`` read only from the digits 0-9."""


class DigitsIntRange(_Digits, click.IntRange):
    """``click.IntRange`` read only from the digits 0-9."""


#: ``--seed`` of every sampling command and of puzzle generate: 0 to 2**63 - 1 (player.options.MAX_SEED).
SEED = DigitsIntRange(0, MAX_SEED)


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
            return translated(*args, **kwargs)
        except MemoryError as e:  # a ulimit -v, a small machine: what was asked for, and how to ask for less
            error = e
        # Out of the handler, and with the traceback dropped, the frames that filled the memory are let go before
        # the message is built: built inside it, the message itself could run out of memory.
        error.__traceback__ = error.__context__ = error.__cause__ = None
        gc.collect()
        raise InputError(memory_message(error, kwargs)) from None

    def translated(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except FileError as e:  # names its own file (an output file, say)
            raise InputError(str(e)) from None
        except (RecordError, GameError, CardError, RulesError, SolverError) as e:
            # named as the record writes its cards, led by the file
            raise InputError(about_file(in_record_words(str(e), kwargs.get("file")), kwargs.get("file"))) from None
        except Terminated as e:
            # SIGTERM or SIGHUP while worker processes ran: they are stopped; end as the signal would, without a
            # traceback
            sys.exit(e.status)
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


INFERENCE_HELP = ("auction: weigh each world by what the auction says of the hands (the model of the calls: "
                  "docs/RULES.md, \"Weighted worlds\"); none: every world alike (the uniform answers).")


def inference_option(fn: Callable) -> Callable:
    return click.option("--inference", type=click.Choice(["auction", "none"]), default="auction",
                        show_default=True, help=INFERENCE_HELP)(fn)


CONSTRAIN_HELP = ('What you believe of another hand, kept as a hard constraint on the worlds (repeatable): '
                  '"Sepp: trumps >= 5", "Resi: has EO", "Hias: hearts == 0", "Vroni: ober + unter <= 1" '
                  '(docs/RULES.md, "What the player believes").')


def constrain_option(fn: Callable) -> Callable:
    return click.option("--constrain", "constrain", multiple=True, metavar="\"SEAT: CONDITION\"",
                        help=CONSTRAIN_HELP)(fn)


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
                             "Schafkopf games, french for Sheepshead and Skat]. JSON always uses ASCII.")(fn)


def text_style(notation: str | None, game: Any) -> str:
    """The card style of terminal text: the reader's notation or the game family's, colored on a terminal."""
    return _card_style(notation, game.family, color=use_color())


def page_style(notation: str | None, game: Any) -> str:
    """The card style of an HTML page (never ANSI-colored)."""
    return _card_style(notation, game.family)


def write_report(path: str, text: str, inputs: Sequence[str] = (), *, err: bool = True) -> None:
    """Write an HTML report to ``path`` at once (never over one of ``inputs``) and say so (on standard error)."""
    write_output_atomically(path, text, inputs=inputs, label="--html", page=True)
    click.echo(f"wrote {clip(path, 200)}", err=err)


@click.group(cls=_OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=__version__, package_name="sheepsolve")
def main() -> None:
    """sheepsolve: double-dummy solver and hand analyzer for Sheepshead and Schafkopf.

    Hand records and every command's JSON output: docs/RECORD-FORMAT.md. The games, their defaults and the
    [rules] switches: docs/RULES.md (and `sheepsolve games`).
    """


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


class Progress:
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

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
