"""Puzzles: the bundled set proves out, generation is deterministic, doctored puzzles fail for the right reason,
solutions agree with the reference minimax, and the command line behaves."""

from __future__ import annotations

import glob
import json
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers_cli import EXAMPLES, ROOT

from sheepsolve.cards import Card, parse_cards
from sheepsolve.cli import main
from sheepsolve.engine import Setup
from sheepsolve.games import make_game
from sheepsolve.objective import Objective
from sheepsolve.puzzle import (
    DIFFICULTIES,
    Puzzle,
    PuzzleError,
    check_puzzle,
    equivalent_groups,
    find_puzzle,
    generate,
    puzzle_at,
    puzzle_from_record,
)
from sheepsolve.record import RecordError, load_record, parse_record
from sheepsolve.render.puzzle import describe_goal, render_html, render_text
from sheepsolve.reference import reference_card_values
from sheepsolve.solver import Solver

PUZZLE = EXAMPLES / "puzzles" / "05-easy-sauspiel.toml"
BUNDLED = sorted(glob.glob(os.path.join(ROOT, "examples", "puzzles", "*.toml")))


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver()


@pytest.fixture(scope="module")
def small() -> list[Puzzle]:
    """Small generated puzzles of several games (3 cards left), fast enough for the reference minimax."""
    out = []
    for name, kw, seed in [("sheepshead", {}, 1), ("sheepshead", {"partner": "called-ace"}, 2),
                           ("sauspiel", {}, 3), ("wenz", {}, 4), ("solo", {"trump": "D"}, 5)]:
        out += generate(make_game(name, **kw), cards_left=3, count=2, seed=seed)
    return out


def _first_wrong(p: Puzzle) -> Card:
    return next(c for c in p.state.legal() if c not in p.solution)


# -- the bundled set ----------------------------------------------------------------------------------------------

def test_bundled_set_is_big_and_varied():
    assert len(BUNDLED) >= 20
    puzzles = [puzzle_from_record(load_record(f)) for f in BUNDLED]
    games = {(p.record.game.name, p.record.game.partner) for p in puzzles}
    assert {"sheepshead", "sheepshead-3", "sauspiel", "solo", "wenz"} <= {g for g, _ in games}
    assert {("sheepshead", "jack-of-diamonds"), ("sheepshead", "called-ace")} <= games
    assert {p.difficulty for p in puzzles} == set(DIFFICULTIES)
    assert len({str(p.goal) for p in puzzles}) >= 4
    readme = open(os.path.join(ROOT, "examples", "puzzles", "README.md"), encoding="utf-8").read()
    for f in BUNDLED:
        assert os.path.basename(f) in readme


@pytest.mark.parametrize("path", BUNDLED, ids=os.path.basename)
def test_bundled_puzzle_checks(path, solver):
    res = check_puzzle(load_record(path), solver=solver)
    assert res.ok, res.reasons
    p = puzzle_from_record(load_record(path))
    assert set(res.solution) == set(p.solution)
    assert len({str(c) for c in p.solution}) == len(p.solution)


# -- generation ----------------------------------------------------------------------------------------------------

def test_generation_is_deterministic():
    g = make_game("sauspiel")
    a = generate(g, cards_left=3, count=3, seed=42)
    b = generate(g, cards_left=3, count=3, seed=42, solver=Solver())
    assert len(a) == 3
    assert [p.dumps() for p in a] == [p.dumps() for p in b]
    c = generate(g, cards_left=3, count=3, seed=43)
    assert [p.dumps() for p in a] != [p.dumps() for p in c]


def test_generated_puzzles_are_sound(small, solver):
    assert len(small) == 10
    for p in small:
        assert check_puzzle(p, solver=solver).ok
        assert p.difficulty in DIFFICULTIES
        # round trip through the file format
        again = puzzle_from_record(parse_record(p.dumps()))
        assert again.solution == p.solution and again.refutations == p.refutations and again.goal == p.goal
        assert check_puzzle(again, solver=solver).ok


