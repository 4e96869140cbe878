"""Hand records: read, validate and write the format of ``docs/RECORD-FORMAT.md``.

A record is TOML (or a JSON object with the same keys). Reading checks everything and repairs nothing: every
problem raises :class:`RecordError`, whose message starts with the key (``hands.Bob``, ``bury``, ``called``,
``play: trick 3, card 1``) and names the player, trick and card. The rules themselves (following suit, the
called-card restrictions, which calls a hand allows) come from :mod:`sheepsolve.engine`.

>>> rec = parse_record('''
... game = "sheepshead-3"
... players = ["Ann", "Bob", "Cal"]
... picker = "Ann"
... blind = "8H 7H"
... bury = "8H 7H"
... play = ["QC KD AS", "QS"]
... [hands]
... Ann = "QC QS QH QD JC JS JH JD AD TD"
... Bob = "KD 9D 8D 7D AC TC KC 9C 8C 7C"
... Cal = "AS TS KS 9S 8S 7S AH TH KH 9H"
... ''')
>>> rec.game.name, rec.players[rec.declarer], rec.complete
('sheepshead-3', 'Ann', True)
>>> st = rec.state()
>>> rec.players[st.tricks[0].winner], rec.players[st.to_move]
('Ann', 'Bob')
>>> parse_record(dump_record(rec)) == rec == parse_record(dump_record(rec, "json"), "json")
True
>>> try:
...     parse_record('game = "sheepshead-3"\\npicker = "Zed"')
... except RecordError as e:
...     print(e)
picker: "Zed" is not a player (players: 1, 2, 3)

Keys (see docs/RECORD-FORMAT.md): ``game`` (required), ``players``, ``picker`` (Sheepshead) or ``declarer``
(Schafkopf), ``blind``, ``bury``, ``partner``, ``called`` (a card, or ``"alone"``), ``under``, ``alone``,
``trump``, ``tout``, ``deck``, ``crack``/``recrack`` (Schafkopf: ``kontra``/``re``), ``doublers``, ``play``,
``[rules]``, ``[hands]``. The informational keys of :data:`INFO_KEYS` are kept as they are for the round trip
(``seats`` must agree with ``players``, ``dealer`` must be the last player); TOML dates become ISO strings.
Any other key is an error. Player references are names; with the default names ``"1"`` .. ``"N"`` an integer
may stand for its name.

A record may leave hands (and the blind and bury) out. What is given is validated, and the play is checked
as far as the known hands allow: a player whose hand at the first lead is known is held to every rule; a
card from an unknown hand is accepted when it is not known to be elsewhere. :attr:`Record.complete` says
whether :meth:`Record.setup` and :meth:`Record.state` can work.

The package: :mod:`~sheepsolve.record.model` (the :class:`Record` and its keys), :mod:`~sheepsolve.record.read`
(text, files and data in), :mod:`~sheepsolve.record.check` (the checks of every key),
:mod:`~sheepsolve.record.replay` (the play replayed through the engine, and the cards it determines),
:mod:`~sheepsolve.record.write` (TOML and JSON out), :mod:`~sheepsolve.record.position` (a position set by its
cards), :mod:`~sheepsolve.record.errors` (:class:`RecordError`).
"""

from __future__ import annotations

from .errors import RecordError
from .model import INFO_KEYS, MAX_NAME_LENGTH, MAX_RECORD_BYTES, RECORD_KEYS, Record  # noqa: F401
from .position import Position, position_refusal
from .read import load_record, parse_data, parse_record, read_record_file, record_from_dict  # noqa: F401
from .check import notation_of_data  # noqa: F401
from .write import dump_record

__all__ = [
    "Record",
    "RecordError",
    "parse_record",
    "load_record",
    "record_from_dict",
    "dump_record",
    "notation_of_data",
    "RECORD_KEYS",
    "INFO_KEYS",
    "Position",
    "position_refusal",
]
