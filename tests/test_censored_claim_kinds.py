"""Paper 001's statistical claim kinds (censored/claims/censoring.py, spread.py, gaps.py) on tiny
hand-built instances and traces: the whole row a reader sees (scope, verdict, headline, statistic,
p-values), against numbers derived by hand, from closed forms or from scipy.stats, and the data
their decidability witnesses (core/verdicts/decidability.py) put in place of the real traces.

The instances are one-arm Indep environments (R ~ Beta(1, 1), C ~ Exp(rate), one limit τ = 1,
no cost, no penalty), so the exact censoring probability is P(C > 1) = e^{−rate}: 1/4 for
rate = ln 4 ("quarter"), 1/2 for rate = ln 2 ("half"), 3/4 for rate = ln(4/3) ("most")."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from timebandits.censored.analysis import censored_share, truth_of
from timebandits.censored.claims import CLAIM_KINDS
from timebandits.censored.claims.censoring import TOP_SHARE
from timebandits.core.sim.seeding import check_seed
from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.vocabulary import INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED

ALGS = ["rcucb", "ucb", "thompson"]


def _env(rate, arms=1, grid=(1.0,), below=0.0):
    return {
        "family": "beta_exponential",
        "beta_a": [1.0] * arms,
        "beta_b": [1.0] * arms,
        "rate": [rate] * arms,
        "grid": list(grid),
        "cost": {"slope": 0.0},
        "penalty": {"threshold": math.inf, "below": below, "above": below},
    }


PAPER = {
    "experiments": {
        name: {"environment": env, "algorithms": ALGS}
        for name, env in {
            "quarter": _env(math.log(4.0)),
            "half": _env(math.log(2.0)),
            "most": _env(math.log(4.0 / 3.0)),
        }.items()
    },
    "algorithms": {
        "rcucb": {"label": "RCUCB", "params": {"alpha": 2.0}},
        "ucb": {"label": "UCB"},
        "thompson": {"label": "TS"},
    },
}


def _frame(columns, ts):
    """A trace: each metric a (runs × checkpoints) table, or one final value per run reached
    linearly from 0."""
    ts = np.asarray(ts, dtype=float)
    out = {}
    for name, values in columns.items():
        values = np.asarray(values, dtype=float)
        out[name] = values if values.ndim == 2 else values[:, None] * ts[None, :] / ts[-1]
    n = next(iter(out.values())).shape[0]
    return pd.DataFrame(
        {
            "repetition": np.repeat(np.arange(n), ts.size),
            "t": np.tile(ts, n),
            **{k: v.ravel() for k, v in out.items()},
        }
    )


def _ctx(frames, alpha=0.05):
    config = {
        "base_seed": 7,
        "claims": {
            "alpha": alpha,
            "bootstrap_samples": 400,
            "fragile_share": 0.1,
            "run_factors": [2, 4, 8, 16],
        },
    }
    return ClaimContext(paper=PAPER, config=config, trace_of=lambda exp, alg: frames[(exp, alg)])


def _rows(claim, ctx):
    kind = CLAIM_KINDS[claim["kind"]]
    kind.check(claim, PAPER)
    return kind.evaluate(claim, ctx)


def _same(row, expected):
    """The row equals ``expected`` key by key (NaN equal to NaN, floats to 1e-9)."""
    assert set(row) == set(expected)
    for key, value in expected.items():
        if isinstance(value, float) and math.isnan(value):
            assert math.isnan(row[key]), key
        elif isinstance(value, float):
            assert row[key] == pytest.approx(value, rel=1e-9, abs=1e-12), key
        else:
            assert row[key] == value, key


def test_the_exact_truths_of_the_toy_instances():
    # P(C > 1) = e^{−rate}
    assert truth_of(PAPER, "quarter") == pytest.approx(0.25, abs=1e-12)
    assert truth_of(PAPER, "half") == pytest.approx(0.5, abs=1e-12)
    assert truth_of(PAPER, "most") == pytest.approx(0.75, abs=1e-12)


# --------------------------------------------------------------------------- censoring vs truth

SHARES = np.array([0.20, 0.24, 0.26, 0.30])  # mean 0.25; sd² = (.0025+.0001+.0001+.0025)/3


def _censored(shares, exp="quarter", alg="rcucb", horizon=100):
    return _ctx(
        {(exp, alg): _frame({"censored": np.asarray(shares) * horizon}, [horizon / 2, horizon])}
    )


def test_censoring_near_truth_row():
    claim = {
        "id": "X",
        "kind": "censoring_near_truth",
        "experiments": ["quarter"],
        "algorithms": ["rcucb"],
        "tolerance": 0.1,
    }
    [row] = _rows(claim, _censored(SHARES))
    # TOST against 0.25 ± 0.1: the mean sits in the middle, so both one-sided tests give the same p
    p_near = stats.ttest_1samp(SHARES, 0.35, alternative="less").pvalue
    assert p_near == pytest.approx(stats.ttest_1samp(SHARES, 0.15, alternative="greater").pvalue)
    p_far = stats.ttest_1samp(SHARES, 0.35, alternative="greater").pvalue
    assert p_near < 0.05
    _same(
        row,
        {
            "scope": "quarter RCUCB",
            "verdict": REPRODUCED,
            "headline": "0.2500 vs truth 0.2500 (±0.1)",
            "statistic": (
                "censored share 0.2500 (sd 0.0416 over 4 runs) vs exact P(C > τ*) = 0.2500; "
                f"equivalence margin ±0.1: TOST p = {p_near:.2g}, outside the margin "
                f"p = {p_far:.2g}"
            ),  # sd = sqrt(0.0052/3) = 0.04163
            "p_claimed": float(p_near),
            "p_opposite": float(p_far),
        },
    )


def test_censoring_above_truth_row():
    claim = {
        "id": "X",
        "kind": "censoring_above_truth",
        "experiments": ["quarter"],
        "algorithms": ["ucb"],
        "margin": 0.05,
    }
    shares = SHARES + 0.2  # mean 0.45 against 0.25 + 0.05
    [row] = _rows(claim, _censored(shares, alg="ucb"))
    p = stats.ttest_1samp(shares, 0.3, alternative="greater").pvalue
    p_below = stats.ttest_1samp(shares, 0.3, alternative="less").pvalue
    _same(
        row,
        {
            "scope": "quarter UCB",
            "verdict": REPRODUCED,
            "headline": "0.4500 vs truth 0.2500 (needs > truth + 0.05)",
            "statistic": (
                "censored share 0.4500 (sd 0.0416 over 4 runs) vs exact P(C > τ*) = 0.2500 + "
                f"margin 0.05: one-sided t-test p = {p:.2g}, below it p = {p_below:.2g}"
            ),
            "p_claimed": float(p),
            "p_opposite": float(p_below),
        },
    )


@pytest.mark.parametrize("share, expected", [(0.45, REPRODUCED), (0.2, NOT_REPRODUCED)])
def test_censoring_above_truth_without_spread(share, expected):
    # every run alike: the t-test's p is 0 or 1 by the side of 0.25 + 0.05 the share is on
    claim = {
        "id": "X",
        "kind": "censoring_above_truth",
        "experiments": ["quarter"],
        "algorithms": ["ucb"],
        "margin": 0.05,
    }
    [row] = _rows(claim, _censored(np.full(4, share), alg="ucb"))
    assert row["verdict"] == expected


def test_censoring_above_truth_at_the_threshold_is_undecided():
    # mean share 0.3 = 0.25 + 0.05 (to rounding): t ≈ 0, both one-sided p ≈ 1/2
    claim = {
        "id": "X",
        "kind": "censoring_above_truth",
        "experiments": ["quarter"],
        "algorithms": ["ucb"],
        "margin": 0.05,
    }
    [row] = _rows(claim, _censored([0.28, 0.29, 0.31, 0.32], alg="ucb"))
    assert row["verdict"] == INCONCLUSIVE
    assert row["p_claimed"] == pytest.approx(0.5) and row["p_opposite"] == pytest.approx(0.5)


def _witness_share(witness, exp, alg="rcucb"):
    return censored_share(witness.trace(exp, alg)).mean()


@pytest.mark.parametrize(
    "exp, tolerance, far",
    [
        ("quarter", 0.1, TOP_SHARE),  # truth 1/4 ≤ 1/2: the far end is the top share 1/1.01
        ("half", 0.1, TOP_SHARE),  # truth exactly 1/2: still the top end
        ("most", 0.1, 0.0),  # truth 3/4 > 1/2: the far end is 0
        ("quarter", 0.8, None),  # |1/1.01 − 1/4| = 0.74 ≤ 0.8: no refuting witness
        ("most", "truth", None),  # |0 − 3/4| equals the tolerance: not *more* than it
    ],
)
def test_censoring_near_truth_witnesses(exp, tolerance, far):
    tol = truth_of(PAPER, exp) if tolerance == "truth" else tolerance
    claim = {
        "id": "X",
        "kind": "censoring_near_truth",
        "experiments": [exp],
        "algorithms": ["rcucb"],
        "tolerance": tol,
    }
    out = CLAIM_KINDS[claim["kind"]].witnesses(claim, _censored(SHARES, exp=exp))
    assert set(out) == ({"favourable"} if far is None else {"favourable", "unfavourable"})
    assert _witness_share(out["favourable"], exp) == pytest.approx(truth_of(PAPER, exp))
    if far is not None:
        assert _witness_share(out["unfavourable"], exp) == pytest.approx(far, abs=1e-12)


@pytest.mark.parametrize(
    "margin, sides",
    [
        (0.05, {"favourable", "unfavourable"}),  # 1/1.01 > 0.25 + 0.05
        (0.8, {"unfavourable"}),  # 1/1.01 < 1.05: no share can be above
        ("top", {"unfavourable"}),  # 0.25 + margin = 1/1.01 exactly: not above it
    ],
)
def test_censoring_above_truth_witnesses(margin, sides):
    if margin == "top":
        margin = TOP_SHARE - 0.25
        assert 0.25 + margin == TOP_SHARE
    claim = {
        "id": "X",
        "kind": "censoring_above_truth",
        "experiments": ["quarter"],
        "algorithms": ["rcucb"],
        "margin": margin,
    }
    out = CLAIM_KINDS[claim["kind"]].witnesses(claim, _censored(SHARES))
    assert set(out) == sides
    assert _witness_share(out["unfavourable"], "quarter") == pytest.approx(0.25)
    if "favourable" in out:
        assert _witness_share(out["favourable"], "quarter") == pytest.approx(TOP_SHARE)


# --------------------------------------------------------------------------- larger spread

SPREAD_CLAIM = {
    "id": "X",
    "kind": "larger_spread",
    "experiments": ["quarter"],
    "algorithm": "thompson",
    "rivals": ["rcucb"],
    "metric": "regret",
}
X = np.arange(1.0, 11.0)  # sd (ddof 1) = sqrt(82.5/9) = 3.0277


def _spread_ctx(ours, theirs):
    return _ctx(
        {
            ("quarter", "thompson"): _frame({"regret": ours}, [50, 100]),
            ("quarter", "rcucb"): _frame({"regret": theirs}, [50, 100]),
        }
    )


@pytest.mark.parametrize(
    "ours, theirs, verdict, sds, p",
    [
        # TS's runs 1.02 × RCUCB's: every resample's log sd ratio is ln 1.02 > 0 (a resample with
        # one repeated value, probability 10·10⁻¹⁰, is the only exception): p = 0, opposite p = 1
        (1.02 * X, X, REPRODUCED, ("3.088", "3.028", "1.02"), (0.0, 1.0)),
        (X, 1.02 * X, NOT_REPRODUCED, ("3.028", "3.088", "0.98"), (1.0, 0.0)),
        # the same runs: every ratio is exactly 0, on neither side
        (X, X, INCONCLUSIVE, ("3.028", "3.028", "1"), (1.0, 1.0)),
    ],
)
def test_larger_spread_row(ours, theirs, verdict, sds, p):
    [row] = _rows(SPREAD_CLAIM, _spread_ctx(ours, theirs))
    _same(
        row,
        {
            "scope": "quarter TS vs RCUCB",
            "verdict": verdict,
            "headline": f"sd {sds[0]} vs {sds[1]}",
            "statistic": (
                f"run-to-run sd of regret at T: TS {sds[0]} vs RCUCB {sds[1]} (ratio {sds[2]}); "
                f"paired bootstrap of the log ratio, p = {p[0]:.2g}"
            ),
            "p_claimed": p[0],
            "p_opposite": p[1],
        },
    )


def test_larger_spread_bootstrap_is_the_documented_one():
    """The p-value is the share of the paired resamples (seeded by check_seed(base_seed,
    "censored", claim id), ``bootstrap_samples`` of them) whose log sd ratio is not above 0;
    re-derived here step by step on runs whose spreads are close."""
    rng = np.random.default_rng(5)
    ours, theirs = rng.normal(0, 1.1, 8), rng.normal(0, 1.0, 8)
    [row] = _rows(SPREAD_CLAIM, _spread_ctx(ours, theirs))
    boot = np.random.default_rng(check_seed(7, "censored", "X"))
    idx = boot.integers(0, 8, size=(400, 8))
    log_ratio = np.log(ours[idx].std(axis=1, ddof=1)) - np.log(theirs[idx].std(axis=1, ddof=1))
    expected = np.mean(log_ratio <= 0)
    assert 0.05 < expected < 0.95  # an undecided case, where the resamples matter
    assert row["p_claimed"] == expected
    assert row["p_opposite"] == np.mean(log_ratio >= 0)


def test_larger_spread_undefined_ratio_is_quiet():
    # both spreads 0: log 0 − log 0 is undefined; the kind says so without a numpy warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        [row] = _rows(SPREAD_CLAIM, _spread_ctx(np.full(5, 3.0), np.full(5, 3.0)))
    assert row["verdict"] == INCONCLUSIVE
    assert row["headline"] == "sd 0 vs 0" and row["p_claimed"] == 1


def test_larger_spread_witnesses():
    claim = {**SPREAD_CLAIM, "rivals": ["rcucb", "ucb"]}
    ctx = _ctx(
        {
            ("quarter", "thompson"): _frame({"regret": np.full(5, 10.0)}, [50, 100]),
            ("quarter", "rcucb"): _frame({"regret": np.full(5, 40.0)}, [50, 100]),
            ("quarter", "ucb"): _frame({"regret": np.full(5, -20.0)}, [50, 100]),
        }
    )
    out = CLAIM_KINDS["larger_spread"].witnesses(claim, ctx)
    assert set(out) == {"favourable", "unfavourable"}
    z = np.linspace(-1.0, 1.0, 5)  # the runs' places; scale s = max |mean R_T| = 40
    for side, wide, narrow in (("favourable", 0.5, 0.05), ("unfavourable", 0.05, 0.5)):
        w = out[side]
        np.testing.assert_allclose(
            w.at("quarter", "thompson", "regret").to_numpy().T,
            np.outer(1.0 + wide * z, [20.0, 40.0]),
        )
        for rival in ("rcucb", "ucb"):
            np.testing.assert_allclose(
                w.at("quarter", rival, "regret").to_numpy().T,
                np.outer(1.0 + narrow * z, [20.0, 40.0]),
            )


# --------------------------------------------------------------------------- relative gaps

GAP_CLAIM = {
    "id": "X",
    "kind": "relative_gap_order",
    "pairs": [["quarter", "half"]],
    "baselines": ["thompson"],
}


def _gap_ctx(first, second, n=(5, 7)):
    """RCUCB's regret ``first`` (``second``) × the baseline's 1..n on "quarter" ("half"): a
    scaling by a power of 2 keeps 1 − mean(ours)/mean(theirs) exact in every resample."""
    frames = {}
    for exp, factor, runs in (("quarter", first, n[0]), ("half", second, n[1])):
        base = np.arange(1.0, runs + 1.0)
        frames[(exp, "thompson")] = _frame({"regret": base}, [50, 100])
        frames[(exp, "rcucb")] = _frame({"regret": factor * base}, [50, 100])
    return _ctx(frames)


@pytest.mark.parametrize(
    "first, second, verdict, p",
    [
        (0.25, 0.5, REPRODUCED, (0.0, 1.0)),  # advantages 0.75 vs 0.5: difference 0.25 always
        (0.5, 0.25, NOT_REPRODUCED, (1.0, 0.0)),  # 0.5 vs 0.75: −0.25 always
        (0.5, 0.5, INCONCLUSIVE, (1.0, 1.0)),  # equal: exactly 0, on neither side
    ],
)
def test_relative_gap_order_row(first, second, verdict, p):
    [row] = _rows(GAP_CLAIM, _gap_ctx(first, second))
    a, b = 1 - first, 1 - second
    _same(
        row,
        {
            "scope": "quarter > half vs TS",
            "verdict": verdict,
            "headline": f"advantage {a:.3f} vs {b:.3f}",
            "statistic": (
                f"RCUCB's relative advantage 1 − R_T(RCUCB)/R_T(TS): {a:.3f} on quarter vs "
                f"{b:.3f} on half; bootstrap difference 95% CI [{a - b:.3f}, {a - b:.3f}], "
                f"p = {p[0]:.2g} (400 resamples)"
            ),
            "p_claimed": p[0],
            "p_opposite": p[1],
        },
    )


def test_relative_gap_bootstrap_is_the_documented_one():
    """Independent resamples of each experiment's runs (seeded by check_seed(base_seed,
    "censored", claim id), first experiment first), re-derived step by step."""
    rng = np.random.default_rng(11)
    runs = {"quarter": 6, "half": 9}
    data = {e: (100 + rng.normal(0, 15, n), 110 + rng.normal(0, 15, n)) for e, n in runs.items()}
    frames = {
        (e, alg): _frame({"regret": v}, [50, 100])
        for e, (ours, theirs) in data.items()
        for alg, v in (("rcucb", ours), ("thompson", theirs))
    }
    [row] = _rows(GAP_CLAIM, _ctx(frames))
    boot = np.random.default_rng(check_seed(7, "censored", "X"))
    idx = [boot.integers(0, n, size=(400, n)) for n in runs.values()]
    gap = [1 - data[e][0][i].mean(axis=1) / data[e][1][i].mean(axis=1) for e, i in zip(runs, idx)]
    diff = gap[0] - gap[1]
    assert 0.05 < np.mean(diff <= 0) < 0.95
    assert row["p_claimed"] == np.mean(diff <= 0)
    assert row["p_opposite"] == np.mean(diff >= 0)
    low, high = np.quantile(diff, [0.025, 0.975])
    assert f"95% CI [{low:.3f}, {high:.3f}]" in row["statistic"]


@pytest.mark.parametrize(
    "ours, verdicts",
    [
        (0.0, [INCONCLUSIVE, INCONCLUSIVE]),  # 1 − 0/0 on both: undefined, no evidence
        (1.0, [NOT_REPRODUCED, NOT_REPRODUCED]),  # 1 − 1/0 = −∞ on quarter: RCUCB infinitely behind
    ],
)
def test_undefined_gaps_are_quiet(ours, verdicts):
    # the baseline's regret 0 on quarter; on half RCUCB's 0 (or 1) against 2; no numpy warning
    frames = {
        ("quarter", "rcucb"): ours,
        ("quarter", "thompson"): 0.0,
        ("half", "rcucb"): ours,
        ("half", "thompson"): 2.0 if ours else 0.0,
    }
    frames = {k: _frame({"regret": np.full(4, v)}, [50, 100]) for k, v in frames.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rows = _rows({**GAP_CLAIM, "kind": "superiority_grows"}, _ctx(frames))
    assert [r["verdict"] for r in rows] == verdicts
    if ours == 0.0:
        assert "95% CI [nan, nan]" in rows[0]["statistic"]
        assert rows[1]["headline"] == "advantage nan"  # equal runs: t-test p = 1/2
        assert rows[1]["p_claimed"] == 0.5
    else:
        assert rows[0]["headline"] == "advantage -inf vs 0.500" and rows[0]["p_claimed"] == 1
        assert rows[1]["headline"] == "advantage -inf" and rows[1]["p_claimed"] == 1


def test_relative_gap_order_of_two_infinite_gaps_is_quiet():
    # the baseline's regret 0 and RCUCB's 1 on both experiments: both gaps 1 − 1/0 = −∞, their
    # difference undefined (no numpy warning): no evidence either way
    frames = {
        (e, a): _frame({"regret": np.full(4, v)}, [50, 100])
        for e in ("quarter", "half")
        for a, v in (("rcucb", 1.0), ("thompson", 0.0))
    }
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        [row] = _rows(GAP_CLAIM, _ctx(frames))
    assert row["verdict"] == INCONCLUSIVE
    assert "95% CI [nan, nan]" in row["statistic"]


def test_superiority_ahead_row():
    ours, theirs = np.array([1.0, 2.0, 3.0, 4.0]), np.array([2.0, 2.0, 5.0, 6.0])
    frames = {(e, "rcucb"): _frame({"regret": ours}, [50, 100]) for e in ("quarter", "half")}
    frames.update(
        {(e, "thompson"): _frame({"regret": theirs}, [50, 100]) for e in ("quarter", "half")}
    )
    rows = _rows({**GAP_CLAIM, "kind": "superiority_grows"}, _ctx(frames))
    assert len(rows) == 2  # the gap order, and RCUCB ahead on the first experiment only
    test = stats.ttest_rel(theirs, ours, alternative="greater")  # differences 1, 0, 2, 2
    assert test.pvalue == pytest.approx(0.0398, abs=1e-4)
    _same(
        rows[1],
        {
            "scope": "RCUCB ahead of TS on quarter",
            "verdict": REPRODUCED,
            "headline": "advantage 0.333",  # 1 − 2.5/3.75 = 1/3
            "statistic": (
                f"R_T: RCUCB 2.5 vs TS 3.75 (relative advantage 0.333); 3/4 runs lower; "
                f"paired t = {test.statistic:.2f}, p = {test.pvalue:.2g}"
            ),
            "p_claimed": float(test.pvalue),
            "p_opposite": float(1 - test.pvalue),
        },
    )


def test_gap_witnesses():
    claim = {**GAP_CLAIM, "pairs": [["quarter", "half"], ["most", "quarter"]]}
    frames = {
        (e, alg): _frame({"regret": np.full(3, 8.0 if alg == "rcucb" else 4.0)}, [50, 100])
        for e in ("quarter", "half", "most")
        for alg in ("rcucb", "thompson")
    }
    out = CLAIM_KINDS["relative_gap_order"].witnesses(claim, _ctx(frames))
    assert set(out) == {"favourable", "unfavourable"}
    # places half 0, quarter 1, most 2; advantage ±(place + 1)/(2 + 2); scale 8
    for side, sign in (("favourable", 1), ("unfavourable", -1)):
        for exp, place in (("half", 0), ("quarter", 1), ("most", 2)):
            a = sign * (place + 1) / 4
            assert out[side].final(exp, "rcucb", "regret").mean() == pytest.approx(8.0)
            assert out[side].final(exp, "thompson", "regret").mean() == pytest.approx(8.0 / (1 - a))