def _reference_solution(p: Puzzle) -> tuple[set[Card], dict[Card, int], object]:
    """The cards that reach the goal by a plain minimax over the rules engine, every card's value, and the test
    of a final value."""
    st = p.state
    obj = Objective.for_setup(st.setup, tricks=p.goal == "all-tricks")
    ref = reference_card_values(st, obj)
    declaring = st.to_move in st.setup.team
    if p.goal == "max":
        best = max(ref.values()) if declaring else min(ref.values())
        reaches = lambda v: v == best  # noqa: E731
    else:
        t = st.game.tricks if p.goal == "all-tricks" else p.goal
        reaches = lambda v: (v >= t) == declaring  # noqa: E731
    return {c for c, v in ref.items() if reaches(v)}, ref, reaches


def _confirm_with_reference(p: Puzzle) -> None:
    good, ref, reaches = _reference_solution(p)
    assert good == set(p.solution), (p.record.extra.get("source"), p.goal)
    st = p.state
    obj = Objective.for_setup(st.setup, tricks=p.goal == "all-tricks")
    for w, line in p.refutations.items():  # every refutation line, replayed, ends short of the goal
        assert not reaches(obj.final_value(st.play(w).play_cards(line)))


def test_solutions_agree_with_reference_minimax(small):
    for p in small:
        _confirm_with_reference(p)


SMALL_BUNDLED = [f for f in BUNDLED if (lambda st: sum(len(h) for h in st.hands) <= 13 and st.seats >= 4)(
    load_record(f).state())]


@pytest.mark.parametrize("path", SMALL_BUNDLED, ids=os.path.basename)
def test_small_bundled_puzzles_agree_with_reference_minimax(path):
    _confirm_with_reference(puzzle_from_record(load_record(path)))


def test_goals_and_options():
    g = make_game("sheepshead", partner="called-ace")
    ps = generate(g, cards_left=3, count=2, seed=9, goals=[61, 91], position="follow")
    assert ps and all(p.goal in (61, 91) and p.state.trick for p in ps)
    ps = generate(g, cards_left=3, count=1, seed=9, goals=["max"], position="lead", min_difficulty="medium")
    # a vague "max" goal becomes a concrete target: what the best card makes (or holds the declaring side to)
    assert ps and isinstance(ps[0].goal, int) and not ps[0].state.trick and ps[0].difficulty != "easy"
    assert check_puzzle(ps[0]).ok
    assert "card points" in describe_goal(ps[0].state, ps[0].goal)
    with pytest.raises(PuzzleError, match="declaring side"):
        generate(make_game("ramsch"), cards_left=3, count=1, seed=1)
    with pytest.raises(PuzzleError, match="cards left"):
        find_puzzle(make_game("wenz"), 1, cards_left=8)
    with pytest.raises(PuzzleError, match="unknown goal"):
        generate(make_game("wenz"), cards_left=3, count=1, seed=1, goals=["most"])


def test_solver_mode_plays_best_cards():
    ps = generate(make_game("sheepshead"), cards_left=3, count=1, seed=3, mode="solver")
    assert len(ps) == 1 and check_puzzle(ps[0]).ok
    assert "--play solver" in ps[0].record.extra["source"]


def test_equivalent_groups():
    g = make_game("wenz")
    hands = [parse_cards("AC KC QC"), parse_cards("TC 9C 8C"), parse_cards("JC 7S 8S"), parse_cards("AS TS KS")]
    s = Setup.create(g, hands, declarer=2).start()
    assert [len(x) for x in equivalent_groups(s)] == [1, 1, 1]  # AC, KC, QC: different points
    s = s.play(Card.parse("AC"))
    assert [[str(c) for c in x] for x in equivalent_groups(s)] == [["TC"], ["9C", "8C"]]
    s = s.play(Card.parse("9C")).play(Card.parse("JC")).play(Card.parse("KS"))
    assert [[str(c) for c in x] for x in equivalent_groups(s)] == [["8S", "7S"]]  # JC leads: nothing between


def test_puzzle_at_named_goal(small, solver):
    p = small[0]
    again = puzzle_at(p.state, p.goal, solver=solver)
    assert again is not None and again.solution == p.solution


# -- doctored puzzles ------------------------------------------------------------------------------------------

