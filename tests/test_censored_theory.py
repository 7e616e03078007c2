"""Tests of the censored-resources bounds (timebandits.censored.theory, proposition1, theorem2,
regret_decompositions): hand-computed values of Theorem 1, Corollary 14 and Proposition 1 on a
2x2 table, δ admissibility, vacuity at α ≤ 1, the regret decompositions (6) and (11), and
Theorem 2's constant and rate."""

import math

import numpy as np
import pytest

from timebandits.censored.proposition1 import confidence_width, proposition1_violation_bound
from timebandits.censored.regret_decompositions import (
    cumulative_from_exact_counts,
    exact_counts_from_cumulative,
    regret_from_counts,
    regret_from_cumulative,
)
from timebandits.censored.theorem2 import (
    near_optimality_constant,
    packing_number,
    simple_regret,
    theorem2_bound,
    theorem2_c_T,
    theorem2_constant,
    theorem2_H_T,
    theorem2_rate,
)
from timebandits.censored.theory import (
    bound_magnitudes,
    corollary14_bound,
    corollary14_per_pair,
    gaps,
    peeling_constant,
    theorem1_bound,
    theorem1_delta_max,
    theorem1_h,
    theorem1_lower_terms,
    theorem1_per_pair,
)

# Two arms x two limits τ1 < τ2, λ(τ1) = 0.1, λ(τ2) = 1. ν* = 0.5 at (arm 0, τ1);
# Δ = [[0, 0.2], [0.3, 0.1]].
NU = np.array([[0.5, 0.3], [0.2, 0.4]])
PENALTY = np.array([0.1, 1.0])
T = 1000.0
LN_T = math.log(1000.0)
# α = 2: 8/ln(3/2)·(3/1)² (Thm 1) and 4/ln(3/2)·9 (Cor. 14)
C8 = 72.0 / math.log(1.5)
C4 = 36.0 / math.log(1.5)


def test_gaps():
    assert np.allclose(gaps(NU), [[0.0, 0.2], [0.3, 0.1]])
    assert gaps(NU)[0, 0] == 0.0


def test_theorem1_per_pair_hand_values():
    u = theorem1_per_pair(NU, PENALTY, 2.0, T)
    assert np.isnan(u[0, 0])  # the optimal pair is excluded
    # u = 8·2·(1+λ)²·ln T/Δ² + 1 + C8
    assert u[0, 1] == pytest.approx(16 * 4 * LN_T / 0.04 + 1 + C8)
    assert u[1, 0] == pytest.approx(16 * 1.21 * LN_T / 0.09 + 1 + C8)
    assert u[1, 1] == pytest.approx(16 * 4 * LN_T / 0.01 + 1 + C8)
    # the constant the code uses is the paper's (App. B): 8/ln(3/2)·(3/1)² at α = 2 for two bad
    # events, 4/ln(3/2)·9 for Corollary 14's one
    assert peeling_constant(2.0) == pytest.approx(C8, rel=1e-12)
    assert peeling_constant(2.0, factor=4.0) == pytest.approx(C4, rel=1e-12)
    assert peeling_constant(1.0) == math.inf  # α ≤ 1: the peeling sum diverges


def test_theorem1_bound_hand_value():
    # Σ Δ·u = 16 ln T·(1.21/0.3 + 4/0.2 + 4/0.1) + (1 + C8)·(0.3 + 0.2 + 0.1) ≈ 7184.4
    expected = 16 * LN_T * (1.21 / 0.3 + 4 / 0.2 + 4 / 0.1) + (1 + C8) * 0.6
    assert theorem1_bound(NU, PENALTY, 2.0, T) == pytest.approx(expected)
    assert expected == pytest.approx(7184.4, abs=0.1)


def test_theorem1_h_hand_values_and_forms():
    H = theorem1_h(NU, PENALTY, 2.0)
    # H_{1,τ2} (Δ = 0.1) printed: a = 8(1 + 2λ²) = 8.16 (τ1), 24 (τ2);
    # candidates (8.16 + 0.1 − 0)², (24 + 0.1 − 0.2)², (8.16 + 0.1 − 0.3)² -> 23.9² = 571.21
    assert H[1, 1] == pytest.approx(571.21)
    # proof form a = 8·2·(1+λ)² = 19.36, 64: (64 + 0.1 − 0.2)² = 63.9² = 4083.21
    assert theorem1_h(NU, PENALTY, 2.0, h_form="proof")[1, 1] == pytest.approx(4083.21)
    with pytest.raises(ValueError):
        theorem1_h(NU, PENALTY, 2.0, h_form="other")


