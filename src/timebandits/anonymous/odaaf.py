r"""ODAAF (Pike-Burke, Agrawal, Szepesvári & Grünewälder, "Bandits with Delayed, Aggregated
Anonymous Feedback", ICML 2018, arXiv 1709.06853, Algorithm 1 with its three phase lengths) as a
compiled game loop on the composite anonymous environment (environment.py): the baseline of
Wang, Wang & Huang (AAAI 2021) Fig. 2, and, told the interval size, its "generalized ODAAF"
baseline of Fig. 3 (Garg & Akash 2019, arXiv 1910.01161).

Phased elimination. Active set A = all arms, tolerance Δ̃_1 = 1/2, n_0 = 0. In phase m = 1, 2, …

  1. every arm j of A, in increasing index order, is played for n_m − n_{m−1} consecutive slots,
     and S_j += the feedback observed in those slots (``window_feedback``, which includes whatever
     earlier pulls of any arm deliver there: the feedback is anonymous);
  2. X̄_j = S_j / n_m, the feedback summed over all of j's slots in phases 1..m over its n_m
     pulls (spec P10: cumulative, not the mean of phase m alone), and every j of A with
     X̄_j + Δ̃_m < max_{j'∈A} X̄_{j'} is eliminated;
  3. Δ̃_{m+1} = Δ̃_m / 2.

When one arm is left it is played until T; everything is cut at T. With ℓ_m = ln(T Δ̃_m²),
Δ̃_m = 2^{−m}, E = E[τ] the expected delay, V = V(τ) its variance and d its bound, n_m is ⌈·⌉ of

  ODAAF    (E known)        Δ̃_m^{−2} (√(2ℓ_m) + √(2ℓ_m + (8/3) Δ̃_m ℓ_m + 6 m Δ̃_m E))²
  ODAAF-V  (E and V known)  Δ̃_m^{−2} (√(2ℓ_m) + √(2ℓ_m + (8/3) Δ̃_m ℓ_m + 4 Δ̃_m (E + 2V)))²
  ODAAF-B  (E and d known)  max{ Δ̃_m^{−2} (√(2ℓ_m) + √(2ℓ_m + (8/3) Δ̃_m ℓ_m + 4 Δ̃_m E))²,
                                 m d̃_m },  d̃_m = min{d, n_m^{ODAAF}/m},  so m d̃_m =
                                 min{m d, n_m^{ODAAF}} with n_m^{ODAAF} the ODAAF line unrounded.

Sources and reconstructions:
- The algorithm and the three n_m are the spec's (§2.4, labelled [ext]): the original paper's
  text could not be reached from this project's environment, so they are NOT checked against
  it. The n_m formulas agree term by term with a public third-party implementation
  (``OdaafExpectedDelay``, ``OdaafExpectedBoundedDelay``, ``OdaafBoundedDelayExpectationVariance``
  classes, read through the code index), as does the elimination rule X̄_j + Δ̃_m < max X̄.
  That implementation also plays a "bridge period" between phases (a fixed number of slots,
  25 by default, whose observations are not used) and resets X̄ every phase; the spec has
  neither (P10), and neither has this module.
- n_m is rounded up (⌈·⌉) [recon]. It is capped at T before rounding (the variance or the bound
  may be infinite); a phase whose n_m reaches T lasts until T anyway.
- The guard [recon, spec P10]: if ln(T Δ̃_m²) ≤ 0 at the start of a phase (n_m is undefined),
  the empirically best active arm (largest S_j, ties to the lowest index; the lowest index
  before any pull) is played until T. It is reachable only in phase 1, i.e. for T ≤ 4: since
  (√a + √b)² ≥ 4a for b ≥ a, n_m ≥ 8 ℓ_m/Δ̃_m² = 8 T ℓ_m e^{−ℓ_m}, which is ≥ T for
  ℓ_m ∈ [0.15, 3.2]; ℓ_1 = ln(T/4) ≥ 0.15 for T ≥ 5 and ℓ falls by ln 4 < 3.05 per phase, so
  with two or more active arms the run reaches T in a phase with ℓ_m ≥ 0.15. The same bound
  (a completed phase m − 1 with two or more arms has n_{m−1} < T/2) shows that every phase that
  starts before T has ℓ_{m−1} > 4.2, where every term of all three n_m grows with m: the
  phase lengths n_m − n_{m−1} are never negative.
- Generalized ODAAF (Garg & Akash 2019, composite rewards spread over a known interval of size
  d): its own definition could not be reached either. This module runs the spec's
  reconstruction (§2.5, low confidence): ODAAF with E := d, i.e. the caller passes the interval
  size as ``expected_delay`` (``simulation.py``'s ``expected_delay: interval_size``).

Regret is the pseudo-regret Σ_t (s_1 − s_{a(t)}) (spec P9).
"""

from __future__ import annotations

import math

import numpy as np

from timebandits.core.sim.jit import njit

from .environment import pull, window_feedback, window_state
from .spread_kernel import DELAY

ODAAF, ODAAF_V, ODAAF_B = 0, 1, 2
VARIANTS = {"odaaf": ODAAF, "odaaf_v": ODAAF_V, "odaaf_b": ODAAF_B}


