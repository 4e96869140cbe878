"""Weighted worlds: how likely each world is, given what the table said, and the figures over weighted worlds.

The uniform worlds of :class:`~sheepsolve.worlds.WorldSampler` treat every deal that fits the play as equally
likely. A seat that announced a solo holds the trumps for it: a *weight function* (:class:`WorldWeights`, for
example the auction model's :func:`auction_weights`) gives each world its likelihood, the product over the
auction's calls of each call's probability for the hand that world gives its caller.

Sampling (:class:`WeightedSampler`)
    Drawing uniform deals and keeping them with probability proportional to their weight would almost never hand
    a soloist his real hand. The sampler instead draws from a *proposal* that puts the worlds where the weight is:
    the deals are split into *strata* by the number of trumps the declarer holds at the first lead; each stratum's
    deals are counted exactly and drawn uniformly (the constraint machinery of the sampler: "the declarer holds
    exactly t trumps"), and a stratum is chosen with probability ``pi_t``, nine tenths in proportion to its share
    of the weight (its count times its mean weight, estimated from a few pilot deals), one tenth in proportion
    to its count (so no stratum with weight is ever left out). A deal of stratum ``t`` then carries the
    importance weight ``v = weight(world) * N_t / pi_t``: target over proposal (constant factors cancel). Without
    a declarer (ramsch, leaster) or from the declarer's own seat the proposal is the uniform sampler (``v`` the
    weight). In Sheepshead, before the picker played a card, the strata are of the cards dealt to him instead, and
    where the blind lay and his bury are drawn as the model has them, so that neither weighs
    (:mod:`sheepsolve.proposal`).

    *Rejection control* (Liu, Chen and Wong, 1998) then evens the weights out before any world is solved: with a
    threshold ``c`` (:data:`REJECTION_CONTROL` times the mean of ``v``, from the pilot; for uniform deals at most
    the pilot's largest ``v`` where that is at most two means), a deal whose ``v`` is below ``c`` is kept with probability ``v / c`` and then
    weighs ``c``; one at or above ``c`` is kept as it is.
    The kept worlds are draws of a proposal proportional to ``q * min(1, v / c)`` and ``max(v, c)`` is their exact
    importance weight, so every figure stays consistent, while the worlds solved are worth almost as many uniform
    ones (the effective worlds) at the price of more deals drawn and weighed, which is cheap: a deal is weighed
    from its hands at the first lead without building its world (:meth:`WorldWeights.weight_at_lead`), and only
    as far as the decision to keep it needs (the likelihood's ``floor``). A deal the rules engine refuses (a
    called-card rule) is a world of weight 0: it is never kept.

Figures (:func:`weighted_mean_se`, :func:`effective_size`)
    Means are weighted: ``sum(w x) / sum(w)``. The standard error is the self-normalised importance-sampling
    one, ``sqrt(n / (n - 1) * sum(w^2 (x - m)^2)) / sum(w)``, which is the uniform ``sd / sqrt(n)`` when every
    weight is equal. The *effective sample size* ``(sum w)^2 / sum(w^2)`` says how many uniform worlds the
    weighted ones are worth.

Beliefs (:func:`beliefs`)
    For every seat whose cards the player cannot see: the expected number of trumps it holds now, and the
    probability that it holds each top trump (Ober and Unter; Sheepshead's queens and jacks) and each plain ace
    the player has not seen, over the (weighted) worlds.

>>> weighted_mean_se([1.0, 2.0, 3.0, 6.0], [1, 1, 1, 1])
(3.0, 1.0801234497346435)
>>> effective_size([1, 1, 1, 1]), effective_size([1, 0, 0, 0])
(4.0, 1.0)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card, mask_of
from .games import Game
from .proposal import PILOT_WORLDS, REJECTION_CONTROL, UNIFORM_SHARE, WeightedSampler, first_lead
from .worlds import ALL_WORLDS_CAP, Knowledge, World, WorldSampler, WorldsError

__all__ = ["WorldWeights", "FunctionWeights", "AuctionWeights", "weighted_mean_se", "effective_size",
           "WeightedSampler", "first_lead", "beliefs", "hand_beliefs", "hand_masks", "belief_cards", "pick_worlds", "passes_weights", "calls_before", "INFERENCES",
           "world_weights", "weighs", "NoModelWeights", "assumption",
           "CAVEAT", "PILOT_WORLDS", "UNIFORM_SHARE", "REJECTION_CONTROL", "PlayWeights", "PLAY_TEMPERATURE",
           "PLAY_MODEL_NODES", "PLAY_MODEL_PROBE"]

INFERENCES = ("auction", "none")
"""``--inference``: ``auction`` weights each world by the auction (the model of the calls); ``none`` treats every
world alike (the answers of the uniform worlds, unchanged)."""

CAVEAT = ("each world is solved double dummy: from the next card on everyone is read as seeing every card, so "
          "the averages flatter guesses a player could not make")
"""The one line every player's-view output carries (docs/RULES.md, "What the averaging cannot see")."""

