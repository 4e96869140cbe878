"""Read once, replay once: each command reads its record once and replays its play once, then every part of the
command (the solver, the renderer, the player's view) takes the positions from the kept replay
(:attr:`sheepsolve.record.Record.replay`).

Counted in this process, through the command line: the records read (``check_data``), the replays computed
(``replay_of``), the setups the engine creates (``Setup.create``) and the walks of a play from its first lead
(``Setup.start``), for every command on every bundled example (``benchmarks/read_counts.py`` prints the figures).
A record the reader completes from its play (a play-only record) is replayed once too: the trick winners tell who
played each card, and the completed record is replayed with every hand held to every rule (the replay kept); it is
never read again as text.
"""

from __future__ import annotations

import collections
from collections.abc import Iterator

import pytest
from click.testing import CliRunner

import sheepsolve.record.model as model
import sheepsolve.record.read as read
from sheepsolve.cli import main
from sheepsolve.engine import Setup
from helpers_cli import EXAMPLES

SAMPLED = ["--worlds", "4", "--seed", "1", "--jobs", "1"]


@pytest.fixture
def counts(monkeypatch) -> Iterator[collections.Counter]:
    seen: collections.Counter = collections.Counter()
    check_data, replay_of = read.check_data, model.replay_of
    create, start = Setup.create.__func__, Setup.start  # type: ignore[attr-defined]

    def counting(key, fn):
        def wrapped(*args, **kwargs):
            seen[key] += 1
            return fn(*args, **kwargs)
        return wrapped

    monkeypatch.setattr(read, "check_data", counting("read", check_data))
    monkeypatch.setattr(model, "replay_of", counting("replay", replay_of))
    monkeypatch.setattr(Setup, "create", classmethod(counting("create", create)))
    monkeypatch.setattr(Setup, "start", counting("start", start))
    yield seen


def ran(counts: collections.Counter, *args: str) -> dict[str, int]:
    counts.clear()
    res = CliRunner().invoke(main, list(args))
    assert res.exit_code == 0, res.output
    return {k: counts[k] for k in ("read", "replay", "create", "start")}


@pytest.mark.parametrize("name", ["sauspiel-finished", "solo-hearts-midtrick", "sheepshead-called-ace-finished",
                                  "sheepshead-called-ace-under-finished", "leaster-4-midtrick"])
@pytest.mark.parametrize("json_out", [[], ["--json"]])
def test_solve_reads_and_replays_a_full_record_once(counts, name: str, json_out: list[str]) -> None:
    seat = ["--seat", "Ann"] if name.startswith("leaster") else []
    got = ran(counts, "solve", str(EXAMPLES / f"{name}.toml"), *seat, *json_out)
    assert got == {"read": 1, "replay": 1, "create": 1, "start": 1}


@pytest.mark.parametrize("name", ["sauspiel-play-only", "sheepshead-called-ace-play-only"])
def test_a_play_only_record_is_completed_once_with_no_trial_deals(counts, name: str) -> None:
    """Was: read twice (the inferred cards as text), 4 replays, 5 setups (11 for the called ace: trial deals);
    then 2 replays (as given, to find who played each card, and completed)."""
    got = ran(counts, "solve", str(EXAMPLES / f"{name}.toml"))
    assert got == {"read": 1, "replay": 1, "create": 1, "start": 1}


@pytest.mark.parametrize("name", ["sheepshead-jd-partial", "sauspiel-finished", "sheepshead-called-ace-unfinished"])
@pytest.mark.parametrize("json_out", [[], ["--json"]])
def test_show_replays_once(counts, name: str, json_out: list[str]) -> None:
    """A partial record's stand-in setup is built directly: no setup is created for it, no trial deal."""
    got = ran(counts, "show", str(EXAMPLES / f"{name}.toml"), *json_out)
    partial = name.endswith("partial")
    assert got == {"read": 1, "replay": 1, "create": 0 if partial else 1, "start": 1}


@pytest.mark.parametrize("args", [
    ["annotate", "sauspiel-finished", "--json", "--no-bury"],
    ["annotate", "annotate-blunder-sheepshead", "--json"],
    ["suggest", "sauspiel-midtrick", *SAMPLED],
    ["suggest", "sauspiel-finished", *SAMPLED, "--at", "2.2", "--json"],
])
def test_analyses_read_and_replay_once(counts, args: list[str]) -> None:
    """The analyses make setups of their own (the bury's alternatives, the worlds); the record is read and
    replayed once."""
    command, name, *rest = args
    got = ran(counts, command, str(EXAMPLES / f"{name}.toml"), *rest)
    assert (got["read"], got["replay"]) == (1, 1)


