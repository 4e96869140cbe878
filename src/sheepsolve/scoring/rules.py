"""The rules of the result and the payments (see :mod:`sheepsolve.scoring` for the outcome strings and the
readings): the outcome of the declaring side's points and tricks (:func:`outcome_for`), what each defender pays
(:func:`payment_for`), the Laufende (:func:`laufende_of`), and the payments of one setup: what they depend on
(:func:`payment_terms`), each defender's (:func:`side_payment`) and each seat's (:func:`seat_payment`). The
judge (:mod:`sheepsolve.judge`) applies them for every command; :func:`~sheepsolve.scoring.score` for a finished
hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards import Card
from ..engine import Setup
from ..files import clip
from ..games import RULE_SWITCHES, Game
from .skat import SEEGER_OPPONENT, SEEGER_WIN, game_value, skat_outcome

__all__ = ["MAX_DOUBLERS", "Stakes", "SHEEPSHEAD_OUTCOMES", "SCHAFKOPF_OUTCOMES", "rule", "outcome_for", "is_won",
           "base_and_multiplier", "payment_for", "laufende_of", "PaymentTerms", "payment_terms", "side_payment",
           "seat_payment", "overbid", "scored_outcome", "schneider_points"]


SHEEPSHEAD_OUTCOMES = ("schwarz", "schneider", "win", "loss", "schneidered", "schwarzed")
"""Sheepshead outcomes of the picker's side, best first."""

SCHAFKOPF_OUTCOMES = ("win-schwarz", "win-schneider", "win", "loss", "loss-schneider", "loss-schwarz")
"""Schafkopf outcomes of the declaring side, best first (tout and sie use ``win`` and ``loss`` only)."""

_SHEEPSHEAD_UNITS = {"schwarz": 3, "schneider": 2, "win": 1, "loss": -1, "schneidered": -2, "schwarzed": -3}


def rule(game: Game, key: str) -> Any:
    """The game's rule switch ``key``, its default when the game does not set it."""
    return game.rules.get(key, RULE_SWITCHES[key].default)


# --------------------------------------------------------------------------------------------------------------
# Stakes


MAX_DOUBLERS = 16
"""The most doublers a hand takes (x65536): a sane stake, and a bound on the payments computed."""


@dataclass(frozen=True)
class Stakes:
    """What was doubled at the table: each of these doubles the payments.

    ``crack``/``recrack`` are Sheepshead's crack and re-crack, and Schafkopf's Kontra and Re (``recrack``
    needs ``crack``). ``doublers`` counts doubled hands (Sheepshead doubler after an all-pass; in Schafkopf
    read it as Klopfen/Legen): x2 each, in every game. Leaster and ramsch have no sides, so they take no crack.

    At most :data:`MAX_DOUBLERS` doublers (x65536): more is refused, not computed.

    >>> Stakes(crack=True, recrack=True, doublers=1).factor
    8
    """

    crack: bool = False
    recrack: bool = False
    doublers: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.doublers, bool) or not isinstance(self.doublers, int) or self.doublers < 0:
            raise ValueError(f"stakes.doublers: must be a whole number 0 or more, not {clip(repr(self.doublers))}")
        if self.doublers > MAX_DOUBLERS:
            raise ValueError(f"stakes.doublers: at most {MAX_DOUBLERS} (x{2 ** MAX_DOUBLERS}), not "
                             f"{clip(self.doublers)}")
        if self.recrack and not self.crack:
            raise ValueError("stakes.recrack: a re-crack (Re) needs a crack (Kontra) first")

    @property
    def factor(self) -> int:
        """The product of the doublings: crack x2, re-crack x2 more, x2 per doubler."""
        return 2 ** (int(self.crack) + int(self.recrack) + self.doublers)


# --------------------------------------------------------------------------------------------------------------
# Outcome and payment


def _check_points(game: Game, points: int, tricks: int | None, total_tricks: int) -> None:
    if not 0 <= points <= game.total_points:
        raise ValueError(f"declaring points {points} out of range 0..{game.total_points}")
    if tricks is not None and not 0 <= tricks <= total_tricks:
        raise ValueError(f"declaring tricks {tricks} out of range 0..{total_tricks}")


