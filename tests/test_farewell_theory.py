"""Tests of the paper's bounds (timebandits.farewell.theory): hand-computed values, the
Corollary 1 inversion, Monte Carlo checks of Lemma 1 and Theorem 1, and the vacuity crossover."""

import math

import numpy as np
import pytest

from timebandits.farewell.model import F2AProblem
from timebandits.farewell.theory import (
    LEMMA2_CONSTANT,
    coarse_bound_order,
    comparison_orders,
    constant_policy_expected_reward,
    corollary1_tail,
    lemma2_pull_bound,
    ratio_deviation_radius,
    theorem1_offset,
    theorem2_bound,
    theorem2_leading_term,
    vacuity_crossover,
    wait_ucb_radius,
)

FIG1_PMFS = {
    "1a": [0.25, 0.10, 0.15, 0, 0, 0, 0, 0, 0, 0.50],
    "1b": [0.25, 0.20, 0.15, 0, 0.25, 0, 0, 0, 0, 0.15],
    "1c": [0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0.5],
}
FIG1 = {name: F2AProblem([1.0], [pmf]) for name, pmf in FIG1_PMFS.items()}
FIG2A = F2AProblem([0.5, 0.7, 1.0], [[1, 0, 0, 0, 0]] * 3)
# One macro-arm with Bernoulli V and spread-out delays (the spec's Fig. 2b category 1, ν = 0.7).
BERNOULLI = F2AProblem([0.7], [[0.10, 0.30, 0.40, 0.10, 0.10]])
PANELS = {**FIG1, "2a": FIG2A}
LN_T = 2.0  # checkpoint t = e²


def simulate_costs_rewards(problem, k, j, shape, rng):
    """Draws of (c, r) = (min(τ, j), V·1[τ ≤ j]) for pair (k, j), τ and V independent."""
    tau = rng.choice(problem.D, size=shape, p=problem.delay_pmf[k - 1]) + 1
    v = rng.random(shape) < problem.reward_prob[k - 1]
    return np.minimum(tau, j), np.where(tau <= j, v, 0.0)


# --- Lemma 1 and Corollary 1 -------------------------------------------------------------------


def test_ratio_deviation_radius_hand_values():
    # B = 1: only the Hoeffding term, sqrt(ln(4/δ)/(2n)); δ = 0.1, n = 50: sqrt(ln 40 / 100).
    assert ratio_deviation_radius(50, 1, 0.1, 1.0) == pytest.approx(math.sqrt(math.log(40) / 100))
    # B = 5, n = 8, δ = 4/e (ln(4/δ) = 1), μ_Y = 2: sqrt(4/16) + 8/48 + sqrt(1/16)
    # = 0.5 + 1/6 + 0.25.
    assert ratio_deviation_radius(8, 5, 4 / math.e, 2.0) == pytest.approx(0.5 + 1 / 6 + 0.25)


@pytest.mark.parametrize("B", [1, 2, 5, 10])
@pytest.mark.parametrize("delta", [0.5, 0.1, 1e-4])
def test_corollary1_inverts_lemma1_with_unit_mean_cost(B, delta):
    # Cor. 1 is Lemma 1 solved for δ with μ_Y lower-bounded by 1.
    eps = ratio_deviation_radius(30, B, delta, 1.0)
    assert corollary1_tail(eps, 30, B) == pytest.approx(delta, rel=1e-9)


def test_corollary1_tail_b1_is_hoeffding():
    # B = 1: a = 0, x = ε/b with b = 1/sqrt(2n) -> 4 exp(-2nε²); n = 8, ε = 0.25: 4 exp(-1).
    assert corollary1_tail(0.25, 8, 1) == pytest.approx(4 * math.exp(-1))


@pytest.mark.parametrize("s", [2, 10, 1000])
@pytest.mark.parametrize("n", [1, 7, 100])
def test_wait_ucb_radius_is_corollary1_inverted_at_4_s_minus_4(s, n):
    j = np.arange(1, 11)
    tail = corollary1_tail(wait_ucb_radius(s, n, j), n, j)
    np.testing.assert_allclose(tail, 4.0 * float(s) ** -4, rtol=1e-9)


