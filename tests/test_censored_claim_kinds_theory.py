"""Paper 001's exact and theory claim kinds (censored/claims/theory.py) on tiny hand-worked
instances: the printed censoring probability, Theorem 1 against Corollary 14, and Proposition 1's
coverage; each row a reader sees against numbers derived by hand from the paper's formulas (or
scipy.stats.binom), and the values their decidability witnesses put in place.

Instances: Indep arms, R ~ Beta(1, 1) (mean 1/2) and C ~ Exp(rate), no cost, so
P(C > τ) = e^{−rate·τ} and ν_τ = ½(1 − e^{−rate·τ}) − λ(τ)e^{−rate·τ}:
  quarter  one arm, rate ln 4, τ = 1, λ = 0: P(C > 1) = 1/4, ν* = ½·¾ = 0.375 (one pair)
  twins    two such arms: both pairs optimal
  ladder   one arm, rate ln 2, τ ∈ {1, 2, 3}, λ(x) = 0.1x: ν = 0.25 − 0.05, 0.375 − 0.05,
           0.4375 − 0.0375 = 0.2, 0.325, 0.4; Δ = 0.2, 0.075, 0."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from timebandits.censored.claims import CLAIM_KINDS
from timebandits.censored.claims.theory import bound_ratio
from timebandits.censored.model import problem_of
from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.decidability import derived
from timebandits.core.verdicts.vocabulary import INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED


def _env(rate, arms=1, grid=(1.0,), slope=0.0):
    return {
        "family": "beta_exponential",
        "beta_a": [1.0] * arms,
        "beta_b": [1.0] * arms,
        "rate": [rate] * arms,
        "grid": list(grid),
        "cost": {"slope": 0.0},
        "penalty": {"threshold": math.inf, "below": slope, "above": slope},
    }


PAPER = {
    "experiments": {
        name: {"environment": env, "algorithms": ["rcucb"]}
        for name, env in {
            "quarter": _env(math.log(4.0)),
            "twins": _env(math.log(4.0), arms=2),
            "ladder": _env(math.log(2.0), grid=(1.0, 2.0, 3.0), slope=0.1),
        }.items()
    },
    "algorithms": {"rcucb": {"label": "RCUCB", "params": {"alpha": 2.0}}},
}
CONFIG = {
    "base_seed": 7,
    "claims": {
        "alpha": 0.05,
        "bootstrap_samples": 400,
        "fragile_share": 0.1,
        "run_factors": [2, 4, 8, 16],
    },
}


def _frame(columns, ts):
    """A trace: each metric a (runs × checkpoints) table."""
    ts = np.asarray(ts, dtype=float)
    n = np.asarray(next(iter(columns.values()))).shape[0]
    return pd.DataFrame(
        {
            "repetition": np.repeat(np.arange(n), ts.size),
            "t": np.tile(ts, n),
            **{k: np.asarray(v, dtype=float).ravel() for k, v in columns.items()},
        }
    )


def _ctx(frames=None):
    return ClaimContext(paper=PAPER, config=CONFIG, trace_of=lambda e, a: frames[(e, a)])


def _rows(claim, ctx):
    kind = CLAIM_KINDS[claim["kind"]]
    kind.check(claim, PAPER)
    return kind.evaluate(claim, ctx)


# --------------------------------------------------------------------------- printed truth


def test_printed_truth_rows():
    claim = {
        "id": "X",
        "kind": "printed_truth",
        "values": {"quarter": 0.25, "twins": 0.3},
        "tolerance": 0.01,
    }
    assert _rows(claim, _ctx()) == [
        {
            "scope": "quarter",
            "verdict": REPRODUCED,
            "headline": "0.2500 vs printed 0.25 (±0.01)",
            "statistic": (
                "exact P(C > τ*) = 0.250000 at the optimal pair(s) arm 1, τ = 1.0000 "
                "(ν* = 0.375000); the paper prints 0.25; |difference| = 0, tolerance 0.01"
            ),
        },
        {
            "scope": "twins",
            "verdict": NOT_REPRODUCED,
            "headline": "0.2500 vs printed 0.3 (±0.01)",
            "statistic": (
                "exact P(C > τ*) = 0.250000 at the optimal pair(s) arm 1, τ = 1.0000; arm 2, "
                "τ = 1.0000 (ν* = 0.375000); the paper prints 0.3; |difference| = 0.05, "
                "tolerance 0.01"
            ),
        },
    ]


@pytest.mark.parametrize(
    "ours, expected",
    [
        (0.75, REPRODUCED),  # |0.75 − 0.5| = 0.25: exactly the tolerance, which is allowed
        (0.875, NOT_REPRODUCED),  # 0.375 > 0.25
        (math.nan, INCONCLUSIVE),
    ],
)
def test_printed_truth_at_the_tolerance(ours, expected):
    claim = {"id": "X", "kind": "printed_truth", "values": {"quarter": 0.5}, "tolerance": 0.25}
    ctx = derived(_ctx(), overrides={"truth quarter": lambda real: ours})
    [row] = _rows(claim, ctx)
    assert row["verdict"] == expected


def test_printed_truth_witnesses():
    claim = {"id": "X", "kind": "printed_truth", "values": {"quarter": 0.3}, "tolerance": 0.002}
    out = CLAIM_KINDS["printed_truth"].witnesses(claim, _ctx())
    assert set(out) == {"favourable", "unfavourable"}
    # at the printed value, or 10 tolerances above it; an undefined value stays undefined
    assert out["favourable"].quantity("truth quarter", lambda: 0.1) == pytest.approx(0.3)
    assert out["unfavourable"].quantity("truth quarter", lambda: 0.1) == pytest.approx(0.32)
    assert math.isnan(out["unfavourable"].quantity("truth quarter", lambda: math.nan))
    assert [_rows(claim, w)[0]["verdict"] for w in out.values()] == [REPRODUCED, NOT_REPRODUCED]


# --------------------------------------------------------------------------- Theorem 1 vs Cor. 14

GAPS, PENALTY, PENALTY_MAX = np.array([0.2, 0.075]), np.array([0.1, 0.2]), 0.3  # ladder, Δ > 0


def _by_hand(alpha, T):
    """Theorem 1: Σ_{Δ>0} Δ(8α(1+λ(τ))² ln T/Δ² + 1 + 8/ln((α+1)/2)·((α+1)/(α−1))²);
    Corollary 14: Σ_{Δ>0} Δ(2α(1+λ(τmax))² ln T/Δ² + 1 + 4/ln((α+1)/2)·((α+1)/(α−1))²)."""
    c = ((alpha + 1) / (alpha - 1)) ** 2 / math.log((alpha + 1) / 2)
    thm1 = np.sum(GAPS * (8 * alpha * (1 + PENALTY) ** 2 * math.log(T) / GAPS**2 + 1 + 8 * c))
    cor14 = np.sum(GAPS * (2 * alpha * (1 + PENALTY_MAX) ** 2 * math.log(T) / GAPS**2 + 1 + 4 * c))
    return thm1, cor14, thm1 / cor14


@pytest.mark.parametrize("alpha, T", [(2.0, 1000.0), (100.0, 1.0)])  # the second: Cor. 14 < 1
def test_bound_ratio_by_hand(alpha, T):
    problem = problem_of(PAPER, "ladder")
    np.testing.assert_allclose(problem.nu, [[0.2, 0.325, 0.4]], atol=1e-12)
    expected = _by_hand(alpha, T)
    assert bound_ratio(problem, alpha, T) == pytest.approx(expected, rel=1e-9)
    if T == 1.0:
        assert 0 < expected[1] < 1


def test_bound_ratio_undefined():
    # one pair: no Δ > 0, both sums empty (0/0); α = 1: both bounds void (+∞)
    thm1, cor14, ratio = bound_ratio(problem_of(PAPER, "quarter"), 2.0, 1000.0)
    assert (thm1, cor14) == (0.0, 0.0) and math.isnan(ratio)
    thm1, cor14, ratio = bound_ratio(problem_of(PAPER, "ladder"), 1.0, 1000.0)
    assert (thm1, cor14) == (math.inf, math.inf) and math.isnan(ratio)


def test_bound_ratio_row():
    claim = {
        "id": "X",
        "kind": "bound_ratio",
        "experiments": ["ladder"],
        "alphas": [2.0, 1.0],
        "horizon": 1000,
    }
    thm1, cor14, ratio = _by_hand(2.0, 1000.0)
    assert ratio > 1  # 8α(1+λ(τ))² against 2α(1+λ(τmax))²: Theorem 1 is the larger here
    assert _rows(claim, _ctx()) == [
        {
            "scope": "ladder α = 2",
            "verdict": NOT_REPRODUCED,
            "headline": f"Thm 1 / Cor 14 = {ratio:.3g}",
            "statistic": (
                f"at T = 1000: Theorem 1 {thm1:.4g}, Corollary 14 {cor14:.4g} (ratio "
                f"{ratio:.3g}; a void bound leaves it undefined); K = 3 limits"
            ),
        },
        {
            "scope": "ladder α = 1",
            "verdict": INCONCLUSIVE,
            "headline": "Thm 1 / Cor 14 = nan",
            "statistic": (
                "at T = 1000: Theorem 1 inf, Corollary 14 inf (ratio nan; a void bound leaves "
                "it undefined); K = 3 limits"
            ),
        },
    ]


@pytest.mark.parametrize(
    "ratio, expected", [(0.5, REPRODUCED), (1.0, NOT_REPRODUCED), (1.5, NOT_REPRODUCED)]
)
def test_bound_ratio_must_be_below_one(ratio, expected):
    claim = {
        "id": "X",
        "kind": "bound_ratio",
        "experiments": ["ladder"],
        "alphas": [2.0],
        "horizon": 1000,
    }
    [row] = _rows(claim, derived(_ctx(), overrides={"ratio ladder 2": lambda real: ratio}))
    assert row["verdict"] == expected


def test_bound_ratio_witnesses():
    claim = {
        "id": "X",
        "kind": "bound_ratio",
        "experiments": ["ladder"],
        "alphas": [2.0],
        "horizon": 1000,
    }
    out = CLAIM_KINDS["bound_ratio"].witnesses(claim, _ctx())
    assert set(out) == {"favourable", "unfavourable"}
    assert out["favourable"].quantity("ratio ladder 2", lambda: 7.0) == 0.5
    assert out["unfavourable"].quantity("ratio ladder 2", lambda: 7.0) == 2.0
    assert math.isnan(out["unfavourable"].quantity("ratio ladder 2", lambda: math.nan))


# --------------------------------------------------------------------------- coverage (Prop. 1)


def _prop1(t):
    """Prop. 1 at α = 2, capped at 1: 2(1 + ln t/ln 1.5)·t^{−4/3}."""
    return min(1.0, 2 * (1 + math.log(t) / math.log(1.5)) * t ** (-4 / 3))


TS = [9, 99, 999]
ABOVE = np.zeros((10, 3))
ABOVE[0, :2] = 1.0  # run 0 outside at t = 9, 99
ABOVE[1, 0] = 1.0  # run 1 at t = 9: 2/10, 1/10, 0/10 of (run, pair) at t = 9, 99, 999
COVERAGE = {
    "id": "X",
    "kind": "coverage",
    "experiments": ["quarter"],
    "algorithms": ["rcucb"],
    "from_t": 9,
}


def _coverage(above, below=None, ts=TS, exp="quarter"):
    below = np.zeros_like(above) if below is None else below
    return _ctx({(exp, "rcucb"): _frame({"above_conf": above, "below_conf": below}, ts)})


def test_coverage_rows():
    above_row, below_row = _rows(COVERAGE, _coverage(ABOVE))
    b = {t: _prop1(t + 1) for t in TS}
    assert b[9] == pytest.approx(0.620, abs=1e-3) and b[99] == pytest.approx(0.0532, abs=1e-4)
    # share − bound: 0.2 − 0.62, 0.1 − 0.053, 0 − 0.0036: only t = 99 is over, and its
    # P(X ≥ 1) is the smallest (t = 9: P(X ≥ 2 | 0.62) ≈ 0.99; t = 999: P(X ≥ 0) = 1)
    p = 1 - (1 - b[99]) ** 10  # P(X ≥ 1), X ~ Bin(10, b)
    assert p == pytest.approx(stats.binom.sf(0, 10, b[99]))
    assert p > 0.05  # 1 of 10 is over the bound, but not significantly
    p_family = min(1.0, 3 * p)  # Bonferroni over the 3 checkpoints
    assert {k: v for k, v in above_row.items() if k != "p_claimed"} == {
        "scope": "quarter RCUCB above",
        "verdict": INCONCLUSIVE,
        "headline": f"worst t = 99: 0.1 vs bound {b[99]:.2g}",
        "statistic": (
            "share of (run, pair) whose estimate after round t lies above ν ± 𝔠(t+1; α = 2), "
            "over 3 checkpoints t ≥ 9: largest 0.2; most significant at t = 99: 1/10 "
            f"against Prop. 1's {b[99]:.3g}; exact binomial P(X ≥ 1) = {p:.2g}, "
            f"× 3 checkpoints = {p_family:.2g}"
        ),
        "p_opposite": pytest.approx(p_family),
    }
    assert math.isnan(above_row["p_claimed"])
    # none below: closest where the bound is smallest, t = 999; P(X ≥ 0) = 1
    assert {k: v for k, v in below_row.items() if k != "p_claimed"} == {
        "scope": "quarter RCUCB below",
        "verdict": REPRODUCED,
        "headline": f"worst t = 999: 0 vs bound {b[999]:.2g}",
        "statistic": (
            "share of (run, pair) whose estimate after round t lies below ν ± 𝔠(t+1; α = 2), "
            "over 3 checkpoints t ≥ 9: largest 0; closest to the bound at t = 999: 0/10 "
            f"against Prop. 1's {b[999]:.3g}; exact binomial P(X ≥ 0) = 1, "
            "× 3 checkpoints = 1"
        ),
        "p_opposite": 1.0,
    }


def test_coverage_significant_excess():
    above = ABOVE.copy()
    above[:, 2] = 1.0  # every run outside at t = 999: 10/10 against 0.0036, P = b¹⁰ ≈ 0
    above_row, _ = _rows(COVERAGE, _coverage(above))
    assert above_row["verdict"] == NOT_REPRODUCED
    assert above_row["p_opposite"] == pytest.approx(3 * _prop1(1000) ** 10)  # × 3 checkpoints


def test_coverage_counts_every_checkpoint_it_picked_from():
    # 3/10 over a bound of 0.0532 at t = 99: P(X ≥ 3) = 0.0135 < 0.05 alone, but the checkpoint
    # was picked from 3: 3·0.0135 = 0.040 still < 0.05 -> not reproduced; from 30 checkpoints
    # t = 99..128, each with 3/10 over bounds of 0.053 down to 0.038 (smallest p at t = 128,
    # P(X ≥ 3 | 0.038) ≈ 0.005), 30·0.005 > 0.05 -> inconclusive
    above = np.zeros((10, 3))
    above[:3, 1] = 1.0
    p = stats.binom.sf(2, 10, _prop1(100))
    assert 0.01 < p < 0.05 / 3
    above_row, _ = _rows(COVERAGE, _coverage(above))
    assert above_row["verdict"] == NOT_REPRODUCED
    assert above_row["p_opposite"] == pytest.approx(3 * p)
    many = list(range(99, 129))
    above = np.zeros((10, 30))
    above[:3, :] = 1.0
    p_many = min(stats.binom.sf(2, 10, _prop1(t + 1)) for t in many)
    above_row, _ = _rows(COVERAGE, _coverage(above, ts=many))
    assert 30 * p_many > 0.05
    assert above_row["verdict"] == INCONCLUSIVE


def test_coverage_picks_the_most_significant_checkpoint_not_the_largest_excess():
    # t = 9: 9/10 over 0.62 (excess 0.28, P(X ≥ 9) ≈ 0.06); t = 999: 2/10 over 0.0036 (excess
    # 0.196, P(X ≥ 2) ≈ 45·0.0036² ≈ 5.7e-4). The smaller p decides: 2·5.7e-4 < 0.05
    above = np.zeros((10, 3))
    above[:9, 0] = 1.0
    above[:2, 2] = 1.0
    b9, b999 = _prop1(10), _prop1(1000)
    p9, p999 = stats.binom.sf(8, 10, b9), stats.binom.sf(1, 10, b999)
    assert 0.9 - b9 > 0.2 - b999 and p999 < p9 and 3 * p9 > 0.05 > 3 * p999
    above_row, _ = _rows(COVERAGE, _coverage(above))
    assert above_row["verdict"] == NOT_REPRODUCED
    assert above_row["headline"] == f"worst t = 999: 0.2 vs bound {b999:.2g}"
    assert above_row["p_opposite"] == pytest.approx(3 * p999)


def test_coverage_held_everywhere_shows_the_checkpoint_closest_to_its_bound():
    # 2/10 against 0.62 at t = 9 (0.42 below it), 0/10 against 0.053 at t = 99 (0.053 below):
    # every share holds; the headline shows t = 99, the closest
    above = np.zeros((10, 2))
    above[:2, 0] = 1.0
    above_row, _ = _rows(COVERAGE, _coverage(above, ts=[9, 99]))
    assert above_row["verdict"] == REPRODUCED
    assert above_row["headline"] == f"worst t = 99: 0 vs bound {_prop1(100):.2g}"


def test_coverage_share_equal_to_a_capped_bound_holds():
    # t = 1: Prop. 1 gives 2(1 + ln 2/ln 1.5)·2^{−4/3} = 2.15, capped at 1; every run outside
    above_row, _ = _rows({**COVERAGE, "from_t": 1}, _coverage(np.ones((10, 1)), ts=[1]))
    assert _prop1(2) == 1.0
    assert above_row["verdict"] == REPRODUCED
    assert above_row["headline"] == "worst t = 1: 1 vs bound 1"


def test_coverage_from_t_is_inclusive_and_warm_up_is_left_out():
    # from t = 99 on: t = 99 (1/10 over 0.053) still decides
    assert _rows({**COVERAGE, "from_t": 99}, _coverage(ABOVE))[0]["headline"].startswith(
        "worst t = 99:"
    )
    # run 0 undefined (NaN) at t = 9 only: that checkpoint is left out, the others stay
    above = ABOVE.copy()
    above[0, 0] = np.nan
    above_row, _ = _rows(COVERAGE, _coverage(above))
    assert above_row["headline"].startswith("worst t = 99: 0.1 vs bound")
    assert "over 2 checkpoints t ≥ 9: largest 0.1;" in above_row["statistic"]


def test_coverage_no_defined_checkpoint():
    above_row, below_row = _rows(COVERAGE, _coverage(np.full((10, 3), np.nan)))
    reason = "no checkpoint t ≥ 9 with defined counts"
    assert {k: v for k, v in above_row.items() if not k.startswith("p_")} == {
        "scope": "quarter RCUCB above",
        "verdict": INCONCLUSIVE,
        "headline": reason,
        "statistic": reason,
    }
    assert set(above_row) == {
        "scope",
        "verdict",
        "headline",
        "statistic",
        "p_claimed",
        "p_opposite",
    }
    assert math.isnan(above_row["p_claimed"]) and math.isnan(above_row["p_opposite"])
    assert below_row["scope"] == "quarter RCUCB below" and below_row["verdict"] == REPRODUCED


def test_coverage_witnesses():
    claim = {**COVERAGE, "experiments": ["ladder"]}
    above = np.zeros((4, 2))
    above[0, 0] = np.nan  # warm-up: stays undefined in every witness
    out = CLAIM_KINDS["coverage"].witnesses(
        claim, _coverage(above, np.zeros((4, 2)), ts=[9, 99], exp="ladder")
    )
    assert set(out) == {"favourable", "unfavourable"}
    for side, n in (("favourable", 0.0), ("unfavourable", 3.0)):  # ladder: 3 (arm, limit) pairs
        trace = out[side].trace("ladder", "rcucb")
        np.testing.assert_array_equal(trace["below_conf"], np.full(8, n))
        np.testing.assert_array_equal(trace["above_conf"], [np.nan] + [n] * 7)
