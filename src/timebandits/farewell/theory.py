"""The paper's bounds (Sharoff et al. 2020, §4–6, App. A–D) as plain numpy functions.

Symbols and names (spec §1, §4):
    n            number of i.i.d. samples (pulls of one pair), N_{k,j} in the paper
    B            upper end of the cost range [1, B]; in F2A, B = j
    δ  delta     failure probability;  ε  eps  deviation of the ratio estimator
    μ_Y  mu_y    E[Y] = E[c] = μ^c_{k,j}  (``problem.mean_cost``)
    α_j, β_j     Wait-UCB constants 8(j−1)/3 and √2(√(j−1)+1) (``wait_ucb_constants``)
    g, g*, Δ     ``problem.ratio``, ``problem.g_star``, ``problem.gaps``
    t            a time budget (checkpoint); the paper's T. Logs are natural.
Pairs are flattened as a = k0·D + j0 (0-based), as in ``F2AProblem``.
"""

from __future__ import annotations

import math

import numpy as np

from timebandits.core.sim.jit import njit
from timebandits.core.trivial import trivial_bound

from .model import F2AProblem
from .policies import wait_ucb_constants

# Σ_{s≥1} 8·s^{-2} = 4π²/3: the Lemma 2 term from the deviation probabilities (App. C).
LEMMA2_CONSTANT = 4.0 * math.pi**2 / 3.0