def test_wait_ucb_radius_j1_is_ucb1():
    # α_1 = 0, β_1 = √2: the UCB1 radius sqrt(2 ln s / n) (paper §7.2).
    assert wait_ucb_radius(100, 9, 1) == pytest.approx(math.sqrt(2 * math.log(100) / 9))


@pytest.mark.parametrize(
    "problem, j",
    [
        (FIG1["1a"], 1),
        (FIG1["1a"], 3),
        (FIG1["1a"], 10),
        (FIG1["1b"], 5),
        (BERNOULLI, 2),
        (BERNOULLI, 5),
    ],
)
def test_lemma1_coverage_monte_carlo(problem, j):
    n, delta, reps = 50, 0.1, 2000
    rng = np.random.default_rng([2020, j, problem.D])
    cost, reward = simulate_costs_rewards(problem, 1, j, (reps, n), rng)
    estimate = reward.mean(axis=1) / cost.mean(axis=1)
    radius = ratio_deviation_radius(n, j, delta, problem.mean_cost[0, j - 1])
    covered = np.abs(estimate - problem.ratio[0, j - 1]) <= radius
    assert covered.mean() >= 1 - delta


# --- Lemma 2 and Theorem 2 ---------------------------------------------------------------------


def test_lemma2_fig1c_j2_hand_value():
    # Fig. 1c: μ^c_j = (j+1)/2, g_j = 1/(j+1) (j < 10), g* = 1/2, so Δ_2 = 1/6.
    # α_2 = 8/3, β_2 = 2√2: β² + 2αΔ = 8 + 8/9 = 80/9, sqrt = 4√5/3.
    # ((2√2 + 4√5/3)·6)² = 36·(152/9 + 16√10/3) = 608 + 192√10 = 1215.1573107523...
    # At ln t = 2: 2430.3146215 + 4π²/3 (13.1594725) + 1 = 2444.4740940.
    bound = lemma2_pull_bound(math.exp(LN_T), FIG1["1c"])
    assert bound[1] == pytest.approx(2444.4740940394, rel=1e-12)
    assert math.isnan(bound[0])  # j = 1 is optimal
    no_init = lemma2_pull_bound(math.exp(LN_T), FIG1["1c"], initial_pull=False)
    np.testing.assert_allclose((bound - no_init)[1:], 1.0)


def test_theorem2_fig1c_hand_pieces():
    problem = FIG1["1c"]
    # Constant: Σ_{j=2..10} μ^c_j Δ_j = g*·Σ μ^c_j − Σ μ^r_j = 0.5·31.5 − (8·0.5 + 1) = 10.75;
    # times (4π²/3 + 1) for Lemma 2's initial pull = 152.2143; C0 = D·g* = 5.
    constant = 10.75 * (4 * math.pi**2 / 3 + 1) + 5.0
    assert theorem2_bound(1.0, problem) == pytest.approx(constant)  # ln 1 = 0
    assert theorem2_bound(1.0, problem, constant=0.0) == pytest.approx(constant - 5.0)
    # The j = 2 summand of the ln t part: μ^c_2·Δ_2·l = 1.5·(1/6)·2·1215.15731 = 607.5787.
    j2_term = 1.5 / 6 * LN_T * (608 + 192 * math.sqrt(10))
    assert j2_term == pytest.approx(607.57865537, rel=1e-9)
    # Theorem 2 = Σ_{Δ>0} μ^c Δ · (Lemma 2 bound) + C0; as printed (no initial pull) it is
    # 10.75 smaller.
    assert theorem2_bound(1.0, problem, initial_pull=False) == pytest.approx(constant - 10.75)
    per_pair = lemma2_pull_bound(math.exp(LN_T), problem)
    weights = (problem.mean_cost * problem.gaps).ravel()
    expected = np.nansum(weights * per_pair) + 5.0
    assert theorem2_bound(math.exp(LN_T), problem) == pytest.approx(expected, rel=1e-12)
    assert theorem2_leading_term(math.exp(LN_T), problem) == pytest.approx(
        expected - constant, rel=1e-12
    )
    assert np.nansum(weights * (per_pair - LEMMA2_CONSTANT - 1)) == pytest.approx(
        theorem2_leading_term(math.exp(LN_T), problem), rel=1e-12
    )
    assert weights[1] * (per_pair[1] - LEMMA2_CONSTANT - 1) == pytest.approx(j2_term, rel=1e-12)


