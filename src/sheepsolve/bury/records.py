"""The bury tools' records: the record is read and checked once by :mod:`sheepsolve.record`, the choices it shows
(bury, call, card under, the play, the auction) are set aside from the record read; then the question is asked
(:func:`bury_from_record`, :func:`pick_from_record`, :func:`choose_from_record`, what the commands run).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..cards import Card
from ..games import REGISTRY, Game, GameError, make_game, resolve_name
from ..record import Record, RecordError, parse_data, position_refusal, read_record_file, record_from_dict
from ..scoring import Stakes
from .choices import BuryDecision, BuryError
from .questions import choose_contract, pick_or_pass, rank_buries, sample_buries
from .results import BuryRanking, ChoiceResult, PickResult
from .units import ProgressFn

__all__ = ["LoadedRecord", "read_bury_record", "read_pick_record", "read_choose_record", "bury_from_record",
           "pick_from_record", "choose_from_record"]


_DECISION_KEYS = ("bury", "called", "under", "alone", "play")


class _Parsed(NamedTuple):
    """A record file read and parsed once: how errors name it, and its data as written."""

    label: str
    data: Any


def _parse(path: Any) -> _Parsed:
    """Read and parse the record; ``path`` is a file name or a :class:`sheepsolve.commands.Source`. Errors are
    :func:`~sheepsolve.record.load_record`'s: a file that cannot be read, or text that does not parse."""
    if hasattr(path, "read_text"):
        label, fmt, text = str(path), path.fmt, path.read_text()
    else:
        label, fmt, text = read_record_file(path)
    try:
        return _Parsed(label, parse_data(text, fmt))
    except RecordError as e:
        raise RecordError(f"{label}: {e}") from None


def _read(parsed: _Parsed, german: bool, set_aside: Callable[[Record], Record | None],
          change: Callable[[dict[str, Any]], dict[str, Any]]) -> tuple[Record, Record | None]:
    """The record with its choices set aside, and the record as written (None when it names no choice).

    The record as written is read and checked once, as ``show`` checks it: every error is reported (a revoke in
    the play, a call the hand does not allow, ...); its choices are then set aside from the record read
    (``set_aside``), which keeps every hand and the blind the reader completed from the play. Only a record that
    shows no choice at all (no bury, call, card under or play) may leave out the picker, declarer or called card
    the command is about: its check stops there, and the data with the choices' defaults (``change``) is read
    instead. ``set_aside`` gives None where the record with its choices set aside must be read from its data
    (``change``) to be checked.
    """
    try:
        original = record_from_dict(parsed.data, german=german)
    except RecordError as e:
        err = RecordError(f"{parsed.label}: {e}")
        raw = parsed.data
        if not isinstance(raw, dict) or any(k in raw for k in _DECISION_KEYS) or not _MISSING_CHOICE.search(str(err)):
            raise err from None
        original = None
    base = set_aside(original) if original is not None else None
    if base is None:
        try:
            base = record_from_dict(change(dict(parsed.data)), german=german)
        except RecordError as e:
            raise RecordError(f"{parsed.label}: {e}") from None
        if original is not None:
            base = _completed_as(base, original)
    return base, original


def _set_aside(rec: Record, game: Game | None = None) -> Record:
    """``rec`` with its choices set aside: no bury, call, card under, play or auction (the called-ace picker goes
    alone), every hand and the blind kept as the reader completed them; ``game`` (for ``choose``) replaces the
    contract."""
    g = game or rec.game
    return dataclasses.replace(rec, game=g, declarer=rec.declarer if rec.declarer is not None or game is None else 0,
                               bury=None if g.kind == "picker" else (), called=None, under=None,
                               alone=g.partner == "called-ace", play=(), auction=None,
                               inferred=tuple(k for k in rec.inferred if k != "bury"))


def _completed_as(base: Record, original: Record) -> Record:
    """``base`` (the record with its choices set aside) holding every hand and the blind that the record reader
    completed from the record as written: setting the play aside must not lose what the play determined."""
    hands = tuple(h if h is not None else o for h, o in zip(base.hands, original.hands))
    blind = base.blind if base.blind is not None else original.blind
    inferred = tuple(k for k in original.inferred if k != "bury")
    return dataclasses.replace(base, hands=hands, blind=blind, inferred=inferred)


_MISSING_CHOICE = re.compile(r"(?:^|: )(?:picker|declarer|called): missing")


