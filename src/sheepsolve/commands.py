"""The analysis commands as functions: what ``sheepsolve COMMAND FILE --json`` prints, as a dict.

The command line (:mod:`sheepsolve.cli`) and the batch runner (:mod:`sheepsolve.batch`) both go through these,
so a batch line's ``result`` is exactly what the command prints with ``--json``. Each function takes a
:class:`Source` (a record file, or a record given as text with a label such as ``season.jsonl:12``) and the
command's options under the names of its click parameters, and returns ``(obj, data)``: the library's answer
(for the text output) and the JSON-ready dict.

Bad input raises the library's errors (:class:`~sheepsolve.record.RecordError`, ``SolverError``, ...), whose
message is what the command prints after ``error:``.

>>> src = Source.text_of("ex.toml", 'game = "wenz"\\ndeclarer = "1"\\nplay = ["JC"]')
>>> _, data = run("show", src)
>>> data["game"], data["to_move"]
('wenz', '2')
>>> try:
...     run("solve", Source.text_of("bad.jsonl:3", '{"game": "wenz"', "json"))
... except Exception as e:
...     print(e)
bad.jsonl:3: JSON syntax error: Expecting ',' delimiter (at line 1, column 16)
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .cards import in_notation
from .files import FileError, clip, read_input_text
from .record import MAX_RECORD_BYTES, Record, RecordError, notation_of_data, parse_data, parse_record

__all__ = ["Source", "COMMANDS", "ANALYSIS_ERRORS", "run", "check_options", "show", "solve", "annotate", "bury", "pick", "choose",
           "suggest", "in_record_words"]


@dataclass(frozen=True)
class Source:
    """Where a record comes from: ``label`` names it in messages (a path, or ``path:LINE``); ``text`` is its
    content (None: read the file ``path`` when needed, with the limits of :mod:`sheepsolve.files`); ``fmt`` is
    ``"toml"`` or ``"json"``; ``given``: the record already read (:meth:`of_record`), used as it is."""

    label: str
    fmt: str = "toml"
    text: str | None = None
    path: str | None = None
    given: Record | None = None

    @classmethod
    def file(cls, path: str | os.PathLike[str]) -> "Source":
        p = os.fspath(path)
        return cls(label=p, fmt="json" if p.lower().endswith(".json") else "toml", path=p)

    @classmethod
    def text_of(cls, label: str, text: str, fmt: str = "toml") -> "Source":
        return cls(label=label, fmt=fmt, text=text)

    @classmethod
    def of_record(cls, label: str, rec: Record) -> "Source":
        """A record already read and checked (its replay kept): the commands take it as it is."""
        return cls(label=label, given=rec)

    def __str__(self) -> str:
        return clip(self.label, 200)

    def read_text(self) -> str:
        if self.text is not None:
            return self.text
        assert self.path is not None
        try:
            return read_input_text(self.path, max_bytes=MAX_RECORD_BYTES)
        except FileError as e:
            raise RecordError(str(e)) from None

    def loaded(self) -> "Source":
        """The same source with its text read (to send it to another process or machine)."""
        if self.text is not None or self.given is not None:
            return self
        return Source(self.label, self.fmt, self.read_text(), self.path)

    def record(self, german: bool = False) -> Record:
        """The record, checked; errors start with the label, as :func:`~sheepsolve.record.load_record`'s."""
        if self.given is not None:
            return self.given
        text = self.read_text()
        try:
            return parse_record(text, self.fmt, german=german)
        except RecordError as e:
            raise RecordError(f"{self}: {e}") from None

    def notation(self) -> str | None:
        """The notation the record's cards are written in (``german`` or ``french``); None when no card tells,
        both are used, or the record cannot be read."""
        if self.given is not None:
            return self.given.notation
        try:
            return notation_of_data(parse_data(self.read_text(), self.fmt))
        except (ValueError, RecursionError):  # RecordError, FileError: the message says what is wrong
            return None


def in_record_words(message: str, src: Source | str | None) -> str:
    """``message``, an error about the record ``src`` (a :class:`Source` or a record file's path), with its cards
    named as the record writes them: a German record's in German cards (:func:`~sheepsolve.cards.in_notation`),
    whichever module found the error. The record's label leading the message, and an option's error (``--at:
    ...``, which may quote the user's words), are left as they are.

    >>> src = Source.text_of("hand.toml", 'game = "wenz"\\ndeclarer = "Resi"\\nplay = ["EO GU"]')
    >>> in_record_words("hand.toml: play: QC is not in Resi's hand", src)
    "hand.toml: play: EO is not in Resi's hand"
    >>> in_record_words("play: 8D does not follow suit C", Source.text_of("x.toml", 'play = ["QC 7D"]'))
    'play: 8D does not follow suit C'
    """
    if src is None or message.startswith("--"):
        return message
    if not isinstance(src, Source):
        src = Source.file(src)
    label = f"{src}: "
    head, rest = (label, message[len(label):]) if message.startswith(label) else ("", message)
    german = in_notation(rest, "german")
    if german == rest or rest.startswith("--") or src.notation() != "german":  # the file read only when it counts
        return message
    return head + german


