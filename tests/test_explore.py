"""``sheepsolve explore``: the positions, values and variations of every bundled example, and the server's
safety (token, bounded bodies, errors that leave it running), over real HTTP to the command line's server."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).parent))
from helpers_explore import Server  # noqa: E402
from helpers_hostile import HOSTILE, assert_escaped, hostile_copy  # noqa: E402

from sheepsolve.cards import Card  # noqa: E402
from sheepsolve.cli import main  # noqa: E402
from sheepsolve.explore import Explorer, ExploreError  # noqa: E402
from sheepsolve.explore.app import MAX_BODY  # noqa: E402
from sheepsolve.explore.session import line_label  # noqa: E402
from sheepsolve.record import dump_record, load_record, parse_record  # noqa: E402
from sheepsolve.worlds import WorldsError  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SWING = EXAMPLES / "annotate-swing-sauspiel.toml"


def _cli_json(*args: str) -> dict:
    r = CliRunner().invoke(main, [*args, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def _cut(rec, n: int, folder: Path) -> Path:
    """The record with only its first ``n`` cards played, written with the record module (not the app)."""
    seats = rec.game.seats
    flat = [c for t in rec.play for c in t][:n]
    cut = dataclasses.replace(rec, play=tuple(tuple(flat[i:i + seats]) for i in range(0, len(flat), seats)),
                              inferred=())
    out = folder / f"cut{n}.toml"
    out.write_text(dump_record(cut), encoding="utf-8")
    return out


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.toml")), ids=lambda p: p.name)
def test_every_example_explores(path: Path):
    """Every position of the record's play gives its table (show's points); where every hand is known the values
    of every legal card, a best line and the chart; a variation reads back as a record; the page renders."""
    from sheepsolve.explore.app import Settings, page_html

    ex = Explorer.open(path)
    page = page_html(ex, Settings(), "tok")
    assert page.startswith("<!DOCTYPE html>") and 'id="explore-data"' in page
    show = _cli_json("show", str(path))
    last = ex.table(ex.main)
    assert last["points"] == show["points"] and last["payments"] == show["payments"]
    assert last["finished"] == show["finished"] and last["to_move"] == show["to_move"]
    for n in range(len(ex.main) + 1):
        t = ex.table(ex.main[:n])
        assert t["at"] == line_label(ex.main[:n], ex.game.seats) and t["on_main"]
        assert sum(h["left"] for h in t["hands_now"]) + n == ex.max_cards or not ex.complete or ex.game.sie
    # the mover's own view and the engine's card where the mover's hand is known
    from sheepsolve.explore.seat_view import engine_card, view_at

    for n in sorted({0, len(ex.main) // 2, len(ex.main)}):
        t = ex.table(ex.main[:n])
        if t["finished"] or ex.game.sie or t["legal"] is None:
            continue
        if ex.record.position is not None:  # a position set by its cards has no history to see it from
            with pytest.raises(WorldsError, match="position record"):
                view_at(ex, ex.main[:n], worlds=4, seed=1)
            continue
        v = view_at(ex, ex.main[:n], worlds=4, seed=1)
        assert sorted(v["cards"]) == sorted(t["legal"]) and v["top"] in v["best"]
        # every unseen card lies somewhere in every world: its shares add up to 1
        assert v["beliefs"] and all(abs(sum(w.values()) - 1) < 1e-3 for w in v["beliefs"].values())
        assert not set(v["beliefs"]) & set(t["hands_now"][ex.record.players.index(t["to_move"])]["cards"])
        assert v["assumes_text"] and v["caveat"]  # what the page's legend says of the worlds (issue 36)
        if ex.complete:
            assert engine_card(ex, ex.main[:n], worlds=4, seed=1)["card"] in t["legal"]
    if not ex.complete or ex.game.sie:
        if ex.main and not ex.game.sie:
            with pytest.raises(ExploreError, match="needs every hand"):
                ex.check(ex.main[:1] * 2)  # another second card: a variation
        return
    for n in sorted({0, len(ex.main) // 2, len(ex.main)}):
        line = ex.main[:n]
        v = ex.values(line)
        t = ex.table(line)
        if t["finished"]:
            assert v["finished"]
            continue
        assert sorted(v["cards"]) == sorted(t["legal"])
        assert min(v["costs"].values()) == 0
        best = ex.best_line(line)
        end = ex.table(line + tuple(parse_record_cards(best)))
        assert end["finished"]
    # a variation: the first card of the record's play replaced by another legal one, played on double dummy
    start = ex.state(())
    if not start.finished:
        other = next((c for c in start.legal() if not ex.main or c != ex.main[0]), start.legal()[0])
        line = (other,) + tuple(parse_record_cards(ex.best_line((other,))))
        rec = parse_record(ex.variation_toml(line))
        assert [c for t in rec.play for c in t] == list(line)
        assert rec.hands == ex.record.hands or ex.record.inferred


def parse_record_cards(cards: list[str]):
    from sheepsolve.cards import Card

    return [Card.parse(c) for c in cards]


def test_values_equal_solve_json(tmp_path):
    """At three positions the values equal `solve --json`'s on the record cut there."""
    ex = Explorer.open(SWING)
    for n in (3, 10, 21):
        got = ex.values(ex.main[:n])
        want = _cli_json("solve", str(_cut(ex.record, n, tmp_path)))
        assert got["cards"] == want["cards"] and got["value"] == want["value"] and got["best"] == want["best"]


