"""OPT of a B2DEP instance (spec §2.6, not in the paper), compiled: the deterministic state graph
reachable from the all-fresh state and its maximum mean cycle by Karp's algorithm (Karp 1978).
Rewards come from ``B2DEPProblem.mean_table()``'s layout (model.py)."""

from __future__ import annotations

import numpy as np

from timebandits.core.sim.jit import njit


@njit(cache=True)
def reachable_state_graph(table, delays):
    """Breadth-first search of the state graph from the all-fresh state.

    A state is coded in mixed radix with digit c_i = τ_i − 1 ∈ {0..d_i} (c_i = d_i: baseline
    available). Returns successors and rewards over the reachable states, relabelled in BFS order.
    """
    k = delays.size
    stride = np.ones(k, dtype=np.int64)
    for i in range(1, k):
        stride[i] = stride[i - 1] * (delays[i - 1] + 1)
    size = stride[k - 1] * (delays[k - 1] + 1)
    label = np.full(size, -1, dtype=np.int64)
    order = np.empty(size, dtype=np.int64)
    successors = np.empty((size, k), dtype=np.int64)
    rewards = np.empty((size, k))
    start = 0
    for i in range(k):
        start += delays[i] * stride[i]
    label[start], order[0] = 0, start
    count, head = 1, 0
    digits = np.empty(k, dtype=np.int64)
    while head < count:
        code = order[head]
        for i in range(k):
            digits[i] = (code // stride[i]) % (delays[i] + 1)
        for a in range(k):
            nxt = 0
            for i in range(k):
                if i != a:
                    nxt += min(digits[i] + 1, delays[i]) * stride[i]
            if label[nxt] < 0:
                label[nxt], order[count] = count, nxt
                count += 1
            successors[head, a] = label[nxt]
            rewards[head, a] = table[a, digits[a] + 1]  # τ_a = c_a + 1
        head += 1
    return successors[:count].copy(), rewards[:count].copy()


@njit(cache=True)
def _heaviest_step(previous, current, successors, rewards):
    """One step of Karp's recursion: current[v] = max over edges (u, a) into v of
    previous[u] + rewards[u, a] (−inf if v has no incoming edge)."""
    n, k = successors.shape
    current[:] = -np.inf
    for u in range(n):
        for a in range(k):
            value = previous[u] + rewards[u, a]
            if value > current[successors[u, a]]:
                current[successors[u, a]] = value


@njit(cache=True)
def karp_max_mean_cycle(successors, rewards):
    """Karp (1978): λ* = max_v min_{0≤j<N} (D_N(v) − D_j(v))/(N − j), D_j(v) the heaviest walk
    of exactly j edges ending at v from a virtual source joined to every state (D_0 ≡ 0).

    Two passes keep memory O(N): the first computes D_N, the second recomputes D_0..D_{N−1}
    and keeps the running minimum per state. Time O(N²k)."""
    n, k = successors.shape
    previous = np.zeros(n)
    current = np.empty(n)
    for _ in range(n):
        _heaviest_step(previous, current, successors, rewards)
        previous, current = current, previous
    d_n = previous.copy()
    best = np.full(n, np.inf)
    previous[:] = 0.0
    for j in range(n):
        for v in range(n):
            ratio = (d_n[v] - previous[v]) / (n - j)  # +inf where D_j(v) = −inf
            if ratio < best[v]:
                best[v] = ratio
        _heaviest_step(previous, current, successors, rewards)
        previous, current = current, previous
    answer = -np.inf
    for v in range(n):
        if d_n[v] > -np.inf and best[v] > answer:
            answer = best[v]
    return answer
