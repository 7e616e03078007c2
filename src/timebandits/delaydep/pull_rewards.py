"""Compiled expected rewards of pull sequences of a B2DEP instance (paper §3, eq. 1; π_greedy of
eq. 2), on ``B2DEPProblem.mean_table()``'s layout (model.py): ``table[i, τ]`` = μ_{i+1}(τ) for
τ = 0..D+1, columns 0 and D + 1 the baselines."""

from __future__ import annotations

import numpy as np

from timebandits.core.sim.jit import njit


@njit(cache=True)
def sequence_rewards(table, arms):
    """μ_{a_t}(τ_{a_t}(t)) for the pull sequence ``arms`` from a fresh state (table layout
    above)."""
    k, width = table.shape
    last = np.full(k, -1, dtype=np.int64)
    out = np.empty(arms.size)
    for t in range(arms.size):
        a = arms[t]
        tau = 0 if last[a] < 0 else min(t - last[a], width - 1)
        out[t] = table[a, tau]
        last[a] = t
    return out


@njit(cache=True)
def greedy_rewards(table, T):
    """π_greedy (eq. 2): each round pull the arm with the largest current mean (first maximiser)."""
    k, width = table.shape
    last = np.full(k, -1, dtype=np.int64)
    out = np.empty(T)
    for t in range(T):
        best, arm = -1.0, 0
        for i in range(k):
            tau = 0 if last[i] < 0 else min(t - last[i], width - 1)
            if table[i, tau] > best:
                best, arm = table[i, tau], i
        out[t] = best
        last[arm] = t
    return out
