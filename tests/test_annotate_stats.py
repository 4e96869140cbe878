"""``annotate --view player``'s statistics: a decision with no more possible deals than ``--worlds`` asks is solved
over every consistent world, exactly (as ``suggest`` does), and the reported standard errors match the spread of
the figures over many seeds (calibration)."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from helpers_cli import EXAMPLES

from sheepsolve import player as V
from sheepsolve import worlds as W
from sheepsolve.annotate import annotate_play, annotate_record
from sheepsolve.objective import Objective
from sheepsolve.record import load_record
from sheepsolve.reference import reference_card_values
from helpers_deals import small_setup


def _random_line(st, rng: random.Random) -> list:
    s, line = st.start(), []
    while not s.finished:
        c = rng.choice(s.legal())
        line.append(c)
        s = s.play(c)
    return line


@pytest.mark.parametrize("name,kw,k,worlds", [("solo", {"trump": "S"}, 3, 40), ("sauspiel", {}, 3, 40),
                                              ("sheepshead", {"partner": "called-ace"}, 2, 40)])
def test_few_possible_worlds_are_enumerated_exactly(name, kw, k, worlds):
    """Uniform worlds: a decision with no more possible deals than ``worlds`` is judged over every consistent
    world once (not a sample with repeats), each card's mean the reference's exact average, and adds nothing to
    the expected loss's standard error; the others are sampled."""
    sampled = exact = 0
    for seed in range(2):
        st = small_setup(name, kw, k, f"annotate-stats/{name}/{seed}")
        line = _random_line(st, random.Random(seed))
        ann = V.annotate_view(annotate_play(st, line, judge_bury=False), worlds=worlds, seed=seed)
        for d in ann.decisions:
            if d.forced:
                continue
            kn = W.Knowledge.from_setup(st, line[:d.index], d.seat)
            sampler = W.WorldSampler(kn)
            if sampler.candidates > worlds:
                assert not d.view.exact and d.view.worlds == worlds
                sampled += 1
                continue
            exact += 1
            every = sampler.all_worlds()
            assert d.view.exact and d.view.worlds == len(every) <= worlds
            refs = [reference_card_values(w.state, Objective.for_setup(
                w.setup, seat=None if st.game.two_sided else d.seat)) for w in every]
            for c in d.legal:
                assert d.view.values[c] == pytest.approx(sum(r[c] for r in refs) / len(refs), abs=1e-9)
            sign = 1 if (st.game.two_sided and d.seat in st.team) else -1
            assert d.view.cost == pytest.approx(max(sign * d.view.values[c] for c in d.legal)
                                                - sign * d.view.values[d.card], abs=1e-9)
        for p in ann.summary.players:
            mine = [d.view for d in ann.decisions if d.seat == p.seat and d.view is not None]
            if not mine:
                continue
            errs = [v.cost_stderr for v in mine if not v.exact]
            if None in errs:
                assert p.view.expected_loss_stderr is None
            else:
                assert p.view.expected_loss_stderr == pytest.approx(math.sqrt(sum(x * x for x in errs)))
    assert sampled and exact  # both kinds of decision were met


def test_exact_decisions_say_so_in_the_text(run):
    """The text marks a decision solved over every consistent world ``exact`` and the legend says why."""
    r = run("annotate", str(EXAMPLES / "sheepshead-3-finished.toml"), "--view", "player", "--worlds", "10",
             "--inference", "none")
    assert r.exit_code == 0, r.output
    assert "(every one, exactly, where no more are possible)" in " ".join(r.output.split())
    assert " exact" in r.output.split("trick  player")[1]


