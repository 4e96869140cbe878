"""``sheepsolve explore`` in a real browser: headless Chromium (Debian's ``chromium`` and ``chromium-driver``)
driven by Selenium against the command line's own server (one per module). Step to the end with the arrow keys,
read the values, try another card, follow the best line, download the variation and ``show`` it, play a hand
against the engine to its end, see a hostile name as text and an illegal card refused. Set
SHEEPSOLVE_SCREENSHOTS to a folder to keep screenshots (a person looks at them)."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).parent))
from helpers_explore import Server  # noqa: E402
from helpers_hostile import HOSTILE, hostile_copy  # noqa: E402

from sheepsolve.cli import main  # noqa: E402
from sheepsolve.record import dump_record, load_record  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SWING = EXAMPLES / "annotate-swing-sauspiel.toml"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
webdriver = pytest.importorskip("selenium.webdriver")
pytestmark = pytest.mark.skipif(not (CHROMIUM and DRIVER),
                                reason="needs Debian's chromium and chromium-driver (apt-get install chromium "
                                       "chromium-driver; .ci/run does)")


@pytest.fixture(scope="module")
def downloads(tmp_path_factory):
    return tmp_path_factory.mktemp("downloads")


@pytest.fixture(scope="module")
def browser(downloads):
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1300,1600"):
        options.add_argument(arg)
    options.add_experimental_option("prefs", {"download.default_directory": str(downloads),
                                              "download.prompt_for_download": False})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def server():
    s = Server(SWING, "--worlds", "10")
    yield s
    assert s.stop() == 0


def _shot(driver, name: str) -> None:
    folder = os.environ.get("SHEEPSOLVE_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(folder) / name))


def _until(fn, timeout: float = 30.0, what: str = "the page"):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = fn()
            if last:
                return last
        except Exception as e:  # the page is redrawing
            last = e
        time.sleep(0.05)
    raise AssertionError(f"{what}: not in time (last: {last!r})")


def _cli_json(*args: str) -> dict:
    r = CliRunner().invoke(main, [*args, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def _open(browser, server, where: str = ""):
    browser.get("about:blank")
    browser.get(server.url + where)
    _until(lambda: browser.execute_script("return window.sheepsolveExplore && window.sheepsolveExplore.table"),
           what="the first table")


def _where(browser) -> str:
    return browser.find_element("id", "where").text


def _values(browser) -> dict[str, int]:
    cells = browser.find_elements("css selector", "#values .cv")
    return {c.get_attribute("data-card"): int(c.find_element("css selector", ".v").text) for c in cells}


def _cut(rec, n: int, folder: Path) -> Path:
    seats = rec.game.seats
    flat = [c for t in rec.play for c in t][:n]
    cut = dataclasses.replace(rec, play=tuple(tuple(flat[i:i + seats]) for i in range(0, len(flat), seats)),
                              inferred=())
    out = folder / f"cut{n}.toml"
    out.write_text(dump_record(cut), encoding="utf-8")
    return out


def test_step_to_the_end_with_the_arrow_keys(browser, server):
    """Right arrow 32 times from the start: the last card; the points and payments shown are show's."""
    from selenium.webdriver.common.keys import Keys

    _open(browser, server, "#start")
    assert _where(browser) == "start"
    body = browser.find_element("tag name", "body")
    for i in range(32):
        body.send_keys(Keys.ARROW_RIGHT)
        _until(lambda: _where(browser).startswith(f"t{i // 4 + 1}.{i % 4 + 1}"), what=f"card {i + 1}")
    assert browser.current_url.endswith("#t8.4")
    show = _cli_json("show", str(SWING))
    rows = browser.find_elements("css selector", "#score table.pay tr[data-player]")
    shown = {r.get_attribute("data-player"): (int(r.find_element("css selector", ".pts").text),
                                              int(r.find_element("css selector", ".payment").text))
             for r in rows}
    assert shown == {p: (show["points"][p], show["payments"][p]) for p in show["players"]}
    assert "59 to 61" in browser.find_element("id", "score").text
    _shot(browser, "explore-end.png")
    body.send_keys(Keys.HOME)
    _until(lambda: _where(browser) == "start", what="Home")
    body.send_keys(Keys.END)
    _until(lambda: _where(browser) == "t8.4", what="End")
    body.send_keys(Keys.ARROW_LEFT)
    _until(lambda: _where(browser) == "t8.3", what="left arrow")


