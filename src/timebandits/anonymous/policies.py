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
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .environment import pull, window_sum


@njit(cache=True)
def run_ars_ucb(means, alpha, round_sizes, kernel_code, cumulative, support, delay_low,
                delay_high, env_key, horizon, checkpoints):
    """One game of ``horizon`` slots; ``round_sizes[k − 1]`` = f(k) (long enough that no arm
    needs more rounds). Returns the cumulative pseudo-regret at each checkpoint slot."""
    n_arms = means.size
    gaps = means.max() - means
    totals = np.zeros(horizon + 1)
    delays = np.zeros(horizon + 1, np.int64)
    pulls = np.zeros(n_arms)
    observed = np.zeros(n_arms)
    next_round = np.zeros(n_arms, np.int64)  # k_i − 1: rounds arm i has played
    regret_out = np.zeros(checkpoints.size)
    regret = 0.0
    cp = 0
    t = 0
    while t < horizon:
        if next_round.min() == 0:
            arm = np.argmin(next_round)  # initialisation: one round of f(1) per arm in order
        else:
            scale = alpha * math.log(t)
            arm = 0
            best = -1.0
            for i in range(n_arms):
                index = min(observed[i] / pulls[i] + math.sqrt(scale / pulls[i]), 1.0)
                if index > best or (index == best and pulls[i] < pulls[arm]):
                    best = index
                    arm = i
        first = t + 1
        length = min(round_sizes[next_round[arm]], horizon - t)
        for _ in range(length):
            t += 1
            pull(means[arm], t, env_key, kernel_code, delay_low, delay_high, totals, delays)
            regret += gaps[arm]
            while cp < checkpoints.size and checkpoints[cp] == t:
                regret_out[cp] = regret
                cp += 1
        observed[arm] += window_sum(first, t, totals, delays, kernel_code, cumulative, support)
        pulls[arm] += length
        next_round[arm] += 1
    return regret_out
