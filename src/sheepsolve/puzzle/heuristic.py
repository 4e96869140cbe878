"""The rule-of-thumb player that finds puzzles: equivalent cards, the natural card (:func:`natural_order`), a
sensible deal and contract (:func:`sensible_setup`) and play up to the puzzle (:func:`play_forward`)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence

from ..cards import Card
from ..engine import Setup, State, legal_calls, trick_winner
from ..files import clip
from ..games import Game
from ..objective import Objective
from ..solver import Solver
from .goals import PuzzleError

__all__ = ["equivalent_groups", "winner_index", "is_boss", "natural_order", "sensible_setup", "play_forward"]


def _class_order(state: State, cls: str) -> list[Card]:
    """The cards of a suit class still out (hands and the trick on the table), strongest first; the card under
    ranks below its class."""
    st = state.setup
    live = set().union(*state.hands) | set(state.trick)
    g = state.game
    return sorted((c for c in live if st.suit_class(c) == cls),
                  key=lambda c: (-1 if c == st.under else g.strength(c)), reverse=True)


def equivalent_groups(state: State) -> list[tuple[Card, ...]]:
    """The legal cards of the player to move, grouped into equivalent cards, in the engine's legal order.

    >>> from sheepsolve.games import make_game
    >>> from sheepsolve.cards import parse_cards
    >>> from sheepsolve.engine import Setup
    >>> g = make_game("wenz")
    >>> hands = [parse_cards("AC KC QC"), parse_cards("TC 9C 8C"), parse_cards("JC 7S 8S"),
    ...          parse_cards("AS TS KS")]
    >>> s = Setup.create(g, hands, declarer=2).start()
    >>> [" ".join(map(str, grp)) for grp in equivalent_groups(s)]
    ['AC', 'KC', 'QC']
    >>> s = s.play(parse_cards("AC")[0])
    >>> [" ".join(map(str, grp)) for grp in equivalent_groups(s)]
    ['TC', '9C 8C']
    """
    st = state.setup
    legal = state.legal()
    legal_set = set(legal)
    special = {c for c in (st.called, st.under) if c is not None}
    group_of: dict[Card, int] = {}
    groups: list[list[Card]] = []
    for cls in dict.fromkeys(st.suit_class(c) for c in legal):
        prev: Card | None = None
        for c in _class_order(state, cls):
            if c in legal_set:
                if (prev is not None and prev in legal_set and prev not in special and c not in special
                        and prev.points == c.points):
                    group_of[c] = group_of[prev]
                    groups[group_of[c]].append(c)
                else:
                    group_of[c] = len(groups)
                    groups.append([c])
            prev = c
    order = sorted(range(len(groups)), key=lambda i: legal.index(groups[i][0]))
    return [tuple(sorted(groups[i], key=legal.index)) for i in order]


def winner_index(state: State, cards: Sequence[Card]) -> int:
    """Index of the winning card among ``cards`` played in order from the trick's leader."""
    st = state.setup
    return trick_winner(state.game, cards, st.under, st.called_class)


def _later_can_beat(state: State, cards: Sequence[Card]) -> bool:
    """Whether a player after the ones who played ``cards`` (the trick so far, in order) could beat its winner,
    each playing a card the follow rule allows (double dummy: the hands are known)."""
    st = state.setup
    n = state.seats
    led = st.suit_class(cards[0])
    for k in range(len(cards), n):
        seat = (state.leader + k) % n
        hand = state.hands[seat]
        follow = [c for c in hand if st.suit_class(c) == led]
        for c in follow or hand:
            if winner_index(state, list(cards) + [c]) == len(cards):
                return True
    return False


def is_boss(state: State, card: Card) -> bool:
    """``card`` is the strongest card of its class still out."""
    order = _class_order(state, state.setup.suit_class(card))
    return bool(order) and order[0] == card


