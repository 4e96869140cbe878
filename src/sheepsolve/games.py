"""Every game as data: a frozen description, a registry with aliases, and the documented rule switches.

A :class:`Game` is built by :func:`make_game` from a registry name and the record's game fields (``trump``,
``deck``, ``tout``, ``partner``, seats) plus the ``[rules]`` switches. Nothing else in sheepsolve looks at a
game's name: the rules engine, the scorer and the compiled core read only the fields.

>>> g = make_game("rufspiel")
>>> g.name, g.seats, g.hand_size, len(g.trumps)
('sauspiel', 4, 8, 14)
>>> [str(c) for c in make_game("wenz").trumps]
['JC', 'JS', 'JH', 'JD']
>>> make_game("solo", trump="S", deck="short").hand_size
6
>>> g = make_game("sheepshead")
>>> g.suit_class(g.card("QH")), g.suit_class(g.card("AH")), g.suit_class(g.card("7D"))
('T', 'H', 'T')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .cards import ALL_CARDS, SUITS, Card, SuitError, parse_suit
from .contracts import contract_name
from .files import clip
from .skat_declaration import DeclarationError, declared_fields

__all__ = [
    "Game",
    "GameError",
    "GameSpec",
    "RuleSwitch",
    "RULE_SWITCHES",
    "REGISTRY",
    "PRESETS",
    "make_game",
    "resolve_name",
    "list_games",
]


class GameError(ValueError):
    """An unknown game, a game field that does not fit the game, or a bad rule switch."""


# --------------------------------------------------------------------------------------------------------------
# Rule switches: every option of RULES.md, with its default.


@dataclass(frozen=True, kw_only=True)
class RuleSwitch:
    name: str
    default: Any
    kind: type
    family: str  # "sheepshead", "schafkopf" or "all"
    doc: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None


MAX_MULTIPLIER = 64
"""The largest value of a multiplier switch (alone_multiplier, tout_multiplier, sie_multiplier)."""
MAX_TARIFF = 100_000
"""The largest tariff (tariff_sauspiel, tariff_solo, tariff_bonus, ramsch_tariff)."""

RULE_SWITCHES: dict[str, RuleSwitch] = {
    s.name: s
    for s in [
        # Sheepshead
        RuleSwitch(name="bury_needs_trick", default=False, kind=bool, family="sheepshead",
                   doc="the bury counts for the picker's side only if that side took a trick"),
        RuleSwitch(name="call_up", default=False, kind=bool, family="sheepshead",
                   doc="jack-of-diamonds: a picker holding (or burying) JD calls up the highest jack he lacks "
                       "instead of playing alone"),
        RuleSwitch(name="run", default=False, kind=bool, family="sheepshead",
                   doc="called ace: the partner may lead another card of the called suit when holding 4 or "
                       "more of it, which frees the ace"),
        RuleSwitch(name="alone_multiplier", default=2, kind=int, family="sheepshead", minimum=1,
                   maximum=MAX_MULTIPLIER, doc="5-hand: payments multiplier when the picker plays alone"),
        RuleSwitch(name="double_on_bump", default=False, kind=bool, family="sheepshead",
                   doc="a losing picker's side pays double"),
        RuleSwitch(name="blitz", default=False, kind=bool, family="sheepshead",
                   doc="stakes double when the picker held both black queens (QC QS) at the first lead"),
        RuleSwitch(name="all_pass", default="leaster", kind=str, family="sheepshead",
                   choices=("leaster", "doubler"),
                   doc="what happens when everyone passes: a leaster, or a redeal with the next hand doubled"),
        RuleSwitch(name="leaster_blind", default="last", kind=str, family="sheepshead",
                   choices=("last", "first", "nobody"),
                   doc="leaster: the blind goes to the winner of the last trick, the first trick, or nobody"),
        # Schafkopf
        RuleSwitch(name="run_min", default=4, kind=int, family="schafkopf", minimum=1, maximum=8,
                   doc="sauspiel R3 (davonlaufen): cards of the called suit the ace's holder needs to lead "
                       "it with another card"),
        RuleSwitch(name="called_throw_off_last_only", default=True, kind=bool, family="all",
                   doc="R2: the called ace may not be thrown off on another suit before the last trick"),
        RuleSwitch(name="schwarz_by_points", default=False, kind=bool, family="schafkopf",
                   doc="schwarz means 120 card points instead of every trick"),
        RuleSwitch(name="tariff_sauspiel", default=10, kind=int, family="schafkopf", minimum=0, maximum=MAX_TARIFF,
                   doc="base tariff of a sauspiel"),
        RuleSwitch(name="tariff_solo", default=50, kind=int, family="schafkopf", minimum=0, maximum=MAX_TARIFF,
                   doc="base tariff of solo, wenz, geier, farbwenz, farbgeier"),
        RuleSwitch(name="tariff_bonus", default=10, kind=int, family="schafkopf", minimum=0, maximum=MAX_TARIFF,
                   doc="added for schneider, for schwarz and for each Laufender"),
        RuleSwitch(name="laufende_from", default=0, kind=int, family="schafkopf", minimum=0, maximum=14,
                   doc="Laufende count from this many (0 = game default: 3, or 2 in wenz and geier)"),
        RuleSwitch(name="tout_multiplier", default=2, kind=int, family="schafkopf", minimum=1,
                   maximum=MAX_MULTIPLIER,
                   doc="tout multiplies the tariff (no schneider or schwarz)"),
        RuleSwitch(name="sie_multiplier", default=4, kind=int, family="schafkopf", minimum=1,
                   maximum=MAX_MULTIPLIER,
                   doc="sie multiplies the tariff"),
        RuleSwitch(name="ramsch_tariff", default=10, kind=int, family="schafkopf", minimum=0, maximum=MAX_TARIFF,
                   doc="ramsch: the loser pays this to each other player"),
        RuleSwitch(name="ramsch_ties", default="all-lose", kind=str, family="schafkopf",
                   choices=("all-lose", "nobody"),
                   doc="ramsch: players tied for the most points all lose, or nobody pays"),
        RuleSwitch(name="all_pass_schafkopf", default="ramsch", kind=str, family="schafkopf",
                   choices=("ramsch", "redeal"),
                   doc="what happens when all four pass"),
        RuleSwitch(name="bettel_tariff", default="sauspiel", kind=str, family="schafkopf",
                   choices=("sauspiel", "solo"), doc="Bettel pays the sauspiel's tariff or the solo's"),
        # Skat
        RuleSwitch(name="seeger_fabian", default=False, kind=bool, family="skat",
                   doc="Seeger-Fabian scoring: +50 a won game, -50 a lost one, 40 to each opponent of a lost game"),
    ]
}

PRESETS: dict[str, dict[str, Any]] = {
    # The GameTwist page (shared/seeds): redeal when all pass, davonlaufen with 3 other cards (4 in all), no
    # farbwenz/farbgeier/sie/ramsch. Its auction order, sauspiel < geier < wenz < solo (touts above), is the
    # standard order of those games, so it needs no switch.
    "gametwist": {"all_pass_schafkopf": "redeal", "run_min": 4},
    "standard": {},
}
PRESET_GAMES = {"gametwist": {"sauspiel", "solo", "wenz", "geier"}}


def resolve_rules(family: str, rules: Mapping[str, Any] | None) -> dict[str, Any]:
    """Fill in defaults and check every switch; raises :class:`GameError` naming the bad key."""
    out = {k: s.default for k, s in RULE_SWITCHES.items() if s.family in (family, "all")}
    given = dict(rules or {})
    preset = given.pop("preset", None)
    if preset is not None:
        if not isinstance(preset, str) or preset not in PRESETS:
            raise GameError(f"rules.preset: unknown preset {clip(repr(preset))} "
                            f"(known: {', '.join(PRESETS)})")
        out.update(PRESETS[preset])
        out["preset"] = preset
    for key, value in given.items():
        sw = RULE_SWITCHES.get(key)
        if sw is None:
            raise GameError(f"rules.{clip(key)}: unknown rule switch (see `sheepsolve games`)")
        if sw.family not in (family, "all"):
            raise GameError(f"rules.{clip(key)}: a {sw.family} switch, not for a {family} game")
        if sw.kind is bool:
            if not isinstance(value, bool):
                raise GameError(f"rules.{clip(key)}: must be true or false, not {clip(repr(value))}")
        elif sw.kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise GameError(f"rules.{clip(key)}: must be an integer, not {clip(repr(value))}")
            if sw.minimum is not None and value < sw.minimum:
                raise GameError(f"rules.{clip(key)}: must be at least {sw.minimum}, not {clip(value)}")
            if sw.maximum is not None and value > sw.maximum:
                raise GameError(f"rules.{clip(key)}: must be at most {sw.maximum}, not {clip(value)}")
        elif sw.kind is str:
            if not isinstance(value, str) or (sw.choices and value not in sw.choices):
                raise GameError(f"rules.{clip(key)}: must be one of {', '.join(map(repr, sw.choices or ()))}, "
                                f"not {clip(repr(value))}")
        out[key] = value
    return out


# --------------------------------------------------------------------------------------------------------------
# The game description.


@dataclass(frozen=True, kw_only=True)
class Game:
    """Everything the rules engine, the scorer and the core need to know about one game."""

    name: str  # canonical registry name
    title: str
    family: str  # "sheepshead" or "schafkopf"
    kind: str  # "picker" (sheepshead family), "leaster", "contract" (schafkopf), "ramsch"
    seats: int
    hand_size: int
    blind_size: int
    bury_size: int
    deck: tuple[Card, ...]
    trumps: tuple[Card, ...]  # high to low
    plain_ranks: str  # ranks of the non-trump cards of a suit, high to low
    trump_suit: str | None = None
    partner: str = "none"  # "jack-of-diamonds", "called-ace", "alone", "sauspiel", "none"
    tout: bool = False
    sie: bool = False
    solo_type: bool = False  # schafkopf tariff class (solo, wenz, geier, ...)
    laufende_from: int = 0
    rank: float = 0  # auction rank
    no_trick: bool = False  # the declarer wins by taking no trick at all (Skat's null, Schafkopf's Bettel)
    ouvert: bool = False  # the declarer's hand is open to every seat
    # Skat's declaration (docs/RULES.md, "Skat"): a hand game (the skat not taken up), schneider or schwarz
    # announced, and the bid the game's value must cover (None: not known)
    hand: bool = False
    schneider_announced: bool = False
    schwarz_announced: bool = False
    bid: int | None = None
    rules: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    # derived tables, filled in __post_init__
    _class: tuple[str, ...] = field(default=(), repr=False, compare=False)
    _strength: tuple[int, ...] = field(default=(), repr=False, compare=False)
    _classes: tuple[str, ...] = field(default=(), repr=False, compare=False)
    _total: int = field(default=0, repr=False, compare=False)

    def __post_init__(self) -> None:
        cls = ["-"] * 32
        strength = [-1] * 32
        ntr = len(self.trumps)
        for i, c in enumerate(self.trumps):
            cls[c] = "T"
            strength[c] = 100 + ntr - i
        for c in self.deck:
            if cls[c] == "-":
                cls[c] = c.suit
                strength[c] = len(self.plain_ranks) - self.plain_ranks.index(c.rank)
        object.__setattr__(self, "_class", tuple(cls))
        object.__setattr__(self, "_strength", tuple(strength))
        classes = (["T"] if self.trumps else []) + [s for s in SUITS if any(cls[c] == s for c in self.deck)]
        object.__setattr__(self, "_classes", tuple(classes))
        object.__setattr__(self, "_total", sum(c.points for c in self.deck))

    # -- cards -------------------------------------------------------------------------------------------------
    def card(self, text: str) -> Card:
        return Card.parse(text)

    @property
    def trump_mask(self) -> int:
        m = 0
        for c in self.trumps:
            m |= 1 << c
        return m

    def is_trump(self, card: Card) -> bool:
        return self._class[card] == "T"

    def suit_class(self, card: Card) -> str:
        """``'T'`` for a trump, else the card's printed suit letter."""
        return self._class[card]

    def strength(self, card: Card) -> int:
        """Trick-taking strength: every trump beats every non-trump; higher wins within a class."""
        return self._strength[card]

    def class_cards(self, cls: str) -> list[Card]:
        """The cards of a suit class, strongest first."""
        return sorted((c for c in self.deck if self._class[c] == cls), key=lambda c: -self._strength[c])

    def sort_cards(self, cards: Iterable[Card], suit_class: Callable[[Card], str] | None = None) -> list[Card]:
        """Cards in the game's order, as a hand is shown: the classes in :attr:`classes` order (trump first, then
        the plain suits C S H D), strongest first within a class.

        ``suit_class`` gives a card's class where the deal changes it (the Sheepshead card *under* stands for the
        called suit: pass :meth:`Setup.suit_class <sheepsolve.engine.Setup.suit_class>`); cards of equal strength
        in a class keep the deck's order.

        >>> g = make_game("wenz")
        >>> [str(c) for c in g.sort_cards(g.card(t) for t in ("7C", "AH", "JD", "QC", "JC"))]
        ['JC', 'JD', 'QC', '7C', 'AH']
        """
        class_of = suit_class or self.suit_class
        place = {cls: i for i, cls in enumerate(self._classes)}
        return sorted(cards, key=lambda c: (place.get(class_of(c), len(place)), -self._strength[c], int(c)))

    @property
    def classes(self) -> tuple[str, ...]:
        """Suit classes in display order: trump first, then the plain suits C S H D present."""
        return self._classes

    @property
    def plain_suits(self) -> tuple[str, ...]:
        return self._classes[1:] if self.trumps else self._classes  # the classes are "T", then these in order

    @property
    def total_points(self) -> int:
        return self._total

    @property
    def tricks(self) -> int:
        return self.hand_size

    @property
    def two_sided(self) -> bool:
        return self.kind in ("picker", "contract")