def _spread_against_reported(example: str, inference: str, seeds: range, worlds: int, from_trick: int
                             ) -> tuple[float, float, dict[int, float]]:
    """The hand's decisions from trick ``from_trick`` on judged again for every seed (the earlier ones taken as
    forced: not judged, for speed); the spread of each figure over the seeds against its reported standard error
    (the root mean square over the seeds), pooled: sqrt(sum of the spreads' variances / sum of the mean squared
    errors), for the players' expected losses and for the card means (sampled decisions only), and per player."""
    import dataclasses

    rec = load_record(EXAMPLES / example)
    ann = annotate_record(rec, judge_bury=False)
    ann = dataclasses.replace(ann, decisions=tuple(
        d if d.trick >= from_trick else dataclasses.replace(d, forced=True) for d in ann.decisions))
    losses: dict[int, list[tuple[float, float]]] = {}
    means: dict[tuple[int, str], list[tuple[float, float]]] = {}
    for seed in seeds:
        v = V.annotate_view(ann, worlds=worlds, seed=seed, jobs=1, inference=inference, source=rec)
        for p in v.summary.players:
            if p.view.decisions:
                losses.setdefault(p.seat, []).append((p.view.expected_loss, p.view.expected_loss_stderr or 0.0))
        for d in v.decisions:
            if d.view is not None and not d.view.exact:
                for c, m in d.view.values.items():
                    se = d.view.stderr[c]
                    if se is not None and d.view.worlds_solved[c] == d.view.worlds:  # not dropped by racing
                        means.setdefault((d.index, str(c)), []).append((m, se))

    def pooled(groups) -> float:
        groups = [g for g in groups if len(g) == len(seeds)]
        spread = sum(statistics.variance([x for x, _ in g]) for g in groups)
        reported = sum(statistics.fmean([e * e for _, e in g]) for g in groups)
        return math.sqrt(spread / reported)

    per = {p: math.sqrt(statistics.variance([x for x, _ in g]) / statistics.fmean([e * e for _, e in g]))
           for p, g in losses.items() if any(e for _, e in g)}
    return pooled(losses.values()), pooled(means.values()), per


@pytest.mark.parametrize("example,inference,from_trick", [
    ("annotate-blunder-sheepshead.toml", "auction", 3), ("annotate-blunder-sheepshead.toml", "none", 3),
    ("annotate-swing-sauspiel.toml", "auction", 4)])
def test_reported_standard_errors_match_the_spread_over_seeds(example, inference, from_trick):
    """Calibration: over 40 seeds the players' expected losses and the card means spread as much as their
    reported standard errors say. The ratio, pooled over the players (or the cards), is near 1 within its own
    sampling noise (about 0.1 for 40 seeds and four or five players): at least 0.75 and at most 1.25; no single
    player's error is under-reported by more than half (a player whose decisions mostly cost 0 spreads less than
    his errors say: a cost is never below 0)."""
    loss, means, per = _spread_against_reported(example, inference, range(40), 12, from_trick)
    assert 0.75 <= loss <= 1.25, (loss, per)
    assert 0.75 <= means <= 1.25, means
    assert max(per.values()) <= 1.5, per


@pytest.mark.slow
@pytest.mark.parametrize("example", ["annotate-blunder-sheepshead.toml", "annotate-swing-sauspiel.toml"])
@pytest.mark.parametrize("inference", ["auction", "none"])
def test_reported_standard_errors_match_the_spread_over_seeds_whole_hand(example, inference):
    """As above over the whole hand, 30 worlds a decision, 100 seeds (minutes)."""
    loss, means, per = _spread_against_reported(example, inference, range(100), 30, 1)
    assert 0.8 <= loss <= 1.2, (loss, per)
    assert 0.8 <= means <= 1.2, means
    assert max(per.values()) <= 1.4, per


def test_racing_edges_in_annotate():
    """Issue 36's sampler edges, in annotate as in suggest: a card racing dropped is never among the tied best
    (the ties are judged over every world, on cards solved in all of them), a dropped card never reports a
    standard error of 0 (unknown: None), and a player's expected-loss error is unknown when a sampled decision's
    is."""
    rec = load_record(EXAMPLES / "solo-acorns-finished.toml")
    ann = V.annotate_view(annotate_record(rec, judge_bury=False), worlds=45, seed=3, jobs=1, race=True)
    dropped = 0
    for d in ann.decisions:
        v = d.view
        if v is None:
            continue
        for c, n in v.worlds_solved.items():
            if n < v.worlds:
                dropped += 1
                assert c not in v.best
                assert v.stderr[c] != 0.0
                if c == d.card:
                    assert v.cost_stderr != 0.0
    assert dropped
    for p in ann.summary.players:
        mine = [d.view for d in ann.decisions if d.seat == p.seat and d.view is not None]
        if any(v.cost_stderr is None and not v.exact for v in mine):
            assert p.view.expected_loss_stderr is None
