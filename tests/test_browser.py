"""The puzzle page played in a real browser: headless Chromium (Debian's ``chromium`` and ``chromium-driver``)
driven by Selenium. A reader clicks a wrong card (its refutation shows, the score counts the miss), then the
right one (the winning line shows, the cards lock). ``.ci/run`` installs the browser; without it the test is
skipped and says why. Set SHEEPSOLVE_SCREENSHOTS to a folder to keep screenshots of the page (not compared
pixel by pixel: a person looks at them)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from helpers_cli import EXAMPLES
from helpers_hostile import HOSTILE, assert_escaped, hostile_copy

from sheepsolve.puzzle import puzzle_from_record
from sheepsolve.render.puzzle import render_html
from sheepsolve.record import load_record

PUZZLES = EXAMPLES / "puzzles"

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
webdriver = pytest.importorskip("selenium.webdriver")
pytestmark = pytest.mark.skipif(not (CHROMIUM and DRIVER),
                                reason="needs Debian's chromium and chromium-driver (apt-get install chromium "
                                       "chromium-driver; .ci/run does)")


@pytest.fixture(scope="module")
def browser():
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1200,1600"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()


def _shot(driver, name: str) -> None:
    folder = os.environ.get("SHEEPSOLVE_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(folder) / name))


def _visible_answers(section) -> list[str]:
    return [a.get_attribute("data-card") for a in section.find_elements("css selector", ".answer") if a.is_displayed()]


def test_play_a_puzzle_booklet(browser, tmp_path):
    from selenium.webdriver.common.by import By

    ps = [puzzle_from_record(load_record(PUZZLES / name)) for name in ("05-easy-sauspiel.toml",
                                                                      "02-easy-sheepshead-3.toml")]
    page = tmp_path / "booklet.html"
    page.write_text(render_html(ps), encoding="utf-8")
    browser.get(page.as_uri())
    assert browser.find_element(By.ID, "score").text == "0 of 2"
    first, second = browser.find_elements(By.CSS_SELECTOR, "section.puzzle")
    assert _visible_answers(first) == []  # nothing given away before a click

    # puzzle 1: a wrong card first
    p = ps[0]
    right = {str(c) for c in p.solution}
    buttons = first.find_elements(By.CSS_SELECTOR, "button.choice")
    assert {b.get_attribute("data-card") for b in buttons} == {str(c) for c in p.state.legal()}
    wrong = next(b for b in buttons if b.get_attribute("data-card") not in right)
    wrong_id = wrong.get_attribute("data-card")
    wrong.click()
    feedback = first.find_element(By.CSS_SELECTOR, ".feedback").text
    assert feedback.startswith("Wrong:") and "Try again" in feedback
    assert _visible_answers(first) == [wrong_id]
    shown = first.find_element(By.CSS_SELECTOR, f'.answer[data-card="{wrong_id}"]').text
    assert "is wrong" in shown and "The refutation:" in shown and "So " in shown
    line = p.refutations[next(c for c in p.refutations if str(c) == wrong_id)]
    assert len(first.find_elements(By.CSS_SELECTOR, f'.answer[data-card="{wrong_id}"] ol.line li')) >= len(line) // 4
    assert "wrong" in wrong.get_attribute("class")
    _shot(browser, "puzzle-wrong.png")

    # then the right one: the winning line, the cards lock, the score stays 0 (the first try missed)
    good = next(b for b in buttons if b.get_attribute("data-card") in right)
    good_id = good.get_attribute("data-card")
    good.click()
    assert first.find_element(By.CSS_SELECTOR, ".feedback").text.startswith("Right!")
    assert _visible_answers(first) == [good_id]
    shown = first.find_element(By.CSS_SELECTOR, f'.answer[data-card="{good_id}"]').text
    assert "is right" in shown and "The winning line:" in shown
    assert all(not b.is_enabled() for b in buttons)
    assert browser.find_element(By.ID, "score").text == "0 of 2"
    _shot(browser, "puzzle-right.png")

    # puzzle 2: right at the first try
    q = ps[1]
    b2 = next(b for b in second.find_elements(By.CSS_SELECTOR, "button.choice")
              if b.get_attribute("data-card") in {str(c) for c in q.solution})
    b2.click()
    assert browser.find_element(By.ID, "score").text == "1 of 2"
    assert browser.find_element(By.ID, "tried").text == "2"
    print("\nbrowser:", browser.capabilities.get("browserVersion"),
          "| puzzle 1:", wrong_id, "->", first.find_element(By.CSS_SELECTOR, ".feedback").text,
          "| score:", browser.find_element(By.ID, "score").text)


def test_hostile_names_do_not_run_in_the_page(browser, tmp_path):
    """A player named ``<script>...`` or ``"><img onerror=...>`` is shown as text, and nothing of it runs."""
    from selenium.webdriver.common.by import By

    path = hostile_copy(PUZZLES / "05-easy-sauspiel.toml", tmp_path)
    p = puzzle_from_record(load_record(path))
    assert p.record.players[0] == HOSTILE[0]
    html = render_html(p)
    assert_escaped(html)
    page = tmp_path / "hostile.html"
    page.write_text(html, encoding="utf-8")
    browser.get(page.as_uri())
    assert browser.execute_script("return window.pwned === undefined")
    body = browser.find_element(By.TAG_NAME, "body").text
    assert HOSTILE[0] in body and HOSTILE[1] in body
    assert not browser.find_elements(By.CSS_SELECTOR, "img")