def outcome_for(game: Game, declaring_points: int, declaring_tricks: int | None = None,
                total_tricks: int | None = None) -> str:
    """The outcome of a two-sided game from the declaring side's card points (the bury counted).

    ``declaring_tricks`` None means the tricks are unknown: the outcome is then decided by points alone, so
    the trick-based results (Sheepshead ``schwarz``/``schwarzed``, Schafkopf schwarz unless
    ``schwarz_by_points``) are never given, and a tout counts as won with every card point
    (``game.total_points``), its best reading from points. ``total_tricks`` defaults to ``game.tricks``.
    Raises ValueError for leaster and ramsch, which have no sides.

    >>> from sheepsolve.games import make_game
    >>> g = make_game("sheepshead")
    >>> [outcome_for(g, p) for p in (30, 31, 60, 61, 90, 91)]
    ['schneidered', 'loss', 'loss', 'win', 'win', 'schneider']
    >>> outcome_for(g, 0, 0), outcome_for(g, 0, 1)
    ('schwarzed', 'schneidered')
    >>> s = make_game("sauspiel")
    >>> outcome_for(s, 91), outcome_for(s, 30), outcome_for(s, 120, 8), outcome_for(s, 120, 7)
    ('win-schneider', 'loss-schneider', 'win-schwarz', 'win-schneider')
    >>> outcome_for(make_game("sauspiel", rules={"schwarz_by_points": True}), 120, 7)
    'win-schwarz'
    >>> outcome_for(make_game("wenz", tout=True), 120, 7)
    'loss'
    """
    if total_tricks is None:
        total_tricks = game.tricks
    _check_points(game, declaring_points, declaring_tricks, total_tricks)
    total = game.total_points
    p, t = declaring_points, declaring_tricks
    if game.family == "skat":  # by the ISkO: the announcements count (sheepsolve.scoring.skat)
        return skat_outcome(game, p, t, total_tricks)
    if game.no_trick:  # null, Bettel: won with no trick at all (from points alone: with no card point)
        return "win" if (t == 0 if t is not None else p == 0) else "loss"
    if game.kind == "picker":
        if t is not None and t == total_tricks:
            return "schwarz"
        if t is not None and t == 0:
            return "schwarzed"
        if p * 4 > total * 3:  # 91-120
            return "schneider"
        if p * 2 > total:  # 61-90
            return "win"
        if p * 4 > total:  # 31-60
            return "loss"
        return "schneidered"
    if game.kind != "contract":
        raise ValueError(f"{game.name} has no declaring side: its outcome depends on every player's points")
    if game.sie:
        return "win"
    if game.tout:
        if t is not None:
            return "win" if t == total_tricks else "loss"
        return "win" if p == total else "loss"
    won = p * 2 > total  # 60-60 goes to the defenders
    if rule(game, "schwarz_by_points"):
        schwarz = p == total if won else p == 0
    elif t is not None:
        schwarz = t == total_tricks if won else t == 0
    else:
        schwarz = False
    if won:
        schneider = p * 4 > total * 3  # 91+
    else:
        schneider = p * 4 <= total  # 30 or less
    if schwarz:
        return "win-schwarz" if won else "loss-schwarz"
    if schneider:
        return "win-schneider" if won else "loss-schneider"
    return "win" if won else "loss"