def test_ramsch_values_are_the_movers_own(tmp_path):
    ex = Explorer.open(EXAMPLES / "ramsch-finished.toml")
    n = 6
    st = ex.state(ex.main[:n])
    got = ex.values(ex.main[:n])
    want = _cli_json("solve", str(_cut(ex.record, n, tmp_path)), "--seat", ex.record.players[st.to_move])
    assert got["cards"] == want["cards"] and not got["maximize"]


def test_illegal_lines_are_refused():
    ex = Explorer.open(SWING)
    with pytest.raises(ExploreError, match="revoke"):
        ex.table(ex.main[:3] + (ex.main[5],))
    with pytest.raises(ExploreError, match="not a card"):
        ex.parse_line(["QC", "<script>"])
    with pytest.raises(ExploreError, match="cards to play"):
        ex.parse_line(["QC"] * 40)
    with pytest.raises(ExploreError, match="list of cards"):
        ex.parse_line({"a": 1})
    with pytest.raises(ExploreError, match="hand is over"):
        ex.state(ex.main + ex.main[:1])


def test_variation_record_is_the_line(tmp_path):
    """The downloaded variation is a record of the line: `show` reads it, its points are the page's."""
    ex = Explorer.open(SWING)
    st = ex.state(ex.main[:9])
    other = next(c for c in st.legal() if c != ex.main[9])
    line = ex.main[:9] + (other,)
    path = tmp_path / "v.toml"
    path.write_text(ex.variation_toml(line), encoding="utf-8")
    shown = _cli_json("show", str(path))
    assert shown["tricks_played"][:2] == ex.table(ex.main[:8])["tricks_played"]
    assert shown["current_trick"]["cards"] == [str(c) for c in line[8:]]
    rec = load_record(path)
    assert rec.extra["event"] == ex.record.extra["event"] and "variation" in rec.extra["comment"]


def test_partial_record_follows_the_record_only():
    ex = Explorer.open(EXAMPLES / "sheepshead-jd-partial.toml")
    t = ex.table(ex.main)
    assert not t["can_vary"] and t["hands_now"][0]["cards"] is not None and t["hands_now"][1]["cards"] is None
    with pytest.raises(ExploreError, match="double dummy needs every hand"):
        ex.values(ex.main)


# --------------------------------------------------------------------------------------------------------------
# The server, over HTTP


@pytest.fixture(scope="module")
def server():
    s = Server(SWING, "--worlds", "10")
    yield s
    assert s.stop() == 0