ProgressFn = Callable[[int, int], None]


def _analysis_errors() -> tuple[type[Exception], ...]:
    from .cards import CardError
    from .engine import RulesError
    from .games import GameError
    from .solver import SolverError

    return (RecordError, GameError, CardError, RulesError, SolverError, FileError)


#: The errors of bad input: the command line prints them as ``error: ...`` (exit 2), a batch as its line's error.
ANALYSIS_ERRORS: tuple[type[Exception], ...] = _analysis_errors()


def show(src: Source, *, german: bool = False) -> tuple[Any, dict[str, Any]]:
    """``sheepsolve show FILE --json`` (the answer: :class:`~sheepsolve.hand.HandFacts`)."""
    from .hand import hand_view

    view = hand_view(src.record(german))
    return view, view.to_dict()


def solve(src: Source, *, seat_name: str | None = None, target: int | None = None, all_tricks: bool = False,
          no_tricks: bool = False, trick_objective: bool = False, no_line: bool = False,
          table_mib: int | None = None, german: bool = False) -> tuple[Any, dict[str, Any]]:
    """``sheepsolve solve FILE --json`` (the answer: :class:`~sheepsolve.analysis.SolveAnswer`)."""
    from .analysis import answer_record
    from .solver import DEFAULT_TABLE_MIB

    answer = answer_record(src.record(german), seat=seat_name, target=target, all_tricks=all_tricks,
                           no_tricks=no_tricks, tricks=trick_objective, line=not no_line,
                           table_mib=table_mib or DEFAULT_TABLE_MIB)
    return answer, answer.to_dict()


def annotate(src: Source, *, min_cost: int | None = None, no_bury: bool = False, table_mib: int | None = None,
             german: bool = False, view_kind: str | None = None, worlds_text: str | int | None = None,
             seed: int | None = None, jobs: int | None = None, race: bool | None = None,
             progress: ProgressFn | None = None, inference: str | None = None,
             constrain: tuple[str, ...] | list[str] = ()) -> tuple[Any, dict[str, Any]]:
    """``sheepsolve annotate FILE --json`` (``view_kind="player"``: ``--view player [--worlds N|all] [--seed S]
    [--jobs J] [--race/--no-race] [--inference auction|none] [--constrain ...]``, every decision judged from the
    mover's own view too; ``race`` None: racing, the default; ``inference`` None: ``auction``)."""
    from .annotate import AnnotateError, annotate_record
    from .solver import DEFAULT_TABLE_MIB, Solver

    worlds = _annotate_worlds(view_kind, worlds_text, seed, jobs, race, inference, constrain)
    rec = _with_history(src, "annotate", german)
    try:
        ann = annotate_record(rec, solver=Solver(table_mib or DEFAULT_TABLE_MIB), judge_bury=not no_bury)
    except AnnotateError as e:
        known = [p for p, h in zip(rec.players, rec.hands) if h is not None]
        if view_kind is None or rec.complete or not known:
            raise
        raise AnnotateError(f"{e}; from the seat of {', '.join(known)} (whose hand is known) judge a decision with "
                            f"`sheepsolve suggest FILE --at TRICK.CARD`") from None
    if view_kind is not None:
        from .player.annotate import annotate_view

        ann = annotate_view(ann, worlds=worlds, seed=seed or 0, jobs=jobs, min_cost=min_cost, progress=progress,
                            race=race is not False, inference=inference or "auction", constrain=tuple(constrain),
                            source=rec)
    from .render.annotate import summary_text

    data = ann.to_dict(summary_text=summary_text(ann))
    if min_cost is not None:
        kept = {d.index for d in ann.errors(min_cost)}
        data["decisions"] = [d.to_dict() for d in ann.decisions
                             if d.index in kept or (d.view is not None and d.view.error)]
    return ann, data


def _with_history(src: Source, command: str, german: bool) -> Record:
    """The record, refused when it is a position set by its cards: ``command`` needs the hand's history."""
    from .record import position_refusal

    rec = src.record(german)
    if rec.position is not None:
        raise RecordError(f"{src}: {position_refusal(command)}")
    return rec