@njit(cache=True)
def _squared_sum(tolerance, log_term, delay_term):
    """Δ̃^{−2} (√(2ℓ) + √(2ℓ + (8/3) Δ̃ ℓ + delay_term))²."""
    root = math.sqrt(2.0 * log_term)
    inner = math.sqrt(2.0 * log_term + 8.0 / 3.0 * tolerance * log_term + delay_term)
    return ((root + inner) / tolerance) ** 2


@njit(cache=True)
def phase_length(variant, phase, horizon, expected_delay, delay_variance, delay_bound):
    """n_m of ``variant`` for phase m = ``phase`` ≥ 1 before rounding (module docstring):
    E = ``expected_delay``, V = ``delay_variance``, d = ``delay_bound``. Needs
    ln(T Δ̃_m²) > 0."""
    tolerance = 0.5**phase
    log_term = math.log(horizon * tolerance * tolerance)
    if variant == ODAAF_V:
        return _squared_sum(
            tolerance, log_term, 4.0 * tolerance * (expected_delay + 2.0 * delay_variance)
        )
    plain = _squared_sum(tolerance, log_term, 6.0 * phase * tolerance * expected_delay)
    if variant == ODAAF:
        return plain
    return max(
        _squared_sum(tolerance, log_term, 4.0 * tolerance * expected_delay),
        min(phase * delay_bound, plain),
    )


@njit(cache=True)
def _play(
    mean,
    gap,
    first,
    last,
    env_key,
    kernel_code,
    delay_low,
    delay_high,
    totals,
    delays,
    checkpoints,
    regret_out,
    regret,
    cp,
):
    """Pull one arm in slots first..last; returns the updated regret and checkpoint index."""
    t = first - 1
    while t < last:  # the slots up to the next checkpoint, then the checkpoint
        stop = min(last, max(checkpoints[cp], t + 1)) if cp < checkpoints.size else last
        for u in range(t + 1, stop + 1):
            pull(mean, u, env_key, kernel_code, delay_low, delay_high, totals, delays)
            regret += gap
        t = stop
        while cp < checkpoints.size and checkpoints[cp] == t:
            regret_out[cp] = regret
            cp += 1
    return regret, cp


@njit(cache=True)
def run_odaaf(
    means,
    variant,
    expected_delay,
    delay_variance,
    delay_bound,
    kernel_code,
    cumulative,
    reach,
    delay_low,
    delay_high,
    env_key,
    horizon,
    checkpoints,
):
    """One game of ``horizon`` slots of ODAAF ``variant`` (ODAAF, ODAAF_V or ODAAF_B).

    What the learner is told: ``expected_delay`` E[τ] (for generalized ODAAF, the interval
    size d, module docstring), ``delay_variance`` V(τ) (used by ODAAF_V only), ``delay_bound``
    d (used by ODAAF_B only; may be ``inf``). The environment (environment.py): ``means`` s_i,
    ``kernel_code``, ``cumulative`` W(n) for n = 0..T, ``reach`` (``Kernel.window_reach``,
    at most T), ``delay_low``/``delay_high`` (delay kernels) and ``env_key``. Returns the cumulative
    pseudo-regret at each slot of ``checkpoints`` (sorted, within 1..horizon)."""
    if variant != ODAAF and variant != ODAAF_V and variant != ODAAF_B:
        raise ValueError("variant must be ODAAF, ODAAF_V or ODAAF_B")
    n_arms = means.size
    gaps = means.max() - means
    totals = np.zeros(horizon + 1, np.uint8)
    delays = np.zeros(horizon + 1 if kernel_code == DELAY else 1, np.int64)
    active = np.ones(n_arms, np.bool_)
    observed = np.zeros(n_arms)  # S_j
    regret_out = np.zeros(checkpoints.size)
    window = window_state(kernel_code, cumulative, reach, horizon)
    regret = 0.0
    cp = 0
    t = 0
    pulls = 0  # n_{m−1}: every active arm has been pulled this often
    phase = 1
    tolerance = 0.5
    while t < horizon:
        if active.sum() == 1 or math.log(horizon * tolerance * tolerance) <= 0.0:
            arm = -1
            for j in range(n_arms):
                if active[j] and (arm < 0 or observed[j] > observed[arm]):
                    arm = j
            regret, cp = _play(
                means[arm],
                gaps[arm],
                t + 1,
                horizon,
                env_key,
                kernel_code,
                delay_low,
                delay_high,
                totals,
                delays,
                checkpoints,
                regret_out,
                regret,
                cp,
            )
            break
        target = math.ceil(
            min(
                phase_length(variant, phase, horizon, expected_delay, delay_variance, delay_bound),
                horizon,
            )
        )
        for j in range(n_arms):
            if not active[j] or t == horizon:
                continue
            first = t + 1
            t = min(t + target - pulls, horizon)
            regret, cp = _play(
                means[j],
                gaps[j],
                first,
                t,
                env_key,
                kernel_code,
                delay_low,
                delay_high,
                totals,
                delays,
                checkpoints,
                regret_out,
                regret,
                cp,
            )
            observed[j] += window_feedback(
                first, t, totals, delays, kernel_code, cumulative, reach, window
            )
        pulls = target
        best = -math.inf
        for j in range(n_arms):
            if active[j]:
                best = max(best, observed[j] / pulls)
        for j in range(n_arms):
            if active[j] and observed[j] / pulls + tolerance < best:
                active[j] = False
        tolerance *= 0.5
        phase += 1
    return regret_out
