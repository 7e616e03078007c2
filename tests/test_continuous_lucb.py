"""LUCB1 (continuous/lucb.py): a hand-worked trajectory on deterministic arms, the budget cut, and
its guarantee (the returned arm is the best in at least 1 − δ of runs) by Monte Carlo."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import binom

from timebandits.continuous.lucb import K1, confidence_radius, run_lucb1


def _run(means, delta, seed, budget=10**7, counter=0):
    counts, sums = np.zeros(len(means)), np.zeros(len(means))
    played = np.full(min(budget, 10**6), -1, np.int64)
    h, used, stopped = run_lucb1(
        np.asarray(means, float), delta, np.uint64(seed), counter, budget, counts, sums, played
    )
    assert (np.bincount(played[:used], minlength=len(means)) == counts).all()
    return h, used, stopped, counts, sums


def test_deterministic_arms_stop_when_the_radii_separate():
    # arms always paying 1 and 0: after round t both have been sampled t times, and LUCB1 stops
    # at the first t with 1 − β(t, t) > 0 + β(t, t), i.e. 2·sqrt(ln(1.25·2·t⁴/δ)/(2t)) < 1
    delta = 0.05
    t = 1
    while not 2 * math.sqrt(math.log(K1 * 2 * t**4 / delta) / (2 * t)) < 1:
        t += 1
    h, used, stopped, counts, sums = _run([1.0, 0.0], delta, 1)
    assert (h, stopped) == (0, True)
    assert used == 2 * t and list(counts) == [t, t] and list(sums) == [t, 0]


def test_the_lower_index_wins_ties_and_l_is_the_most_optimistic_other_arm():
    # three arms: 1.0, 0.0, 0.0 -> h = 0; l alternates by the radius (equal means, the larger
    # radius = the fewer samples, ties to the lower index), so arms 1 and 2 share l's pulls
    h, used, stopped, counts, _ = _run([1.0, 0.0, 0.0], 0.05, 2)
    assert (h, stopped) == (0, True)
    assert abs(counts[1] - counts[2]) <= 1 and counts[0] == used - counts[1] - counts[2]


def test_budget_cuts_the_run():
    h, used, stopped, counts, _ = _run([0.3, 0.29], 0.05, 3, budget=101)
    assert (used, stopped) == (101, False) and counts.sum() == 101


def test_radius_formula():
    assert confidence_radius(4.0, 3, 5, 0.1) == pytest.approx(
        math.sqrt(math.log(1.25 * 5 * 81 / 0.1) / 8)
    )


def test_returns_the_best_arm_with_probability_at_least_one_minus_delta():
    delta, runs = 0.2, 400
    wrong = sum(_run([0.35, 0.2, 0.15, 0.1, 0.08], delta, 100 + r)[0] != 0 for r in range(runs))
    # refuted only if so many mistakes would be unlikely (p < 1e-3) at an error rate of δ
    assert binom.sf(wrong - 1, runs, delta) > 1e-3


@pytest.mark.parametrize("round_index", [55_108, 55_109, 10**5, 10**6, 10**9])
def test_radius_is_finite_and_increasing_beyond_the_int64_limit_of_t4(round_index):
    # t^4 overflows int64 from t = 55,109 on (issue 22 §4): β must keep the formula's value
    expected = math.sqrt((math.log(1.25 * 5 / 1e-12) + 4 * math.log(round_index)) / 20)
    radius = confidence_radius(10.0, round_index, 5, 1e-12)
    assert math.isfinite(radius) and radius == pytest.approx(expected, rel=1e-12)
    assert radius > confidence_radius(10.0, round_index - 1, 5, 1e-12)


def test_a_run_beyond_ten_to_the_five_rounds_stops_where_the_float_formula_says():
    # arms 0.30 and 0.29 at δ = 1e-9: LUCB1 needs well over 10^5 rounds; at its stop the
    # stopping rule holds with the radii computed in floats
    budget = 8 * 10**6
    counts, sums, played = np.zeros(2), np.zeros(2), np.full(budget, -1, np.int64)
    h, used, stopped = run_lucb1(
        np.array([0.3, 0.29]), 1e-9, np.uint64(17), 0, budget, counts, sums, played
    )
    rounds = (used - 2) // 2 + 1
    assert stopped and rounds > 10**5 and h == int(np.argmax(sums / counts))

    def radius(u, t):
        return math.sqrt((math.log(1.25 * 2 / 1e-9) + 4 * math.log(t)) / (2 * u))

    low = 1 - h
    assert sums[h] / counts[h] - radius(counts[h], rounds) > sums[low] / counts[low] + radius(
        counts[low], rounds
    )
