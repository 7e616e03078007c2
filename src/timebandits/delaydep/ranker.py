"""BanditRanker (Algorithm 2, Sect. 7): learning the order of the arms by action elimination,
on a stationary Bernoulli bandit (the setting of Theorem 4) and on a B2DEP instance with a known
d_0 > max_i d_i (Sect. 7, last paragraph; spec §2.5, P9).

Samples are common random numbers: pull number t (1-based) of arm i reads
``uniform(env_key, (t − 1)·k + i)`` (stationary version: t is the sampling round r).
"""

from __future__ import annotations

import math

import numpy as np

from timebandits.core.sim.jit import njit
from timebandits.core.sim.rng import uniform

from .policies import pull

# status codes
RANKER_DONE = 0  # |A| ≤ 1: every arm is placed
RANKER_MAX_ROUNDS = 1  # max_rounds sampling rounds without finishing (order incomplete: -1s)


@njit(cache=True)
def ranker_epsilon(r, k, delta):
    """ε_r = sqrt(ln(2k·r(r+1)/δ) / (2r)) (eq. 6)."""
    return math.sqrt(math.log(2.0 * k * r * (r + 1.0) / delta) / (2.0 * r))


@njit(cache=True)
def _ranker_eliminate(sums, active, r, delta, lo, hi, position, removed_at):
    """Lines 4–13 of Algorithm 2 after sampling round r (every active arm has r samples).

    Sort the active arms by μ̂ = sum/r descending, ties by index (line 4). Position p is removed
    iff μ̂_[p] + 2ε_r < min over the arms before it and μ̂_[p] − 2ε_r > max over the arms after it
    (lines 6–7; an empty side is vacuously true, E5); all tests use the same snapshot and the
    marked arms are removed afterwards. Ranking (lines 9–10) uses the paper's binary tree: every
    unplaced (= active) arm belongs to a leaf, the range [lo, hi) of final positions; removing
    [p] splits its leaf into the arms of K⁺ in it (placed before [p]), [p] itself at
    lo + |K⁺ ∩ leaf| and the arms of K⁻ in it (after). Marked arms are processed in sorted order.
    Returns the number of arms removed.
    """
    k = sums.size
    order = np.empty(k, dtype=np.int64)
    n_act = 0
    for i in range(k):
        if active[i]:
            # insertion sort: larger sum first (all active arms have r samples), ties by index
            j = n_act
            while j > 0 and sums[order[j - 1]] < sums[i]:
                order[j] = order[j - 1]
                j -= 1
            order[j] = i
            n_act += 1
    eps2 = 2.0 * ranker_epsilon(r, k, delta)
    marked = np.zeros(n_act, dtype=np.bool_)
    for p in range(n_act):
        mu_p = sums[order[p]] / r
        up = p == 0 or mu_p + eps2 < sums[order[p - 1]] / r  # min over K⁺ = the one just before
        down = p == n_act - 1 or mu_p - eps2 > sums[order[p + 1]] / r  # max over K⁻ = just after
        marked[p] = up and down
    n_removed = 0
    for p in range(n_act):
        if not marked[p]:
            continue
        a = order[p]
        a_lo = lo[a]
        a_hi = hi[a]
        n_above = 0
        for q in range(p):
            b = order[q]
            if active[b] and lo[b] == a_lo:
                n_above += 1
        pos = a_lo + n_above
        for q in range(n_act):
            b = order[q]
            if q == p or not active[b] or lo[b] != a_lo:
                continue
            if q < p:
                hi[b] = pos
            else:
                lo[b] = pos + 1
                hi[b] = a_hi
        position[a] = pos
        lo[a] = pos
        hi[a] = pos + 1
        active[a] = False
        removed_at[a] = r
        n_removed += 1
    return n_removed


@njit(cache=True)
def _ranker_state(k):
    """The state of Algorithm 2 before round 1: reward sums, the active set A = K, each arm's
    leaf [lo, hi) of final positions (one leaf, all positions), final positions (−1 = unplaced)
    and removal rounds."""
    return (
        np.zeros(k),
        np.ones(k, dtype=np.bool_),
        np.zeros(k, dtype=np.int64),
        np.full(k, k, dtype=np.int64),
        np.full(k, -1, dtype=np.int64),
        np.zeros(k, dtype=np.int64),
    )


@njit(cache=True)
def _ranker_finish(active, lo, position):
    """Place the last survivor (its leaf has size 1) and invert positions into an order."""
    k = active.size
    for i in range(k):
        if active[i]:
            position[i] = lo[i]
    order = np.full(k, -1, dtype=np.int64)
    for i in range(k):
        if position[i] >= 0:
            order[position[i]] = i
    return order