def _game_kind(parsed: _Parsed) -> tuple[str, str] | None:
    """(canonical game, family) named by the record, or None when it cannot tell (the reader will say why)."""
    try:
        name = parsed.data.get("game")
        canon, _ = resolve_name(name)  # type: ignore[arg-type]
    except Exception:
        return None
    return canon, REGISTRY[canon].family


def _refuse_position(parsed: _Parsed, command: str) -> None:
    """A position record (``position = true``) has no hand as dealt to choose from: one line that says so."""
    if isinstance(parsed.data, dict) and parsed.data.get("position") is True:
        raise BuryError(f"{parsed.label}: {position_refusal(command)}")


def _need_picker_game(parsed: _Parsed, what: str, skat: bool = False) -> None:
    """Refuse a game without a picker; ``skat``: Skat's games pass too (the discard is the declarer's bury)."""
    kind = _game_kind(parsed)
    if kind is not None and skat and kind[1] == "skat":
        return
    if kind is not None and kind[0] not in ("sheepshead", "sheepshead-3", "sheepshead-4"):
        raise BuryError(f"{parsed.label}: game: {kind[0]} has no {what} ({what} is for sheepshead, sheepshead-3 and "
                        f"sheepshead-4)")


def _stakes_of(rec: Record) -> Stakes:
    return Stakes(crack=rec.crack, recrack=rec.recrack, doublers=rec.doublers)


@dataclass(frozen=True)
class LoadedRecord:
    """A record read for one of the bury tools: the record with its choices set aside, the seat asked about, its
    hand, the blind, every hand when known, and the record's own choice."""

    record: Record
    seat: int
    hand: tuple[Card, ...]
    blind: tuple[Card, ...] | None
    full: list[list[Card]] | None  # every hand, when known
    choice: BuryDecision | None
    auction: Any = None  # the record's own ``auction`` (Sheepshead, Schafkopf), None without one

    def calls(self) -> tuple | None:
        """The record's calls before the seat's decision, which weigh the worlds
        (:func:`~sheepsolve.weighting.calls_before`); None without an ``auction`` (the implied passes)."""
        from ..weighting import calls_before

        return None if self.auction is None else calls_before(self.auction, self.seat)


def _auction_of(original: Record | None) -> Any:
    """The auction the record as written gives (a Sheepshead or Schafkopf one), None without."""
    from ..inference.auction import Auction

    auction = getattr(original, "auction", None)
    return auction if isinstance(auction, Auction) else None


def read_bury_record(path: str, *, german: bool = False) -> LoadedRecord:
    """Read a record for ``sheepsolve bury``: the picker's hand and the blind are needed; the other hands, if
    given, allow the double-dummy ranking; the record's bury and call, if given, are marked in the ranking."""

    def change(d: dict[str, Any]) -> dict[str, Any]:
        for k in _DECISION_KEYS:
            d.pop(k, None)
        if d.get("partner") == "called-ace":
            d["called"] = "alone"
        return d

    parsed = _parse(path)
    _refuse_position(parsed, "bury")
    _need_picker_game(parsed, "bury", skat=True)
    base, original = _read(parsed, german, _set_aside, change)
    g = base.game
    p = base.declarer
    assert p is not None
    hand = base.hands[p]
    if hand is None:
        raise BuryError(f"{path}: hands.{base.players[p]}: the picker's hand is needed to rank buries")
    if base.blind is None:
        raise BuryError(f"{path}: blind: the blind is needed to rank buries")
    full = [list(h) for h in base.hands] if all(h is not None for h in base.hands) else None  # type: ignore[arg-type]
    choice = None
    if original is not None and original.bury:
        alone = original.alone and g.partner == "called-ace"
        choice = BuryDecision(tuple(g.sort_cards(original.bury)), called=original.called, under=original.under,
                          alone=alone)
    return LoadedRecord(record=base, seat=p, hand=tuple(hand), blind=tuple(base.blind), full=full, choice=choice,
                        auction=_auction_of(original))


def _seat_arg(rec: Record, seat: str | None, role: str) -> int:
    if seat is None:
        raise BuryError(f"--seat: name the player who would {role} (one of {', '.join(rec.players)})")
    try:
        return rec.seat_of(seat)
    except RecordError as e:
        raise BuryError(f"--seat: {e}") from None


def _asked_seat(path: Any, base: Record, seat: str | None, named: bool, role: str) -> tuple[int, tuple[Card, ...]]:
    """The seat a question is asked for (``--seat``; default the record's own picker or declarer, where the record
    ``named`` one) and its hand, which is needed."""
    s = base.declarer if seat is None and named else _seat_arg(base, seat, role)
    assert s is not None
    hand = base.hands[s]
    if hand is None:
        raise BuryError(f"{path}: hands.{base.players[s]}: the hand of the player who would {role} is needed")
    return s, tuple(hand)


