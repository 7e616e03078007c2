"""The learners over ranking policies (Cella & Cesa-Bianchi, Sect. 6 and 8) as compiled kernels:
π_low (Algorithm 1) and π_ucb (UCB1 over Π_K, Sect. 8). π_ghost and π_greedy are deterministic
in expectation and live in :mod:`.model`; BanditRanker (Algorithm 2) is in :mod:`.ranker`.

Environment (spec §2.0). Every kernel gets ``mean_table``, shape (k, D + 2), with
``mean_table[i, τ]`` = μ_{i+1}(τ) = μ_{i+1}·(1 − f(τ)·1{1 ≤ τ ≤ d_{i+1}}) for τ = 0..D+1 (eq. 1),
and reads ``mean_table[i, min(τ, D + 1)]``. τ is the number of rounds since the arm was last
pulled (pulled at t and again at t + 1: τ = 1); a first pull has τ = 0, the baseline. Arms are
0-based and sorted by decreasing baseline: the paper's arm j is index j − 1, its policy π_m cycles
over indices 0..m−1 and keeps its paper label m = 1..k. Rounds are t = 1..T.

Rewards are Bernoulli with common random numbers: pulling arm i at round t pays
``1{uniform(env_key, (t − 1)·k + i) < μ_i(τ)}``, so two learners that pull the same arm in the
same round with the same τ see the same realisation.

A *play* of π_m is m consecutive pulls of arms 0..m−1. A *switch* is a play of π_n right after a
play of π_m, n ≠ m; repeating a policy is not a switch (spec P7). Because every pull is labelled
with the policy whose play it belongs to, the switches are exactly the rounds t ≥ 2 whose label
differs from round t − 1's. Switching costs are applied in :mod:`.simulation`.

Outputs are per pull (index t − 1): ``expected`` = μ_{I_t}(τ) (what the paper plots, spec §3),
``realised`` = the Bernoulli reward, ``policy`` = the label m of the play. Memory is 10 bytes per
round; ``checkpoint_totals`` reduces them to the checkpoints in one pass.

Speed: every pull is simulated (8–25 ns each with its play's bookkeeping, ``make benchmark``;
``pull`` and ``_play`` are inlined into the learners), which keeps the common random numbers; the
block simulation of spec P10 (Binomial sums over steady-state plays) would save nothing worth
losing them for, since π_ucb cannot be blocked at all.
"""

from __future__ import annotations

import math

import numpy as np

from timebandits.core.sim.jit import njit
from timebandits.core.sim.rng import uniform

MAX_STAGES = 64  # rows of π_low's stage logs; runs need about S + 1 ≤ ⌈log2 log2 T⌉ + 2 stages

LOG_TIME_DECISIONS = 0  # π_ucb: ln N with N the number of UCB decisions (spec §2.4)
LOG_TIME_PULLS = 1  # π_ucb: ln t with t the number of pulls (the [ext] code's reading)


@njit(cache=True, inline="always")
def pull(mean_table, last, arm, t, env_key):
    """Pull ``arm`` at round t (spec §2.0): returns (μ_arm(τ), Bernoulli reward) and sets
    ``last[arm] = t``; ``last[i] = 0`` means never pulled (τ = 0); τ is capped at D + 1."""
    k = mean_table.shape[0]
    cap = mean_table.shape[1] - 1
    tau = 0 if last[arm] == 0 else min(t - last[arm], cap)
    mean = mean_table[arm, tau]
    reward = 1.0 if uniform(env_key, (t - 1) * k + arm) < mean else 0.0
    last[arm] = t
    return mean, reward


@njit(cache=True, inline="always")
def _play(m, mean_table, last, t, horizon, env_key, expected, realised, policy):
    """One play of π_m after round t: arms 0..m−1 at rounds t+1, ..., cut at the horizon
    (spec P4). Returns (the round of its last pull, the sum of its realised rewards); the play is
    complete iff that round is t + m.

    The loop's length is computed before it: numba compiles ``for j in range(m)`` with a
    ``break`` at the horizon, inside an inlined function, to code four to five times slower per
    pull (23 against 5 ns, ``make benchmark``), for the same pulls in the same order."""
    total = 0.0
    for j in range(min(m, horizon - t)):
        t += 1
        mean, reward = pull(mean_table, last, j, t, env_key)
        expected[t - 1] = mean
        realised[t - 1] = reward
        policy[t - 1] = m
        total += reward
    return t, total