def test_coarse_bound_fig1c_hand_value():
    # μ^c_j/Δ_j = (j+1)²/(j−1) for j = 2..9 and 5.5/(7/22) = 121/7 for j = 10:
    # Σ j(j+1)²/(j−1) + 10·121/7 = 18 + 24 + 100/3 + 45 + 58.8 + 224/3 + 648/7 + 112.5 + 1210/7.
    expected = 18 + 24 + 100 / 3 + 45 + 58.8 + 224 / 3 + 648 / 7 + 112.5 + 1210 / 7
    assert expected == pytest.approx(631.72857142857)
    assert coarse_bound_order(math.e, FIG1["1c"]) == pytest.approx(expected, rel=1e-12)


def test_fig2a_lemma2_and_theorem2():
    t = np.array([10.0, 1e5, 1e7])
    bound = lemma2_pull_bound(t, FIG2A)
    assert bound.shape == (3, 15)
    # The five tied optima (k = 3, all j) are flat pairs 10..14.
    assert np.isnan(bound[:, 10:]).all() and not np.isnan(bound[:, :10]).any()
    # j = 1: α = 0, β = √2, so ((√2 + √2)/Δ)² = 8/Δ²: 32 ln t (Δ = 0.5), 800/9 ln t (Δ = 0.3).
    extra = 4 * math.pi**2 / 3 + 1
    np.testing.assert_allclose(bound[:, 0], 32 * np.log(t) + extra, rtol=1e-12)
    np.testing.assert_allclose(bound[:, 5], 800 / 9 * np.log(t) + extra, rtol=1e-12)
    # Constant: Σ μ^cΔ = 5·0.5 + 5·0.3 = 4, times (4π²/3 + 1) = 16π²/3 + 4; C0 = D·g* = 5.
    assert theorem2_bound(1.0, FIG2A) == pytest.approx(16 * math.pi**2 / 3 + 4 + 5)


def test_comparison_orders_fig1c_hand_values():
    # D²/Δ = 600; μ̄^c = (1 + 1.5 + ... + 5.5)/10 = 3.25;
    # Σ 1/μ^c = Σ_{j=1..10} 2/(j+1) = 2(H_11 − 1);
    # DQZL: (10⁴ + 10³·6 + 10²·36)·g* = 19600·0.5 = 9800.
    orders = comparison_orders(FIG1["1c"])
    sum_inverse = 2 * (sum(1 / m for m in range(1, 12)) - 1)
    assert orders["min_gap"] == pytest.approx(1 / 6)
    assert orders["mean_cost"] == pytest.approx(3.25)
    assert orders["sum_inverse_cost"] == pytest.approx(sum_inverse)
    assert orders["wait"] == pytest.approx(1950)
    assert orders["fj"] == pytest.approx(600 * sum_inverse)
    assert orders["dqzl"] == pytest.approx(9800)


# --- Vacuity crossover -------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PANELS))
def test_vacuity_crossover_brackets_the_crossing(name):
    problem = PANELS[name]
    t_star = vacuity_crossover(problem, 10**9)
    assert 2 < t_star < 10**9
    # the trivial bound of the bound table: t times the largest gap
    assert theorem2_bound(t_star, problem) < t_star * problem.gaps.max()
    assert theorem2_bound(t_star - 1, problem) >= (t_star - 1) * problem.gaps.max()
    assert vacuity_crossover(problem, t_star - 1) == math.inf


def test_vacuity_crossover_brute_force_fig2a():
    t_star = vacuity_crossover(FIG2A, 10**6)
    t = np.arange(2, 10**6 + 1)
    vacuous = theorem2_bound(t, FIG2A) >= t * FIG2A.gaps.max()
    assert t_star == t[vacuous].max() + 1


def test_vacuity_crossover_never_vacuous():
    assert vacuity_crossover(FIG2A, 10**6, constant=-1e9) == 2


# --- Theorem 1: the constant policy ------------------------------------------------------------


