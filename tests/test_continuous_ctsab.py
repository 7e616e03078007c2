"""CTSAB (continuous/ctsab.py) against a play-by-play reference written from Algorithm 1's
pseudocode (spec §3.3): every play instant listed, its payoff μ − 1/Δt summed at each checkpoint,
the same per-window binomial draws; then Lemma 19's identity on the kernel's own outputs and the
failure path."""

from __future__ import annotations

import math

import numpy as np
import pytest

from timebandits.continuous.ctsab import FAILED, LEARNED, WINDOW_DRAWS, run_ctsab
from timebandits.continuous.model import window_regret
from timebandits.continuous.schedule import ROUNDINGS
from timebandits.core.sim.binomial import binomial
from timebandits.core.sim.checkpoints import checkpoint_grid


def reference(mean, horizon, epsilon, kappa, delta, key, rounding="rate"):
    """Algorithm 1 play by play: (play times, windows as (length, plays), outcome, i*, τ). An
    exploit window gets μ̂L/2 plays: 2/μ̂ apart from the previous play (``rate``), or rounded
    half up and spread equally over the window, on its own (``half_up``) or after adding the
    remainder left by the earlier windows (``carry``)."""
    c, ell, threshold = horizon**epsilon, math.log(horizon), math.log(2 / delta)
    times, windows, total, successes, window = [], [], 0, 0, 0
    phase, start, outcome, i_star, tau = 1, 0.0, FAILED, 0, 0.0
    while start < horizon:
        end = c**phase
        plays = math.ceil(kappa * ell * c ** (2 * phase / 3))
        instants = [start + j * (end - start) / plays for j in range(1, plays + 1)]
        instants = [t for t in instants if t <= horizon]
        times += instants
        windows.append((end - start, len(instants)))
        if instants:
            drawn, _ = binomial(len(instants), mean, key, window * WINDOW_DRAWS)
            total, successes = total + len(instants), successes + drawn
        window += 1
        if end > horizon:
            break
        if math.sqrt(threshold / total) < successes / total / 2:
            outcome, i_star, tau = LEARNED, phase, end
            break
        start, phase = end, phase + 1
    j, left_over = 1, 0.0
    while outcome == LEARNED and j * tau < horizon:
        start = j * tau
        length = min(tau, horizon - start)
        if rounding == "rate":  # plays 2/μ̂ apart from the previous play, across windows
            spacing, last = 2 * total / successes, times[-1]
            plays = math.floor((start + length - last) / spacing * (1 + 1e-12))
            times += [last + i * spacing for i in range(1, plays + 1)]
        else:
            wanted = successes / total * length / 2 + (left_over if rounding == "carry" else 0.0)
            plays = max(math.floor(wanted + 0.5), 0)
            left_over = wanted - plays
            times += [start + i * length / plays for i in range(1, plays + 1)]
        windows.append((length, plays))
        if plays:
            drawn, _ = binomial(plays, mean, key, window * WINDOW_DRAWS)
            total, successes = total + plays, successes + drawn
        window, j = window + 1, j + 1
    return np.array(times), windows, outcome, i_star, tau


def payoff_at(times, mean, checkpoints):
    gaps = np.diff(np.concatenate([[0.0], times]))
    cumulative = np.concatenate([[0.0], np.cumsum(mean - 1 / gaps)])
    return cumulative[np.searchsorted(times, checkpoints, side="right")]


CASES = [
    (0.3, 2000.0, 0.2, 1.0, 0.05, 3),
    (0.15, 5e4, 0.1, 1.0, 0.05, 4),
    (0.05, 6e4, 0.05, 1.0, 0.05, 5),
    (0.3, 6e4, 0.05, 0.5, 0.05, 6),
    (0.6, 777.7, 0.25, 2.0, 0.01, 7),
]


@pytest.mark.parametrize("rounding", sorted(ROUNDINGS))
@pytest.mark.parametrize("mean, horizon, epsilon, kappa, delta, seed", CASES)
def test_ctsab_matches_the_play_by_play_reference(
    mean, horizon, epsilon, kappa, delta, seed, rounding
):
    key = np.uint64(seed)
    checkpoints = checkpoint_grid(horizon, 200).astype(float)
    payoff, outcome, i_star, tau, _, _, plays = run_ctsab(
        mean, horizon, epsilon, kappa, delta, key, checkpoints, ROUNDINGS[rounding]
    )
    times, _, ref_outcome, ref_i_star, ref_tau = reference(
        mean, horizon, epsilon, kappa, delta, key, rounding
    )
    assert (outcome, i_star, plays) == (ref_outcome, ref_i_star, times.size)
    assert tau == pytest.approx(ref_tau, rel=1e-12)
    assert payoff == pytest.approx(payoff_at(times, mean, checkpoints), rel=1e-9, abs=1e-6)


