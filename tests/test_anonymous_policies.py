"""ARS-UCB (paper 002, Algorithm 1) against a hand-worked trajectory of its pseudocode."""

from __future__ import annotations

import numpy as np
import pytest

from timebandits.anonymous.model import AnonymousProblem
from timebandits.anonymous.policies import (
    LEMMA1_BOUND,
    LEMMA1_CHECKS,
    LEMMA1_MISSES,
    LEMMA1_RATIO,
    run_ars_ucb,
)
from timebandits.anonymous.simulation import simulate_repetition
from timebandits.anonymous.theory import lemma1_radius


def _run(means, kernel, horizon, alpha=4.0, sizes=None, key=1):
    problem = AnonymousProblem.from_config({"means": means, "kernel": kernel})
    sizes = np.arange(1, horizon + 2) if sizes is None else np.asarray(sizes)
    return run_ars_ucb(
        problem.means,
        alpha,
        sizes,
        problem.d1(),
        problem.d2(),
        problem.kernel.code,
        problem.kernel.cumulative(horizon + 1),
        int(min(problem.kernel.window_reach, horizon)),
        kernel.get("low", 0),
        kernel.get("high", 0),
        np.uint64(key),
        horizon,
        np.arange(1, horizon + 1),
    )[0]


def test_hand_trajectory_with_misattributed_feedback():
    """Arms s = (1, 0) (deterministic totals), every total due one slot later, f(k) = k, α = 4.
    Init: slot 1 arm 1 (its total is seen in slot 2), slot 2 arm 2, which is credited that 1:
    m = (0, 1), n = (1, 1). t = 2: both indices capped at 1, equal n -> arm 1 for f(2) = 2 slots
    (3, 4), seeing slot 3's arrival of 0 and slot 4's 1: m_1 = 1, n_1 = 3. t = 4: capped tie,
    n_2 = 1 < 3 -> arm 2 (slots 5, 6), seeing arm 1's last total: m_2 = 2, n_2 = 3. t = 6:
    capped tie at n = 3 -> arm 1 for f(3) = 3 slots (7–9). t = 9: capped tie, n_2 = 3 < 6 ->
    arm 2, cut at T = 10. Plays 1,2,1,1,2,2,1,1,1,2."""
    regret = _run([1.0, 0.0], {"kind": "delay", "low": 1, "high": 1}, 10)
    np.testing.assert_array_equal(regret, [0, 1, 1, 1, 2, 3, 3, 3, 3, 4])


def test_lemma1_tally_on_the_hand_trajectory():
    """The same game as above (d1 = 1·1, d2 = 0: deterministic totals, one-slot delay). Its
    decisions and states (t; N, K, ŝ per arm): t = 2 (1,1,0; 1,1,1), t = 4 (3,2,1/3; 1,1,1),
    t = 6 (3,2,1/3; 3,2,2/3), t = 9 (6,3,1/2; 3,2,2/3). The tally must be Lemma 1's radius
    (theory.lemma1_radius) applied to them: 8 checks, no miss, Σ 2/t³ and the largest ratio."""
    problem = AnonymousProblem.from_config(
        {"means": [1.0, 0.0], "kernel": {"kind": "delay", "low": 1, "high": 1}}
    )
    horizon = 10
    regret, lemma, plays = run_ars_ucb(
        problem.means,
        4.0,
        np.arange(1, horizon + 2),
        problem.d1(),
        problem.d2(),
        problem.kernel.code,
        problem.kernel.cumulative(horizon + 1),
        1,
        1,
        1,
        np.uint64(1),
        horizon,
        np.array([5, 10]),
    )
    np.testing.assert_array_equal(regret, [2, 4])
    np.testing.assert_array_equal(plays[1:], [0, 1, 0, 0, 1, 1, 0, 0, 0, 1])
    states = [
        (2, [(1, 1, 0.0), (1, 1, 1.0)]),
        (4, [(3, 2, 1 / 3), (1, 1, 1.0)]),
        (6, [(3, 2, 1 / 3), (3, 2, 2 / 3)]),
        (9, [(6, 3, 0.5), (3, 2, 2 / 3)]),
    ]
    ratios = [
        abs(estimate - mean) / lemma1_radius(n, k, t, problem.d1(), problem.d2())
        for t, arms in states
        for (n, k, estimate), mean in zip(arms, problem.means)
    ]
    bound = [sum(2 * 2 / t**3 for t, _ in states[:2]), sum(2 * 2 / t**3 for t, _ in states)]
    np.testing.assert_allclose(lemma[LEMMA1_CHECKS], [4, 8])
    np.testing.assert_allclose(lemma[LEMMA1_MISSES], [0, 0])
    np.testing.assert_allclose(lemma[LEMMA1_BOUND], bound, rtol=1e-12)
    np.testing.assert_allclose(lemma[LEMMA1_RATIO], [max(ratios[:4]), max(ratios)], rtol=1e-12)


def test_lemma1_misses_are_counted():
    """A negative radius (d1 = −100, not a real instance) is missed at every check, so the
    misses must count all 8 arm-decisions of the hand trajectory."""
    problem = AnonymousProblem.from_config(
        {"means": [1.0, 0.0], "kernel": {"kind": "delay", "low": 1, "high": 1}}
    )
    _, lemma, _ = run_ars_ucb(
        problem.means,
        4.0,
        np.arange(1, 12),
        -100.0,
        0.0,
        problem.kernel.code,
        problem.kernel.cumulative(11),
        1,
        1,
        1,
        np.uint64(1),
        10,
        np.array([10]),
    )
    assert lemma[LEMMA1_MISSES, 0] == lemma[LEMMA1_CHECKS, 0] == 8


def test_uncapped_indices_follow_the_empirical_means():
    """Once n is large the cap no longer binds and the better arm dominates: on (0.9, 0.1) with
    a fixed 5-slot delay, f(k) = k^2, the regret after 20,000 slots is far below linear."""
    sizes = np.arange(1, 400) ** 2
    regret = _run([0.9, 0.1], {"kind": "delay", "low": 5, "high": 5}, 20_000, sizes=sizes)
    assert regret[-1] < 0.05 * 0.8 * 20_000
    assert regret[-1] - regret[9_999] < regret[9_999] - regret[0]


def test_reproducible_and_key_dependent():
    kernel = {"kind": "delay", "low": 0, "high": 6}
    a = _run([0.6, 0.5, 0.4], kernel, 3000, key=3)
    np.testing.assert_array_equal(a, _run([0.6, 0.5, 0.4], kernel, 3000, key=3))
    assert not np.array_equal(a, _run([0.6, 0.5, 0.4], kernel, 3000, key=4))


def test_odaaf_is_refused_where_the_expected_delay_is_infinite():
    """Told E[τ] = inf, ODAAF's first phase would last the whole horizon on arm 1."""
    experiment = {
        "environment": {"means": [0.9, 0.1], "kernel": {"kind": "polynomial", "exponent": 2}},
        "horizon": 100,
    }
    with pytest.raises(ValueError, match="finite expected delay"):
        simulate_repetition(
            experiment,
            {"policy": "odaaf"},
            np.random.SeedSequence(1),
            np.random.SeedSequence(2),
            np.arange(1, 101),
        )
