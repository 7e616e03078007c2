"""UCB, the policy ARS-UCB groups into rounds (2.2: "doing so does not cause excessive regret
compared to UCB"), as a compiled game loop on the composite anonymous environment (environment.py).

The index is the paper's "classic UCB policy" (2.2, proof sketch of Theorem 1),

    v_i(t) = L_i(t)/N_i(t) + sqrt(4 ln t / N_i(t)),

UCB1 of Auer, Cesa-Bianchi & Fischer (2002) with the exploration constant α = 4 of ARS-UCB
(UCB1 itself has 2); ``alpha`` sets it. Each arm is pulled once (in index order), then at every
slot the arm of largest index (ties: the lowest index, Auer et al. leave them open), with t the
slots elapsed; no cap at 1 (standard UCB has none). One decision per slot, so no grouping.

What the policy is told after pulling arm a in slot u (``immediate``):
  False  the slot's anonymous aggregate Y(u) (§2), credited to the arm pulled in u: UCB run on
         the feedback ARS-UCB gets, "fed the observations as they arrive" (Y(u) is mostly other
         pulls' rewards: UCB has no rounds to make the bias vanish);
  True   the pull's own total X_u at once: L_i(t) known, the case where, the paper says (2.2),
         "the origin UCB policy can be directly applied" (a benchmark no learner here can run).
Anonymous feedback is computed for the delay kernels only (one arrival per pull); a fixed spread
would cost its support per slot, and the paper's UCB argument is about ODAAF's delays (Fig. 2).
Regret is the pseudo-regret Σ_t (s_1 − s_{a(t)}), as for ARS-UCB (policies.py).
"""

from __future__ import annotations

import math

import numpy as np

from timebandits.core.sim.jit import njit

from .environment import pull
from .spread_kernel import DELAY


@njit(cache=True)
def run_ucb(
    means, alpha, immediate, kernel_code, delay_low, delay_high, env_key, horizon, checkpoints
):
    """One game of ``horizon`` slots; returns the cumulative pseudo-regret at each checkpoint.
    With ``immediate`` False the kernel must be a delay (``kernel_code`` DELAY)."""
    n_arms = means.size
    gaps = means.max() - means
    totals = np.zeros(horizon + 1, np.uint8)
    delays = np.zeros(horizon + 1 if kernel_code == DELAY else 1, np.int64)
    arrivals = np.zeros(horizon + delay_high + 2)
    pulls = np.zeros(n_arms)
    observed = np.zeros(n_arms)
    regret_out = np.zeros(checkpoints.size)
    regret = 0.0
    cp = 0
    for u in range(1, horizon + 1):
        t = u - 1  # slots elapsed at the decision
        if t < n_arms:
            arm = t
        else:
            scale = alpha * math.log(t)
            arm = 0
            best = -math.inf
            for i in range(n_arms):
                index = observed[i] / pulls[i] + math.sqrt(scale / pulls[i])
                if index > best:
                    best = index
                    arm = i
        total = pull(means[arm], u, env_key, kernel_code, delay_low, delay_high, totals, delays)
        if immediate:
            observed[arm] += total
        else:
            arrivals[u + delays[u]] += total
            observed[arm] += arrivals[u]
        pulls[arm] += 1.0
        regret += gaps[arm]
        while cp < checkpoints.size and checkpoints[cp] == u:
            regret_out[cp] = regret
            cp += 1
    return regret_out
