r"""ARS-EXP3 (Wang, Wang & Huang, AAAI 2021, Algorithm 2; spec §2.2) as a compiled loop: the
learner of the adversarial games of Fig. 5 (§5.2), played on the game of adversarial.py (its
label stream, delays and regret).

Rounds k = 1..K of g(k) = ⌈k^β⌉ slots, G(K) = Σ_{k≤K} g(k) ≤ T < G(K+1)
(theory.exp3_rounds). Weights are kept as w_i, and

.. math::

    p_i = (1-\gamma)\,\frac{e^{w_i/g(K)}}{\sum_j e^{w_j/g(K)}} + \frac{\gamma}{N},
    \qquad w_a \mathrel{+}= \frac{\gamma \min\{Z_k, g(k)\}}{N p_a},

with Z_k the observations of round k's slots and the softmax computed after subtracting the
largest exponent (w/g(K) reaches about K: plain exp overflows, spec P8). Round k's arm is the
inverse-CDF draw of ``uniform(policy_key, k − 1)``. The T − G(K) < g(K+1) slots left after
round K: one more draw (counter K), played to T, with no update (spec §2.2 [recon]).
γ = min{1, √(N ln N/((e − 1) K))} (App. B; theory.ars_exp3_gamma).
"""

from __future__ import annotations

import numpy as np

from timebandits.core.sim.jit import njit
from timebandits.core.sim.rng import uniform

from .adversarial import _check_game, _draw, _new_game, _play_run, _probabilities, best_label
from .theory import ars_exp3_gamma, exp3_round_sizes


@njit(cache=True)
def run_ars_exp3(
    labels,
    n_arms,
    round_sizes,
    gamma,
    mode,
    d,
    low,
    high,
    best_arm,
    env_key,
    policy_key,
    checkpoints,
):
    """One game of ARS-EXP3 (module docstring); ``round_sizes`` = g(1), …, g(K) of the K
    complete rounds. Returns (regret at ``checkpoints``, plays[1..T])."""
    horizon = labels.size
    arrivals, counts, state, regret, plays, weights = _new_game(horizon, n_arms, checkpoints)
    rounds = round_sizes.size
    scale = float(round_sizes[rounds - 1])
    p = np.empty(n_arms)
    slot = 1
    for k in range(rounds + 1):
        size = round_sizes[k] if k < rounds else horizon - slot + 1
        if size <= 0:
            break
        _probabilities(weights, scale, gamma, p)
        arm = _draw(p, uniform(policy_key, k))
        observed = _play_run(
            slot,
            slot + size - 1,
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
        slot += size
        if k < rounds:
            weights[arm] += gamma * min(observed, float(size)) / (n_arms * p[arm])
    return regret, plays


def ars_exp3_call(
    labels,
    n_arms: int,
    beta: float,
    mode: int,
    d: int,
    low: int,
    high: int,
    env_key,
    policy_key,
    checkpoints,
):
    """(``run_ars_exp3``, its arguments) for ARS-EXP3's game on ``labels`` (T = len(labels)),
    checked: K, g and γ from theory.exp3_rounds / ars_exp3_gamma (appendix form)."""
    labels = _check_game(labels, n_arms, mode, d, low, high)
    if not 0.0 <= beta <= 1.0:
        raise ValueError(f"beta must lie in [0, 1], got {beta!r}")
    horizon = labels.size
    return run_ars_exp3, (
        labels,
        n_arms,
        exp3_round_sizes(horizon, beta),
        ars_exp3_gamma(n_arms, horizon, beta).appendix,
        mode,
        d,
        low,
        high,
        best_label(labels, n_arms),
        env_key,
        policy_key,
        np.asarray(checkpoints, np.int64),
    )


def play_ars_exp3(*game) -> tuple[np.ndarray, np.ndarray]:
    """ARS-EXP3's game (the arguments of :func:`ars_exp3_call`): (regret at the checkpoints,
    plays[1..T])."""
    kernel, arguments = ars_exp3_call(*game)
    return kernel(*arguments)
