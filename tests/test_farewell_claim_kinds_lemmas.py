"""Paper 000's Monte Carlo of Lemmas 1 and 3 and the §7.2 convergence kind
(farewell/claims/lemmas.py) on hand-worked cases; each kind's witnesses reach both verdicts."""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import ttest_rel

from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.decidability import decide, derived
from timebandits.core.verdicts.vocabulary import NOT_REPRODUCED, REPRODUCED
from timebandits.farewell.claims.lemmas import (
    ConvergesLater,
    RatioConcentration,
    _cells,
    sample_ratios,
)
from timebandits.farewell.model import F2AProblem

CONFIG = {"base_seed": 1, "claims": {"alpha": 0.05, "fragile_share": 0.1, "run_factors": [2, 4]}}


def test_sample_ratios_of_deterministic_delays():
    """τ ≡ 2 on D = 2, V = 1: pair j = 1 never sees a reward (X = 0, Y = 1): ratio 0; pair j = 2
    always does after 2 rounds: ratio 1/2, whatever the sample."""
    problem = F2AProblem([1.0], [[0.0, 1.0]])
    hat = sample_ratios(problem, 0, 5, 3, seed=1)
    assert hat.tolist() == [[0.0, 0.5]] * 3


def test_sample_ratios_mean_and_spread():
    """P(τ=1) = P(τ=2) = 1/2, V ~ Bernoulli(0.5): j = 1 has X̂/Ŷ = (count of V=1, τ=1)/n, mean
    1/4."""
    problem = F2AProblem([0.5], [[0.5, 0.5]])
    hat = sample_ratios(problem, 0, 100, 4000, seed=2)
    assert hat[:, 0].mean() == pytest.approx(0.25, abs=0.003)
    assert hat[:, 0].std() == pytest.approx(np.sqrt(0.25 * 0.75 / 100), rel=0.05)


def test_cells_judge_only_missable_radii():
    """Deterministic τ ≡ 1, V = 1: every estimate is exact (g = 1), no miss. The widest possible
    deviation is max(g, 1 − g) = 1; Lemma 1's radius with B = 1 and δ = 0.5 is √(ln 8/(2n)):
    1.02 at n = 1 (not judged), 0.10 at n = 100 (judged)."""
    key = ((1.0,), ((1.0,),))
    cells = _cells(1, key, (1, 100), (0.5,), 1e7, 50, 3)
    radius_n1 = np.sqrt(np.log(8.0) / 2.0)  # 1.02: not judged
    assert radius_n1 > 1
    assert [c[0] for c in cells] == ["(k1, j1) n=100 δ=0.5"]
    assert cells[0][1:] == (0, 50, 0.5)


def paper():
    return {
        "experiments": {
            "p": {
                "environment": {"reward_prob": [0.5], "delay_pmf": [[0.5, 0.3, 0.2]]},
                "horizon": 1.0e4,
                "algorithms": [],
            }
        }
    }


@pytest.mark.parametrize("lemma, extra", [(1, {"deltas": [0.5, 0.9]}), (3, {})])
def test_ratio_concentration_holds_and_its_witnesses_reach_both(lemma, extra):
    claim = {
        "id": f"L{lemma}",
        "kind": "ratio_concentration",
        "lemma": lemma,
        "experiments": ["p"],
        "sizes": [10, 100],
        "repetitions": 2000,
        **extra,
    }
    ctx = ClaimContext(paper=paper(), config=CONFIG, trace_of=lambda e, a: None)
    [row] = RatioConcentration.evaluate(claim, ctx)
    assert row["verdict"] == REPRODUCED
    out = decide(claim, RatioConcentration, ctx)
    assert out["can_reproduce"] and out["can_refute"]


def test_ratio_concentration_refutes_a_radius_missed_too_often():
    """Misses replaced by hand: 150 of 1000 at an allowed 0.1 (p ≈ 5e-7) refutes; 110 does not."""
    claim = {
        "id": "L1",
        "kind": "ratio_concentration",
        "lemma": 1,
        "experiments": ["p"],
        "sizes": [10],
        "deltas": [0.5],
        "repetitions": 100,
    }
    ctx = ClaimContext(paper=paper(), config=CONFIG, trace_of=lambda e, a: None)
    for misses, verdict in ((150, NOT_REPRODUCED), (110, REPRODUCED)):
        fixed = derived(ctx, overrides={"lemma1 p": lambda _, m=misses: (("cell", m, 1000, 0.1),)})
        assert RatioConcentration.evaluate(claim, fixed)[0]["verdict"] == verdict


def trace(increase_last_decade):
    """Pseudo-regret at t = 1, 10, 100 of four runs: 0, 5, 5 + the given increase."""
    inc = list(increase_last_decade)
    return pd.DataFrame(
        {
            "repetition": [0, 1, 2, 3] * 3,
            "t": [1.0] * 4 + [10.0] * 4 + [100.0] * 4,
            "pseudo_regret": [0.0] * 4 + [5.0] * 4 + [5.0 + x for x in inc],
        }
    )


def test_converges_later_by_hand():
    slow, fast = [4.0, 5.0, 6.0, 8.0], [1.0, 2.0, 2.0, 3.0]
    traces = {"slow": trace(slow), "fast": trace(fast)}
    ctx = ClaimContext(
        paper={
            "algorithms": {"slow": {"label": "S"}, "fast": {"label": "F"}},
            "experiments": {"e": {"algorithms": ["slow", "fast"]}},
        },
        config=CONFIG,
        trace_of=lambda e, a: traces[a],
    )
    claim = {
        "id": "C16",
        "kind": "converges_later",
        "experiments": ["e"],
        "slower": "slow",
        "faster": "fast",
        "metric": "pseudo_regret",
        "window": 1.0,
    }
    [row] = ConvergesLater.evaluate(claim, ctx)
    p = float(ttest_rel(fast, slow, alternative="less").pvalue)
    assert row["p_claimed"] == pytest.approx(p)
    assert row["verdict"] == REPRODUCED
    assert row["headline"] == "S adds 5.75 vs F 2 over the last 1 decade(s)"
    out = decide(claim, ConvergesLater, ctx)
    assert out["can_reproduce"] and out["can_refute"]
