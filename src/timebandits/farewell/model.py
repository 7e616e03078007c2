"""The F2A environment (paper §2.1) and its exact quantities.

K macro-arms, D micro-arms. Pulling the pair (k, j) -- "macro-arm k, wait at most j time units" --
draws (V, τ) from Q_k, pays r = V·1[τ ≤ j] and consumes c = min(τ, j) time units. In every
experiment of the paper V and τ are given separately (V_k ~ Bernoulli(ν_k), τ_k with a pmf on
[D]); we sample them independently (spec §5 P9).

Closed forms (spec §1), with F_k(j) = P(τ_k ≤ j) and F_k(0) = 0:
    μ^r_{k,j} = ν_k·F_k(j),   μ^c_{k,j} = Σ_{m=0}^{j-1} (1 − F_k(m)),   g_{k,j} = μ^r/μ^c (eq. 2),
    g* = max g,  Δ_{k,j} = g* − g_{k,j}.
Pairs are also addressed by a flat index a = (k−1)·D + (j−1) (0-based arrays: a = k0·D + j0).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

PMF_TOLERANCE = 1e-9
# Ratios closer than this to g* count as optimal (ties such as Fig. 2a's five optimal pairs).
OPTIMALITY_TOLERANCE = 1e-12


@dataclass(frozen=True, eq=False)
class F2AProblem:
    """A Farewell-to-Arms instance: ``reward_prob[k]`` = ν_k, ``delay_pmf[k, d-1]`` = P(τ_k = d)."""

    reward_prob: np.ndarray
    delay_pmf: np.ndarray

    def __post_init__(self):
        nu = np.asarray(self.reward_prob, dtype=float)
        pmf = np.asarray(self.delay_pmf, dtype=float)
        if pmf.ndim == 1 and nu.size == 1:  # a single macro-arm may give its pmf as one list
            pmf = pmf[None, :]
        if nu.ndim != 1:
            raise ValueError(
                f"reward_prob must be a list (one probability per macro-arm), got shape {nu.shape}"
            )
        if pmf.ndim != 2 or pmf.shape[0] != nu.size:
            raise ValueError(
                f"need one delay pmf per macro-arm: {nu.size} reward "
                f"probabilities, delay_pmf of shape {pmf.shape}"
            )
        if not np.all(np.isfinite(nu)) or np.any((nu < 0) | (nu > 1)):
            raise ValueError(f"reward probabilities must lie in [0, 1], got {nu.tolist()}")
        if not np.all(np.isfinite(pmf)) or np.any(pmf < 0):
            raise ValueError("delay pmf entries must be finite and non-negative")
        sums = pmf.sum(axis=1)
        bad = np.flatnonzero(np.abs(sums - 1.0) > PMF_TOLERANCE)
        if bad.size:
            raise ValueError(
                f"delay pmf of macro-arm {bad[0] + 1} sums to {sums[bad[0]]:.12g}, not 1"
            )
        object.__setattr__(self, "reward_prob", nu)
        object.__setattr__(self, "delay_pmf", pmf / sums[:, None])

    @classmethod
    def from_config(cls, environment: dict) -> "F2AProblem":
        """Build from a paper-config environment
        ``{reward_prob: [...], delay_pmf: [[...], ...]}``."""
        return cls(environment["reward_prob"], environment["delay_pmf"])

    @property
    def K(self) -> int:
        return self.delay_pmf.shape[0]

    @property
    def D(self) -> int:
        return self.delay_pmf.shape[1]

    @cached_property
    def delay_cdf(self) -> np.ndarray:
        """F_k(d) for d = 1..D; the last column is exactly 1 so sampling never falls off the end."""
        cdf = np.cumsum(self.delay_pmf, axis=1)
        cdf[:, -1] = 1.0
        return cdf

    @cached_property
    def mean_reward(self) -> np.ndarray:
        """μ^r_{k,j} = ν_k·F_k(j)."""
        return self.reward_prob[:, None] * self.delay_cdf

    @cached_property
    def mean_cost(self) -> np.ndarray:
        """μ^c_{k,j} = E[min(τ_k, j)] = Σ_{m=0}^{j−1} P(τ_k > m)."""
        survival_before = np.hstack([np.ones((self.K, 1)), 1.0 - self.delay_cdf[:, :-1]])
        return np.cumsum(survival_before, axis=1)

    @cached_property
    def ratio(self) -> np.ndarray:
        """g_{k,j} = μ^r_{k,j} / μ^c_{k,j} (eq. 2): expected reward per unit of time."""
        return self.mean_reward / self.mean_cost

    @property
    def g_star(self) -> float:
        return float(self.ratio.max())

    @cached_property
    def gaps(self) -> np.ndarray:
        """Δ_{k,j} = g* − g_{k,j}, with exact zeros for the (possibly tied) optimal pairs."""
        gaps = self.g_star - self.ratio
        gaps[gaps <= OPTIMALITY_TOLERANCE] = 0.0
        return gaps

    @property
    def optimal_pairs(self) -> list[tuple[int, int]]:
        """1-based (k, j) of every pair with Δ = 0."""
        return [(int(k) + 1, int(j) + 1) for k, j in np.argwhere(self.gaps == 0.0)]

    @property
    def min_gap(self) -> float:
        """The smallest positive gap (the paper's "minimum gap Δ")."""
        positive = self.gaps[self.gaps > 0]
        return float(positive.min()) if positive.size else float("nan")

    def pair_label(self, a: int) -> str:
        k, j = divmod(int(a), self.D)
        return f"k{k + 1}_j{j + 1}"

    @property
    def pair_labels(self) -> list[str]:
        return [self.pair_label(a) for a in range(self.K * self.D)]

    def describe(self) -> dict:
        """The quantities to print next to a panel (spec §3): g*, optimal pairs, minimum gap."""
        return {
            "K": self.K,
            "D": self.D,
            "g_star": self.g_star,
            "optimal_pairs": self.optimal_pairs,
            "min_gap": self.min_gap,
        }
