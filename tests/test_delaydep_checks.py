"""Tests of timebandits.delaydep.random_instance_checks and ranker_checks: random instances,
Karp's OPT against brute force over cyclic arm sequences, the Theorem 2 and Fact 1 tables
recomputed by hand, the Theorem 2 proxy, and BanditRanker against Theorem 4."""

import itertools
from fractions import Fraction as F

import numpy as np
import pytest
from delaydep_instances import FIG2_MEANS, fig2_f_values, fig3_problem

from timebandits.delaydep.model import B2DEPProblem
from timebandits.delaydep.random_instance_checks import (
    fact1_table,
    random_instance,
    theorem2_proxy,
    theorem2_table,
)
from timebandits.delaydep.ranker_checks import theorem4_table

DELTA = 0.1
B2DEP_DELAYS, D0 = (3, 1, 2, 3, 1, 2, 3), 4  # max d_i < d_0 ≤ k (spec P9)


def brute_force_opt(problem, max_length):
    """The best steady-state average over every cyclic arm sequence of length ≤ max_length."""
    best = -np.inf
    for length in range(1, max_length + 1):
        for word in itertools.product(range(problem.k), repeat=length):
            rewards = problem.sequence_expected_rewards(np.tile(word, 3))
            best = max(best, rewards[-length:].mean())
    return best


def hand_mean(means, delays, f, i, tau):
    """μ_i(τ) of eq. (1) from the table's string columns (0-based arm i, τ ≥ 1)."""
    f_tau = F(f[min(tau, len(f)) - 1])
    return F(means[i]) * (1 - f_tau) if tau <= delays[i] else F(means[i])


def hand_mu_sum(means, delays, f, a, b, tau):
    """μ_{a→b}(τ) (1-based arms a..b, 0 if a > b)."""
    return sum((hand_mean(means, delays, f, j - 1, tau) for j in range(a, b + 1)), F(0))


# ---- random instances and Karp ------------------------------------------------------------------


def test_random_instance_properties_and_determinism():
    rng = np.random.default_rng(11)
    for _ in range(50):
        problem = random_instance(rng, k_max=4, d_max=3)
        means = problem.means_exact
        assert 2 <= problem.k <= 4
        assert all(a > b for a, b in itertools.pairwise(means))
        assert all((20 * m).denominator == 1 for m in means)
        assert all(1 <= d <= 3 for d in problem.delays)
        assert all(a >= b for a, b in zip(problem.f_exact, problem.f_exact[1:]))
        assert all(0 <= v <= 1 for v in problem.f_exact)
    first = random_instance(np.random.default_rng(4))
    second = random_instance(np.random.default_rng(4))
    assert first.means_exact == second.means_exact and first.f_exact == second.f_exact
    assert list(first.delays) == list(second.delays)
    with pytest.raises(ValueError, match="k_max"):
        random_instance(rng, k_max=1)


def test_karp_matches_brute_force_on_tiny_instances():
    # k = 2 with every delay pair in {1, 2}²: at most 9 states, so every simple cycle has length
    # ≤ 9 and the brute force over cyclic sequences of length ≤ 9 is exact
    f_tables = (["1/2"], ["9/10", "1/10"], ["1", "1"], ["3/10", "1/4"])
    for delays in itertools.product((1, 2), repeat=2):
        for means in (["1", "13/15"], ["1", "1/5"], ["1/2", "9/20"]):
            for f in f_tables:
                problem = B2DEPProblem(means, delays, f)
                assert problem.opt_average == pytest.approx(brute_force_opt(problem, 9), abs=1e-12)
    # k = 3, d ≡ 1: 8 states
    problem = B2DEPProblem(["1", "3/4", "1/2"], [1, 1, 1], ["3/5"])
    assert problem.opt_average == pytest.approx(brute_force_opt(problem, 8), abs=1e-12)
    rng = np.random.default_rng(2)
    for _ in range(5):
        problem = random_instance(rng, k_max=2, d_max=2)
        assert problem.opt_average == pytest.approx(brute_force_opt(problem, 9), abs=1e-12)


# ---- Theorem 2 ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def theorem2():
    return theorem2_table(0, 200)


def test_theorem2_table_recomputed_by_hand(theorem2):
    for row in theorem2.head(10).itertuples():
        k, means, delays, f = row.k, row.means, row.delays, row.f
        g = [sum(hand_mean(means, delays, f, j, m) for j in range(m)) / m for m in range(1, k + 1)]
        assert row.r_star == g.index(max(g)) + 1
        assert row.g_ghost == pytest.approx(float(max(g)), abs=1e-15)
        r0 = 1
        for i in range(1, k):  # 0-based arm i is the paper's arm i + 1
            if F(means[i]) > max(hand_mean(means, delays, f, j, i - j) for j in range(i)):
                r0 = i + 1
            else:
                break
        assert row.r0 == r0
        assert row.f_r0 == pytest.approx(float(F(f[min(r0, len(f)) - 1])))
        assert row.top_r0_mean == pytest.approx(float(sum(F(m) for m in means[:r0]) / r0))
        assert row.ratio == pytest.approx(row.g_ghost / row.opt)


