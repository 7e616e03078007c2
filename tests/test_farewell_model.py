"""Exact quantities of the F2A model (spec §1, §3, §5): μ^r, μ^c, g, g*, gaps, input checks.

Closed forms, with F(j) = P(τ ≤ j), F(0) = 0, ν = E[V]:
    μ^r_j = ν·F(j),   μ^c_j = E[min(τ, j)] = Σ_{m=0}^{j-1} (1 − F(m)),   g_j = μ^r_j / μ^c_j.
Every expected number below was worked out by hand (exact fractions in the comments).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from timebandits.farewell.model import F2AProblem

# ------------------------------------------------------------------------------------------------
# small hand-worked problems
# ------------------------------------------------------------------------------------------------


def test_k1_d3_hand_worked():
    # pmf [1/2, 1/4, 1/4]: F = [1/2, 3/4, 1]
    # μ^c_1 = 1;  μ^c_2 = 1 + (1 − 1/2) = 3/2;  μ^c_3 = 3/2 + (1 − 3/4) = 7/4
    # (check: E[min(τ,3)] = E[τ] = 1/2 + 2/4 + 3/4 = 7/4 ✓)
    # ν = 0.8: μ^r = 0.8·F = [0.4, 0.6, 0.8];  g = [0.4, 0.4, 0.8/1.75 = 16/35 = 0.457142...]
    # g* = 16/35 at j = 3; Δ = [16/35 − 2/5, 16/35 − 2/5, 0] = [2/35, 2/35, 0]
    p = F2AProblem([0.8], [[0.5, 0.25, 0.25]])
    assert (p.K, p.D) == (1, 3)
    np.testing.assert_allclose(p.delay_cdf, [[0.5, 0.75, 1.0]])
    np.testing.assert_allclose(p.mean_cost, [[1.0, 1.5, 1.75]])
    np.testing.assert_allclose(p.mean_reward, [[0.4, 0.6, 0.8]])
    np.testing.assert_allclose(p.ratio, [[0.4, 0.4, 16 / 35]])
    assert p.g_star == pytest.approx(16 / 35)
    np.testing.assert_allclose(p.gaps, [[2 / 35, 2 / 35, 0.0]])
    assert p.optimal_pairs == [(1, 3)]
    assert p.min_gap == pytest.approx(2 / 35)


def test_k1_d3_with_v_equal_one_ties_j1_j2():
    # same pmf, ν = 1: g = [1/2, (3/4)/(3/2) = 1/2, 1/(7/4) = 4/7]; g* = 4/7, gaps 1/14, 1/14, 0
    p = F2AProblem([1.0], [0.5, 0.25, 0.25])  # a 1-D pmf is accepted for K = 1
    np.testing.assert_allclose(p.ratio, [[0.5, 0.5, 4 / 7]])
    np.testing.assert_allclose(p.gaps, [[1 / 14, 1 / 14, 0.0]])
    assert p.min_gap == pytest.approx(1 / 14)


def test_k2_d2_hand_worked():
    # k=1: ν=0.5, pmf [0.2, 0.8]: F=[0.2,1]; μ^r=[0.1,0.5]; μ^c=[1, 1+0.8=1.8]; g=[0.1, 5/18]
    # k=2: ν=1.0, pmf [0.6, 0.4]: F=[0.6,1]; μ^r=[0.6,1.0]; μ^c=[1, 1+0.4=1.4]; g=[0.6, 5/7]
    # g* = 5/7 at (2,2); Δ = [[5/7−1/10 = 43/70, 5/7−5/18 = 55/126], [5/7−3/5 = 4/35, 0]]
    p = F2AProblem([0.5, 1.0], [[0.2, 0.8], [0.6, 0.4]])
    np.testing.assert_allclose(p.mean_reward, [[0.1, 0.5], [0.6, 1.0]])
    np.testing.assert_allclose(p.mean_cost, [[1.0, 1.8], [1.0, 1.4]])
    np.testing.assert_allclose(p.ratio, [[0.1, 5 / 18], [0.6, 5 / 7]])
    np.testing.assert_allclose(p.gaps, [[43 / 70, 55 / 126], [4 / 35, 0.0]])
    assert p.g_star == pytest.approx(5 / 7)
    assert p.optimal_pairs == [(2, 2)]
    assert p.min_gap == pytest.approx(4 / 35)
    # flat index a = (k−1)·D + (j−1)
    assert p.pair_labels == ["k1_j1", "k1_j2", "k2_j1", "k2_j2"]
    assert p.pair_label(3) == "k2_j2"
    d = p.describe()
    assert d["K"] == 2 and d["D"] == 2 and d["optimal_pairs"] == [(2, 2)]
    assert d["g_star"] == pytest.approx(5 / 7) and d["min_gap"] == pytest.approx(4 / 35)


def test_leading_zero_mass_and_trailing_zero_mass():
    # pmf [0, 1]: τ ≡ 2. μ^r = [0, 1]; μ^c = [1, 2]; g = [0, 1/2]
    p = F2AProblem([1.0], [[0.0, 1.0]])
    np.testing.assert_allclose(p.mean_reward, [[0.0, 1.0]])
    np.testing.assert_allclose(p.mean_cost, [[1.0, 2.0]])
    np.testing.assert_allclose(p.ratio, [[0.0, 0.5]])
    # pmf [1, 0, 0]: τ ≡ 1. every j costs 1 and pays ν
    q = F2AProblem([0.3], [[1.0, 0.0, 0.0]])
    np.testing.assert_allclose(q.mean_cost, [[1.0, 1.0, 1.0]])
    np.testing.assert_allclose(q.ratio, [[0.3, 0.3, 0.3]])
    assert q.optimal_pairs == [(1, 1), (1, 2), (1, 3)]
    assert np.isnan(q.min_gap)  # no suboptimal pair


def test_mean_cost_equals_expectation_of_min_tau_j():
    # independent formula: μ^c_j = Σ_d min(d, j)·p(d); μ^r_j = ν·Σ_{d≤j} p(d)
    rng = np.random.default_rng(11)
    pmf = rng.dirichlet(np.ones(7), size=3)
    nu = np.array([0.2, 0.55, 1.0])
    p = F2AProblem(nu, pmf)
    d = np.arange(1, 8)
    for k in range(3):
        for j in range(1, 8):
            assert p.mean_cost[k, j - 1] == pytest.approx(np.sum(np.minimum(d, j) * pmf[k]))
            assert p.mean_reward[k, j - 1] == pytest.approx(nu[k] * pmf[k, :j].sum())
    assert p.delay_cdf[:, -1].tolist() == [1.0, 1.0, 1.0]
    np.testing.assert_allclose(p.ratio, p.mean_reward / p.mean_cost)
    assert np.all(p.gaps >= 0)
    assert np.all((p.gaps == 0) == np.isclose(p.ratio, p.g_star, rtol=0, atol=1e-12))


# ------------------------------------------------------------------------------------------------
# the spec's reconstructed panels (spec §3), recomputed exactly with fractions
# ------------------------------------------------------------------------------------------------


def _exact(nu, pmf):
    """(g, μ^c) as exact fractions from the definitions (independent of the code under test)."""
    g, mc = [], []
    for v, row in zip(nu, pmf):
        v = Fraction(v).limit_denominator(10_000)
        row = [Fraction(x).limit_denominator(10_000) for x in row]
        cdf = [sum(row[:d]) for d in range(1, len(row) + 1)]
        mck = [sum(1 - (cdf[m - 1] if m else 0) for m in range(j)) for j in range(1, len(row) + 1)]
        g.append([v * cdf[j] / mck[j] for j in range(len(row))])
        mc.append(mck)
    return g, mc


FIG1A = [0.25, 0.10, 0.15, 0, 0, 0, 0, 0, 0, 0.50]
FIG1B = [0.25, 0.20, 0.15, 0, 0.25, 0, 0, 0, 0, 0.15]
FIG1C = [0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0.5]
TAU_2BC = [
    [0.10, 0.30, 0.40, 0.10, 0.10],
    [0.50, 0.10, 0.05, 0.05, 0.30],
    [0.05, 0.05, 0.10, 0.20, 0.60],
]


def test_fig1a():
    # F = [.25,.35,.5,.5,.5,.5,.5,.5,.5,1]; μ^c = 1, 1.75, 2.4, 2.9, ..., 5.4, 5.9 (steps of 1−F)
    # g_1 = .25, g_2 = .35/1.75 = .2, g_3 = .5/2.4 = 5/24 = .20833, g_10 = 1/5.9 = .16949
    # g* = 1/4 at j = 1; min gap = 1/4 − 5/24 = 1/24 = 0.041666 (paper: "0.042")
    p = F2AProblem([1.0], [FIG1A])
    np.testing.assert_allclose(
        p.ratio[0],
        [0.2500, 0.2000, 0.2083, 0.1724, 0.1471, 0.1282, 0.1136, 0.1020, 0.0926, 0.1695],
        atol=5e-5,
    )
    np.testing.assert_allclose(p.mean_cost[0], [1, 1.75, 2.4, 2.9, 3.4, 3.9, 4.4, 4.9, 5.4, 5.9])
    assert p.optimal_pairs == [(1, 1)]
    assert p.g_star == pytest.approx(0.25)
    assert p.min_gap == pytest.approx(1 / 24, abs=1e-12)
    assert round(p.min_gap, 3) == 0.042
    g, _ = _exact([1], [FIG1A])
    np.testing.assert_allclose(p.ratio[0], [float(x) for x in g[0]], rtol=1e-12)


def test_fig1a_alternative():
    # P(1)=P(2)=.27, P(10)=.46: g_1=.27, g_2=.54/1.73=.312139, g_3=.54/2.19=.246575 -> j*=2,
    # min gap = .312139 − .27 = .042139
    pmf = [0.27, 0.27, 0, 0, 0, 0, 0, 0, 0, 0.46]
    p = F2AProblem([1.0], [pmf])
    assert p.optimal_pairs == [(1, 2)]
    assert p.min_gap == pytest.approx(0.54 / 1.73 - 0.27, abs=1e-12)
    assert round(p.min_gap, 4) == 0.0421


def test_fig1b():
    # F = [.25,.45,.6,.6,.85,.85,.85,.85,.85,1]
    # μ^c = [1, 1.75, 2.3, 2.7, 3.1, 3.25, 3.4, 3.55, 3.7, 3.85]
    # g_5 = .85/3.1 = 17/62 = .274194 (g*), g_3 = .6/2.3 = 6/23 = .260870, g_6 = .85/3.25 = .261538
    # min gap = 17/62 − 17/65 = 17·3/(62·65) = 51/4030 = 0.0126551 (spec: "≈ 0.0127")
    p = F2AProblem([1.0], [FIG1B])
    np.testing.assert_allclose(
        p.ratio[0],
        [0.2500, 0.2571, 0.2609, 0.2222, 0.2742, 0.2615, 0.2500, 0.2394, 0.2297, 0.2597],
        atol=5e-5,
    )
    np.testing.assert_allclose(p.mean_cost[0], [1, 1.75, 2.3, 2.7, 3.1, 3.25, 3.4, 3.55, 3.7, 3.85])
    assert p.optimal_pairs == [(1, 5)]
    assert p.g_star == pytest.approx(17 / 62)
    assert p.min_gap == pytest.approx(51 / 4030, abs=1e-12)
    assert round(p.min_gap, 4) == 0.0127


def test_fig1b_alternative_keeps_the_number():
    # P(1)=.3, P(10)=.7: μ^c_j = 1 + .7(j−1) (j ≤ 10), g_1 = .3, g_2 = .3/1.7 = .176471,
    # g_10 = 1/7.3 = .136986 -> j* = 1, min gap = .3 − .3/1.7 = .123529 ("0.124" after rounding
    # up of .1235; the spec's "0.1235")
    p = F2AProblem([1.0], [[0.3, 0, 0, 0, 0, 0, 0, 0, 0, 0.7]])
    assert p.optimal_pairs == [(1, 1)]
    assert p.min_gap == pytest.approx(0.3 - 0.3 / 1.7, abs=1e-12)
    assert round(p.min_gap, 4) == 0.1235


def test_fig1c():
    # F = [.5, ..., .5, 1]; μ^c_j = 1 + .5(j−1); g_j = .5/(1+.5(j−1)) for j < 10, g_10 = 1/5.5
    # g = [.5, 1/3, .25, .2, 1/6, 1/7, .125, 1/9, .1, 2/11]; min gap = .5 − 1/3 = 1/6
    p = F2AProblem([1.0], [FIG1C])
    np.testing.assert_allclose(
        p.ratio[0], [0.5, 1 / 3, 0.25, 0.2, 1 / 6, 1 / 7, 0.125, 1 / 9, 0.1, 2 / 11], rtol=1e-12
    )
    np.testing.assert_allclose(p.mean_cost[0], 1 + 0.5 * np.arange(10))
    assert p.optimal_pairs == [(1, 1)]
    assert p.min_gap == pytest.approx(1 / 6, abs=1e-12)


def test_fig1c_remarks_on_mass_at_3_or_4():
    # mass .5 at τ=3 instead of 10: g_3 = 1/(1 + .5 + .5) = .5 ties the optimum (and so does
    # every j ≥ 3, since then τ ≤ j always: μ^c_j = E[τ] = 2, g_j = 1/2)
    tie = F2AProblem([1.0], [[0.5, 0, 0.5, 0, 0, 0, 0, 0, 0, 0]])
    assert tie.optimal_pairs == [(1, 1)] + [(1, j) for j in range(3, 11)]
    # mass .5 at τ=4: g_4 = 1/(1 + 3·.5) = .4 (= g_j for j ≥ 4) -> min gap .1
    four = F2AProblem([1.0], [[0.5, 0, 0, 0.5, 0, 0, 0, 0, 0, 0]])
    assert four.optimal_pairs == [(1, 1)]
    assert four.min_gap == pytest.approx(0.1, abs=1e-12)


def test_fig2a_five_tied_optima():
    # τ ≡ 1: c ≡ 1, μ^c ≡ 1, g_{k,j} = ν_k. g* = 1 at (3, j), j = 1..5; Δ_1 = .5, Δ_2 = .3
    p = F2AProblem([0.5, 0.7, 1.0], [[1, 0, 0, 0, 0]] * 3)
    np.testing.assert_array_equal(p.mean_cost, np.ones((3, 5)))
    assert p.g_star == 1.0
    assert p.optimal_pairs == [(3, j) for j in range(1, 6)]
    np.testing.assert_allclose(p.gaps, [[0.5] * 5, [0.3] * 5, [0.0] * 5], atol=1e-15)
    assert np.all(p.gaps[2] == 0.0)  # exact zeros for the tied optima
    assert p.min_gap == pytest.approx(0.3)


def test_fig2b_case_one():
    # k=1 (ν=.7): F=[.1,.4,.8,.9,1], μ^c=[1,1.9,2.5,2.7,2.8], g=[.07,.28/1.9,.56/2.5,.63/2.7,.7/2.8]
    #                                                      = [.07, .147368, .224, .233333, .25]
    # k=2 (ν=1):  F=[.5,.6,.65,.7,1], μ^c=[1,1.5,1.9,2.25,2.55], g=[.5,.4,.342105,.311111,.392157]
    # k=3 (ν=.5): F=[.05,.1,.2,.4,1], μ^c=[1,1.95,2.85,3.65,4.25],
    #                                 g=[.025,.025641,.035088,.054795,.117647]
    # g* = .5 at (2,1); runner-up (2,2) with .4 -> min gap .1
    p = F2AProblem([0.7, 1.0, 0.5], TAU_2BC)
    np.testing.assert_allclose(
        p.mean_cost,
        [[1, 1.9, 2.5, 2.7, 2.8], [1, 1.5, 1.9, 2.25, 2.55], [1, 1.95, 2.85, 3.65, 4.25]],
        rtol=1e-12,
    )
    np.testing.assert_allclose(
        p.ratio,
        [
            [0.07, 0.28 / 1.9, 0.224, 0.63 / 2.7, 0.25],
            [0.5, 0.4, 0.65 / 1.9, 0.7 / 2.25, 1 / 2.55],
            [0.025, 0.05 / 1.95, 0.1 / 2.85, 0.2 / 3.65, 0.5 / 4.25],
        ],
        rtol=1e-12,
    )
    assert p.optimal_pairs == [(2, 1)]
    assert p.g_star == pytest.approx(0.5)
    assert p.min_gap == pytest.approx(0.1, abs=1e-12)


def test_fig2c_case_two():
    # ν = (1, .5, .7): k=1: g = F/μ^c = [.1, .4/1.9, .8/2.5, .9/2.7, 1/2.8]
    #                                 = [.1, .210526, .32, .333333, .357143]
    # g* = 1/2.8 = 5/14 = .357143 at (1,5); runner-up (1,4) = 1/3 -> min gap 5/14 − 1/3 = 1/42
    # (k=2: .5·[.5,.4,.342,.311,.392] = max .25; k=3: .7·[...] max .7·.117647 = .082353)
    p = F2AProblem([1.0, 0.5, 0.7], TAU_2BC)
    assert p.optimal_pairs == [(1, 5)]
    assert p.g_star == pytest.approx(5 / 14)
    assert round(p.g_star, 4) == 0.3571
    assert p.min_gap == pytest.approx(1 / 42, abs=1e-12)
    assert round(p.min_gap, 4) == 0.0238
    g, _ = _exact([1.0, 0.5, 0.7], TAU_2BC)
    np.testing.assert_allclose(p.ratio, [[float(x) for x in row] for row in g], rtol=1e-12)


def test_from_config():
    p = F2AProblem.from_config({"reward_prob": [0.7, 1.0, 0.5], "delay_pmf": TAU_2BC})
    assert (p.K, p.D) == (3, 5)
    assert p.optimal_pairs == [(2, 1)]


# ------------------------------------------------------------------------------------------------
# Monte Carlo with the model's own cdf
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("nu,pmf", [([1.0], [FIG1B]), ([0.7, 1.0, 0.5], TAU_2BC)])
def test_monte_carlo_means_match_closed_forms(nu, pmf):
    p = F2AProblem(nu, pmf)
    rng = np.random.default_rng(2020)
    n = 100_000
    for k in range(p.K):
        u = rng.random(n)
        # τ = smallest d with u < F(d)  (inverse-cdf sampling with the model's delay_cdf)
        tau = 1 + np.sum(u[:, None] >= p.delay_cdf[k][None, :], axis=1)
        assert tau.min() >= 1 and tau.max() <= p.D
        v = (rng.random(n) < p.reward_prob[k]).astype(float)
        for j in range(1, p.D + 1):
            r = v * (tau <= j)
            c = np.minimum(tau, j)
            se_r = max(r.std(ddof=1), 1e-12) / np.sqrt(n)
            se_c = max(c.std(ddof=1), 1e-12) / np.sqrt(n)
            assert abs(r.mean() - p.mean_reward[k, j - 1]) <= 4 * se_r + 1e-12, (k, j)
            assert abs(c.mean() - p.mean_cost[k, j - 1]) <= 4 * se_c + 1e-12, (k, j)
        # the sampled pmf itself
        freq = np.bincount(tau, minlength=p.D + 1)[1:] / n
        se_p = np.sqrt(p.delay_pmf[k] * (1 - p.delay_pmf[k]) / n)
        assert np.all(np.abs(freq - p.delay_pmf[k]) <= 4 * se_p + 1e-12)


# ------------------------------------------------------------------------------------------------
# bad input
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "nu,pmf,match",
    [
        ([1.0], [[0.5, 0.4]], r"sums to 0\.9"),  # does not sum to one
        ([1.0, 1.0], [[0.5, 0.5], [0.5, 0.6]], r"macro-arm 2 sums to 1\.1"),
        ([1.0], [[1.5, -0.5]], r"negative"),  # negative entry (sums to 1)
        ([1.2], [[1.0]], r"\[0, 1\]"),  # ν > 1
        ([-0.1], [[1.0]], r"\[0, 1\]"),  # ν < 0
        ([1.0, 0.5], [[1.0]], r"one delay pmf per macro-arm"),  # K mismatch
        ([1.0], [[1.0], [1.0]], r"one delay pmf per macro-arm"),  # K mismatch the other way
        ([1.0, 0.5], [1.0, 0.0], r"one delay pmf per macro-arm"),  # 1-D pmf with K = 2
        ([[1.0], [1.0]], [[1.0], [1.0]], r"one probability per macro-arm"),  # 2-D reward_prob
        ([1.0], np.zeros((1, 0)), r"sums to 0"),  # D = 0
        ([1.0], [[np.inf, 1.0]], r"finite and non-negative"),
    ],
)
def test_bad_input_raises_value_error(nu, pmf, match):
    with pytest.raises(ValueError, match=match):
        F2AProblem(nu, pmf)


def test_pmf_within_tolerance_is_renormalised():
    p = F2AProblem([1.0], [[0.5, 0.5 + 1e-12]])
    assert p.delay_pmf.sum() == pytest.approx(1.0, abs=1e-15)
    assert p.delay_cdf[0, -1] == 1.0


def test_nan_in_pmf_is_rejected():
    with pytest.raises(ValueError):
        F2AProblem([1.0], [[np.nan, 1.0]])


def test_nan_reward_prob_is_rejected():
    with pytest.raises(ValueError):
        F2AProblem([np.nan], [[0.5, 0.5]])


@pytest.mark.parametrize("shape", [(1, 2, 2), (2, 2, 1)])
def test_three_dimensional_pmf_is_rejected(shape):
    nu = [1.0] * shape[0]
    pmf = np.full(shape, 1.0 / shape[1])
    with pytest.raises(ValueError):
        F2AProblem(nu, pmf)
