"""Paper 002's ``not_worse_by`` and ``log_growth_each`` claim kinds (anonymous/claims/)
on hand-built traces: constant paired differences give exact t-test p-values (0 or 1/2), and
curves c·ln t or c·t have log-log slopes 0 and 1 exactly; with their decidability witnesses."""

from __future__ import annotations

import copy

import numpy as np
import pandas as pd
import pytest

from timebandits.anonymous.claims import CLAIM_KINDS
from timebandits.anonymous.claims.growth import LogGrowthEach
from timebandits.anonymous.claims.ranking import NotWorseBy
from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.decidability import decide
from timebandits.core.verdicts.vocabulary import INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED

CONFIG = {
    "base_seed": 1,
    "claims": {
        "alpha": 0.05,
        "bootstrap_samples": 200,
        "fragile_share": 0.1,
        "run_factors": [2, 4],
    },
}
LABELS = {"ars": "ARS-UCB", "ucb": "UCB", "a6": "ARS-UCB 6"}
OURS = np.array([10.0, 12.0, 14.0, 16.0])  # mean 13


def context(curves: dict, t: np.ndarray) -> ClaimContext:
    """curves: (experiment, algorithm) -> (runs x checkpoints) regrets at the checkpoints ``t``."""
    frames = {}
    for key, values in curves.items():
        values = np.atleast_2d(np.asarray(values, dtype=float))
        runs, points = values.shape
        frames[key] = pd.DataFrame(
            {
                "repetition": np.repeat(np.arange(runs), points),
                "t": np.tile(t.astype(float), runs),
                "regret": values.ravel(),
            }
        )
    experiments = sorted({e for e, _ in curves})
    algorithms = sorted({a for _, a in curves})
    paper = {
        "paper": {"key": "anonymous"},
        "algorithms": {a: {"label": LABELS[a], "policy": "ars_ucb"} for a in algorithms},
        "experiments": {e: {"algorithms": algorithms} for e in experiments},
        "claims": [],
    }
    return ClaimContext(
        paper=paper, config=copy.deepcopy(CONFIG), trace_of=lambda e, a: frames[(e, a)]
    )


def at_horizon(regrets: dict) -> ClaimContext:
    return context(
        {k: np.asarray(v, dtype=float)[:, None] for k, v in regrets.items()}, np.array([1000])
    )


def not_worse(margin=0.5, experiments=("e1",)):
    return {
        "id": "C10",
        "kind": "not_worse_by",
        "experiments": list(experiments),
        "metric": "regret",
        "algorithm": "ars",
        "reference": "ucb",
        "margin": margin,
    }


def test_both_kinds_are_registered():
    assert CLAIM_KINDS["not_worse_by"] is NotWorseBy
    assert CLAIM_KINDS["log_growth_each"] is LogGrowthEach


@pytest.mark.parametrize(
    "reference, verdict, ratio",
    [
        (OURS / 1.5 + 1.0, REPRODUCED, "1.34 "),  # 1.5 ref − ours = 1.5 in every run: p = 0
        (OURS / 1.5 - 1.0, NOT_REPRODUCED, "1.7 "),  # 1.5 ref − ours = −1.5 in every run
        (OURS / 1.5 + [-1.0, 1.0, -1.0, 1.0], INCONCLUSIVE, "1.5 "),  # differences of mean 0
    ],
)
def test_not_worse_by_is_a_one_sided_test_against_the_margin(reference, verdict, ratio):
    """The mean regrets 13 against 13/1.5 + 1 = 9.667 (ratio 1.345, shown to three digits as
    1.34), 13/1.5 − 1 = 7.667 (1.696: 1.7) and 13/1.5 = 8.667 (1.5)."""
    rows = NotWorseBy.evaluate(
        not_worse(), at_horizon({("e1", "ars"): OURS, ("e1", "ucb"): reference})
    )
    assert len(rows) == 1
    row = rows[0]
    assert row["scope"] == "e1 ARS-UCB vs UCB"
    assert row["verdict"] == verdict
    assert row["headline"].startswith(f"ratio {ratio}")
    assert "needs < 1.5" in row["headline"]