def _doctor(p: Puzzle, **table) -> str:
    """The puzzle file with fields of its [puzzle] table replaced."""
    d = p.to_record().to_dict()
    d["puzzle"].update(table)
    from sheepsolve.record import dump_record, record_from_dict

    return dump_record(record_from_dict(d))


def _reasons(text: str, solver: Solver) -> tuple[str, ...]:
    res = check_puzzle(parse_record(text), solver=solver)
    assert not res.ok
    return res.reasons


def test_doctored_wrong_solution_added(small, solver):
    p = small[0]
    w = _first_wrong(p)
    reasons = _reasons(_doctor(p, solution=[str(c) for c in p.solution] + [str(w)]), solver)
    assert any(r.startswith(f"wrong solution: {w} does not reach the goal") for r in reasons)


def test_doctored_wrong_solution_swapped(small, solver):
    p = small[1]
    w = _first_wrong(p)
    reasons = _reasons(_doctor(p, solution=[str(w)]), solver)
    assert any(r.startswith(f"wrong solution: {w}") for r in reasons)
    assert any(r.startswith(f"second solution: {p.solution[0]} also reaches the goal") for r in reasons)
    # the refutations table still refutes the real wrong cards: nothing to say about it
    assert not any(r.startswith("refutation") for r in reasons)


def test_doctored_refutations_table(small, solver):
    p = small[1]
    sol = p.solution[0]
    refs = {str(c): [str(x) for x in line] for c, line in list(p.refutations.items())[1:]}
    missing = next(iter(p.refutations))
    refs[str(sol)] = [str(x) for x in p.refutations[missing]]
    reasons = _reasons(_doctor(p, refutations=refs), solver)
    assert f"refutations: {sol} reaches the goal, it has no refutation" in reasons
    assert f"refutations: none for {missing}" in reasons


def test_doctored_second_solution(small, solver):
    """A goal under which two groups of cards work: the check names the second solution."""
    for p in small:
        st = p.state
        values = solver.card_values(st)
        declaring = st.to_move in st.setup.team
        groups = equivalent_groups(st)
        reps = sorted({values[grp[0]] for grp in groups}, reverse=declaring)
        if len(reps) < 3 and len(groups) < 3:
            continue
        # a threshold met by the best two groups' values (several cards)
        for t in range(1, 121):
            good = [grp for grp in groups if (values[grp[0]] >= t) == declaring]
            if len(good) >= 2 and len(good) < len(groups):
                break
        else:
            continue
        keep = [str(c) for c in good[0]]
        reasons = _reasons(_doctor(p, goal=t, solution=keep, refutations={}), solver)
        assert any(r.startswith("second solution: ") for r in reasons)
        assert any(r.startswith("not unique: ") for r in reasons)
        return
    pytest.fail("no puzzle with a threshold that two groups reach")


def test_doctored_to_move_and_refutation(small, solver):
    p = small[2]
    other = next(n for n in p.record.players if n != p.to_move)
    reasons = _reasons(_doctor(p, to_move=other), solver)
    assert reasons == (f"to_move: {other} is not to move; {p.to_move} is",)
    w, line = next(iter(p.refutations.items()))
    # a line cut short, and a line with a card the player does not hold
    reasons = _reasons(_doctor(p, refutations={**p.table()["refutations"], str(w): [str(c) for c in line[:1]]}),
                       solver)
    assert any(r.startswith(f"refutation of {w}: ") for r in reasons)
    bogus = next(c for c in p.record.game.deck if c not in p.state.play(w).hands[p.state.play(w).to_move])
    reasons = _reasons(_doctor(p, refutations={**p.table()["refutations"], str(w): [str(bogus)]}), solver)
    assert any(r.startswith(f"refutation of {w}: card 1, {bogus}") for r in reasons)