def test_theorem1_h_matches_printed_formula_where_defined():
    rng = np.random.default_rng(3)
    nu = rng.normal(size=(3, 4))
    penalty = np.sort(rng.random(4)) * 5
    alpha = 1.7
    d = gaps(nu)
    H = theorem1_h(nu, penalty, alpha)
    for i in range(3):
        for k in range(4):
            values = []
            for j in range(3):
                for kk in range(4):
                    if (j, kk) == (i, k):
                        continue
                    x = d[i, k] - d[j, kk]
                    values.append((8 * (1 + penalty[kk] ** 2 * alpha) / x + 1) ** 2 * x**2)
            assert H[i, k] == pytest.approx(max(values), rel=1e-10)


def test_theorem1_subtracted_term_hand_value():
    # δ = 0.2 is admissible (n|M| = 4, T = 1000: δ ≤ 0.4568). Only (arm 1, τ1) has Δ > 0 below τmax:
    # 0.3·l_{1,τ2}, l = α ε δ ln T / H_{1,τ2} = 2·0.5·0.2·ln T/571.21
    full = theorem1_bound(NU, PENALTY, 2.0, T, epsilon=0.5, delta=0.2, p_A=1.0)
    conservative = theorem1_bound(NU, PENALTY, 2.0, T)
    assert conservative - full == pytest.approx(0.3 * 0.2 * LN_T / 571.21)
    # ε² (the proof's form) halves it at ε = 0.5
    squared = theorem1_bound(NU, PENALTY, 2.0, T, epsilon=0.5, delta=0.2, p_A=1.0, epsilon_power=2)
    assert conservative - squared == pytest.approx(0.5 * 0.3 * 0.2 * LN_T / 571.21)
    lower = theorem1_lower_terms(NU, PENALTY, 2.0, T, epsilon=0.5, delta=0.2)
    assert lower[1, 1] == pytest.approx(0.2 * LN_T / 571.21)
    with pytest.raises(ValueError):  # inadmissible δ
        theorem1_bound(NU, PENALTY, 2.0, T, delta=0.49, p_A=1.0)


def test_theorem1_delta_admissibility_example():
    # spec §6: n|M| = 100, T = 1e5 -> δ ≤ 0.375
    delta = theorem1_delta_max(100, 1e5)
    log_T, log_m = math.log(1e5), math.log(99)
    assert delta == pytest.approx((log_T - log_m) / (2 * log_T - log_m))
    assert 0.375 < delta < 0.376
    # the condition (n|M|−1)^{1−δ}·T^{2δ} ≤ T holds at δ and fails just above
    assert 99 ** (1 - delta) * 1e5 ** (2 * delta) <= 1e5 * (1 + 1e-12)
    assert 99 ** (1 - delta - 1e-3) * 1e5 ** (2 * (delta + 1e-3)) > 1e5
    assert theorem1_delta_max(100, 50) == 0.0  # T ≤ n|M| − 1: no δ > 0
    assert theorem1_delta_max(2, 10) == 0.5
    assert np.allclose(theorem1_delta_max(100, np.array([1e5, 1e5])), delta)


def test_corollary14_hand_values():
    # λ(τmax) = 1, α = 2: Σ 2·2·4 ln T/Δ + Δ(1 + C4) = 16 ln T·(1/0.2 + 1/0.3 + 1/0.1) + 0.6(1 + C4)
    expected = 16 * LN_T * (1 / 0.2 + 1 / 0.3 + 1 / 0.1) + 0.6 * (1 + C4)
    assert corollary14_bound(NU, 1.0, 2.0, T) == pytest.approx(expected)
    per_pair = corollary14_per_pair(NU, 1.0, 2.0, T)
    assert np.isnan(per_pair[0, 0])
    assert per_pair[1, 1] == pytest.approx(16 * LN_T / 0.01 + 1 + C4)
    assert np.nansum(gaps(NU) * per_pair) == pytest.approx(expected)


