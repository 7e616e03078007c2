r"""The adversarial games of Fig. 5 (Wang, Wang & Huang, AAAI 2021, §5.2) as compiled loops:
ARS-EXP3 (Algorithm 2) and the baseline CLW (Cesa-Bianchi, Gentile & Mansour, COLT 2018) on a
stream of labels with anonymous delayed feedback.

**Game.** Slot t = 1..T carries a label c_t ∈ {0..N−1} (``labels[t − 1]``, streams.py): arm i
earns r_i(t) = 1{i = c_t}. The learner's pull a_t earns x_t = r_{a_t}(t), which arrives whole
z_t ≥ 1 slots later; the learner observes only Z(t), the sum of what arrives in slot t
(anonymous; arrivals after T are lost). Delays:

- ``NON_OBLIVIOUS`` (Fig. 5a, b): z_t = d if a_t is the best arm and the best arm was played in
  each of the 3d slots before t, else 1 (§5.2). The best arm is the most frequent label over
  the horizon (:func:`best_label`), and the streak excludes the current pull and carries across
  rounds and blocks (spec §3, P11 [recon]).
- ``OBLIVIOUS`` (Fig. 5c, d): z_t = low + ⌊U·(high − low + 1)⌋ with U = ``uniform(env_key, t)``,
  fixed in advance whatever the learner plays.

**Regret** at t: max_i G_i(t) − gain(t), G_i(t) = #{s ≤ t : c_s = i}, gain(t) = Σ_{s≤t} x_s:
the best fixed arm up to t against the learner's true earnings (not Z; spec P9).

**ARS-EXP3** (Algorithm 2, spec §2.2). Rounds k = 1..K of g(k) = ⌈k^β⌉ slots,
G(K) = Σ_{k≤K} g(k) ≤ T < G(K+1) (theory.exp3_rounds). Weights are kept as w_i, and

.. math::

    p_i = (1-\gamma)\,\frac{e^{w_i/g(K)}}{\sum_j e^{w_j/g(K)}} + \frac{\gamma}{N},
    \qquad w_a \mathrel{+}= \frac{\gamma \min\{Z_k, g(k)\}}{N p_a},

with Z_k the observations of round k's slots and the softmax computed after subtracting the
largest exponent (w/g(K) reaches about K: plain exp overflows, spec P8). Round k's arm is the
inverse-CDF draw of ``uniform(policy_key, k − 1)``. The T − G(K) < g(K+1) slots left after
round K: one more draw (counter K), played to T, with no update (spec §2.2 [recon]).
γ = min{1, √(N ln N/((e − 1) K))} (App. B; theory.ars_exp3_gamma).

**CLW(d̂)** (spec §2.6: one phase of ARS-CLW, App. C Algorithm 3, with d fixed at d̂). With
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

from .theory import ars_exp3_gamma, exp3_round_sizes

NON_OBLIVIOUS, OBLIVIOUS = 0, 1
MODES = (NON_OBLIVIOUS, OBLIVIOUS)


def best_label(labels: np.ndarray, n_arms: int) -> int:
    """The most frequent label of ``labels`` (the lowest on ties): the non-oblivious
    adversary's "best arm"."""
    return int(np.argmax(np.bincount(labels, minlength=n_arms)))


def clw_gamma(n_arms: int, horizon: int, d_hat: int) -> float:
    """γ = min{1, √(2 d̂ N ln N/(T + d̂))} of CLW(d̂) (spec §2.6; ARS-CLW's γ^{(k)}, App. C)."""
    return min(1.0, math.sqrt(2.0 * d_hat * n_arms * math.log(n_arms) / (horizon + d_hat)))


@njit(cache=True)
def _probabilities(weights, scale, gamma, p):
    """p = (1 − γ)·softmax(w/scale) + γ/N, with the largest exponent subtracted first; returns
    p. In place: a block of CLW or a round of ARS-EXP3 is some fifty slots, and four temporary
    arrays per choice cost about 2 ns per slot. Each element gets numpy's operations in numpy's
    order (the sum runs from the first arm), so p is what the array expression gave, bit for
    bit."""
    n = weights.size
    top = -np.inf
    for i in range(n):
        p[i] = weights[i] / scale
        top = max(top, p[i])
    total = 0.0
    for i in range(n):
        p[i] = np.exp(p[i] - top)
        total += p[i]
    for i in range(n):
        p[i] = (1.0 - gamma) * p[i] / total + gamma / n
    return p


