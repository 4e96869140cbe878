"""Skat's result, game value and list score by the International Skat Order (ISkO), and Seeger-Fabian scoring.

- **The result** (:func:`skat_outcome`), seen from the declarer, the skat (or discard) counted: won with 61 card
  points or more (ISkO 5.2.2), and with 90 or more when schneider was announced (the defenders then hold 30 or
  less, which makes them schneider), with every trick when schwarz was announced (an ouvert grand or suit game
  is announced schwarz, ISkO 5.2.6); null is won with no trick (5.2.7). The outcome names the level reached in
  play: ``win-schwarz`` (every trick), ``win-schneider`` (90 or more), ``win``, ``loss``, ``loss-schneider`` (the
  declarer has 30 or less), ``loss-schwarz`` (he took no trick). A lost announcement is ``loss`` at whatever
  points.
- **The game value** (:func:`game_value`): grand and the suit games are their base value (grand 24, clubs 12,
  spades 11, hearts 10, diamonds 9) times a multiplier: the matadors "with" or "without" (the run of trumps from
  the jack of clubs down that the declarer holds, or lacks, the skat counted: ISkO 2.4.2), plus 1 each for game,
  hand, schneider, schneider announced, schwarz, schwarz announced and ouvert. A level announced counts whether
  reached or not, and once (ISkO 5.2.5: no "Eigenschneider"). Null is 23, null hand 35, null ouvert 46, null
  ouvert hand 59.
- **The overbid**: a game whose value does not reach the bid is lost, even with 61 points, at the lowest multiple
  of its base value that covers the bid (ISkO 5.4.2). A lost game counts double: the list score is the value won,
  or twice the value lost.
- **Seeger-Fabian** (``[rules] seeger_fabian = true``): 50 more for a won game, 50 less for a lost one, and each
  opponent is credited 40 for every game the declarer loses (at a 3-player table).

>>> from sheepsolve.games import make_game
>>> v = game_value(make_game("skat", trump="C", ouvert=True), "win-schwarz", matadors=2)
>>> v.multiplier, v.value, v.list_score           # ISkO 5.2.6: "Kreuz ouvert mit zweien ... 9 x 12 = 108"
(9, 108, 108)
>>> game_value(make_game("grand"), "loss", matadors=1).list_score
-96
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..games import Game
from ..skat_declaration import BASE_VALUES, contract_of, null_value

__all__ = ["SKAT_OUTCOMES", "SEEGER_WIN", "SEEGER_OPPONENT", "SkatValue", "skat_outcome", "game_value",
           "seeger_fabian"]

SKAT_OUTCOMES = ("win-schwarz", "win-schneider", "win", "loss", "loss-schneider", "loss-schwarz")
"""Skat outcomes of the declarer, best first (null: ``win`` and ``loss`` only)."""
SEEGER_WIN = 50
"""Seeger-Fabian: added to the declarer's score for a won game, taken off for a lost one."""
SEEGER_OPPONENT = 40
"""Seeger-Fabian: credited to each opponent for every lost game at a 3-player table."""


def skat_outcome(game: Game, points: int, tricks: int | None, total_tricks: int) -> str:
    """The declarer's outcome from his card points (the skat or discard counted) and tricks (None: unknown, read
    from the points alone: schwarz never given, an announced schwarz won only with every point).

    >>> from sheepsolve.games import make_game
    >>> g = make_game("grand")
    >>> skat_outcome(g, 61, 4, 10), skat_outcome(g, 60, 5, 10), skat_outcome(g, 30, 2, 10), skat_outcome(g, 120, 10, 10)
    ('win', 'loss', 'loss-schneider', 'win-schwarz')
    >>> announced = make_game("grand", hand=True, schneider_announced=True)
    >>> skat_outcome(g, 90, 7, 10), skat_outcome(announced, 90, 7, 10), skat_outcome(announced, 89, 7, 10)
    ('win-schneider', 'win-schneider', 'loss')
    """
    total = game.total_points
    if game.no_trick:
        return "win" if (tricks == 0 if tricks is not None else points == 0) else "loss"
    every_trick = tricks == total_tricks if tricks is not None else False
    no_trick = tricks == 0 if tricks is not None else False
    schneider = points * 4 >= total * 3  # the defenders hold 30 or less
    won = points * 2 > total  # 61 or more (60-60 goes to the defenders)
    if game.schneider_announced and not schneider:
        won = False
    if game.schwarz_announced and not (every_trick or (tricks is None and points == total)):
        won = False
    if won:
        return "win-schwarz" if every_trick else "win-schneider" if schneider else "win"
    if no_trick:
        return "loss-schwarz"
    if points * 4 <= total:  # 30 or less: the declarer is schneider
        return "loss-schneider"
    return "loss"