class WorldWeights:
    """How likely a world is, up to a constant factor: :meth:`weight`. ``label``: one line for the pages and the
    text saying what the worlds assume; ``uniform``: every world weighs alike (the worlds are then drawn and
    summed as uniform ones, :func:`weighs`)."""

    label = "every deal that fits the play is equally likely"
    uniform = False

    def label_in(self, style: str) -> str:
        """:attr:`label` for a reader of card style ``style`` (the auction's contracts and cards in his words)."""
        return self.label

    def weight(self, k: Knowledge, world: World) -> float:  # pragma: no cover - the base is uniform
        return 1.0

    def weight_at_lead(self, k: Knowledge, hands: Sequence[int], bury: int, under: Card | None, *,
                       floor: float = 0.0) -> float | None:
        """The weight of a deal from what it gives at the first lead (:func:`first_lead`: the hands and the bury
        as masks, the card under), without building its world; None where it needs the world (then
        :meth:`weight`). For a deal the rules engine accepts it is :meth:`weight` of its world; with
        ``floor``, a weight at most ``floor`` may be given as any value at most ``floor`` (worked out no
        further)."""
        return None

    def picked(self, k: Knowledge) -> "PickedBury | None":
        """Where the weight of a deal is the picker's bury choice (a softmax over the picked cards, drawn by
        :meth:`PickedBury.draw`) times a weight of the picked cards and the other hands: the two apart, for the
        proposal that deals the picked cards and then draws the bury (:class:`WeightedSampler`); else None."""
        return None


@dataclass(frozen=True)
class FunctionWeights(WorldWeights):
    """Weights from a function ``fn(setup, hands) -> float`` of a world's setup and its hands at the first lead
    (the auction model's ``auction_likelihood`` has this form). Picklable when ``fn`` is a module's function.

    >>> FunctionWeights(lambda setup, hands: 2.0, "test").label
    'test'
    """

    fn: Callable[[Any, Any], float]
    label: str = "worlds weighted"

    def weight(self, k: Knowledge, world: World) -> float:
        return float(self.fn(world.setup, world.setup.hands))


UNWEIGHED = " (not weighed: no model)"
"""Said after a call whose contract the model of the calls has no table for (a Bettel): it weighs 1."""