@njit(cache=True)
def bandit_ranker_run(means, delta, env_key, max_rounds):
    """BanditRanker, Algorithm 2, on a stationary Bernoulli bandit (spec §2.5; Thm 4 checks).

    Sampling round r = 1, 2, ... pulls every active arm once (line 3): arm i's sample is
    1{uniform(env_key, (r − 1)·k + i) < means[i]}. Then ``_ranker_eliminate`` (lines 4–13); the
    loop is repeat-until |A| ≤ 1 (line 14); the last survivor is placed by the others' splits.
    ``means`` are the baselines μ_i (any order: the output is the recovered order).

    Returns (order, pulls, rounds, removed_at, status): ``order`` = arm indices best first
    (−1 for unplaced positions when stopped early), ``pulls`` = total pulls, ``rounds`` = the
    number of sampling rounds, ``removed_at[i]`` = the round at which arm i was removed (0 for the
    survivor), ``status`` = RANKER_DONE or RANKER_MAX_ROUNDS.
    """
    k = means.size
    if not 0.0 < delta < 1.0:
        raise ValueError("delta must be in (0, 1)")
    sums, active, lo, hi, position, removed_at = _ranker_state(k)
    n_act = k
    pulls = 0
    r = 0
    status = RANKER_DONE
    while True:
        if r >= max_rounds:
            status = RANKER_MAX_ROUNDS
            break
        r += 1
        for i in range(k):
            if active[i]:
                if uniform(env_key, (r - 1) * k + i) < means[i]:
                    sums[i] += 1.0
                pulls += 1
        n_act -= _ranker_eliminate(sums, active, r, delta, lo, hi, position, removed_at)
        if n_act <= 1:
            break
    order = (
        _ranker_finish(active, lo, position)
        if status == RANKER_DONE
        else _ranker_finish(np.zeros(k, dtype=np.bool_), lo, position)
    )
    return order, pulls, r, removed_at, status


@njit(cache=True)
def bandit_ranker_b2dep_run(mean_table, d0, delta, env_key, max_rounds):
    """BanditRanker on a B2DEP instance (Sect. 7, last paragraph; spec §2.5, P9).

    Needs d_0 > max_i d_i, checked as μ_i(d_0) = μ_i for every arm (ValueError otherwise), and
    k ≥ d_0: groups must hold exactly d_0 distinct arms (ValueError when k < d_0, P9). In
    sampling round r the active arms, in increasing index, are cut into groups of d_0; the last
    group is padded first with removed arms, then with arms of earlier groups (increasing index).
    Each group is cycled twice in increasing index order (2·d_0 pulls); the first cycle is
    discarded and the second one (every pull at τ = d_0, i.e. at the baseline) gives the samples
    of the group's active, not-yet-sampled arms. Pulls go through the shared environment (round
    counter t, draw (t − 1)·k + i). Pulls per round = 2·d_0·⌈|A_r|/d_0⌉.

    Returns (order, pulls, rounds, removed_at, status) as ``bandit_ranker_run``.
    """
    k = mean_table.shape[0]
    cap = mean_table.shape[1] - 1
    if not 0.0 < delta < 1.0:
        raise ValueError("delta must be in (0, 1)")
    if d0 < 1:
        raise ValueError("d0 must be >= 1")
    if k < d0:
        raise ValueError("BanditRanker on B2DEP needs k >= d0 (groups of d0 distinct arms)")
    for i in range(k):
        if mean_table[i, min(d0, cap)] != mean_table[i, 0]:
            raise ValueError("d0 must exceed every delay: mean_table[i, d0] != baseline")
    sums, active, lo, hi, position, removed_at = _ranker_state(k)
    last = np.zeros(k, dtype=np.int64)
    group = np.empty(d0, dtype=np.int64)
    in_group = np.zeros(k, dtype=np.bool_)
    sampled = np.zeros(k, dtype=np.bool_)
    n_act = k
    t = 0
    r = 0
    status = RANKER_DONE
    while True:
        if r >= max_rounds:
            status = RANKER_MAX_ROUNDS
            break
        r += 1
        sampled[:] = False
        nxt = 0  # next active arm (increasing index) to put in a group
        while True:
            size = 0
            in_group[:] = False
            while nxt < k and size < d0:
                if active[nxt]:
                    group[size] = nxt
                    in_group[nxt] = True
                    size += 1
                nxt += 1
            if size == 0:
                break
            for i in range(k):  # padding: removed arms first
                if size < d0 and not active[i] and not in_group[i]:
                    group[size] = i
                    in_group[i] = True
                    size += 1
            for i in range(k):  # then arms of earlier groups
                if size < d0 and not in_group[i]:
                    group[size] = i
                    in_group[i] = True
                    size += 1
            group[:size].sort()
            for cycle in range(2):
                for g in range(d0):
                    a = group[g]
                    t += 1
                    _, reward = pull(mean_table, last, a, t, env_key)
                    if cycle == 1 and active[a] and not sampled[a]:
                        sums[a] += reward
                        sampled[a] = True
            if nxt >= k:
                break
        n_act -= _ranker_eliminate(sums, active, r, delta, lo, hi, position, removed_at)
        if n_act <= 1:
            break
    order = (
        _ranker_finish(active, lo, position)
        if status == RANKER_DONE
        else _ranker_finish(np.zeros(k, dtype=np.bool_), lo, position)
    )
    return order, t, r, removed_at, status