@njit(cache=True)
def _outputs(horizon):
    return (np.empty(horizon), np.empty(horizon, dtype=np.uint8), np.empty(horizon, dtype=np.int8))


@njit(cache=True)
def checkpoint_totals(expected, realised, policy, checkpoints, k):
    """Cumulative totals at each checkpoint t (rounds 1..t) of the per-pull outputs:
    (expected, realised, switches, pulls), the last of shape (n_checkpoints, k) with column m − 1
    counting the pulls made under π_m. Sums run in round order, as ``numpy.cumsum`` would."""
    n = checkpoints.size
    totals = np.zeros((n, 3))
    pulls = np.zeros((n, k))
    cum = np.zeros(3)
    per_policy = np.zeros(k)
    c = 0
    for t in range(checkpoints[n - 1]):
        cum[0] += expected[t]
        cum[1] += realised[t]
        if t > 0 and policy[t] != policy[t - 1]:
            cum[2] += 1.0
        per_policy[policy[t] - 1] += 1.0
        while c < n and checkpoints[c] == t + 1:
            totals[c] = cum
            pulls[c] = per_policy
            c += 1
    return totals[:, 0], totals[:, 1], totals[:, 2], pulls


# ------------------------------------------------------------------------------------------------
# π_low (Algorithm 1)
# ------------------------------------------------------------------------------------------------


@njit(cache=True)
def low_stage_length(horizon, s):
    """T_s = T^(1 − 2^(−s)) (Algorithm 1; a real number: T_1 = √T, T_2 = T^(3/4), ...)."""
    return float(horizon) ** (1.0 - 2.0 ** (-s))


@njit(cache=True)
def low_stage_count(horizon, k):
    """S = min{j : Σ_{s≤j} (|A_s| + T_s) ≥ T} (Sect. 6) with |A_s| := k for every s, since the
    active sets are not known in advance (spec P3)."""
    total = 0.0
    j = 0
    while True:
        j += 1
        total += k + low_stage_length(horizon, j)
        if total >= horizon:
            return j


@njit(cache=True)
def low_confidence_width(stage_length, k, stages, delta):
    """C_s = sqrt(k/(2T_s)·ln(2kS/δ)) (Sect. 6, the Chernoff–Hoeffding width of event (5))."""
    return math.sqrt(k / (2.0 * stage_length) * math.log(2.0 * k * stages / delta))


@njit(cache=True)
def low_plays(stage_length, m, n_active):
    """n_sm = max(1, ⌊T_s/(m·|A_s|)⌋): the non-calibration plays of π_m in stage s (Algorithm 1,
    line 4, which plays π_m n_sm + 1 times; rounding per spec P2)."""
    return max(1, int(math.floor(stage_length / (m * n_active))))