def test_hostile_names_in_the_players_view_report(browser, tmp_path):
    """annotate --view player's page (the bury judged from the picker's view included) shows hostile player
    names as text in the real browser, and nothing of them runs."""
    from click.testing import CliRunner
    from selenium.webdriver.common.by import By

    from sheepsolve.cli import main

    path = hostile_copy(PUZZLES.parent / "bury-called-ace-full.toml", tmp_path)
    page = tmp_path / "view.html"
    r = CliRunner().invoke(main, ["annotate", str(path), "--view", "player", "--worlds", "4", "--jobs", "1",
                                  "--html", str(page)])
    assert r.exit_code == 0, r.output
    html = page.read_text(encoding="utf-8")
    assert_escaped(html)
    browser.get(page.as_uri())
    assert browser.execute_script("return window.pwned === undefined")
    body = browser.find_element(By.TAG_NAME, "body").text
    picker = load_record(path).players[load_record(path).declarer]
    assert f"From {picker}'s view (4 worlds" in body
    assert all(name in body for name in HOSTILE if name in load_record(path).players)
    assert not browser.find_elements(By.CSS_SELECTOR, "img")


@pytest.fixture(scope="module")
def phone():
    """A browser 420 px wide: a phone at the table."""
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=600,900"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    # a window is at least 500 px wide: the page is laid out as on a phone of 420 px
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 420, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    yield driver
    driver.quit()


@pytest.mark.parametrize("page", ["annotate-sauspiel", "annotate-sheepshead", "booklet"])
def test_pages_fit_a_phone(phone, tmp_path, page, run):
    """Issue 34: at 420 px the hand panels of annotate and of the booklet overflowed to 822 px."""
    out = tmp_path / "page.html"
    if page == "booklet":
        r = run("puzzle", "show", *sorted(PUZZLES.glob("*.toml"))[:4], "--html", out)
    else:
        name = {"annotate-sauspiel": "annotate-swing-sauspiel", "annotate-sheepshead": "annotate-blunder-sheepshead"}
        r = run("annotate", EXAMPLES / f"{name[page]}.toml", "--html", out)
    assert r.exit_code == 0, r.output
    phone.get(out.as_uri())
    inner = phone.execute_script("return window.innerWidth")
    # what sticks out of the page, not counting what scrolls inside its own box (a wide table scrolls sideways)
    wide = phone.execute_script("""
        const scrolls = e => { for (let a = e.parentElement; a; a = a.parentElement) {
            if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(a).overflowX)) return true; } return false; };
        return Array.from(document.querySelectorAll('body *'))
            .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1 && !scrolls(e))
            .slice(0, 5).map(e => e.tagName + '.' + e.className);""")
    _shot(phone, f"phone-{page}.png")
    assert inner == 420
    assert phone.execute_script("return document.documentElement.scrollWidth") <= inner, wide
    assert not wide
