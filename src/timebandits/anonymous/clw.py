r"""CLW(d̂), the baseline of the adversarial games of Fig. 5 (Wang, Wang & Huang, AAAI 2021,
§5.2; Cesa-Bianchi, Gentile & Mansour, COLT 2018), as a compiled loop played on the game of
adversarial.py (its label stream, delays and regret).

CLW(d̂) is one phase of ARS-CLW (spec §2.6; App. C Algorithm 3), with d fixed at d̂. With
q = 1/(2d̂) and B_t = 1{``uniform(policy_key, 2t)`` < q} (B_t = 0 beyond T), slot t ends a block
iff B_t = 1 and B_{t+1} = … = B_{t+2d̂−1} = 0, so blocks last at least 2d̂ slots. Exp3 in the log
domain, p = (1 − γ)·softmax(w) + γ/N; at a block end t the block's arm a gets

.. math::

    x = \frac{1}{2\hat d}\sum_{u=t-\hat d+1}^{t} Z(u), \qquad
    w_a \mathrel{+}= \frac{\gamma x}{N p_a},

and the next block's arm is drawn with ``uniform(policy_key, 2t + 1)`` (the first block's with
counter 1). γ = min{1, √(2 d̂ N ln N/(T + d̂))} (:func:`clw_gamma`). The last block is cut at T.
"""

from __future__ import annotations

import math

import numpy as np

from timebandits.core.sim.jit import njit
from timebandits.core.sim.rng import uniform

from .adversarial import _check_game, _draw, _new_game, _play_run, _probabilities, best_label


def clw_gamma(n_arms: int, horizon: int, d_hat: int) -> float:
    """γ = min{1, √(2 d̂ N ln N/(T + d̂))} of CLW(d̂) (spec §2.6; ARS-CLW's γ^{(k)}, App. C)."""
    return min(1.0, math.sqrt(2.0 * d_hat * n_arms * math.log(n_arms) / (horizon + d_hat)))


@njit(cache=True)
def block_ends(horizon, d_hat, policy_key):
    """ends[t] = 1 iff slot t ends a CLW block: B_t = 1 and B_{t+1..t+2d̂−1} = 0 (B beyond T
    is 0), B_t = 1{uniform(policy_key, 2t) < 1/(2d̂)}; one backward pass."""
    q = 1.0 / (2.0 * d_hat)
    ends = np.zeros(horizon + 1, np.bool_)
    next_one = horizon + 2 * d_hat + 1  # the nearest later slot with B = 1
    for t in range(horizon, 0, -1):
        if uniform(policy_key, 2 * t) < q:
            ends[t] = next_one > t + 2 * d_hat - 1
            next_one = t
    return ends


@njit(cache=True)
def run_clw(
    labels, n_arms, d_hat, gamma, mode, d, low, high, best_arm, env_key, policy_key, checkpoints
):
    """One game of CLW(d̂) (module docstring). Returns (regret at ``checkpoints``,
    plays[1..T])."""
    horizon = labels.size
    arrivals, counts, state, regret, plays, weights = _new_game(horizon, n_arms, checkpoints)
    ends = np.flatnonzero(block_ends(horizon, d_hat, policy_key))
    p = _probabilities(weights, 1.0, gamma, np.empty(n_arms))
    arm = _draw(p, uniform(policy_key, 1))
    first = 1
    for end in ends:
        _play_run(
            first,
            end,
            arm,
            labels,
            mode,
            d,
            low,
            high,
            best_arm,
            env_key,
            arrivals,
            counts,
            state,
            checkpoints,
            regret,
            plays,
        )
        tail = 0.0
        for u in range(max(1, end - d_hat + 1), end + 1):
            tail += arrivals[u]
        weights[arm] += gamma * (tail / (2.0 * d_hat)) / (n_arms * p[arm])
        _probabilities(weights, 1.0, gamma, p)
        arm = _draw(p, uniform(policy_key, 2 * end + 1))
        first = end + 1
    if first <= horizon:  # the last block, cut at T
        _play_run(
            first,
            horizon,
            arm,
            labels,
            mode,
            d,
            low,
            high,
            best_arm,
            env_key,
            arrivals,
            counts,
            state,
            checkpoints,
            regret,
            plays,
        )
    return regret, plays


def clw_call(
    labels,
    n_arms: int,
    d_hat: int,
    mode: int,
    d: int,
    low: int,
    high: int,
    env_key,
    policy_key,
    checkpoints,
):
    """(``run_clw``, its arguments) for CLW(d̂)'s game on ``labels`` (T = len(labels)),
    checked."""
    labels = _check_game(labels, n_arms, mode, d, low, high)
    if isinstance(d_hat, bool) or not isinstance(d_hat, (int, np.integer)) or d_hat < 1:
        raise ValueError(f"d_hat must be a positive integer, got {d_hat!r}")
    return run_clw, (
        labels,
        n_arms,
        int(d_hat),
        clw_gamma(n_arms, labels.size, d_hat),
        mode,
        d,
        low,
        high,
        best_label(labels, n_arms),
        env_key,
        policy_key,
        np.asarray(checkpoints, np.int64),
    )


def play_clw(*game) -> tuple[np.ndarray, np.ndarray]:
    """CLW(d̂)'s game (the arguments of :func:`clw_call`): (regret at the checkpoints,
    plays[1..T])."""
    kernel, arguments = clw_call(*game)
    return kernel(*arguments)
