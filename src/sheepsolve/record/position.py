"""A position set by its cards, as bridge problems are set: ``position = true`` and ``[hands]`` the cards each
player still holds, no history (docs/RECORD-FORMAT.md, "Positions set by their cards").

:func:`read_position` checks what such a record adds (``won``, ``tricks_won``, ``partner_player``) against its
hands, the declaring side and the game, and gives a :class:`Position`; :func:`position_setup` is the engine's
setup of it: the hands held now as the first lead, the first player to lead, and what each seat took before
(:attr:`Setup.past_points <sheepsolve.engine.Setup.past_points>`, :attr:`~sheepsolve.engine.Setup.past_tricks`).

>>> from sheepsolve.record import record_from_dict
>>> rec = record_from_dict({"game": "wenz", "declarer": "1", "position": True, "won": 50,
...                         "hands": {"1": "JC AS", "2": "JS TS", "3": "KS AH", "4": "7S QD"}})
>>> rec.position.won, rec.position.tricks_won, rec.setup().past_points, rec.setup().past_tricks
(50, None, (50, 27, 0, 0), (1, 5, 0, 0))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
import dataclasses
from dataclasses import dataclass
from typing import Any

from ..cards import Card
from ..engine import Setup, State
from ..games import Game
from ..scoring import laufende_of
from .errors import RecordError, counted, key_name, kind_of, shown

__all__ = ["Position", "POSITION_KEYS", "position_given", "read_position", "position_setup", "position_start",
           "position_refusal"]

#: The keys of a position record (only with ``position = true``).
POSITION_KEYS: tuple[str, ...] = ("position", "won", "tricks_won", "partner_player")


@dataclass(frozen=True)
class Position:
    """What a position record says beyond its hands: ``won`` and ``tricks_won`` as the record gives them (the
    declaring side's, or in ramsch and leaster a player name -> value table, None when not given), the
    partner's seat (from the hands, or named by ``partner_player``), and the tallies per seat the setup carries:
    ``past_points`` and ``past_tricks`` (empty in a ramsch or leaster position without ``won``)."""

    won: int | dict[str, int] | None
    tricks_won: int | dict[str, int] | None
    partner: int | None  # the declarer's partner (None: alone, or no sides)
    partner_named: bool  # the record names him (partner_player)
    called: Card | None  # the called card while its rules bind (it is still held), else None
    past_points: tuple[int, ...]
    past_tricks: tuple[int, ...]

    def to_dict(self, players: Sequence[str]) -> dict[str, Any]:
        """The keys written back, as the record gave them: ``position``, ``won``, ``tricks_won``,
        ``partner_player``."""
        out: dict[str, Any] = {"position": True}
        if self.won is not None:
            out["won"] = self.won
        if self.tricks_won is not None:
            out["tricks_won"] = self.tricks_won
        if self.partner_named and self.partner is not None:
            out["partner_player"] = players[self.partner]
        return out


def _count(value: Any, where: str, most: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"{where}: must be a whole number from 0 to {most}, not {kind_of(value)}")
    if not 0 <= value <= most:
        raise RecordError(f"{where}: must be from 0 to {most}, not {shown(value)}")
    return value


def _hand_sizes(game: Game, players: Sequence[str], hands: Sequence[Sequence[Card] | None]) -> int:
    """Every hand given, all of one size from 1 to the game's: the cards each player holds."""
    absent = [p for p, h in zip(players, hands) if h is None]
    if absent:
        raise RecordError(f"hands: a position gives every hand (no hand for {', '.join(absent)})")
    size = len(hands[0])  # type: ignore[arg-type]
    for p, h in zip(players, hands):
        assert h is not None
        if not 1 <= len(h) <= game.hand_size:
            raise RecordError(f"hands.{p}: {counted(len(h), 'card')}; a {game.name} position holds 1 to "
                              f"{game.hand_size} cards a hand")
        if len(h) != size:
            raise RecordError(f"hands.{p}: {counted(len(h), 'card')}, but hands.{players[0]} holds {size}: "
                              f"every hand of a position holds as many cards, and the first player leads (a "
                              f"trick in progress is written in play)")
    return size


def position_given(d: Mapping[str, Any]) -> bool:
    """Whether the record's data ``d`` is a position set by its cards (``position = true``); its keys only then."""
    v = d.get("position")
    if v is not None and not isinstance(v, bool):
        raise RecordError(f"position: must be true or false, not {kind_of(v)}")
    if v:
        return True
    for key in POSITION_KEYS[1:]:
        if key in d:
            raise RecordError(f"{key}: only in a position record (position = true: the hands are the cards still "
                              f"held)")
    return False


def read_position(d: Mapping[str, Any], game: Game, players: Sequence[str], declarer: int | None,
                  hands: Sequence[Sequence[Card] | None], blind: Sequence[Card], called: Card | None,
                  under: Card | None, alone: bool, seat_of: Callable[[Any, str], int]) -> Position:
    """Check a position record's keys against its hands (``d`` the record's data; the rest already read) and
    give its :class:`Position` (with the called card whose rules still bind: None once it was played)."""
    for key in ("auction", "bury"):
        if key in d:
            what = "count its points in won" if key == "bury" else "it has no history"
            raise RecordError(f"{key}: a position record has none: {what}")
    if "blind" in d and game.kind != "leaster":
        raise RecordError(f"blind: a {game.name} position has none: count its points in won for the side they "
                          f"belong to")
    if game.sie:
        raise RecordError("position: a sie is not played out, so it has no position")
    size = _hand_sizes(game, players, hands)
    played = game.hand_size - size
    held = {c for h in hands for c in h or ()}
    out_of_play = game.total_points - sum(c.points for c in held) - sum(c.points for c in blind)
    where_out = (f"{game.total_points} less the {game.total_points - out_of_play} "
                 f"{'held or in the blind' if blind else 'still held'}")
    if blind and game.rules.get("leaster_blind") == "first" and played:
        raise RecordError('blind: with leaster_blind = "first" the blind went to the winner of the first trick, '
                          'before this position: count its points in won')
    if not game.two_sided:
        if "partner_player" in d:
            raise RecordError(f"partner_player: {game.name} has no partner: everyone plays alone")
        return _seat_tallies(d, game, players, played, out_of_play, where_out, seat_of)
    assert declarer is not None
    partner, called_now = _partner(d, game, players, declarer, hands, called, alone, seat_of)
    if under is not None and (called_now is None or under not in (hands[declarer] or ())):
        raise RecordError(f"under: {under} is not in the picker's hand beside a called card still held: it counts "
                          f"only while the called suit is unplayed")
    team = {declarer} | ({partner} if partner is not None else set())
    defender = min(s for s in range(game.seats) if s not in team)
    won_v = d.get("won", 0)
    won = _count(won_v, "won", game.total_points)
    if game.no_trick:
        if won:
            raise RecordError(f"won: {game.name} counts tricks, not card points: leave won out")
        tricks_won = _count(d.get("tricks_won", 0), "tricks_won", played)
        if tricks_won:
            raise RecordError(f"tricks_won: {tricks_won}: the {game.name} declarer who took a trick has lost "
                              f"already")
    else:
        if won > out_of_play:
            raise RecordError(f"won: {won} is more than the {out_of_play} card points out of play ({where_out})")
        default = played if game.tout else (1 if won else 0)
        tricks_won = _count(d.get("tricks_won", min(default, played)), "tricks_won", played)
        theirs = out_of_play - won
        if won and not tricks_won and game.kind != "picker":
            raise RecordError(f"tricks_won: 0, but won = {won}: card points come with a trick")
        if theirs and tricks_won == played:
            raise RecordError(f"tricks_won: {tricks_won}, every trick before the position, but the defenders "
                              f"took {theirs} card points ({where_out}, less won = {won}): points come with a "
                              f"trick" + (" (won counts too few?)" if "tricks_won" not in d else ""))
    points = [0] * game.seats
    tricks = [0] * game.seats
    points[declarer], tricks[declarer] = won, tricks_won
    points[defender], tricks[defender] = out_of_play - won, played - tricks_won
    given_won = won if "won" in d else None
    given_tricks = tricks_won if "tricks_won" in d else None
    return Position(won=given_won, tricks_won=given_tricks, partner=partner, partner_named="partner_player" in d,
                    called=called_now, past_points=tuple(points), past_tricks=tuple(tricks))


def _partner(d: Mapping[str, Any], game: Game, players: Sequence[str], declarer: int,
             hands: Sequence[Sequence[Card] | None], called: Card | None, alone: bool,
             seat_of: Callable[[Any, str], int]) -> tuple[int | None, Card | None]:
    """The declarer's partner (None: alone) and the called card whose rules still bind (it is held)."""
    holder = {c: s for s, h in enumerate(hands) for c in h or ()}
    named = seat_of(d["partner_player"], "partner_player") if "partner_player" in d else None
    if game.partner in ("none", "alone") or alone:
        if named is not None:
            why = "the declarer plays alone" if alone else f"{game.name} has no partner: the declarer plays alone"
            raise RecordError(f"partner_player: {why}")
        return None, None
    if named == declarer:
        raise RecordError(f"partner_player: {players[named]} is the declarer")
    call_up = game.partner == "jack-of-diamonds" and bool(game.rules.get("call_up"))
    if game.partner == "jack-of-diamonds":
        card = Card.make("J", "D")
        what = "the jack of diamonds"
    else:
        assert called is not None
        card, what = called, f"the called card {called}"
    seat = holder.get(card)
    if seat == declarer and called is not None:
        raise RecordError(f"called: {called} is in the declarer's hand (hands.{players[declarer]})")
    if named is not None:
        if seat is not None and seat != named and not call_up:
            whose = "the picker holds it and plays alone" if seat == declarer else "its holder is the partner"
            raise RecordError(f"partner_player: {players[named]}, but {what} is in hands.{players[seat]}: {whose}")
        return named, called if seat is not None else None
    if seat is not None and seat != declarer:
        return seat, called
    if seat == declarer and not call_up:
        return None, None
    why = (f"{what} is in the picker's hand and call_up is on (he called up a jack)" if seat == declarer else
           f"{what} is in no hand (played before this position)")
    raise RecordError(f'partner_player: missing: {why}: name the partner (partner_player = "...")'
                      + (" or write alone = true" if game.partner == "jack-of-diamonds" else ""))


def _seat_tallies(d: Mapping[str, Any], game: Game, players: Sequence[str], played: int, out_of_play: int,
                  where_out: str, seat_of: Callable[[Any, str], int]) -> Position:
    """Ramsch and leaster: ``won`` and ``tricks_won`` as tables of players (each player's own); without
    ``won`` the position counts only what is still to play."""
    if "won" not in d:
        if "tricks_won" in d:
            raise RecordError("tricks_won: only with won (each player's card points before the position)")
        return Position(won=None, tricks_won=None, partner=None, partner_named=False, called=None, past_points=(),
                        past_tricks=())
    points = _table(d["won"], "won", players, game.total_points, seat_of)
    if "tricks_won" not in d and played:
        raise RecordError(f"tricks_won: missing: in {game.name} with won given, name each player's tricks before "
                          f"the position too (tricks_won = {{ {players[0]} = 1, ... }})")
    tricks = _table(d.get("tricks_won", {}), "tricks_won", players, played, seat_of)
    if sum(points) != out_of_play:
        raise RecordError(f"won: the players' card points add up to {sum(points)}, but {out_of_play} are out of "
                          f"play ({where_out})")
    if sum(tricks) != played:
        raise RecordError(f"tricks_won: the players' tricks add up to {sum(tricks)}, but {played} were played "
                          f"before the position")
    for s, p in enumerate(players):
        if points[s] and not tricks[s]:
            raise RecordError(f"tricks_won.{p}: 0, but won.{p} = {points[s]}: card points come with a trick")
    return Position(won={players[s]: v for s, v in enumerate(points) if v},
                    tricks_won={players[s]: v for s, v in enumerate(tricks) if v}, partner=None, partner_named=False,
                    called=None, past_points=tuple(points), past_tricks=tuple(tricks))


def _table(value: Any, key: str, players: Sequence[str], most: int, seat_of: Callable[[Any, str], int]) -> list[int]:
    if not isinstance(value, Mapping):
        raise RecordError(f"{key}: in a game without sides, a table of players ({key} = {{ {players[0]} = 10, "
                          f"... }}), not {kind_of(value)}")
    out = [0] * len(players)
    for k, v in value.items():
        seat = seat_of(k, f"{key}.{key_name(k)}")
        out[seat] = _count(v, f"{key}.{players[seat]}", most)
    return out


def position_setup(game: Game, hands: Sequence[Sequence[Card]], declarer: int | None, position: Position,
                   called: Card | None, under: Card | None, blind: Sequence[Card]) -> Setup:
    """The engine's setup of a position: the hands held now at the first lead (the first player leads), the
    declaring side and its call (``called``: the record's; its rules bind only while the card is held, see
    :func:`position_start`), and what each seat took before."""
    setup = Setup.with_side(game, hands, declarer=declarer, partner=position.partner, blind=blind, called=called,
                            under=under if position.called is not None else None)
    setup = dataclasses.replace(setup, past_points=position.past_points, past_tricks=position.past_tricks)
    if game.family == "skat" and game.bid is not None and not game.no_trick:  # an overbid needs the matadors
        try:
            laufende_of(setup)
        except ValueError as e:
            raise RecordError(f"bid: {e}: whether the game is overbid cannot be judged (leave bid out)") from None
    return setup


def position_start(setup: Setup, position: Position) -> State:
    """The position's state at its first lead: a called card played before it opened its suit (its rules bind
    nothing any more)."""
    start = setup.start()
    if setup.called is not None and position.called is None:
        start = dataclasses.replace(start, called_open=False)
    return start


def position_refusal(command: str) -> str:
    """The one line a command that needs the hand's history gives a position record."""
    why = {
        "annotate": "annotate judges every decision from the deal, and a position has no earlier play",
        "suggest": "the player's view needs what the player saw (the deal, the calls, the earlier tricks), and a "
                   "position has no history",
        "bury": "the bury is chosen from the hand as dealt, before any trick",
        "pick": "picking is decided on the hand as dealt, before any trick",
        "choose": "the contract is chosen on the hand as dealt, before any trick",
        "view": "the player's view needs what the player saw (the deal, the calls, the earlier tricks), and a "
                "position has no history",
    }[command]
    return (f"position: a position record (position = true) gives only the cards still held: {why}; solve, "
            f"puzzle and explore take it")
