"""Paper 002's verdicts can come out both ways (issue 22): each claim kind's witnesses reach
"reproduced" and "not reproduced" where the setting allows, and cannot where it does not (an
infinite Lemma 1 radius, an infinite constant c*, a bound above the largest regret a label game
allows); the trivial bound of each metric is the largest value it can take (trivial.py)."""

from __future__ import annotations

import copy

import numpy as np
import pandas as pd
import pytest

from timebandits.anonymous.analysis import _theorem2_rows
from timebandits.anonymous.claims.constants import ConstantOrder
from timebandits.anonymous.claims.lemma1 import Lemma1
from timebandits.anonymous.claims.ranking import BestInMost
from timebandits.anonymous.label_game_config import game_labels
from timebandits.anonymous.trivial import best_label_gains, label_regret_max, pseudo_regret_max
from timebandits.core.trivial import is_vacuous
from timebandits.core.verdicts.claims import evaluate_claims
from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.decidability import decide, derived
from timebandits.core.verdicts.kinds import BelowBound
from timebandits.core.verdicts.vocabulary import INCONCLUSIVE

CONFIG = {
    "base_seed": 1,
    "claims": {
        "alpha": 0.05,
        "bootstrap_samples": 400,
        "fragile_share": 0.1,
        "run_factors": [2, 4, 8, 16],
    },
}


@pytest.fixture(scope="module")
def paper():
    from timebandits.core.build.preflight import load_paper

    return load_paper("anonymous")


def _context(paper, finals: dict, bounds=None) -> ClaimContext:
    """finals: (experiment, algorithm) -> {metric: values per repetition at T = 1000}."""
    frames = {}
    for (exp, alg), metrics in finals.items():
        n = len(next(iter(metrics.values())))
        frames[(exp, alg)] = pd.DataFrame(
            {
                "repetition": np.arange(n),
                "t": np.full(n, 1000),
                **{m: np.asarray(v, float) for m, v in metrics.items()},
            }
        )
    return ClaimContext(
        paper=paper,
        config=copy.deepcopy(CONFIG),
        bounds=bounds,
        trace_of=lambda exp, alg: frames[(exp, alg)],
    )


def _ucb_paper(real, experiments, algorithms):
    """Experiments named after real instances, running ARS-UCB algorithms."""
    return {
        "paper": {"key": "anonymous"},
        "algorithms": {a: {"label": a, "policy": "ars_ucb"} for a in algorithms},
        "experiments": {
            e: {
                "algorithms": list(algorithms),
                "record": ["lemma1"],
                "environment": real["experiments"][e]["environment"],
            }
            for e in experiments
        },
    }


# --- the trivial bound of each metric --------------------------------------------------------


def test_best_label_gains_by_hand():
    """Labels 0 1 1 2 0 0: the best count is 1 after slot 1, 2 after slot 3 (label 1), 3 after
    slot 6 (label 0); checkpoints in any order, 0 at t = 0."""
    labels = np.array([0, 1, 1, 2, 0, 0])
    assert best_label_gains(labels, 3, [1, 3, 6]).tolist() == [1, 2, 3]
    assert best_label_gains(labels, 3, [6, 0, 3]).tolist() == [3, 0, 2]
    assert label_regret_max(labels, 3, [4]).tolist() == [2]
    with pytest.raises(ValueError, match="checkpoints"):
        best_label_gains(labels, 3, [7])


def test_pseudo_regret_max_is_t_times_the_largest_gap():
    assert pseudo_regret_max(np.array([10.0, 20.0]), [0.0, 0.2, 0.5]).tolist() == [5.0, 10.0]


def test_theorem2_rows_use_the_best_label_count(paper):
    """The bound table of a label game compares with max_i G_i(t) (hand-counted), not t."""
    exp = paper["experiments"]["fig5c"]
    _, labels = game_labels(exp["environment"], int(exp["horizon"]))
    t = np.array([100, 5_000, 330_000])
    trace = pd.DataFrame({"repetition": np.repeat([0, 1], 3), "t": np.tile(t, 2), "regret": 0.0})
    rows = pd.concat(_theorem2_rows(paper, "fig5c", lambda e, a: trace))
    expected = [np.bincount(labels[:n]).max() for n in t]
    assert rows["trivial"].tolist() == expected
    assert rows["trivial"].iloc[-1] < 0.2 * 330_000


# --- Theorem 2 against the largest regret of the game: C8 and C8-s can say nothing ----------


@pytest.mark.parametrize("claim_id", ["C8", "C8-s"])
def test_theorem2_claims_are_flagged_undecidable(paper, claim_id):
    """At every checkpoint of every stream, Theorem 2's bound is above max_i G_i(t): its claims
    can be neither reproduced nor refuted, so they stay inconclusive with the config's reason.
    With the old trivial bound t the same claims looked refutable (and C8-s was "reproduced")."""
    claim = next(c for c in paper["claims"] if c["id"] == claim_id)
    frames = []
    for exp_id in claim["experiments"]:
        horizon = int(paper["experiments"][exp_id]["horizon"])
        t = np.unique(np.geomspace(10, horizon, 60).astype(int))
        trace = pd.DataFrame(
            {"repetition": np.repeat([0, 1], t.size), "t": np.tile(t, 2), "regret": 0.0}
        )
        frames += _theorem2_rows(paper, exp_id, lambda e, a, trace=trace: trace)
    bounds = pd.concat(frames, ignore_index=True)
    assert bounds["vacuous"].all()
    ctx = ClaimContext(paper=paper, config=copy.deepcopy(CONFIG), trace_of=None, bounds=bounds)
    verdict = decide(claim, BelowBound, ctx)
    assert not verdict["can_reproduce"] and not verdict["can_refute"]
    assert claim["one_sided"] in verdict["decidability"]
    summary, _ = evaluate_claims({**paper, "claims": [claim]}, ctx, {"below_bound": BelowBound})
    assert summary["verdict"].iloc[0] == INCONCLUSIVE
    # the defect: against t, the synthetic streams' bound looked informative and refutable
    old = bounds.assign(trivial=bounds["t"].astype(float))
    old["vacuous"] = is_vacuous(old["bound_value"], old["trivial"])
    if claim_id == "C8-s":
        assert not old["vacuous"].all()
        assert decide(claim, BelowBound, derived(ctx, bounds=old))["can_refute"]


