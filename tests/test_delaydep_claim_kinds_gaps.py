"""π_ucb's switches against the gaps (delaydep/claims/gaps.py, kind switch_gap_growth; Sect. 1:
"performs a number of switches growing with the squared inverse of these gaps"), on hand-built
traces and closed forms.

The instances are Fig. 3's with μ_2 lowered: μ = (1, μ_2), d = (2, 2), f(1) = 3/10, f(2) = 1/4.
By eq. 3, g(1) = μ_1(1) = 7/10 and g(2) = (μ_1(2) + μ_2(2))/2 = (3/4)(1 + μ_2)/2, so
  μ_2 = 4/5: g(2) = 27/40, Δ = 1/40, Σ Δ⁻² = 1600;   μ_2 = 11/15: g(2) = 13/20, Δ = 1/20, 400;
  μ_2 = 3/5: g(2) = 3/5, Δ = 1/10, 100;              μ_2 = 1/3: g(2) = 1/2, Δ = 1/5, 25.
UCB1's bound in pulls (one suboptimal policy, m = 2, 2m = 4 pulls a choice) is
4·(8 ln T / Δ² + 1 + π²/3): at T = 10⁶ and Δ = 1/40, 4·(12800·ln 10⁶ + 4.29) = 707,369 < T.
"""

import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.decidability import decide
from timebandits.core.verdicts.stats import log_slopes
from timebandits.core.verdicts.vocabulary import INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED
from timebandits.delaydep.claims import CLAIM_KINDS
from timebandits.delaydep.claims.gaps import slope_ci
from timebandits.delaydep.model import B2DEPProblem
from timebandits.delaydep.theory import (
    inverse_square_gaps,
    policy_gaps,
    ucb_bound_pulls,
    ucb_switch_bound,
)

CONFIG = {
    "base_seed": 7,
    "claims": {
        "alpha": 0.05,
        "bootstrap_samples": 400,
        "fragile_share": 0.1,
        "run_factors": [2, 4, 8, 16],
    },
}
MU2 = {"g40": "4/5", "g20": "11/15", "g10": "3/5", "g5": "1/3"}
X = {"g40": 1600, "g20": 400, "g10": 100, "g5": 25}
KIND = CLAIM_KINDS["switch_gap_growth"]


def environment(mu2: str) -> dict:
    return {
        "means": ["1", mu2],
        "delays": [2, 2],
        "f": {"kind": "table", "values": ["3/10", "1/4"]},
        "switch_costs": [1],
    }


def context(finals: dict, horizon: float = 1e6, runs: int = 6) -> ClaimContext:
    """Experiments ``g40`` … ``g5`` whose π_ucb runs end with ``finals[name](run)`` switches,
    rising linearly from 0 at t = 1 (two checkpoints)."""
    paper = {
        "paper": {"key": "delaydep"},
        "algorithms": {"pi_ucb": {"policy": "ucb", "label": "π_ucb", "params": {}}},
        "experiments": {},
    }
    frames = {}
    for name, mu2 in MU2.items():
        paper["experiments"][name] = {
            "environment": environment(mu2),
            "algorithms": ["pi_ucb"],
            "horizon": horizon,
            "repetitions": runs,
        }
        values = np.array([finals[name](r) for r in range(runs)], dtype=float)
        frames[name] = pd.DataFrame(
            {
                "repetition": np.repeat(np.arange(runs), 2),
                "t": np.tile([1.0, horizon], runs),
                "switches": np.column_stack([np.zeros(runs), values]).ravel(),
                "suboptimal_pulls": np.column_stack([np.zeros(runs), 8 * values]).ravel(),
                "delay_1": 2,
                "delay_2": 2,
            }
        )
    return ClaimContext(paper=paper, config=CONFIG, trace_of=lambda e, a: frames[e])


def claim(**fields):
    return {
        "id": "t",
        "tested_as": "",
        "where": "",
        "kind": "switch_gap_growth",
        "experiments": list(MU2),
        "algorithm": "pi_ucb",
        "min_slope": 0.75,
        "max_slope": 1.25,
        **fields,
    }


def deciding(rows):
    return [r for r in rows if r.get("role") != "supports"]


def test_gaps_and_inverse_squares_are_exact():
    for name, mu2 in MU2.items():
        problem = B2DEPProblem.from_config(environment(mu2))
        assert policy_gaps(problem) == [Fraction(1, int(math.isqrt(X[name])))]
        assert inverse_square_gaps(problem) == pytest.approx(X[name], rel=1e-12)
    tied = B2DEPProblem.from_config(environment("13/15"))  # Fig. 3 itself: g(1) = g(2)
    assert inverse_square_gaps(tied) == math.inf


def test_ucb_bound_in_pulls():
    problem = B2DEPProblem.from_config(environment("4/5"))
    expected = 4 * (8 * math.log(1e6) * 1600 + 1 + math.pi**2 / 3)
    assert ucb_bound_pulls(problem, 1e6) == pytest.approx(expected)
    assert 7.07e5 < expected < 7.08e5