def _pair_constants(problem: F2AProblem) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Flat arrays (length K·D) of j, α_j and β_j."""
    alpha, beta = wait_ucb_constants(problem.D)
    j = np.arange(1, problem.D + 1)
    return np.tile(j, problem.K), np.tile(alpha, problem.K), np.tile(beta, problem.K)


def _log_factor(problem: F2AProblem) -> np.ndarray:
    """l / ln t of Lemma 2–3: ((β_j + √(β_j² + 2α_jΔ))/Δ)² per flat pair; NaN where Δ = 0."""
    _, alpha, beta = _pair_constants(problem)
    gap = problem.gaps.ravel()
    with np.errstate(divide="ignore", invalid="ignore"):
        factor = ((beta + np.sqrt(beta**2 + 2.0 * alpha * gap)) / gap) ** 2
    return np.where(gap > 0, factor, np.nan)


def ratio_deviation_radius(n, B, delta, mu_y):
    """Lemma 1 radius: with probability ≥ 1 − δ, |X̂/Ŷ − E[X]/E[Y]| is at most this.

    √((B−1)L/(2n)) + 2(B−1)L/(3μ_Y n) + √(L/(2n)) with L = ln(4/δ): the sum form that the
    proof of Lemma 4 actually yields (the printed eq. (9) puts both terms under one root,
    spec §4.2). Broadcasts over all arguments.
    """
    n, B, mu_y = (np.asarray(x, dtype=float) for x in (n, B, mu_y))
    log_term = np.log(4.0 / np.asarray(delta, dtype=float))
    return (
        np.sqrt((B - 1.0) * log_term / (2.0 * n))
        + 2.0 * (B - 1.0) * log_term / (3.0 * mu_y * n)
        + np.sqrt(log_term / (2.0 * n))
    )


def corollary1_tail(eps, n, B):
    """Corollary 1, eq. (10): Pr(|X̂/Ŷ − E[X]/E[Y]| ≥ ε) ≤ 4·exp(−x²).

    x is the positive root of a·x² + b·x = ε (Lemma 1's radius with x² = ln(4/δ) and μ_Y ≥ 1),
    a = 2(B−1)/(3n), b = (√(B−1)+1)/√(2n). It is evaluated as x = 2ε/(b + √(b² + 4aε)), equal to
    the printed (−b + √(b² + 4aε))/(2a) for a > 0 and to ε/b for B = 1 (a = 0), without
    cancellation. Broadcasts over all arguments.
    """
    eps, n, B = (np.asarray(x, dtype=float) for x in (eps, n, B))
    a = 2.0 * (B - 1.0) / (3.0 * n)
    b = (np.sqrt(B - 1.0) + 1.0) / np.sqrt(2.0 * n)
    x = 2.0 * eps / (b + np.sqrt(b**2 + 4.0 * a * eps))
    return 4.0 * np.exp(-(x**2))


def wait_ucb_radius(s, n, j):
    """Wait-UCB radius a_{k,j}(s) = α_j·ln s/n + β_j·√(ln s/n) (§5, Algorithm 1).

    It is Corollary 1 inverted at δ = 4s^{-4}, i.e. x² = 4 ln s with B = j (App. D, spec §4.3).
    ``j`` is 1-based; broadcasts over all arguments.
    """
    j = np.asarray(j, dtype=int)
    alpha, beta = wait_ucb_constants(int(j.max()))
    x = np.log(np.asarray(s, dtype=float)) / np.asarray(n, dtype=float)
    return alpha[j - 1] * x + beta[j - 1] * np.sqrt(x)


def lemma2_pull_bound(t, problem: F2AProblem, initial_pull: bool = True) -> np.ndarray:
    """Lemma 2: E[N_{k,j}(L)] ≤ ln(t)·((β_j + √(β_j² + 2α_jΔ_{k,j}))/Δ_{k,j})² + 4π²/3 (+ 1).

    ``initial_pull`` adds the 1 that App. C drops (spec §4.4): the initialisation pull plus the
    later pulls made while N < l number at most ⌈l⌉ ≤ l + 1. Returns an array of shape
    ``np.shape(t) + (K·D,)`` over flat pairs a = k0·D + j0; optimal pairs (Δ = 0) are NaN.
    """
    log_t = np.log(np.asarray(t, dtype=float))[..., None]
    return log_t * _log_factor(problem) + LEMMA2_CONSTANT + float(initial_pull)


def theorem2_leading_term(t, problem: F2AProblem) -> np.ndarray:
    """The ln t part of Theorem 2: Σ_{Δ>0} μ^c_{k,j}(β_j + √(β_j² + 2Δα_j))²·ln t / Δ."""
    gap = problem.gaps.ravel()
    coefficient = np.nansum(problem.mean_cost.ravel() * gap * _log_factor(problem))
    return coefficient * np.log(np.asarray(t, dtype=float))


def theorem2_bound(t, problem: F2AProblem, constant=None, initial_pull: bool = True) -> np.ndarray:
    """Theorem 2 with explicit constants (spec §4.5), natural log.

    Σ_{Δ>0} μ^c·Δ·(Lemma 2 bound) + C0
      = ``theorem2_leading_term`` + Σ_{Δ>0} μ^c_{k,j}Δ_{k,j}·(4π²/3 + 1) + C0,
    where the + 1 is Lemma 2's initial pull that App. C drops (``initial_pull``; without it the
    constant is Σ μ^cΔ·4π²/3 as printed). The paper's O(1) is unspecified; C0 (``constant``)
    defaults to D·g*, which covers the boundary terms of the proof (Thm 1 offset and the
    overshooting epoch, spec §4.5).
    """
    c0 = problem.D * problem.g_star if constant is None else constant
    weight = (problem.mean_cost * problem.gaps).sum()
    return theorem2_leading_term(t, problem) + weight * (LEMMA2_CONSTANT + float(initial_pull)) + c0


def coarse_bound_order(t, problem: F2AProblem) -> np.ndarray:
    """The coarse leading term (5) without its O(·): Σ_{Δ>0} μ^c_{k,j}·j·ln t / Δ_{k,j}."""
    j, _, _ = _pair_constants(problem)
    gap = problem.gaps.ravel()
    positive = gap > 0
    coefficient = np.sum(problem.mean_cost.ravel()[positive] * j[positive] / gap[positive])
    return coefficient * np.log(np.asarray(t, dtype=float))


def comparison_orders(problem: F2AProblem) -> dict:
    """The §6.2 order expressions per unit ln T, with Δ = the minimum positive gap.

    (WAIT) (D²/Δ)·μ̄^c;  (DQZL) (D⁴ + D³/Δ + D²/Δ²)·μ^r_{j*}/μ^c_{j*} = (…)·g*;
    (FJ) (D²/Δ)·Σ_j 1/μ^c_j (its + O(D³) is omitted). The paper states them for K = 1; for
    K > 1, μ̄^c is the mean and Σ 1/μ^c the sum over all K·D pairs (our extension).
    Keys: ``wait, dqzl, fj, min_gap, mean_cost`` (μ̄^c), ``sum_inverse_cost`` (Σ 1/μ^c).
    """
    D, gap = problem.D, problem.min_gap
    mean_cost = float(problem.mean_cost.mean())
    sum_inverse_cost = float((1.0 / problem.mean_cost).sum())
    return {
        "wait": D**2 / gap * mean_cost,
        "dqzl": (D**4 + D**3 / gap + D**2 / gap**2) * problem.g_star,
        "fj": D**2 / gap * sum_inverse_cost,
        "min_gap": gap,
        "mean_cost": mean_cost,
        "sum_inverse_cost": sum_inverse_cost,
    }


def vacuity_crossover(problem: F2AProblem, t_max: int, constant=None) -> float:
    """Smallest integer t* ≥ 2 with theorem2_bound(t) below the trivial bound t·max Δ
    (core.trivial.trivial_bound, as in the bound table) for every integer t ≥ t*.

    Before t* the bound is vacuous. h(t) = bound(t) − t·Δ_max = A·ln t + C − Δ_max·t with A ≥ 0,
    so h is concave; it increases up to t_p = A/Δ_max and decreases after. Its integer maximiser
    m is therefore ⌊t_p⌋ or ⌈t_p⌉ (at least 2), and {integer t ≥ 2 : h(t) ≥ 0} is a run of
    consecutive integers ending on the decreasing side. If h(m) < 0 that set is empty and t* = 2;
    otherwise t* is the first integer after m with h < 0, found by bisection (exact, so no grid
    search is needed). Returns ``inf`` if t* > t_max.
    """
    max_gap = float(problem.gaps.max())

    def excess(t):
        return float(theorem2_bound(t, problem, constant)) - float(trivial_bound(t, max_gap))

    leading = float(theorem2_leading_term(math.e, problem))
    peak = leading / max_gap if leading > 0 else 2.0
    m = max((max(2, math.floor(peak)), max(2, math.ceil(peak))), key=excess)
    if excess(m) < 0:
        return 2
    if m >= t_max or excess(t_max) >= 0:
        return math.inf
    low, high = m, int(t_max)  # invariant: excess(low) >= 0 > excess(high)
    while high - low > 1:
        mid = (low + high) // 2
        if excess(mid) >= 0:
            low = mid
        else:
            high = mid
    return high


@njit(cache=True)
def _renewal_values(drive, cost_pmf):
    """W(0..T) of W(t) = drive[t−1] + Σ_{d=1}^{j} P(c = d)·W(t − d), with W(t ≤ 0) = 0."""
    values = np.zeros(drive.size + 1)
    for t in range(1, drive.size + 1):
        total = drive[t - 1]
        for d in range(1, min(t, cost_pmf.size) + 1):
            total += cost_pmf[d - 1] * values[t - d]
        values[t] = total
    return values


def constant_policy_expected_reward(problem: F2AProblem, k: int, j: int, horizons) -> np.ndarray:
    """Exact E[Σ_{s≤L} r^{(s)}] of the constant policy (k, j) (1-based) under budget T (Thm 1).

    Renewal recursion on the first epoch, c = min(τ_k, j), r = V·1[τ_k ≤ j]:
        W(T) = Σ_{d=1}^{min(T,j)} P(c = d)·(E[r | c = d] + W(T − d)),   W(T) = 0 for T < 1,
    with P(c = d)·E[r | c = d] = ν_k·P(τ_k = d) for every d ≤ j (V independent of τ). This is
    the linear recurrence W(T) = b(T) + Σ_d P(c = d)·W(T − d), b(T) = ν_k·F_k(min(T, j)),
    run in compiled code in O(T·j). ``horizons``: integers ≥ 0.
    """
    horizons = np.asarray(horizons, dtype=int)
    pmf = problem.delay_pmf[k - 1]
    cost_pmf = np.append(pmf[: j - 1], pmf[j - 1 :].sum())
    budget = np.arange(1, max(int(horizons.max()), 1) + 1)
    drive = problem.reward_prob[k - 1] * problem.delay_cdf[k - 1, np.minimum(budget, j) - 1]
    return _renewal_values(drive, cost_pmf)[horizons]


def theorem1_offset(problem: F2AProblem, k: int, j: int, horizons) -> np.ndarray:
    """Theorem 1's A_j = W(T) − T·g_{k,j} for the constant policy (k, j), exact."""
    horizons = np.asarray(horizons, dtype=int)
    return (
        constant_policy_expected_reward(problem, k, j, horizons)
        - horizons * problem.ratio[k - 1, j - 1]
    )