def test_constant_policy_hand_values():
    # K = 1, D = 2, ν = 0.8, P(τ=1) = 0.25, P(τ=2) = 0.75.
    # j = 1: c ≡ 1, E[r] = 0.8·0.25 = 0.2 per epoch, so W(T) = 0.2·T.
    # j = 2: c = τ, E[r | c] = 0.8, W(T) = 0.25·(0.8 + W(T−1)) + 0.75·(0.8 + W(T−2)) (T ≥ 2):
    #   W(1) = 0.25·0.8 = 0.2;  W(2) = 0.25·1.0 + 0.75·0.8 = 0.85;
    #   W(3) = 0.25·(0.8 + 0.85) + 0.75·(0.8 + 0.2) = 0.4125 + 0.75 = 1.1625.
    problem = F2AProblem([0.8], [[0.25, 0.75]])
    horizons = np.array([0, 1, 2, 3])
    np.testing.assert_allclose(
        constant_policy_expected_reward(problem, 1, 1, horizons), [0, 0.2, 0.4, 0.6]
    )
    np.testing.assert_allclose(
        constant_policy_expected_reward(problem, 1, 2, horizons), [0, 0.2, 0.85, 1.1625]
    )
    # g_2 = 0.8/1.75 = 16/35: A(T) = W(T) − 16T/35.
    np.testing.assert_allclose(
        theorem1_offset(problem, 1, 2, horizons),
        [0, 0.2 - 16 / 35, 0.85 - 32 / 35, 1.1625 - 48 / 35],
    )


def test_theorem1_offset_sign_is_not_fixed():
    # Paper: A_j ∈ [0, j]; spec §4.1: A_j ∈ (−j g_j, 0]. Both fail at T = 1:
    # the toy above has A_2(1) = 0.2 − 16/35 < 0; Fig. 1c, j = 2 has W(1) = P(τ=1) = 1/2 and
    # g_2 = 1/3, so A_2(1) = 1/6 > 0.
    toy = F2AProblem([0.8], [[0.25, 0.75]])
    assert theorem1_offset(toy, 1, 2, 1) == pytest.approx(0.2 - 16 / 35)
    assert theorem1_offset(FIG1["1c"], 1, 2, 1) == pytest.approx(1 / 6)


@pytest.mark.parametrize(
    "problem, k, j", [(FIG1["1b"], 1, 5), (FIG1["1a"], 1, 10), (BERNOULLI, 1, 3), (FIG2A, 2, 4)]
)
def test_constant_policy_matches_monte_carlo(problem, k, j):
    horizon, reps = 30, 20000
    rng = np.random.default_rng([30, k, j, problem.D])
    cost, reward = simulate_costs_rewards(problem, k, j, (reps, horizon), rng)
    totals = np.where(np.cumsum(cost, axis=1) <= horizon, reward, 0.0).sum(axis=1)
    exact = constant_policy_expected_reward(problem, k, j, horizon)
    assert abs(totals.mean() - exact) <= 4 * totals.std(ddof=1) / math.sqrt(reps)


@pytest.mark.parametrize("name", sorted(FIG1))
def test_theorem1_offset_is_bounded(name):
    # |A_j| ≤ j (spec §4.1). Sharper, by Wald's identity on the stopping time L + 1 (not L):
    # W = g·E[S_{L+1}] − E[r_{L+1}] with T + 1 ≤ S_{L+1} ≤ T + j and 0 ≤ E[r_{L+1}] ≤ ν, so
    # A_j ∈ [g_j − ν, j·g_j].
    problem = FIG1[name]
    horizons = np.array([1, 2, 3, 7, 10, 25, 100, 1000, 10**5])
    for j in range(1, problem.D + 1):
        offset = theorem1_offset(problem, 1, j, horizons)
        g = problem.ratio[0, j - 1]
        assert np.all(np.abs(offset) <= j)
        assert np.all(offset >= g - problem.reward_prob[0] - 1e-9)
        assert np.all(offset <= j * g + 1e-9)


@pytest.mark.parametrize("name", sorted(PANELS))
def test_best_constant_policy_is_ratio_maximiser(name):
    problem = PANELS[name]
    horizon = 10**4
    rewards = np.array(
        [
            [
                constant_policy_expected_reward(problem, k, j, horizon)
                for j in range(1, problem.D + 1)
            ]
            for k in range(1, problem.K + 1)
        ]
    )
    best = np.flatnonzero(np.isclose(rewards.ravel(), rewards.max(), rtol=1e-12))
    optimal = [(k - 1) * problem.D + (j - 1) for k, j in problem.optimal_pairs]
    assert best.tolist() == optimal
