"""ARS-UCB (Wang, Wang & Huang 2021, Algorithm 1) as a compiled game loop on the composite
anonymous environment (environment.py).

Each arm i keeps n_i (its pulls), m_i (the feedback observed in the slots it was pulled) and
k_i (the index of its next round). After one round of f(1) slots per arm (in index order), at
every decision time t (slots elapsed) ARS-UCB plays for f(k_a) slots, cut at T, the arm

    a ∈ argmax_i u_i(t),  u_i(t) = min{ m_i/n_i + sqrt(α ln t / n_i), 1 }     (Algorithm 1; spec P1)

ties going to the fewest pulls n_i (the paper's rule), then to the lowest index (spec P12).
The cap at 1 makes every arm with a wide interval tie, so early play is round-robin by n_i.
Regret is the pseudo-regret Σ_t (s_1 − s_{a(t)}), which counts each pull's whole expected total
even when part of it falls due after T (spec P9).

Lemma 1 is checked on the way (a Monte Carlo of its statement, not used by the policy): at every
decision time t, for every arm, whether the estimate misses s_i by the hidden radius

    rad'_i(t) = sqrt(4 ln t / N_i) + d1·K_i/N_i + sqrt(12 d2 K_i ln t / N_i²)      (Lemma 1)

(K_i the rounds arm i has played), which Lemma 1 says happens with probability at most 2/t³.
"""

from __future__ import annotations

import math

import numpy as np

from timebandits.core.sim.jit import njit

from .environment import pull, window_feedback, window_state
from .spread_kernel import DELAY

LEMMA1_CHECKS, LEMMA1_MISSES, LEMMA1_BOUND, LEMMA1_RATIO = range(4)
LEMMA1_METRICS = ("lemma1_checks", "lemma1_misses", "lemma1_bound", "lemma1_ratio")


@njit(cache=True)
def run_ars_ucb(
    means,
    alpha,
    round_sizes,
    d1,
    d2,
    kernel_code,
    cumulative,
    reach,
    delay_low,
    delay_high,
    env_key,
    horizon,
    checkpoints,
):
    """One game of ``horizon`` slots; ``round_sizes[k − 1]`` = f(k) (long enough that no arm
    needs more rounds); ``d1``, ``d2`` the instance's constants (Lemma 1's radius only).

    Returns (the cumulative pseudo-regret at each checkpoint slot, Lemma 1's tally at each
    checkpoint: rows LEMMA1_CHECKS (arm-decisions so far), LEMMA1_MISSES (those with
    |ŝ_i − s_i| ≥ rad'_i(t)), LEMMA1_BOUND (Σ 2/t³ over them: the expected misses Lemma 1
    allows) and LEMMA1_RATIO (the largest |ŝ_i − s_i|/rad'_i(t) so far), the arm played in
    each slot 1..T (index 0 unused; Fig. 1 draws a round from it))."""
    n_arms = means.size
    gaps = means.max() - means
    totals = np.zeros(horizon + 1, np.uint8)
    delays = np.zeros(horizon + 1 if kernel_code == DELAY else 1, np.int64)
    plays = np.full(horizon + 1, -1, np.int64)
    pulls = np.zeros(n_arms)
    observed = np.zeros(n_arms)
    next_round = np.zeros(n_arms, np.int64)  # k_i − 1: rounds arm i has played
    regret_out = np.zeros(checkpoints.size)
    window = window_state(kernel_code, cumulative, reach, horizon)
    lemma_out = np.zeros((4, checkpoints.size))
    lemma = np.zeros(4)
    regret = 0.0
    cp = 0
    t = 0
    while t < horizon:
        if next_round.min() == 0:
            arm = np.argmin(next_round)  # initialisation: one round of f(1) per arm in order
        else:
            log_t = math.log(t)
            scale = alpha * log_t
            arm = 0
            best = -1.0
            for i in range(n_arms):
                estimate = observed[i] / pulls[i]
                radius = (
                    math.sqrt(4.0 * log_t / pulls[i])
                    + d1 * next_round[i] / pulls[i]
                    + math.sqrt(12.0 * d2 * next_round[i] * log_t) / pulls[i]
                )
                miss = abs(estimate - means[i])
                lemma[LEMMA1_CHECKS] += 1.0
                lemma[LEMMA1_MISSES] += 1.0 if miss >= radius else 0.0
                lemma[LEMMA1_BOUND] += 2.0 / (float(t) * t * t)
                lemma[LEMMA1_RATIO] = max(lemma[LEMMA1_RATIO], miss / radius)
                index = min(estimate + math.sqrt(scale / pulls[i]), 1.0)
                if index > best or (index == best and pulls[i] < pulls[arm]):
                    best = index
                    arm = i
        first = t + 1
        length = min(round_sizes[next_round[arm]], horizon - t)
        mean, gap, end = means[arm], gaps[arm], t + length
        while t < end:  # the slots up to the next checkpoint, then the checkpoint
            stop = min(end, max(checkpoints[cp], t + 1)) if cp < checkpoints.size else end
            for u in range(t + 1, stop + 1):
                plays[u] = arm
                pull(mean, u, env_key, kernel_code, delay_low, delay_high, totals, delays)
                regret += gap
            t = stop
            while cp < checkpoints.size and checkpoints[cp] == t:
                regret_out[cp] = regret
                lemma_out[:, cp] = lemma
                cp += 1
        observed[arm] += window_feedback(
            first, t, totals, delays, kernel_code, cumulative, reach, window
        )
        pulls[arm] += length
        next_round[arm] += 1
    return regret_out, lemma_out, plays