# --------------------------------------------------------------------------------------------------------------
# Building blocks.

QUEENS = tuple(Card.make("Q", s) for s in SUITS)
JACKS = tuple(Card.make("J", s) for s in SUITS)

CHOSEN = "chosen"
"""A :attr:`GameSpec.trump_suit` that the record names (its ``trump`` field): solo, farbwenz, farbgeier."""


def _deck(short: bool) -> tuple[Card, ...]:
    return tuple(c for c in ALL_CARDS if not (short and c.rank in "87"))


def _suit_run(suit: str, ranks: str, deck: tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(c for c in (Card.make(r, suit) for r in ranks) if c in deck)


@dataclass(frozen=True, kw_only=True)
class GameSpec:
    """A registry entry: a name, its aliases and how to build the game from the record's fields.

    The trumps are the ``top_trumps`` ranks in every suit (Ober before Unter, each C S H D), then the cards of
    ``trump_suit`` in ``plain_ranks`` order; a plain suit ranks ``plain_ranks``; a deck without some ranks (the
    short deck: no 8 or 7) leaves them out of both.

    >>> spec = REGISTRY["farbwenz"]
    >>> spec.top_trumps, spec.trump_suit, spec.plain_ranks, spec.laufende_from
    ('J', 'chosen', 'ATKQ987', 3)
    >>> [str(c) for c in make_game("farbwenz", trump="D", deck="short").trumps]
    ['JC', 'JS', 'JH', 'JD', 'AD', 'TD', 'KD', 'QD', '9D']
    """

    name: str
    title: str
    family: str
    kind: str  # as Game.kind: "picker", "leaster", "contract" or "ramsch"
    aliases: tuple[str, ...] = ()
    seats: tuple[int, ...] = (4,)
    decks: tuple[str, ...] = ("long",)
    tout_allowed: bool = False
    partners: tuple[str, ...] = ()  # the partner rules a record may choose, the default first
    partner: str = "none"  # the partner rule when there is no choice
    doc: str = ""
    top_trumps: str = "QJ"  # ranks trump in every suit, high to low: Ober and Unter "QJ", Unter "J", Ober "Q"
    trump_suit: str | None = None  # the suit whose other cards follow them as trumps, CHOSEN, or None
    plain_ranks: str = "ATK987"  # a plain suit's ranks, high to low, in the long deck
    laufende_from: int = 0  # Laufende count from this many (0: none), unless rules.laufende_from says otherwise
    blind: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))  # blind size by seats
    seat_titles: Mapping[int, str] = field(default_factory=lambda: MappingProxyType({}))  # title by seats
    solo_type: bool = False  # Schafkopf tariff class (solo, wenz, geier, ...)
    sie: bool = False
    auction_rank: float = 0  # higher outbids lower; a tout adds 10
    ouvert_rank: float | None = None  # the auction rank played ouvert (None: no ouvert form)
    no_trick: bool = False  # the declarer must take no trick (null, Bettel): no trumps, its own rank order

    @property
    def needs_trump(self) -> bool:
        """The record names the trump suit."""
        return self.trump_suit == CHOSEN

    @property
    def ouvert_allowed(self) -> bool:
        return self.ouvert_rank is not None


