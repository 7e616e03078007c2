"""The compiled environment of the composite anonymous bandit (model.py): each pull's random total
and delay, and the aggregate feedback the learner sees over a run of slots.

Slots are u = 1..T. Pulling arm i in slot u draws (common random numbers: every algorithm of a
repetition meets the same uniforms in the same slot)
    X_u = 1{U_{2u} < s_i}                               the pull's total, Bernoulli(s_i)
    z_u = low + ⌊U_{2u+1}·(high − low + 1)⌋             its delay (delay kernels only)
with U_j = ``uniform(env_key, j)``. Every algorithm of the paper decides only at the end of a run
of slots (a round, a phase block, a CLW block), so it needs only the aggregate of that run,

    Σ_{t=t1}^{t2} Y(t) = Σ_{u ≤ t2} X_u·[W(t2 − u) − W(t1 − 1 − u)]   (a fixed spread, W = Σ w)
                       = Σ_{u ≤ t2} X_u·1{t1 ≤ u + z_u ≤ t2}          (a delay),

which ``window_sum`` evaluates over the pulls that can reach the window: those within the
kernel's support before t1, exactly; for the discounted kernel those within ``Kernel.window_reach``
(the older ones add less than 1e-12 in all); every earlier pull for the polynomial kernel. The
game loops call ``window_feedback``, which returns the same bits, for the polynomial kernel
without the sum over every earlier pull: from the exact integer convolution of the pulls with
the kernel's rounded cumulative weights at the window's end (``window_state``).
"""

from __future__ import annotations

import numpy as np

from timebandits.core.sim.jit import njit
from timebandits.core.sim.rng import uniform

from .spread_kernel import DELAY


@njit(cache=True)
def pull(mean, slot, env_key, kernel_code, delay_low, delay_high, totals, delays):
    """Draw slot ``slot``'s total for an arm of expected total ``mean`` (and its delay) into
    ``totals`` and ``delays``; returns the total."""
    total = 1.0 if uniform(env_key, 2 * slot) < mean else 0.0
    totals[slot] = total
    if kernel_code == DELAY:
        span = delay_high - delay_low + 1
        delays[slot] = delay_low + min(np.int64(uniform(env_key, 2 * slot + 1) * span), span - 1)
    return total


@njit(cache=True)
def window_sum(first, last, totals, delays, kernel_code, cumulative, reach):
    """Σ_{t=first}^{last} Y(t), the feedback observed in slots first..last, from the pulls drawn
    so far (module docstring). ``cumulative`` is W(n) for n = 0..T (``Kernel.cumulative``),
    ``reach`` how far back pulls can still reach the window (``Kernel.window_reach``, at
    most T)."""
    observed = 0.0
    for u in range(max(1, first - reach), last + 1):
        x = np.float64(totals[u])  # a zero total adds +0.0: no branch on the random totals
        if kernel_code == DELAY:
            observed += x * ((first <= u + delays[u]) & (u + delays[u] <= last))
        else:
            before = first - 1 - u
            observed += x * (cumulative[last - u] - (cumulative[before] if before >= 0 else 0.0))
    return observed


# The grid of a kernel's cumulative weights W(n) when the exact path applies: every W(n) is an
# integer number of units 2^-53 (W(n) ∈ {0} ∪ [1/2, 1] for the polynomial kernels with γ ≥ 1.73).
UNIT = 2.0**-53
_UNITS = np.uint64(2**53)
_NARROW = 2**32
# What a term of A's sparse sum costs against one of its dense head (a gather from P2 against a
# streamed product; measured, about 4x), for choosing H.
_SPARSE_COST = 4
POINT, FILLED = range(2)


