"""Paper 003's model (continuous/model.py): the oracle against brute force (Props. 1–2), random
spacings never beating equal spacing, Lemma 19's window identity, Remark 3's invariance, the
baselines' payoffs of spec §4 and Remark 21's optimal interval."""

from __future__ import annotations

import numpy as np
import pytest

from timebandits.continuous.model import (
    baseline_payoff,
    equal_spacing_payoff,
    normalised_horizon,
    optimal_interval,
    oracle,
    schedule_payoff,
    window_regret,
)


@pytest.mark.parametrize(
    "mean, horizon", [(0.3, 6e4), (0.05, 6e4), (0.35, 777.0), (0.123, 1001.5), (0.9, 3.0)]
)
def test_oracle_is_the_best_equal_spacing_by_brute_force(mean, horizon):
    best = max(range(int(horizon) + 2), key=lambda n: equal_spacing_payoff(mean, n, horizon))
    result = oracle(mean, horizon)
    assert result.plays == best
    assert result.payoff == pytest.approx(equal_spacing_payoff(mean, best, horizon), abs=1e-9)
    assert result.payoff <= result.continuous_payoff + 1e-9
    if (mean * horizon / 2).is_integer():
        assert result.payoff == pytest.approx(mean * mean * horizon / 4, rel=1e-12)


def test_oracle_for_the_paper_settings():
    # μ = 0.3, T = 60000, λ = 1e-2: N* = 0.3·6e6/2 = 900,000 plays, P* = 0.09·6e6/4 = 135,000
    result = oracle(0.3, normalised_horizon(60000, 1e-2))
    assert result.plays == 900_000 and result.payoff == pytest.approx(135_000, rel=1e-12)
    assert result.spacing == pytest.approx(2 / 0.3)
    staircase = result.payoff_until(
        np.array([0.0, result.spacing, 10 * result.spacing + 1e-3, 6e6])
    )
    per_play = result.payoff / result.plays
    assert staircase == pytest.approx([0.0, per_play, 10 * per_play, result.payoff])


@pytest.mark.parametrize("seed", range(20))
def test_random_spacings_never_beat_equal_spacing(seed):
    rng = np.random.default_rng(seed)
    n, length, mean = int(rng.integers(1, 50)), float(rng.uniform(1, 100)), float(rng.uniform(0, 1))
    times = np.sort(rng.uniform(0, length, n))
    times = times[np.concatenate([[True], np.diff(times) > 0])]
    equal = equal_spacing_payoff(mean, times.size, length)
    assert schedule_payoff(times, np.zeros(times.size, int), [mean]) <= equal + 1e-9
    spaced = length * np.arange(1, times.size + 1) / times.size
    assert schedule_payoff(spaced, np.zeros(times.size, int), [mean]) == pytest.approx(equal)


@pytest.mark.parametrize(
    "mean, plays, length", [(0.3, 7, 40.0), (0.05, 1, 3.3), (0.2, 50, 10.0), (0.15, 0, 12.0)]
)
def test_window_identity_lemma_19(mean, plays, length):
    assert mean * mean * length / 4 - equal_spacing_payoff(mean, plays, length) == pytest.approx(
        window_regret(mean, plays, length), abs=1e-12
    )
    # eq. 16: n = μ̂L/2 exactly gives regret L(μ − μ̂)²/4
    estimate = 2 * plays / length
    assert window_regret(mean, plays, length) == pytest.approx(length * (mean - estimate) ** 2 / 4)


@pytest.mark.parametrize("scale", [1e-3, 0.5, 7.0])
def test_remark_3_only_t_over_lambda_matters(scale):
    rng = np.random.default_rng(1)
    times = np.sort(rng.uniform(0, 100, 30))
    arms = rng.integers(0, 3, 30)
    means = [0.3, 0.2, 0.1]
    raw = float(
        np.sum(np.asarray(means)[arms]) - scale * np.sum(1 / np.diff(np.r_[0, scale * times]))
    )
    assert raw == pytest.approx(schedule_payoff(times, arms, means), rel=1e-12)
    assert normalised_horizon(60000 * scale, 1e-2 * scale) == pytest.approx(6e6)


@pytest.mark.parametrize(
    "mean, oracle_share, b1, b2",
    [
        (0.30, 0.022500, 0.014400, 0.011475),
        (0.15, 0.005625, 0.005400, 0.004725),
        (0.05, 0.000625, -0.000600, 0.000225),
        (0.35, 0.030625, 0.017400, 0.013725),
        (0.25, 0.015625, 0.011400, 0.009225),
    ],
)
def test_baseline_payoffs_match_the_spec_table(mean, oracle_share, b1, b2):
    horizon = 6e6  # any T'; the table is in units of T/λ
    assert oracle(mean, horizon).payoff / horizon == pytest.approx(oracle_share, abs=1e-12)
    # BaseLine1: raw rate 0.12/(2λ), i.e. normalised 0.06; BaseLine2: 0.045
    assert baseline_payoff(0.06, mean, horizon) / horizon == pytest.approx(b1, abs=1e-12)
    assert baseline_payoff(0.045, mean, horizon) / horizon == pytest.approx(b2, abs=1e-12)


def test_baseline_payoff_peaks_at_the_oracle_rate():
    rates = np.linspace(0.001, 0.3, 3001)
    payoffs = [baseline_payoff(a, 0.2, 1e4) for a in rates]
    assert rates[int(np.argmax(payoffs))] == pytest.approx(0.1, abs=1e-4)


@pytest.mark.parametrize("mean, lam", [(0.3, 1.0), (0.05, 1e-2), (0.9, 3.0)])
def test_optimal_interval_remark_21(mean, lam):
    assert optimal_interval(mean, lam, lambda x: 1 / x, lambda x: -1 / x**2) == pytest.approx(
        2 * lam / mean, rel=1e-9
    )
    beta = 0.5
    assert optimal_interval(
        mean, lam, lambda x: x**-beta, lambda x: -beta * x ** (-beta - 1)
    ) == pytest.approx(((1 + beta) * lam / mean) ** (1 / beta), rel=1e-9)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: normalised_horizon(60000, 0.0), "lambda must be a positive number"),
        (lambda: normalised_horizon(-1, 1.0), "horizon T must be a positive number"),
        (lambda: oracle(1.2, 10.0), "best mean must lie in"),
        (lambda: baseline_payoff(0.0, 0.3, 10.0), "baseline rate must be > 0"),
        (lambda: schedule_payoff([2.0, 1.0], [0, 0], [0.3]), "strictly increasing"),
    ],
)
def test_bad_model_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()