_SHEEPSHEAD: dict[str, Any] = dict(family="sheepshead", top_trumps="QJ", trump_suit="D", plain_ranks="ATK987")
_SKAT: dict[str, Any] = dict(family="skat", kind="picker", seats=(3,), blind={3: 2}, partner="alone")
_SOLO_TYPE: dict[str, Any] = dict(family="schafkopf", kind="contract", seats=(4, 3), decks=("long", "short"),
                                  tout_allowed=True, solo_type=True)

REGISTRY: dict[str, GameSpec] = {
    s.name: s
    for s in [
        GameSpec(name="sheepshead", title="Sheepshead (5-hand)", **_SHEEPSHEAD, kind="picker", seats=(5,),
                 aliases=("sheepshead-5", "schafkopf-wisconsin", "5-hand"), blind={5: 2},
                 partners=("jack-of-diamonds", "called-ace", "alone"),
                 doc="picker takes the 2-card blind and buries 2; partner by jack of diamonds or called ace"),
        GameSpec(name="leaster", title="Leaster", **_SHEEPSHEAD, kind="leaster", seats=(5, 4, 3),
                 blind={5: 2, 4: 4, 3: 2}, seat_titles={4: "Leaster (4-hand)", 3: "Leaster (3-hand)"},
                 aliases=("least",), doc="everyone alone, fewest points wins (needs a trick)"),
        GameSpec(name="sheepshead-3", title="Sheepshead (3-hand)", **_SHEEPSHEAD, kind="picker", seats=(3,),
                 blind={3: 2}, partner="alone",
                 aliases=("3-hand", "sheepshead3"), doc="10 cards each + 2 blind; picker alone against 2"),
        GameSpec(name="sheepshead-4", title="Sheepshead (4-hand)", **_SHEEPSHEAD, kind="picker", seats=(4,),
                 blind={4: 4}, partner="alone",
                 aliases=("4-hand", "sheepshead4"), doc="7 cards each + 4 blind; picker buries 4, alone"),
        GameSpec(name="sauspiel", title="Sauspiel (Rufspiel)", family="schafkopf", kind="contract",
                 decks=("long", "short"), trump_suit="H", laufende_from=3, partner="sauspiel", auction_rank=1,
                 aliases=("rufspiel", "ruf", "sau", "partnerspiel", "schafkopf"),
                 doc="declarer calls a plain ace; hearts trump"),
        GameSpec(name="solo", title="Solo (Farbsolo)", **_SOLO_TYPE, trump_suit=CHOSEN, laufende_from=3,
                 auction_rank=4, aliases=("farbsolo", "farbspiel"),
                 doc="declarer alone; Ober, Unter, then the chosen suit"),
        GameSpec(name="wenz", title="Wenz", **_SOLO_TYPE, top_trumps="J", plain_ranks="ATKQ987", laufende_from=2,
                 auction_rank=3, doc="only the four Unter are trump"),
        GameSpec(name="geier", title="Geier", **_SOLO_TYPE, top_trumps="Q", plain_ranks="ATKJ987", laufende_from=2,
                 auction_rank=2, aliases=("geir",), doc="only the four Ober are trump"),
        GameSpec(name="farbwenz", title="Farbwenz", **_SOLO_TYPE, top_trumps="J", trump_suit=CHOSEN,
                 plain_ranks="ATKQ987", laufende_from=3, auction_rank=3,
                 doc="the four Unter, then the chosen suit"),
        GameSpec(name="farbgeier", title="Farbgeier", **_SOLO_TYPE, top_trumps="Q", trump_suit=CHOSEN,
                 plain_ranks="ATKJ987", laufende_from=3, auction_rank=2,
                 doc="the four Ober, then the chosen suit"),
        GameSpec(name="bettel", title="Bettel", family="schafkopf", kind="contract", seats=(4, 3),
                 decks=("long", "short"), top_trumps="", plain_ranks="AKQJT987", no_trick=True, auction_rank=1.5,
                 ouvert_rank=3.5,
                 doc="no trumps, A K O U 10 9 8 7 in every suit; the declarer must take no trick"),
        GameSpec(name="sie", title="Sie", family="schafkopf", kind="contract", decks=("long",), trump_suit="H",
                 laufende_from=3, solo_type=True, sie=True, auction_rank=20,
                 doc="declarer holds all four Ober and four Unter; not played out (long deck: eight cards)"),
        GameSpec(name="ramsch", title="Ramsch", family="schafkopf", kind="ramsch", decks=("long", "short"),
                 trump_suit="H", laufende_from=3,
                 aliases=("ramsh",), doc="all passed: sauspiel trumps, everyone alone, most points loses"),
        # Skat: the declarer alone against two; the 2-card skat counts for him (taken up and two cards put away,
        # or left as dealt in a hand game). Grand is a 3-player Wenz, a suit game a 3-player Farbwenz.
        GameSpec(name="grand", title="Skat Grand", **_SKAT, top_trumps="J", plain_ranks="ATKQ987", auction_rank=24,
                 ouvert_rank=24, aliases=("skat-grand",), doc="Skat: only the four jacks are trump"),
        GameSpec(name="skat", title="Skat suit game", **_SKAT, top_trumps="J", trump_suit=CHOSEN,
                 plain_ranks="ATKQ987", auction_rank=9, ouvert_rank=9,
                 aliases=("skat-suit", "skat-farbspiel"), doc="Skat: the four jacks, then the chosen suit"),
        GameSpec(name="null", title="Skat Null", **_SKAT, top_trumps="", plain_ranks="AKQJT987", no_trick=True,
                 auction_rank=23, ouvert_rank=46, aliases=("skat-null",),
                 doc="Skat: no trumps, A K Q J 10 9 8 7; the declarer must take no trick"),
    ]
}