def test_refutation_that_does_not_refute(solver):
    """A reply line where the opponents let the goal be reached again is caught."""
    for seed in range(40, 80):
        ps = generate(make_game("sheepshead"), cards_left=3, count=1, seed=seed, goals=[61, 91, 31])
        if not ps:
            continue
        p = ps[0]
        st = p.state
        t = p.goal
        declaring = st.to_move in st.setup.team
        for w in p.refutations:
            s = st.play(w)
            line = []
            bad = None
            while not s.finished:  # the puzzle side plays its best; the other side looks for a losing card
                vals = solver.card_values(s)
                mine = (s.to_move in st.setup.team) == declaring
                ok = [c for c, v in vals.items() if ((v >= t) == declaring)]
                if not mine and ok:
                    bad = ok[0]
                    c = bad
                else:
                    c = max(vals, key=vals.get) if (s.to_move in st.setup.team) else min(vals, key=vals.get)
                line.append(c)
                s = s.play(c)
            if bad is None:
                continue
            text = _doctor(p, refutations={**p.table()["refutations"], str(w): [str(c) for c in line]})
            reasons = _reasons(text, solver)
            assert any(r.startswith(f"refutation of {w}: ") and "does not refute" in r for r in reasons), reasons
            return
    pytest.fail("no refutation with a losing reply found")


def test_malformed_puzzle_tables(small):
    p = small[0]
    with pytest.raises(PuzzleError, match=r"puzzle: missing"):
        puzzle_from_record(p.record)
    with pytest.raises(PuzzleError, match=r"puzzle.goal"):
        puzzle_from_record(parse_record(_doctor(p, goal="most")))
    with pytest.raises(PuzzleError, match=r"puzzle.solution"):
        puzzle_from_record(parse_record(_doctor(p, solution=["ZZ"])))
    with pytest.raises(PuzzleError, match=r"puzzle.difficulty"):
        puzzle_from_record(parse_record(_doctor(p, difficulty="brutal")))
    assert issubclass(PuzzleError, RecordError)


# -- presentation and the command line -------------------------------------------------------------------------

def test_render_hides_the_answer(small):
    p = next(q for q in small if q.refutations)
    hidden = render_text(p)
    shown = render_text(p, reveal=True)
    assert p.to_move in hidden and "to play:" in hidden
    assert "Solution" not in hidden and "Refutations" not in hidden
    assert "Solution: " + " ".join(map(str, p.solution)) in shown and "Refutations:" in shown
    page = render_html(p)
    assert page.startswith("<!DOCTYPE html>") and "<style>" in page
    # self-contained: the one script is inline, nothing is fetched
    assert "http" not in page and "<link" not in page and "src=" not in page and page.count("<script") == 1
    # the answers are in the page for the reader to play, hidden until a card is clicked
    answers = re.findall(r'<div class="answer[^"]*" data-card="(\w+)"( hidden)?>', page)
    assert {c for c, _ in answers} == {str(c) for c in p.state.legal()}
    assert all(h for _, h in answers) and "<details class=\"rating\">" in page
    opened = render_html(p, reveal=True)
    assert not re.findall(r'<div class="answer[^"]*" data-card="\w+" hidden>', opened)
    assert '<details class="rating" open>' in opened


def test_cli_generate_check_show(tmp_path):
    r = CliRunner()
    args = ["puzzle", "generate", "--game", "sheepshead", "--partner", "called-ace", "--cards-left", "3",
            "--count", "2", "--seed", "11"]
    a = r.invoke(main, args + ["--out", str(tmp_path / "a")])
    b = r.invoke(main, args + ["--out", str(tmp_path / "b")])
    assert a.exit_code == 0 and b.exit_code == 0, a.output
    files = sorted(os.listdir(tmp_path / "a"))
    assert files == ["sheepshead-called-ace-s11-01.toml", "sheepshead-called-ace-s11-02.toml"]
    for f in files:
        assert (tmp_path / "a" / f).read_text() == (tmp_path / "b" / f).read_text()
    path = str(tmp_path / "a" / files[0])
    res = r.invoke(main, ["puzzle", "check", path])
    assert res.exit_code == 0 and ": ok (" in res.output
    res = r.invoke(main, ["puzzle", "show", path])
    assert res.exit_code == 0 and "to play:" in res.output and "Solution" not in res.output
    res = r.invoke(main, ["puzzle", "show", path, "--reveal"])
    assert res.exit_code == 0 and "Solution:" in res.output
    out = tmp_path / "p.html"
    res = r.invoke(main, ["puzzle", "show", path, "--html", str(out), "--reveal"])
    assert res.exit_code == 0 and out.read_text().startswith("<!DOCTYPE html>")


