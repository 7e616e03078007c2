"""Tests of the exact B2DEP quantities (``timebandits.delaydep.model``, with exact_values,
pull_rewards and max_mean_cycle): eq. (1), g(m) (eq. 3), r*, the τ conventions, the
trajectories of π_ghost / π_greedy, Fact 1, the exact optimum (Karp), r_0 of Theorem 2, and the
config parsing.

Every expected number is worked out by hand in the comments (exact fractions), or computed
by an independent brute force (OPT: the best steady-state average over all cyclic arm sequences).
Arms are 0-based in code; "arm j" in comments is the paper's 1-based label.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as F

import numpy as np
import pytest

from timebandits.delaydep.exact_values import exact, f_table_from_config
from timebandits.delaydep.model import B2DEPProblem

# ------------------------------------------------------------------------------------------------
# instances
# ------------------------------------------------------------------------------------------------


def fig3() -> B2DEPProblem:
    """Fig. 3: μ = (1, 13/15), d = (2, 2), f(1) = 3/10, f(2) = 1/4."""
    return B2DEPProblem(["1", "13/15"], [2, 2], ["0.3", "0.25"])


def sect5_example() -> B2DEPProblem:
    """Sect. 5 example (erratum E1): μ = (1, 2/3, 1/2), d ≡ 2, f(τ) = 2^-τ."""
    return B2DEPProblem([1, F(2, 3), F(1, 2)], [2, 2, 2], [F(1, 2), F(1, 4)])


def greedy_example(eps=F(1, 10)) -> B2DEPProblem:
    """Sect. 3 greedy example: f ≡ 1/2, μ = (1, 1/2 − ε), d = (1, 1)."""
    return B2DEPProblem([1, F(1, 2) - eps], [1, 1], [F(1, 2)])


def steady_average(p: B2DEPProblem, cycle, repeats: int = 3) -> float:
    """Per-pull average of the last copy of ``cycle`` when it is repeated from a fresh state.
    After one full copy every arm of the cycle has its periodic τ, so the later copies are in
    steady state (τ is capped at D + 1 anyway)."""
    cycle = list(cycle)
    rewards = p.sequence_expected_rewards(cycle * repeats)
    return float(rewards[-len(cycle) :].mean())


def brute_force_opt(p: B2DEPProblem, max_length: int) -> float:
    """max over all arm sequences w with |w| ≤ max_length of the steady-state average of w^∞."""
    best = -math.inf
    for length in range(1, max_length + 1):
        for cycle in itertools.product(range(p.k), repeat=length):
            best = max(best, steady_average(p, cycle))
    return best


# ------------------------------------------------------------------------------------------------
# exact() and the f table
# ------------------------------------------------------------------------------------------------


def test_exact_reads_decimal_strings_and_fractions():
    assert exact(0.3, "x") == F(3, 10)  # through the decimal string, not the binary
    assert exact("13/15", "x") == F(13, 15)
    assert exact(" 0.25 ", "x") == F(1, 4)
    assert exact(np.float64(0.1), "x") == F(1, 10)
    assert exact(np.int64(3), "x") == 3
    assert exact(F(2, 7), "x") == F(2, 7)
    for bad in (math.nan, math.inf, "abc", "1/0", None, True, [0.5]):
        with pytest.raises(ValueError, match=r"^wkey"):
            exact(bad, "wkey")


def test_f_tail_is_constant_and_tau_zero_refused():
    p = fig3()
    assert [p.f_fraction(t) for t in (1, 2, 3, 10)] == [F(3, 10), F(1, 4), F(1, 4), F(1, 4)]
    with pytest.raises(ValueError):
        p.f_fraction(0)
    # a delay beyond the table uses the tail: d = 4, f = (1/2, 1/4) ⇒ μ(3) = μ(4) = 3/4, μ(5) = 1
    q = B2DEPProblem([1], [4], [F(1, 2), F(1, 4)])
    assert [q.mean_fraction(0, t) for t in range(6)] == [1, F(1, 2), F(3, 4), F(3, 4), F(3, 4), 1]


# ------------------------------------------------------------------------------------------------
# eq. (1), the mean table and τ conventions
# ------------------------------------------------------------------------------------------------


def table_instance() -> B2DEPProblem:
    # μ = (1, 1/2, 1/4), d = (1, 3, 2), f = (1/2, 1/4, 1/8); D = 3, table width D + 2 = 5
    return B2DEPProblem([1, "1/2", "1/4"], [1, 3, 2], ["1/2", "1/4", "1/8"])


def test_mean_fraction_eq1_by_hand():
    p = table_instance()
    # arm 1 (d = 1): τ = 0 baseline, τ = 1: 1·(1 − 1/2), τ ≥ 2 baseline
    assert [p.mean_fraction(0, t) for t in range(5)] == [1, F(1, 2), 1, 1, 1]
    # arm 2 (d = 3): 1/2·(1 − f(τ)) for τ = 1..3: 1/4, 3/8, 7/16
    assert [p.mean_fraction(1, t) for t in range(6)] == [
        F(1, 2),
        F(1, 4),
        F(3, 8),
        F(7, 16),
        F(1, 2),
        F(1, 2),
    ]
    # arm 3 (d = 2): 1/4·(1/2), 1/4·(3/4), then baseline
    assert [p.mean_fraction(2, t) for t in range(5)] == [
        F(1, 4),
        F(1, 8),
        F(3, 16),
        F(1, 4),
        F(1, 4),
    ]
    with pytest.raises(ValueError):
        p.mean_fraction(0, -1)


def test_mean_table_layout_and_mean_at():
    p = table_instance()
    table = p.mean_table()
    assert table.shape == (3, 5)
    expected = np.array(
        [[1, 0.5, 1, 1, 1], [0.5, 0.25, 0.375, 0.4375, 0.5], [0.25, 0.125, 0.1875, 0.25, 0.25]]
    )
    np.testing.assert_array_equal(table, expected)
    np.testing.assert_array_equal(table[:, 0], p.means)  # column 0: first pull = baseline
    np.testing.assert_array_equal(table[:, -1], p.means)  # column D + 1: baseline
    table[0, 1] = 99.0  # a copy: the problem is unchanged
    assert p.mean_table()[0, 1] == 0.5
    # mean_at: vectorised, τ capped at D + 1
    np.testing.assert_array_equal(
        p.mean_at(1, [0, 1, 2, 3, 4, 5, 1000]), [0.5, 0.25, 0.375, 0.4375, 0.5, 0.5, 0.5]
    )
    assert p.mean_at(0, 1) == 0.5 and isinstance(p.mean_at(0, 1), float)
    assert p.mean_at(2, 7) == 0.25
    with pytest.raises(ValueError):
        p.mean_at(0, [1, -1])
    assert p.k == 3 and p.max_delay == 3
    # μ_{a→b}(τ) (Fig. 1): μ_{2→3}(2) = 3/8 + 3/16 = 9/16; empty sum 0
    assert p.mu_sum_fraction(2, 3, 2) == F(9, 16)
    assert p.mu_sum_fraction(3, 2, 1) == 0


def test_tau_conventions_of_pull_sequences():
    # μ = (1, 1/2), d = (3, 3), f = (1/2, 1/4, 1/8): every τ ∈ {0..4} gives a different mean
    #   arm 1: τ=0 → 1, τ=1 → 1/2, τ=2 → 3/4, τ=3 → 7/8, τ≥4 → 1;  arm 2: half of these
    p = B2DEPProblem([1, "1/2"], [3, 3], ["1/2", "1/4", "1/8"])
    seq = p.sequence_expected_rewards
    # first pulls at baseline (τ = 0), then alternation 0,1,0,1: τ = 2 from the first cycle on
    np.testing.assert_array_equal(seq([0, 1, 0, 1, 0, 1]), [1, 0.5, 0.75, 0.375, 0.75, 0.375])
    # a repeated pull has τ = 1
    np.testing.assert_array_equal(seq([0, 0, 0]), [1, 0.5, 0.5])
    # τ = 3 = d (still delayed), τ = 4 > d (baseline)
    np.testing.assert_array_equal(seq([0, 1, 1, 0]), [1, 0.5, 0.25, 0.875])
    np.testing.assert_array_equal(seq([0, 1, 1, 1, 0]), [1, 0.5, 0.25, 0.25, 1])
    assert seq([]).size == 0
    with pytest.raises(ValueError):
        seq([0, 2])
    # π_m repeated: every pull after the first cycle has τ = m (spec P1)
    q = sect5_example()
    for m in (1, 2, 3):
        rewards = q.sequence_expected_rewards(list(range(m)) * 4)
        np.testing.assert_allclose(rewards[:m], q.means[:m])
        np.testing.assert_allclose(
            rewards[m:], np.tile([float(q.mean_fraction(j, m)) for j in range(m)], 3)
        )
        assert rewards[m:].mean() == pytest.approx(q.g(m), abs=1e-15)


# ------------------------------------------------------------------------------------------------
# g(m), r* and ties
# ------------------------------------------------------------------------------------------------


def test_g_sect5_example_by_hand():
    # g(1) = μ1(1) = 1 − 1/2 = 1/2
    # g(2) = (μ1(2) + μ2(2))/2 = (3/4 + 2/3·3/4)/2 = (3/4 + 1/2)/2 = 5/8
    # g(3): τ = 3 > d = 2, baselines: (1 + 2/3 + 1/2)/3 = 13/18
    p = sect5_example()
    assert [p.g_fraction(m) for m in (1, 2, 3)] == [F(1, 2), F(5, 8), F(13, 18)]
    np.testing.assert_allclose(p.g_all(), [0.5, 0.625, 13 / 18])
    assert p.r_star == 3
    # erratum E1: the claimed g(2) < g(1) < g(3) holds with f ≡ 1/2 instead:
    # g = (1/2, (1/2 + 1/3)/2 = 5/12, 13/18)
    q = B2DEPProblem([1, F(2, 3), F(1, 2)], [2, 2, 2], [F(1, 2)])
    assert [q.g_fraction(m) for m in (1, 2, 3)] == [F(1, 2), F(5, 12), F(13, 18)]
    assert q.g_fraction(2) < q.g_fraction(1) < q.g_fraction(3)
    assert q.best_gap() == pytest.approx(13 / 18 - 1 / 2)
    with pytest.raises(ValueError):
        p.g_fraction(0)
    with pytest.raises(ValueError):
        p.g_fraction(4)


def test_fig3_exact_tie_goes_to_smallest_m():
    # g(1) = 0.7·1 = 7/10;  g(2) = (3/4)(1 + 13/15)/2 = (3/4)(14/15) = 7/10
    p = fig3()
    assert p.g_fraction(1) == p.g_fraction(2) == F(7, 10)
    assert p.r_star == 1
    assert p.best_gap() == 0.0
    # steady-state means of the spec: μ1(1) = 0.7, μ1(2) = 0.75, μ2(2) = 0.65, μ2(≥3) = 13/15
    assert p.mean_fraction(0, 1) == F(7, 10) and p.mean_fraction(0, 2) == F(3, 4)
    assert p.mean_fraction(1, 2) == F(13, 20) and p.mean_fraction(1, 3) == F(13, 15)
    # binary floats break the tie (why the config uses strings): 13/15 as a float is 0.8666…67
    assert B2DEPProblem([1.0, 13 / 15], [2, 2], [0.3, 0.25]).r_star == 2


def test_r_star_picks_first_maximiser_among_three():
    # f ≡ 1 ⇒ μ_j(m) = 0 when m ≤ d_j. μ = (1/2, 1/2, 1/2), d = (1, 1, 1):
    # g(1) = 0, g(2) = g(3) = 1/2 (τ = m > d = 1) ⇒ r* = 2
    p = B2DEPProblem([F(1, 2)] * 3, [1, 1, 1], [1])
    assert [p.g_fraction(m) for m in (1, 2, 3)] == [0, F(1, 2), F(1, 2)]
    assert p.r_star == 2


def test_k1_instance():
    p = B2DEPProblem([F(3, 5)], [2], [F(1, 3)])
    assert p.g_fraction(1) == F(2, 5) and p.r_star == 1
    assert math.isnan(p.best_gap())
    assert p.r0 == 1
    assert p.opt_average == pytest.approx(0.4)


# ------------------------------------------------------------------------------------------------
# π_ghost and π_greedy trajectories
# ------------------------------------------------------------------------------------------------


def test_ghost_trajectory_first_cycle_baselines():
    # μ = (1, 9/10), d = (2, 2), f = (3/10, 1/4): g(1) = 7/10, g(2) = (3/4)(19/10)/2 = 57/80
    # ⇒ r* = 2
    # ghost: 1, 9/10 (baselines), then μ1(2) = 3/4, μ2(2) = 27/40 alternately
    p = B2DEPProblem([1, "0.9"], [2, 2], ["0.3", "0.25"])
    assert p.g_fraction(2) == F(57, 80) and p.r_star == 2
    np.testing.assert_allclose(
        p.ghost_expected_rewards(7), [1, 0.9, 0.75, 0.675, 0.75, 0.675, 0.75], rtol=0, atol=1e-15
    )
    # Fig. 3 (r* = 1): 1, then μ1(1) = 7/10 forever
    np.testing.assert_allclose(
        fig3().ghost_expected_rewards(5), [1, 0.7, 0.7, 0.7, 0.7], rtol=0, atol=1e-15
    )
    assert fig3().ghost_expected_rewards(0).size == 0
    # Sect. 5 example (r* = 3 > d): all pulls at the baseline
    np.testing.assert_allclose(
        sect5_example().ghost_expected_rewards(6), [1, 2 / 3, 1 / 2] * 2, rtol=0, atol=1e-15
    )


def test_greedy_paper_example():
    # Sect. 3: greedy always pulls arm 1: 1, then 1/2 forever (arm 2 at baseline is 0.4 < 0.5)
    p = greedy_example()
    np.testing.assert_array_equal(p.greedy_expected_rewards(6), [1, 0.5, 0.5, 0.5, 0.5, 0.5])
    # G_T(greedy) = 1 + (T − 1)/2 exactly
    assert p.greedy_expected_rewards(101).sum() == pytest.approx(1 + 100 / 2)


def test_greedy_three_arms_by_hand_and_tie_break():
    # μ = (1, 0.9, 0.6), d ≡ 2, f ≡ 1/2. Means: arm1 (1, .5, .5, 1), arm2 (.9, .45, .45, .9),
    # arm3 (.6, .3, .3, .6) for τ = 0..3.
    # t1: all fresh → arm1 (1). t2: arm1 τ=1 .5, arm2 .9 → arm2. t3: arm1 τ=2 .5, arm2 τ=1 .45,
    # arm3 .6 → arm3. t4: arm1 τ=3 → 1 ... the cycle 1,2,3 with baselines 1, .9, .6
    p = B2DEPProblem([1, "0.9", "0.6"], [2, 2, 2], ["0.5"])
    np.testing.assert_allclose(p.greedy_expected_rewards(9), [1, 0.9, 0.6] * 3, rtol=0, atol=1e-15)
    # Tie: μ = (1, 0.8, 0.75), d = (2, 1, 1), f = (1/2, 1/4).
    # arm1: (1, .5, .75, 1); arm2 (d=1): (.8, .4, .8); arm3 (d=1): (.75, .375, .75).
    # t1 arm1 (1); t2 arm2 (.8 > .5, .75); t3: arm1 τ=2 .75 = arm3 .75 → tie → arm1 (.75);
    # t4: arm1 τ=1 .5, arm2 τ=2 .8, arm3 .75 → arm2 (.8); t5: arm1 τ=2 .75 ties arm3 → arm1 ...
    # (had the tie gone to arm3 at t3, t4 would be arm1 at τ = 3: reward 1)
    q = B2DEPProblem([1, "0.8", "0.75"], [2, 1, 1], ["0.5", "0.25"])
    np.testing.assert_array_equal(
        q.greedy_expected_rewards(7), [1, 0.8, 0.75, 0.8, 0.75, 0.8, 0.75]
    )


# ------------------------------------------------------------------------------------------------
# Fact 1: alternation of π_m and π_n
# ------------------------------------------------------------------------------------------------


def test_fig3_alternation_average_by_hand():
    # π1 after π2: μ1(2) = 3/4; π2 after π1: μ1(1) + μ2(3) = 7/10 + 13/15
    # average = (3/4 + 7/10 + 13/15)/3 = (139/60)/3 = 139/180 ≈ 0.7722 > g(1) = g(2) = 7/10
    p = fig3()
    assert p.alternation_average_fraction(1, 2) == F(139, 180)
    assert p.alternation_average_fraction(2, 1) == F(139, 180)
    assert p.alternation_average(1, 2) == pytest.approx(139 / 180)
    assert steady_average(p, [0, 0, 1]) == pytest.approx(139 / 180, abs=1e-15)


def random_instance(rng, k_max=4, d_max=3, denominator=12) -> B2DEPProblem:
    k = int(rng.integers(2, k_max + 1))
    means = sorted(
        (F(int(x), denominator) for x in rng.integers(0, denominator + 1, size=k)), reverse=True
    )
    delays = [int(x) for x in rng.integers(1, d_max + 1, size=k)]
    length = int(rng.integers(1, d_max + 2))
    f = sorted(
        (F(int(x), denominator) for x in rng.integers(0, denominator + 1, size=length)),
        reverse=True,
    )
    return B2DEPProblem(means, delays, f)


def test_alternation_formula_matches_simulated_alternation():
    rng = np.random.default_rng(20240604)
    for _ in range(25):
        p = random_instance(rng, k_max=5, d_max=6)
        for m in range(1, p.k + 1):
            assert p.alternation_average_fraction(m, m) == p.g_fraction(m)
            for n in range(m + 1, p.k + 1):
                cycle = list(range(m)) + list(range(n))
                exact_value = p.alternation_average_fraction(m, n)
                assert steady_average(p, cycle, repeats=4) == pytest.approx(
                    float(exact_value), abs=1e-12
                )
                # Fact 1 identity (spec §4): alternation − (m g(m) + n g(n))/(m + n)
                #   = [μ_{m+1→n}(m+n) − μ_{m+1→n}(n)]/(m + n) ≥ 0
                excess = exact_value - (m * p.g_fraction(m) + n * p.g_fraction(n)) / (m + n)
                assert excess == (
                    p.mu_sum_fraction(m + 1, n, m + n) - p.mu_sum_fraction(m + 1, n, n)
                ) / (m + n)
                assert excess >= 0


# ------------------------------------------------------------------------------------------------
# the exact optimum (state graph + Karp) vs brute force
# ------------------------------------------------------------------------------------------------


def test_opt_fig3_and_greedy_example_by_hand():
    # Fig. 3: the best cycle is 1,1,2,2: arm 1 at τ = 3 (baseline 1) and τ = 1 (7/10), arm 2
    # at τ = 3 (13/15) and τ = 1 (7/10·13/15): (1 + 7/10)(1 + 13/15)/4 = 119/150 ≈ 0.7933
    p = fig3()
    assert steady_average(p, [0, 0, 1, 1]) == pytest.approx(119 / 150, abs=1e-15)
    assert p.opt_average == pytest.approx(119 / 150, abs=1e-12)
    assert p.opt_average > p.alternation_average(1, 2) > p.g(1)
    # greedy example: π* alternates, OPT = (1 + 1/2 − ε)/2 = 0.7 for ε = 1/10
    q = greedy_example()
    assert q.opt_average == pytest.approx(0.7, abs=1e-12)


def test_state_graph_structure_fig3():
    # reachable from (fresh, fresh): pull 1 → (1, fresh) ... five states in all
    successors, rewards = fig3().state_graph()
    assert successors.shape == rewards.shape and successors.shape[1] == 2
    assert successors.shape[0] == 5
    np.testing.assert_allclose(rewards[0], [1, 13 / 15])  # start: both baselines
    assert 0 not in successors  # no edge back to all-fresh
    # every reward is one of the table entries at τ ≥ 1
    table = fig3().mean_table()
    for a in range(2):
        assert set(np.round(rewards[:, a], 12)) <= set(np.round(table[a, 1:], 12))


@pytest.mark.parametrize("seed", range(6))
def test_opt_equals_brute_force_on_tiny_instances(seed):
    # k ∈ {2, 3}, d ≤ 2: at most 27 states. A maximum mean cycle is a simple cycle of the state
    # graph, i.e. the steady state of an arm sequence of length ≤ #states; 8 suffices here
    # (checked: the reachable graphs have ≤ 10 states and the optimum is short), and OPT ≥ any
    # such average holds regardless.
    rng = np.random.default_rng(1000 + seed)
    for _ in range(2):
        p = random_instance(rng, k_max=3, d_max=2, denominator=10)
        max_length = 8 if p.k == 3 else 10
        brute = brute_force_opt(p, max_length)
        assert p.opt_average == pytest.approx(brute, abs=1e-9)
        assert p.opt_average >= max(p.g_all()) - 1e-12
        for m in range(1, p.k + 1):
            for n in range(m + 1, p.k + 1):
                assert p.opt_average >= p.alternation_average(m, n) - 1e-12


def test_opt_hand_instances_brute_force():
    for p in (
        fig3(),
        greedy_example(),
        sect5_example(),
        B2DEPProblem([1, "0.9", "0.3"], [2, 1, 2], ["0.9", "0.1"]),
    ):
        max_length = 10 if p.k == 2 else 8
        assert p.opt_average == pytest.approx(brute_force_opt(p, max_length), abs=1e-9)


@pytest.mark.parametrize(
    "means, delays, f",
    [
        # instances (found by a seeded search) where some non-ranking cycle beats every π_m
        # by > 0.01
        (["9/10", "4/5", "3/10"], [2, 1, 2], ["7/10", "2/5"]),
        (["1", "1/2", "3/10"], [1, 2, 1], ["3/10", "1/5"]),
        (["7/10", "1/2", "3/10"], [1, 2, 1], ["3/5", "2/5"]),
        (["1", "4/5", "4/5"], [1, 2, 1], ["7/10", "2/5"]),
        (["1", "7/10", "1/2"], [1, 2, 2], ["7/10", "1/5"]),
        (["9/10", "4/5", "3/5"], [1, 2, 1], ["4/5", "3/10"]),
    ],
)
def test_opt_beats_ranking_policies_brute_force(means, delays, f):
    p = B2DEPProblem(means, delays, f)
    brute = brute_force_opt(p, 8)
    assert brute > max(p.g_all()) + 0.01
    assert p.opt_average == pytest.approx(brute, abs=1e-9)


def test_state_graph_refuses_huge_instances():
    p = B2DEPProblem([1, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4], [6] * 7, [0.5])  # 7^7 states
    with pytest.raises(ValueError, match="MAX_STATES"):
        p.state_graph()


# ------------------------------------------------------------------------------------------------
# r_0 and Theorem 2
# ------------------------------------------------------------------------------------------------


def test_r0_hand_cases():
    # Fig. 3: μ2 = 13/15 > μ1(1) = 7/10 ⇒ r0 = 2 = k
    assert fig3().r0 == 2
    # Sect. 5 example: μ2 = 2/3 > μ1(1) = 1/2; μ3 = 1/2 vs max(μ1(2) = 3/4, μ2(1) = 1/3) ⇒ r0 = 2
    assert sect5_example().r0 == 2
    # μ2 = μ1(1) exactly ⇒ r0 = 1 (strict inequality)
    assert B2DEPProblem([1, "1/2"], [1, 1], ["1/2"]).r0 == 1
    # μ = (1, .9, .8), f = (.5, .3):
    #   d ≡ 1: μ3 = .8 vs max(μ1(2) = 1 (τ > d), μ2(1) = .45) ⇒ fails ⇒ r0 = 2
    #   d ≡ 2: μ3 = .8 vs max(μ1(2) = .7, μ2(1) = .45) ⇒ holds ⇒ r0 = 3
    assert B2DEPProblem([1, "0.9", "0.8"], [1, 1, 1], ["0.5", "0.3"]).r0 == 2
    assert B2DEPProblem([1, "0.9", "0.8"], [2, 2, 2], ["0.5", "0.3"]).r0 == 3


def test_approximation_check_fig3_fields():
    c = fig3().approximation_check()
    assert c["r_star"] == 1 and c["r0"] == 2
    assert c["g_ghost"] == pytest.approx(0.7)
    assert c["opt"] == pytest.approx(119 / 150)
    assert c["f_r0"] == pytest.approx(0.25)  # f(r0) = f(2)
    assert c["lower_bound"] == pytest.approx(0.75 * 119 / 150)
    assert c["top_r0_mean"] == pytest.approx(14 / 15)  # (1 + 13/15)/2
    assert c["ratio"] == pytest.approx(0.7 / (119 / 150))
    assert c["ghost_bound_holds"] is True and c["opt_bound_holds"] is True


def test_theorem2_on_random_small_instances():
    rng = np.random.default_rng(7)
    for _ in range(30):
        p = random_instance(rng, k_max=4, d_max=3)
        c = p.approximation_check()
        assert c["ghost_bound_holds"] and c["opt_bound_holds"]
        assert c["opt"] >= c["g_ghost"] - 1e-12
        assert c["r_star"] == p.r_star and c["r0"] == p.r0


# ------------------------------------------------------------------------------------------------
# validation and config parsing
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "means, delays, f, key",
    [
        ([0.5, 0.9], [1, 1], [0.5], r"^means"),  # not descending
        ([1.5, 0.2], [1, 1], [0.5], r"^means"),  # outside [0, 1]
        ([0.9, -0.1], [1, 1], [0.5], r"^means"),
        (["abc", 0.2], [1, 1], [0.5], r"^means\[0\]"),
        ([0.9, math.nan], [1, 1], [0.5], r"^means\[1\]"),
        ([], [], [0.5], r"^means"),
        ([[0.9, 0.5]], [1], [0.5], r"^means"),  # not flat
        ([0.9, 0.5], [1, 0], [0.5], r"^delays"),
        ([0.9, 0.5], [1, 1.5], [0.5], r"^delays"),
        ([0.9, 0.5], [1, -2], [0.5], r"^delays"),
        ([0.9, 0.5], [1, True], [0.5], r"^delays"),
        ([0.9, 0.5], [1, "2"], [0.5], r"^delays"),
        ([0.9, 0.5], [1], [0.5], r"^delays"),  # one delay per arm
        ([0.9, 0.5], [1, 1], [0.2, 0.3], r"^f"),  # increasing
        ([0.9, 0.5], [1, 1], [1.2], r"^f"),
        ([0.9, 0.5], [1, 1], [-0.1], r"^f"),
        ([0.9, 0.5], [1, 1], [], r"^f"),
        ([0.9, 0.5], [1, 1], ["x"], r"^f\[0\]"),
    ],
)
def test_validation_errors_name_the_key(means, delays, f, key):
    with pytest.raises(ValueError, match=key):
        B2DEPProblem(means, delays, f)


def test_equal_means_are_allowed():
    p = B2DEPProblem([0.5, 0.5], [1, 1], [0.5])
    assert p.g_fraction(2) == F(1, 2)


@pytest.mark.parametrize(
    "environment, key",
    [
        ("not a mapping", r"^environment"),
        ({"delays": [1], "f": {"kind": "table", "values": [0.5]}}, r"^environment\.means"),
        ({"means": [1], "delays": [1]}, r"^environment\.f"),
        ({"means": [1], "f": {"kind": "table", "values": [0.5]}}, r"^environment\.delays"),
        ({"means": [1], "delays": [1], "f": 0.5}, r"^f:"),
        ({"means": [1], "delays": [1], "f": {"kind": "linear"}}, r"^f\.kind"),
        ({"means": [1], "delays": [1], "f": {"values": [0.5]}}, r"^f\.kind"),
        ({"means": [1], "delays": [1], "f": {"kind": "geometric"}}, r"^f\.base"),
        ({"means": [1], "delays": [1], "f": {"kind": "geometric", "base": 1.5}}, r"^f\.base"),
        ({"means": [1], "delays": [1], "f": {"kind": "geometric", "base": "x"}}, r"^f\.base"),
        ({"means": [1], "delays": [1], "f": {"kind": "table", "values": []}}, r"^f\.values"),
        ({"means": [1], "delays": [1], "f": {"kind": "table", "values": 0.5}}, r"^f\.values"),
        (
            {"means": [1], "delays": [1], "f": {"kind": "table", "values": [0.5, "y"]}},
            r"^f\.values\[1\]",
        ),
        ({"means": [1], "delays": [0], "f": {"kind": "table", "values": [0.5]}}, r"^delays"),
        ({"means": [0.2, 1], "delays": [1, 1], "f": {"kind": "table", "values": [0.5]}}, r"^means"),
    ],
)
def test_from_config_errors_name_the_key(environment, key):
    with pytest.raises(ValueError, match=key):
        B2DEPProblem.from_config(environment)


def test_from_config_geometric_f():
    env = {
        "means": [1, "14/15", "13/15"],
        "delays": [3, 1, 2],
        "f": {"kind": "geometric", "base": 0.999},
    }
    p = B2DEPProblem.from_config(env)
    # tabulated up to max delay 3: f(τ) = (999/1000)^τ exactly
    assert p.f_exact == (F(999, 1000), F(999, 1000) ** 2, F(999, 1000) ** 3)
    np.testing.assert_allclose(p.f_values, [0.999, 0.999**2, 0.999**3], rtol=1e-15)
    # arm 1 at τ = 3 (= d): 1 − 0.999³ = 2997001/10⁹; arm 2 (d = 1) at τ = 2: baseline 14/15
    assert p.mean_fraction(0, 3) == F(2997001, 10**9)
    assert p.mean_fraction(1, 2) == F(14, 15)
    assert p.mean_fraction(2, 2) == F(13, 15) * (1 - F(999, 1000) ** 2)
    # delays override (Fig. 2 draws them per run): table length = new max delay
    q = B2DEPProblem.from_config(env, delays=[5, 5, 1])
    assert list(q.delays) == [5, 5, 1] and len(q.f_exact) == 5
    assert q.f_fraction(5) == F(999, 1000) ** 5
    # the config's delays may be absent when overridden
    r = B2DEPProblem.from_config({k: v for k, v in env.items() if k != "delays"}, delays=[1, 2, 3])
    assert list(r.delays) == [1, 2, 3]
    assert f_table_from_config({"kind": "geometric", "base": "1/2"}, 3) == [
        F(1, 2),
        F(1, 4),
        F(1, 8),
    ]


def test_from_config_table_f_fig3():
    env = {"means": ["1", "13/15"], "delays": [2, 2], "f": {"kind": "table", "values": [0.3, 0.25]}}
    p = B2DEPProblem.from_config(env)
    assert p.f_exact == (F(3, 10), F(1, 4))
    assert p.g_fraction(1) == p.g_fraction(2) == F(7, 10)
    assert p.r_star == 1
    np.testing.assert_allclose(
        p.mean_table(), [[1, 0.7, 0.75, 1], [13 / 15, 0.7 * 13 / 15, 0.65, 13 / 15]]
    )
    # the table f is taken as given (not padded); a constant tail covers larger τ
    assert f_table_from_config({"kind": "table", "values": ["0.3"]}, 10) == [F(3, 10)]


def test_f_exact_at_r0_beyond_the_largest_delay():
    # Fig. 2's means with d ≡ 5: every μ_i for i ≤ 6 beats the earlier arms' μ_j(i − j) (τ ≤ 5 ≤ d,
    # so each is μ_j·(1 − 0.999^τ) < 0.006), but μ_7 = 0 < μ_1(6) = 1 (τ = 6 > d): r_0 = 6 > max d.
    # f(r_0) must be 0.999^6 exactly, not the last tabulated 0.999^5.
    environment = {
        "means": ["1", "14/15", "13/15", "4/5", "2/3", "1/3", "0"],
        "f": {"kind": "geometric", "base": 0.999},
    }
    problem = B2DEPProblem.from_config(environment, delays=[5] * 7)
    assert problem.r0 == 6
    assert problem.f_fraction(problem.r0) == F(999, 1000) ** 6
