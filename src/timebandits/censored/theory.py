"""The paper's bounds (Bengs & Hüllermeier, "Multi-Armed Bandits with Censored Consumption of
Resources": Theorem 1 with App. B, Corollary 14 of App. G) as plain numpy functions of the exact
ν table, and their magnitudes (spec §6). Proposition 1 and the confidence width are in
proposition1.py, Theorem 2 / Prop. 11 of App. C (z-RCUCB's simple regret) in theorem2.py, the
regret decompositions (6), (11) in regret_decompositions.py.

Symbols and names (spec §1, §6):
    nu       (n, K) exact penalized expected gains ν_{i,τ_k}; columns are the grid
             M = {τ_1 < … < τ_K} in ascending order, so column K−1 is τmax and up(τ_k) = τ_{k+1}
    penalty  (K,) λ(τ_k) in the same column order
    Δ        gaps ν* − ν_{i,τ} (``gaps``);  pairs with Δ = 0 are optimal
    α        exploration constant (> 1 for every result here);  T the horizon (a checkpoint)
    N        N_{i,τ}(T+1): plays of arm i with limit ≥ τ
    counts   T_{i,τ}(T+1): plays of exactly (i,τ)
Logs are natural. Functions of T accept a scalar (Python float out) or an array of checkpoints
(array of the same shape out; per-pair forms append the (n, K) axes).

Nothing here depends on the model module: callers pass the ν table, λ on the grid and λ(τmax).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from timebandits.core.trivial import is_vacuous, trivial_bound

# Why Theorem 1, Corollary 14 and Proposition 1 give +inf for α ≤ 1.
VOID_REASON = (
    "alpha <= 1: the constant 8/ln((α+1)/2)·((α+1)/(α−1))² (Thm 1; 4/… in Cor. 14) "
    "is infinite or undefined, and Prop. 1 needs α > 1 -- the bound is void "
    "(+inf). Every experiment of the paper uses α = 1 (spec P6)."
)
H_FORMS = ("printed", "proof")


# ---- shared pieces ------------------------------------------------------------------------------


def gaps(nu) -> np.ndarray:
    """Δ_{i,τ} = ν* − ν_{i,τ}, eq. (5), with ν* = max ν (exactly 0 at every maximiser)."""
    nu = np.asarray(nu, dtype=float)
    return nu.max() - nu


def _log_T(T) -> np.ndarray:
    T = np.asarray(T, dtype=float)
    if np.any(T < 1):
        raise ValueError(f"horizon T must be >= 1, got {T!r}")
    return np.log(T)


def scalar_or_array(values, T):
    """A Python float for scalar T, else the array."""
    return float(values) if np.ndim(T) == 0 else np.asarray(values, dtype=float)


def _check_table(nu, penalty) -> tuple[np.ndarray, np.ndarray]:
    nu = np.asarray(nu, dtype=float)
    penalty = np.asarray(penalty, dtype=float)
    if nu.ndim != 2 or penalty.shape != (nu.shape[1],):
        raise ValueError(f"nu must be (n, K) and penalty (K,), got {nu.shape} and {penalty.shape}")
    return nu, penalty


def peeling_constant(alpha, factor: float = 8.0) -> float:
    """``factor``/ln((α+1)/2)·((α+1)/(α−1))²: the round-sum of Prop. 1's deviation probabilities
    (App. B, first part: 8 for Theorem 1, two bad events; 4 for Corollary 14). +inf for α ≤ 1."""
    alpha = float(alpha)
    if alpha <= 1.0:
        return math.inf
    return factor / math.log((alpha + 1.0) / 2.0) * ((alpha + 1.0) / (alpha - 1.0)) ** 2


# ---- Theorem 1 (RCUCB) ---------------------------------------------------------------------------


def theorem1_per_pair(nu, penalty, alpha, T):
    """Theorem 1's u_{i,τ}(T, α) = 8α(1+λ(τ))² ln T/Δ²_{i,τ} + 1 + 8/ln((α+1)/2)·((α+1)/(α−1))².

    The first part of App. B's proof; by that argument it bounds E[T_{i,τ}(T+1)], the plays of
    exactly (i,τ) (spec §6, P13: for i = i*, τ < τ* the printed claim E[N_{i,τ}] ≤ u cannot hold,
    N grows linearly), so the per-pair check compares mean exact play counts with u.
    Returns shape ``np.shape(T) + (n, K)``; NaN where Δ = 0 (optimal pairs, excluded from the sum),
    +inf where Δ > 0 and α ≤ 1 (void, ``VOID_REASON``).
    """
    nu, penalty = _check_table(nu, penalty)
    gap = gaps(nu)
    log_T = _log_T(T)[..., None, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        value = 8.0 * alpha * (1.0 + penalty) ** 2 * log_T / gap**2 + 1.0 + peeling_constant(alpha)
    return np.where(gap > 0, value, np.nan)


def theorem1_h(nu, penalty, alpha, h_form: str = "printed") -> np.ndarray:
    """H_{i,τ}(α) = max_{(j,τ') ≠ (i,τ)} (8(1+λ(τ')²α)/(Δ_{i,τ} − Δ_{j,τ'}) + 1)²
                                          ·(Δ_{i,τ} − Δ_{j,τ'})²
                  = max_{(j,τ') ≠ (i,τ)} (a(τ') + Δ_{i,τ} − Δ_{j,τ'})²,

    the algebraically identical form without the 0/0 at equal gaps (spec §6; pairs with equal gaps
    are kept, at value a(τ')²). a(τ') is, by ``h_form``:
        "printed"  8(1 + α·λ(τ')²)    Theorem 1 as printed (default)
        "proof"    8α(1 + λ(τ'))²     the constant App. B actually uses (item 2 after (19))
    (spec P13: the parenthesisation is ambiguous). (n, K) array; O(nK) via the two largest and two
    smallest w = a − Δ. With a single pair there is no (j,τ') and H is NaN.
    """
    nu, penalty = _check_table(nu, penalty)
    if h_form == "printed":
        a = 8.0 * (1.0 + alpha * penalty**2)
    elif h_form == "proof":
        a = 8.0 * alpha * (1.0 + penalty) ** 2
    else:
        raise ValueError(f"h_form must be one of {H_FORMS}, got {h_form!r}")
    gap = gaps(nu)
    w = (a[None, :] - gap).ravel()
    if w.size < 2:
        return np.full(nu.shape, np.nan)
    order = np.argsort(w, kind="stable")
    index = np.arange(w.size)
    # the largest / smallest w over the other pairs
    w_max = np.where(index == order[-1], w[order[-2]], w[order[-1]])
    w_min = np.where(index == order[0], w[order[1]], w[order[0]])
    d = gap.ravel()
    return np.maximum((d + w_max) ** 2, (d + w_min) ** 2).reshape(nu.shape)


def theorem1_delta_max(n_pairs: int, T):
    """The largest admissible δ of Theorem 1: (n|M|−1)^{1−δ}·T^{2δ} ≤ T ⇔
    δ ≤ (ln T − ln(n|M|−1)) / (2 ln T − ln(n|M|−1)), capped at the theorem's δ < 1/2 (the cap is the
    supremum, not attained). 0 where no δ > 0 is admissible (T ≤ n|M| − 1).
    E.g. n|M| = 100, T = 1e5: δ ≤ 0.3754. ``n_pairs`` = n·|M|."""
    log_T = _log_T(T)
    m = int(n_pairs) - 1
    if m < 0:
        raise ValueError(f"n_pairs must be >= 1, got {n_pairs!r}")
    if m <= 1:  # (n|M|−1)^{1−δ} ≤ 1 ≤ T^{1−2δ} for every δ ≤ 1/2
        return scalar_or_array(np.full(log_T.shape, 0.5), T)
    log_m = math.log(m)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = (log_T - log_m) / (2.0 * log_T - log_m)
    value = np.where(log_T > log_m, np.minimum(value, 0.5), 0.0)
    return scalar_or_array(value, T)


def theorem1_lower_terms(
    nu, penalty, alpha, T, epsilon=0.5, delta=None, epsilon_power: int = 1, h_form: str = "printed"
):
    """l_{i,τ}(T, α) = α·ε·δ·ln T / H_{i,τ}(α) (Theorem 1), shape ``np.shape(T) + (n, K)``.

    ``epsilon_power`` = 1 is the statement; 2 is what App. B derives (t̃ = ⌊ε²α ln T/H̃⌋, spec
    P13). ``delta`` None = the admissible maximum ``theorem1_delta_max`` at each T; a given δ must
    be admissible at every T (ValueError otherwise).
    """
    nu, penalty = _check_table(nu, penalty)
    if not 0.0 < float(epsilon) < 1.0:
        raise ValueError(f"epsilon must lie in (0, 1), got {epsilon!r}")
    if epsilon_power not in (1, 2):
        raise ValueError(f"epsilon_power must be 1 (printed) or 2 (proof), got {epsilon_power!r}")
    log_T = _log_T(T)
    admissible = np.asarray(theorem1_delta_max(nu.size, T), dtype=float)
    if delta is None:
        delta = admissible
    else:
        if not 0.0 < float(delta) < 0.5:
            raise ValueError(f"delta must lie in (0, 1/2), got {delta!r}")
        if np.any(float(delta) > admissible):
            raise ValueError(
                f"delta = {delta} violates (n|M|−1)^(1−δ)·T^(2δ) <= T at some T "
                f"(largest admissible: {np.min(admissible):.4g})"
            )
        delta = np.full(log_T.shape, float(delta))
    scale = alpha * float(epsilon) ** epsilon_power * np.asarray(delta) * log_T
    return scale[..., None, None] / theorem1_h(nu, penalty, alpha, h_form)


def theorem1_bound(
    nu,
    penalty,
    alpha,
    T,
    epsilon=0.5,
    delta=None,
    p_A=0.0,
    epsilon_power: int = 1,
    h_form: str = "printed",
):
    """Theorem 1 (RCUCB, α > 1), spec §6:

        R_T ≤ Σ_{(i,τ): Δ_{i,τ}>0} Δ_{i,τ}·u_{i,τ}(T,α)
              − P(A_ε)·Σ_{i, τ≠τmax} Δ_{i,τ}·l_{i,up(τ)}(T,α).

    The printed sum runs over all pairs; Δ = 0 terms are 0·∞ and are dropped. up(τ_k) = τ_{k+1}
    (the printed definition of up(·) minimises over M∖{τmax}, which leaves up(τ_{K−1}) undefined;
    read as the next larger point of M). P(A_ε) is unknown: ``p_A`` ∈ [0, 1] must be a lower bound
    on it for this ε; the default 0 gives the conservative bound Σ Δ·u (the first part of App. B
    alone, which needs no δ). The subtracted term is small anyway (H ≥ 64 in the printed form).
    Options (``theorem1_lower_terms``): ``epsilon``, ``delta`` (None = admissible maximum),
    ``epsilon_power`` (1 printed / 2 proof), ``h_form`` ("printed" / "proof").
    Void (+inf) for α ≤ 1 (``VOID_REASON``). Scalar T → float; array → array of that shape.
    """
    nu, penalty = _check_table(nu, penalty)
    if not 0.0 <= float(p_A) <= 1.0:
        raise ValueError(f"p_A must lie in [0, 1], got {p_A!r}")
    if float(alpha) <= 1.0:
        return scalar_or_array(np.full(np.shape(T), math.inf), T)
    gap = gaps(nu)
    upper = np.nansum(gap * theorem1_per_pair(nu, penalty, alpha, T), axis=(-2, -1))
    if p_A > 0.0:
        lower = theorem1_lower_terms(nu, penalty, alpha, T, epsilon, delta, epsilon_power, h_form)
        upper = upper - p_A * np.sum(gap[:, :-1] * lower[..., :, 1:], axis=(-2, -1))
    return scalar_or_array(upper, T)


# ---- Corollary 14 (UCB reduction) ----------------------------------------------------------------


def corollary14_per_pair(nu, penalty_max, alpha, T):
    """Corollary 14, per pair (proof in App. G): E[T_{i,τ}(T+1)] ≤
    2α(1+λ(τmax))² ln T/Δ²_{i,τ} + 1 + 4/ln((α+1)/2)·((α+1)/(α−1))².

    ``penalty_max`` = λ(τmax) of the UCB rescaling (31), passed explicitly (spec P3: λ(max M) or
    λ(1)). Shape ``np.shape(T) + (n, K)``; NaN where Δ = 0, +inf where Δ > 0 and α ≤ 1.
    """
    nu = np.asarray(nu, dtype=float)
    gap = gaps(nu)
    log_T = _log_T(T)[..., None, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        value = (
            2.0 * alpha * (1.0 + penalty_max) ** 2 * log_T / gap**2
            + 1.0
            + peeling_constant(alpha, 4.0)
        )
    return np.where(gap > 0, value, np.nan)


def corollary14_bound(nu, penalty_max, alpha, T):
    """Corollary 14 (App. G): R_T^UCB ≤ Σ_{Δ_{i,τ}>0} [2α(1+λ(τmax))² ln T/Δ_{i,τ}
    + Δ_{i,τ}(1 + 4((α+1)/(α−1))²/ln((α+1)/2))] = Σ_{Δ>0} Δ·(per-pair bound).
    Void (+inf) for α ≤ 1. Scalar T → float; array → array."""
    gap = gaps(nu)
    if float(alpha) <= 1.0:
        return scalar_or_array(np.full(np.shape(T), math.inf), T)
    total = np.nansum(gap * corollary14_per_pair(nu, penalty_max, alpha, T), axis=(-2, -1))
    return scalar_or_array(total, T)


# ---- magnitudes (spec §6) ------------------------------------------------------------------------


def bound_magnitudes(nu, penalty, penalty_max, T, alphas=(1.5, 2.0, 3.0)) -> pd.DataFrame:
    """One row per α: the trivial bound T·max Δ (``core.trivial.trivial_bound``), Theorem 1
    (conservative, p_A = 0), Corollary 14 with λ(τmax) = ``penalty_max``, their ratio, and whether
    each bound is below the trivial bound (``not core.trivial.is_vacuous``). Scalar T.
    Columns: alpha, T, max_gap, trivial, theorem1, corollary14, ratio_thm1_cor14,
    theorem1_informative, corollary14_informative."""
    nu, penalty = _check_table(nu, penalty)
    max_gap = float(gaps(nu).max())
    trivial = float(trivial_bound(T, max_gap))
    rows = []
    for alpha in alphas:
        thm1 = theorem1_bound(nu, penalty, alpha, T)
        cor14 = corollary14_bound(nu, penalty_max, alpha, T)
        with np.errstate(invalid="ignore", divide="ignore"):
            ratio = float(np.float64(thm1) / np.float64(cor14))
        rows.append(
            {
                "alpha": float(alpha),
                "T": float(T),
                "max_gap": max_gap,
                "trivial": trivial,
                "theorem1": thm1,
                "corollary14": cor14,
                "ratio_thm1_cor14": ratio,
                "theorem1_informative": not bool(is_vacuous(thm1, trivial)),
                "corollary14_informative": not bool(is_vacuous(cor14, trivial)),
            }
        )
    return pd.DataFrame(rows)