def test_cli_generate_keeps_existing_files_unless_forced(tmp_path):
    r = CliRunner()
    args = ["puzzle", "generate", "--game", "wenz", "--cards-left", "3", "--count", "2", "--seed", "5",
            "--out", str(tmp_path)]
    assert r.invoke(main, args).exit_code == 0
    first = tmp_path / "wenz-s5-01.toml"
    first.write_text("# the reader's own notes\n" + first.read_text())
    kept = first.read_text()
    again = r.invoke(main, args)
    assert again.exit_code == 2, again.output
    assert again.output.startswith("error: --out: ") and "wenz-s5-01.toml already exists" in again.output
    assert "1 more" in again.output and "--force" in again.output
    assert first.read_text() == kept
    forced = r.invoke(main, args + ["--force"])
    assert forced.exit_code == 0, forced.output
    assert first.read_text() != kept and not first.read_text().startswith("# the reader's")


def test_cli_check_reports_a_doctored_puzzle(tmp_path, small):
    p = small[0]
    w = _first_wrong(p)
    f = tmp_path / "bad.toml"
    f.write_text(_doctor(p, solution=[str(w)]))
    good = tmp_path / "good.toml"
    good.write_text(p.dumps())
    res = CliRunner().invoke(main, ["puzzle", "check", str(good), str(f)])
    assert res.exit_code == 1
    assert "good.toml: ok" in res.output and "bad.toml: not a sound puzzle" in res.output
    assert f"wrong solution: {w}" in res.output


@pytest.mark.parametrize("args, message", [
    (["puzzle", "generate", "--game", "ramsch", "--cards-left", "3", "--out", "x"], "declaring side"),
    (["puzzle", "generate", "--game", "nosuchgame", "--cards-left", "3", "--out", "x"], "unknown game"),
    (["puzzle", "generate", "--game", "solo", "--cards-left", "3", "--out", "x"], "trump"),
    (["puzzle", "generate", "--game", "wenz", "--cards-left", "0", "--out", "x"], "cards left"),
    (["puzzle", "generate", "--game", "wenz", "--cards-left", "3", "--goal", "lots", "--out", "x"], "unknown goal"),
    (["puzzle", "check", "no/such/file.toml"], "cannot read"),
    (["puzzle", "show", os.path.join(ROOT, "examples", "sauspiel-midtrick.toml")], "puzzle: missing"),
])
def test_cli_bad_input(tmp_path, args, message):
    args = [str(tmp_path / a) if a == "x" else a for a in args]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2, res.output
    assert res.output.startswith("error: ") and message in res.output
    assert "Traceback" not in res.output


def test_cli_bad_puzzle_table(tmp_path, small):
    f = tmp_path / "p.toml"
    f.write_text(_doctor(small[0], solution="QX"))
    res = CliRunner().invoke(main, ["puzzle", "check", str(f)])
    assert res.exit_code == 2 and res.output.startswith("error: ") and "puzzle.solution" in res.output


def test_json_puzzle(small, solver):
    p = small[3]
    rec = parse_record(p.dumps("json"), "json")
    assert check_puzzle(rec, solver=solver).ok
    assert puzzle_from_record(rec).table() == p.table()


# --------------------------------------------------------------------------------------------------------------
# Records that are not puzzles, goals that only look like numbers, refutations cut short


PUZZLE_TABLE = '\n[puzzle]\ngoal = {goal}\nto_move = "Sepp"\nsolution = "AC"\ndifficulty = "easy"\n'

@pytest.mark.parametrize("example", ["ramsch-finished", "leaster-finished", "leaster-4-midtrick",
                                     "sauspiel-finished", "sheepshead-jd-finished"])
@pytest.mark.parametrize("command", ["show", "check"])
def test_puzzle_commands_refuse_what_is_not_a_puzzle(tmp_path: Path, example: str, command: str, run,
                                                     assert_input_error) -> None:
    p = tmp_path / "p.toml"
    p.write_text((EXAMPLES / f"{example}.toml").read_text() + PUZZLE_TABLE.format(goal=61))
    r = run("puzzle", command, p)
    assert_input_error(r)
    assert ("declaring side" in r.output) or ("hand is over" in r.output), r.output
    assert "Trick 9" not in r.output