#: openschafkopf positions: at the first lead, mid-trick, after a whole trick (the next leader its winner), and a
#: wenz mid-trick after a trick.
POSITIONS = [
    ("rufspiel eichel von 1", "eo hu sz ea ha h9 s7 gk", ""),
    ("rufspiel eichel von 1", "eo hu sz ea ha h9 s7 s8", "gk ga"),
    ("rufspiel eichel von 1", "eo hu sz ez ha h9 s7", "g7 ga gz g8"),
    ("wenz von 2", "ez e9 e8 hk h8 sa s9", "ha h7 h9 hz eu"),
]


@pytest.mark.parametrize("rules, hand, table", POSITIONS)
def test_import_suggest_reads_and_replays_once(counts, rules: str, hand: str, table: str) -> None:
    """No TOML round trip and no second read: the player to move comes from the trick winners, the position is
    read once with his hand and replayed once, and suggest takes that record. Was: read twice by the importer
    (to find the player to move, then with his hand), 2 replays."""
    got = ran(counts, "import", "openschafkopf", "--rules", rules, "--hand", hand, "--cards-on-table", table,
              "--suggest", *SAMPLED)
    assert (got["read"], got["replay"]) == (1, 1)


@pytest.mark.parametrize("rules, hand, table", POSITIONS)
def test_import_read_once_gives_the_two_read_record(rules: str, hand: str, table: str) -> None:
    """The one read gives the record the two reads gave (the replay's player to move, his hand as dealt)."""
    from sheepsolve import importers

    d, rec = importers.openschafkopf_record(rules, hand, table), importers.openschafkopf_position(rules, hand, table)
    base = {k: v for k, v in d.items() if k != "hands"}
    again_d, again = importers._read_twice(base, importers.parse_openschafkopf_cards(hand),
                                           importers.parse_openschafkopf_cards(table))
    assert (d, rec) == (again_d, again)
    seat = rec.replay.final.to_move
    assert [str(p) for p in d["hands"]] == [rec.players[seat]]


TINY = ["--worlds", "2", "--seed", "1", "--jobs", "1"]

#: Every command that reads a record, as the sweep below runs it on every bundled example ({f}: the example).
EVERY_COMMAND = {
    "show": ["show", "{f}", "--json"],
    "solve": ["solve", "{f}", "--json"],
    "annotate": ["annotate", "{f}", "--json"],
    "annotate --view player": ["annotate", "{f}", "--view", "player", *TINY, "--json"],
    "suggest": ["suggest", "{f}", *TINY, "--json"],
    "suggest --at": ["suggest", "{f}", *TINY, "--at", "2.2", "--json"],
    "bury": ["bury", "{f}", "--jobs", "1", "--json"],
    "bury --view picker": ["bury", "{f}", "--view", "picker", *TINY, "--json"],
    "pick": ["pick", "{f}", *TINY, "--json"],
    "choose": ["choose", "{f}", *TINY, "--json"],
}


#: The examples a slow command is swept over in the default run (every example with -m slow): play-only records,
#: a partial one, the card under, a leaster, a sie.
FEW = ("sauspiel-play-only", "sheepshead-called-ace-play-only", "sheepshead-jd-partial",
       "sheepshead-called-ace-under-finished", "leaster-4-midtrick", "wenz-3-player-midtrick", "sie")
SLOW = {"annotate --view player"}


@pytest.mark.parametrize("command, examples",
                         [pytest.param(c, "all", id=c, marks=[pytest.mark.slow] if c in SLOW else [])
                          for c in EVERY_COMMAND] + [pytest.param(c, "few", id=f"{c}-few") for c in sorted(SLOW)])
def test_every_command_reads_once_on_every_example(counts, command: str, examples: str) -> None:
    """Every command on every bundled example: the record is read once and its play replayed once (a record
    completed from its play too), whether the command answers or refuses; show and solve create at most the
    record's own setup (none for a partial record's stand-in)."""
    answered = 0
    paths = sorted(EXAMPLES.glob("*.toml"))
    if examples == "few":
        paths = [p for p in paths if p.stem in FEW]
    for path in paths:
        args = [str(path) if a == "{f}" else a for a in EVERY_COMMAND[command]]
        counts.clear()
        res = CliRunner().invoke(main, args)
        assert res.exception is None or isinstance(res.exception, SystemExit), (path.stem, res.exception)
        got, created = (counts["read"], counts["replay"]), counts["create"]
        if res.exit_code == 0:
            answered += 1
            assert got == (1, 1), (path.stem, got)
        else:
            assert got[0] <= 1 and got[1] <= 1, (path.stem, got)
        if command in ("show", "solve"):
            assert created <= 1, (path.stem, created)
    assert answered >= (4 if examples == "few" else 10), f"{command} answered on {answered} examples only"


def test_report_reads_no_record(counts, tmp_path) -> None:
    """The season report reads batch's output, not the records: nothing is read or replayed again."""
    out = tmp_path / "season.jsonl"
    files = [str(EXAMPLES / f"{name}.toml") for name in ("sauspiel-finished", "sheepshead-jd-finished")]
    res = CliRunner().invoke(main, ["batch", "annotate", *files, "--out", str(out), "--jobs", "1"])
    assert res.exit_code == 0, res.output
    got = ran(counts, "report", str(out), "--json")
    assert got == {"read": 0, "replay": 0, "create": 0, "start": 0}


