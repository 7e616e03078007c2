r"""CTSAB, Algorithm 1 of Vaze & Hanawal (§3.1), the single-arm learner, in normalised units
(model.py), simulated one window at a time in closed form.

With c = T'^ε and ℓ = ln T':

- **Learning**: phase i occupies (0, c] (i = 1) or (c^{i−1}, c^i] and spreads

  .. math:: N_i = \lceil \kappa\, \ell\, c^{2i/3} \rceil

  plays equally over it (spec §3.3: ceil [R]). At the end of phase i, with N^i plays so far and
  pooled mean μ̂_i, learning stops (i* = i, τ = c^{i*}) when (eq. 5)

  .. math:: \sqrt{\ln(2/\delta) / N^i} < \hat\mu_i / 2 .

  A phase cut by T' keeps its spacing and loses the plays after T' (spec §6.9); if no phase
  ends the learning before T', the run **fails** and keeps what it earned (Alg. 1, lines 12–13).
- **Exploit**: windows (τ + (j−1)W, τ + jW], W = τ, j = 1, 2, … (the paper's k = i* + j; its
  indexing would leave a gap, spec §3.3), the last one cut at T'. A window of length L gets
  μ̂L/2 plays, μ̂ the mean of every play so far, updated after each window
  (schedule.exploit_window): by default (``RATE``) plays 2/μ̂ apart continuing from the previous
  play, the paper's real N_k; ``HALF_UP`` (⌊μ̂L/2 + 1/2⌋ equally spaced over the window, the
  earlier rule) and ``CARRY`` (the remainder carried between windows) are sensitivity runs.

Every play earns its expected payoff μ − 1/Δt (eq. 1); the Bernoulli rewards only feed μ̂, one
exact binomial draw per window (core.sim.binomial, a fresh block of ``WINDOW_DRAWS`` uniforms per
window). Δt is measured from the previous play of the run, so a window after an empty one pays
for the longer first gap.
"""

from __future__ import annotations

import math

import numpy as np

from timebandits.core.sim.binomial import binomial
from timebandits.core.sim.jit import njit

from .schedule import exploit_window, learning_phase, play_window

# Uniforms reserved per window for its binomial draw (at most 16 for a direct count, one for
# inversion, two per try of BTRS with about 1.15 tries: far fewer are used): window w draws from
# counter w·WINDOW_DRAWS on.
WINDOW_DRAWS = 1 << 16
# Outcome codes.
LEARNED, FAILED = 0, 1


@njit(cache=True)
def run_ctsab(mean, horizon, epsilon, kappa, delta, key, checkpoints, rounding):
    """One run of CTSAB on an arm of mean μ over [0, T'] (module docstring). Returns
    (cumulative payoff at ``checkpoints``, outcome, i*, τ, N at τ, μ̂ at τ, plays in all).
    i*, τ, N and μ̂ are 0 when the run fails."""
    c = horizon**epsilon
    ell = math.log(horizon)
    threshold = math.log(2.0 / delta)
    payoff = np.zeros(checkpoints.size)
    paid, next_cp, last_play = 0.0, 0, 0.0
    total, successes, window = 0, 0, 0
    phase, start = 1, 0.0
    outcome, i_star, tau, n_at_tau, mean_at_tau = FAILED, 0, 0.0, 0, 0.0
    while start < horizon:
        end, plays = learning_phase(c, ell, kappa, phase)
        length = end - start
        kept = (
            plays
            if end <= horizon
            else min(plays, int(math.floor((horizon - start) / length * plays)))
        )
        if kept > 0:
            paid, next_cp, last_play = play_window(
                start,
                length * kept / plays,
                kept,
                mean,
                last_play,
                checkpoints,
                next_cp,
                paid,
                payoff,
            )
            drawn, _ = binomial(kept, mean, key, window * WINDOW_DRAWS)
            total += kept
            successes += drawn
        window += 1
        if end > horizon:
            break
        if total > 0 and math.sqrt(threshold / total) < 0.5 * successes / total:
            outcome, i_star, tau = LEARNED, phase, end
            n_at_tau, mean_at_tau = total, successes / total
            break
        start = end
        phase += 1
    if outcome == LEARNED:
        j, carry = 0, 0.0
        while tau * (j + 1) < horizon:  # window j + 1 of width W = τ starts at τ + jW = τ(j + 1)
            start = tau * (j + 1)
            length = min(tau, horizon - start)
            paid, next_cp, last_play, plays, carry = exploit_window(
                start,
                length,
                successes / total,
                rounding,
                carry,
                mean,
                last_play,
                checkpoints,
                next_cp,
                paid,
                payoff,
            )
            if plays > 0:
                drawn, _ = binomial(plays, mean, key, window * WINDOW_DRAWS)
                total += plays
                successes += drawn
            window += 1
            j += 1
    while next_cp < checkpoints.size:
        payoff[next_cp] = paid
        next_cp += 1
    return payoff, outcome, i_star, tau, n_at_tau, mean_at_tau, total
