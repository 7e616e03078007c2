r"""LUCB1 (Kalyanakrishnan, Tewari, Auer & Stone, "PAC subset selection in stochastic multi-armed
bandits", ICML 2012) for m = 1 and ε = 0, the identification step of CTMAB (Alg. 2, §4.1). The
paper only cites it; this follows spec §3.5 [ext]:

- pull each arm once; round counter t = 1;
- each round, with p̂_a the mean and u_a the count of arm a, and

  .. math:: \beta(u, t) = \sqrt{\frac{1}{2u} \ln\frac{k_1 K t^4}{\delta}}, \qquad k_1 = 5/4,

  h = argmax_a p̂_a (ties: lowest index), l = argmax_{a≠h} p̂_a + β(u_a, t);
- stop and return h when p̂_h − β(u_h, t) > p̂_l + β(u_l, t); otherwise pull h, then l, t ← t + 1.

Sample s (0-based) of the run is Bernoulli 1{uniform(key, counter + s) < μ_a}.

β is computed in logs, ln(k_1 K/δ) + 4 ln t: the integer t^4 overflows int64 past round
t = 55,108 (issue 22 §4), which made β NaN or negative and LUCB1 stop at artefact rounds.
"""

from __future__ import annotations

import math

import numpy as np

from timebandits.core.sim.jit import njit
from timebandits.core.sim.rng import uniform

K1 = 1.25


@njit(cache=True)
def confidence_radius(count, round_index, n_arms, delta):
    """β(u, t) of LUCB1 (module docstring), in logs: no t^4 is ever formed."""
    return math.sqrt(
        (math.log(K1 * n_arms / delta) + 4.0 * math.log(float(round_index))) / (2.0 * count)
    )


@njit(cache=True)
def run_lucb1(means, delta, key, counter, budget, counts, sums, played):
    """LUCB1 on arms of ``means`` with at most ``budget`` samples; ``counts`` and ``sums`` (zeroed
    by the caller) receive every sample, ``played[s]`` the arm of sample s. Returns (h, samples
    used, stopped): ``stopped`` is False when the budget ran out first (h is then the empirical
    best)."""
    n_arms = means.size
    used = 0
    for a in range(n_arms):
        if used == budget:
            return _leader(counts, sums), used, False
        _sample(a, means, key, counter, used, counts, sums, played)
        used += 1
    t = 1
    while True:
        h = _leader(counts, sums)
        low = -1
        best_upper = -np.inf
        for a in range(n_arms):
            if a != h:
                upper = sums[a] / counts[a] + confidence_radius(counts[a], t, n_arms, delta)
                if upper > best_upper:
                    best_upper, low = upper, a
        if sums[h] / counts[h] - confidence_radius(counts[h], t, n_arms, delta) > best_upper:
            return h, used, True
        for a in (h, low):
            if used == budget:
                return _leader(counts, sums), used, False
            _sample(a, means, key, counter, used, counts, sums, played)
            used += 1
        t += 1


@njit(cache=True, inline="always")
def _sample(arm, means, key, counter, used, counts, sums, played):
    """Sample ``used`` of the run: arm ``arm``'s Bernoulli reward from uniform counter + used."""
    sums[arm] += 1.0 if uniform(key, counter + used) < means[arm] else 0.0
    counts[arm] += 1.0
    played[used] = arm


@njit(cache=True)
def _leader(counts, sums):
    """The arm of highest empirical mean (ties: lowest index; unsampled arms count as 0)."""
    best, leader = -1.0, 0
    for a in range(counts.size):
        value = sums[a] / counts[a] if counts[a] > 0 else 0.0
        if value > best:
            best, leader = value, a
    return leader