@dataclass(frozen=True)
class SkatValue:
    """The value of one Skat game and its list score.

    ``contract`` (``grand``, ``clubs`` ... ``null``); ``matadors`` and ``with_matadors`` (with or without them;
    0 and None in null); ``levels`` the multiplier's terms in words (``with 2``, ``game``, ``hand``, ...; in null
    its form alone, ``null ouvert hand``); ``multiplier`` (0 in null); ``base`` (the base value; null: its fixed value); ``value`` the game value
    scored (an overbid: the lowest multiple of the base value covering the bid); ``won``; ``overbid``;
    ``list_score`` (``value`` won, ``-2 * value`` lost)."""

    contract: str
    matadors: int
    with_matadors: bool | None
    levels: tuple[str, ...]
    multiplier: int
    base: int
    value: int
    won: bool
    overbid: bool
    bid: int | None
    list_score: int

    def to_dict(self) -> dict[str, Any]:
        return {"contract": self.contract, "matadors": self.matadors, "with": self.with_matadors,
                "levels": list(self.levels), "multiplier": self.multiplier, "base": self.base,
                "value": self.value, "won": self.won, "overbid": self.overbid, "bid": self.bid,
                "list_score": self.list_score}

    def __str__(self) -> str:
        """``with 2, game 3, hand 4 x 12 = 48`` (null: ``null ouvert 46``), then won or lost and the list score."""
        if self.contract == "null":
            text = f"{self.levels[0]} {self.value}"
        else:
            steps = ", ".join(f"{w} {i}" for i, w in enumerate(self.levels[1:], self.matadors + 1))
            text = f"{self.levels[0]}, {steps} x {self.base} = {self.base * self.multiplier}"
            if self.overbid:
                text += f", overbid (bid {self.bid}): {self.value}"
        return text


def game_value(game: Game, outcome: str, matadors: int = 0, with_matadors: bool | None = None) -> SkatValue:
    """The :class:`SkatValue` of ``outcome`` (:func:`skat_outcome`) in ``game`` with the declarer's ``matadors``
    (with them when ``with_matadors``, by default with), his bid being ``game.bid``.

    >>> from sheepsolve.games import make_game
    >>> v = game_value(make_game("grand"), "win-schneider", matadors=4)   # with 4, game 5, schneider 6, x 24
    >>> v.value, v.levels
    (144, ('with 4', 'game', 'schneider'))
    >>> v = game_value(make_game("skat", trump="S", hand=True, bid=72), "win", matadors=1)
    >>> v.overbid, v.value, v.list_score   # bid 72, worth 33: lost at 7 x 11 = 77
    (True, 77, -154)
    """
    contract = contract_of(game.name, game.trump_suit)
    won = outcome.startswith("win")
    if game.no_trick:
        value = null_value(ouvert=game.ouvert, hand=game.hand)
        form = "null" + (" ouvert" if game.ouvert else "") + (" hand" if game.hand else "")
        return SkatValue(contract, 0, None, (form,), 0, value, value, won, False, game.bid,
                         value if won else -2 * value)
    if matadors < 1:
        raise ValueError(f"a {contract} game is played with or without 1 matador or more, not {matadors}")
    base = BASE_VALUES[contract]
    schwarz = outcome.endswith("schwarz")
    schneider = schwarz or outcome.endswith("schneider")
    terms = [("with " if with_matadors is not False else "without ") + str(matadors), "game"]
    for word, counted in (("hand", game.hand), ("schneider", schneider or game.schneider_announced),
                          ("schneider announced", game.schneider_announced),
                          ("schwarz", schwarz or game.schwarz_announced),
                          ("schwarz announced", game.schwarz_announced), ("ouvert", game.ouvert)):
        if counted:
            terms.append(word)
    multiplier = matadors + len(terms) - 1
    value = base * multiplier
    overbid = game.bid is not None and value < game.bid
    if overbid:  # ISkO 5.4.2: the lowest multiple of the base value that covers the bid
        value = base * -(-game.bid // base)  # type: ignore[operator]
        won = False
    return SkatValue(contract, matadors, with_matadors is not False, tuple(terms), multiplier, base, value, won,
                     overbid, game.bid, value if won else -2 * value)


def seeger_fabian(value: SkatValue) -> tuple[int, int]:
    """The Seeger-Fabian scores of one game: the declarer's (his list score, plus :data:`SEEGER_WIN` for a won
    game or less it for a lost one) and each opponent's (:data:`SEEGER_OPPONENT` for a lost game, else 0).

    >>> from sheepsolve.games import make_game
    >>> seeger_fabian(game_value(make_game("null", ouvert=True), "loss"))   # -92 - 50; 40 to each opponent
    (-142, 40)
    """
    if value.won:
        return value.list_score + SEEGER_WIN, 0
    return value.list_score - SEEGER_WIN, SEEGER_OPPONENT
