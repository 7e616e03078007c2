"""CTMAB (continuous/ctmab.py) against a play-by-play reference written from Algorithm 2's
pseudocode with spec §3.4's repairs: every play instant and arm listed, payoff μ[k] − 1/Δt summed
at each checkpoint; LUCB1 itself is tested in test_continuous_lucb.py and reused here."""

from __future__ import annotations

import math

import numpy as np
import pytest

from timebandits.continuous.ctmab import (
    EXPLOIT_DRAWS,
    FAILED_ESTIMATION,
    FAILED_IDENTIFICATION,
    LEARNED,
    LUCB_DRAWS,
    run_ctmab,
)
from timebandits.continuous.ctsab import WINDOW_DRAWS
from timebandits.continuous.lucb import run_lucb1
from timebandits.continuous.schedule import ROUNDINGS
from timebandits.core.sim.binomial import binomial
from timebandits.core.sim.checkpoints import checkpoint_grid
from timebandits.core.sim.rng import uniform


def reference(means, horizon, epsilon, kappa, delta, delta_id, factor, key, rounding="rate"):
    means = np.asarray(means, float)
    n_arms, c, ell = means.size, horizon**epsilon, math.log(horizon)
    threshold = math.log(2 / delta)
    times, arms, counts, sums = [], [], np.zeros(n_arms), np.zeros(n_arms)
    outcome, i_star, t_es, best, phase, start, played = (
        FAILED_ESTIMATION,
        0,
        horizon,
        0.0,
        1,
        0.0,
        0,
    )
    while start < horizon and outcome != LEARNED:
        end = c**phase
        plays = n_arms * math.ceil(kappa * ell * c ** (2 * phase / 3))
        for j in range(1, plays + 1):
            time = start + j * (end - start) / plays
            if time > horizon:
                break
            arm = (j - 1) % n_arms
            times.append(time), arms.append(arm)
            sums[arm] += uniform(key, played) < means[arm]
            counts[arm] += 1
            played += 1
            if any(
                c_ > 0 and math.sqrt(threshold / c_) < s_ / c_ / 2 for c_, s_ in zip(counts, sums)
            ):
                outcome, i_star, t_es = LEARNED, phase, time
                best = max(s_ / c_ for c_, s_ in zip(counts, sums) if c_ > 0)
                break
        start, phase = end, phase + 1
    identified, t_id = -1, 0.0
    if outcome == LEARNED:
        spacing = factor / best
        budget = int(math.floor((horizon - t_es) / spacing * (1 + 1e-12)))
        lucb_counts, lucb_sums = np.zeros(n_arms), np.zeros(n_arms)
        order = np.zeros(budget, np.int64)
        identified, used, stopped = run_lucb1(
            means, delta_id, key, LUCB_DRAWS, budget, lucb_counts, lucb_sums, order
        )
        times += [t_es + (s + 1) * spacing for s in range(used)]
        arms += list(order[:used])
        t_id = used * spacing
        if not stopped:
            outcome, identified = FAILED_IDENTIFICATION, -1
        else:
            total = counts[identified] + lucb_counts[identified]
            successes = sums[identified] + lucb_sums[identified]
            width, r, left_over = c**i_star, 0, 0.0
            while t_es + t_id + r * width < horizon:
                left = t_es + t_id + r * width
                length = min(width, horizon - left)
                if rounding == "rate":  # 2/μ̂ apart from the previous play, across windows
                    spacing, last = 2 * total / successes, times[-1]
                    n = math.floor((left + length - last) / spacing * (1 + 1e-12))
                    times += [last + i * spacing for i in range(1, n + 1)]
                else:
                    wanted = successes / total * length / 2 + (
                        left_over if rounding == "carry" else 0
                    )
                    n = max(math.floor(wanted + 0.5), 0)
                    left_over = wanted - n
                    times += [left + i * length / n for i in range(1, n + 1)]
                arms += [identified] * n
                if n:
                    drawn, _ = binomial(n, means[identified], key, EXPLOIT_DRAWS + r * WINDOW_DRAWS)
                    total, successes = total + n, successes + drawn
                r += 1
    return np.array(times), np.array(arms, int), outcome, i_star, t_es, t_id, identified


FIG1 = [0.35, 0.2, 0.15, 0.1, 0.08]
CASES = [
    (FIG1, 6e4, 0.05, 1.0, 0.05, 0.05, 1.0, 1),
    ([0.25, 0.2, 0.15, 0.1, 0.08], 6e4, 0.05, 1.0, 0.05, 0.05, 1.0, 2),
    (FIG1, 6e5, 0.1, 0.5, 0.05, 1 / 6e5**2, 2.0, 3),
    ([0.6, 0.3], 3000.0, 0.2, 2.0, 0.01, 0.01, 1.0, 4),
    ([0.3, 0.29, 0.1], 2000.0, 0.1, 1.0, 0.05, 0.05, 1.0, 5),  # identification cut at T'
    ([0.02, 0.01], 50.0, 0.2, 1.0, 0.05, 0.05, 1.0, 6),
]  # estimation never stops


@pytest.mark.parametrize("rounding", sorted(ROUNDINGS))
@pytest.mark.parametrize("means, horizon, epsilon, kappa, delta, delta_id, factor, seed", CASES)
def test_ctmab_matches_the_play_by_play_reference(
    means, horizon, epsilon, kappa, delta, delta_id, factor, seed, rounding
):
    key = np.uint64(seed)
    checkpoints = checkpoint_grid(horizon, 300).astype(float)
    payoff, outcome, i_star, t_es, t_id, arm, _, samples = run_ctmab(
        np.asarray(means),
        horizon,
        epsilon,
        kappa,
        delta,
        delta_id,
        factor,
        key,
        checkpoints,
        ROUNDINGS[rounding],
    )
    times, arms, *expected = reference(
        means, horizon, epsilon, kappa, delta, delta_id, factor, key, rounding
    )
    assert (outcome, i_star, arm) == (expected[0], expected[1], expected[4])
    assert (t_es, t_id) == pytest.approx((expected[2], expected[3]), rel=1e-12)
    gaps = np.diff(np.concatenate([[0.0], times]))
    cumulative = np.concatenate([[0.0], np.cumsum(np.asarray(means)[arms] - 1 / gaps)])
    assert payoff == pytest.approx(
        cumulative[np.searchsorted(times, checkpoints, side="right")], rel=1e-9, abs=1e-6
    )


def test_the_cases_cover_every_outcome():
    outcomes = {reference(*case[:-1], np.uint64(case[-1]))[2] for case in CASES}
    assert outcomes == {LEARNED, FAILED_ESTIMATION, FAILED_IDENTIFICATION}