def _natural_score(state: State, card: Card) -> float:
    st = state.setup
    g = state.game
    me = state.to_move
    mine = me in st.team
    pts = card.points
    trump = g.is_trump(card)
    strength = g.strength(card)
    if not state.trick:
        if mine:
            if trump:
                return 300 + strength + (100 if is_boss(state, card) else 0)
            return (250 + pts) if is_boss(state, card) else (150 - pts - strength / 100)
        if not trump:
            return (350 + pts) if is_boss(state, card) else (250 - 2 * pts - strength / 100)
        return 100 - pts - strength / 100
    trick = list(state.trick)
    winner = (state.leader + winner_index(state, trick)) % state.seats
    partner_wins = (winner in st.team) == mine
    after = trick + [card]
    wins = winner_index(state, after) == len(trick)
    safe = wins and not _later_can_beat(state, after)
    if partner_wins:
        partner_safe = not _later_can_beat(state, trick + [card]) if not wins else safe
        if partner_safe:
            if not wins:
                return 300 + 3 * pts - (20 if trump else 0)
            return 100 + pts - strength / 100
        if safe:
            return 280 + pts
        if wins:
            return 150 - strength / 100
        return 200 - 3 * pts - (10 if trump else 0) - strength / 1000
    if safe:
        return 400 + 2 * pts - strength / 10
    if wins:
        return 250 + pts - strength / 100
    return 200 - 3 * pts - (10 if trump else 0) - strength / 1000


def natural_order(state: State) -> list[Card]:
    """The legal cards of the player to move, the most natural first, by a simple rule-of-thumb player (who
    sees every hand): take a trick cheaply when nobody behind can beat it, else throw low; schmear to a partner
    whose trick is safe; the declaring side leads trumps, the defenders their aces and then low plain cards.

    >>> from sheepsolve.games import make_game
    >>> from sheepsolve.cards import parse_cards
    >>> from sheepsolve.engine import Setup
    >>> g = make_game("wenz")
    >>> hands = [parse_cards("AC KC QC"), parse_cards("TC 9C 8C"), parse_cards("JC 7S 8S"),
    ...          parse_cards("AS TS KS")]
    >>> s = Setup.create(g, hands, declarer=2).start()
    >>> [str(c) for c in natural_order(s)]
    ['AC', 'QC', 'KC']
    """
    return sorted(state.legal(), key=lambda c: (-_natural_score(state, c), int(c)))


def _trump_score(game: Game, cards: Iterable[Card]) -> float:
    ntr = len(game.trumps)
    s = 0.0
    for c in cards:
        if game.is_trump(c):
            i = game.trumps.index(c)
            s += 3 + 4 * (ntr - i) / max(ntr, 1)
        elif c.rank == "A":
            s += 2
    return s


def _low_score(game: Game, cards: Iterable[Card]) -> float:
    """How low a hand is for null and Bettel: the lower each card in its suit, the better."""
    n = len(game.plain_ranks)
    return -float(sum(n - 1 - game.plain_ranks.index(c.rank) for c in cards))


def _bury_choice(game: Game, picked: list[Card], rng: random.Random) -> tuple[list[Card], Card | None, bool]:
    """A sensible bury for the picker: keep the trumps, bury points, make voids; with a called ace keep a legal
    call. Returns (bury, called, alone)."""
    best: tuple[float, list[Card], Card | None, bool] | None = None
    for bury in itertools.combinations(sorted(picked), game.bury_size):
        kept = [c for c in picked if c not in bury]
        fail = {game.suit_class(c) for c in kept if not game.is_trump(c)}
        if game.no_trick:  # null: put away the high cards
            val = _low_score(game, kept) + rng.random() * 0.01
            if best is None or val > best[0]:
                best = (val, list(bury), None, False)
            continue
        val = _trump_score(game, kept) + 0.5 * sum(c.points for c in bury) + 3 * (len(game.plain_suits) - len(fail))
        val -= 6 * sum(1 for c in bury if game.is_trump(c))
        called, alone = None, False
        if game.partner == "called-ace":
            calls = [c for c in legal_calls(game, kept, bury) if c.card is not None and not c.under]
            if not calls:
                val -= 8
                alone = True
            else:
                called = calls[0].card
        val += rng.random() * 0.01
        if best is None or val > best[0]:
            best = (val, list(bury), called, alone)
    assert best is not None
    _, bury, called, alone = best
    if game.partner == "called-ace" and not alone:
        kept = [c for c in picked if c not in bury]
        calls = [c.card for c in legal_calls(game, kept, bury) if c.card is not None and not c.under]
        called = rng.choice(calls)
    return bury, called, alone


