"""``annotate --view player``: the worlds of a seat from one of its decisions to the next.

Uniform worlds (``--inference none``) are kept: the worlds of a seat's earlier decision that still fit the play
(advanced card by card) are a uniform sample of the later decision's worlds, topped up with fresh draws that
continue the seat's stream. Weighted worlds (``--inference auction``) are drawn afresh for every decision, from
that decision's own proposal (their importance weights belong to it).
"""

from __future__ import annotations

import pytest

from helpers_cli import EXAMPLES

import sheepsolve.player.annotate as PA
from sheepsolve import worlds as W
from sheepsolve.annotate import annotate_record
from sheepsolve.record import load_record


@pytest.mark.parametrize("example", ["annotate-blunder-sheepshead.toml", "annotate-swing-sauspiel.toml"])
def test_uniform_worlds_are_kept_and_weighted_ones_drawn_afresh(example, monkeypatch):
    rec = load_record(EXAMPLES / example)
    ann = annotate_record(rec, judge_bury=False)
    drawn: list[tuple[int, int, int, int]] = []  # (seat, cards played, worlds drawn, first world's index)
    weighed: list[tuple[int, int, str]] = []  # (seat, cards played, seed) of each weighted draw
    sample = W.WorldSampler.sample

    def spy_sample(self, n, seed=0, start=0):
        drawn.append((self.k.seat, len(self.k.plays), n, start))
        return sample(self, n, seed=seed, start=start)

    pick = PA.pick_worlds

    def spy_pick(k, worlds, seed=0, *args, **kwargs):
        weighed.append((k.seat, len(k.plays), str(seed)))
        return pick(k, worlds, seed, *args, **kwargs)

    monkeypatch.setattr(W.WorldSampler, "sample", spy_sample)
    monkeypatch.setattr(PA, "pick_worlds", spy_pick)
    worlds = 30
    uniform = PA.annotate_view(ann, worlds=worlds, seed=1, jobs=1, inference="none", source=rec)
    judged = [d for d in uniform.decisions if d.view is not None]
    # (a decision with no more possible deals than asked: every one, exactly)
    assert judged and all(d.view.worlds == worlds or d.view.exact for d in judged) and not weighed
    # fewer worlds drawn than judged: the survivors were kept; each seat's draws continue its stream
    assert sum(n for _, _, n, _ in drawn) < worlds * len(judged)
    by_seat: dict[int, int] = {}
    for seat, _, n, start in drawn:
        assert start == by_seat.get(seat, 0)
        by_seat[seat] = start + n
    assert any(n < worlds for _, _, n, _ in drawn)
    drawn.clear()
    weighted = PA.annotate_view(ann, worlds=worlds, seed=1, jobs=1, inference="auction", source=rec)
    judged_w = [d for d in weighted.decisions if d.view is not None]
    # one fresh weighted draw per judged decision, each with a seed of its own; no uniform worlds kept or drawn
    assert [(s, n) for s, n, _ in weighed] == [(d.seat, d.index) for d in judged_w]
    assert len({seed for *_, seed in weighed}) == len(weighed) and not drawn
    assert weighted.view.inference == "auction"


def test_the_bury_judgement_reports_what_its_weighted_worlds_are_worth():
    rec = load_record(EXAMPLES / "bury-jd-full.toml")
    ann = annotate_record(rec)
    weighted = PA.bury_view(ann, worlds=6, seed=2, jobs=1, inference="auction").to_dict()
    uniform = PA.bury_view(ann, worlds=6, seed=2, jobs=1, inference="none").to_dict()
    assert uniform["effective_worlds"] == 6.0 and 0 < weighted["effective_worlds"] <= 6.0
    assert weighted["values"] != uniform["values"]  # the passes before the picker weigh his worlds


def test_the_bury_judgements_text_and_page_say_what_weighted_worlds_are_worth(run, tmp_path):
    path = EXAMPLES / "bury-jd-full.toml"
    args = ("annotate", path, "--view", "player", "--worlds", "4", "--jobs", "1")
    weighted = next(x for x in run(*args).output.splitlines() if "player's view (" in x)
    uniform = next(x for x in run(*args, "--inference", "none").output.splitlines() if "player's view (" in x)
    assert "player's view (4 worlds, worth " in weighted and "player's view (4 worlds)" in uniform
    page = tmp_path / "a.html"
    assert run(*args, "--html", page).exit_code == 0
    assert "4 worlds, worth " in page.read_text(encoding="utf-8")
