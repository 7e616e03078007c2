"""core/verdicts/stats.py: summaries per checkpoint, the paired one-sided t-test and the bootstrap
CI.

Every expectation is computed by hand in the comments (or against scipy's reference test)."""

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats as st

from timebandits.core.verdicts.stats import (
    QUANTILES,
    bootstrap_ci,
    equivalence_test,
    one_sided_t,
    paired_one_sided,
    summarise_trace,
)

# --------------------------------------------------------------------------- summarise_trace


@pytest.fixture
def tiny_trace():
    # 3 repetitions x 2 checkpoints, metrics x and y; rows deliberately not sorted.
    #   x at t=1: [1, 2, 3]     x at t=2: [2, 4, 9]
    #   y at t=1: [10, 10, 10]  y at t=2: [0, 0, 3]
    return pd.DataFrame(
        {
            "repetition": [2, 0, 1, 0, 1, 2],
            "t": [1, 1, 1, 2, 2, 2],
            "x": [3, 1, 2, 2, 4, 9],
            "y": [10.0, 10.0, 10.0, 0.0, 0.0, 3.0],
        }
    )


def _row(summary, metric, t):
    sel = summary[(summary["metric"] == metric) & (summary["t"] == t)]
    assert len(sel) == 1
    return sel.iloc[0]


def test_summarise_trace_columns_and_rows(tiny_trace):
    s = summarise_trace(tiny_trace)
    assert list(s.columns) == [
        "metric",
        "t",
        "n",
        "mean",
        "min",
        "max",
        "se",
        "q05",
        "q25",
        "q50",
        "q75",
        "q95",
    ]
    # one row per (metric, t), sorted by metric then t
    assert list(zip(s["metric"], s["t"])) == [("x", 1), ("x", 2), ("y", 1), ("y", 2)]
    assert (s["n"] == 3).all()


def test_summarise_trace_values_by_hand(tiny_trace):
    s = summarise_trace(tiny_trace)
    # x at t=1, [1, 2, 3]: mean 2, sample sd (ddof=1) 1, se = 1/sqrt(3) = 0.57735.
    # Quantiles, linear interpolation at position (n-1) q = 2q of the sorted values:
    # q05 -> 1 + 0.1 = 1.1, q25 -> 1.5, q50 -> 2, q75 -> 2.5, q95 -> 1.9 -> 2.9.
    r = _row(s, "x", 1)
    assert r["mean"] == pytest.approx(2.0)
    assert r["se"] == pytest.approx(1 / math.sqrt(3))
    assert (r["min"], r["max"]) == (1, 3)
    assert [r[f"q{int(round(q * 100)):02d}"] for q in QUANTILES] == pytest.approx(
        [1.1, 1.5, 2.0, 2.5, 2.9]
    )

    # x at t=2, [2, 4, 9]: mean 5, deviations -3, -1, 4, sum of squares 26.
    # ddof=1: var 13, se = sqrt(13)/sqrt(3) = 2.08167
    # (ddof=0 would give sqrt(26/3)/sqrt(3) = 1.6997).
    # Quantiles at 2q: q05 -> 0.1 -> 2.2, q25 -> 0.5 -> 3, q50 -> 4, q75 -> 1.5 -> 6.5,
    # q95 -> 1.9 -> 8.5.
    r = _row(s, "x", 2)
    assert r["mean"] == pytest.approx(5.0)
    assert r["se"] == pytest.approx(math.sqrt(13) / math.sqrt(3))
    assert r["se"] != pytest.approx(math.sqrt(26 / 3) / math.sqrt(3))
    assert (r["min"], r["max"]) == (2, 9)
    assert [r["q05"], r["q25"], r["q50"], r["q75"], r["q95"]] == pytest.approx(
        [2.2, 3.0, 4.0, 6.5, 8.5]
    )

    # y at t=1, constant 10: se 0, every quantile 10.
    r = _row(s, "y", 1)
    assert (r["mean"], r["se"], r["q05"], r["q95"]) == (10.0, 0.0, 10.0, 10.0)
    # y at t=2, [0, 0, 3]: mean 1, ss = 1 + 1 + 4 = 6, var 3, se = sqrt(3)/sqrt(3) = 1.
    r = _row(s, "y", 2)
    assert r["mean"] == pytest.approx(1.0)
    assert r["se"] == pytest.approx(1.0)