def test_proposition1_hand_value():
    # α = 2, t = 100: 2(1 + ln 100/ln 1.5)·100^{−4/3} = 2·12.35778·0.00215443 = 0.053248
    assert proposition1_violation_bound(2.0, 100) == pytest.approx(0.053248, rel=1e-4)
    assert proposition1_violation_bound(1.0, 100) == math.inf
    values = proposition1_violation_bound(2.0, np.array([100.0, 1e4, 1e6]))
    assert np.all(np.diff(values) < 0)


def test_confidence_width_hand_value():
    # α = 2, ln t = 2, N_{i,τ} = 8, N_{i,0} = 32, λ = 3: sqrt(8/8) + 3·sqrt(8/32) = 2.5
    assert confidence_width(2.0, math.e**2, 8, 32, 3.0) == pytest.approx(2.5)
    assert confidence_width(2.0, 10.0, 0, 5, 1.0) == math.inf


@pytest.mark.parametrize("alpha", [1.0, 0.5])
def test_void_for_alpha_at_most_one(alpha):
    assert theorem1_bound(NU, PENALTY, alpha, T) == math.inf
    assert corollary14_bound(NU, 1.0, alpha, T) == math.inf
    assert np.all(np.isinf(theorem1_bound(NU, PENALTY, alpha, np.array([10.0, 100.0]))))
    u = theorem1_per_pair(NU, PENALTY, alpha, T)
    assert np.isnan(u[0, 0]) and np.all(np.isinf(u[gaps(NU) > 0]))


def test_bounds_increase_in_T_and_accept_arrays():
    checkpoints = np.array([10.0, 100.0, 1e3, 1e4, 1e5])
    thm1 = theorem1_bound(NU, PENALTY, 1.5, checkpoints)
    cor14 = corollary14_bound(NU, 1.0, 1.5, checkpoints)
    assert thm1.shape == cor14.shape == checkpoints.shape
    assert np.all(np.diff(thm1) > 0) and np.all(np.diff(cor14) > 0)
    assert thm1[2] == pytest.approx(theorem1_bound(NU, PENALTY, 1.5, 1e3))
    assert theorem1_per_pair(NU, PENALTY, 1.5, checkpoints).shape == (5, 2, 2)
    with_lower = theorem1_bound(NU, PENALTY, 1.5, checkpoints, p_A=1.0)
    assert np.all(with_lower <= thm1)


def test_decomposition_identities_round_trip():
    rng = np.random.default_rng(11)
    counts = rng.integers(0, 50, size=(6, 4, 5))  # (runs, n, K)
    cumulative = cumulative_from_exact_counts(counts)
    assert np.array_equal(exact_counts_from_cumulative(cumulative), counts)
    assert np.array_equal(cumulative[..., 0], counts.sum(axis=-1))  # N_{i,τ1} = N_{i,0}
    assert np.all(np.diff(cumulative, axis=-1) <= 0)  # N_{i,τ} ≥ N_{i,up(τ)}
    nu = rng.normal(size=(4, 5))
    d = gaps(nu)
    direct = np.array([np.sum(d * c) for c in counts])
    assert np.allclose(regret_from_counts(d, counts), direct)
    assert np.allclose(regret_from_cumulative(d, cumulative), direct)
    # the reverse direction on random non-increasing cumulative counts
    N = np.flip(np.cumsum(rng.integers(0, 9, size=(3, 4, 5)), axis=-1), axis=-1)
    assert np.array_equal(cumulative_from_exact_counts(exact_counts_from_cumulative(N)), N)


def test_bound_magnitudes_rows():
    table = bound_magnitudes(NU, PENALTY, 1.0, T, alphas=(1.5, 2.0))
    assert list(table["alpha"]) == [1.5, 2.0]
    row = table.iloc[1]
    assert row["trivial"] == pytest.approx(0.3 * T)
    assert row["theorem1"] == pytest.approx(theorem1_bound(NU, PENALTY, 2.0, T))
    assert row["corollary14"] == pytest.approx(corollary14_bound(NU, 1.0, 2.0, T))
    assert row["ratio_thm1_cor14"] == pytest.approx(row["theorem1"] / row["corollary14"])
    assert not row["theorem1_informative"] and not row["corollary14_informative"]  # > 300
    big = bound_magnitudes(NU, PENALTY, 1.0, 1e9, alphas=(2.0,)).iloc[0]
    assert big["theorem1_informative"] and big["corollary14_informative"]


def test_simple_regret():
    assert simple_regret(lambda arm, tau: NU[arm, int(tau)], 1, 1, NU.max()) == pytest.approx(0.1)