class AuctionWeights(WorldWeights):
    """A world's weight from the auction: the product over the calls of each call's probability, from the model of
    the calls (:mod:`sheepsolve.inference.model`), for the hand that world gives the caller; the bury and the call
    included where the picker made them, and the doubling calls (:mod:`sheepsolve.inference.doubling`).
    ``source``: a record (its ``auction`` or the one the rules imply) or a knowledge."""

    def __init__(self, source: Any) -> None:
        from .inference.likelihood import AuctionLikelihood

        self.likelihood = AuctionLikelihood.of(source)  # the doubling calls included
        auction = self.likelihood.auction
        self.active = bool(getattr(self.likelihood, "active", True))
        self.players = getattr(source, "players", None) or tuple(str(i + 1) for i in range(auction.game.seats))
        self.calls, self.family = auction.calls, auction.game.family
        self.label = self.label_in("ascii")  # the JSON's: canonical ASCII cards

    def label_in(self, style: str) -> str:
        if not self.active:
            return "every deal that fits the play is equally likely (no model of the calls for this game)"
        unweighed = getattr(self.likelihood, "unweighed", frozenset())
        said = [c.said(self.players, self.family, style) + (UNWEIGHED if c in unweighed else "") for c in self.calls]
        if not getattr(self.likelihood, "weighs_any", True):  # every call one without a table: the worlds alike
            return f"every deal that fits the play is equally likely (no call weighed: {', '.join(said)})"
        if self.likelihood.doubles is not None:  # doubles the record's keys imply, the caller not named
            said += self.likelihood.doubles.implied_words()
        # a name holding a comma ("Wenz, tout") would blur the list: the calls then go by semicolons
        calls = ("; " if any("," in x for x in said) else ", ").join(said)
        return f"weighted by the auction ({calls}) through the model of the calls"

    def weight(self, k: Knowledge, world: World) -> float:
        st = world.setup
        picker = k.game.kind == "picker" and st.declarer is not None
        return float(self.likelihood(st.hands, bury=st.bury if picker else None,
                                     blind=k.blind if k.picker_view else None, called=st.called, under=st.under))

    def weight_at_lead(self, k: Knowledge, hands: Sequence[int], bury: int, under: Card | None, *,
                       floor: float = 0.0) -> float | None:
        picker = k.game.kind == "picker" and k.declarer is not None
        return float(self.likelihood(hands, bury=bury if picker else None, blind=k.blind if k.picker_view else None,
                                     called=k.called, under=under, floor=floor))


    def picked(self, k: Knowledge) -> "PickedBury | None":
        like = self.likelihood
        g = k.game
        if (not self.active or g.kind != "picker" or k.declarer is None or k.picker_view
                or like.picker != k.declarer or like.bury is None or not like.bury.draws or like.pick is None
                or (like.doubles is not None and like.doubles.reads_declarer)):  # his hand after the bury
            return None
        picked = k.remaining(k.declarer) + len(k.played_by(k.declarer)) + g.bury_size
        if not like.pick.averages_every_way(picked, g.blind_size):
            return None
        from .inference.features import hand_masks as game_masks

        # the strata: trumps, top trumps and the jack of diamonds (where the pick model reads it) dealt to him
        return PickedBury(self, (g.trump_mask, game_masks(g).high, like.pick.jd_bit), picked - g.blind_size)


class PickedBury:
    """A picker's pick and bury as :class:`WeightedSampler`'s picked-cards proposal needs them. The model's pick
    is the average over every way the blind may have lain among the picked cards: the proposal draws that way
    with the deal, uniformly, and weighs the deal by the pick of the hand that way leaves him (``picker``, from
    the ``held`` cards he was dealt), which is unbiased for the average. ``draw(picked, u)`` chooses the two
    cards buried with the model's probabilities (``u`` uniform in [0, 1)), so the bury's factor leaves the
    importance weight; ``others`` is every other seat's call's factor. ``masks``: the cards whose counts among
    the cards dealt to the picker make the proposal's strata (trumps, the top rank's, the jack of diamonds where
    the pick model tells it apart)."""

    def __init__(self, weights: AuctionWeights, masks: tuple[int, ...], held: int) -> None:
        self.likelihood = like = weights.likelihood
        self.draw = like.bury.draw  # type: ignore[union-attr]
        self.picker: Callable[[int], float] = like.pick  # type: ignore[assignment]
        """The pick's factor of the weight, for the hand the picker was dealt (a mask)."""
        self.masks = masks
        self.held = held

    def others(self, hands: Sequence[int], like: float, *, floor: float = 0.0) -> float:
        """``like`` (the picker's factor) times every other seat's call's factor, for the hands at the first lead;
        with ``floor`` stopped as soon as the product is at most ``floor``."""
        if like <= floor:
            return like
        return float(self.likelihood.others(hands, like, floor=floor))