def _three_player_contract(spec: GameSpec) -> bool:
    """A Schafkopf contract also played by three (``wenz-3`` and the like name it)."""
    return spec.family == "schafkopf" and 3 in spec.seats


ALIASES: dict[str, str] = {}
for _spec in REGISTRY.values():
    ALIASES[_spec.name] = _spec.name
    for _alias in _spec.aliases:
        ALIASES[_alias] = _spec.name
for _spec in REGISTRY.values():
    if _three_player_contract(_spec):
        ALIASES[f"{_spec.name}-3"] = _spec.name
ALIASES["farbsolo-3"] = "solo"
for _spec in REGISTRY.values():
    if _spec.tout_allowed:
        ALIASES[f"{_spec.name}-tout"] = _spec.name
    if _spec.ouvert_allowed:
        ALIASES[f"{_spec.name}-ouvert"] = _spec.name


def resolve_name(name: str) -> tuple[str, dict[str, Any]]:
    """Canonical game name and the fields an alias implies (``wenz-3`` means 3 seats, ``solo-tout`` tout)."""
    if not isinstance(name, str):
        raise GameError(f"game: must be a string, not {clip(repr(name))}")
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    if key not in ALIASES:
        raise GameError(f"game: unknown game {clip(repr(name))} (see `sheepsolve games`; "
                        f"known: {', '.join(REGISTRY)})")
    implied: dict[str, Any] = {}
    if key.endswith("-3") and _three_player_contract(REGISTRY[ALIASES[key]]):
        implied["seats"] = 3
    if key.endswith("-tout"):
        implied["tout"] = True
    if key.endswith("-ouvert"):
        implied["ouvert"] = True
    return ALIASES[key], implied


