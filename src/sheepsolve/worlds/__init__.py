"""The player's view: what a seat knows at a point of a hand, and the worlds of the cards it cannot see.

Every analysis "from the player's seat" (``suggest``, ``annotate --view player``, and the picker's view of
``bury``, ``pick`` and ``choose``) is built on this module (``shared/RULES.md``, "The player's view").

Knowledge
    :class:`Knowledge` is what one seat knows after the first ``k`` cards of the play: its own hand at the first
    lead; the blind and the bury if it is the picker; the contract and the call (the called card, whether a card
    went under, going alone); every card played and by whom.

Worlds
    A :class:`World` deals the cards the seat cannot see to the other players' remaining hands and, when the seat
    is not the picker, to the bury (and a leaster's blind, which nobody sees). Where a card went *under* and the
    seat has not seen it played, the world also says which of the picker's cards it is.

Consistency
    A world is *consistent* when every action of the record would have been legal in it (:func:`is_consistent`):
    the call and the bury (``Setup.create`` accepts them: the called card in another hand, a hold card kept) and
    every card played (``State.legal``: following suit, each called-card rule, the card under). This one
    definition gives void inference and called-ace inference with no special case.

Sampling (:class:`WorldSampler`)
    Consistent worlds are equally likely. The sampler first deals uniformly from a *superset* of the consistent
    worlds that it can count exactly: each unseen card may go to some places only (a player who did not follow
    a suit holds none of it, the called card is in neither the declarer's hand nor the bury, a player who did not
    play the called card when its suit was first led does not hold it). The places are filled by counting: the
    cards fall into a few kinds by where they may go, and the number of deals for every way of sharing the kinds
    out is worked out once by dynamic programming, so each world is drawn with the exact probability of its
    share-out. Then the world is checked with the rules engine (:func:`is_consistent`) and redrawn if it fails.
    Voids, the constraint that tightens late in a hand, are dealt with exactly, so what is left to the check
    (a declarer holding a card of the called suit, the hold card, running the called suit) rejects few worlds.
    A sample that is uniform over the superset and kept only where consistent is uniform over the consistent
    worlds.

    World ``i`` is drawn with its own random generator, ``random.Random(f"sheepsolve:view:{seed}:{i}")``, so a
    seed gives the same worlds whatever the number of processes that solve them.

Exact mode
    :meth:`WorldSampler.all_worlds` lists every consistent world, in a fixed order. It refuses above
    :data:`ALL_WORLDS_CAP` consistent worlds with a :class:`WorldsError` giving the count (or, when the superset
    is too large to check world by world, an estimate) and suggesting sampling.

Values (:func:`view_values`)
    A card's value from the player's view is the mean over the worlds of its double-dummy value (the declaring
    side's final card points, the bury and the tricks already won included; ramsch and leaster: the mover's own
    points, every other player against him). Every card is solved in the same worlds (common random numbers), so
    the differences between cards have standard errors of their own, smaller than the cards'.

>>> from sheepsolve.record import load_record
>>> rec = load_record("examples/sauspiel-midtrick.toml")
>>> k = Knowledge.from_record(rec)
>>> rec.players[k.seat], len(k.unseen), [rec.players[s] for s in k.others]
('Resi', 15, ['Sepp', 'Vroni', 'Hias'])
>>> sampler = WorldSampler(k)
>>> worlds = sampler.sample(5, seed=1)
>>> all(is_consistent(k, w) for w in worlds)
True
>>> [str(c) for c in sorted(worlds[0].state.legal(), key=int)] == [str(c) for c in sorted(k.legal(), key=int)]
True

The package: :mod:`~sheepsolve.worlds.knowledge` (:class:`Knowledge`, :func:`before_choice`: what each seat is
known to hold and lack), :mod:`~sheepsolve.worlds.build` (:class:`World`, :func:`build_world`,
:func:`is_consistent`: a world built and checked by the rules engine), :mod:`~sheepsolve.worlds.sampler`
(:class:`WorldSampler`: the superset counted, worlds drawn and listed).
"""

from __future__ import annotations

from .build import World, build_world, is_consistent
from .knowledge import Knowledge, Shown, WorldsError, auction_facts, before_choice
from .sampler import ALL_WORLDS_CAP, CHECK_LIMIT, MAX_TRIES, WorldSampler, world_rng

__all__ = [
    "ALL_WORLDS_CAP",
    "CHECK_LIMIT",
    "MAX_TRIES",
    "Knowledge",
    "Shown",
    "auction_facts",
    "World",
    "WorldSampler",
    "WorldsError",
    "is_consistent",
    "build_world",
    "world_rng",
    "before_choice",
]
