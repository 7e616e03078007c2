"""The continuous-time bandit with sampling costs of Vaze & Hanawal (arXiv 2107.05289, §2), in
normalised units.

K Bernoulli arms of means μ[1] > … > μ[K]; a learner picks play instants 0 = t_0 < t_1 < … ≤ T
and an arm at each; play i earns, in expectation, p_i = μ[k(t_i)] − λ f(Δt_i) with f(x) = 1/x and
Δt_i = t_i − t_{i−1} (eq. 1). By Remark 3 only T/λ matters: a schedule with gaps λ·Δt at cost
weight λ earns exactly what the gaps Δt earn at λ = 1. Everything here is at λ = 1 over the
horizon T' = T/λ (``normalised_horizon``); a raw time is λ times a normalised one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


def normalised_horizon(horizon: float, lam: float) -> float:
    """T' = T/λ (Remark 3), the only horizon the algorithms and bounds see."""
    if not (lam > 0 and math.isfinite(lam)):
        raise ValueError(f"lambda must be a positive number, got {lam!r}")
    if not (horizon > 0 and math.isfinite(horizon)):
        raise ValueError(f"the horizon T must be a positive number, got {horizon!r}")
    return horizon / lam


def schedule_payoff(times, arms, means) -> float:
    """Σ_i (μ[k(t_i)] − 1/Δt_i) of an explicit schedule (eq. 1 at λ = 1), t_0 = 0."""
    times = np.asarray(times, dtype=float)
    gaps = np.diff(np.concatenate([[0.0], times]))
    if times.size and gaps.min() <= 0:
        raise ValueError("play instants must be strictly increasing and positive")
    return float(np.sum(np.asarray(means, dtype=float)[np.asarray(arms)]) - np.sum(1.0 / gaps))


def equal_spacing_payoff(mean: float, plays: int, length: float) -> float:
    """μ n − n²/L: n plays of an arm of mean μ spread equally over a window of length L whose
    previous play sits at the window's start (Prop. 1: the cheapest way to fit n plays in L)."""
    return mean * plays - plays * plays / length


def window_regret(mean: float, plays: int, length: float) -> float:
    """The oracle's payoff over a window of length L, μ²L/4, minus that of n equally spaced
    plays: (L/4)(μ − 2n/L)² (Lemma 19, eq. 24; eq. 16 when n = μ̂L/2)."""
    return 0.25 * length * (mean - 2.0 * plays / length) ** 2


@dataclass(frozen=True)
class Oracle:
    """The oracle of Props. 1–2 on [0, T']: ``plays`` = N* equally spaced plays of the best arm,
    ``spacing`` = T'/N*, ``payoff`` = μ1 N* − N*²/T'. ``continuous_payoff`` = μ1²T'/4 is its value
    when N* = μ1T'/2 is allowed to be fractional."""

    plays: int
    spacing: float
    payoff: float
    continuous_payoff: float

    def payoff_until(self, t) -> np.ndarray:
        """Cumulative payoff of the plays at or before time(s) t (a staircase)."""
        done = np.minimum(np.floor(np.asarray(t, dtype=float) / self.spacing + 1e-12), self.plays)
        return done * (self.payoff / self.plays if self.plays else 0.0)


def oracle(best_mean: float, horizon: float) -> Oracle:
    """Props. 1–2 with footnote 3: N* = μ1 T'/2 when that is an integer, else whichever of its
    floor and ceiling earns more (μ1 N − N²/T')."""
    if not 0 < best_mean < 1:
        raise ValueError(f"the best mean must lie in (0, 1), got {best_mean!r}")
    ideal = best_mean * horizon / 2.0
    candidates = {max(int(math.floor(ideal)), 0), int(math.ceil(ideal))}
    plays = max(candidates, key=lambda n: (equal_spacing_payoff(best_mean, n, horizon), -n))
    payoff = equal_spacing_payoff(best_mean, plays, horizon)
    return Oracle(
        plays, horizon / plays if plays else math.inf, payoff, best_mean * best_mean * horizon / 4.0
    )


def baseline_payoff(rate: float, best_mean: float, horizon: float) -> float:
    """A baseline that plays the best arm at the fixed normalised rate a (spacing 1/a, aT' plays)
    earns aT'(μ1 − a) (Sec. 5, App. P); the paper's raw rate a/λ gives the same payoff. Exact when
    aT' is an integer, as for every rate and horizon of the paper's figures."""
    if not rate > 0:
        raise ValueError(f"a baseline rate must be > 0, got {rate!r}")
    return rate * horizon * (best_mean - rate)


def optimal_interval(mean: float, lam: float, cost, cost_slope, bracket=(1e-12, 1e12)) -> float:
    """The spacing d* that maximises the payoff rate (μ − λ f(d))/d for a convex decreasing f
    (Remark 21): the root of λ(f(d) − d f'(d)) = μ, by bisection on a log scale. f(x) = 1/x gives
    d* = 2λ/μ; f(x) = x^−β gives ((1 + β)λ/μ)^{1/β}."""

    def excess(d):
        return lam * (cost(d) - d * cost_slope(d)) - mean

    low, high = bracket
    if excess(low) <= 0 or excess(high) >= 0:
        raise ValueError("the first-order condition has no root in the bracket")
    for _ in range(200):
        middle = math.sqrt(low * high)
        if excess(middle) > 0:
            low = middle
        else:
            high = middle
    return math.sqrt(low * high)