def test_summarise_trace_metric_subset(tiny_trace):
    s = summarise_trace(tiny_trace, metrics=["y"])
    assert set(s["metric"]) == {"y"}
    assert len(s) == 2


def test_summarise_trace_single_repetition_has_zero_se():
    # Current convention: one repetition gives std NaN, reported as se 0 (not NaN).
    trace = pd.DataFrame({"repetition": [0, 0], "t": [1, 2], "x": [5.0, 7.0]})
    s = summarise_trace(trace)
    assert list(s["n"]) == [1, 1]
    assert list(s["se"]) == [0.0, 0.0]
    assert list(s["mean"]) == [5.0, 7.0]


# --------------------------------------------------------------------------- paired_one_sided


def test_paired_one_sided_hand_example():
    lower = np.array([1.0, 2.0, 3.0, 4.0])
    higher = np.array([2.0, 4.0, 5.0, 7.0])
    # diff = higher - lower = [1, 2, 2, 3]: mean 2, deviations -1, 0, 0, 1, ss 2,
    # var (ddof=1) 2/3, sd 0.81650, se = sd/2 = 0.40825, t = 2/0.40825 = 4.89898, df 3.
    out = paired_one_sided(lower, higher)
    assert out["n"] == 4
    assert out["mean_diff"] == pytest.approx(2.0)
    assert out["se_diff"] == pytest.approx(math.sqrt(2 / 3) / 2)
    assert out["t"] == pytest.approx(2 / (math.sqrt(2 / 3) / 2))
    assert out["t"] == pytest.approx(4.898979, rel=1e-6)
    # one-sided p of H1 E[lower] < E[higher], i.e. E[higher - lower] > 0: P(T_3 > 4.899) = 0.00815
    ref_greater = st.ttest_rel(higher, lower, alternative="greater")
    ref_less = st.ttest_rel(higher, lower, alternative="less")
    assert out["t"] == pytest.approx(ref_greater.statistic)
    assert out["p_claimed"] == pytest.approx(ref_greater.pvalue)
    assert out["p_opposite"] == pytest.approx(ref_less.pvalue)
    assert out["p_claimed"] == pytest.approx(0.008152, abs=2e-5)
    assert out["p_claimed"] + out["p_opposite"] == pytest.approx(1.0)


def test_paired_one_sided_wrong_direction_matches_scipy():
    rng = np.random.default_rng(3)
    lower = rng.normal(1.0, 1.0, size=12)
    higher = lower - 0.5 + rng.normal(0.0, 0.3, size=12)  # "lower" is actually higher
    out = paired_one_sided(lower, higher)
    assert out["t"] < 0
    assert out["p_claimed"] == pytest.approx(
        st.ttest_rel(higher, lower, alternative="greater").pvalue
    )
    assert out["p_opposite"] == pytest.approx(
        st.ttest_rel(higher, lower, alternative="less").pvalue
    )
    assert out["p_opposite"] < 0.05 < out["p_claimed"]


@pytest.mark.parametrize(
    "shift, t, p_claimed, p_opposite",
    [
        (1.0, math.inf, 0.0, 1.0),  # higher - lower = +1 in every pair: certain in the claimed way
        (-1.0, -math.inf, 1.0, 0.0),  # -1 in every pair: certain the other way
        (0.0, 0.0, 0.5, 0.5),  # identical samples: no evidence either way
    ],
)
def test_paired_one_sided_zero_variance(shift, t, p_claimed, p_opposite):
    lower = np.array([3.0, 5.0, 8.0])
    out = paired_one_sided(lower, lower + shift)
    assert out["se_diff"] == 0.0
    assert out["mean_diff"] == pytest.approx(shift)
    assert out["t"] == t
    assert (out["p_claimed"], out["p_opposite"]) == (p_claimed, p_opposite)


