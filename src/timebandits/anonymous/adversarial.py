r"""The adversarial games of Fig. 5 (Wang, Wang & Huang, AAAI 2021, §5.2) that ARS-EXP3
(Algorithm 2, ars_exp3.py) and the baseline CLW (Cesa-Bianchi, Gentile & Mansour, COLT 2018;
clw.py) play as compiled loops: a stream of labels with anonymous delayed feedback, the slots a
learner plays with one arm, the regret, and the Exp3 choice both learners make.

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

**Exp3's choice** (both learners): p = (1 − γ)·softmax(w/scale) + γ/N, the largest exponent
subtracted first (:func:`_probabilities`), and the inverse-CDF draw of an arm
(:func:`_draw`).
"""

from __future__ import annotations

import numpy as np

from timebandits.core.sim.jit import njit
from timebandits.core.sim.rng import uniform

NON_OBLIVIOUS, OBLIVIOUS = 0, 1
MODES = (NON_OBLIVIOUS, OBLIVIOUS)


def best_label(labels: np.ndarray, n_arms: int) -> int:
    """The most frequent label of ``labels`` (the lowest on ties): the non-oblivious
    adversary's "best arm"."""
    return int(np.argmax(np.bincount(labels, minlength=n_arms)))


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