def test_values_at_three_positions_equal_solve_json(browser, server, tmp_path):
    rec = load_record(SWING)
    for where, n in (("#t1.3", 3), ("#t3.2", 10), ("#t6.1", 21)):
        _open(browser, server, where)
        assert _where(browser) == where[1:]
        want = _cli_json("solve", str(_cut(rec, n, tmp_path)))["cards"]
        got = _until(lambda: _values(browser) if len(_values(browser)) == len(want) else None, what=where)
        assert got == want, where
    _shot(browser, "explore-values.png")


def test_another_card_best_line_and_download(browser, server, downloads):
    """At trick 3 Sepp plays a small card instead of the Schellen-Ober, the best line plays the rest, the
    variation downloads as a record that `show` reads: its points and payments are the page's."""
    _open(browser, server, "#t3.2")
    assert browser.execute_script("return window.sheepsolveExplore.table.to_move") == "Sepp"
    main_card = load_record(SWING).play[2][2]  # the Schellen-Ober that lost the game
    _until(lambda: _values(browser), what="values")
    values = _values(browser)
    other = next(c for c in values if c != str(main_card) and values[c] == max(values.values()))
    browser.find_element("css selector", f'#seats button.cardbtn[data-card="{other}"]').click()
    _until(lambda: _where(browser) == "t3.3 (variation)", what="the variation")
    assert "+" + other in browser.current_url
    browser.find_element("id", "bestline").click()
    _until(lambda: _where(browser) == "t8.4 (variation)", what="the best line's end")
    _until(lambda: browser.find_elements("css selector", "#score table.pay tr[data-player]"), what="the result")
    rows = browser.find_elements("css selector", "#score table.pay tr[data-player]")
    shown = {r.get_attribute("data-player"): int(r.find_element("css selector", ".payment").text) for r in rows}
    lines = browser.find_elements("css selector", "#lines li")
    assert len(lines) == 2
    for f in downloads.glob("variation*.toml"):
        f.unlink()
    browser.find_element("id", "download").click()
    path = _until(lambda: next(iter(downloads.glob("variation*.toml")), None), what="the download")
    _until(lambda: path.stat().st_size > 0, what="the download's content")
    got = _cli_json("show", str(path))
    assert got["finished"] and got["payments"] == shown
    assert got["tricks_played"][2]["cards"][2] == other
    assert got["side_points"]["declaring"] >= 61  # the small card keeps the game the Ober lost
    _shot(browser, "explore-variation.png")


def test_an_illegal_card_gets_its_error(browser, server):
    _open(browser, server, "#t1.1")
    bad = browser.find_elements("css selector", "#seats button.cardbtn.notlegal")
    assert bad
    bad[0].click()
    err = _until(lambda: browser.find_element("id", "error").text, what="the error")
    assert "cannot play" in err and "revoke" in err
    assert _where(browser) == "t1.1"
    assert server.alive()
    browser.find_element("id", "forward").click()
    _until(lambda: _where(browser) == "t1.2", what="forward after the error")


def test_player_view_and_cancel(browser, server):
    _open(browser, server, "#t2.1")
    browser.find_element("id", "viewswitch").click()
    rows = _until(lambda: browser.find_elements("css selector", "#view tr[data-card]"), what="the player's view")
    legal = browser.execute_script("return window.sheepsolveExplore.table.legal")
    assert sorted(r.get_attribute("data-card") for r in rows) == sorted(legal)
    assert browser.find_elements("css selector", "#beliefs .belief")
    assert "10 worlds" in browser.find_element("id", "viewjob").text
    # issue 36: the page says what its worlds assume, in the page's words, and what averaging them cannot see
    legend = browser.find_element("css selector", "#view .legend").text
    assert "Worlds: weighted by the auction (Sepp: Sauspiel auf die Alte" in legend, legend
    assert "flatter guesses a player could not make" in browser.find_element("css selector", "#view .caveat").text
    browser.find_element("id", "viewswitch").click()