def test_fitted_slope_recovers_a_power_law():
    x = np.array([25.0, 100.0, 400.0, 1600.0])
    assert log_slopes(x, 3.0 * x)[0] == pytest.approx(1.0)
    assert log_slopes(x, 7.0 * np.sqrt(x))[0] == pytest.approx(0.5)
    assert log_slopes(x, np.full(4, 5.0))[0] == pytest.approx(0.0)
    assert math.isnan(log_slopes(x, np.array([0.0, 1.0, 2.0, 3.0]))[0])
    # a CI from runs spread ±1% around an exact power law stays close to it
    runs = [2 * v * np.array([0.99, 1.0, 1.01]) for v in x]
    est, low, high = slope_ci(x, runs, 500, 0.95)
    assert est == pytest.approx(1.0) and 0.98 < low <= 1.0 <= high < 1.02


def test_switches_proportional_to_inverse_square_gaps_reproduce():
    ctx = context({n: (lambda r, n=n: 2 * X[n] * (1 + 0.01 * (r - 2.5))) for n in MU2})
    rows = KIND.evaluate(claim(), ctx)
    (row,) = deciding(rows)
    assert row["verdict"] == REPRODUCED and row["slope"] == pytest.approx(1.0, abs=1e-3)
    assert len(rows) == 6 and all(r["verdict"] == REPRODUCED for r in rows[:4])  # all judged
    assert rows[4]["scope"] == "suboptimal pulls" and "(Σ Δ⁻²)^1.00" in rows[4]["headline"]


def test_switches_growing_as_the_inverse_gap_do_not_reproduce():
    ctx = context({n: (lambda r, n=n: 50 * math.sqrt(X[n]) + r) for n in MU2})
    (row,) = deciding(KIND.evaluate(claim(), ctx))
    assert row["verdict"] == NOT_REPRODUCED and row["ci_high"] < 0.75


def test_noisy_runs_leave_it_inconclusive():
    ctx = context({n: (lambda r, n=n: 2 * X[n] * (0.2 if r % 2 else 1.8)) for n in MU2}, runs=4)
    (row,) = deciding(KIND.evaluate(claim(experiments=["g10", "g5"]), ctx))
    assert row["verdict"] == INCONCLUSIVE and row["ci_low"] < 0.75 < 1.25 < row["ci_high"]


def test_a_horizon_that_caps_the_count_leaves_it_undecided():
    # T = 2·10^4: UCB1's bound allows 4·(8 ln T·100 + 4.29) = 31,707 pulls > T at Δ = 1/10,
    # 7,940 < T at Δ = 1/5 only: one instance judged, no slope
    ctx = context({n: (lambda r, n=n: X[n]) for n in MU2}, horizon=2e4)
    rows = KIND.evaluate(claim(), ctx)
    assert [r["verdict"] for r in rows] == [INCONCLUSIVE] * 3 + [REPRODUCED, INCONCLUSIVE]
    assert len(rows) == 5  # no slope of one instance
    out = decide(claim(), KIND, ctx)
    assert (out["can_reproduce"], out["can_refute"]) == (False, False)


def test_witnesses_reach_both_verdicts_at_the_configured_horizon():
    ctx = context({n: (lambda r: 0.0) for n in MU2})
    out = decide(claim(), KIND, ctx)
    assert (out["can_reproduce"], out["can_refute"]) == (True, True)


def test_config_checks():
    paper = context({n: (lambda r: 0.0) for n in MU2}).paper
    KIND.check(claim(), paper)
    with pytest.raises(ValueError, match="at least two"):
        KIND.check(claim(experiments=["g5"]), paper)
    with pytest.raises(ValueError, match="below max_slope"):
        KIND.check(claim(min_slope=1.3), paper)
    paper["experiments"]["tied"] = {
        **paper["experiments"]["g5"],
        "environment": environment("13/15"),
    }
    with pytest.raises(ValueError, match="ties the best"):
        KIND.check(claim(experiments=["g5", "tied"]), paper)


# The order-bound reading (kind ucb_switch_bound): 2·(8 ln T/Δ² + 1 + π²/3) with one gap.
BOUND = {n: 2 * (8 * math.log(1e6) * x + 1 + math.pi**2 / 3) for n, x in X.items()}


def test_ucb_switch_bound_closed_form():
    for name, mu2 in MU2.items():
        problem = B2DEPProblem.from_config(environment(mu2))
        assert ucb_switch_bound(problem, 1e6) == pytest.approx(BOUND[name])
    assert 3.53e5 < BOUND["g40"] < 3.54e5 < 1e6  # informative at every gap


def test_ucb_switch_bound_verdicts():
    kind = CLAIM_KINDS["ucb_switch_bound"]
    bound_claim = claim(kind="ucb_switch_bound")
    below = context({n: (lambda r, n=n: BOUND[n] / 3 + r) for n in MU2})
    assert [r["verdict"] for r in kind.evaluate(bound_claim, below)] == [REPRODUCED] * 4
    above = context({n: (lambda r, n=n: BOUND[n] * 1.5 + r) for n in MU2})
    assert [r["verdict"] for r in kind.evaluate(bound_claim, above)] == [NOT_REPRODUCED] * 4
    # at T = 2·10^4 the bound at Δ = 1/40 is 2·(8 ln T·1600 + 4.29) ≈ 2.5·10^5 > T: vacuous
    short = context({n: (lambda r: 1.0 + r) for n in MU2}, horizon=2e4)
    verdicts = [r["verdict"] for r in kind.evaluate(bound_claim, short)]
    assert verdicts[0] == INCONCLUSIVE and verdicts[-1] == REPRODUCED
    out = decide(bound_claim, kind, context({n: (lambda r: 0.0) for n in MU2}))
    assert (out["can_reproduce"], out["can_refute"]) == (True, True)
