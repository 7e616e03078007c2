"""Wait-UCB (Algorithm 1) and the baselines it is compared with, as compiled kernels.

Every policy sees the F2A game as a flat bandit over the K·D pairs a = (k, j) and keeps, per pair,
N_a (pulls), Rsum_a (total reward) and Csum_a (total time consumed, raw units 1..j). At the start
of epoch s it scores every pair from the statistics of the s − 1 completed epochs, so every log is
ln(s − 1) (spec §2.0, §5 P5). A pair never pulled has index +∞; these are pulled first, in
ascending flat index. Ties go to the first maximiser, or, with ``tie_break: random``, to a
uniformly chosen maximiser drawn from the policy's own random stream.

The baselines assume costs in (0, 1]. Paper §6 rescales time to {1/D, …, 1}: the baselines see
c̄ = Csum / (N·cost_scale) with ``cost_scale`` = D by default (spec §5 P3); regret is always
measured in raw time units.

Index formulas (L = ln(s − 1), n = N_a, r̄ = Rsum_a/n, c̄ = Csum_a/(n·cost_scale)):
  Wait-UCB (Sharoff et al. 2020, Alg. 1, eq. 4):
      Rsum/Csum + α_j·L/n + β_j·sqrt(L/n),  α_j = 8(j−1)/3, β_j = sqrt(2)(sqrt(j−1)+1)
  UCB-Simplex (Flajolet & Jaillet 2017), one resource -- see ``ucb_simplex_index``:
      min(r̄ + ε, 1) / max(c̄ − ε, 0),  ε = sqrt(ρ·L/n)
  Budget-UCB (Xia et al. 2015/16):
      r̄/c̄ + E/c̄ + (E/c̄)·min(r̄ + E, 1)/max(c̄ − E, λ),  E = sqrt(ρ·L/n)
  UCB-BV1 (Ding et al. 2013):
      r̄/c̄ + (1 + 1/λ)·e/(λ − e),  e = sqrt(ρ·L/n);  +∞ while e ≥ λ
ρ is the radius factor and λ the known lower bound on the expected (scaled) cost; both come from
the paper config.
"""

from __future__ import annotations

import math

import numpy as np
from timebandits.core.jit import njit

from timebandits.core.rng import uniform

WAIT_UCB = 0
UCB_SIMPLEX = 1
BUDGET_UCB = 2
UCB_BV1 = 3
CONSTANT = 4

POLICY_CODES = {
    "wait_ucb": WAIT_UCB,
    "ucb_simplex": UCB_SIMPLEX,
    "budget_ucb": BUDGET_UCB,
    "ucb_bv1": UCB_BV1,
    "constant": CONSTANT,
}


def wait_ucb_constants(D: int) -> tuple[np.ndarray, np.ndarray]:
    """α_j = 8(j−1)/3 and β_j = √2(√(j−1)+1) for j = 1..D (Algorithm 1, line 1).

    >>> a, b = wait_ucb_constants(2)
    >>> a.tolist(), [round(x, 6) for x in b]
    ([0.0, 2.6666666666666665], [1.414214, 2.828427])
    """
    j = np.arange(1, D + 1, dtype=float)
    return 8.0 * (j - 1.0) / 3.0, math.sqrt(2.0) * (np.sqrt(j - 1.0) + 1.0)


@njit(cache=True)
def wait_ucb_index(ratio, inv_n, alpha, beta, log_s, out):
    """Wait-UCB: ĝ_a(s−1) + a_a(s−1), with ĝ = total reward / total time (eq. 4)."""
    for a in range(ratio.size):
        x = log_s * inv_n[a]
        out[a] = ratio[a] + alpha[a] * x + beta[a] * math.sqrt(x)


@njit(cache=True)
def ucb_simplex_index(rbar, cbar, inv_n, radius, log_s, out):
    """UCB-Simplex with a single resource: the optimistic reward over the pessimistic cost.

    With one budgeted resource and no binding horizon, the LP of Flajolet & Jaillet's UCB-Simplex
    puts all weight on the pair with the largest (r̄ + ε)/(c̄ − ε) (optimistic reward capped at 1,
    pessimistic cost floored at 0, giving +∞). Reconstruction: spec §2.2.
    """
    for a in range(rbar.size):
        eps = math.sqrt(radius * log_s * inv_n[a])
        denominator = cbar[a] - eps
        out[a] = min(rbar[a] + eps, 1.0) / denominator if denominator > 0.0 else math.inf


@njit(cache=True)
def budget_ucb_index(rbar, cbar, inv_c, inv_n, radius, lam, log_s, out):
    """Budget-UCB (Xia et al.): r̄/c̄ + E/c̄ + (E/c̄)·min(r̄+E, 1)/max(c̄−E, λ)."""
    for a in range(rbar.size):
        e = math.sqrt(radius * log_s * inv_n[a])
        e_over_c = e * inv_c[a]
        out[a] = (rbar[a] * inv_c[a] + e_over_c
                  + e_over_c * min(rbar[a] + e, 1.0) / max(cbar[a] - e, lam))


@njit(cache=True)
def ucb_bv1_index(rbar, inv_c, inv_n, radius, lam, log_s, out):
    """UCB-BV1 (Ding et al. 2013): r̄/c̄ + (1 + 1/λ)·e/(λ − e), +∞ while e ≥ λ."""
    for a in range(rbar.size):
        e = math.sqrt(radius * log_s * inv_n[a])
        out[a] = rbar[a] * inv_c[a] + (1.0 + 1.0 / lam) * e / (lam - e) if e < lam else math.inf