@njit(cache=True)
def window_state(kernel_code, cumulative, reach, horizon):
    """What ``window_feedback`` keeps between calls: (wide, narrow, steps, jumps, ones, ones2,
    memo, value).

    The exact path needs a fixed spread whose window sums run over every earlier pull
    (``reach`` ≥ ``horizon``: the polynomial kernel) and whose W(n) = M(n)·2^-53 lie on the grid,
    with integers 0 ≤ M(n) ≤ 2^53, and Σ_n (1 − W(n)) < 2^9 (then the old pulls' share of a
    window, below, stays under 2^62 units); otherwise every array is empty and every window is
    summed directly (``window_sum``). With D(k) = M(k) − M(k − 1) and E(k) = D(k) − D(k − 1)
    (M(−1) = M(−2) = 0), the cumulative feedback of slots 1..t in units is, summing by parts
    once below some H and twice from H on,

        A(t) = Σ_{u≤t} X_u·M(t − u) = Σ_{k<H} D(k)·P1(t − k) + D(H)·P2(t − H)
                                      + Σ_{H<k<t} E(k)·P2(t − k)        (modulo 2^64),
        P1(v) = Σ_{u≤v} X_u  (the pulls with a non-zero total),  P2(v) = Σ_{v'≤v} P1(v').

    Far out the rounded increments D of W stay equal over long runs (and vanish once w_n is below
    half a unit: from n ≈ 2.5·10^5 on for γ = 3), so few E(k) there are non-zero; H minimises the
    work, H plus ``_SPARSE_COST`` times the non-zero E(k) beyond it. For T = 10^6, 3.3·10^5 E(k)
    are non-zero for γ = 2 (every one below 2.2·10^5) and 1.6·10^4 for γ = 3. ``wide`` holds
    D(k) up to the last k < H with D(k) ≥ 2^32, ``narrow`` the rest below H (32-bit), ``steps``
    and ``jumps`` the k ≥ H of the second sum and D(H), E(k); ``ones`` P1(v) at index T − v,
    ``ones2`` P2; ``memo`` the last point of A computed and how far P1, P2 are filled, ``value``
    that A. The work per window is then at most H + ``_SPARSE_COST``·(those E(k)), not T."""
    size = horizon + 1 if kernel_code != DELAY and reach >= horizon else 0
    level = step = np.int64(0)  # M(n − 1), D(n − 1)
    kinks = head = least = split = 0  # how many E(k) ≠ 0 with k < n; H; its work less a constant
    excess = 0.0
    for n in range(size + 1):
        if n - _SPARSE_COST * kinks < least:
            head, least = n, n - _SPARSE_COST * kinks
        if n == size:
            break
        units = cumulative[n] * 2.0**53
        if not 0.0 <= units <= 2.0**53 or np.float64(np.int64(units)) != units:
            size = head = 0
            break
        excess += 1.0 - cumulative[n]
        kinks += np.int64(units) - level != step
        step = np.int64(units) - level
        level = np.int64(units)
        if step >= _NARROW:
            split = n + 1
    if excess >= 512.0:
        size = head = 0
    split = min(split, head)
    wide = np.zeros(split, np.uint64)
    narrow = np.zeros(head - split, np.uint32)
    steps = np.zeros(kinks + 1 if size > 0 else 0, np.int64)
    jumps = np.zeros(steps.size, np.uint64)
    level = step = np.int64(0)
    count = 0
    for k in range(size):
        jump = np.int64(cumulative[k] * 2.0**53) - level - step  # E(k)
        step += jump
        level += step
        if k < split:
            wide[k] = np.uint64(step)
        elif k < head:
            narrow[k - split] = np.uint32(step)
        elif k == head or jump != 0:
            steps[count], jumps[count] = k, np.uint64(step if k == head else jump)
            count += 1
    return (
        wide,
        narrow,
        steps[:count],
        jumps[:count],
        np.zeros(size, np.uint32),
        np.zeros(size, np.uint64),
        np.zeros(2, np.int64),
        np.zeros(1, np.uint64),
    )


@njit(cache=True)
def _feedback_units(t, horizon, wide, narrow, steps, jumps, ones, ones2):
    """A(t) modulo 2^64 (``window_state``)."""
    total = np.uint64(0)
    base = horizon - t  # P1(t − k) is ones[base + k]
    for k in range(min(wide.size, t)):
        total += wide[k] * np.uint64(ones[base + k])
    for k in range(wide.size, min(wide.size + narrow.size, t)):
        total += np.uint64(narrow[k - wide.size]) * np.uint64(ones[base + k])
    for j in range(steps.size):
        if steps[j] >= t:
            break
        total += jumps[j] * ones2[t - steps[j]]
    return total


@njit(cache=True)
def window_feedback(first, last, totals, delays, kernel_code, cumulative, reach, state):
    """``window_sum(first, last, …)`` bit for bit: the feedback of slots first..last (§2's
    aggregate Y, summed over a round of Algorithm 1 into m_i, or over an ODAAF phase block), on
    the exact path of ``window_state`` without a sum over every earlier pull. There the terms
    X_u·[W(last − u) − W(first − 1 − u)] (totals X_u ∈ {0, 1}) that ``window_sum`` adds in order
    of u are whole units, so its running sum is exact while it stays below 1 (2^53 units). The
    old pulls' share S = A(last) − A(first − 1) − Σ_{u≥first} X_u·M(last − u) is exact, so the
    direct sum starts, from the longest prefix of S below 1, at the most recent old pulls: those
    whose shares add up to the rest of S."""
    wide, narrow, steps, jumps, ones, ones2, memo, value = state
    if ones.size == 0:
        return window_sum(first, last, totals, delays, kernel_code, cumulative, reach)
    horizon = ones.size - 1
    for u in range(memo[FILLED] + 1, last + 1):
        count = ones[horizon - u + 1] + np.uint32(totals[u])
        ones[horizon - u] = count
        ones2[u] = ones2[u - 1] + np.uint64(count)
    memo[FILLED] = max(memo[FILLED], last)
    before = (
        value[0]
        if memo[POINT] == first - 1
        else _feedback_units(first - 1, horizon, wide, narrow, steps, jumps, ones, ones2)
    )
    after = _feedback_units(last, horizon, wide, narrow, steps, jumps, ones, ones2)
    memo[POINT], value[0] = last, after
    old = after - before
    for u in range(first, last + 1):
        old -= np.uint64(totals[u]) * np.uint64(cumulative[last - u] / UNIT)
    start = first
    while old >= _UNITS:
        start -= 1
        old -= np.uint64(totals[start]) * np.uint64(
            (cumulative[last - start] - cumulative[first - 1 - start]) / UNIT
        )
    observed = np.float64(old) * UNIT
    for u in range(start, last + 1):
        before_u = first - 1 - u
        observed += np.float64(totals[u]) * (
            cumulative[last - u] - (cumulative[before_u] if before_u >= 0 else 0.0)
        )
    return observed
