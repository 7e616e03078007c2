"""Paper 003's theory (continuous/theory.py): p*, the learning schedule, κ_min, Lemma 14's
learning payoff against the simulated one, the bounds' closed forms, eq. 9's sign and Lemma 18's
KL inequality on a grid (an erratum for small x)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from timebandits.continuous import theory
from timebandits.continuous.ctsab import LEARNED, run_ctsab


@pytest.mark.parametrize("mean, horizon", [(0.3, 6e4), (0.05, 6e6), (0.15, 6e7)])
def test_p_star_solves_eq_6(mean, horizon):
    assert horizon ** theory.p_star(mean, horizon) == pytest.approx(1 / mean**3, rel=1e-12)


def test_learning_schedule():
    phases = theory.learning_phases(6e4, 0.05, 1.0, 3)
    c, ell = 6e4**0.05, math.log(6e4)
    assert [p.plays for p in phases] == [math.ceil(ell * c ** (2 * i / 3)) for i in (1, 2, 3)]
    assert phases[0].start == 0 and phases[1].start == pytest.approx(c)
    assert phases[2].end == pytest.approx(c**3)
    assert phases[2].cumulative == sum(p.plays for p in phases)


@pytest.mark.parametrize("horizon, expected", [(6e4, 12.9), (6e6, 10.9), (6e7, 10.1)])
def test_kappa_min_matches_the_spec(horizon, expected):
    assert theory.kappa_min(horizon, 0.05) == pytest.approx(expected, abs=0.05)


@pytest.mark.parametrize(
    "mean, horizon, epsilon, kappa, seed", [(0.3, 6e4, 0.05, 1.0, 1), (0.15, 6e5, 0.1, 2.0, 2)]
)
def test_lemma_14_learning_payoff_is_the_simulated_one(mean, horizon, epsilon, kappa, seed):
    key = np.uint64(seed)
    _, outcome, i_star, tau, *_ = run_ctsab(
        mean, horizon, epsilon, kappa, 0.05, key, np.array([horizon]), 0
    )
    assert outcome == LEARNED
    payoff, *_ = run_ctsab(mean, horizon, epsilon, kappa, 0.05, key, np.array([tau]), 0)
    assert payoff[0] == pytest.approx(
        theory.learning_payoff(mean, horizon, epsilon, kappa, i_star), rel=1e-9
    )


def test_predicted_i_star_is_where_the_cumulative_count_passes_the_need():
    need = 4 * math.log(2 / 0.05) / 0.3**2
    i = theory.predicted_i_star(0.3, 6e4, 0.05, 1.0, 0.05)
    phases = theory.learning_phases(6e4, 0.05, 1.0, i)
    assert phases[-1].cumulative > need and (i == 1 or phases[-2].cumulative <= need)


def test_theorem5_is_log_squared_over_mu_times_the_epsilon_factor():
    T, mu, eps = 6e6, 0.1, 0.05
    main = T ** (4 * eps / 3) * math.log(2 * T * T) * math.log(2 * T) / mu * (1 - T ** -(1 + eps))
    assert theory.theorem5_bound(T, mu, eps) == pytest.approx(
        main + mu * mu / 4 * (T**-eps + 1 / T), rel=1e-10
    )
    assert theory.theorem5_bound(T, mu, eps, constant=2.0) > theory.theorem5_bound(T, mu, eps)


def test_eq20_by_hand():
    T, mu, eps, kappa, delta, i = 6e4, 0.3, 0.05, 1.0, 0.05, 10
    by_hand = (
        2 * (math.log(T)) ** 2 * T ** (11 * eps / 3)
        + mu * mu * T ** (11 * eps) / 4
        + math.log(40) / (4 * mu) * math.log(T ** (1 - 10 * eps))
    )
    assert theory.eq20_bound(T, mu, eps, kappa, delta, i) == pytest.approx(by_hand, rel=1e-12)


@pytest.mark.parametrize(
    "means, c12",
    [
        ([0.35, 0.2, 0.15, 0.1, 0.08], 3.0625),
        ([0.30, 0.2, 0.15, 0.1, 0.08], 2.25),
        ([0.25, 0.2, 0.15, 0.1, 0.08], 1.5625),
    ],
)
def test_eq9_is_vacuous_for_every_fig1_instance(means, c12):
    assert (means[0] / means[1]) ** 2 == pytest.approx(c12)
    assert theory.eq9_regret(means) < 0


def test_eq9_is_positive_beyond_two_root_two():
    assert theory.eq9_regret([0.9, 0.3]) > 0 > theory.eq9_regret([0.56, 0.2])


def test_theorem8_and_its_proof_disagree_on_the_second_term():
    stated, proof = theory.theorem8_proof_terms(6e6, [0.35, 0.2, 0.15, 0.1, 0.08])
    assert stated / proof == pytest.approx(1 / 0.35**2)
    bound = theory.theorem8_bound(6e6, [0.35, 0.2, 0.15, 0.1, 0.08], nu_m=0.3)
    assert bound >= max(0.35 * 5 * math.log(6e6) / 0.15**2, stated) * (1 - 1e-9)


def test_theorem9_order():
    assert theory.theorem9_bound([0.35, 0.2, 0.15, 0.1, 0.08]) == pytest.approx(5 * 0.35 / 0.15**2)


def test_lemma18_fails_for_small_x_and_holds_in_the_middle():
    grid = [
        (x, b)
        for x in np.linspace(0.005, 0.7, 140)
        for b in np.linspace(0.001, 0.25, 50)
        if x + b < 1
    ]
    failing = [x for x, b in grid if not theory.lemma18_holds(x, b)]
    assert failing and max(failing) < 0.05  # the erratum: only small x fail on this grid
    assert theory.lemma18_holds(0.3, 0.1) and not theory.lemma18_holds(0.02, 0.01)
    assert theory.bernoulli_kl(0.3, 0.3) == 0.0