PLAY_MODEL_NODES = 3_000_000_000
"""The most search nodes :class:`PlayWeights` (``--play-model``) spends in one process: past them it refuses to go
on, and after its first :data:`PLAY_MODEL_PROBE` deals it refuses a run whose deals to weigh (``least_deals``)
would pass them at that pace (docs/TUNING.md, "``--play-model`` in Ramsch")."""

PLAY_MODEL_PROBE = 8
"""Deals weighed by the play model before it projects the run's nodes (see :data:`PLAY_MODEL_NODES`)."""

PLAY_TEMPERATURE = 5.0
"""The play model's temperature, in card points: a card that costs its player this many points more than his best
card in a world is e times less likely there."""


class PlayWeights(WorldWeights):
    """A model of the play on top of another weight (``base``, None: alike): every card the other seats played so
    far is likely in a world by its double-dummy cost there, ``exp(-cost / T) / sum over the legal cards``, the cost
    being how many points worse for the mover's side the card is than the mover's best card in that world (a
    softmax at temperature ``T``, :data:`PLAY_TEMPERATURE`). Each played card costs one ``card_values`` search per
    world: the option is slow, and it reads the others as double-dummy players. Not on by default
    (``--play-model``; its cost and effect: docs/TUNING.md). Its searches are bounded: past ``budget`` nodes
    (default :data:`PLAY_MODEL_NODES`) in this process it raises :class:`WorldsError`, and so it does after
    :data:`PLAY_MODEL_PROBE` deals when ``least_deals`` deals (the run's, about) at that pace would pass it."""

    def __init__(self, base: WorldWeights | None, temperature: float = PLAY_TEMPERATURE, *,
                 budget: int | None = None, least_deals: int = 0) -> None:
        from .solver import Solver

        self.base = base
        self.temperature = temperature
        self.solver = Solver(1)
        self.label = self.label_in("ascii")
        self.budget = PLAY_MODEL_NODES if budget is None else budget
        self.least_deals = least_deals  # about how many deals the run weighs (WeightedSampler.deals_expected)
        self.nodes = self.searches = self.deals = 0  # the work so far, in this process

    def _refuse(self, what: str) -> None:
        raise WorldsError(f"--play-model: {what}, over its bound of {self.budget:,} search nodes: ask fewer worlds "
                          "(--worlds N), judge an earlier decision (--at) or leave --play-model out (docs/TUNING.md)")

    def label_in(self, style: str) -> str:
        what = self.base.label_in(style) if self.base is not None else "every deal that fits the play is equally likely"
        return f"{what}; each card the others played weighed by its double-dummy cost (T = {self.temperature:g})"

    def weight(self, k: Knowledge, world: World) -> float:
        from .objective import Objective

        w = 1.0 if self.base is None else self.base.weight(k, world)
        setup = world.setup
        g = setup.game
        state = setup.start()
        if self.deals == PLAY_MODEL_PROBE and self.least_deals * self.nodes > self.budget * self.deals:
            self._refuse(f"about {self.least_deals * self.nodes // self.deals:,} nodes ({self.nodes // self.deals:,} "
                         f"a deal over the first {self.deals}, and about {self.least_deals:,} deals to weigh)")
        self.deals += 1
        for seat, card in k.plays:
            if seat != k.seat and len(state.legal()) > 1:
                if self.nodes >= self.budget:
                    self._refuse(f"its searches passed {self.nodes:,} nodes ({self.searches:,} searches in "
                                 f"{self.deals:,} deals weighed) before the worlds were drawn")
                obj = Objective.for_setup(setup, seat=None if g.two_sided else seat)
                self.solver.clear()
                sol = self.solver.solve(state, obj, line=False)
                self.nodes += sol.nodes
                self.searches += 1
                vals = dict(sol.cards)
                sign = 1.0 if obj.wants_high(seat) else -1.0  # a null declarer wants his tricks low
                best = max(sign * v for v in vals.values())
                z = math.fsum(math.exp((sign * v - best) / self.temperature) for v in vals.values())
                w *= math.exp((sign * vals[card] - best) / self.temperature) / z
            state = state.play(card, check=False)
        return w


