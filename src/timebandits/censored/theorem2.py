"""Theorem 2 / Proposition 11 of App. C of "Multi-Armed Bandits with Censored Consumption of
Resources" (z-RCUCB's simple regret L_T, §4.2) and the near-optimality constant of Def. 3 it
needs, as plain numpy functions (the symbols of theory.py).
"""

from __future__ import annotations

import math

import numpy as np

from .theory import VOID_REASON, scalar_or_array


def simple_regret(nu_at, arm, tau, nu_star) -> float:
    """L_T = ν* − ν_{î,τ̂} (§4.2) for z-RCUCB's output; ``nu_at(arm, tau)`` evaluates ν exactly."""
    return float(nu_star) - float(nu_at(arm, tau))


# ---- Theorem 2 / Proposition 11 (z-RCUCB simple regret) ------------------------------------------


def theorem2_rate(T, delta, d):
    """The rate shape of Theorem 2, (ln(T²/δ)/T)^{1/(d+2)}, without the constant C̃: on a log-log
    plot against T its slope tends to −1/(d+2). Broadcasts over T."""
    T = np.asarray(T, dtype=float)
    return scalar_or_array((np.log(T**2 / float(delta)) / T) ** (1.0 / (d + 2.0)), T)


def theorem2_c_T(T, delta, n, alpha, penalty_max, tau_max):
    """c_T = sqrt(2α ln(nT²/δ)(1+λ(τmax))² / (τmax² T)) (Theorem 2, Prop. 11)."""
    T = np.asarray(T, dtype=float)
    value = np.sqrt(
        2.0 * alpha * np.log(n * T**2 / float(delta)) * (1.0 + penalty_max) ** 2 / (tau_max**2 * T)
    )
    return scalar_or_array(value, T)


def theorem2_H_T(penalty_fn, tau_max, m, c_T, max_level: int = 8, parent: str = "proof"):
    """H_T = max_{l ≥ 0, 1 ≤ j ≤ m^l − 1} [(1+λ(τ_(l,j)))² − m^{−2}(1 + λ(τ_(l−1,s_j))·c_T)²].

    The max over all levels is truncated at ``max_level``. τ_(l,j) = j·τmax/m^l, the equidistant
    level-l grid the paper says (20) describes; the printed (20) lacks the offset τ_(l−1,s_j−1) +.
    s_j is ambiguous (spec §6): printed ⌊j/m⌋+1 (Thm 2), ⌊(j+1)/m⌋+1 (Prop. 11). ``parent``:
        "proof"  ⌈(j+1)/m⌉: the level-(l−1) point extended to create τ_(l,j+1), as eq. (29) uses
        "spec"   ⌈j/m⌉: the parent of τ_(l,j) itself (spec §6's reading)
    ``penalty_fn`` is λ as a vectorised function of τ. The level −1 does not occur (j ≤ m^0 − 1 is
    empty at l = 0). Returns −inf if no term exists (max_level = 0).
    """
    best = -math.inf
    for level in range(1, int(max_level) + 1):
        j = np.arange(1, m**level)
        tau = j * tau_max / m**level
        if parent == "proof":
            s = -(-(j + 1) // m)
        elif parent == "spec":
            s = -(-j // m)
        else:
            raise ValueError(f"parent must be 'proof' or 'spec', got {parent!r}")
        tau_parent = s * tau_max / m ** (level - 1)
        terms = (1.0 + penalty_fn(tau)) ** 2 - (1.0 + penalty_fn(tau_parent) * c_T) ** 2 / m**2
        best = max(best, float(np.max(terms)))
    return best


def theorem2_constant(d, C, m, alpha, penalty_max, H_T) -> float:
    """C̃ = (4αC m²(H_T + (1+λ(τmax))²) / (3^d (1 − m^{−(d+2)})))^{1/(d+2)} (Theorem 2).

    d and C are the 1/3-near-optimality dimension and constant (Def. 3) of the instance: they are
    not computable from a ν table and must be derived by hand. The theorem also assumes local
    smoothness ν* − ν_{i*,τ} ≤ |τ* − τ|, which the experiments' penalty (jump of λ from 0.05 to 5
    at τ = 0.5) violates near the jump, so no experiment of the paper is covered."""
    return float(
        (
            4.0
            * alpha
            * C
            * m**2
            * (H_T + (1.0 + penalty_max) ** 2)
            / (3.0**d * (1.0 - float(m) ** (-(d + 2.0))))
        )
        ** (1.0 / (d + 2.0))
    )


def theorem2_bound(T, delta, d, C, m, alpha, penalty_max, H_T):
    """Theorem 2: with probability ≥ 1 − δ, L_T ≤ C̃·(ln(T²/δ)/T)^{1/(d+2)}
    (``theorem2_constant`` × ``theorem2_rate``; α > 1, δ ∈ (0, 1))."""
    if float(alpha) <= 1.0:
        raise ValueError(VOID_REASON)
    return theorem2_constant(d, C, m, alpha, penalty_max, H_T) * theorem2_rate(T, delta, d)


def packing_number(taus, member, length: float) -> int:
    """Def. 3's count for one arm: the largest number of disjoint intervals (a, b] of length
    ``length`` with 0 ≤ a and right end b among the limits ``taus[member]`` (``taus``
    ascending). Def. 3 says |b − a| ≤ ηε, which admits arbitrarily many tiny intervals; read as
    length exactly ηε (a packing). Greedy from the left is optimal in one dimension."""
    points = np.asarray(taus, dtype=float)[np.asarray(member, dtype=bool)]
    points = points[points >= length - 1e-12]
    count, index = 0, 0
    while index < points.size:
        count += 1
        index = int(np.searchsorted(points, points[index] + length - 1e-12, side="left"))
    return count


def near_optimality_constant(taus, nu_curves, nu_sup, d, epsilons, eta: float = 1.0 / 3.0) -> float:
    """Def. 3: the smallest C with P(ε) ≤ C·ε^{−d} over ``epsilons``, where P(ε) is the number of
    disjoint η·ε-intervals, summed over arms, whose right ends are ε-optimal pairs
    (ν_{i,τ} ≥ ``nu_sup`` − ε) — evaluated on the limits ``taus`` with ``nu_curves`` (n, len(taus))
    the exact ν there. The paper's "less than C" is met by any larger constant."""
    best = 0.0
    for eps in np.asarray(epsilons, dtype=float):
        count = sum(packing_number(taus, curve >= nu_sup - eps, eta * eps) for curve in nu_curves)
        best = max(best, count * eps ** float(d))
    return best
