"""The composite and anonymous feedback model of Wang, Wang & Huang (AAAI 2021), §2 and §5.

N arms with expected totals s_1 > s_2 ≥ … ≥ s_N. Pulling arm i in slot u draws its total
X_u ~ Bernoulli(s_i) (spec P4: the paper states only expectations) and spreads it over later
slots by a kernel w: X_u·w_τ falls due in slot u + τ. For a random delay the whole total falls
due at a fresh offset z_u ~ U{low..high}. The learner sees only the aggregate Y(t) of what falls
due in slot t (``feedback.window_sum``).

The kernels w and their exact quantities are spread_kernel.py's. Instance constants (Theorem 1;
spec Table T1), exact: the mean offset Σ τ w_τ,
d1 = Σ_{d'≥1} max_i E[Σ_{τ≥d'} r_{i,τ}] and d2 = Σ_{d'≥1} max_i Var[Σ_{τ≥d'} r_{i,τ}], with
``math.inf`` where a sum diverges (polynomial γ ≤ 2 for the mean and d1).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .spread_kernel import Kernel


@dataclass(frozen=True)
class AnonymousProblem:
    """Arms' expected totals ``means`` (s_1 the largest) and the kernel that spreads them."""

    means: np.ndarray
    kernel: Kernel

    @classmethod
    def from_config(cls, environment: dict) -> "AnonymousProblem":
        means = environment.get("means")
        if (
            not isinstance(means, list)
            or len(means) < 2
            or not all(isinstance(m, (int, float)) and 0 <= m <= 1 for m in means)
        ):
            raise ValueError(f"means must be a list of at least 2 numbers in [0, 1], got {means!r}")
        if sorted(means, reverse=True)[0] == sorted(means, reverse=True)[1]:
            raise ValueError(f"means must have a unique largest value, got {means!r}")
        return cls(np.asarray(means, dtype=float), Kernel.from_config(environment.get("kernel")))

    @property
    def gaps(self) -> np.ndarray:
        """Δ_i = s_1 − s_i."""
        return self.means.max() - self.means

    def d1(self) -> float:
        """Σ_{d'≥1} max_i E[Σ_{τ≥d'} r_{i,τ}] = s_1·(mean offset) (Theorem 1)."""
        return float(self.means.max() * self.kernel.mean_offset())

    def d2(self) -> float:
        """Σ_{d'≥1} max_i Var[Σ_{τ≥d'} r_{i,τ}] (Theorem 1). For a fixed spread the late part is
        X·W̄(d'), variance s_i(1 − s_i)W̄²; for a delay it is Bernoulli(s_i·P(z ≥ d'))."""
        s = self.means
        if self.kernel.kind == "delay":

            def weight(q):
                x = np.multiply.outer(np.atleast_1d(q), s)
                return (x * (1.0 - x)).max(axis=-1)
        else:
            spread = float((s * (1.0 - s)).max())

            def weight(q):
                return spread * np.square(q)

        return self.kernel.squared_tail_sum(weight)

    def mean_offset(self) -> float:
        return self.kernel.mean_offset()


def problem_of(paper: dict, experiment: str) -> AnonymousProblem:
    """The problem of a composite anonymous experiment of the paper's config."""
    return AnonymousProblem.from_config(paper["experiments"][experiment]["environment"])