class NoModelWeights(WorldWeights):
    """``--inference auction`` where the model of the calls has no data for the game: every world alike, and the
    line that says what the worlds assume says why."""

    label = "every deal that fits the play is equally likely (no model of the calls for this game)"
    uniform = True


def weighs(weights: WorldWeights | None) -> bool:
    """Whether ``weights`` tell worlds apart (not None and not uniform)."""
    return weights is not None and not weights.uniform


def world_weights(source: Any, inference: str) -> WorldWeights | None:
    """The weight function ``--inference`` asks for (None: uniform worlds). ``auction`` without a model of the
    calls for the game (or without the model at all) is uniform too: :class:`NoModelWeights`, which says so."""
    if inference not in INFERENCES:
        raise WorldsError(f"--inference: must be one of {', '.join(INFERENCES)}, not {inference!r}")
    if inference == "none":
        return None
    try:
        w = AuctionWeights(source)
    except ImportError:  # pragma: no cover - the model of the calls not installed
        return NoModelWeights()
    if w.active and not getattr(w.likelihood, "weighs_any", True):
        alike = NoModelWeights()
        alike.label = w.label  # says which calls went unweighed
        return alike
    return w if w.active else NoModelWeights()


def calls_before(auction: Any, seat: int) -> tuple[Any, ...]:
    """The calls of a record's ``auction`` (an :class:`~sheepsolve.inference.auction.Auction`) made before
    ``seat``'s own decision, in the auction's order: Schafkopf's klopfen and the weiter/play round up to the seat's
    own first word, Sheepshead's passes before the seat's own pass or pick. A seat that never decided (a Sheepshead
    seat after the picker) gets the calls of the bidding before the first pick.

    >>> from sheepsolve.games import make_game
    >>> from sheepsolve.inference.auction import read_auction
    >>> g = make_game("solo", trump="C")
    >>> players = ("Sepp", "Vroni", "Hias", "Resi")
    >>> a = read_auction(["Sepp: play", "Vroni: weiter", "Hias: weiter", "Resi: play", "Sepp: wenz",
    ...                   "Resi: solo C"], game=g, players=players, declarer=3)
    >>> [c.text(players, "schafkopf") for c in calls_before(a, 3)]
    ['Sepp: play', 'Vroni: weiter', 'Hias: weiter']
    """
    from .inference.auction import CONTRACT, KLOPFEN, PASS, PICK, PLAY

    calls = tuple(auction.calls)
    own = next((i for i, c in enumerate(calls) if c.seat == seat and c.kind in (PASS, PICK, PLAY, CONTRACT)), None)
    if own is None:
        own = next((i for i, c in enumerate(calls) if c.kind not in (PASS, PLAY, KLOPFEN)), len(calls))
    return calls[:own]


