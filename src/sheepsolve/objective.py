"""What a search optimises: whose points (or tricks), in which direction, with which fixed extras.

An :class:`Objective` turns a *finished* :class:`~sheepsolve.engine.State` into one number, the value
(:meth:`Objective.final_value`). The reference minimax uses exactly that; the compiled core is handed the same
objective as flat tables (``tables.py``) and must agree.

- Two-sided games: the declaring side's final card points, the bury included (``bury_needs_trick``: only if the
  side took a trick). The side maximises.
- Null and Bettel (:attr:`Game.no_trick <sheepsolve.games.Game.no_trick>`): the number of tricks the declarer
  takes, which he minimises; he wins with none.
- Trick objectives (``tricks=True``): the number of tricks the side takes. "Can the declarer take every trick"
  (tout, schwarz) and "can the side avoid taking any" are questions about this number.
- Ramsch: one seat's card points against all the others (paranoid); the seat minimises.
- Leaster: one seat's card points, the blind going to the winner of the last (or first) trick; the seat
  minimises, and taking no trick at all is worse than any number of points: :data:`NO_TRICK` (121).
"""

from __future__ import annotations

from dataclasses import dataclass

from .engine import Setup, State

__all__ = ["Objective", "NO_TRICK"]

NO_TRICK = 121
"""Leaster value of a seat that takes no trick: it cannot win, so it is worse for it than any point total."""


@dataclass(frozen=True, kw_only=True)
class Objective:
    team: frozenset[int]
    maximize: bool = True
    tricks: bool = False  # count tricks instead of card points
    bury_points: int = 0  # fixed points of the side (Sheepshead bury)
    bury_needs_trick: bool = False
    blind_points: int = 0  # leaster: points going to the winner of trick `blind_trick`
    blind_trick: int | None = None  # 0-based trick number from the start of play, or None
    no_trick_value: int | None = None  # leaster: value when the side takes no trick

    @classmethod
    def for_setup(cls, setup: Setup, *, seat: int | None = None, tricks: bool = False) -> "Objective":
        """The default objective of a game; ``seat`` is required for ramsch and leaster."""
        g = setup.game
        if g.kind in ("picker", "contract"):
            if seat is not None and seat not in range(g.seats):
                raise ValueError(f"seat {seat} out of range")
            if g.no_trick:  # null, Bettel: the declarer wants to take no trick, so he keeps his tricks down
                return cls(team=setup.team, maximize=False, tricks=True)
            bury = sum(c.points for c in setup.bury) if not tricks else 0
            return cls(team=setup.team, maximize=True, tricks=tricks, bury_points=bury,
                       bury_needs_trick=bool(g.rules.get("bury_needs_trick", False)))
        if seat is None:
            raise ValueError(f"{g.name} has no sides: name the seat to solve for")
        if seat not in range(g.seats):
            raise ValueError(f"seat {seat} out of range")
        if g.kind == "leaster" and not tricks:
            where = g.rules.get("leaster_blind", "last")
            tricks_in_play = max((len(h) for h in setup.hands), default=0)  # a setup may be dealt short
            bt = {"last": tricks_in_play - 1, "first": 0}.get(where) if tricks_in_play else None
            return cls(team=frozenset({seat}), maximize=False, blind_points=sum(c.points for c in setup.blind),
                       blind_trick=bt, no_trick_value=NO_TRICK)
        return cls(team=frozenset({seat}), maximize=False, tricks=tricks)

    def wants_high(self, seat: int) -> bool:
        """Whether ``seat`` wants this objective's value high: a seat of the team when the team maximises, every
        other seat when it minimises (the defenders of a null or a Bettel want the declarer's tricks up).

        >>> from sheepsolve.games import make_game
        >>> from sheepsolve.deals import random_setup
        >>> import random
        >>> st = random_setup(make_game("null"), random.Random(1), declarer=0)
        >>> obj = Objective.for_setup(st)
        >>> obj.wants_high(0), obj.wants_high(1)
        (False, True)
        """
        return (seat in self.team) == self.maximize

    def final_value(self, state: State) -> int:
        """The value of a finished state, computed from its tricks (and a position's earlier ones, see
        :meth:`earlier`)."""
        assert state.finished, "final_value needs a finished state"
        won = [t for t in state.tricks if t.winner in self.team]
        past_points, past_tricks = self.earlier(state)
        if self.tricks:
            return len(won) + past_tricks
        if not won and not past_tricks and self.no_trick_value is not None:
            return self.no_trick_value
        pts = sum(t.points for t in won) + past_points
        if self.blind_trick is not None and state.tricks[self.blind_trick].winner in self.team:
            pts += self.blind_points
        if self.bury_points and (won or past_tricks or not self.bury_needs_trick):
            pts += self.bury_points
        return pts

    def earlier(self, state: State) -> tuple[int, int]:
        """The card points and tricks the side took before the setup's first lead: a position set by its cards
        (``position = true``, :attr:`Setup.past_points <sheepsolve.engine.Setup.past_points>`); (0, 0) for a hand
        played from its first lead."""
        st = state.setup
        if not st.past_tricks:
            return 0, 0
        return (sum(st.past_points[s] for s in self.team), sum(st.past_tricks[s] for s in self.team))

    def past_value(self, state: State) -> int:
        """What the side already has from finished tricks, a position's earlier ones included (bury and end
        bonuses excluded)."""
        past_points, past_tricks = self.earlier(state)
        if not state.tricks:  # the start of play, as every bury and contract question asks
            return past_tricks if self.tricks else past_points
        won = [i for i, t in enumerate(state.tricks) if t.winner in self.team]
        if self.tricks:
            return len(won) + past_tricks
        pts = sum(state.tricks[i].points for i in won) + past_points
        if self.blind_trick is not None and self.blind_trick in won:
            pts += self.blind_points
        return pts

    def took_trick(self, state: State) -> bool:
        return any(t.winner in self.team for t in state.tricks) or self.earlier(state)[1] > 0