def make_game(
    name: str,
    *,
    trump: str | None = None,
    deck: str | None = None,
    tout: bool | None = None,
    partner: str | None = None,
    seats: int | None = None,
    ouvert: bool | None = None,
    rules: Mapping[str, Any] | None = None,
    hand: bool | None = None,
    schneider_announced: bool | None = None,
    schwarz_announced: bool | None = None,
    bid: int | None = None,
) -> Game:
    """Build a :class:`Game` from a registry name (or alias) and the record's game fields.

    Skat's declaration (``hand``, ``schneider_announced``, ``schwarz_announced``, ``ouvert``, ``bid``) is checked
    by :func:`sheepsolve.skat_declaration.check_declaration`.

    Raises :class:`GameError` naming the field when a field does not fit the game.
    """
    canon, implied = resolve_name(name)
    spec = REGISTRY[canon]
    if seats is not None and implied.get("seats", seats) != seats:
        raise GameError(f"players: {name} is the {implied['seats']}-player game, not for {seats} players")
    if tout is not None and implied.get("tout", tout) != tout:
        raise GameError(f"tout: {name} is played tout, tout cannot be {clip(repr(tout))}")
    if seats is None:
        seats = implied.get("seats")
    if tout is None:
        tout = implied.get("tout", False)
    if not isinstance(tout, bool):
        raise GameError(f"tout: must be true or false, not {clip(repr(tout))}")
    if ouvert is not None and implied.get("ouvert", ouvert) != ouvert:
        raise GameError(f"ouvert: {name} is played ouvert, ouvert cannot be {clip(repr(ouvert))}")
    if ouvert is None:
        ouvert = implied.get("ouvert", False)
    if not isinstance(ouvert, bool):
        raise GameError(f"ouvert: must be true or false, not {clip(repr(ouvert))}")
    if ouvert and not spec.ouvert_allowed:
        raise GameError(f"ouvert: {canon} has no ouvert form here")
    family = spec.family
    resolved_rules = resolve_rules(family, rules)
    preset = resolved_rules.get("preset")
    if preset in PRESET_GAMES and canon not in PRESET_GAMES[preset]:
        raise GameError(f"game: {canon} is not played under the {preset} preset "
                        f"(it has {', '.join(sorted(PRESET_GAMES[preset]))})")

    if deck is None:
        deck = "short" if (family == "schafkopf" and (seats or spec.seats[0]) == 3) else "long"
    if deck not in ("long", "short"):
        raise GameError(f"deck: must be \"long\" or \"short\", not {clip(repr(deck))}")
    if deck not in spec.decks:
        raise GameError(f"deck: {canon} is played with the long deck only")
    if seats is None:
        seats = spec.seats[0]
    if seats not in spec.seats:
        raise GameError(f"players: {canon} is for {' or '.join(map(str, spec.seats))} players, not {seats}")
    if family == "schafkopf" and seats == 3 and deck != "short":
        raise GameError("deck: 3-player Schafkopf uses the short deck")
    if trump is not None:
        try:  # the canonical letters C S H D (S is spades here), or a suit's name in either notation
            trump = parse_suit(trump, "french")
        except SuitError as e:
            raise GameError(f"trump: {e}") from None
    if spec.needs_trump and trump is None:
        raise GameError(f"trump: {canon} needs a trump suit (C, S, H or D)")
    if not spec.needs_trump and trump is not None:
        raise GameError(f"trump: {canon} has no trump suit to choose")
    if tout and not spec.tout_allowed:
        raise GameError(f"tout: {canon} cannot be played tout")
    if partner is not None and not spec.partners and not partner == spec.partner == "alone":
        raise GameError(f"partner: only 5-hand sheepshead has a partner rule, not {canon}")

    cards = _deck(deck == "short")
    plain = "".join(r for r in spec.plain_ranks if any(c.rank == r for c in cards))
    top = tuple(Card.make(r, s) for r in spec.top_trumps for s in SUITS)
    suit = trump if spec.needs_trump else spec.trump_suit
    trumps = top + (_suit_run(suit, plain, cards) if suit is not None else ())
    blind = spec.blind.get(seats, 0)
    if spec.partners:
        chosen_partner = partner if partner is not None else spec.partners[0]
        if chosen_partner not in spec.partners:
            raise GameError(f"partner: must be one of {', '.join(spec.partners)}, not {clip(repr(chosen_partner))}")
    else:
        chosen_partner = spec.partner
    try:  # Skat's hand game, announcements and bid
        declared = declared_fields(family, canon, trump, bool(ouvert), hand=hand, bid=bid,
                                   schneider_announced=schneider_announced, schwarz_announced=schwarz_announced)
    except DeclarationError as e:
        raise GameError(str(e)) from None
    if family == "skat":  # Skat's German names: "Kreuz-Spiel", "Grand Hand", "Null ouvert"
        title = contract_name(canon, "ascii", trump=trump, ouvert=bool(ouvert),
                              **{k: v for k, v in declared.items() if k != "bid"})
    elif trump:  # "Solo in spades": a letter in brackets read as Schellen to a Bavarian
        title = contract_name(canon, "ascii", trump=trump, tout=bool(tout)) + (" Ouvert" if ouvert else "")
    else:
        title = spec.seat_titles.get(seats, spec.title) + (" Tout" if tout else "") + (" Ouvert" if ouvert else "")
    rank = (spec.ouvert_rank if ouvert else spec.auction_rank) + (10 if tout else 0)
    return Game(**declared, name=canon, title=title, family=family, kind=spec.kind, seats=seats,
                hand_size=(len(cards) - blind) // seats, blind_size=blind,
                bury_size=blind if spec.kind == "picker" else 0, deck=cards, trumps=trumps, plain_ranks=plain,
                trump_suit=trump, partner=chosen_partner, tout=tout, sie=spec.sie, solo_type=spec.solo_type,
                laufende_from=resolved_rules.get("laufende_from", 0) or spec.laufende_from,
                rank=rank, no_trick=spec.no_trick, ouvert=bool(ouvert), rules=MappingProxyType(dict(resolved_rules)))


def list_games() -> list[dict[str, Any]]:
    """One entry per registry game (default form) for `sheepsolve games`."""
    out = []
    for spec in REGISTRY.values():
        g = make_game(spec.name, trump="H" if spec.needs_trump else None)
        out.append({
            "name": spec.name,
            "title": spec.title,
            "aliases": sorted(a for a, n in ALIASES.items() if n == spec.name and a != spec.name),
            "family": spec.family,
            "players": list(spec.seats),
            "decks": list(spec.decks),
            "hand_size": g.hand_size,
            "blind_size": g.blind_size,
            "trumps": [str(c) for c in g.trumps] if not spec.needs_trump else
            [str(c) for c in g.trumps[: len(g.trumps) - len(g.plain_ranks)]] + ["(trump suit: " + g.plain_ranks
                                                                                 + ")"],
            "plain_ranks": g.plain_ranks,
            "needs_trump": spec.needs_trump,
            "tout": spec.tout_allowed,
            "partners": list(spec.partners),
            "doc": spec.doc,
        })
    return out