def test_play_a_hand_against_the_engine(browser, server):
    """From the first lead Sepp is the user; the engine plays the others; at the end the result, the payments
    and Sepp's decisions judged from his own view."""
    _open(browser, server, "#start")
    browser.execute_script("window.sheepsolveEngineDelay = 0;")
    from selenium.webdriver.support.ui import Select

    Select(browser.find_element("id", "playseat")).select_by_value("Sepp")
    browser.find_element("id", "playstart").click()
    played = 0
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        st = browser.execute_script("var s = window.sheepsolveExplore; return {play: !!s.play, finished: s.table.finished,"
                                    " to_move: s.table.to_move, legal: s.table.legal, cur: s.cur};")
        if st["finished"]:
            break
        if st["play"] and st["to_move"] == "Sepp":
            card = st["legal"][-1]
            buttons = browser.find_elements("css selector", f'#seats button.cardbtn.legal[data-card="{card}"]')
            if buttons:
                buttons[0].click()
                _until(lambda: browser.execute_script("return window.sheepsolveExplore.cur") > st["cur"],
                       what="Sepp's card")
                played += 1
                continue
        time.sleep(0.05)
    assert played == 8
    rows = _until(lambda: browser.find_elements("css selector", "#judged table tr")[1:], timeout=120,
                  what="the judgement")
    assert len(rows) == 8
    text = browser.find_element("id", "result").text
    assert "Result:" in text and "Sepp's payment" in text and "annotate --view player" in text
    assert browser.find_elements("css selector", "#score table.pay tr[data-player]")
    _shot(browser, "explore-played.png")


def test_hostile_names_shown_as_text(browser, tmp_path):
    path = hostile_copy(SWING, tmp_path)
    s = Server(path, "--worlds", "5")
    try:
        _open(browser, s, "#t2.1")
        assert browser.execute_script("return window.pwned === undefined")
        body = browser.find_element("tag name", "body").text
        assert HOSTILE[0] in body and HOSTILE[1] in body
        assert not browser.find_elements("css selector", "img")
        _until(lambda: _values(browser), what="values")
        assert browser.execute_script("return window.pwned === undefined")
    finally:
        assert s.stop() == 0


def test_no_token_no_page(browser, server):
    browser.get(server.base + "/")
    assert "403" in browser.find_element("tag name", "body").text