def sensible_setup(game: Game, rng: random.Random) -> Setup:
    """A deal with a sensible contract: the seat with the best trumps picks or declares; a Sheepshead picker
    buries points and keeps his trumps; a sauspiel declarer calls an ace of a suit he is short in.

    >>> import random
    >>> from sheepsolve.games import make_game
    >>> st = sensible_setup(make_game("sauspiel"), random.Random(1))
    >>> st.called is not None and st.partner is not None
    True
    """
    from ..deals import deal

    if not game.two_sided:
        raise PuzzleError(f"{game.name}: puzzles need a game with a declaring side (not ramsch or leaster)")
    for _ in range(200):
        hands, blind = deal(game, rng)
        # null and Bettel: the hand with the lowest cards declares
        score = _low_score if game.no_trick else _trump_score
        scores = [score(game, h) + rng.random() for h in hands]
        if game.kind == "picker":
            p = max(range(game.seats), key=lambda i: scores[i])
            bury, called, alone = _bury_choice(game, hands[p] + blind, rng)
            return Setup.create(game, hands, declarer=p, blind=blind, bury=bury, called=called, alone=alone)
        if game.partner == "sauspiel":
            able = [i for i in range(game.seats) if legal_calls(game, hands[i])]
            if not able:
                continue
            p = max(able, key=lambda i: scores[i])
            calls = legal_calls(game, hands[p])
            short = min(sum(1 for c in hands[p] if game.suit_class(c) == game.suit_class(x.card)) for x in calls)
            calls = [x for x in calls
                     if sum(1 for c in hands[p] if game.suit_class(c) == game.suit_class(x.card)) == short]
            return Setup.create(game, hands, declarer=p, called=rng.choice(calls).card)
        p = max(range(game.seats), key=lambda i: scores[i])
        return Setup.create(game, hands, declarer=p)
    raise PuzzleError(f"{game.name}: no playable deal found")  # pragma: no cover


def play_forward(setup: Setup, rng: random.Random, *, cards_left: int, extra: int = 0,
                 mode: str = "heuristic", solver: Solver | None = None) -> State:
    """Play from the first lead until every hand holds ``cards_left`` cards, then ``extra`` more cards.

    ``mode="heuristic"``: the rule-of-thumb player of :func:`natural_order`, which plays its first choice most
    of the time, its second now and then, and rarely any card. ``mode="solver"``: every card double-dummy best
    (the most natural of the best cards).
    """
    if mode not in ("heuristic", "solver"):
        raise PuzzleError(f'play: must be "heuristic" or "solver", not {clip(repr(mode))}')
    s = setup.start()
    target = setup.game.hand_size - cards_left
    solver = solver or (Solver() if mode == "solver" else None)
    obj = Objective.for_setup(setup) if mode == "solver" else None
    while len(s.tricks) < target or (len(s.tricks) == target and len(s.trick) < extra):
        if s.finished:
            break
        order = natural_order(s)
        if mode == "solver":
            assert solver is not None and obj is not None
            vals = solver.card_values(s, obj)
            maxing = obj.wants_high(s.to_move)  # a null declarer wants his tricks low
            best = max(vals.values()) if maxing else min(vals.values())
            card = next(c for c in order if vals[c] == best)
        else:
            r = rng.random()
            if r < 0.75 or len(order) == 1:
                card = order[0]
            elif r < 0.95:
                card = order[1]
            else:
                card = rng.choice(order)
        s = s.play(card)
    return s
