"""A season report over a batch of annotated hands: ``sheepsolve report FILE.jsonl [--html OUT] [--json]``.

The input is the output of ``sheepsolve batch annotate ... --out FILE.jsonl`` (:mod:`sheepsolve.batch`): one
line per hand, ``{"id", "result"}`` with the annotation (``sheepsolve annotate --json``) or ``{"id", "error"}``.

- Per player (by name, over every hand he played): hands, decisions (cards with a choice), errors (decisions
  that cost points or changed the result), result-changing errors (swings), and the points lost double dummy
  (the sum of the costs of his cards: points of his side in two-sided games, his own points in ramsch and
  leaster, where lower is better). When the annotations were made with ``--min-cost`` only the listed decisions
  are counted; the per-hand summaries count every decision, and the report uses those. Hands annotated with
  ``--view player`` add the player's view: those hands, the player's-view errors and the points lost in
  expectation (the sum of the per-hand ``expected_loss``).
- Per game form (the annotation's title: "Sheepshead (5-hand)", "Solo (Farbsolo)", ...): hands, finished hands,
  the declaring side's win rate and mean final card points over the finished two-sided hands.

>>> lines = ['{"id": "a.toml", "error": "a.toml: hands.Bob: duplicate card QC"}']
>>> r = season_report(lines)
>>> r.hands, r.errors, r.players
(0, 1, [])
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .files import clip, control_character

__all__ = ["ReportError", "PlayerLine", "FormLine", "SeasonReport", "season_report", "read_report"]

#: The outcomes in which the declaring side won (Sheepshead and Schafkopf words, tout included).
WON = frozenset({"win", "schneider", "schwarz", "win-schneider", "win-schwarz"})


class ReportError(ValueError):
    """A batch file that cannot be summarised (a line that is not a batch line of ``annotate``)."""


@dataclass
class PlayerLine:
    player: str
    hands: int = 0
    decisions: int = 0
    errors: int = 0
    swings: int = 0
    points_lost: int = 0
    view_hands: int = 0  # hands annotated with --view player
    view_errors: int = 0  # player's-view errors in them
    view_loss: float = 0.0  # points lost in the player's view (the sum of the expected losses)

    @property
    def points_lost_per_hand(self) -> float:
        return self.points_lost / self.hands if self.hands else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "hands": self.hands, "decisions": self.decisions, "errors": self.errors,
                "swings": self.swings, "points_lost": self.points_lost,
                "points_lost_per_hand": round(self.points_lost_per_hand, 3),
                "view": None if not self.view_hands else {"hands": self.view_hands, "errors": self.view_errors,
                                                          "points_lost": round(self.view_loss, 2)}}


def form_name(game: Any, title: str) -> str:
    """A game form's ``title`` (an annotation's JSON title, :attr:`Game.title <sheepsolve.games.Game.title>`) as
    its own table says it (:func:`~sheepsolve.contracts.game_title` in the game family's notation): a Schafkopf
    ``Solo in clubs`` is an ``Eichel-Solo``, as ``show`` names it. A title it cannot place stays as it is.

    >>> form_name("solo", "Solo in clubs"), form_name("farbwenz", "Farbwenz in spades, tout")
    ('Eichel-Solo', 'Gras-Wenz Tout')
    >>> form_name("sheepshead", "Sheepshead (5-hand)"), form_name("solo", "Solo in clubs, tout Ouvert")
    ('Sheepshead (5-hand)', 'Solo in clubs, tout Ouvert')
    """
    if not isinstance(game, str) or not isinstance(title, str):  # a batch line's values, checked or not
        return title
    return _form_name(game, title)


@functools.lru_cache(maxsize=256)
def _form_name(game: str, title: str) -> str:
    from .cards import card_style
    from .contracts import game_title
    from .games import REGISTRY, GameError, make_game

    if game not in REGISTRY:
        return title
    for trump in (None, "C", "S", "H", "D"):
        for tout in (None, True):
            try:
                g = make_game(game, trump=trump, tout=tout)
            except GameError:
                continue
            if g.title == title:
                return game_title(g, card_style(None, g.family))
    return title


@dataclass
class FormLine:
    form: str  # the annotation's title (JSON "form")
    hands: int = 0
    finished: int = 0
    two_sided: int = 0  # finished hands with a declaring side
    won: int = 0
    points: int = 0  # the declaring side's final card points, summed over the finished two-sided hands
    name: str = ""  # the form as its own table says it (form_name): the text's and page's name for it

    @property
    def win_rate(self) -> float | None:
        return self.won / self.two_sided if self.two_sided else None

    @property
    def mean_points(self) -> float | None:
        return self.points / self.two_sided if self.two_sided else None

    def to_dict(self) -> dict[str, Any]:
        r = self.win_rate
        m = self.mean_points
        return {"form": self.form, "hands": self.hands, "finished": self.finished, "declared": self.two_sided,
                "declaring_won": self.won, "win_rate": None if r is None else round(r, 4),
                "mean_points": None if m is None else round(m, 2)}


@dataclass
class SeasonReport:
    hands: int = 0  # annotated hands
    errors: int = 0  # batch lines with an error
    players: list[PlayerLine] = field(default_factory=list)  # most points lost first
    forms: list[FormLine] = field(default_factory=list)  # most hands first
    failed: list[tuple[str, str]] = field(default_factory=list)  # (id, error) of the lines with an error

    def to_dict(self) -> dict[str, Any]:
        return {"hands": self.hands, "errors": self.errors, "players": [p.to_dict() for p in self.players],
                "forms": [f.to_dict() for f in self.forms],
                "failed": [{"id": i, "error": e} for i, e in self.failed]}


def _need(d: Any, key: str, where: str) -> Any:
    if not isinstance(d, dict) or key not in d:
        raise ReportError(f"{where}: not an annotation (no {key!r}): a report reads the output of "
                          f"`sheepsolve batch annotate ... --out FILE.jsonl`")
    return d[key]


#: The largest count or sum a batch line may give for one player of one hand (a hand has at most a dozen decisions
#: and 120 card points; anything far beyond is not an annotation).
MAX_FIGURE = 10**6


def _count(d: dict, key: str, where: str, *, required: bool = True) -> int:
    """``d[key]``: a whole number 0 to :data:`MAX_FIGURE` (what ``annotate --json`` writes), else ReportError."""
    if key not in d and not required:
        return 0
    value = _need(d, key, where)
    if value is None and not required:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_FIGURE:
        raise ReportError(f"{where}: {key}: must be a whole number 0 to {MAX_FIGURE}, not {clip(repr(value))}")
    return value


def _number(d: dict, key: str, where: str) -> float:
    """``d[key]`` when given: a finite number of at most :data:`MAX_FIGURE` either way, else ReportError."""
    value = d.get(key)
    if value is None:
        return 0.0
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or abs(value) > MAX_FIGURE:
        raise ReportError(f"{where}: {key}: must be a number, not {clip(repr(value))}")
    return float(value)


def _text(value: Any, where: str, limit: int = 200) -> str:
    """A name or title of a batch line: one line of printable text (as a record's names are), else ReportError."""
    if not isinstance(value, str) or not value.strip() or len(value) > limit or control_character(value):
        raise ReportError(f"{where}: must be one line of printable text (at most {limit} characters), not "
                          f"{clip(repr(value))}")
    return value


def season_report(lines: Iterable[str], label: str = "report") -> SeasonReport:
    """The report over the batch lines (JSON text, one per hand). Raises :class:`ReportError` naming the line
    that is not a batch line of ``annotate``."""
    rep = SeasonReport()
    players: dict[str, PlayerLine] = {}
    forms: dict[str, FormLine] = {}
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{label}: line {n}"
        if n == 1 and line.startswith("\ufeff"):  # a byte-order mark, as Windows editors write one
            line = line[1:]
        try:
            obj = json.loads(line)
        except ValueError as e:
            raise ReportError(f"{where}: not JSON ({e})") from None
        except RecursionError:  # [[[[... a traceback before
            raise ReportError(f"{where}: not a batch line (nested too deeply)") from None
        if not isinstance(obj, dict) or not isinstance(obj.get("id"), str):
            raise ReportError(f"{where}: not a batch line (an object with an \"id\")")
        if "error" in obj:
            rep.errors += 1
            rep.failed.append((obj["id"], clip(obj["error"], 2000)))
            continue
        res = _need(obj, "result", where)
        summary = _need(res, "summary", where)
        per = _need(summary, "players", where)
        title = _text(_need(res, "title", where), f"{where}: title")
        if not isinstance(per, dict):
            raise ReportError(f"{where}: summary.players must be an object")
        hand: list[tuple[str, tuple[int, int, int, int], tuple[int, float] | None]] = []
        for name, p in per.items():  # read every figure of the line before counting any
            who = f"{where}: summary.players.{clip(name, 40)}"
            _text(name, f"{where}: summary.players: a player's name", limit=100)
            if not isinstance(p, dict):
                raise ReportError(f"{who}: must be an object")
            # decisions: cards with a choice (forced ones apart)
            figures = (_count(p, "decisions", who), _count(p, "errors", who), _count(p, "swings", who),
                       _count(p, "given_away", who))
            view = p.get("view")
            seen = ((_count(view, "errors", f"{who}.view", required=False),
                     _number(view, "expected_loss", f"{who}.view")) if isinstance(view, dict) else None)
            hand.append((name, figures, seen))
        value = None
        outcome = summary.get("result_outcome")
        if summary.get("finished") and res.get("declaring") and summary.get("result_value") is not None:
            value = _count(summary, "result_value", f"{where}: summary")
            if not isinstance(outcome, str):
                raise ReportError(f"{where}: summary: result_outcome: must be a text such as \"win\", not "
                                  f"{clip(repr(outcome))}")
        rep.hands += 1
        form = forms.setdefault(title, FormLine(title, name=form_name(res.get("game"), title)))
        form.hands += 1
        if summary.get("finished"):
            form.finished += 1
            if value is not None:
                form.two_sided += 1
                form.points += value
                form.won += outcome in WON
        for name, (decisions, errors, swings, lost), seen in hand:
            pl = players.setdefault(name, PlayerLine(name))
            pl.hands += 1
            pl.decisions += decisions
            pl.errors += errors
            pl.swings += swings
            pl.points_lost += lost
            if seen is not None:
                pl.view_hands += 1
                pl.view_errors += seen[0]
                pl.view_loss += seen[1]
    rep.players = sorted(players.values(), key=lambda p: (-p.points_lost, p.player))
    rep.forms = sorted(forms.values(), key=lambda f: (-f.hands, f.form))
    return rep


MAX_LINE_BYTES = 16 * 1024 * 1024
"""The longest batch line read (an annotate line is some 10 KB; with --view player a few times more)."""


def read_report(path: str) -> SeasonReport:
    """:func:`season_report` over a batch file, read line by line whatever its size (a season of hands in one
    file; it was read whole into memory, up to 1 GiB, then split), each line at most :data:`MAX_LINE_BYTES`. A
    FIFO, a device, a folder are refused as :mod:`sheepsolve.files` refuses them."""
    from .files import FileError, open_input_file

    label = clip(path, 200)
    try:
        f = open_input_file(path)
    except FileError as e:
        raise ReportError(str(e)) from None
    with f:
        return season_report(_read_lines(f, label), label)


def _read_lines(f: Any, label: str) -> Iterable[str]:
    n = 0
    while True:
        raw = f.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        n += 1
        if len(raw) > MAX_LINE_BYTES:
            raise ReportError(f"{label}: line {n}: longer than {MAX_LINE_BYTES // 2**20} MiB; not a batch line")
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ReportError(f"{label}: line {n}: not UTF-8 text (bad byte at offset {e.start})") from None