@pytest.mark.parametrize("rounding", ["half_up", "carry"])  # plays equally spaced per window
@pytest.mark.parametrize(
    "mean, horizon, epsilon, kappa, delta, seed", [case for case in CASES if case[0] >= 0.15]
)
def test_regret_is_the_sum_of_window_regrets_lemma_19(
    mean, horizon, epsilon, kappa, delta, seed, rounding
):
    key = np.uint64(seed)
    payoff, outcome, *_ = run_ctsab(
        mean, horizon, epsilon, kappa, delta, key, np.array([horizon]), ROUNDINGS[rounding]
    )
    _, windows, *_ = reference(mean, horizon, epsilon, kappa, delta, key, rounding)
    assert outcome == LEARNED and all(plays > 0 for _, plays in windows)
    regret = mean * mean * horizon / 4 - payoff[-1]
    assert regret == pytest.approx(sum(window_regret(mean, n, L) for L, n in windows), rel=1e-9)


def test_learning_that_never_stops_fails_and_keeps_its_payoff():
    # μ = 0.01 at T' = 500 with κ = 1: the rule needs about 4 ln(40)/μ² ≈ 150,000 plays
    key = np.uint64(11)
    payoff, outcome, i_star, tau, n_at_tau, _, plays = run_ctsab(
        0.01, 500.0, 0.2, 1.0, 0.05, key, np.array([500.0]), 0
    )
    times, *_ = reference(0.01, 500.0, 0.2, 1.0, 0.05, key)
    assert (outcome, i_star, tau, n_at_tau) == (FAILED, 0, 0.0, 0)
    assert plays == times.size and payoff[-1] == pytest.approx(payoff_at(times, 0.01, [500.0])[0])
    assert payoff[-1] < 0  # learning alone costs more than it earns at this mean


@pytest.mark.parametrize("n, p", [(10**7, 0.3), (10**6, 0.01), (5000, 0.5)])
def test_a_window_draw_stays_inside_its_block_of_uniforms(n, p):
    """Each window's binomial draw owns WINDOW_DRAWS uniforms; it must never use more."""
    key = np.uint64(17)
    used = [binomial(n, p, key, w * WINDOW_DRAWS)[1] - w * WINDOW_DRAWS for w in range(300)]
    assert max(used) < WINDOW_DRAWS // 100


def test_carried_rounding_keeps_the_count_and_half_up_does_not():
    # windows whose real number of plays μ̂L/2 is 0.6: carried rounding gives 3 plays every 5
    # windows (the mean, and every prefix within 1/2 of the real sum); half up gives 1 every time
    from timebandits.continuous.schedule import CARRY, HALF_UP, exploit_plays

    targets = np.random.default_rng(5).uniform(0.0, 3.0, 10_000)
    targets[:100] = 0.6
    for rounding, drift in ((CARRY, False), (HALF_UP, True)):
        carry, plays = 0.0, []
        for target in targets:
            n, carry = exploit_plays(target, carry, rounding)
            plays.append(n)
        plays = np.array(plays)
        assert (plays >= 0).all()
        gap = np.abs(np.cumsum(plays) - np.cumsum(targets))
        if drift:
            assert plays[:100].sum() == 100 and gap[99] == pytest.approx(40.0)
        else:
            assert plays[:100].sum() == 60 and gap.max() <= 0.5 + 1e-9
            assert plays.mean() == pytest.approx(targets.mean(), abs=0.5 / targets.size + 1e-12)


def test_only_the_rate_schedule_removes_the_integer_loss():
    # issue 22 §4: μ = 0.3, T' = 6e7, T'^ε = 2.5 fixed; windows of W = 2.5^3 ≈ 15.6 want
    # μW/2 ≈ 2.34 plays. Per window, n equally spaced plays lose (n − μW/2)²/W (eq. 2): half up
    # (n = 2) loses 0.344²/W, carrying (n = 2 or 3, mean 2.34) 0.344·0.656/W, about twice as
    # much; plays 2/μ̂ apart across windows lose only through μ̂ − μ.
    from timebandits.continuous.model import oracle

    horizon, mean = 6e7, 0.3
    epsilon = math.log(2.5) / math.log(horizon)
    regret = {}
    for name, code in ROUNDINGS.items():
        payoff, outcome, i_star, *_ = run_ctsab(
            mean, horizon, epsilon, 1.0, 0.05, np.uint64(1000), np.array([horizon]), code
        )
        assert (outcome, i_star) == (LEARNED, 3)
        regret[name] = oracle(mean, horizon).payoff - payoff[0]
    windows, x = horizon / 2.5**3, mean * 2.5**3 / 2
    frac = x - math.floor(x)
    assert regret["half_up"] == pytest.approx(windows * frac**2 / 2.5**3, rel=0.15)
    assert regret["carry"] == pytest.approx(windows * frac * (1 - frac) / 2.5**3, rel=0.15)
    assert regret["rate"] < 0.2 * regret["half_up"]