def passes_weights(game: Game, seat: int, inference: str, players: Sequence[str] | None = None,
                   calls: Sequence[Any] | None = None) -> tuple[Callable[..., float] | None, str]:
    """Before a choice (``pick``, ``choose``, the picker's ``bury``): the weight of a deal from the calls of the
    seats before ``seat`` (each made with the hand the deal gives it), as a function of the hands as dealt (cards
    or masks; with ``floor=``, as :class:`~sheepsolve.inference.likelihood.AuctionLikelihood`'s), and
    the line that says what the worlds assume. ``calls``: the record's calls before the seat's decision
    (:func:`calls_before`); None: what the rules imply, every seat before it passed. None where the weights would
    all be alike (``--inference none``, nobody called before, a game without a model of the calls)."""
    uniform = "every deal is equally likely"
    if inference not in INFERENCES:
        raise WorldsError(f"--inference: must be one of {', '.join(INFERENCES)}, not {inference!r}")
    if inference == "none" or (seat == 0 and calls is None) or (calls is not None and not calls):
        return None, uniform + ("" if inference == "none" else
                                " (nobody passed before)" if calls is None else " (nobody called before)")
    try:
        from .inference.auction import PASS, Auction, Call
        from .inference.likelihood import AuctionLikelihood
    except ImportError:  # pragma: no cover - the model of the calls not installed
        return None, uniform
    given = calls is not None
    auction = Auction(game, tuple(calls) if given else tuple(Call(s, PASS) for s in range(seat)), given)
    like = AuctionLikelihood(auction)
    if not getattr(like, "active", True):
        return None, uniform + " (no model of the calls for this game)"
    names = players or tuple(str(i + 1) for i in range(game.seats))
    return (lambda hands, floor=0.0: float(like(hands, floor=floor))), (
        f"deals weighted by the {'calls' if given else 'passes'} before {names[seat]} "
        f"({', '.join(c.text(names, game.family) + (UNWEIGHED if c in like.unweighed else '') for c in auction.calls)})"
        " through the model of the calls")


def assumption(k: Knowledge, style: str = "ascii") -> str:
    """One line: what the worlds assume (the weights, what the auction showed and every ``--constrain``), the
    auction's contracts and cards in card style ``style`` (the JSON's: ASCII)."""
    what = k.weights.label_in(style) if k.weights is not None else "every deal that fits the play is equally likely"
    if k.facts:
        what += "; " + "; ".join(f.text(k.players, style) for f in k.facts)
    if k.constraints:
        what += "; " + "; ".join(c.text for c in k.constraints)
    return what


def pick_worlds(k: Knowledge, worlds: int | str, seed: int | str = 0, cap: int = ALL_WORLDS_CAP
                ) -> tuple[list[World], list[float] | None, bool]:
    """The worlds a question is judged over, their weights (None: every world alike, ``k.weights`` None) and
    whether they are every consistent world: ``"all"``, or ``worlds`` sampled (weighted by ``k.weights`` through
    :class:`WeightedSampler`) unless no more than ``worlds`` deals are possible at all: then every consistent world,
    exactly (cheaper than sampling them with repeats, and exact)."""
    sampler = WorldSampler(k)
    if worlds != "all":
        if isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 1:
            raise WorldsError(f"--worlds: must be 1 or more (or \"all\"), not {worlds!r}")
    if worlds == "all" or sampler.candidates <= worlds:
        got = sampler.all_worlds(cap)
        ws = [k.weights.weight(k, w) for w in got] if weighs(k.weights) else None
        return got, (None if ws is not None and math.fsum(ws) <= 0 else ws), True
    if not weighs(k.weights):
        return sampler.sample(worlds, seed=seed), None, False
    got, ws = WeightedSampler(k, k.weights, sampler).sample(worlds, seed=seed)
    if math.fsum(ws) <= 0:  # the model gives every world weight 0 (a call it never makes): the worlds alike
        return sampler.sample(worlds, seed=seed), None, False
    return got, ws, False


def weighted_mean_se(xs: Sequence[float], ws: Sequence[float]) -> tuple[float, float | None]:
    """The weighted mean of ``xs`` and its standard error (see the module docstring); None for one value.

    >>> weighted_mean_se([0.0, 10.0], [3.0, 1.0])
    (2.5, 3.75)
    """
    n = len(xs)
    total = math.fsum(ws)
    if total <= 0:
        raise WorldsError("every world has weight 0: nothing to average")
    m = math.fsum(w * x for x, w in zip(xs, ws)) / total
    if n < 2:
        return m, None
    var = math.fsum(w * w * (x - m) ** 2 for x, w in zip(xs, ws)) * n / (n - 1)
    return m, math.sqrt(var) / total


