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

from timebandits.core.sim.jit import njit
from timebandits.core.sim.rng import uniform

WAIT_UCB = 0
UCB_SIMPLEX = 1
BUDGET_UCB = 2
UCB_BV1 = 3
CONSTANT = 4

# A window of epochs s..s + s/2^WINDOW_SHIFT shares one set of index bounds (:func:`_window`).
# It only trades the tightness of the bounds against how often they are recomputed: the
# choices never depend on it.
WINDOW_SHIFT = 12

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
    >>> a.tolist(), [round(float(x), 6) for x in b]
    ([0.0, 2.6666666666666665], [1.414214, 2.828427])
    """
    j = np.arange(1, D + 1, dtype=float)
    return 8.0 * (j - 1.0) / 3.0, math.sqrt(2.0) * (np.sqrt(j - 1.0) + 1.0)


@njit(cache=True, inline="always")
def wait_ucb_index(ratio, inv_n, alpha, beta, log_s):
    """Wait-UCB: ĝ_a(s−1) + a_a(s−1), with ĝ = total reward / total time (eq. 4)."""
    x = log_s * inv_n
    return ratio + alpha * x + beta * math.sqrt(x)


@njit(cache=True, inline="always")
def ucb_simplex_index(rbar, cbar, inv_n, radius, log_s):
    """UCB-Simplex with a single resource: the optimistic reward over the pessimistic cost.

    With one budgeted resource and no binding horizon, the LP of Flajolet & Jaillet's UCB-Simplex
    puts all weight on the pair with the largest (r̄ + ε)/(c̄ − ε) (optimistic reward capped at 1,
    pessimistic cost floored at 0, giving +∞). Reconstruction: spec §2.2.
    """
    eps = math.sqrt(radius * log_s * inv_n)
    denominator = cbar - eps
    return min(rbar + eps, 1.0) / denominator if denominator > 0.0 else math.inf


@njit(cache=True, inline="always")
def budget_ucb_index(rbar, cbar, inv_c, inv_n, radius, lam, log_s):
    """Budget-UCB (Xia et al.): r̄/c̄ + E/c̄ + (E/c̄)·min(r̄+E, 1)/max(c̄−E, λ)."""
    e = math.sqrt(radius * log_s * inv_n)
    e_over_c = e * inv_c
    return rbar * inv_c + e_over_c + e_over_c * min(rbar + e, 1.0) / max(cbar - e, lam)


@njit(cache=True, inline="always")
def ucb_bv1_index(rbar, inv_c, inv_n, radius, lam, log_s):
    """UCB-BV1 (Ding et al. 2013): r̄/c̄ + (1 + 1/λ)·e/(λ − e), +∞ while e ≥ λ."""
    e = math.sqrt(radius * log_s * inv_n)
    return rbar * inv_c + (1.0 + 1.0 / lam) * e / (lam - e) if e < lam else math.inf


# Rows of the per-pair statistics the indices read, refreshed for the pulled pair only:
# ĝ = Rsum/Csum (raw time), 1/N, and r̄, c̄ = Csum/(N·cost_scale), 1/c̄ as the baselines see them.
RATIO, INV_N, RBAR, CBAR, INV_C = 0, 1, 2, 3, 4


@njit(cache=True, inline="always")
def pair_index(policy, a, log_s, stats, alpha, beta, params):
    """The index of pair a under ``policy`` with L = ``log_s`` (ρ = params[1], λ = params[2])."""
    if policy == WAIT_UCB:
        return wait_ucb_index(stats[RATIO, a], stats[INV_N, a], alpha[a], beta[a], log_s)
    if policy == UCB_SIMPLEX:
        return ucb_simplex_index(stats[RBAR, a], stats[CBAR, a], stats[INV_N, a], params[1], log_s)
    if policy == BUDGET_UCB:
        return budget_ucb_index(
            stats[RBAR, a],
            stats[CBAR, a],
            stats[INV_C, a],
            stats[INV_N, a],
            params[1],
            params[2],
            log_s,
        )
    return ucb_bv1_index(
        stats[RBAR, a], stats[INV_C, a], stats[INV_N, a], params[1], params[2], log_s
    )


@njit(cache=True, inline="always")
def all_indices(policy, log_s, stats, alpha, beta, params, out):
    """``out[a]`` = the index of every pair a under ``policy``, one loop per policy."""
    ratio, inv_n, rbar, cbar = stats[RATIO], stats[INV_N], stats[RBAR], stats[CBAR]
    inv_c = stats[INV_C]
    radius, lam = params[1], params[2]
    if policy == WAIT_UCB:
        for a in range(out.size):
            out[a] = wait_ucb_index(ratio[a], inv_n[a], alpha[a], beta[a], log_s)
    elif policy == UCB_SIMPLEX:
        for a in range(out.size):
            out[a] = ucb_simplex_index(rbar[a], cbar[a], inv_n[a], radius, log_s)
    elif policy == BUDGET_UCB:
        for a in range(out.size):
            out[a] = budget_ucb_index(rbar[a], cbar[a], inv_c[a], inv_n[a], radius, lam, log_s)
    else:
        for a in range(out.size):
            out[a] = ucb_bv1_index(rbar[a], inv_c[a], inv_n[a], radius, lam, log_s)


@njit(cache=True, inline="always")
def _argmax(values, random_ties, policy_key, s):
    """(pair, value) of the first maximiser, or of a uniformly drawn maximiser (draw number s−1
    of the policy stream)."""
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
                    return a, best
                pick -= 1
    return best_a, best


@njit(cache=True)
def _window(policy, s, a, stats, alpha, beta, params, bound):
    """Open a window of epochs s..s_top for the pair a chosen in epoch s: returns (s_top, the
    largest index bound of the other pairs).

    Each index is non-decreasing in L for fixed statistics, also as computed (every operation
    is monotone under round-to-nearest, and ln(s−1) for integers s ≤ 2^53 is increasing). So
    ``bound[b]``, the index of b at L = ln(s_top − 1), bounds b's index up to s_top while b is
    not pulled, and a's index at L = ln(s − 1) with its current statistics bounds a's from below.
    While the latter exceeds every other bound, a is the only maximiser: :func:`run_f2a` keeps
    playing it without computing any other index (and without ties to break).
    """
    s_top = s + max(s >> WINDOW_SHIFT, 1)
    all_indices(policy, math.log(s_top - 1.0), stats, alpha, beta, params, bound)
    out_max = -math.inf
    for b in range(bound.size):
        if b != a and bound[b] > out_max:
            out_max = bound[b]
    return s_top, out_max


@njit(cache=True)
def run_f2a(
    policy,
    params,
    random_ties,
    alpha,
    beta,
    delay_cdf,
    reward_prob,
    env_key,
    policy_key,
    horizon,
    checkpoints,
):
    """Play one F2A game with time budget ``horizon`` (Algorithm 1's loop: while budget > 0).

    Environment draws are addressed by (epoch s, macro-arm k): τ_{k,s} uses draw 2·((s−1)K + k)
    and V_{k,s} draw 2·((s−1)K + k) + 1 of the environment stream, so every policy of a
    repetition meets the same (V, τ) in the same epoch (common random numbers, spec §5 P12).
    Only c = min(τ, j) and 1[τ ≤ j] matter, so τ is not searched beyond j.

    ``params`` = (cost_scale, radius factor ρ, λ, constant pair) -- unused entries are ignored.
    ``alpha`` and ``beta`` hold α_j, β_j per flat pair (length K·D: ``wait_ucb_constants``
    tiled K times).
    The choice i_s is the argmax of every pair's index, except in a run of epochs where the pair
    a chosen last provably stays the only maximiser (:func:`_window`): its index at the
    window's first L beats every other pair's bound. A run plays a again without computing any
    other index; a constant policy is one run.
    At each checkpoint t the function records the state after L_t = max{n : C_n ≤ t} epochs
    (the overshooting last epoch is never counted, spec §5 P7): returns (reward[L_t], L_t,
    pulls per pair at L_t) as arrays over the checkpoints.
    """
    K, D = delay_cdf.shape
    n_pairs = K * D
    if alpha.size != n_pairs or beta.size != n_pairs:
        raise ValueError("alpha and beta need one entry per (macro, micro) pair")
    cost_scale = params[0]
    n = np.zeros(n_pairs, dtype=np.int64)
    rsum = np.zeros(n_pairs)
    csum = np.zeros(n_pairs)
    stats = np.zeros((5, n_pairs))
    index = np.empty(n_pairs)
    bound = np.empty(n_pairs)
    n_cp = checkpoints.size
    reward_at = np.zeros(n_cp)
    epochs_at = np.zeros(n_cp, dtype=np.int64)
    pulls_at = np.zeros((n_cp, n_pairs), dtype=np.int64)

    spent = 0  # C_{s-1}: time consumed by the completed epochs
    total_reward = 0.0
    cp = 0
    s = 1
    a, run, run_start = int(params[3]), policy == CONSTANT, 1
    out_max, s_top, log_low = -math.inf, 0, 0.0
    while spent < horizon:
        # --- choose the pair i_s (in a run: a again) -------------------------------------
        if not run:
            if s <= n_pairs:  # initialisation: every pair has index +inf until pulled once
                a = s - 1
            else:
                log_s = math.log(s - 1.0)
                all_indices(policy, log_s, stats, alpha, beta, params, index)
                a, best = _argmax(index, random_ties, policy_key, s)
                if s > s_top:
                    s_top, out_max = _window(policy, s, a, stats, alpha, beta, params, bound)
                    log_low, run, run_start = log_s, best > out_max, s
        k = a // D
        j = a - k * D + 1
        # --- the environment draws (V_{k,s}, τ_{k,s}) ------------------------------------
        draw = 2 * ((s - 1) * K + k)
        u = uniform(env_key, draw)
        c = 1
        while c < j and u >= delay_cdf[k, c - 1]:
            c += 1
        seen = u < delay_cdf[k, j - 1]  # τ ≤ j
        v = uniform(env_key, draw + 1) < reward_prob[k]
        r = 1.0 if seen & v else 0.0
        # --- checkpoints t with C_{s-1} <= t < C_s see the state before epoch s ----------
        while cp < n_cp and checkpoints[cp] < spent + c:
            reward_at[cp] = total_reward
            epochs_at[cp] = s - 1
            pulls_at[cp, :] = n
            cp += 1
        n[a] += 1
        rsum[a] += r
        csum[a] += c
        total_reward += r
        spent += c
        s += 1
        if policy != CONSTANT:
            inv_n = 1.0 / n[a]
            stats[INV_N, a] = inv_n
            if policy == WAIT_UCB:
                stats[RATIO, a] = rsum[a] / csum[a]
            else:
                stats[RBAR, a] = rsum[a] * inv_n
                stats[CBAR, a] = csum[a] * inv_n / cost_scale
                stats[INV_C, a] = 1.0 / stats[CBAR, a]
            if run and (
                s > s_top
                or not pair_index(policy, a, log_low, stats, alpha, beta, params) > out_max
            ):
                run = False
                if s - run_start > n_pairs:  # a long run ended: bound the others afresh
                    s_top = 0
    while cp < n_cp:  # checkpoints at or beyond the final consumption C_L == horizon
        reward_at[cp] = total_reward
        epochs_at[cp] = s - 1
        pulls_at[cp, :] = n
        cp += 1
    return reward_at, epochs_at, pulls_at
