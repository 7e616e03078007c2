"""RCUCB (§3.3, eqs. (8)–(12)) and the two reductions it is compared with (App. E.1), as one
compiled game loop.

A play is a pair (i, τ_k) of an arm and a limit of the grid τ_1 < … < τ_K (τmax = τ_K). The
environment draws (R, C) for the j-th pull of arm i from ``samplers.sample_pull`` (common random
numbers: every algorithm of a repetition meets the same draws), and the learner sees (R, C) if
C ≤ τ_k, otherwise only "censored". Rounds are t = 1..T; every log is ln t of the global round.

Indices (c(x) = cost_slope·x, λ_k = λ(τ_k), y_k = (R − c(C))·1{C ≤ τ_k} − λ_k·1{C > τ_k}):

  RCUCB (Bengs & Hüllermeier, eq. (12)): after one play of every arm at τmax,
      ν̂_{i,k} + sqrt(2α ln t / N_{i,k}) + λ_k·sqrt(2α ln t / D_{i,k})
  with N_{i,k} the plays of arm i at a limit ≥ τ_k, ĝ_{i,k} (eq. (8)) the mean of
  (R − c(C))·1{C ≤ τ_k} over those plays and Λ̂_{i,k} = λ_k·E_{i,k}/D_{i,k} (eq. (9)), where
    survival "literal":    D = N_{i,0} (every play of arm i) and E counts 1{C > τ_k} over all of
                           them -- the paper's formula, which reads the latent C of censored plays
                           above their limit (spec P1);
    survival "observable": D = N_{i,k} and E counts 1{C > τ_k} over the plays with limit ≥ τ_k only
                           -- what a learner can see.
  UCB reduction (App. E.1, eq. (31)): after one play of every pair, each pair is a virtual arm
      ν̃_{i,k} + sqrt(α ln t / (2 T_{i,k})),  ν̃ = (mean of y_k over plays of exactly (i, k)
                                                   + λ(τmax)) / (1 + λ(τmax))
  TS reduction (App. E.1, eq. (32)): after one play of every pair, the argmax of
      θ_{i,k} ~ Beta(1 + S_{i,k}, 1 + F_{i,k})  (core.sim.beta_blocks, one block per pair);
  after a play at τ_k every pair (i, k') with k' ≤ k gets one Bernoulli trial of success
  probability (y_{k'} + λ(τmax))/(1 + λ(τmax)) (clipped to [0, 1]), independent across k'.
  Standard TS ("thompson_played", App. E.1: "strictly speaking, one would conduct the latter
  Bernoulli experiment only for deciding on the update of S_{I_t,τ_t} or F_{I_t,τ_t}"): the
  same Beta-Bernoulli Thompson sampling (Agrawal & Goyal 2012, the paper's [3]) with every pair
  a virtual arm, whose one trial after a play updates the played pair (i, k) only.
The reductions' round-robin runs arm-major, limits ascending, and updates as usual (spec P7).
Ties of an argmax go to a uniformly chosen maximiser (spec P11); the policy's randomness (ties,
TS's draws and trials) comes from its own counter-based stream.
"""

from __future__ import annotations

import math

import numpy as np

from timebandits.core.sim.beta_blocks import BETA_BLOCK, beta_blocks
from timebandits.core.sim.jit import njit
from timebandits.core.sim.rng import gamma_constants, uniform

from .samplers import sample_pull

RCUCB = 0
UCB = 1
THOMPSON = 2
THOMPSON_PLAYED = 3
POLICY_CODES = {
    "rcucb": RCUCB,
    "ucb": UCB,
    "thompson": THOMPSON,
    "thompson_played": THOMPSON_PLAYED,
}


@njit(cache=True)
def argmax_random_ties(mean, width, scale, key, counter):
    """argmax over pairs p of ``mean[p] + scale·width[p]``, ties to a uniformly chosen maximiser
    (reservoir sampling: a uniform is drawn only when a tie occurs). Returns (p, next counter)."""
    best = -np.inf
    chosen = 0
    ties = 0
    for p in range(mean.size):
        value = mean[p] + scale * width[p]
        if value > best:
            best = value
            chosen = p
            ties = 1
        elif value == best:
            ties += 1
            if uniform(key, counter) * ties < 1.0:
                chosen = p
            counter += 1
    return chosen, counter


@njit(cache=True)
def _rcucb_refresh(i, K, penalty, literal, n0, n_at, gain_sum, exceed, mean, width):
    """Cached ν̂ and width coefficient of arm i's pairs: index = mean + sqrt(2α ln t)·width."""
    for k in range(K):
        p = i * K + k
        denominator = n0[i] if literal else n_at[p]
        mean[p] = gain_sum[p] / n_at[p] - penalty[k] * exceed[p] / denominator
        width[p] = 1.0 / math.sqrt(n_at[p]) + penalty[k] / math.sqrt(denominator)