@njit(cache=True)
def low_run(mean_table, delta, horizon, env_key):
    """π_low, Algorithm 1 (spec §2.3), knowing the horizon T and with confidence δ.

    S = ``low_stage_count(T, k)`` is fixed up front (P3) and kept even if the run needs more
    stages. Stage s = 1, 2, ...: for m ∈ A_s in increasing order (line 3), play π_m n_sm + 1 times
    in a row (line 4); ĝ_s(m) is the mean of the n_sm·m rewards of the last n_sm plays, the first
    (calibration) play being discarded (line 5, P8). Then A_{s+1} = {m ∈ A_s : ĝ_s(m) ≥
    max_{A_s} ĝ_s − 2C_s} (lines 7–8), from this stage's data only. Once |A_s| = 1 the survivor
    is played until T without switches. The run stops after exactly T pulls (line 9); a play cut
    by the horizon earns rewards but no estimate, and a cut stage eliminates nothing (P4).

    Returns (expected, realised, policy, n_active, active, ghat, width, stage_end, n_stages, S):
    per pull as in the module docstring; per stage s (row s − 1, MAX_STAGES rows) |A_s|, the
    indicator of m ∈ A_s (column m − 1), ĝ_s(m) (NaN if m ∉ A_s or its plays were cut), C_s and
    the round of the stage's last pull; the number of stages started, and S.
    """
    k = mean_table.shape[0]
    if not 0.0 < delta < 1.0:
        raise ValueError("delta must be in (0, 1)")
    expected, realised, policy = _outputs(horizon)
    n_active_log = np.zeros(MAX_STAGES, dtype=np.int64)
    active_log = np.zeros((MAX_STAGES, k), dtype=np.bool_)
    ghat_log = np.full((MAX_STAGES, k), np.nan)
    width_log = np.full(MAX_STAGES, np.nan)
    end_log = np.zeros(MAX_STAGES, dtype=np.int64)

    stages = low_stage_count(horizon, k)
    active = np.ones(k, dtype=np.bool_)
    ghat = np.empty(k)
    last = np.zeros(k, dtype=np.int64)
    t = 0
    s = 0
    while t < horizon:
        s += 1
        if s > MAX_STAGES:
            raise ValueError("pi_low needs more than MAX_STAGES stages")
        stage_length = low_stage_length(horizon, s)
        n_active = active.sum()
        width = low_confidence_width(stage_length, k, stages, delta)
        n_active_log[s - 1] = n_active
        width_log[s - 1] = width
        active_log[s - 1] = active
        ghat[:] = np.nan
        complete = True
        for m in range(1, k + 1):
            if not active[m - 1]:
                continue
            n_sm = low_plays(stage_length, m, n_active)
            start = t
            t, _ = _play(m, mean_table, last, t, horizon, env_key, expected, realised, policy)
            total = 0.0
            for _ in range(n_sm):
                t, got = _play(m, mean_table, last, t, horizon, env_key, expected, realised, policy)
                total += got
            if t - start < (n_sm + 1) * m:
                complete = False
                break
            ghat[m - 1] = total / (n_sm * m)
        end_log[s - 1] = t
        ghat_log[s - 1] = ghat
        if complete:
            best = -np.inf
            for m in range(k):
                if active[m] and ghat[m] > best:
                    best = ghat[m]
            for m in range(k):
                if active[m] and ghat[m] < best - 2.0 * width:
                    active[m] = False
    return (
        expected,
        realised,
        policy,
        n_active_log,
        active_log,
        ghat_log,
        width_log,
        end_log,
        s,
        stages,
    )


# ------------------------------------------------------------------------------------------------
# π_ucb (Sect. 8)
# ------------------------------------------------------------------------------------------------


@njit(cache=True)
def ucb_run(mean_table, horizon, env_key, log_time, bonus_scale):
    """π_ucb (Sect. 8; spec §2.4): UCB1 of Auer, Cesa-Bianchi & Fischer (2002, Fig. 1) over the
    k ranking policies, each choice "rolled out twice".

    The first k decisions play π_1..π_k once each; afterwards m = argmax ĝ(m) + c·sqrt(2·ln N/n(m))
    (UCB1's constant 2, c = ``bonus_scale`` = 1 for UCB1; ties to the smallest m), where ĝ(m) is
    the mean of π_m's observations, n(m) their number and N the number of decisions so far
    (``LOG_TIME_DECISIONS``; the paper does not say what "time" counts) or the number of pulls so
    far (``LOG_TIME_PULLS``). The authors' code ranks by √2·ĝ + sqrt(2 ln t/n) with t the pulls,
    which is c = 1/√2 with LOG_TIME_PULLS (spec §5.3, item 2). Each
    decision plays π_m twice: the first play calibrates and is discarded, the mean of the m
    rewards of the second is the observation (E = g(m) exactly, P8). Both plays earn reward; the
    run stops after exactly T pulls and a cut decision gives no observation (P4).

    Returns (expected, realised, policy, n_decisions), the last counting a cut decision too.
    """
    k = mean_table.shape[0]
    expected, realised, policy = _outputs(horizon)
    n = np.zeros(k, dtype=np.int64)
    sums = np.zeros(k)
    last = np.zeros(k, dtype=np.int64)
    t = 0
    decisions = 0
    while t < horizon:
        if decisions < k:
            m = decisions + 1
        else:
            log_time_value = math.log(decisions if log_time == LOG_TIME_DECISIONS else t)
            m = 1
            best = -np.inf
            for c in range(1, k + 1):
                index = sums[c - 1] / n[c - 1] + bonus_scale * math.sqrt(
                    2.0 * log_time_value / n[c - 1]
                )
                if index > best:
                    best = index
                    m = c
        decisions += 1
        start = t
        t, _ = _play(m, mean_table, last, t, horizon, env_key, expected, realised, policy)
        t, got = _play(m, mean_table, last, t, horizon, env_key, expected, realised, policy)
        if t - start == 2 * m:
            n[m - 1] += 1
            sums[m - 1] += got / m
    return expected, realised, policy, decisions