def test_paired_one_sided_n_below_two_is_nan():
    out = paired_one_sided([1.0], [2.0])
    assert out["n"] == 1
    assert out["mean_diff"] == 1.0
    for key in ("se_diff", "t", "p_claimed", "p_opposite"):
        assert math.isnan(out[key]), key
    empty = paired_one_sided([], [])
    assert empty["n"] == 0
    assert math.isnan(empty["mean_diff"]) and math.isnan(empty["p_claimed"])


def test_paired_one_sided_shape_mismatch():
    with pytest.raises(ValueError):
        paired_one_sided([1.0, 2.0], [1.0, 2.0, 3.0])


# --------------------------------------------------------------------------- bootstrap_ci


def test_bootstrap_ci_reproducible_and_seed_dependent():
    values = np.random.default_rng(0).normal(size=30)
    a = bootstrap_ci(values, np.mean, n_boot=1000, seed=7)
    b = bootstrap_ci(values, np.mean, n_boot=1000, seed=7)
    c = bootstrap_ci(values, np.mean, n_boot=1000, seed=8)
    assert a == b
    assert a[0] == c[0]  # the estimate does not depend on the seed
    assert (a[1], a[2]) != (c[1], c[2])


def test_bootstrap_ci_contains_estimate_of_mean():
    values = np.array([1.0, 2.0, 3.0, 4.0, 10.0])
    est, low, high = bootstrap_ci(values, np.mean, n_boot=2000)
    assert est == pytest.approx(4.0)  # (1+2+3+4+10)/5
    assert low < est < high
    # a resampled mean lies within [min, max] of the data
    assert 1.0 <= low and high <= 10.0


def test_bootstrap_ci_shrinks_with_more_data():
    rng = np.random.default_rng(1)
    small = rng.normal(size=20)
    large = rng.normal(size=2000)
    _, lo_s, hi_s = bootstrap_ci(small, np.mean, n_boot=1000)
    _, lo_l, hi_l = bootstrap_ci(large, np.mean, n_boot=1000)
    # width ~ 2 * 1.96 / sqrt(n): 0.88 for n = 20, 0.088 for n = 2000 (ratio 10)
    assert (hi_l - lo_l) < (hi_s - lo_s) / 4
    assert (hi_l - lo_l) == pytest.approx(2 * 1.96 / math.sqrt(2000), rel=0.25)


def test_bootstrap_ci_level_narrows_interval():
    values = np.random.default_rng(2).normal(size=50)
    _, lo95, hi95 = bootstrap_ci(values, np.mean, level=0.95, n_boot=1000)
    _, lo50, hi50 = bootstrap_ci(values, np.mean, level=0.50, n_boot=1000)
    assert lo95 < lo50 < hi50 < hi95


def test_bootstrap_ci_resamples_rows_jointly():
    # Rows are repetitions; columns are resampled together. Column 1 = 2 x column 0, so the ratio of
    # column means is exactly 2 in every resample and the CI collapses to (2, 2).
    x = np.arange(1.0, 11.0)
    values = np.column_stack([2 * x, x])
    est, low, high = bootstrap_ci(values, lambda v: v[:, 0].mean() / v[:, 1].mean(), n_boot=300)
    assert (est, low, high) == pytest.approx((2.0, 2.0, 2.0))


def test_a_batched_statistic_gives_the_resample_by_resample_interval():
    # Same resamples, one call: the batched ratio of column means equals the per-resample one
    # (to rounding: a batch may sum in another order).
    values = np.random.default_rng(3).gamma(2.0, size=(40, 2))
    one = bootstrap_ci(values, lambda v: v[:, 0].mean() / v[:, 1].mean(), n_boot=500, seed=4)
    batch = bootstrap_ci(
        values,
        lambda v: v[..., 0].mean(axis=-1) / v[..., 1].mean(axis=-1),
        n_boot=500,
        seed=4,
        batched=True,
    )
    assert batch == pytest.approx(one, rel=1e-12)
    assert one[1] < one[0] < one[2]


def test_bootstrap_ci_single_value_has_no_interval():
    est, low, high = bootstrap_ci(np.array([3.0]), np.mean)
    assert est == 3.0
    assert math.isnan(low) and math.isnan(high)


# ---- one-sided t and TOST against scipy ----------------------------------------------------------