def schneider_points(game: Game) -> int:
    """The declaring side's card points from which the defenders are schneider: 91 in Sheepshead and Schafkopf
    (91-120), 90 in Skat (the defenders hold 30 or less). The threshold of every "91+" figure and chart line.

    >>> from sheepsolve.games import make_game
    >>> schneider_points(make_game("sauspiel")), schneider_points(make_game("sheepshead")), schneider_points(make_game("grand"))
    (91, 91, 90)
    """
    total = game.total_points
    return -(-total * 3 // 4) if game.family == "skat" else total * 3 // 4 + 1


def is_won(outcome: str) -> bool:
    """Whether a two-sided game's ``outcome`` is the declaring side's win."""
    return outcome in ("schwarz", "schneider", "win") or outcome.startswith("win-")


def base_and_multiplier(game: Game, outcome: str, *, laufende: int = 0, stakes: Stakes | None = None, alone: bool = False,
            blitz: bool = False) -> tuple[int, int]:
    """(base, multiplier) of a two-sided game; base is signed, positive when the declaring side won."""
    stakes = stakes or Stakes()
    mult = stakes.factor
    if game.family == "skat":  # the game value (laufende: the matadors), doubled when lost
        value = game_value(game, outcome, laufende)
        return (value.value if value.won else -value.value), mult * (1 if value.won else 2)
    if game.kind == "picker":
        if outcome not in _SHEEPSHEAD_UNITS:
            raise ValueError(f"unknown Sheepshead outcome {outcome!r} (one of {', '.join(SHEEPSHEAD_OUTCOMES)})")
        base = _SHEEPSHEAD_UNITS[outcome]
        if alone and game.seats == 5:
            mult *= rule(game, "alone_multiplier")
        if blitz and rule(game, "blitz"):
            mult *= 2
        if base < 0 and rule(game, "double_on_bump"):
            mult *= 2
        return base, mult
    if game.kind != "contract":
        raise ValueError(f"{game.name} has no declaring side: use score() for its payments")
    bonus = rule(game, "tariff_bonus")
    tariff = rule(game, "tariff_solo") if game.solo_type else rule(game, "tariff_sauspiel")
    if game.no_trick:  # Bettel: won or lost, no Laufende or schneider; ouvert as a tout; the tariff by bettel_tariff
        if outcome not in ("win", "loss"):
            raise ValueError(f"a bettel is won or lost, not {outcome!r}")
        base = rule(game, "tariff_solo" if rule(game, "bettel_tariff") == "solo" else "tariff_sauspiel")
        return (base if outcome == "win" else -base), mult * (rule(game, "tout_multiplier") if game.ouvert else 1)
    if laufende < 0:
        raise ValueError(f"laufende must be 0 or more, not {laufende}")
    if game.sie:
        if outcome != "win":
            raise ValueError(f"a sie has only the outcome 'win', not {outcome!r}")
        return tariff + 2 * bonus + laufende * bonus, mult * rule(game, "sie_multiplier")
    if game.tout:
        if outcome not in ("win", "loss"):
            raise ValueError(f"a tout is won or lost, not {outcome!r}")
        base = tariff + laufende * bonus
        return (base if outcome == "win" else -base), mult * rule(game, "tout_multiplier")
    if outcome not in SCHAFKOPF_OUTCOMES:
        raise ValueError(f"unknown Schafkopf outcome {outcome!r} (one of {', '.join(SCHAFKOPF_OUTCOMES)})")
    base = tariff + laufende * bonus
    if outcome.endswith("schneider"):
        base += bonus
    elif outcome.endswith("schwarz"):
        base += 2 * bonus  # schwarz is schneider too
    return (base if is_won(outcome) else -base), mult


def payment_for(game: Game, outcome: str, *, laufende: int = 0, stakes: Stakes | None = None,
                alone: bool = False, blitz: bool = False) -> int:
    """What each defender pays the declaring side (negative: what each receives), every multiplier applied.

    Sheepshead: 1/2/3 units per defender for win/schneider/schwarz, mirrored for losses. ``alone`` (the picker
    has no partner) multiplies by ``alone_multiplier`` in 5-hand only: in 3-hand and 4-hand the picker is
    always alone and no alone multiplier applies. ``blitz`` (the picker held QC and QS at the first lead)
    doubles only under the ``blitz`` switch; ``double_on_bump`` doubles losses.

    Schafkopf: tariff (sauspiel ``tariff_sauspiel``, solo-type ``tariff_solo``) + ``tariff_bonus`` for
    schneider, again for schwarz, and per Laufender (``laufende``: the count that is paid, 0 below the game's
    threshold); a tout is (tariff + Laufende) x ``tout_multiplier``; a sie is valued as a won schwarz solo with
    its Laufende, x ``sie_multiplier``. Kontra/Re (``stakes.crack``/``recrack``) and doublers double. Bettel:
    the sauspiel's tariff, or the solo's with ``bettel_tariff = "solo"``.

    Skat (:mod:`sheepsolve.scoring.skat`): not what a defender pays but the declarer's list score, his game value
    won or twice it lost (``laufende``: his matadors), with Seeger-Fabian's 50 under ``seeger_fabian``.

    >>> from sheepsolve.games import make_game
    >>> payment_for(make_game("grand"), "win-schneider", laufende=4), payment_for(make_game("null"), "loss")
    (144, -46)
    >>> g = make_game("sheepshead")
    >>> payment_for(g, "win", alone=True), payment_for(make_game("sheepshead-3"), "win", alone=True)
    (2, 1)
    >>> payment_for(make_game("solo", trump="H"), "win-schwarz", laufende=4, stakes=Stakes(crack=True))
    220
    >>> payment_for(make_game("wenz", tout=True), "loss", laufende=2)
    -140
    """
    base, mult = base_and_multiplier(game, outcome, laufende=laufende, stakes=stakes, alone=alone, blitz=blitz)
    if game.family == "skat" and rule(game, "seeger_fabian"):
        return base * mult + (SEEGER_WIN if base > 0 else -SEEGER_WIN)
    return base * mult


def laufende_of(setup: Setup) -> tuple[int, bool]:
    """The unbroken run of top trumps held by one side at the first lead, and whether that side declares.

    The run is counted in full, before the game's threshold (``game.laufende_from``): a run shorter than the
    threshold pays nothing. Only for two-sided games.

    >>> from sheepsolve.games import make_game
    >>> from sheepsolve.cards import parse_cards
    >>> g = make_game("wenz")
    >>> hands = [parse_cards("JC JS AC TC KC AS TS KS"), parse_cards("JH QC 9C 8C 7C QS 9S 8S"),
    ...          parse_cards("JD 7S AH TH KH QH 9H 8H"), parse_cards("AD TD KD QD 9D 8D 7D 7H")]
    >>> laufende_of(Setup.create(g, hands, declarer=0))
    (2, True)
    >>> laufende_of(Setup.create(g, hands, declarer=1))
    (2, False)
    """
    g = setup.game
    if not g.two_sided:
        raise ValueError(f"{g.name} has no sides and no Laufende")
    owner: dict[Card, int] = {c: seat for seat, h in enumerate(setup.hands) for c in h}
    if setup.declarer is not None:
        owner.update({c: setup.declarer for c in setup.bury})  # the bury is the picker's
    run = 0
    side: bool | None = None
    for c in g.trumps:
        seat = owner.get(c)
        if seat is None and setup.past_tricks:  # a position set by its cards: played before it, by either side
            what = "matadors" if g.family == "skat" else "Laufende"
            raise ValueError(f"the {what} of a position set by its cards are not known: the run of the top trumps "
                             f"reaches {c}, which no hand holds (it was played before the position, by either side"
                             + (", or lies in the skat)" if g.family == "skat" else ")"))
        if seat is None:  # not in play (a hand dealt mid-hand): the run stops
            break
        mine = seat in setup.team
        if side is None:
            side = mine
        elif mine != side:
            break
        run += 1
    return run, bool(side)


# --------------------------------------------------------------------------------------------------------------
# The payments of one setup


_QC, _QS = Card.make("Q", "C"), Card.make("Q", "S")


@dataclass(frozen=True)
class PaymentTerms:
    """What a two-sided setup's payments depend on besides the outcome and the stakes: the Laufende paid (the
    run, 0 below the game's threshold; Schafkopf), whether the declarer has no partner, and blitz (the picker
    holds both black queens at the first lead; Sheepshead)."""

    laufende: int
    alone: bool
    blitz: bool


def payment_terms(setup: Setup) -> PaymentTerms:
    """The :class:`PaymentTerms` of a two-sided ``setup``."""
    g = setup.game
    laufende, blitz = 0, False
    if g.family == "skat":  # the matadors, with or without
        laufende = 0 if g.no_trick else laufende_of(setup)[0]
        if not g.no_trick and not laufende:  # a hand dealt mid-hand without the top jack
            raise ValueError(f"{g.name}: the matadors are not known: {g.trumps[0]}, the top trump, is not in play "
                             f"(a deal of {max(map(len, setup.hands))} cards each)")
    elif g.kind == "contract":
        run, _ = laufende_of(setup)
        laufende = run if run >= g.laufende_from else 0
    elif setup.declarer is not None:
        hand = setup.hands[setup.declarer]
        blitz = _QC in hand and _QS in hand
    return PaymentTerms(laufende, setup.partner is None, blitz)


def overbid(setup: Setup, outcome: str, terms: PaymentTerms | None = None) -> bool:
    """Whether ``setup``'s Skat game is overbid with ``outcome``: its value (the declarer's matadors, the levels of
    ``outcome`` and the declaration) below the bid (ISkO 5.4.2). False in every other game, in null (declared only
    when it covers the bid) and without a bid."""
    g = setup.game
    if g.family != "skat" or g.no_trick or g.bid is None:
        return False
    matadors = (terms or payment_terms(setup)).laufende
    return matadors >= 1 and game_value(g, outcome, matadors).overbid


def scored_outcome(setup: Setup, outcome: str, terms: PaymentTerms | None = None) -> str:
    """``outcome`` (:func:`outcome_for`: the result of the play and the announcements) as the game scores it: an
    overbid Skat game (:func:`overbid`) is lost whatever the play, so a won outcome becomes ``loss`` (charged as
    the play's outcome is: the lowest multiple of its base value that covers the bid). Every other outcome, and
    every other game's, is as given.

    >>> from sheepsolve.games import make_game
    >>> from sheepsolve.cards import parse_cards
    >>> hands = [parse_cards(h) for h in ("JC JS AC TC KC QC 9C 8C 7C AS", "JH JD TS KS QS 9S 8S 7S AH TH",
    ...                                   "KH QH 9H 8H 7H AD TD KD QD 9D")]
    >>> st = Setup.create(make_game("skat", trump="C", bid=48), hands, declarer=0, blind=parse_cards("8D 7D"),
    ...                   bury=parse_cards("8D 7D"))
    >>> scored_outcome(st, "win"), scored_outcome(st, "win-schneider"), scored_outcome(st, "loss-schneider")
    ('loss', 'win-schneider', 'loss-schneider')
    """
    return "loss" if is_won(outcome) and overbid(setup, outcome, terms) else outcome


def side_payment(game: Game, outcome: str, terms: PaymentTerms, stakes: Stakes | None = None) -> int:
    """What each defender pays the declaring side for ``outcome`` (negative: what each receives): :func:`payment_for`
    with the setup's :class:`PaymentTerms`."""
    return payment_for(game, outcome, laufende=terms.laufende, stakes=stakes, alone=terms.alone, blitz=terms.blitz)


def seat_payment(setup: Setup, seat: int, outcome: str, stakes: Stakes | None = None,
                 terms: PaymentTerms | None = None) -> int:
    """What ``seat`` is paid (negative: pays) for the declaring side's ``outcome``: a defender pays
    :func:`side_payment`; the declaring side receives every defender's, the declarer alone all of it, a
    Sheepshead picker and partner 2 : 1 (exact, since three defenders pay), a sauspiel's declarer and partner
    one defender's each.

    >>> from sheepsolve.games import make_game
    >>> from sheepsolve.cards import parse_cards
    >>> g = make_game("sheepshead")
    >>> hands = [parse_cards(h) for h in ("QC QS JC AD TD KD", "QH JD AC TC KC 9C", "QD JS AS TS KS 9S",
    ...                                   "JH AH TH KH 9H 8H", "9D 8D 8C 7C 8S 7S")]
    >>> st = Setup.create(g, hands, declarer=0, blind=parse_cards("7D 7H"), bury=parse_cards("7D 7H"))
    >>> [seat_payment(st, s, "win") for s in range(5)], [seat_payment(st, s, "schneidered") for s in range(5)]
    ([2, 1, -1, -1, -1], [-4, -2, 2, 2, 2])
    """
    g = setup.game
    each = side_payment(g, outcome, terms or payment_terms(setup), stakes)
    if g.family == "skat":  # the list score: the declarer's; an opponent's only under Seeger-Fabian
        if seat in setup.team:
            return each
        return SEEGER_OPPONENT if each < 0 and rule(g, "seeger_fabian") else 0
    if seat not in setup.team:
        return -each
    defenders = g.seats - len(setup.team)
    total = each * defenders
    if setup.partner is None:
        return total
    if g.kind == "picker":  # picker 2 : partner 1
        if total % 3:
            raise ValueError(f"{g.name}: {defenders} defenders do not split 2:1")  # pragma: no cover
        return total // 3 * 2 if seat == setup.declarer else total // 3
    if defenders != 2:  # sauspiel: each loser pays one winner
        raise ValueError(f"{g.name}: a sauspiel needs 2 against 2")  # pragma: no cover
    return each