def read_pick_record(path: str, seat: str | None, *, german: bool = False) -> LoadedRecord:
    """Read a record for ``sheepsolve pick``: the hand of ``seat`` (default: the record's picker) is needed."""

    def change(d: dict[str, Any]) -> dict[str, Any]:
        for k in _DECISION_KEYS:
            d.pop(k, None)
        if d.get("partner") == "called-ace":
            d["called"] = "alone"
        if "picker" not in d:
            players = d.get("players")
            d["picker"] = players[0] if isinstance(players, list) and players else "1"
        return d

    parsed = _parse(path)
    _refuse_position(parsed, "pick")
    _need_picker_game(parsed, "picking")
    base, original = _read(parsed, german, _set_aside, change)
    s, hand = _asked_seat(path, base, seat, parsed.data.get("picker") is not None, "pick")
    full = None
    if all(h is not None for h in base.hands) and base.blind is not None:
        full = [list(h) for h in base.hands]  # type: ignore[arg-type]
    return LoadedRecord(record=base, seat=s, hand=hand, blind=base.blind, full=full, choice=None,
                        auction=_auction_of(original))


def read_choose_record(path: str, seat: str | None, *, german: bool = False) -> LoadedRecord:
    """Read a record for ``sheepsolve choose``: any Schafkopf or Skat record (its game gives the deck, the number
    of players and the rules; the contract it names is set aside, and a Skat record's discard and declaration but
    the bid); the hand of ``seat`` (default: the record's declarer) is needed, and a Skat record's skat is kept."""
    def change(d: dict[str, Any]) -> dict[str, Any]:
        declarer = d.get("declarer")
        for k in _DECISION_KEYS + ("trump", "tout", "declarer"):
            d.pop(k, None)
        try:
            canon, implied = resolve_name(d.get("game"))  # type: ignore[arg-type]
        except GameError:
            return d  # the record reader names the bad game
        if REGISTRY[canon].family == "skat":
            return _skat_choice(d, declarer)
        if REGISTRY[canon].family != "schafkopf":
            return d
        if "seats" in implied and "players" not in d and "seats" not in d:
            d["seats"] = implied["seats"]
        d["game"] = "wenz"  # any contract of every deck and size: only the deck, seats and rules are kept
        players = d.get("players")
        d["declarer"] = declarer or (players[0] if isinstance(players, list) and players else "1")
        return d

    def set_aside(rec: Record) -> Record | None:
        if rec.game.family == "skat":  # any Skat contract with the record's rules and bid
            return _set_aside(rec, make_game("grand", bid=rec.game.bid, rules=dict(rec.game.rules)))
        if rec.game.family != "schafkopf":
            return rec  # refused below
        contract = _any_contract(parsed.data)
        return _set_aside(rec, contract) if contract is not None else None

    parsed = _parse(path)
    _refuse_position(parsed, "choose")
    kind = _game_kind(parsed)
    if kind is not None and kind[1] not in ("schafkopf", "skat"):
        raise BuryError(f"{parsed.label}: game: {kind[0]} is not Schafkopf: choose is for Schafkopf hands "
                        f"(Sheepshead: use pick)")
    base, original = _read(parsed, german, set_aside, change)
    if base.game.family == "skat":
        s = base.declarer if seat is None else _seat_arg(base, seat, "declare")
        assert s is not None
        hand = base.hands[s]
        if hand is None:
            raise BuryError(f"{path}: hands.{base.players[s]}: the hand of the player who would declare is needed")
        return LoadedRecord(record=base, seat=s, hand=tuple(hand), blind=base.blind, full=None, choice=None)
    if base.game.family != "schafkopf":
        raise BuryError(f"{path}: game: {base.game.name} is not Schafkopf: choose is for Schafkopf hands "
                        f"(Sheepshead: use pick)")
    s, hand = _asked_seat(path, base, seat, parsed.data.get("declarer") is not None, "declare")
    return LoadedRecord(record=base, seat=s, hand=hand, blind=None, full=None, choice=None,
                        auction=_auction_of(original))