def test_every_position_comes_from_the_kept_replay() -> None:
    from sheepsolve.record import load_record

    rec = load_record(EXAMPLES / "sauspiel-midtrick.toml")
    assert rec.replay is rec.replay
    assert rec.state() is rec.replay.final and rec.setup() is rec.replay.setup
    assert [rec.replay.after(k) for k in range(len(rec.replay.states))] == list(rec.replay.states)
    cards = [c for t in rec.play for c in t]
    assert rec.replay.after(5) == rec.setup().start().play_cards(cards[:5])
    assert [c for _, c in rec.replay.plays] == cards


def full_records():
    from sheepsolve.record import load_record

    for path in sorted(EXAMPLES.glob("*.toml")):
        rec = load_record(path)
        if rec.complete and not rec.inferred and rec.position is None:  # a position comes from no full deal
            yield pytest.param(rec, id=path.stem)


@pytest.mark.parametrize("rec", list(full_records()))
def test_from_state_gives_back_the_record(rec) -> None:
    """Record.from_state, the one builder of a record from a position: every full example comes back equal from
    its last position, its names, its hands as written, its stakes and its informational keys."""
    from sheepsolve.record import Record

    again = Record.from_state(rec.state(), rec.players, dealt=rec.hands, crack=rec.crack, recrack=rec.recrack,
                              doublers=rec.doublers, **rec.extra)
    assert again == rec
    assert again.replay.states == rec.replay.states


def test_from_state_refuses_what_a_record_cannot_hold() -> None:
    import random

    from sheepsolve.deals import random_setup
    from sheepsolve.games import make_game
    from sheepsolve.record import Record, RecordError

    from sheepsolve.cards import parse_cards
    from sheepsolve.engine import Setup

    wenz = make_game("wenz")
    small = Setup.create(wenz, [parse_cards(h) for h in ("JC AS", "JS TS", "JH KS", "JD QS")], declarer=0).start()
    with pytest.raises(RecordError, match="does not come from a full deal"):
        Record.from_state(small)  # a setup dealt mid-hand: its hands as dealt are unknown
    g = make_game("sauspiel")
    full = random_setup(g, random.Random(3)).start()
    with pytest.raises(RecordError, match="players: sauspiel has 4 players, not 3"):
        Record.from_state(full, ["A", "B", "C"])
    with pytest.raises(RecordError, match="players: player 2: the name is empty"):
        Record.from_state(full, ["A", " ", "C", "D"])
    with pytest.raises(RecordError, match="recrack: true, but nobody cracked first"):
        Record.from_state(full, recrack=True)
    with pytest.raises(RecordError, match="bogus: not an informational key"):
        Record.from_state(full, bogus=1)
    rec = Record.from_state(full, comment="from a position")
    assert rec.extra == {"comment": "from a position"} and rec.replay.final == full


@pytest.mark.parametrize("name, trick, swap, error", [
    # the play as given refuses it (the stand-in replay's error, before any card is inferred)
    ("sheepshead-called-ace-play-only", 0, (0, 3), "play: trick 1, card 1: 9D by Ann: 9D is in the blind"),
    ("sauspiel-play-only", 2, None, "play: trick 3, card 2: TC by Resi was already played in trick 1 by Sepp"),
    # the completed record refuses it
    ("sheepshead-called-ace-play-only", 0, (0, 1),
     "play: trick 1, card 3: TH by Cal is a revoke: TH does not follow suit S (AS 7S in hand) (with hands.Ann, "
     "hands.Bob, hands.Cal, hands.Dee, hands.Eve inferred from the play)"),
    ("sauspiel-play-only", 0, (1, 2),
     "play: trick 1: the hands inferred from the play do not fit: called: AC: the declarer holds it himself "
     "(hands.Hias); is the trick written in the order played, from its leader?"),
])
def test_a_play_only_record_read_once_names_its_error_as_before(name: str, trick: int, swap, error: str) -> None:
    """Replayed once, completed, a play-only record that breaks the rules is refused with the error it had when
    its play was replayed as given first (the messages of the two-replay reader): the play as given's own error
    where it has one, else the completed record's."""
    import tomllib

    from sheepsolve.record import RecordError, record_from_dict

    d = tomllib.loads((EXAMPLES / f"{name}.toml").read_text(encoding="utf-8"))
    play = [t.split() for t in d["play"]]
    if swap is None:  # the first card of trick 1 played again in trick 3
        play[trick][1] = play[0][0]
    else:
        i, j = swap
        play[trick][i], play[trick][j] = play[trick][j], play[trick][i]
    d["play"] = [" ".join(t) for t in play]
    with pytest.raises(RecordError) as caught:
        record_from_dict(d)
    assert str(caught.value) == error
