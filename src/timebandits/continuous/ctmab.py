r"""CTMAB, Algorithm 2 of Vaze & Hanawal (§4.1), the K-arm learner, in normalised units
(model.py), with spec §3.4's repairs.

With c = T'^ε and ℓ = ln T':

- **(a) Estimation**: CTSAB's phase windows; in phase i each of the K arms gets
  N_i = ⌈κ ℓ c^{2i/3}⌉ plays, K N_i plays in all, equally spaced at L_i/(K N_i) in round-robin
  order 1..K (one instant cannot hold K plays: a zero gap costs ∞). After **every** play the
  rule of eq. 5 is checked for every arm k,

  .. math:: \sqrt{\ln(2/\delta) / N_t[k]} < \hat\mu_t[k] / 2 ;

  when it holds for some arm, μ̂[1] := max_j μ̂_t[j], i* = the current phase, t_Es = now, and the
  rest of the phase is not played. No stop before T': the run fails (``FAILED_ESTIMATION``).
- **(b) Identification**: LUCB1 (lucb.py) with confidence δ_id, started afresh; consecutive
  plays ``spacing_factor``/μ̂[1] apart (factor 1 is the paper's literal 1/μ̂[1], half the
  oracle's spacing, spec §6.12), the first one from t_Es. If T' comes first, the run stops there
  (``FAILED_IDENTIFICATION``, Alg. 2 line 21).
- **(c) Exploit**: the identified arm k* with μ̂ pooled over all its samples of (a) and (b);
  windows (t_Es + t_Id + rW, t_Es + t_Id + (r + 1)W], r = 0, 1, … (Alg. 2 line 30 starts at
  r = 1, leaving a gap), W = c^{i*} (ν_m = i*ε, spec §3.4 [R]), the last one cut at T'; a window
  of length L gets μ̂L/2 plays as in CTSAB (schedule.exploit_window: plays 2/μ̂ apart across
  windows by default, ``HALF_UP`` and ``CARRY`` as sensitivity runs), μ̂ the estimate before the
  window (line 30 uses one that is computed only afterwards), updated after it by one binomial
  draw.

Every play earns its expected payoff μ[k] − 1/Δt; rewards only feed the estimates. Draws:
estimation play s uses uniform s, LUCB1 sample s uniform ``LUCB_DRAWS`` + s, exploit window w the
block from ``EXPLOIT_DRAWS`` + w·``WINDOW_DRAWS``.
"""

from __future__ import annotations

import math

import numpy as np

from timebandits.core.sim.binomial import binomial
from timebandits.core.sim.jit import njit
from timebandits.core.sim.rng import uniform

from .ctsab import WINDOW_DRAWS
from .lucb import run_lucb1
from .schedule import exploit_window, learning_phase

LUCB_DRAWS = 1 << 40
EXPLOIT_DRAWS = 1 << 41
# Outcome codes.
LEARNED, FAILED_ESTIMATION, FAILED_IDENTIFICATION = 0, 1, 2


@njit(cache=True)
def _estimate(means, horizon, c, ell, kappa, threshold, key, checkpoints, payoff):
    """Period (a): (outcome, i*, t_Es, μ̂[1], payoff so far, next checkpoint, last play time,
    samples and successes per arm)."""
    n_arms = means.size
    counts = np.zeros(n_arms)
    sums = np.zeros(n_arms)
    paid, next_cp, last_play = 0.0, 0, 0.0
    played = 0
    phase, start = 1, 0.0
    while start < horizon:
        end, per_arm = learning_phase(c, ell, kappa, phase)
        plays = n_arms * per_arm
        spacing = (end - start) / plays
        for j in range(1, plays + 1):
            time = start + j * spacing
            if time > horizon:
                break
            arm = (j - 1) % n_arms
            while next_cp < checkpoints.size and checkpoints[next_cp] < time * (1.0 - 1e-12):
                payoff[next_cp] = paid
                next_cp += 1
            paid += means[arm] - 1.0 / (time - last_play)
            last_play = time
            sums[arm] += 1.0 if uniform(key, played) < means[arm] else 0.0
            counts[arm] += 1.0
            played += 1
            for k in range(n_arms):
                if counts[k] > 0 and math.sqrt(threshold / counts[k]) < 0.5 * sums[k] / counts[k]:
                    best = 0.0
                    for a in range(n_arms):
                        if counts[a] > 0 and sums[a] / counts[a] > best:
                            best = sums[a] / counts[a]
                    return LEARNED, phase, time, best, paid, next_cp, last_play, counts, sums
        start = end
        phase += 1
    return FAILED_ESTIMATION, 0, horizon, 0.0, paid, next_cp, last_play, counts, sums


@njit(cache=True)
def run_ctmab(
    means, horizon, epsilon, kappa, delta, delta_id, spacing_factor, key, checkpoints, rounding
):
    """One run of CTMAB on Bernoulli arms of ``means`` over [0, T'] (module docstring). Returns
    (cumulative payoff at ``checkpoints``, outcome, i*, t_Es, t_Id, identified arm (−1 if none),
    μ̂[1] at t_Es, LUCB1 samples)."""
    c = horizon**epsilon
    ell = math.log(horizon)
    payoff = np.zeros(checkpoints.size)
    outcome, i_star, t_es, best_estimate, paid, next_cp, last_play, counts_a, sums_a = _estimate(
        means, horizon, c, ell, kappa, math.log(2.0 / delta), key, checkpoints, payoff
    )
    t_id, arm, samples = 0.0, -1, 0
    if outcome == LEARNED:
        spacing = spacing_factor / best_estimate
        budget = int(math.floor((horizon - t_es) / spacing * (1.0 + 1e-12)))
        counts = np.zeros(means.size)
        sums = np.zeros(means.size)
        played = np.empty(budget, np.int64)  # only the first `samples` are read
        arm, samples, stopped = run_lucb1(
            means, delta_id, key, LUCB_DRAWS, budget, counts, sums, played
        )
        for s in range(samples):
            time = t_es + (s + 1) * spacing
            while next_cp < checkpoints.size and checkpoints[next_cp] < time * (1.0 - 1e-12):
                payoff[next_cp] = paid
                next_cp += 1
            paid += means[played[s]] - 1.0 / spacing
        last_play = t_es + samples * spacing
        t_id = samples * spacing
        if not stopped:
            outcome, arm = FAILED_IDENTIFICATION, -1
        else:
            total, successes = counts[arm] + counts_a[arm], sums[arm] + sums_a[arm]
            start = t_es + t_id
            width = c**i_star
            window, carry = 0, 0.0
            while start + window * width < horizon:
                left = start + window * width
                length = min(width, horizon - left)
                paid, next_cp, last_play, plays, carry = exploit_window(
                    left,
                    length,
                    successes / total,
                    rounding,
                    carry,
                    means[arm],
                    last_play,
                    checkpoints,
                    next_cp,
                    paid,
                    payoff,
                )
                if plays > 0:
                    drawn, _ = binomial(
                        plays, means[arm], key, EXPLOIT_DRAWS + window * WINDOW_DRAWS
                    )
                    total += plays
                    successes += drawn
                window += 1
    while next_cp < checkpoints.size:
        payoff[next_cp] = paid
        next_cp += 1
    return payoff, outcome, i_star, t_es, t_id, arm, best_estimate, samples