def _sample(seed: int, n: int = 12) -> np.ndarray:
    return np.random.default_rng(seed).normal(0.3, 1.0, size=n)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("below", [True, False])
def test_one_sided_t_is_scipys_one_sample_t_test(seed, below):
    """On data where p lies between 0.01 and 0.3 (so the standard error, ddof = 1, decides it):
    the threshold 1.2 standard errors past the mean gives t = ∓1.2 on 11 degrees of freedom."""
    values = _sample(seed)
    se = values.std(ddof=1) / math.sqrt(values.size)
    threshold = values.mean() + (1.2 if below else -1.2) * se
    reference = st.ttest_1samp(values, threshold, alternative="less" if below else "greater").pvalue
    assert 0.01 < reference < 0.3
    assert one_sided_t(values, threshold, below) == pytest.approx(reference, rel=1e-10)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize(
    "offset, margin, deciding", [(0.3, 2.5, "p_claimed"), (2.5, 1.2, "p_opposite")]
)
def test_equivalence_test_is_two_one_sided_scipy_tests(seed, offset, margin, deciding):
    """TOST: p_claimed is the larger of scipy's p for "mean < upper" and "mean > lower", and
    p_opposite the smaller of "mean > upper" and "mean < lower". The centre lies ``offset``
    standard errors above the mean, the edges ``margin`` s.e. from it: inside, p_claimed is
    about 0.02; outside, p_opposite about 0.11, both where the standard error decides them."""
    values = _sample(seed)
    se = values.std(ddof=1) / math.sqrt(values.size)
    center, half = values.mean() + offset * se, margin * se

    def p(threshold, alternative):
        return st.ttest_1samp(values, threshold, alternative=alternative).pvalue

    upper, lower = center + half, center - half
    expected = {
        "p_claimed": max(p(upper, "less"), p(lower, "greater")),
        "p_opposite": min(p(upper, "greater"), p(lower, "less")),
    }
    assert 0.01 < expected[deciding] < 0.3
    result = equivalence_test(values, center, half)
    assert result == pytest.approx(expected, rel=1e-10)


# ---- edge cases the verdicts depend on -----------------------------------------------------------


def test_summarise_trace_sorts_by_metric_then_t_whatever_the_input_order():
    # t given in descending order and the metrics asked for as ["y", "x"]: the summary is still
    # sorted by metric, then t.
    trace = pd.DataFrame(
        {
            "repetition": [0, 1, 0, 1],
            "t": [2, 2, 1, 1],
            "x": [1.0, 2.0, 3.0, 4.0],
            "y": [5.0, 6.0, 7.0, 8.0],
        }
    )
    s = summarise_trace(trace, metrics=["y", "x"])
    assert list(zip(s["metric"], s["t"])) == [("x", 1), ("x", 2), ("y", 1), ("y", 2)]
    assert list(s["mean"]) == [3.5, 1.5, 7.5, 5.5]  # (3+4)/2, (1+2)/2, (7+8)/2, (5+6)/2


def test_paired_one_sided_two_pairs():
    # diff = [3, 5] - [1, 2] = [2, 3]: mean 2.5, deviations ±0.5, var (ddof 1) 0.5,
    # se = sqrt(0.5)/sqrt(2) = 0.5, t = 5 on 1 degree of freedom (a Cauchy):
    # P(T_1 > 5) = 1/2 - atan(5)/π = 0.062833.
    out = paired_one_sided([1.0, 2.0], [3.0, 5.0])
    assert (out["n"], out["mean_diff"], out["se_diff"], out["t"]) == (2, 2.5, 0.5, 5.0)
    assert out["p_claimed"] == pytest.approx(0.5 - math.atan(5.0) / math.pi, rel=1e-12)
    assert out["p_opposite"] == pytest.approx(0.5 + math.atan(5.0) / math.pi, rel=1e-12)


@pytest.mark.parametrize("lower, higher", [([1.0], [2.0]), ([], [])])
def test_paired_one_sided_below_two_pairs_does_not_warn(lower, higher):
    # no mean of an empty sample, no standard deviation of one value: NaN without a RuntimeWarning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = paired_one_sided(lower, higher)
    assert math.isnan(out["se_diff"]) and math.isnan(out["p_claimed"])