def _annotate_worlds(view_kind: str | None, worlds_text: str | int | None, seed: int | None, jobs: int | None,
                     race: bool | None, inference: str | None = None, constrain: Any = ()) -> int | str:
    """annotate's options of the player's view, checked: the worlds per decision."""
    if view_kind is None:
        for name, given in (("--worlds", worlds_text), ("--seed", seed), ("--jobs", jobs),
                            ("--race" if race else "--no-race", race), ("--inference", inference),
                            ("--constrain", constrain or None)):
            if given is not None:
                raise _view_error(f"{name}: only with --view player")
        return 100
    if view_kind != "player":
        raise _view_error(f'--view: must be "player", not {clip(repr(view_kind))}')
    from .player.options import MAX_ANNOTATE_WORLDS, parse_worlds

    return parse_worlds(worlds_text, cap=MAX_ANNOTATE_WORLDS)


def _view_error(msg: str) -> Exception:
    from .worlds import WorldsError

    return WorldsError(msg)


def bury(src: Source, *, view: str | None = None, worlds: int | str | None = None, seed: int = 0,
         jobs: int | None = None, by: str = "payment", german: bool = False,
         progress: ProgressFn | None = None, inference: str = "auction") -> tuple[Any, dict[str, Any]]:
    """``sheepsolve bury FILE --json``."""
    from .bury import bury_from_record, read_bury_record

    from .render.choices import lesson_text

    loaded = read_bury_record(src, german=german)  # type: ignore[arg-type]
    res = bury_from_record(loaded, view=view, worlds=worlds, seed=seed, jobs=jobs, by=by, progress=progress,
                           inference=inference)
    return res, res.to_dict(lesson=lesson_text(res.lesson))


def pick(src: Source, *, seat_name: str | None = None, worlds: int | str = 100, seed: int = 0, jobs: int | None = None,
         by: str = "payment", german: bool = False, progress: ProgressFn | None = None,
         inference: str = "auction") -> tuple[Any, dict[str, Any]]:
    """``sheepsolve pick FILE --json``."""
    from .bury import pick_from_record, read_pick_record

    loaded = read_pick_record(src, seat_name, german=german)  # type: ignore[arg-type]
    res = pick_from_record(loaded, worlds=worlds, seed=seed, jobs=jobs, by=by, progress=progress,
                           inference=inference)
    return res, res.to_dict()


def choose(src: Source, *, seat_name: str | None = None, worlds: int | str = 100, seed: int = 0,
           jobs: int | None = None, by: str = "payment", german: bool = False,
           progress: ProgressFn | None = None, inference: str = "auction",
           skat_taken: bool = False) -> tuple[Any, dict[str, Any]]:
    """``sheepsolve choose FILE --json``."""
    from .bury import choose_from_record, read_choose_record

    loaded = read_choose_record(src, seat_name, german=german)  # type: ignore[arg-type]
    res = choose_from_record(loaded, worlds=worlds, seed=seed, jobs=jobs, by=by, progress=progress,
                             inference=inference, skat_taken=skat_taken)
    return res, res.to_dict()


def suggest(src: Source, *, seat_name: str | None = None, worlds_text: str | int = "100", seed: int = 0,
            jobs: int | None = None, german: bool = False, no_race: bool = False,
            progress: ProgressFn | None = None, at: str | None = None, inference: str = "auction",
            constrain: tuple[str, ...] | list[str] = (), play_model: bool = False) -> tuple[Any, dict[str, Any]]:
    """``sheepsolve suggest FILE --json``."""
    from .player.options import parse_worlds
    from .player.suggest import suggest_record

    worlds = parse_worlds(worlds_text)
    rec = _with_history(src, "suggest", german)
    res = suggest_record(rec, seat=seat_name, worlds=worlds, seed=seed, jobs=jobs, progress=progress,
                         race=not no_race, at=at, inference=inference, constrain=tuple(constrain),
                         play_model=play_model)
    return res, res.to_dict()


def check_options(command: str, options: dict[str, Any]) -> None:
    """Refuse ``command``'s options that are bad whatever the record (``--worlds`` that is not a number of
    worlds, annotate's ``--worlds`` without ``--view player``), before any record is read: a batch stops at once
    instead of giving every record the same error."""
    if command == "annotate":
        _annotate_worlds(options.get("view_kind"), options.get("worlds_text"), options.get("seed"),
                         options.get("jobs"), options.get("race"), options.get("inference"),
                         options.get("constrain"))
    elif command == "suggest":
        from .player.options import parse_worlds

        parse_worlds(options.get("worlds_text", "100"))


#: The analysis commands a batch can run, by name.
COMMANDS: dict[str, Callable[..., tuple[Any, dict[str, Any]]]] = {
    "show": show, "solve": solve, "annotate": annotate, "bury": bury, "pick": pick, "choose": choose,
    "suggest": suggest,
}


def run(command: str, src: Source, **options: Any) -> tuple[Any, dict[str, Any]]:
    """Run ``command`` (a key of :data:`COMMANDS`) on ``src``."""
    return COMMANDS[command](src, **options)
