"""Compile a position (setup, objective, state) into the flat tables the compiled core searches.

The core numbers cards its own way: every suit class occupies a run of consecutive bits, weakest card lowest,
and the trump class sits above every plain class. Then "the strongest card of a class" is the highest bit, the
trick winner is the highest card among trumps and the led class, and "adjacent among the cards still out" is
"next set bit". The card *under* (Sheepshead called ace) is placed at the bottom of the called suit's run.

Nothing here branches on a game's name: the tables come from :class:`~sheepsolve.games.Game` fields and the
:class:`~sheepsolve.engine.Setup`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .engine import State
from .objective import Objective

__all__ = ["CoreTables", "compile_tables", "core_position", "fixed_points"]


@dataclass(frozen=True)
class CoreTables:
    """Flat arrays for the core; ``order[i]`` is the real card of core index ``i``."""

    n: int
    order: tuple[Card, ...]
    index: dict  # Card -> core index
    bits: tuple[int, ...]  # by card number: the card's core bit (0 for a card outside the deck)
    cls: tuple[int, ...]  # class id per core index (trump class = ntrump id)
    pts: tuple[int, ...]
    cmask: tuple[int, ...]  # 8 class masks
    trump_cls: int
    called: int  # core index or -1
    called_cls: int
    special: int  # mask of cards never merged as equivalent (called card, under card)
    partner: int
    hold_seat: int
    run_min: int
    throw_off_last_only: int  # 1: the partner may not throw the called card off before his last card (R2)
    team: tuple[int, ...]
    maximizing: tuple[int, ...]  # per seat: 1 when the seat maximises the objective's value
    gain_tricks: int
    bonus_left: tuple[int, ...]  # 17 entries: extra gain of the trick played with k tricks left
    end_value: tuple[int, int]  # the value added at the end of the hand, by "the side took a trick" (0 or 1)
    blocks: tuple[int, ...]  # masks of runs of consecutive equal-point cards of a class (special cards alone)
    context: tuple  # everything that decides a table entry's meaning besides the key

    def mask(self, cards) -> int:
        bits = self.bits
        m = 0
        for c in cards:
            m |= bits[c]
        return m

    def cards(self, mask: int) -> list[Card]:
        return [self.order[i] for i in range(len(self.order)) if mask >> i & 1]


@dataclass(frozen=True)
class _Layout:
    order: tuple[Card, ...]
    index: dict
    bits: tuple[int, ...]
    cls: tuple[int, ...]
    cmask: tuple[int, ...]
    trump_cls: int
    called: int
    called_cls: int
    special: int
    blocks: tuple[int, ...]
    pts: tuple[int, ...]


_LAYOUTS: dict = {}


def _layout(st) -> _Layout:
    """The core's card numbering for a game, a called card and a card under (cached: it is the same for every
    deal of a game)."""
    g = st.game
    key = (id(g), st.called, st.under)
    hit = _LAYOUTS.get(key)
    if hit is not None and hit[0] is g:
        return hit[1]
    classes = [s for s in g.plain_suits] + (["T"] if g.trumps else [])
    cls_id = {c: i for i, c in enumerate(classes)}
    order: list[Card] = []
    cls: list[int] = []
    cmask = [0] * 8
    for k in classes:
        members = sorted((c for c in g.deck if st.suit_class(c) == k and c != st.under),
                         key=lambda c: g.strength(c))
        if st.under is not None and st.called is not None and k == st.called_class:
            members = [st.under] + members
        for c in members:
            cmask[cls_id[k]] |= 1 << len(order)
            order.append(c)
            cls.append(cls_id[k])
    index = {c: i for i, c in enumerate(order)}
    called = index[st.called] if st.called is not None else -1
    special = 0
    if called >= 0:
        special |= 1 << called
    if st.under is not None and st.called is not None:
        special |= 1 << index[st.under]
    # Blocks: consecutive cards of a class with equal points. Inside a block only the order of the holders of the
    # cards still out matters, which the core's table key uses (relative ranks).
    blocks: list[int] = []
    prev = None
    for i, c in enumerate(order):
        bkey = (cls[i], c.points)
        if blocks and prev == bkey and not (special >> i & 1) and not (special >> (i - 1) & 1):
            blocks[-1] |= 1 << i
        else:
            blocks.append(1 << i)
        prev = bkey
    bits = tuple(1 << index[c] if c in index else 0 for c in range(32))
    lay = _Layout(order=tuple(order), index=index, bits=bits, cls=tuple(cls), cmask=tuple(cmask),
                  trump_cls=cls_id.get("T", 7), called=called,
                  called_cls=cls_id[st.called_class] if st.called is not None else -1, special=special,
                  blocks=tuple(blocks), pts=tuple(c.points for c in order))
    if len(_LAYOUTS) > 256:
        _LAYOUTS.clear()
    _LAYOUTS[key] = (g, lay)
    return lay


_TABLES: dict = {}
_NO_BONUS = (0,) * 17


def compile_tables(state: State, obj: Objective) -> CoreTables:
    """The core's tables for ``state``'s setup and ``obj``. They depend on the game, the call and the objective,
    never on the hands' contents nor on fixed points (:func:`fixed_points`), so they are cached by their context:
    the buries of one deal, and the deals of one game and call, share one object, and a :class:`Solver
    <sheepsolve.solver.Solver>` given the object it loaded last skips loading it again."""
    st = state.setup
    g = st.game
    total = max(map(len, st.hands), default=0)  # tricks from the first lead (a setup may be dealt short)
    bonus = _NO_BONUS
    if obj.blind_trick is not None and not obj.tricks:
        extra = [0] * 17
        extra[total - obj.blind_trick] = obj.blind_points
        bonus = tuple(extra)
    # Only what depends on the play goes into the core; fixed points (an unconditional bury) are added outside.
    if obj.tricks:
        end_value = (0, 0)
    elif obj.no_trick_value is not None:
        end_value = (obj.no_trick_value, obj.bury_points)
    elif obj.bury_needs_trick:
        end_value = (0, obj.bury_points)
    else:
        end_value = (0, 0)
    run_min = st.run_min if st.run_min is not None else 99
    rest = (tuple(sorted(obj.team)), obj.maximize, obj.tricks, bonus, end_value, st.partner,
            st.declarer if st.hold_rule else -1, run_min, st.throw_off_last_only)
    # looked up by what decides the layout (:func:`_layout`'s key) and the rest of the context
    key = (id(g), st.called, st.under, rest)
    hit = _TABLES.get(key)
    if hit is not None and hit[0] is g:
        return hit[1]
    lay = _layout(st)
    order, index, cls, called, special = lay.order, lay.index, lay.cls, lay.called, lay.special
    n = g.seats
    # The table key records every card's holder, so entries stay valid across deals with the same tables.
    ctx = (n, order, cls, called) + rest
    team = tuple(1 if s in obj.team else 0 for s in range(n))
    maximizing = tuple(1 if (t == 1) == obj.maximize else 0 for t in team)
    tables = CoreTables(
        n=n, order=order, index=index, bits=lay.bits, cls=cls, pts=lay.pts,
        cmask=lay.cmask, trump_cls=lay.trump_cls, called=called, called_cls=lay.called_cls, special=special,
        partner=st.partner if (st.partner is not None and called >= 0) else -1,
        hold_seat=st.declarer if (st.hold_rule and called >= 0) else -1, run_min=run_min,
        throw_off_last_only=1 if st.throw_off_last_only else 0, team=team, maximizing=maximizing,
        gain_tricks=1 if obj.tricks else 0, bonus_left=bonus, end_value=end_value, blocks=lay.blocks, context=ctx)
    if len(_TABLES) > 256:
        _TABLES.clear()
    _TABLES[key] = (g, tables)
    return tables


def fixed_points(obj: Objective) -> int:
    """The points added outside the core: the bury when the side has it whatever the play."""
    return 0 if (obj.tricks or obj.bury_needs_trick or obj.no_trick_value is not None) else obj.bury_points


def core_position(state: State, tables: CoreTables, obj: Objective, *, masks: list[int] | None = None) -> dict:
    """The mutable part: hands, the trick on the table, leader, called-suit state, whether the side took a trick.
    ``masks``: the hands' core masks, if known."""
    return {
        "hands": masks if masks is not None else [tables.mask(h) for h in state.hands],
        "trick": [tables.index[c] for c in state.trick] if state.trick else [],
        "leader": state.leader,
        "open": 1 if (state.called_open and tables.called >= 0) else 0,
        "took": 1 if obj.took_trick(state) else 0,
    }