@njit(cache=True)
def run_censored(
    code,
    literal,
    alpha,
    penalty_max,
    grid,
    penalty,
    cost_slope,
    nu,
    family,
    arm_params,
    pool_values,
    pool_offsets,
    env_key,
    policy_key,
    horizon,
    checkpoints,
    record_pairs,
    record_coverage,
):
    """One game of ``horizon`` rounds on the exact ν table ``nu`` (n, K). Returns, at every
    checkpoint t (cumulative over rounds 1..t): pseudo-regret Σ (ν* − ν_{I_s,τ_s}), censored
    rounds Σ 1{C_s > τ_s}, realised reward Σ R_s·1{C_s ≤ τ_s}, penalised gain Σ y_{τ_s}; if
    ``record_pairs``, the plays T_{i,k} of every exact pair; if ``record_coverage`` (RCUCB), the
    number of pairs whose estimate after round t lies above ν + 𝔠(t + 1; α) and below ν − 𝔠
    (Prop. 1). Unrecorded outputs are empty arrays."""
    n, K = nu.shape
    pairs = n * K
    n_cp = checkpoints.size
    regret_out = np.zeros(n_cp)
    censored_out = np.zeros(n_cp)
    reward_out = np.zeros(n_cp)
    gain_out = np.zeros(n_cp)
    plays_out = np.zeros((n_cp if record_pairs else 0, pairs))
    above_out = np.zeros(n_cp if record_coverage else 0)
    below_out = np.zeros(n_cp if record_coverage else 0)
    flat_nu = nu.ravel()
    flat_gaps = flat_nu.max() - flat_nu

    plays = np.zeros(pairs)  # T_{i,k}: plays of exactly (i, k)
    pulls = np.zeros(n, np.int64)  # N_{i,0}: plays of arm i (the environment's pull index)
    n_at = np.zeros(pairs)  # RCUCB: N_{i,k};  UCB: T_{i,k}
    gain_sum = np.zeros(pairs)  # RCUCB: Σ (R − c(C))1{C ≤ τ_k};  UCB: Σ y_k
    exceed = np.zeros(pairs)  # RCUCB: E_{i,k}
    shape_a = np.ones(pairs)  # TS: 1 + S_{i,k}
    shape_b = np.ones(pairs)  # TS: 1 + F_{i,k}
    da = np.empty(pairs)  # TS: Marsaglia–Tsang constants of Gamma(1 + S), Gamma(1 + F)
    ca = np.empty(pairs)
    db = np.empty(pairs)
    cb = np.empty(pairs)
    for p in range(pairs):
        da[p], ca[p] = gamma_constants(1.0)
        db[p], cb[p] = gamma_constants(1.0)
    theta = np.zeros(pairs)  # TS: this round's posterior draws
    draw_bits = np.zeros(4 * pairs, np.uint64)
    no_width = np.zeros(pairs)
    mean = np.zeros(pairs)
    width = np.zeros(pairs)
    rescale = 1.0 + penalty_max

    counter = 0
    regret = 0.0
    censored_rounds = 0.0
    reward = 0.0
    gain = 0.0
    cp = 0
    warmup = n if code == RCUCB else pairs
    for t in range(1, horizon + 1):
        if t <= warmup:
            if code == RCUCB:
                i, k = t - 1, K - 1
            else:
                i, k = (t - 1) // K, (t - 1) % K
        else:
            if code == THOMPSON or code == THOMPSON_PLAYED:
                beta_blocks(da, ca, db, cb, policy_key, counter, draw_bits, theta)
                counter += pairs * BETA_BLOCK
                p_best, counter = argmax_random_ties(theta, no_width, 0.0, policy_key, counter)
            else:
                factor = 2.0 * alpha if code == RCUCB else 0.5 * alpha
                p_best, counter = argmax_random_ties(
                    mean, width, math.sqrt(factor * math.log(t)), policy_key, counter
                )
            i, k = p_best // K, p_best % K
        r, c = sample_pull(family, arm_params, pool_values, pool_offsets, env_key, i, pulls[i])
        pulls[i] += 1
        p = i * K + k
        plays[p] += 1.0
        regret += flat_gaps[p]
        net = r - cost_slope * c
        if c > grid[k]:
            censored_rounds += 1.0
            gain -= penalty[k]
        else:
            reward += r
            gain += net
        if code == RCUCB:
            for kk in range(K):
                q = i * K + kk
                above = c > grid[kk]
                if kk <= k:
                    n_at[q] += 1.0
                    if not above:
                        gain_sum[q] += net
                    elif not literal:
                        exceed[q] += 1.0
                if literal and above:
                    exceed[q] += 1.0
            _rcucb_refresh(i, K, penalty, literal, pulls, n_at, gain_sum, exceed, mean, width)
        elif code == UCB:
            n_at[p] += 1.0
            gain_sum[p] += net if c <= grid[k] else -penalty[k]
            mean[p] = (gain_sum[p] / n_at[p] + penalty_max) / rescale
            width[p] = 1.0 / math.sqrt(n_at[p])
        else:
            for kk in range(k if code == THOMPSON_PLAYED else 0, k + 1):
                q = i * K + kk
                y = net if c <= grid[kk] else -penalty[kk]
                chance = min(max((y + penalty_max) / rescale, 0.0), 1.0)
                if uniform(policy_key, counter) < chance:
                    shape_a[q] += 1.0
                    da[q], ca[q] = gamma_constants(shape_a[q])
                else:
                    shape_b[q] += 1.0
                    db[q], cb[q] = gamma_constants(shape_b[q])
                counter += 1
        while cp < n_cp and checkpoints[cp] == t:
            regret_out[cp] = regret
            censored_out[cp] = censored_rounds
            reward_out[cp] = reward
            gain_out[cp] = gain
            if record_pairs:
                plays_out[cp] = plays
            if record_coverage and t < warmup:
                above_out[cp] = np.nan
                below_out[cp] = np.nan
            elif record_coverage:
                scale = math.sqrt(2.0 * alpha * math.log(t + 1.0))
                for q in range(pairs):
                    error = mean[q] - flat_nu[q]
                    if error > scale * width[q]:
                        above_out[cp] += 1.0
                    elif error < -scale * width[q]:
                        below_out[cp] += 1.0
            cp += 1
    return regret_out, censored_out, reward_out, gain_out, plays_out, above_out, below_out