def test_every_request_needs_the_token(server):
    for method, path in (("GET", "/"), ("GET", "/static/explore.js"), ("POST", "/api/position"),
                         ("POST", "/api/jobs"), ("GET", "/api/variation?line=")):
        status, body = server.request(method, path, {"line": []} if method == "POST" else None, token=False)
        assert status == 403, (path, status)
        assert b"token" in body
    wrong_token = ("y" if server.token[0] == "x" else "x") + server.token[1:]  # never the real one
    status, _ = server.request("GET", "/", token=False, headers={"X-Sheepsolve-Token": wrong_token})
    assert status == 403
    status, _ = server.request("GET", "/?token=" + server.token, token=False)
    assert status == 200
    # another host name (DNS rebinding): refused though the token is right
    status, _ = server.request("GET", "/", headers={"Host": "evil.example:80"})
    assert status == 403


def test_bad_requests_get_errors_and_the_server_lives_on(server):
    ex = Explorer.open(SWING)
    main = [str(c) for c in ex.main]
    status, r = server.json("POST", "/api/position", {"line": main[:3] + [main[5]]})
    assert status == 400 and "revoke" in r["error"]
    status, _ = server.request("POST", "/api/position", raw=b"{" * (MAX_BODY + 10))
    assert status == 413
    status, body = server.request("POST", "/api/position", raw=b"not json")
    assert status == 400 and b"not JSON" in body
    deep = b'{"line": ' + b"[" * 5000 + b"]" * 5000 + b"}"  # within the bound: json.loads recursed, a 500
    status, body = server.request("POST", "/api/position", raw=deep)
    assert status == 400 and b"not JSON" in body
    status, r = server.json("POST", "/api/jobs", {"kind": "rm -rf", "line": []})
    assert status == 400 and "kind" in r["error"]
    status, r = server.json("POST", "/api/jobs", {"kind": "values", "line": main[:3] + [main[5]]})
    assert status == 400 and "revoke" in r["error"]
    status, r = server.json("GET", "/api/jobs/nonesuch")
    assert status == 404
    status, _ = server.request("GET", "/static/../../record.py")
    assert status == 404
    assert server.alive()
    status, r = server.json("POST", "/api/position", {"line": main[:4]})
    assert status == 200 and r["at"] == "t1.4"


def test_jobs_over_http(server):
    ex = Explorer.open(SWING)
    main = [str(c) for c in ex.main]
    v = server.job("values", main[:5])
    assert v["status"] == "done" and v["result"]["cards"] == ex.values(ex.main[:5])["cards"]
    view = server.job("view", main[:5])
    assert view["status"] == "done" and view["result"]["worlds"] == 10 and view["result"]["beliefs"]
    eng = server.job("engine", main[:5])
    assert eng["status"] == "done" and eng["result"]["card"] in v["result"]["cards"]
    j = server.job("judge", main, seat="Sepp", since=0)
    assert j["status"] == "done"
    played = ex.table(ex.main)["tricks_played"]
    sepp = [c for t in played for p, c in zip(t["players"], t["cards"]) if p == "Sepp"]
    assert [d["card"] for d in j["result"]["decisions"]] == sepp
    assert all(d["forced"] or d["cost"] is not None for d in j["result"]["decisions"])
    status, r = server.json("POST", "/api/jobs", {"kind": "judge", "line": main, "seat": "<b>nobody</b>"})
    assert status == 400 and "seat" in r["error"]


def test_view_matches_suggest(server, tmp_path):
    """The player's view at a position is `suggest --json` of the record cut there, same worlds and seed."""
    ex = Explorer.open(SWING)
    n = 13
    got = server.job("view", [str(c) for c in ex.main[:n]])["result"]
    want = _cli_json("suggest", str(_cut(ex.record, n, tmp_path)), "--worlds", "10", "--jobs", "1")
    assert got["cards"] == want["cards"] and got["best"] == want["best"]
    # the same worlds weighted by the auction as suggest's (the default of both)
    assert got["inference"] == want["inference"] == "auction"
    assert got["effective_worlds"] == want["effective_worlds"] and got["assumes"] == want["assumes"]