@njit(cache=True)
def _argmax(values, random_ties, policy_key, s):
    """First maximiser, or a uniformly drawn maximiser (draw number s−1 of the policy stream)."""
    best = values[0]
    best_a = 0
    n_ties = 1
    for a in range(1, values.size):
        v = values[a]
        if v > best:
            best = v
            best_a = a
            n_ties = 1
        elif v == best:
            n_ties += 1
    if random_ties and n_ties > 1:
        pick = int(uniform(policy_key, s - 1) * n_ties)
        for a in range(values.size):
            if values[a] == best:
                if pick == 0:
                    return a
                pick -= 1
    return best_a


@njit(cache=True)
def run_f2a(policy, params, random_ties, alpha, beta, delay_cdf, reward_prob,
            env_key, policy_key, horizon, checkpoints):
    """Play one F2A game with time budget ``horizon`` (Algorithm 1's loop: while budget > 0).

    Environment draws are addressed by (epoch s, macro-arm k): τ_{k,s} uses draw 2·((s−1)K + k)
    and V_{k,s} draw 2·((s−1)K + k) + 1 of the environment stream, so every policy of a
    repetition meets the same (V, τ) in the same epoch (common random numbers, spec §5 P12).

    ``params`` = (cost_scale, radius factor ρ, λ, constant pair) -- unused entries are ignored.
    ``alpha`` and ``beta`` hold α_j, β_j per flat pair (length K·D: ``wait_ucb_constants``
    tiled K times).
    At each checkpoint t the function records the state after L_t = max{n : C_n ≤ t} epochs
    (the overshooting last epoch is never counted, spec §5 P7): returns (reward[L_t], L_t,
    pulls per pair at L_t) as arrays over the checkpoints.
    """
    K, D = delay_cdf.shape
    n_pairs = K * D
    if alpha.size != n_pairs or beta.size != n_pairs:
        raise ValueError("alpha and beta need one entry per (macro, micro) pair")
    cost_scale, radius, lam = params[0], params[1], params[2]
    constant_pair = int(params[3])
    n = np.zeros(n_pairs, dtype=np.int64)
    rsum = np.zeros(n_pairs)
    csum = np.zeros(n_pairs)
    # Derived statistics, refreshed for the pulled pair only: 1/N, ĝ = Rsum/Csum (raw time),
    # r̄, c̄ = Csum/(N·cost_scale) and 1/c̄ as the baselines see them.
    inv_n = np.zeros(n_pairs)
    ratio = np.zeros(n_pairs)
    rbar = np.zeros(n_pairs)
    cbar = np.zeros(n_pairs)
    inv_c = np.zeros(n_pairs)
    index = np.empty(n_pairs)
    n_cp = checkpoints.size
    reward_at = np.zeros(n_cp)
    epochs_at = np.zeros(n_cp, dtype=np.int64)
    pulls_at = np.zeros((n_cp, n_pairs), dtype=np.int64)

    spent = 0  # C_{s-1}: time consumed by the completed epochs
    total_reward = 0.0
    cp = 0
    s = 1
    while spent < horizon:
        # --- choose the pair i_s -------------------------------------------------------
        if policy == CONSTANT:
            a = constant_pair
        elif s <= n_pairs:  # initialisation: every pair has index +inf until pulled once
            a = s - 1
        else:
            log_s = math.log(s - 1.0)
            if policy == WAIT_UCB:
                wait_ucb_index(ratio, inv_n, alpha, beta, log_s, index)
            elif policy == UCB_SIMPLEX:
                ucb_simplex_index(rbar, cbar, inv_n, radius, log_s, index)
            elif policy == BUDGET_UCB:
                budget_ucb_index(rbar, cbar, inv_c, inv_n, radius, lam, log_s, index)
            else:
                ucb_bv1_index(rbar, inv_c, inv_n, radius, lam, log_s, index)
            a = _argmax(index, random_ties, policy_key, s)
        k = a // D
        j = a - k * D + 1
        # --- the environment draws (V_{k,s}, τ_{k,s}) ------------------------------------
        draw = 2 * ((s - 1) * K + k)
        u = uniform(env_key, draw)
        tau = 1
        while u >= delay_cdf[k, tau - 1]:
            tau += 1
        v = 1.0 if uniform(env_key, draw + 1) < reward_prob[k] else 0.0
        r = v if tau <= j else 0.0
        c = tau if tau < j else j
        # --- checkpoints t with C_{s-1} <= t < C_s see the state before epoch s ----------
        while cp < n_cp and checkpoints[cp] < spent + c:
            reward_at[cp] = total_reward
            epochs_at[cp] = s - 1
            pulls_at[cp, :] = n
            cp += 1
        n[a] += 1
        rsum[a] += r
        csum[a] += c
        inv_n[a] = 1.0 / n[a]
        ratio[a] = rsum[a] / csum[a]
        rbar[a] = rsum[a] * inv_n[a]
        cbar[a] = csum[a] * inv_n[a] / cost_scale
        inv_c[a] = 1.0 / cbar[a]
        total_reward += r
        spent += c
        s += 1
    while cp < n_cp:  # checkpoints at or beyond the final consumption C_L == horizon
        reward_at[cp] = total_reward
        epochs_at[cp] = s - 1
        pulls_at[cp, :] = n
        cp += 1
    return reward_at, epochs_at, pulls_at