@pytest.mark.parametrize(
    "lower, higher", [([None, 1.0, 2.0], [1.0, 2.0, 4.0]), ([1.0, 2.0, 4.0], [None, 1.0, 2.0])]
)
def test_paired_one_sided_undefined_values_give_nan(lower, higher):
    # an undefined run (None) makes the mean and the test undefined, not a TypeError
    out = paired_one_sided(lower, higher)
    assert out["n"] == 3
    for key in ("mean_diff", "se_diff", "t", "p_claimed", "p_opposite"):
        assert math.isnan(out[key]), key


def test_paired_one_sided_shape_mismatch_message():
    with pytest.raises(ValueError, match=r"^paired samples must have the same shape$"):
        paired_one_sided([1.0], [1.0, 2.0])


def test_one_sided_t_with_a_standard_error_of_exactly_one():
    # [-3, 1, 1, 1]: mean 0, sum of squares 9 + 1 + 1 + 1 = 12, var 4, sd 2, se = 2/2 = 1;
    # threshold 1: t = -1 on 3 degrees of freedom.
    values = np.array([-3.0, 1.0, 1.0, 1.0])
    assert one_sided_t(values, 1.0, below=True) == pytest.approx(
        st.ttest_1samp(values, 1.0, alternative="less").pvalue, rel=1e-12
    )


@pytest.mark.parametrize(
    "values, threshold, below, p",
    [
        ([2.0, 2.0, 2.0], 3.0, True, 0.0),  # zero spread, mean below: certain
        ([2.0, 2.0, 2.0], 1.0, True, 1.0),  # mean above: no evidence for "below"
        ([2.0, 2.0, 2.0], 2.0, True, 1.0),  # on the threshold: not below it
        ([2.0, 2.0, 2.0], 3.0, False, 1.0),  # "above 3": no
        ([2.0, 2.0, 2.0], 1.0, False, 0.0),
        ([2.0, 2.0, 2.0], 2.0, False, 1.0),  # on the threshold: not above it either
    ],
)
def test_one_sided_t_zero_spread(values, threshold, below, p):
    assert one_sided_t(values, threshold, below) == p


def test_one_sided_t_undefined_value_gives_nan():
    assert math.isnan(one_sided_t([None, 1.0, 2.0], 0.0, below=True))


def test_equivalence_test_zero_spread_outside_the_margin():
    # every value 5, margin 0 ± 1: "inside" is certainly false (p_claimed 1), "above the upper
    # edge" certainly true (p_opposite 0)
    assert equivalence_test(np.array([5.0, 5.0, 5.0]), 0.0, 1.0) == {
        "p_claimed": 1.0,
        "p_opposite": 0.0,
    }


def test_bootstrap_ci_defaults_are_the_written_out_percentile_bootstrap():
    # Reference: 4000 resamples of the rows, drawn uniformly from all rows with a generator
    # seeded 0, and the 2.5% and 97.5% percentiles of their means. Continuous data, so that
    # nearly every resample mean is distinct and one resample more or less moves the percentiles.
    values = np.random.default_rng(5).normal(size=12)
    idx = np.random.default_rng(0).integers(0, 12, size=(4000, 12))
    low, high = np.quantile(values[idx].mean(axis=1), [0.025, 0.975])
    assert bootstrap_ci(values, np.mean) == pytest.approx((values.mean(), low, high), rel=1e-12)


def test_bootstrap_ci_every_row_can_be_drawn():
    # only the first row is non-zero: a resample has mean > 0 unless it misses row 0, which
    # happens with probability (4/5)^5 = 0.33; the upper end of the interval is above 0
    _, _, high = bootstrap_ci(np.array([5.0, 0.0, 0.0, 0.0, 0.0]), np.mean, n_boot=1000)
    assert high > 0.0


def test_bootstrap_ci_of_two_rows():
    # rows 0 and 1: resample means 0, 0.5, 1 with probability 1/4, 1/2, 1/4; the 2.5% and
    # 97.5% percentiles are 0 and 1
    assert bootstrap_ci(np.array([0.0, 1.0]), np.mean, n_boot=2000) == (0.5, 0.0, 1.0)


