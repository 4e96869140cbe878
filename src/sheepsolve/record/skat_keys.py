"""A Skat record's own keys (docs/RECORD-FORMAT.md, "Skat records"), read into the reader's terms.

A Skat record names its ``contract`` (``grand``, ``clubs`` ... ``diamonds``, ``null``), the ``declarer``, the
``skat`` (the two cards dealt to it) and the ``discard`` (the two cards put away after taking it; absent in a hand
game, where the skat stays as dealt and counts for the declarer), and the declaration: ``hand``,
``schneider_announced``, ``schwarz_announced``, ``ouvert``, ``bid``. The reader checks a Skat record as it checks a
3-hand Sheepshead record with its picker, blind and bury (the skat counts for the declarer as the bury does for the
picker): :func:`reader_data` gives it the data in those terms, and :data:`SKAT_WORDS` the words its errors use.
The Sheepshead keys (``picker``, ``blind``, ``bury``, ``game = "grand"``, ``trump``) are still read.

>>> d = reader_data({"game": "skat", "contract": "hearts", "declarer": "2", "skat": "7S QD", "hand": True})
>>> d["game"], d["trump"], d["picker"], d["blind"], d["bury"]
('skat', 'H', '2', '7S QD', '7S QD')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..games import REGISTRY, GameError, resolve_name
from ..skat_declaration import CONTRACTS, DeclarationError, game_of_contract
from .errors import RecordError, kind_of, shown

__all__ = ["SKAT_KEYS", "SKAT_WORDS", "NO_DOUBLING", "is_skat", "reader_data", "written_keys"]

SKAT_KEYS = ("contract", "skat", "discard", "hand", "schneider_announced", "schwarz_announced", "bid")
"""The keys only a Skat record has (``ouvert`` and ``declarer`` are shared with Schafkopf)."""
SKAT_WORDS = {"blind": "skat", "bury": "discard", "picker": "declarer"}
"""The Sheepshead words of the reader and the Skat words a Skat record's errors use instead."""
NO_DOUBLING = ("crack", "recrack", "kontra", "re", "doublers")
"""The stakes keys of Sheepshead and Schafkopf (crack/recrack, kontra/re, doublers and klopfen), refused in Skat."""

# the record's key, and the reader's key it stands for
_RENAMED = (("skat", "blind"), ("discard", "bury"), ("declarer", "picker"))


def is_skat(d: Mapping[str, Any]) -> bool:
    """Whether the data is a Skat record: its game is of the family ``skat``, or it names a ``contract``."""
    if "contract" in d:
        return True
    try:
        return REGISTRY[resolve_name(d.get("game"))[0]].family == "skat"  # type: ignore[arg-type]
    except GameError:
        return False


def reader_data(d: Mapping[str, Any]) -> dict[str, Any]:
    """A Skat record's data in the reader's terms: ``contract`` becomes the registry game (and trump suit),
    ``skat``, ``discard`` and ``declarer`` the ``blind``, ``bury`` and ``picker``, and in a hand game the skat as
    dealt is what counts for the declarer (the ``bury``). Raises :class:`RecordError` naming the key."""
    out = dict(d)
    for key, old in _RENAMED:
        if key in d and old in d:
            raise RecordError(f"{key}: given twice, also as {old} (a Skat record writes {key})")
        if key in d:
            out[old] = out.pop(key)
    contract = d.get("contract")
    if contract is not None:
        if not isinstance(contract, str):
            raise RecordError(f"contract: must be a contract name (one of {', '.join(CONTRACTS)}), not "
                              f"{kind_of(contract)}")
        try:
            name, trump = game_of_contract(contract.strip().lower())
        except DeclarationError:
            raise RecordError(f"contract: unknown contract {shown(contract)} (one of {', '.join(CONTRACTS)})") \
                from None
        game = d.get("game")
        if game is not None and (not isinstance(game, str) or _canon(game) not in ("skat", name)):
            raise RecordError(f'game: {shown(game)}, but contract = {shown(contract)}: a Skat record is '
                              f'game = "skat" with its contract')
        if "trump" in d:
            raise RecordError(f'trump: a Skat record names its contract (contract = "{contract}"), not a trump')
        out.pop("contract")
        out["game"] = name if not _ouvert_name(game) else f"{name}-ouvert"
        if trump is not None:
            out["trump"] = trump
    elif _canon(d.get("game")) == "skat" and "trump" not in d:
        raise RecordError(f'contract: missing: name the Skat contract (contract = "grand"; one of '
                          f'{", ".join(CONTRACTS)})')
    for key in NO_DOUBLING:
        if key in d:
            raise RecordError(f"{key}: sheepsolve's Skat has no doubling (no Kontra, Re or klopfen; docs/RULES.md, "
                              f"\"Skat and Bettel\"): leave {key} out")
    # a hand game: the declarer played from his dealt hand, and the skat as dealt counts for him; an ouvert grand
    # or suit game is a hand game
    hand = d.get("hand") is True or (d.get("ouvert") is True and d.get("hand") is None
                                     and _canon(out.get("game")) in ("grand", "skat"))
    if hand and ("discard" in d or "bury" in d):
        key = "discard" if "discard" in d else "bury"
        raise RecordError(f"{key}: a hand game puts nothing away: the skat stays as dealt and counts for the "
                          f"declarer (leave {key} out, or write hand = false)")
    if hand and "blind" in out:
        out["bury"] = out["blind"]
    return out


def _canon(game: Any) -> str | None:
    try:
        return resolve_name(game)[0]
    except GameError:
        return None


def _ouvert_name(game: Any) -> bool:
    return isinstance(game, str) and game.strip().lower().endswith("ouvert")


def written_keys(game: Any) -> dict[str, Any]:
    """The declaration of a Skat game as a record writes it (``contract`` and the flags that are set; the bid
    when known)."""
    from ..skat_declaration import contract_of
    out: dict[str, Any] = {"game": "skat", "contract": contract_of(game.name, game.trump_suit)}
    for key in ("hand", "schneider_announced", "schwarz_announced", "ouvert"):
        if getattr(game, key):
            out[key] = True
    if game.bid is not None:
        out["bid"] = game.bid
    return out