def test_hint_chart_and_seat_view(browser, server):
    """Hint marks the best card without playing it; a click on the chart jumps to that card; the seat switch
    hides the other hands."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.support.ui import Select

    _open(browser, server, "#t3.1")
    _until(lambda: _values(browser), what="values")
    values = _values(browser)
    browser.find_element("id", "hint").click()
    hinted = {b.get_attribute("data-card") for b in browser.find_elements("css selector", "#seats button.hinted")}
    assert hinted == {c for c, v in values.items() if v == max(values.values())}
    assert _where(browser) == "t3.1" and browser.find_element("id", "status").text.startswith("Hint:")
    svg = _until(lambda: browser.find_element("css selector", "#chart svg"), what="the chart")
    geo = json.loads(browser.find_element("id", "chart").get_attribute("data-geometry"))
    width = svg.size["width"]
    x = (geo["left"] + (geo["right"] - geo["left"]) * 20 / 32) * width / geo["width"]
    ActionChains(browser).move_to_element_with_offset(svg, int(x - width / 2), 0).click().perform()
    _until(lambda: _where(browser) == "t5.4", what="the chart's card 20")
    Select(browser.find_element("id", "seatview")).select_by_value("Vroni")
    hands = {h.get_attribute("data-seat"): h for h in browser.find_elements("css selector", "#seats .hand")}
    assert not hands["Vroni"].find_elements("css selector", ".c.back")
    assert hands["Sepp"].find_elements("css selector", ".c.back")
    assert not hands["Sepp"].find_elements("css selector", "[data-card]")
    # another player is to move: his cards' values would show them, so they are hidden too
    assert browser.execute_script("return window.sheepsolveExplore.table.to_move") != "Vroni"
    note = _until(lambda: browser.find_element("id", "values").text, what="the hidden values")
    assert "hidden in Vroni's view" in note and not browser.find_elements("css selector", "#values .cv")
    Select(browser.find_element("id", "seatview")).select_by_value("")


def test_variations_form_a_tree(browser, server):
    """A card tried at trick 2 makes a variation beside the record's line; another card tried inside it makes a
    variation of the variation, shown under it."""
    from selenium.webdriver.common.keys import Keys

    _open(browser, server, "#t2.1")
    main = [str(c) for t in load_record(SWING).play for c in t]

    def legal_other(skip: str | None) -> str:
        legal = _until(lambda: browser.execute_script("return window.sheepsolveExplore.table.legal"), what="legal")
        return next(c for c in legal if c != skip)

    first = legal_other(main[5])
    browser.find_element("css selector", f'#seats button.cardbtn[data-card="{first}"]').click()
    _until(lambda: _where(browser) == "t2.2 (variation)", what="the first variation")
    second = legal_other(None)
    browser.find_element("css selector", f'#seats button.cardbtn[data-card="{second}"]').click()
    _until(lambda: _where(browser) == "t2.3 (variation)", what="one more card")
    browser.find_element("tag name", "body").send_keys(Keys.ARROW_LEFT)
    _until(lambda: _where(browser) == "t2.2 (variation)", what="one card back")
    third = legal_other(second)
    browser.find_element("css selector", f'#seats button.cardbtn[data-card="{third}"]').click()
    _until(lambda: _where(browser) == "t2.3 (variation)" and browser.current_url.endswith(third), what="a branch")
    items = browser.find_elements("css selector", "#lines li")
    assert [i.value_of_css_property("margin-left") for i in items] == ["0px", "22px", "44px"]
    assert "after t2.2" in items[2].text and "after t2.1" in items[1].text
    items[1].find_element("css selector", "button").click()
    _until(lambda: browser.current_url.endswith(f"#t2.1+{first}.{second}"), what="the first variation again")


def test_seat_option_starts_in_that_players_view(browser):
    """`--seat Hias`: the page opens with only Hias's hand shown, and Hias chosen to play on."""
    s = Server(SWING, "--seat", "Hias", "--worlds", "5")
    try:
        _open(browser, s, "#t1.2")
        hands = {h.get_attribute("data-seat"): h for h in browser.find_elements("css selector", "#seats .hand")}
        assert hands["Hias"].find_elements("css selector", "[data-card]")
        for other in ("Sepp", "Vroni", "Resi"):
            assert hands[other].find_elements("css selector", ".c.back")
            assert not hands[other].find_elements("css selector", "[data-card]")
        assert browser.find_element("id", "playseat").get_attribute("value") == "Hias"
    finally:
        assert s.stop() == 0


def _classes(browser) -> dict[str, str]:
    cells = browser.find_elements("css selector", "#values .cv")
    return {c.get_attribute("data-card"): next(k for k in ("best", "small", "large")
                                               if k in c.get_attribute("class").split()) for c in cells}


@pytest.mark.parametrize("name, head, red, orange", [
    # bid 72: a grand with 1 is worth 48 unless schneider, so Ann's TS (69 card points for Bob) wins nothing:
    # 9 points given away, orange (the 61 rule made it red); TD gives 10 away: red by its points
    ("skat-grand-finished", "bid = 72\n", {"TD"}, {"TS", "QS", "9S"}),
    # null: Ann (the declarer) loses the game with any card that takes a trick, one trick given away: red
    ("skat-null-finished", "", {"AC", "JC", "AS", "JH", "8H"}, set()),
])
def test_values_are_coloured_by_the_games_own_win_rule(browser, tmp_path, name, head, red, orange):
    """The colour of a card is the server's verdict (`won`, the game's own scoring), not 61 card points: an
    overbid Skat game is lost whatever the points, a null declarer loses with his first trick."""
    path = tmp_path / f"{name}.toml"
    path.write_text(head + (EXAMPLES / f"{name}.toml").read_text(encoding="utf-8"), encoding="utf-8")
    s = Server(path, "--worlds", "4")
    try:
        _open(browser, s, "#start")
        got = _until(lambda: _classes(browser) if len(_classes(browser)) == 10 else None, what="the values")
        assert {c for c, k in got.items() if k == "large"} == red, got
        assert orange <= {c for c, k in got.items() if k == "small"}, got
        want = _cli_json("solve", str(_cut(load_record(path), 0, tmp_path)))
        assert _values(browser) == want["cards"]
    finally:
        assert s.stop() == 0