def test_bootstrap_ci_batched_statistic_gets_the_resample_axis_first():
    # a batched statistic written for (resample x row): the mean over axis 1; same interval as
    # the statistic resample by resample
    values = np.array([0.0, 1.0, 3.0, 7.0, 20.0])
    batched = bootstrap_ci(values, lambda v: v.mean(axis=1), n_boot=500, seed=3, batched=True)
    assert batched == pytest.approx(bootstrap_ci(values, np.mean, n_boot=500, seed=3), rel=1e-12)


def test_bootstrap_ci_of_an_indicator_statistic():
    # a batched statistic may return booleans (an event per resample): counted as 0/1.
    # Rows [-1, 3]: resample means -1, 1, 3 (prob 1/4, 1/2, 1/4): mean > 0 in 3/4 of them,
    # so the 2.5% percentile of the indicator is 0 and the 97.5% is 1; the estimate is 1.
    est = bootstrap_ci(
        np.array([-1.0, 3.0]), lambda v: v.mean(axis=1) > 0, n_boot=2000, batched=True
    )
    assert est == (1.0, 0.0, 1.0)


def test_bootstrap_ci_undefined_value_gives_nan_estimate():
    est, _, _ = bootstrap_ci(np.array([None, 1.0, 2.0]), np.mean, n_boot=100)
    assert math.isnan(est)


def test_band_verdict_reads_an_interval_against_a_band():
    from timebandits.core.verdicts.growth import band_verdict

    assert band_verdict(0.8, 1.1, 0.75, 1.25) == "reproduced"
    assert band_verdict(0.4, 0.5, 0.75, 1.25) == "not reproduced"
    assert band_verdict(0.7, 0.9, 0.75, 1.25) == "inconclusive"
    assert band_verdict(0.1, 0.2, -np.inf, 0.3) == "reproduced"


def test_resampled_means_draw_each_experiment_at_once_from_the_stream():
    from timebandits.core.verdicts.stats import resampled_means

    a, b = np.array([1.0, 2.0, 3.0]), np.array([10.0, 20.0])
    means = resampled_means([a, b], 5, np.random.default_rng(3))
    rng = np.random.default_rng(3)
    expected_a = a[rng.integers(0, 3, (5, 3))].mean(axis=1)
    expected_b = b[rng.integers(0, 2, (5, 2))].mean(axis=1)
    assert means.shape == (5, 2)
    assert (means[:, 0] == expected_a).all() and (means[:, 1] == expected_b).all()


def test_summarise_trace_is_pandas_groupby_bit_for_bit():
    # The array form must give pandas' grouped aggregates exactly (the numbers the build wrote
    # before it), with missing values, a constant metric (se exactly 0), rows out of order and
    # a checkpoint one repetition lacks.
    rng = np.random.default_rng(7)
    reps, ts = np.meshgrid(np.arange(9), [1, 5, 20, 100], indexing="ij")
    trace = pd.DataFrame(
        {
            "repetition": reps.ravel(),
            "t": ts.ravel(),
            "x": rng.normal(size=reps.size) * 1e3 + 0.1,
            "c": np.full(reps.size, 0.1),
            "gaps": np.where(rng.random(reps.size) < 0.3, np.nan, rng.exponential(size=reps.size)),
        }
    )
    trace = trace.drop(index=[5]).sample(frac=1.0, random_state=3)
    long = trace.sort_values(["repetition", "t"]).melt(
        id_vars=["repetition", "t"], var_name="metric"
    )
    grouped = long.groupby(["metric", "t"], sort=True)["value"]
    expected = grouped.agg(n="count", mean="mean", std="std", min="min", max="max")
    expected["se"] = expected["std"].fillna(0.0) / np.sqrt(expected["n"])
    quantiles = grouped.quantile(list(QUANTILES)).unstack()
    for q in QUANTILES:
        expected[f"q{int(round(q * 100)):02d}"] = quantiles[q]
    expected = expected.drop(columns="std").reset_index()
    summary = summarise_trace(trace)
    pd.testing.assert_frame_equal(summary, expected, check_exact=True, check_dtype=False)
    assert (summary.loc[summary["metric"] == "c", "se"] == 0.0).all()
