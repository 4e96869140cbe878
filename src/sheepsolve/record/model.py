"""The hand record: what a record holds (:class:`Record`), its keys, and the references to its players."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..cards import Card, format_cards
from ..engine import Setup, State
from ..games import Game, resolve_rules
from ..inference.auction import Auction
from ..scoring import MAX_DOUBLERS
from .errors import RecordError, kind_of, shortened, shown
from .values import MAX_NAME_LENGTH, info_value, player_names, scan_values
from .position import POSITION_KEYS, Position
from .replay import Replay, played_by_seat, replay_of
from .skat_keys import written_keys

__all__ = ["Record", "RECORD_KEYS", "INFO_KEYS", "ALL_KEYS", "MAX_RECORD_BYTES", "MAX_NAME_LENGTH", "seat_ref",
           "rules_written"]

#: The keys with a meaning (docs/RECORD-FORMAT.md).
RECORD_KEYS: tuple[str, ...] = (
    "game", "trump", "tout", "deck", "partner", "players", "picker", "declarer", "blind", "bury", "called",
    "under", "alone", "crack", "recrack", "kontra", "re", "doublers", "play", "rules", "hands", "auction",
    "ouvert", "contract", "skat", "discard", "hand", "schneider_announced", "schwarz_announced", "bid",
) + POSITION_KEYS
#: Informational keys: kept for the round trip, any value (``seats`` and ``dealer`` are checked).
INFO_KEYS: tuple[str, ...] = (
    "event", "site", "date", "round", "source", "comment", "notes", "dealer", "puzzle", "annotations", "seats",
)
ALL_KEYS = frozenset(RECORD_KEYS + INFO_KEYS)
MAX_RECORD_BYTES = 1024 * 1024
"""The largest record file read (1 MiB): a hand record is a few kilobytes, and a bigger file only costs time to
parse before it is refused."""

# --------------------------------------------------------------------------------------------------------------
# The record.


@dataclass(frozen=True)
class Record:
    """A validated hand record. Build it with :func:`parse_record`, :func:`load_record` or
    :func:`record_from_dict`, which check everything; the constructor checks nothing.

    ``hands`` are the hands as dealt (before the blind was taken), ``None`` where not given; ``blind`` and
    ``bury`` are ``None`` when the game has them but the record does not give them, ``()`` when the game has
    none. ``alone`` is True when the record says the picker or declarer went alone (``called = "alone"`` or
    ``alone = true``); the engine makes a jack-of-diamonds picker holding that jack alone by itself.
    ``crack``/``recrack`` are Schafkopf's kontra/re too. ``notation`` is the notation the record's cards are
    written in (``german`` or ``french``; None when no card tells, or for a record built in Python): messages
    about the record name cards that way.
    """

    game: Game
    players: tuple[str, ...]
    declarer: int | None = None
    hands: tuple[tuple[Card, ...] | None, ...] = ()
    blind: tuple[Card, ...] | None = ()
    bury: tuple[Card, ...] | None = ()
    called: Card | None = None
    under: Card | None = None
    alone: bool = False
    crack: bool = False
    recrack: bool = False
    doublers: int = 0
    play: tuple[tuple[Card, ...], ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)
    inferred: tuple[str, ...] = ()  # keys completed from the play: "hands.<player>", "blind", "bury"
    auction: Auction | None = None  # the record's ``auction`` key, read and checked (sheepsolve.inference.auction)
    notation: str | None = field(default=None, compare=False)
    position: Position | None = None  # a position set by its cards (``position = true``): hands are held now

    @classmethod
    def from_state(cls, state: State, players: Sequence[str] | None = None, *,
                   dealt: Sequence[Sequence[Card]] | None = None, crack: bool = False, recrack: bool = False,
                   doublers: int = 0, **info: Any) -> "Record":
        """The record whose play leads to ``state``, a position of a full deal: its setup's hands as dealt (the
        picker's with the blind taken back and the bury put back), blind, bury, call and card under, and every
        card played; the stakes; ``info`` adds informational keys (``comment``, ``puzzle``, ...). The hands and
        the blind are written in the game's order (trumps first), or the hands as ``dealt`` gives them (the same
        cards) and the blind as the setup holds it.

        It is checked as a record read from a file is: the names and informational values, then the deal, the
        call and every card replayed through the engine (the replay is kept).

        >>> from sheepsolve.record import load_record
        >>> rec = load_record("examples/sauspiel-midtrick.toml")
        >>> again = Record.from_state(rec.state(), rec.players, dealt=rec.hands, **rec.extra)
        >>> again == rec, again.replay.final == rec.state()
        (True, True)
        """
        st = state.setup
        g = st.game
        names = player_names(players) if players is not None else tuple(str(i + 1) for i in range(g.seats))
        if len(names) != g.seats:
            raise RecordError(f"players: {g.name} has {g.seats} players, not {len(names)}")
        hands: list[tuple[Card, ...]] = []
        for seat, h in enumerate(st.hands):
            cards = set(h)
            if g.kind == "picker" and seat == st.declarer:
                cards = (cards | set(st.bury)) - set(st.blind)
            if dealt is not None and set(dealt[seat]) != cards:
                raise RecordError(f"hands.{names[seat]}: {format_cards(dealt[seat])} is not the hand the setup dealt")
            hands.append(tuple(dealt[seat]) if dealt is not None else tuple(g.sort_cards(cards)))
        if any(len(h) != g.hand_size for h in hands):
            raise RecordError("hands: the position does not come from a full deal: a record needs the hands as "
                              "dealt")
        extra = {}
        for key, value in info.items():
            if key not in INFO_KEYS:
                raise RecordError(f"{key}: not an informational key (informational keys: {', '.join(INFO_KEYS)})")
            scan_values(value, key, 1)
            extra[key] = info_value(value, key, 0)
        if (crack or recrack or doublers) and g.family == "skat":
            raise RecordError(f"{'crack' if crack or recrack else 'doublers'}: sheepsolve's Skat has no doubling")
        if (crack or recrack) and g.kind not in ("picker", "contract"):
            raise RecordError(f"crack: {g.name} has no picker or declarer to double against")
        if recrack and not crack:
            raise RecordError("recrack: true, but nobody cracked first (crack is false)")
        if isinstance(doublers, bool) or not isinstance(doublers, int) or not 0 <= doublers <= MAX_DOUBLERS:
            raise RecordError(f"doublers: a whole number from 0 to {MAX_DOUBLERS}, not {shown(doublers)}")
        play = tuple(t.cards for t in state.tricks) + ((state.trick,) if state.trick else ())
        rec = cls(game=g, players=names, declarer=st.declarer, hands=tuple(hands),
                  blind=(tuple(st.blind) if dealt is not None else tuple(g.sort_cards(st.blind))) if g.blind_size
                  else (), bury=tuple(st.bury) if g.kind == "picker" else (), called=st.called, under=st.under,
                  alone=g.partner == "called-ace" and st.called is None, crack=crack, recrack=recrack,
                  doublers=doublers, play=play, extra=extra)
        rec.replay  # noqa: B018 - the deal, the call and the play checked; kept
        return rec

    def seat_of(self, name: str | int) -> int:
        """The seat index of a player: a name, or with the default names an integer.

        >>> from sheepsolve.record import record_from_dict
        >>> rec = record_from_dict({"game": "sheepshead", "picker": 1})
        >>> rec.seat_of("3"), rec.seat_of(3), rec.players[rec.declarer]
        (2, 2, '1')
        """
        return seat_ref(self.players, name, "player")

    @property
    def complete(self) -> bool:
        """Whether every hand is known, and the blind and bury where the game has them."""
        return not self.missing_parts()

    def missing_parts(self) -> list[str]:
        """What the record leaves out, in words: ``["no hand for Bob, Cal", "no blind", "no bury"]`` (empty when
        complete)."""
        out = []
        absent = [p for p, h in zip(self.players, self.hands) if h is None]
        if absent:
            out.append("no hand for " + ", ".join(absent))
        if self.blind is None:
            out.append("no blind")
        if self.bury is None:
            out.append("no bury")
        return out

    def undetermined(self) -> dict[str, int]:
        """Where the record leaves cards undetermined, and how many: ``{"hands.Bob": 4, "blind": 2, ...}``
        (for a hand, the cards of it the play does not show; an empty dict for a complete record).

        >>> from sheepsolve.record import record_from_dict
        >>> rec = record_from_dict({"game": "wenz", "declarer": "1", "play": ["JC 7C"],
        ...                         "hands": {"1": "JC JS JH JD AC TC KC QC", "3": "AS TS KS QS 9S 8S 7S AH"}})
        >>> rec.undetermined()
        {'hands.2': 7, 'hands.4': 8}
        """
        if self.complete:
            return {}
        played = self.replay.played_by_seat()
        g, p = self.game, self.declarer
        out: dict[str, int] = {}
        for s, h in enumerate(self.hands):
            if h is not None:
                continue
            known = set(played[s])
            if g.kind == "picker" and s == p:
                known = (known | set(self.bury or ())) - set(self.blind or ()) if self.blind is not None else set()
            out[f"hands.{self.players[s]}"] = g.hand_size - len(known)
        if self.blind is None:
            out["blind"] = g.blind_size
        if self.bury is None:
            out["bury"] = g.bury_size
        return out

    def incomplete_message(self) -> str:
        """What the record leaves undetermined, in words: places and the count of cards (empty when complete)."""
        missing = self.missing_parts()
        if not missing:
            return ""
        try:
            counts = self.undetermined()
            state = self.replay.final
        except RecordError:  # pragma: no cover - a record that was read has a play that replays
            return "; ".join(missing)
        placed = {c for h in self.hands if h is not None for c in h} | set(self.blind or ()) | set(self.bury or ())
        placed |= {c for cards in played_by_seat(state) for c in cards}
        total = len(set(self.game.deck) - placed)
        where = ", ".join(f"{k} {v}" for k, v in counts.items())
        return "; ".join(missing) + f" ({total} card{'s' if total != 1 else ''} not determined by the play: {where})"

    def setup(self) -> Setup:
        """The engine's :class:`~sheepsolve.engine.Setup`; raises :class:`RecordError` if the record is partial.

        >>> from sheepsolve.record import record_from_dict
        >>> rec = record_from_dict({"game": "sheepshead", "picker": "1", "hands": {"1": "QC QS QH QD JC JS"}})
        >>> try:
        ...     rec.setup()
        ... except RecordError as e:
        ...     print(e)
        setup: the record is incomplete: no hand for 2, 3, 4, 5; no blind; no bury (26 cards not determined by the play: hands.2 6, hands.3 6, hands.4 6, hands.5 6, blind 2, bury 2)
        """
        if self.missing_parts():
            raise RecordError("setup: the record is incomplete: " + self.incomplete_message())
        return self.replay.setup

    def state(self) -> State:
        """The position after the record's last card, replayed through the engine (once: :attr:`replay`)."""
        self.setup()
        return self.replay.final

    @cached_property
    def replay(self) -> Replay:
        """The record's play replayed through the engine, computed once and kept: the setup, the position after
        every card, who played each card (see :class:`~sheepsolve.record.replay.Replay`). A partial record's is
        replayed from a stand-in setup (``replay.complete`` is False). Reading a record computes it, to check the
        play."""
        return replay_of(self)

    def to_dict(self) -> dict[str, Any]:
        """The record as plain data (the keys of the format, cards as canonical text), ready for JSON or TOML.

        >>> from sheepsolve.record import record_from_dict
        >>> rec = record_from_dict({"game": "Rufspiel", "declarer": 2, "called": "as"})
        >>> d = rec.to_dict()
        >>> d["game"], d["declarer"], d["called"]
        ('sauspiel', '2', 'AS')
        """
        g = self.game
        skat = g.family == "skat"
        out: dict[str, Any] = written_keys(g) if skat else {"game": g.name}
        if g.trump_suit is not None and not skat:
            out["trump"] = g.trump_suit
        if g.ouvert and not skat:
            out["ouvert"] = True
        if g.tout:
            out["tout"] = True
        if len(g.deck) < 32:
            out["deck"] = "short"
        if g.name == "sheepshead":
            out["partner"] = g.partner
        out["players"] = list(self.players)
        if self.declarer is not None:
            out["picker" if g.kind == "picker" and not skat else "declarer"] = self.players[self.declarer]
        if self.blind and "blind" not in self.inferred:
            out["skat" if skat else "blind"] = format_cards(self.blind)
        if self.bury and "bury" not in self.inferred and not g.hand:
            out["discard" if skat else "bury"] = format_cards(self.bury)
        if g.partner == "called-ace":
            out["called"] = "alone" if self.alone or self.called is None else str(self.called)
        elif self.called is not None:
            out["called"] = str(self.called)
        elif self.alone:
            out["alone"] = True
        if self.under is not None:
            out["under"] = str(self.under)
        crack, recrack = ("kontra", "re") if g.family == "schafkopf" else ("crack", "recrack")
        if self.crack:
            out[crack] = True
        if self.recrack:
            out[recrack] = True
        if self.doublers:
            out["doublers"] = self.doublers
        if self.auction is not None:
            out["auction"] = self.auction.to_data(self.players)
        if self.position is not None:
            out.update(self.position.to_dict(self.players))
        out.update(self.extra)
        if self.play:
            out["play"] = [format_cards(t) for t in self.play]
        rules = rules_written(g)
        if rules:
            out["rules"] = rules
        hands = {p: format_cards(h) for p, h in zip(self.players, self.hands)
                 if h is not None and f"hands.{p}" not in self.inferred}
        if hands:
            out["hands"] = hands
        if out.get("trump") == "S" and not any(k in out for k in ("hands", "blind", "bury", "called", "under",
                                                                  "play")):
            out["trump"] = "spades"  # no card to say that S is spades, not Schellen: it reads back the same
        return out


def rules_written(game: Game) -> dict[str, Any]:
    """The rule switches that differ from the defaults (and the preset), which re-build the same game."""
    preset = game.rules.get("preset")
    base = resolve_rules(game.family, {"preset": preset} if preset is not None else None)
    out: dict[str, Any] = {"preset": preset} if preset is not None else {}
    out.update({k: v for k, v in game.rules.items() if k != "preset" and base.get(k) != v})
    return out


def seat_ref(players: tuple[str, ...], value: Any, where: str) -> int:
    """A player reference: a name, or with the default names "1".."N" the integer for it."""
    default = players == tuple(str(i + 1) for i in range(len(players)))
    if isinstance(value, int) and not isinstance(value, bool) and default:
        text: Any = str(value)
    elif isinstance(value, (str, int)) and not isinstance(value, bool):
        text = value
    else:
        raise RecordError(f"{where}: must be a player name (a string), not {kind_of(value)}")
    if text in players:
        return players.index(text)
    raise RecordError(f"{where}: {shown(value)} is not a player (players: {shortened(', '.join(players), 200)})")

