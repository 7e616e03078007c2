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
(the older ones add less than 1e-12 in all); every earlier pull for the polynomial kernel.
"""

from __future__ import annotations

import numpy as np
from timebandits.core.jit import njit

from timebandits.core.rng import uniform

from .model import DELAY


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
        x = totals[u]
        if x == 0.0:
            continue
        if kernel_code == DELAY:
            arrival = u + delays[u]
            if first <= arrival <= last:
                observed += x
        else:
            before = first - 1 - u
            observed += x * (cumulative[last - u] - (cumulative[before] if before >= 0 else 0.0))
    return observed