@pytest.mark.parametrize("goal", ['"²"', '"٦١"', '"6²"', '"0061000"', '"1e3"'])
@pytest.mark.parametrize("command", ["show", "check"])
def test_puzzle_goals_that_only_look_like_numbers(tmp_path: Path, goal: str, command: str, run,
                                                  assert_input_error) -> None:
    text = PUZZLE.read_text()
    lines = [f"goal = {goal}" if line.startswith("goal = ") else line for line in text.splitlines()]
    p = tmp_path / "p.toml"
    p.write_text("\n".join(lines) + "\n")
    assert_input_error(run("puzzle", command, p), "goal")

@pytest.mark.parametrize("goal", ["²", "٦١", "99999999999999999999999"])
def test_puzzle_generate_goal_that_only_looks_like_a_number(tmp_path: Path, goal: str, run, assert_input_error) -> None:
    assert_input_error(run("puzzle", "generate", "--game", "wenz", "--cards-left", "3", "--count", "1", "--goal",
                           goal, "--out", tmp_path), "goal")

@pytest.mark.parametrize("html", [False, True])
def test_puzzle_show_reveal_with_a_refutation_cut_short(tmp_path: Path, html: bool, run) -> None:
    """A stored refutation line that stops before the end of the hand (found by the fuzz harness: a puzzle
    record with its play cut) gave an AssertionError traceback in puzzle show --reveal."""
    import tomllib

    src = EXAMPLES / "puzzles" / "05-easy-sauspiel.toml"
    d = tomllib.loads(src.read_text())
    card, line = next(iter(d["puzzle"]["refutations"].items()))
    cards = line.split() if isinstance(line, str) else list(line)
    d["puzzle"]["refutations"][card] = cards[:-1]
    p = tmp_path / "cut.json"
    p.write_text(json.dumps(d))
    args = ["puzzle", "show", p, "--reveal"] + (["--html", tmp_path / "p.html"] if html else [])
    r = run(*args)
    assert r.exit_code == 0, (r.output, r.exception)
    text = (tmp_path / "p.html").read_text() if html else r.output
    assert "stops before the end of the hand" in text
    r = run("puzzle", "check", p)
    assert r.exit_code == 1 and "stops before the end of the hand" in r.output, r.output


def test_a_goal_of_one_card_point_in_words() -> None:
    """Issue 34: puzzle generate asked to "keep the declarer below 1 card points"."""
    from sheepsolve.render.puzzle import describe_goal

    g = make_game("wenz")
    hands = [parse_cards("AC KC QC"), parse_cards("TC 9C 8C"), parse_cards("JC 7S 8S"), parse_cards("AS TS KS")]
    s = Setup.create(g, hands, declarer=2).start()
    assert describe_goal(s, 1) == "keep the declarer without a card point"
    assert describe_goal(s.play_cards(parse_cards("AC TC")), 1) == "reach 1 card point"


def test_a_mixed_booklet_shows_each_puzzle_in_its_games_cards(tmp_path: Path, run) -> None:
    """Issue 34: a booklet of Sheepshead and Schafkopf puzzles showed the Sheepshead ones with German faces ("Gras-Ober
    fails" for Q♠): each puzzle now uses its own game's cards, unless the reader chose a notation."""
    out = tmp_path / "b.html"
    files = [EXAMPLES / "puzzles" / n for n in ("05-easy-sauspiel.toml", "07-easy-sheepshead-called-ace.toml")]
    assert run("puzzle", "show", *files, "--html", out).exit_code == 0
    schafkopf, sheepshead = re.findall(r'<section class="puzzle".*?</section>', out.read_text(encoding="utf-8"),
                                       re.S)
    assert "Eichel-Ober" in schafkopf and "queen of clubs" not in schafkopf
    assert "queen of clubs" in sheepshead and not re.search(r"(Eichel|Gras|Herz|Schellen)-", sheepshead)
    assert "Sauspiel auf die Alte puzzle" in schafkopf
    assert run("puzzle", "show", *files, "--html", out, "--cards", "french").exit_code == 0
    assert not re.search(r"(Eichel|Gras|Herz|Schellen)-", out.read_text(encoding="utf-8"))