def test_theorem2_constant_rate_and_pieces():
    # d = 0, C = 1, m = 2, α = 2, λ(τmax) = 0, H_T = 1:
    # (4·2·1·4·2/(1·(1 − 1/4)))^{1/2} = sqrt(64/0.75)
    assert theorem2_constant(0, 1.0, 2, 2.0, 0.0, 1.0) == pytest.approx(math.sqrt(64 / 0.75))
    rate = theorem2_rate(np.array([1e6, 1e7]), 0.1, 1.0)
    slope = np.diff(np.log(rate)) / np.log(10.0)
    # (1/3)·(log10 of ln(1e14/0.1)/ln(1e12/0.1) − 1): near −1/3, pulled up by the log factor
    expected = (math.log10(math.log(1e15) / math.log(1e13)) - 1.0) / 3.0
    assert slope[0] == pytest.approx(expected) and abs(slope[0] + 1 / 3) < 0.03
    assert theorem2_rate(100.0, 0.5, 0) == pytest.approx(math.sqrt(math.log(2e4) / 100))
    assert theorem2_bound(100.0, 0.5, 0, 1.0, 2, 2.0, 0.0, 1.0) == pytest.approx(
        math.sqrt(64 / 0.75) * math.sqrt(math.log(2e4) / 100)
    )
    # c_T(T=100, δ=0.1, n=2, α=2, λ(τmax)=1, τmax=1) = sqrt(4·ln(2e5)·4/100)
    assert theorem2_c_T(100.0, 0.1, 2, 2.0, 1.0, 1.0) == pytest.approx(
        math.sqrt(0.16 * math.log(2e5))
    )
    # λ(x) = x, m = 2, level 1 only: τ_(1,1) = 1/2, parent τmax = 1: 1.5² − (1 + 1·c_T)²/4
    assert theorem2_H_T(lambda x: x, 1.0, 2, 0.5, max_level=1) == pytest.approx(2.25 - 2.25 / 4)
    # λ ≡ 0: every term is 1 − 1/m²
    assert theorem2_H_T(lambda x: 0 * x, 1.0, 3, 0.7, max_level=3) == pytest.approx(1 - 1 / 9)
    with pytest.raises(ValueError):
        theorem2_bound(100.0, 0.5, 0, 1.0, 2, 1.0, 0.0, 1.0)


# ---- Def. 3 packing counts (Theorem 2's constant C) ----------------------------------------------


def test_packing_number_by_hand():
    taus = np.linspace(0.1, 1.0, 10)
    everything = np.ones(10, dtype=bool)
    # Right ends 0.1, 0.2, ..., 1.0 with length 0.25: greedy takes 0.3 (0.1 and 0.2 would need
    # a < 0), then 0.6 (≥ 0.3 + 0.25 → 0.6 is the first grid point ≥ 0.55), then 0.9: 3 intervals.
    assert packing_number(taus, everything, 0.25) == 3
    # Length 0.1: every point from 0.1 on, 10 intervals (0, 0.1], (0.1, 0.2], ...
    assert packing_number(taus, everything, 0.1) == 10
    only_top = taus >= 0.75
    assert packing_number(taus, only_top, 0.1) == 3  # 0.8, 0.9, 1.0
    assert packing_number(taus, ~everything, 0.1) == 0


def test_near_optimality_constant_of_a_linear_peak():
    # One arm, ν(τ) = s·τ on (0, 1]: the ε-optimal set is [1 − ε/s, 1], holding
    # floor((ε/s)/(ε/3)) + 1 = floor(3/s) + 1 intervals of length ε/3 (while ε/s < 1): with
    # s = 0.4, floor(7.5) + 1 = 8 for every ε here, so d = 0 and C = 8.
    taus = np.linspace(1e-5, 1.0, 100_000)
    curves = 0.4 * taus[None, :]
    eps = np.geomspace(1e-3, 0.1, 20)
    assert near_optimality_constant(taus, curves, 0.4, 0.0, eps) == 8
    # d = 1 weighs the counts by ε: the largest ε counts most, 8 × 0.1.
    assert near_optimality_constant(taus, curves, 0.4, 1.0, eps) == pytest.approx(0.8, rel=1e-9)
    # Two identical arms double every count.
    assert near_optimality_constant(taus, np.vstack([curves, curves]), 0.4, 0.0, eps) == 16