@njit(cache=True)
def _draw(p, u):
    """The arm whose cumulative probability interval holds u (inverse CDF, arms in order)."""
    total = 0.0
    for i in range(p.size - 1):
        total += p[i]
        if u < total:
            return i
    return p.size - 1


@njit(cache=True)
def _delay(mode, slot, arm, best_arm, streak, d, low, high, env_key):
    """z_t of the pull of ``arm`` in ``slot``, ``streak`` the best arm's consecutive plays
    just before it (module docstring)."""
    if mode == NON_OBLIVIOUS:
        return d if arm == best_arm and streak >= 3 * d else 1
    span = high - low + 1
    return low + min(np.int64(uniform(env_key, slot) * span), span - 1)


@njit(cache=True)
def _play_run(
    first,
    last,
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
):
    """Slots first..last played with ``arm``: slot t earns 1{arm = c_t}, which arrives z_t
    slots later (lost beyond T). Updates the label counts G_i, ``state = [gain, best count,
    streak, next checkpoint index]`` (kept in locals inside the run) and the regret at the
    checkpoints it passes. Returns Σ_{t=first}^{last} Z(t): complete, as every delay is ≥ 1."""
    gain, best, streak, next_cp = state[0], state[1], np.int64(state[2]), np.int64(state[3])
    for slot in range(first, last + 1):
        label = labels[slot - 1]
        earned = 1.0 if arm == label else 0.0
        z = _delay(mode, slot, arm, best_arm, streak, d, low, high, env_key)
        if slot + z < arrivals.size:
            arrivals[slot + z] += earned
        counts[label] += 1.0
        gain += earned
        if counts[label] > best:
            best = counts[label]
        streak = streak + 1 if arm == best_arm else 0
        plays[slot] = arm
        while next_cp < checkpoints.size and checkpoints[next_cp] == slot:
            regret[next_cp] = best - gain
            next_cp += 1
    state[0], state[1], state[2], state[3] = gain, best, streak, next_cp
    observed = 0.0
    for slot in range(first, last + 1):
        observed += arrivals[slot]
    return observed


@njit(cache=True)
def _new_game(horizon, n_arms, checkpoints):
    """A game's empty state: rewards falling due per slot, the labels' counts so far, the run
    tally of ``_play_run``, regret at the checkpoints, plays (−1 = not yet) and log-weights."""
    return (
        np.zeros(horizon + 2),
        np.zeros(n_arms),
        np.zeros(4),
        np.zeros(checkpoints.size),
        np.full(horizon + 1, -1, np.int64),
        np.zeros(n_arms),
    )


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


def _check_game(labels, n_arms, mode, d, low, high) -> np.ndarray:
    labels = np.asarray(labels)
    if labels.ndim != 1 or labels.size == 0 or not np.issubdtype(labels.dtype, np.integer):
        raise ValueError("labels must be a non-empty 1-d integer array")
    if n_arms < 2 or labels.min() < 0 or labels.max() >= n_arms:
        raise ValueError(
            f"labels must lie in 0..{n_arms - 1} with n_arms >= 2, got "
            f"{labels.min()}..{labels.max()}"
        )
    if mode not in MODES:
        raise ValueError(f"mode must be NON_OBLIVIOUS (0) or OBLIVIOUS (1), got {mode!r}")
    if d < 1:
        raise ValueError(f"d must be >= 1, got {d!r}")
    if mode == OBLIVIOUS and not 1 <= low <= high:
        raise ValueError(f"oblivious delays need 1 <= low <= high, got {low}, {high}")
    return labels.astype(np.int64)


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


def play_ars_exp3(*game) -> tuple[np.ndarray, np.ndarray]:
    """ARS-EXP3's game (the arguments of :func:`ars_exp3_call`): (regret at the checkpoints,
    plays[1..T])."""
    kernel, arguments = ars_exp3_call(*game)
    return kernel(*arguments)


def play_clw(*game) -> tuple[np.ndarray, np.ndarray]:
    """CLW(d̂)'s game (the arguments of :func:`clw_call`): (regret at the checkpoints,
    plays[1..T])."""
    kernel, arguments = clw_call(*game)
    return kernel(*arguments)