# --- each anonymous kind's witnesses ---------------------------------------------------------


@pytest.mark.parametrize("statistic", ["mean", "sd"])
def test_best_in_most_can_go_both_ways(paper, statistic):
    real = _ucb_paper(
        paper, ["delay_10_30", "bounded_10_20", "discounted_08"], ["ours", "r1", "r2"]
    )
    claim = {
        "id": "C3",
        "kind": "best_in_most",
        "scope": "paper",
        "algorithm": "ours",
        "rivals": ["r1", "r2"],
        "experiments": list(real["experiments"]),
        "statistic": statistic,
        "tolerance": 0.1,
    }
    rng = np.random.default_rng(0)
    ctx = _context(
        real,
        {
            (e, a): {"regret": 100 + rng.normal(0, 5, 30)}
            for e in claim["experiments"]
            for a in ("ours", "r1", "r2")
        },
    )
    verdict = decide(claim, BestInMost, ctx)
    assert verdict["can_reproduce"] and verdict["can_refute"], verdict["decidability"]


def _lemma_claim(experiments):
    return {
        "id": "C9",
        "kind": "lemma1",
        "scope": "paper",
        "experiments": experiments,
        "algorithms": ["ours"],
    }


def _lemma_finals(experiments, misses=0):
    return {
        (e, "ours"): {
            "lemma1_checks": [5000, 5000],
            "lemma1_misses": [misses, 0],
            "lemma1_bound": [1e-3, 1e-3],
            "lemma1_ratio": [0.2, 0.3],
        }
        for e in experiments
    }


def test_lemma1_can_go_both_ways_where_the_radius_is_finite(paper):
    experiments = ["delay_10_30", "polynomial_3"]
    ctx = _context(_ucb_paper(paper, experiments, ["ours"]), _lemma_finals(experiments))
    verdict = decide(_lemma_claim(experiments), Lemma1, ctx)
    assert verdict["can_reproduce"] and verdict["can_refute"], verdict["decidability"]


def test_an_infinite_radius_can_never_be_missed(paper):
    """Polynomial γ = 2 has d1 = ∞, so rad' = ∞: even 5 recorded misses are no evidence (a
    supporting row), and a claim on it alone can reach neither verdict; beside a finite
    instance it does not decide anything."""
    ctx = _context(
        _ucb_paper(paper, ["polynomial_2"], ["ours"]), _lemma_finals(["polynomial_2"], 5)
    )
    claim = _lemma_claim(["polynomial_2"])
    rows = Lemma1.evaluate(claim, ctx)
    assert [(r["role"], r["verdict"]) for r in rows] == [("supports", INCONCLUSIVE)]
    verdict = decide(claim, Lemma1, ctx)
    assert not verdict["can_reproduce"] and not verdict["can_refute"]
    assert "can never be missed" in verdict["decidability"]
    both = ["delay_10_30", "polynomial_2"]
    ctx = _context(_ucb_paper(paper, both, ["ours"]), _lemma_finals(both))
    assert decide(_lemma_claim(both), Lemma1, ctx)["can_refute"]


def _order_claim(paper, experiments, alphas=(8.0,)):
    claim = next(c for c in paper["claims"] if c["kind"] == "constant_order")
    return {**claim, "experiments": list(experiments), "alphas": list(alphas)}


def test_constant_order_can_go_both_ways_where_c_star_is_finite(paper):
    ctx = ClaimContext(paper=paper, config=copy.deepcopy(CONFIG), trace_of=None)
    verdict = decide(_order_claim(paper, ["delay_10_30"]), ConstantOrder, ctx)
    assert verdict["can_reproduce"] and verdict["can_refute"], verdict["decidability"]


def test_constant_order_without_a_finite_constant_is_flagged(paper):
    """d1 = ∞ (polynomial γ = 2), or α = 4 (c* undefined: the proof divides by √α − 2): no order
    to check, so neither verdict is reachable; an undefined constant is never a refutation."""
    ctx = ClaimContext(paper=paper, config=copy.deepcopy(CONFIG), trace_of=None)
    for experiments, alphas in ((["polynomial_2"], [8.0]), (["delay_10_30"], [4.0])):
        claim = _order_claim(paper, experiments, alphas)
        rows = ConstantOrder.evaluate(claim, ctx)
        assert [(r.get("role"), r["verdict"]) for r in rows] == [
            ("supports", INCONCLUSIVE),
            (None, INCONCLUSIVE),
        ]
        verdict = decide(claim, ConstantOrder, ctx)
        assert not verdict["can_reproduce"] and not verdict["can_refute"]


def test_a_supporting_row_does_not_block_a_verdict(paper):
    """Beside a finite (experiment, α), an undefined constant (α = 4) is a supporting row only:
    the claim stays decidable both ways."""
    ctx = ClaimContext(paper=paper, config=copy.deepcopy(CONFIG), trace_of=None)
    verdict = decide(_order_claim(paper, ["delay_10_30"], [4.0, 8.0]), ConstantOrder, ctx)
    assert verdict["can_reproduce"] and verdict["can_refute"]