def test_a_job_is_cancelled(server):
    """A long player's view is cancelled at its next world; a new job of the same lane cancels the old one."""
    s2 = server
    status, j = s2.json("POST", "/api/jobs", {"kind": "view", "line": []})
    assert status == 200
    status, r = s2.json("POST", f"/api/jobs/{j['id']}/cancel", {})
    assert status == 200 and r["cancelled"]
    _, s = s2.json("GET", f"/api/jobs/{j['id']}?wait=5")
    assert s["status"] in ("cancelled", "done")


def test_variation_download(server, tmp_path):
    ex = Explorer.open(SWING)
    main = [str(c) for c in ex.main]
    status, body = server.request("GET", "/api/variation?line=" + "%20".join(main[:6]))
    assert status == 200
    rec = parse_record(body.decode())
    assert [str(c) for t in rec.play for c in t] == main[:6]


def test_hostile_names_are_escaped_in_the_page(tmp_path):
    from sheepsolve.explore.app import Settings, page_html

    path = hostile_copy(SWING, tmp_path)
    ex = Explorer.open(path)
    assert ex.record.players[0] == HOSTILE[0]
    page = page_html(ex, Settings(), "tok")
    assert_escaped(page)


def test_command_line_errors(tmp_path):
    r = CliRunner().invoke(main, ["explore", str(tmp_path / "none.toml"), "--no-browser"])
    assert r.exit_code == 2 and r.output.startswith("error:")
    r = CliRunner().invoke(main, ["explore", str(SWING), "--no-browser", "--seat", "Zed"])
    assert r.exit_code == 2 and "--seat" in r.output


def test_static_pages_tell_how_to_explore(tmp_path):
    """annotate --html names the command that explores the same record (the file quoted for a shell, escaped in
    the page); the puzzle booklet tells how to open a puzzle's record; both stay self-contained."""
    odd = tmp_path / "a b <q>.toml"
    odd.write_text(SWING.read_text(encoding="utf-8"), encoding="utf-8")
    page = tmp_path / "a.html"
    r = CliRunner().invoke(main, ["annotate", str(odd), "--html", str(page)])
    assert r.exit_code == 0, r.output
    html = page.read_text(encoding="utf-8")
    assert f"<code>sheepsolve explore &#39;{tmp_path}/a b &lt;q&gt;.toml&#39;</code>" in html
    assert "<q>" not in html and "<script src" not in html and "<link" not in html
    booklet = tmp_path / "p.html"
    puzzles = sorted((EXAMPLES / "puzzles").glob("*.toml"))[:2]
    r = CliRunner().invoke(main, ["puzzle", "show", *map(str, puzzles), "--html", str(booklet)])
    assert r.exit_code == 0, r.output
    assert "<code>sheepsolve explore FILE</code>" in booklet.read_text(encoding="utf-8")
    for p in puzzles:  # and explore opens a puzzle record
        ex = Explorer.open(p)
        assert ex.values(ex.main)["cards"]


def test_jobs_are_bounded():
    """At most MAX_JOBS jobs at once: a job beyond them is refused while they run; finished ones are forgotten."""
    import threading

    from sheepsolve.explore.jobs import MAX_JOBS, Busy, Jobs

    jobs = Jobs(workers=1)
    gate = threading.Event()

    def wait(progress):
        while not gate.wait(0.01):
            progress(0, 1)
        progress(1, 1)  # a cancelled job stops here at the latest
        return "ok"

    started = [jobs.start(f"lane{i}", wait) for i in range(MAX_JOBS)]
    with pytest.raises(Busy):
        jobs.start("one more", wait)
    assert jobs.cancel(started[0].id)
    gate.set()
    assert jobs.wait(started[-1].id, 10)["result"] == "ok"
    assert jobs.wait(started[0].id, 10)["status"] == "cancelled"
    assert jobs.start("now", lambda progress: 1)  # a finished job made room
    jobs.close()


