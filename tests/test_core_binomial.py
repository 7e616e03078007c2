"""core.sim.binomial: each of its three methods exact in distribution (chi-square against scipy's
pmf, mean within five standard errors), BINV against the quantile of its one uniform, BTRS' density
ratio and Stirling remainder against ln Γ, and every draw addressable by its counter."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from timebandits.core.sim.binomial import (
    BINOMIAL_DIRECT,
    BTRS_FROM,
    binomial,
    log_ratio_to_mode,
    stirling_remainder,
)
from timebandits.core.sim.jit import njit
from timebandits.core.sim.rng import uniform


@njit
def _draws(n, p, draws, key):
    out = np.empty(draws, np.int64)
    counter = 0
    for k in range(draws):
        out[k], counter = binomial(n, p, key, counter)
    return out


def _chi_square_p(x, law) -> float:
    """Chi-square p-value of draws ``x`` against ``law``: one bin per value over the central range
    (at most about 40 bins), the tails pooled, neighbours merged until each expects 5 draws."""
    low, high = int(law.ppf(1e-4)), int(law.ppf(1 - 1e-4))
    step = max(1, (high - low) // 40)
    edges = np.arange(low, high + 1, step)[1:]
    counts = np.bincount(np.searchsorted(edges, x, side="right"), minlength=edges.size + 1)
    probs = np.diff(np.concatenate([[0.0], law.cdf(edges - 1), [1.0]]))
    merged_counts, merged_probs, run_count, run_prob = [], [], 0, 0.0
    for count, prob in zip(counts, probs):
        run_count, run_prob = run_count + count, run_prob + prob
        if run_prob * x.size >= 5:
            merged_counts.append(run_count)
            merged_probs.append(run_prob)
            run_count, run_prob = 0, 0.0
    merged_counts[-1] += run_count
    merged_probs[-1] += run_prob
    if len(merged_counts) < 2:
        return 1.0
    expected = np.array(merged_probs) * x.size
    return stats.chisquare(merged_counts, expected * x.size / expected.sum()).pvalue


# direct (n ≤ 16), BINV (μ < 10), BTRS (μ ≥ 10), each with p on both sides of 1/2
CASES = [
    (1, 0.3),
    (BINOMIAL_DIRECT, 0.5),
    (BINOMIAL_DIRECT, 0.93),
    (BINOMIAL_DIRECT + 1, 0.05),
    (40, 0.9),
    (199, 0.05),
    (1000, 0.0099),
    (1000, 0.3),
    (41, 0.7),
    (25, 0.4),
    (123_457, 0.012),
    (5_000_000, 0.25),
    (10**9, 0.999_999_7),
]


@pytest.mark.parametrize("n,p", CASES)
def test_binomial_matches_scipy(n, p):
    x = _draws(n, p, 60_000, np.uint64(4242))
    assert x.min() >= 0 and x.max() <= n
    law = stats.binom(n, p)
    assert _chi_square_p(x, law) > 1e-3
    assert abs(x.mean() - n * p) < 5 * np.sqrt(n * p * (1 - p) / x.size)


def test_the_cases_cover_every_method():
    methods = {
        "direct" if n <= BINOMIAL_DIRECT else "binv" if n * min(p, 1 - p) < BTRS_FROM else "btrs"
        for n, p in CASES
    }
    assert methods == {"direct", "binv", "btrs"}
    assert {p > 0.5 for n, p in CASES if n > BINOMIAL_DIRECT} == {True, False}


def test_btrs_moderate_mean_over_a_million_draws():
    """Where the rejection step decides most often (μ just above 10), a sharper test."""
    x = _draws(30, 0.4, 1_000_000, np.uint64(77))
    assert _chi_square_p(x, stats.binom(30, 0.4)) > 1e-3
    assert abs(x.var() - 30 * 0.4 * 0.6) < 0.02


def test_small_n_counts_uniforms_below_p():
    key = np.uint64(99)
    x, after = binomial(BINOMIAL_DIRECT, 0.37, key, 500)
    assert after == 500 + BINOMIAL_DIRECT
    assert x == sum(uniform(key, 500 + j) < 0.37 for j in range(BINOMIAL_DIRECT))


@pytest.mark.parametrize("n,p", [(20, 0.1), (300, 0.02), (50, 0.88)])
def test_binv_returns_the_quantile_of_its_uniform(n, p):
    """μ < 10: x is the least k with U < F(k) for the draw's one uniform U (F of min(p, 1 − p);
    x → n − x above 1/2), unless U lies within 1e-12 of a jump."""
    key, low = np.uint64(3), min(p, 1 - p)
    cdf = stats.binom(n, low).cdf(np.arange(n + 1))
    for counter in range(0, 4000, 2):
        x, after = binomial(n, p, key, counter)
        u = uniform(key, counter)
        if np.min(np.abs(cdf - u)) < 1e-12:
            continue
        assert after == counter + 1
        expected = int(np.searchsorted(cdf, u, side="right"))
        assert x == (n - expected if p > 0.5 else expected)


@pytest.mark.parametrize("n,p", [(30, 0.4), (1000, 0.3), (10**6, 0.011)])
def test_btrs_density_ratio_is_the_pmf_ratio(n, p):
    m = math.floor((n + 1) * p)
    log_f = stats.binom(n, p).logpmf
    for k in sorted({0, 1, m - 7, m, m + 3, m + 40, n // 2, n - 1, n} & set(range(n + 1))):
        assert log_ratio_to_mode(n, p, k, m) == pytest.approx(log_f(k) - log_f(m), abs=1e-8)


def test_stirling_remainder_against_log_gamma():
    for j in list(range(0, 60)) + [10**3, 10**6]:
        exact = math.lgamma(j + 1.0) - (
            0.5 * math.log(2 * math.pi) + (j + 0.5) * math.log(j + 1) - (j + 1)
        )
        assert stirling_remainder(j) == pytest.approx(exact, abs=5e-11 if j < 10**3 else 1e-8)


def test_edges_and_addressing():
    key = np.uint64(5)
    assert binomial(10**6, 0.0, key, 0)[0] == 0 and binomial(10**6, 1.0, key, 0)[0] == 10**6
    assert binomial(0, 0.5, key, 0) == (0, 0)
    first = binomial(10**6, 0.3, key, 7000)
    _ = binomial(10**6, 0.3, key, 0)
    assert binomial(10**6, 0.3, key, 7000) == first