def test_theorem2_table_properties(theorem2):
    assert len(theorem2) == 200
    assert theorem2["opt_ge_g"].all()
    # the proof is valid under the repeat condition: there both inequalities must hold
    valid = theorem2[theorem2["repeat_condition"]]
    assert len(valid) > 150
    assert valid["ghost_bound_holds"].all() and valid["opt_bound_holds"].all()
    # ... and the proof's intermediate claim fails on some random instances (Theorem 2 erratum)
    assert (~theorem2["opt_bound_holds"]).any()
    assert theorem2.equals(theorem2_table(0, 200))


def test_theorem2_proxy_on_figure3_and_figure2():
    proxy = theorem2_proxy(fig3_problem())
    # r_0 = 2 (13/15 > μ_1(1) = 7/10); g(r*) = 7/10 = (1 − 1/4)·(1 + 13/15)/2 exactly
    assert (proxy["r0"], proxy["f_r0"], proxy["top_r0_mean"]) == (2, F(1, 4), F(14, 15))
    assert proxy["g_ghost"] == proxy["lower_bound"] == F(7, 10)
    assert proxy["sufficient"] and proxy["repeat_condition"] and proxy["certified"]
    assert fig3_problem().opt_average <= float(proxy["top_r0_mean"])
    # Fig. 2, d = (1, 6, 1, 1, 1, 1, 1): μ_3 = 13/15 < μ_1(2) = 1 (d_1 = 1), so r_0 = 2
    fig2 = theorem2_proxy(B2DEPProblem(FIG2_MEANS, [1, 6, 1, 1, 1, 1, 1], fig2_f_values(6)))
    assert (fig2["r0"], fig2["f_r0"], fig2["r_star"]) == (2, F(999, 1000) ** 2, 4)
    assert fig2["certified"]
    rng = np.random.default_rng(8)
    for _ in range(20):
        problem = B2DEPProblem(FIG2_MEANS, rng.integers(1, 7, size=7), fig2_f_values(6))
        assert theorem2_proxy(problem)["sufficient"]


# ---- Fact 1 -------------------------------------------------------------------------------------


def test_fact1_table_identity_and_simulation():
    table = fact1_table(1, 60)
    assert table["identity_holds"].all() and table["nonnegative"].all()
    assert table["simulated_matches"].all()
    assert (table["difference"] >= 0).all()
    tied = table[table["tied"]]
    assert (tied["alternation"] >= tied["g_m"]).all()
    for row in table.head(12).itertuples():
        m, n, instance = row.m, row.n, (row.means, row.delays, row.f)
        assert row.alternation == (
            hand_mu_sum(*instance, 1, m, n)
            + hand_mu_sum(*instance, 1, m, m)
            + hand_mu_sum(*instance, m + 1, n, m + n)
        ) / (m + n)
        assert row.g_m == hand_mu_sum(*instance, 1, m, m) / m
        assert row.g_n == hand_mu_sum(*instance, 1, n, n) / n
        assert row.simulated == pytest.approx(float(row.alternation), abs=1e-12)
    assert table.equals(fact1_table(1, 60))


def test_fact1_strict_on_figure3_instance():
    problem = fig3_problem()
    alternation = problem.alternation_average_fraction(1, 2)
    weighted = (problem.g_fraction(1) + 2 * problem.g_fraction(2)) / 3
    # [μ_2(3) − μ_2(2)]/3 = (13/15 − 13/20)/3
    assert alternation - weighted == (F(13, 15) - F(13, 20)) / 3 > 0


# ---- Theorem 4 ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def theorem4():
    means = [[float(m) for m in FIG2_MEANS], [0.9, 0.6, 0.3], [0.7, 0.5]]
    b2dep = (B2DEPProblem(FIG2_MEANS, B2DEP_DELAYS, fig2_f_values(3)), D0)
    return theorem4_table(means, DELTA, runs=20, seed=0, b2dep=b2dep)


def test_theorem4_table(theorem4):
    assert len(theorem4) == 4
    assert list(theorem4["k"]) == [7, 3, 2, 7]
    assert list(theorem4["pull_bound"]) == [204061, 5055, 8124, theorem4["pull_bound"].iloc[3]]
    assert (theorem4["fraction_correct"] >= 1 - DELTA).all()
    assert theorem4["max_within_bound"].all()
    assert (theorem4["mean_pulls"] <= theorem4["max_pulls"]).all()
    b2dep = theorem4.iloc[3]
    assert b2dep["d0"] == D0 and b2dep["delays"] == B2DEP_DELAYS
    # every B2DEP round costs 2·d_0·⌈|A_r|/d_0⌉ ≥ 2|A_r| pulls: more than the stationary version
    assert b2dep["mean_pulls"] > theorem4.iloc[0]["mean_pulls"]


def test_theorem4_determinism_and_seeds():
    first = theorem4_table([[0.7, 0.5]], DELTA, runs=5, seed=np.random.SeedSequence(3))
    second = theorem4_table([[0.7, 0.5]], DELTA, runs=5, seed=np.random.SeedSequence(3))
    other = theorem4_table([[0.7, 0.5]], DELTA, runs=5, seed=4)
    assert first.equals(second)
    assert first["mean_pulls"].iloc[0] != other["mean_pulls"].iloc[0]
    with pytest.raises(ValueError, match="seed"):
        theorem4_table([[0.7, 0.5]], DELTA, runs=1, seed=-1)
    with pytest.raises(ValueError, match="runs"):
        theorem4_table([[0.7, 0.5]], DELTA, runs=0, seed=0)
