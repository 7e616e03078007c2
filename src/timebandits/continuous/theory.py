r"""Paper 003's bounds and lemmas as functions (spec §5), in normalised units (T means T' = T/λ,
``log`` is natural). The O(·) and Ω(·) constants are not given, so the bounds carry a free
constant C and are judged by shape; eq. 20 and Theorem 9's eq. 9 are explicit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


def p_star(mean: float, horizon: float) -> float:
    """p* of eq. 6, T'^{p*} = 1/μ³, i.e. p* = 3 ln(1/μ)/ln T' (meaningful when ≤ 1: T' ≥ 1/μ³)."""
    return 3.0 * math.log(1.0 / mean) / math.log(horizon)


@dataclass(frozen=True)
class Phase:
    """Learning phase i of CTSAB (CTMAB's estimation phases have K times the plays): its window
    (start, end], its plays N_i = ⌈κ ln T' c^{2i/3}⌉ and the cumulative count N^i."""

    index: int
    start: float
    end: float
    plays: int
    cumulative: int


def learning_phases(horizon: float, epsilon: float, kappa: float, count: int) -> list[Phase]:
    """The first ``count`` learning phases of Alg. 1 (spec §3.3), c = T'^ε."""
    c, ell = horizon**epsilon, math.log(horizon)
    phases, start, total = [], 0.0, 0
    for i in range(1, count + 1):
        plays = math.ceil(kappa * ell * c ** (2.0 * i / 3.0))
        total += plays
        phases.append(Phase(i, start, c**i, plays, total))
        start = c**i
    return phases


def predicted_i_star(
    mean: float, horizon: float, epsilon: float, kappa: float, delta: float
) -> int:
    """The phase at which eq. 5 would fire if μ̂ = μ: min{i : N^i > 4 ln(2/δ)/μ²} (spec §5's
    deterministic predictor for Lemma 13)."""
    need = 4.0 * math.log(2.0 / delta) / mean**2
    i = 1
    while True:
        phase = learning_phases(horizon, epsilon, kappa, i)[-1]
        if phase.cumulative > need:
            return i
        i += 1


def lemma13_i_star_bound(mean: float, horizon: float, epsilon: float) -> int:
    """Lemma 13: i* ≤ ⌈p*/ε⌉ + 1 (with δ = 1/T'² and κ ≥ κ_min)."""
    return math.ceil(p_star(mean, horizon) / epsilon) + 1


def kappa_min(horizon: float, epsilon: float) -> float:
    """The κ Lemma 13's proof needs: 9 ln(2T'²)/(ln T' · T'^{2ε/3})."""
    return 9.0 * math.log(2.0 * horizon**2) / (math.log(horizon) * horizon ** (2.0 * epsilon / 3.0))


def learning_payoff(
    mean: float, horizon: float, epsilon: float, kappa: float, i_star: int
) -> float:
    """Lemma 14 / eq. 15, exact given i*: P_L = μ N^{i*} − Σ_{i ≤ i*} N_i²/L_i."""
    phases = learning_phases(horizon, epsilon, kappa, i_star)
    return mean * phases[-1].cumulative - sum(p.plays**2 / (p.end - p.start) for p in phases)


def theorem5_bound(horizon, mean: float, epsilon: float, constant: float = 1.0):
    """Theorem 5 (δ = 1/T'²), with the free constant C of its O(·):
    C μ² T'^{p* + 4ε/3} ln(2T'²) ln(2T') (1 − T'^{−(1+ε)}) + (μ²/4)(T'^{−ε} + T'^{−1})."""
    T = np.asarray(horizon, dtype=float)
    p = 3.0 * np.log(1.0 / mean) / np.log(T)
    return constant * mean**2 * T ** (p + 4.0 * epsilon / 3.0) * np.log(2.0 * T**2) * np.log(
        2.0 * T
    ) * (1.0 - T ** (-(1.0 + epsilon))) + mean**2 / 4.0 * (T**-epsilon + 1.0 / T)


def eq20_bound(
    horizon: float, mean: float, epsilon: float, kappa: float, delta: float, i_star: int
) -> float:
    """Eq. 20's explicit high-probability bound (probability ≥ 1 − δ − T'^{1−ε}δ) with the
    realised i*: 2(κ ln T')² T'^{(i*+1)ε/3} + μ² T'^{(i*+1)ε}/4 + (ln(2/δ)/(4μ)) ln(T'/T'^{i*ε}).
    Its derivation needs T'^ε ≥ 2 (spec §5): a violation is reported, not asserted."""
    T = horizon
    return (
        2.0 * (kappa * math.log(T)) ** 2 * T ** ((i_star + 1) * epsilon / 3.0)
        + mean**2 * T ** ((i_star + 1) * epsilon) / 4.0
        + math.log(2.0 / delta) / (4.0 * mean) * math.log(T / T ** (i_star * epsilon))
    )


def theorem7_bound(mean, constant: float = 1.0):
    """Theorem 7 (μ < 1/4, unbiased estimators): regret ≥ Ω(1/μ), as C/μ."""
    return constant / np.asarray(mean, dtype=float)


# Spec §5's illustrative constant for Theorem 7 [R]: ln 2/(64e) ≈ 0.0040 (a sanity floor only).
THEOREM7_ILLUSTRATIVE_CONSTANT = math.log(2.0) / (64.0 * math.e)


def theorem8_bound(horizon, means, nu_m: float, constant: float = 1.0, tail_constant: float = 1.0):
    """Theorem 8 (δ = 1/T'²), as stated:
    C max{μ1 K ln T'/Δ², K² ln²T'/μ1, ln²T'/μ1} (1 − T'^{−1−ν_m})(1 − T'^{−2})
    + C₂ T' [1 − (1 − T'^{−1−ν_m})(1 − T'^{−2})]. (Its proof's eq. 33 has μ1 K² ln²T' for the
    second term; see :func:`theorem8_proof_terms`.)"""
    T = np.asarray(horizon, dtype=float)
    mu = np.sort(np.asarray(means, dtype=float))[::-1]
    k, gap = mu.size, mu[0] - mu[1]
    log_t = np.log(T)
    main = np.maximum(
        np.maximum(mu[0] * k * log_t / gap**2, k**2 * log_t**2 / mu[0]), log_t**2 / mu[0]
    )
    survive = (1.0 - T ** (-1.0 - nu_m)) * (1.0 - T**-2.0)
    return constant * main * survive + tail_constant * T * (1.0 - survive)


def theorem8_proof_terms(horizon: float, means) -> tuple[float, float]:
    """The second term of Theorem 8's max as stated (K² ln²T'/μ1) and as its proof's eq. 33 has
    it (μ1 K² ln²T'): an inconsistency the errata record."""
    mu = np.sort(np.asarray(means, dtype=float))[::-1]
    log_t = math.log(horizon)
    return mu.size**2 * log_t**2 / mu[0], mu[0] * mu.size**2 * log_t**2


def theorem9_bound(means, constant: float = 1.0) -> float:
    """Theorem 9's order, Ω(K μ1/Δ²) "when Δ is small", as C K μ1/Δ²."""
    mu = np.sort(np.asarray(means, dtype=float))[::-1]
    return constant * mu.size * mu[0] / (mu[0] - mu[1]) ** 2


def eq9_regret(means) -> float:
    """Eq. 9's explicit regret μ1² T'^{p1m} = 8 K μ2² ln(c12/8)/(μ1 Δ²), c12 = μ1²/μ2²:
    negative, i.e. vacuous, unless μ1/μ2 > 2√2."""
    mu = np.sort(np.asarray(means, dtype=float))[::-1]
    c12 = (mu[0] / mu[1]) ** 2
    return 8.0 * mu.size * mu[1] ** 2 * math.log(c12 / 8.0) / (mu[0] * (mu[0] - mu[1]) ** 2)


def bernoulli_kl(p: float, q: float) -> float:
    """D(Ber(p) ‖ Ber(q)) in nats."""

    def term(a, b):
        return 0.0 if a == 0.0 else a * math.log(a / b)

    return term(p, q) + term(1.0 - p, 1.0 - q)


def lemma18_holds(x: float, beta: float) -> bool:
    """Lemma 18's KL inequality D(Ber(x) ‖ Ber(x + β)) ≤ 8β²/ln 2 (stated for β ≤ 1/4); false
    for small x (spec §5: about x ≲ 0.045), where the KL is about β²/(2x(1 − x))."""
    return bernoulli_kl(x, x + beta) <= 8.0 * beta**2 / math.log(2.0)