def test_value_chart_marks_the_costly_cards():
    """The chart's values are the declaring side's value after each card; the cards that cost their side points
    are dots: in the swing example Sepp's Schellen-Ober at trick 3 (68 to 59: 9 points, but the game lost, red)."""
    ex = Explorer.open(SWING)
    got = ex.value_chart(ex.main)
    values = got["values"]
    assert values[0] == ex.values(())["value"] and values[-1] == 59 and len(values) == len(ex.main) + 1
    for n in (5, 17, 30):
        assert values[n] == ex.values(ex.main[:n])["value"]
    dots = got["scene"].dots
    red = [d for d in dots if d["cls"] == "e2"]
    assert len(red) == 1 and "t3.3" in red[0]["title"] and "Sepp" in red[0]["title"] and "cost 9" in red[0]["title"]


def test_the_views_worlds_are_worded_in_the_pages_notation() -> None:
    """Issue 36, item 6: the page says in one line what the worlds assume; ``assumes`` stays the JSON's ASCII
    wording, ``assumes_text`` is the page's (German for a Schafkopf record)."""
    from sheepsolve.explore.seat_view import view_at

    ex = Explorer.open(EXAMPLES / "annotate-swing-sauspiel.toml")
    v = view_at(ex, list(ex.main[:5]), worlds=4, seed=1)
    assert "Sepp: Sauspiel on AC" in v["assumes"]
    assert v["assumes_text"] == v["assumes"].replace("Sauspiel on AC", "Sauspiel auf die Alte")
    none = view_at(ex, list(ex.main[:5]), worlds=4, seed=1, inference="none")
    assert none["assumes_text"] == "every deal that fits the play is equally likely"


def _with_head(tmp_path, name: str, head: str):
    path = tmp_path / f"{name}.toml"
    path.write_text(head + (EXAMPLES / f"{name}.toml").read_text(encoding="utf-8"), encoding="utf-8")
    return path


@pytest.mark.parametrize("name, head", [("skat-grand-finished", "bid = 72\n"), ("skat-grand-finished", ""),
                                        ("skat-null-finished", ""), ("annotate-swing-sauspiel", ""),
                                        ("wenz-tout-finished", ""), ("sheepshead-jd-finished", "")])
def test_values_won_is_the_outcome_solve_gives_after_each_card(tmp_path, name, head):
    """`won` of the values job: for every legal card, whether `solve --json` of the record with that card played
    scores the game as the declaring side's win (its `outcome`, by the game's own rules), at three positions."""
    from sheepsolve.explore.session import Explorer
    from sheepsolve.record import dump_record
    from sheepsolve.scoring import is_won

    path = _with_head(tmp_path, name, head)
    ex = Explorer.open(path)
    seats = ex.game.seats
    for n in sorted({0, seats + 1, len(ex.main) - 2}):
        v = ex.values(ex.main[:n])
        assert set(v["won"]) == set(v["cards"])
        for c, won in v["won"].items():
            line = ex.main[:n] + (Card.parse(c),)
            rec = ex.record_at(line)
            out = tmp_path / "cut.toml"
            out.write_text(dump_record(dataclasses.replace(rec, inferred=())), encoding="utf-8")
            solved = _cli_json("solve", str(out))
            assert solved["value"] == v["cards"][c]
            assert won == is_won(solved["outcome"]), (name, n, c, solved["outcome"])


def test_a_null_declarers_first_trick_is_a_red_dot_on_the_chart(tmp_path):
    """The chart's dots by the same verdict: the null declarer's AC takes a trick (1 given away) and loses the
    game: red (the 61 rule made it orange)."""
    from sheepsolve.explore.session import Explorer

    ex = Explorer.open(_with_head(tmp_path, "skat-null-finished", ""))
    chart = ex.value_chart((Card.parse("AC"),))
    assert chart["values"] == [0, 1]
    assert [d["cls"] for d in chart["scene"].dots] == ["e2"]
    overbid = Explorer.open(_with_head(tmp_path, "skat-grand-finished", "bid = 72\n"))
    chart = overbid.value_chart((Card.parse("TS"),))
    # the defender's TS gives 9 points away but not the game (overbid unless schneider): orange, where the 61 rule
    # made it red
    assert chart["values"] == [60, 69] and [d["cls"] for d in chart["scene"].dots] == ["e1"]