def test_not_worse_by_margin_zero_is_better_or_equal():
    rows = NotWorseBy.evaluate(
        not_worse(margin=0.0), at_horizon({("e1", "ars"): OURS, ("e1", "ucb"): OURS + 1})
    )
    assert rows[0]["verdict"] == REPRODUCED
    assert rows[0]["p_claimed"] == 0.0


def test_not_worse_by_witnesses_reach_both_verdicts():
    claim = not_worse()
    ctx = at_horizon({("e1", "ars"): OURS, ("e1", "ucb"): OURS})
    decided = decide(claim, NotWorseBy, ctx)
    assert decided["can_reproduce"] and decided["can_refute"]


T = np.array([10, 20, 50, 100, 200, 500, 1000], float)
NOISE = np.array([[1.0], [1.1], [0.9], [1.05]])  # four runs, each a multiple of one curve


def growth_claim(algorithms=("ars", "a6")):
    return {
        "id": "C1",
        "kind": "log_growth_each",
        "experiments": ["e1"],
        "algorithms": list(algorithms),
        "metric": "regret",
        "max_slope": 0.3,
    }


def test_log_growth_each_checks_every_algorithm():
    """Both curves 10 ln t (slope 0): two reproduced rows, one per algorithm, scoped with its
    label; a curve 10 t (slope 1) is refuted however the other grows."""
    log_curve, linear_curve = NOISE * 10 * np.log(T), NOISE * 10 * T
    rows = LogGrowthEach.evaluate(
        growth_claim(), context({("e1", "ars"): log_curve, ("e1", "a6"): log_curve}, T)
    )
    assert [r["scope"] for r in rows] == ["e1 ARS-UCB", "e1 ARS-UCB 6"]
    assert [r["verdict"] for r in rows] == [REPRODUCED, REPRODUCED]
    assert rows[0]["slope"] == pytest.approx(0.0, abs=1e-9)
    rows = LogGrowthEach.evaluate(
        growth_claim(), context({("e1", "ars"): log_curve, ("e1", "a6"): linear_curve}, T)
    )
    assert [r["verdict"] for r in rows] == [REPRODUCED, NOT_REPRODUCED]
    assert rows[1]["slope"] == pytest.approx(1.0)


def test_log_growth_each_witnesses_reach_both_verdicts():
    curve = NOISE * 10 * np.log(T)
    ctx = context({("e1", "ars"): curve, ("e1", "a6"): curve}, T)
    decided = decide(growth_claim(), LogGrowthEach, ctx)
    assert decided["can_reproduce"] and decided["can_refute"]


def test_log_growth_each_needs_algorithms():
    paper = {"experiments": {"e1": {"algorithms": ["ars"]}}, "algorithms": {"ars": {}}}
    with pytest.raises(ValueError):
        LogGrowthEach.check({**growth_claim(()), "id": "C1"}, paper)


def test_log_growth_each_judges_only_a_panels_curves():
    """With panels {e1: [ars]}, e1's linear curve of ARS-UCB 6 (a sweep the panel does not plot)
    is not judged; e2, not in panels, judges both."""
    log_curve, linear_curve = NOISE * 10 * np.log(T), NOISE * 10 * T
    claim = {**growth_claim(), "experiments": ["e1", "e2"], "panels": {"e1": ["ars"]}}
    ctx = context(
        {
            ("e1", "ars"): log_curve,
            ("e1", "a6"): linear_curve,
            ("e2", "ars"): log_curve,
            ("e2", "a6"): log_curve,
        },
        T,
    )
    rows = LogGrowthEach.evaluate(claim, ctx)
    assert [r["scope"] for r in rows] == ["e1 ARS-UCB", "e2 ARS-UCB", "e2 ARS-UCB 6"]
    assert {r["verdict"] for r in rows} == {REPRODUCED}


@pytest.mark.parametrize("panels", [{"e9": ["ars"]}, {"e1": ["zz"]}, {"e1": []}, ["e1"]])
def test_log_growth_each_refuses_a_wrong_panel(panels):
    paper = {
        "experiments": {"e1": {"algorithms": ["ars", "a6"]}},
        "algorithms": {"ars": {}, "a6": {}},
    }
    with pytest.raises(ValueError, match="panels"):
        LogGrowthEach.check({**growth_claim(), "panels": panels}, paper)
