"""The censored-resources environment (paper §2) and its exact quantities (§5, App. E–F).

n arms (0-based in code, "arm i" in labels is 1-based); arm i draws a pair (R, C) of a reward
R ∈ [0, 1] and a resource consumption C ≥ 0 from its joint law P_i^{(r,c)}. The learner picks an
arm and a limit τ from the grid M = {τ_1 < … < τ_K} (``grid``, τmax = τ_K) and sees (R, C) only
if C ≤ τ (eq. 1). With a cost c(x) = ``cost_slope``·x and a penalty
λ(x) = ``penalty_below``·x for x ≤ ``penalty_threshold``, ``penalty_above``·x above it, the
quality of a pair is its penalized expected gain (eq. 2)

    ν_{i,τ} = E[(R − c(C))·1{C ≤ τ}] − λ(τ)·P(C > τ)  =  gain − λ(τ)·censor_prob,

ν* = max ν (eq. 3) and Δ_{i,τ} = ν* − ν_{i,τ} (eq. 5). Every quantity is exact: closed forms
(``beta_exponential``), 1-D Gauss–Legendre quadrature of the conditional moments of R given
C = c (``truncated_gaussian``, absolute error far below 1e-8), or exact means over the records
(``pool``); nothing is estimated from simulations.

The families of laws and their exact moments are in families.py, the parsing of a config's
``environment`` in environment_config.py, the constructors from a config or from records
(``from_config``, ``from_records``) in problem_construction.py, the compiled sampler of the draws
in samplers.py.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from .environment_config import check_penalty, checked_grid, number
from .families import (
    BETA_EXPONENTIAL,
    FAMILY_NAMES,
    GAUSSIAN_JOINT,
    N_PARAMS,
    POOL,
    beta_exponential_gain_censor,
    gaussian_integrals,
    pool_gain_censor,
)
from .problem_construction import ProblemConstructors

# Pairs with Δ ≤ this count as optimal; the smallest gap is the smallest Δ above it.
OPTIMALITY_TOLERANCE = 1e-12


@dataclass(frozen=True, eq=False)
class CensoredProblem(ProblemConstructors):
    """A censored-resources instance (paper §2). Build it with ``from_config`` or
    ``from_records`` (its base, problem_construction.py); the fields are the compiled sampler's
    inputs plus grid, cost and penalty."""

    family_code: int
    arm_params: np.ndarray
    grid: np.ndarray
    cost_slope: float
    penalty_threshold: float
    penalty_below: float
    penalty_above: float
    pool_values: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    pool_offsets: np.ndarray | None = None

    def __post_init__(self):
        params = np.ascontiguousarray(self.arm_params, dtype=np.float64)
        if params.ndim != 2 or params.shape[0] < 1 or params.shape[1] != N_PARAMS:
            raise ValueError(f"arm_params: expected shape (n >= 1, {N_PARAMS}), got {params.shape}")
        if self.family_code not in FAMILY_NAMES:
            raise ValueError(f"family: unknown family code {self.family_code!r}")
        offsets = (
            np.zeros(params.shape[0] + 1, dtype=np.int64)
            if self.pool_offsets is None
            else np.ascontiguousarray(self.pool_offsets, dtype=np.int64)
        )
        object.__setattr__(self, "arm_params", params)
        object.__setattr__(self, "grid", checked_grid(self.grid))
        object.__setattr__(
            self,
            "pool_values",
            np.ascontiguousarray(self.pool_values, dtype=np.float64).reshape(-1, 2),
        )
        object.__setattr__(self, "pool_offsets", offsets)
        slope = number(self.cost_slope, "cost.slope")
        if slope < 0:
            raise ValueError(f"cost.slope: must be >= 0 (c is non-decreasing), got {slope}")
        object.__setattr__(self, "cost_slope", slope)
        check_penalty(self.penalty_threshold, self.penalty_below, self.penalty_above)

    # ---- sizes, cost and penalty ----------------------------------------------------------------

    @property
    def n(self) -> int:
        return self.arm_params.shape[0]

    @property
    def K(self) -> int:
        return self.grid.size

    @property
    def tau_max(self) -> float:
        return float(self.grid[-1])

    def penalty_at(self, x):
        """λ(x) = below·x for x ≤ threshold, above·x beyond it (§5.1; vectorised)."""
        x = np.asarray(x, dtype=float)
        return np.where(x <= self.penalty_threshold, self.penalty_below * x, self.penalty_above * x)

    @cached_property
    def penalty(self) -> np.ndarray:
        """λ(τ_k) for the grid, shape (K,)."""
        return self.penalty_at(self.grid)

    # ---- exact quantities at arbitrary limits ---------------------------------------------------

    def gain_at(self, arm: int, taus) -> np.ndarray:
        """g_{i,τ} = E[(R − c(C))·1{C ≤ τ}] (first term of eq. 2), vectorised over τ > 0."""
        return self._gain_censor(arm, taus)[0]

    def censor_prob_at(self, arm: int, taus) -> np.ndarray:
        """P(C > τ) = 1 − F_i^{(c)}(τ), vectorised over τ > 0."""
        return self._gain_censor(arm, taus)[1]

    def nu_at(self, arm: int, taus) -> np.ndarray:
        """ν_{i,τ} (eq. 2) for arbitrary τ ∈ (0, ∞), vectorised (z-RCUCB's continuous limits)."""
        taus = _checked_taus(taus)
        gain, censor = self._gain_censor(arm, taus)
        return gain - self.penalty_at(taus) * censor

    def _gain_censor(self, arm: int, taus) -> tuple[np.ndarray, np.ndarray]:
        if not 0 <= arm < self.n:
            raise ValueError(f"arm must be in 0..{self.n - 1}, got {arm}")
        taus = _checked_taus(taus)
        params = self.arm_params[arm]
        if self.family_code == BETA_EXPONENTIAL:
            return beta_exponential_gain_censor(params, self.cost_slope, taus)
        if self.family_code == POOL:
            rows = self.pool_values[self.pool_offsets[arm] : self.pool_offsets[arm + 1]]
            return pool_gain_censor(rows[:, 0], rows[:, 1], self.cost_slope, taus)
        c_upper = 1.0 if self.family_code == GAUSSIAN_JOINT else math.inf
        mass, reward, consumption = gaussian_integrals(params, c_upper, np.append(taus, math.inf))
        normaliser = mass[-1]  # the truncation region's mass
        gain = (reward[:-1] - self.cost_slope * consumption[:-1]) / normaliser
        return gain, (normaliser - mass[:-1]) / normaliser

    # ---- the grid tables ------------------------------------------------------------------------

    @cached_property
    def _tables(self) -> tuple[np.ndarray, np.ndarray]:
        rows = [self._gain_censor(i, self.grid) for i in range(self.n)]
        return np.array([g for g, _ in rows]), np.array([c for _, c in rows])

    @property
    def gain(self) -> np.ndarray:
        """g_{i,τ_k} = E[(R − c(C))·1{C ≤ τ_k}], shape (n, K)."""
        return self._tables[0]

    @property
    def censor_prob(self) -> np.ndarray:
        """P_i(C > τ_k), shape (n, K)."""
        return self._tables[1]

    @cached_property
    def nu(self) -> np.ndarray:
        """ν_{i,τ_k} = g − λ(τ_k)·P(C > τ_k) (eq. 2), shape (n, K)."""
        return self.gain - self.penalty[None, :] * self.censor_prob

    @property
    def nu_star(self) -> float:
        """ν* = max_{i,τ} ν_{i,τ} (eq. 3)."""
        return float(self.nu.max())

    @property
    def gaps(self) -> np.ndarray:
        """Δ_{i,τ} = ν* − ν_{i,τ} (eq. 5), shape (n, K)."""
        return self.nu_star - self.nu

    @property
    def optimal_pairs(self) -> list[tuple[int, int]]:
        """All (arm, grid index) with Δ ≤ OPTIMALITY_TOLERANCE (0-based; NegCorr has nine)."""
        return [(int(i), int(k)) for i, k in np.argwhere(self.gaps <= OPTIMALITY_TOLERANCE)]

    def continuous_optimum(self, points: int = 4001) -> tuple[float, int, float]:
        """(sup ν, arm, τ) over every arm and τ ∈ (0, τmax]: z-RCUCB's target (§4.1), not the
        grid's ν*. Per arm, ν on ``points`` equidistant limits plus λ's threshold, then a bounded
        scalar search between the neighbours of the best of them; the larger value is kept."""
        from scipy.optimize import minimize_scalar

        taus = np.linspace(self.tau_max / points, self.tau_max, points)
        if 0.0 < self.penalty_threshold < self.tau_max:
            taus = np.sort(np.append(taus, self.penalty_threshold))
        best = (-math.inf, -1, math.nan)
        for arm in range(self.n):
            values = self.nu_at(arm, taus)
            k = int(np.argmax(values))
            candidate = (float(values[k]), arm, float(taus[k]))
            low, high = taus[max(k - 1, 0)], taus[min(k + 1, taus.size - 1)]
            if high > low:
                search = minimize_scalar(
                    lambda x: -self.nu_at(arm, [x])[0],
                    bounds=(low, high),
                    method="bounded",
                    options={"xatol": 1e-10},
                )
                if -search.fun > candidate[0]:
                    candidate = (float(-search.fun), arm, float(search.x))
            best = max(best, candidate, key=lambda c: c[0])
        return best

    @property
    def smallest_gap(self) -> float:
        """The smallest Δ above OPTIMALITY_TOLERANCE (NaN if every pair is optimal)."""
        positive = self.gaps[self.gaps > OPTIMALITY_TOLERANCE]
        return float(positive.min()) if positive.size else math.nan


def problem_of(paper: dict, experiment: str) -> CensoredProblem:
    return CensoredProblem.from_config(paper["experiments"][experiment]["environment"])


def _checked_taus(taus) -> np.ndarray:
    taus = np.atleast_1d(np.asarray(taus, dtype=float))
    if taus.ndim != 1 or not np.all((taus > 0) & np.isfinite(taus)):
        raise ValueError(f"limits τ must be finite and > 0, got {taus}")
    return taus


def example1_problem(penalty: dict, grid=None) -> CensoredProblem:
    """Example 1's three arms (Figs. 1–2; distributions are the spec §4 replicator's proposal,
    not the paper's): truncated Gaussians on [0, 1]² with μ = (0.8, 0.8), (0.55, 0.45),
    (0.3, 0.2), Σ = 0.01·[[1, 0.5], [0.5, 1]]; c(x) = x/10 (Example 2); ``penalty`` in config
    form; ``grid`` defaults to the paper's grid M (inner rule, 10 limits in (0, 1])."""
    return CensoredProblem.from_config(
        {
            "family": "truncated_gaussian",
            "means": [[0.8, 0.8], [0.55, 0.45], [0.3, 0.2]],
            "variance": 0.01,
            "correlation": 0.5,
            "grid": grid if grid is not None else {"rule": "inner", "size": 10, "upper": 1.0},
            "cost": {"slope": 0.1},
            "penalty": penalty,
        }
    )