def effective_size(ws: Sequence[float]) -> float:
    """Kish's effective sample size of weights ``ws``: ``(sum w)^2 / sum(w^2)``."""
    s2 = math.fsum(w * w for w in ws)
    return math.fsum(ws) ** 2 / s2 if s2 > 0 else 0.0


def top_trump_ranks(game: Game) -> set[str]:
    """The ranks that are trumps in every suit (Ober and Unter; a Wenz's Unter)."""
    return {r for r in {c.rank for c in game.trumps} if all(c in game.trumps for c in game.deck if c.rank == r)}


def belief_cards(game: Game) -> list[Card]:
    """The cards the beliefs name: each top trump (Ober, then Unter) and each ace that is not a trump.

    >>> from sheepsolve.games import make_game
    >>> [str(c) for c in belief_cards(make_game("sauspiel"))]
    ['QC', 'QS', 'QH', 'QD', 'JC', 'JS', 'JH', 'JD', 'AC', 'AS', 'AD']
    """
    top = top_trump_ranks(game)
    tops = [c for c in game.trumps if c.rank in top]
    aces = [c for c in game.deck if c.rank == "A" and not game.is_trump(c)]
    return tops + aces


def beliefs(k: Knowledge, worlds: Sequence[World], weights: Sequence[float] | None = None
            ) -> dict[int, dict[str, Any]]:
    """For every other seat (by seat index): ``{"trumps": expected trumps held now, "cards": {card: probability
    of holding it now}}`` over ``worlds`` (weighted by ``weights``; None: alike), the cards being those of
    :func:`belief_cards` that the seat judging has not seen.

    >>> from sheepsolve.record import load_record
    >>> k = Knowledge.from_record(load_record("examples/sauspiel-midtrick.toml"))
    >>> b = beliefs(k, WorldSampler(k).sample(50, seed=1))
    >>> sorted(b), sorted(b[0]), sorted(b[0]["cards"])      # Sepp, Vroni, Hias; the unseen JH JD AS AD
    ([0, 1, 2], ['cards', 'trumps'], ['AD', 'AS', 'JD', 'JH'])
    >>> round(sum(b[s]["cards"]["JD"] for s in b), 6)      # somebody holds it
    1.0
    """
    return hand_beliefs(k, [hand_masks(world) for world in worlds], weights)


def hand_masks(world: World) -> tuple[int, ...]:
    """Every hand of ``world``'s position, as a mask of card bits (what :func:`hand_beliefs` reads)."""
    return tuple(mask_of(hand) for hand in world.state.hands)


def hand_beliefs(k: Knowledge, hands: Sequence[Sequence[int]], weights: Sequence[float] | None = None
                 ) -> dict[int, dict[str, Any]]:
    """:func:`beliefs` from each world's hands as masks (:func:`hand_masks`), not the worlds themselves."""
    g = k.game
    ws = [1.0] * len(hands) if weights is None else [float(w) for w in weights]
    total = math.fsum(ws)
    if not hands or total <= 0:
        raise WorldsError("no world to take beliefs from")
    trump_mask = g.trump_mask
    names = [c for c in belief_cards(g) if c in k.unseen]
    out: dict[int, dict[str, Any]] = {}
    for s in k.others:
        trumps = math.fsum(w * (h[s] & trump_mask).bit_count() for h, w in zip(hands, ws)) / total
        cards = {str(c): math.fsum(w for h, w in zip(hands, ws) if h[s] >> c & 1) / total for c in names}
        out[s] = {"trumps": trumps, "cards": cards}
    return out