def _skat_choice(d: dict[str, Any], declarer: Any) -> dict[str, Any]:
    """A Skat record's data for ``choose``: its contract, discard and declaration set aside but the bid, read as a
    grand with its skat and declarer (written ``declarer`` or ``picker``; the first player if neither)."""
    for k in ("contract", "discard", "hand", "schneider_announced", "schwarz_announced", "ouvert"):
        d.pop(k, None)
    who = declarer or d.pop("picker", None)
    players = d.get("players")
    d["game"] = "grand"  # any Skat contract: only the deal, the skat, the bid and the rules are kept
    d["declarer"] = who or (players[0] if isinstance(players, list) and players else "1")
    return d


def _any_contract(data: dict[str, Any]) -> Game | None:
    """The game ``choose`` reads a Schafkopf record as: any contract of every deck and table (a wenz) with the
    record's deck, players and rules, as the record's data with its contract set aside names it; None when that
    game cannot be made (the data then says why)."""
    players, seats = data.get("players"), data.get("seats")
    if players is None and seats is None:
        seats = resolve_name(data["game"])[1].get("seats")
    try:
        return make_game("wenz", deck=data.get("deck"), partner=data.get("partner"),
                         seats=len(players) if players is not None else seats, rules=data.get("rules"))
    except GameError:
        return None


# --------------------------------------------------------------------------------------------------------------
# From a record (what the commands run)


def bury_from_record(loaded: LoadedRecord, *, view: str | None = None, worlds: int | str | None = None, seed: int = 0,
                     jobs: int | None = None, by: str = "payment", progress: ProgressFn | None = None,
                     inference: str = "none") -> BuryRanking:
    """``sheepsolve bury``: the double-dummy ranking when every hand is known (``view="actual"``), else (or with
    ``view="picker"``, or when ``worlds`` is given) the picker's view, with the double-dummy comparison when the
    deal is known."""
    rec = loaded.record
    if view is None:
        view = "actual" if loaded.full is not None and worlds is None else "picker"
    if view not in ("actual", "picker"):
        raise BuryError(f'--view: must be "actual" or "picker", not {view!r}')
    stakes = _stakes_of(rec)
    blind = list(loaded.blind or ())
    if view == "actual":
        if loaded.full is None:
            missing = ", ".join(p for p, h in zip(rec.players, rec.hands) if h is None)
            raise BuryError(f"--view actual: double dummy needs every hand (no hand for {missing}); "
                            f"use --view picker to sample the unseen cards")
        r = rank_buries(rec.game, loaded.full, blind, loaded.seat, stakes=stakes, by=by, jobs=jobs,
                        progress=progress, players=rec.players)
    else:
        r = sample_buries(rec.game, loaded.hand, blind, loaded.seat, worlds=worlds or 100, seed=seed,
                          stakes=stakes, by=by, jobs=jobs, progress=progress, players=rec.players,
                          actual_hands=loaded.full, inference=inference, calls=loaded.calls())
    return BuryRanking(**{**r.__dict__, "record_choice": loaded.choice})


def pick_from_record(loaded: LoadedRecord, *, worlds: int | str = 100, seed: int = 0, jobs: int | None = None,
                     by: str = "payment", progress: ProgressFn | None = None, inference: str = "none"
                     ) -> PickResult:
    """``sheepsolve pick``: picking against passing for the record's seat."""
    rec = loaded.record
    actual = (loaded.full, list(loaded.blind or ())) if loaded.full is not None else None
    return pick_or_pass(rec.game, loaded.hand, loaded.seat, worlds=worlds, seed=seed, stakes=_stakes_of(rec),
                        by=by, jobs=jobs, progress=progress, players=rec.players, actual=actual,
                        inference=inference, calls=loaded.calls())


def choose_from_record(loaded: LoadedRecord, *, worlds: int | str = 100, seed: int = 0, jobs: int | None = None,
                       by: str = "payment", progress: ProgressFn | None = None, inference: str = "none",
                       skat_taken: bool = False) -> ChoiceResult:
    """``sheepsolve choose``: every contract the record's seat may declare, against passing; a Skat hand before
    the skat is taken, or with ``skat_taken`` after it (the record's skat known). A Skat record's game carries its
    bid, which every contract must cover."""
    rec = loaded.record
    skat = None
    if skat_taken:
        if rec.game.family != "skat":
            raise BuryError(f"--skat-taken: only a Skat hand takes up a skat, not {rec.game.name}")
        if loaded.blind is None:
            raise BuryError('--skat-taken: the record\'s skat is needed (skat = "...")')
        skat = list(loaded.blind)
    return choose_contract(rec.game, loaded.hand, loaded.seat, worlds=worlds, seed=seed, stakes=_stakes_of(rec),
                           by=by, jobs=jobs, progress=progress, players=rec.players, inference=inference, skat=skat,
                           calls=loaded.calls())
