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

Families (spec §3):
* ``truncated_gaussian``: (R, C) ~ N(μ_i, Σ_i), Σ_i = σ·[[1, ρ_i], [ρ_i, 1]] (σ is the variance,
  ρ_i = 2·x_i·sqrt(1 − x_i²), eq. (35)), conditioned on [0, 1]² (``truncation: joint``, spec P4)
  or on R ∈ [0, 1], C ≥ 0 (``truncation: open_consumption``, the spec §8 sensitivity variant).
* ``beta_exponential``: R ~ Beta(a_i, b_i) independent of C ~ Exponential(rate_i) (Indep).
* ``pool``: the uniform law over arm i's recorded (R, C) pairs (Fig. 5, spec §5).

Draws for common random numbers come from ``sample_pull``, a compiled pure function of
(key, arm, pull) built on ``timebandits.core.sim.rng``: the j-th uniform of pull p of arm i is
``uniform(splitmix64(key, i), p·2^20 + j)``, so no two (arm, pull, attempt) share a counter.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from timebandits.core.sim.jit import njit
from timebandits.core.sim.rng import beta, splitmix64, uniform

GAUSSIAN_JOINT = 0
GAUSSIAN_OPEN = 1
BETA_EXPONENTIAL = 2
POOL = 3
FAMILY_NAMES = {GAUSSIAN_JOINT: "truncated_gaussian (joint)",
                GAUSSIAN_OPEN: "truncated_gaussian (open_consumption)",
                BETA_EXPONENTIAL: "beta_exponential", POOL: "pool"}

# Columns of ``arm_params``: Gaussians (μ_r, μ_c, sd, ρ, sqrt(1 − ρ²));
# Beta–Exponential (a, b, rate, 0, 0); pool: zeros.
N_PARAMS = 5
# Pairs with Δ ≤ this count as optimal; the smallest gap is the smallest Δ above it.
OPTIMALITY_TOLERANCE = 1e-12
# A Gaussian arm whose truncation region has less mass than this is refused (rejection sampling).
MIN_ACCEPTANCE = 1e-4
# Quadrature: the consumption density is integrated over μ_c ± TAIL_SDS·sd (the rest has mass
# < 1e-32), in panels no wider than the scale on which the integrand varies, with QUAD_NODES
# Gauss–Legendre nodes each.
TAIL_SDS = 12.0
QUAD_NODES = 16
_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(QUAD_NODES)
# Counter layout of sample_pull: pull p uses counters p·2^20 + j, j = 0 .. 2^20 − 1.
UNIFORMS_PER_PULL = 1 << 20

_COMMON_KEYS = ("family", "grid", "cost", "penalty")
# Optional for every family: Def. 3's 1/3-near-optimality dimension d of the instance, derived by
# hand, for Theorem 2's bound (theory.theorem2_for_problem); the simulation does not use it.
_COMMON_OPTIONAL = ("near_optimality_d",)
_FAMILY_KEYS = {  # (required, optional) beyond _COMMON_KEYS
    "truncated_gaussian": (("means", "variance"), ("correlation_x", "correlation", "truncation")),
    "beta_exponential": (("beta_a", "beta_b", "rate"), ("arms",)),
    "pool": (("pool",), ("time_unit",)),
}
_TRUNCATIONS = {"joint": GAUSSIAN_JOINT, "open_consumption": GAUSSIAN_OPEN}


@dataclass(frozen=True, eq=False)
class CensoredProblem:
    """A censored-resources instance (paper §2). Build it with ``from_config`` or
    ``from_records``; the fields are the compiled sampler's inputs plus grid, cost and penalty."""

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
        offsets = (np.zeros(params.shape[0] + 1, dtype=np.int64) if self.pool_offsets is None
                   else np.ascontiguousarray(self.pool_offsets, dtype=np.int64))
        object.__setattr__(self, "arm_params", params)
        object.__setattr__(self, "grid", _checked_grid(self.grid))
        object.__setattr__(self, "pool_values",
                           np.ascontiguousarray(self.pool_values, dtype=np.float64).reshape(-1, 2))
        object.__setattr__(self, "pool_offsets", offsets)
        slope = _number(self.cost_slope, "cost.slope")
        if slope < 0:
            raise ValueError(f"cost.slope: must be >= 0 (c is non-decreasing), got {slope}")
        object.__setattr__(self, "cost_slope", slope)
        _check_penalty(self.penalty_threshold, self.penalty_below, self.penalty_above)

    # ---- construction ---------------------------------------------------------------------------

    @classmethod
    def from_config(cls, environment: dict) -> "CensoredProblem":
        """Build from a paper-config environment (keys ``family``, ``grid``, ``cost``,
        ``penalty`` and the family's keys; module docstring). Raises ValueError whose message
        starts with the offending key."""
        if not isinstance(environment, dict):
            raise ValueError(f"environment: expected a mapping, got {environment!r}")
        family = environment.get("family")
        if family not in _FAMILY_KEYS:
            raise ValueError(f"family: unknown family {family!r} (expected truncated_gaussian, "
                             f"beta_exponential or pool)")
        required, optional = _FAMILY_KEYS[family]
        _check_keys(environment, "", _COMMON_KEYS + required, optional + _COMMON_OPTIONAL)
        if "near_optimality_d" in environment and not (
                _number(environment["near_optimality_d"], "near_optimality_d") >= 0):
            raise ValueError(f"near_optimality_d: must be >= 0, got "
                             f"{environment['near_optimality_d']!r}")
        if family == "pool":
            from .pool import load_pool_records  # only the pool needs pandas and the data file

            rewards, consumptions, calibration = load_pool_records(environment)
            return cls.from_records(rewards, consumptions, environment["grid"],
                                    environment["cost"], environment["penalty"],
                                    calibration=calibration)
        if family == "truncated_gaussian":
            code, params = _gaussian_params(environment)
        else:
            code, params = BETA_EXPONENTIAL, _beta_exponential_params(environment)
        threshold, below, above = _penalty_from_config(environment["penalty"])
        return cls(code, params, grid_from_config(environment["grid"]),
                   _cost_from_config(environment["cost"]), threshold, below, above)

    @classmethod
    def from_records(cls, rewards, consumptions, grid, cost, penalty,
                     calibration=None) -> "CensoredProblem":
        """The ``pool`` family: arm i's law is the uniform distribution over its records
        (``rewards[i][j]``, ``consumptions[i][j]``). ``grid``, ``cost`` and ``penalty`` take the
        config forms (``grid`` also a plain array; the ``iqr`` rule needs ``calibration``)."""
        if len(rewards) != len(consumptions) or not len(rewards):
            raise ValueError(f"records: need one reward and one consumption array per arm, got "
                             f"{len(rewards)} and {len(consumptions)}")
        blocks = []
        for i, (r, c) in enumerate(zip(rewards, consumptions)):
            r, c = np.asarray(r, dtype=float).ravel(), np.asarray(c, dtype=float).ravel()
            if r.size != c.size or r.size == 0:
                raise ValueError(f"records: arm {i + 1} needs equally many (>= 1) rewards and "
                                 f"consumptions, got {r.size} and {c.size}")
            if not (np.all(np.isfinite(r)) and np.all(np.isfinite(c)) and np.all(c >= 0)):
                raise ValueError(f"records: arm {i + 1} has non-finite values or a negative "
                                 f"consumption")
            blocks.append(np.column_stack([r, c]))
        offsets = np.concatenate([[0], np.cumsum([b.shape[0] for b in blocks])])
        threshold, below, above = _penalty_from_config(penalty)
        return cls(POOL, np.zeros((len(blocks), N_PARAMS)), grid_from_config(grid, calibration),
                   _cost_from_config(cost), threshold, below, above,
                   np.concatenate(blocks), offsets)

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
            return _beta_exponential_gain_censor(params, self.cost_slope, taus)
        if self.family_code == POOL:
            rows = self.pool_values[self.pool_offsets[arm]:self.pool_offsets[arm + 1]]
            return _pool_gain_censor(rows[:, 0], rows[:, 1], self.cost_slope, taus)
        c_upper = 1.0 if self.family_code == GAUSSIAN_JOINT else math.inf
        mass, reward, consumption = _gaussian_integrals(params, c_upper, np.append(taus, math.inf))
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
                search = minimize_scalar(lambda x: -self.nu_at(arm, [x])[0], bounds=(low, high),
                                         method="bounded", options={"xatol": 1e-10})
                if -search.fun > candidate[0]:
                    candidate = (float(-search.fun), arm, float(search.x))
            best = max(best, candidate, key=lambda c: c[0])
        return best

    @property
    def smallest_gap(self) -> float:
        """The smallest Δ above OPTIMALITY_TOLERANCE (NaN if every pair is optimal)."""
        positive = self.gaps[self.gaps > OPTIMALITY_TOLERANCE]
        return float(positive.min()) if positive.size else math.nan


# ---- config parsing ----------------------------------------------------------------------------

def grid_from_config(spec, calibration=None) -> np.ndarray:
    """The limits M from a config ``grid`` entry (spec §2.6): an explicit list; ``{rule: inner,
    size: K, upper: u}`` → linspace(0.1u, 0.9u, K) (the inferred rule, default for the paper's
    grids); ``{rule: literal, size: K, upper: u}`` → (k/K)·u, k = 1..K; ``{rule: iqr, size: K}``
    → linspace(Q1, Q3, K) of the ``calibration`` times (pool only)."""
    if not isinstance(spec, dict):
        if isinstance(spec, (str, bytes)) or np.ndim(spec) != 1:
            raise ValueError(f"grid: expected a list of limits or a mapping with a rule, "
                             f"got {spec!r}")
        return _checked_grid([_number(v, f"grid[{k}]") for k, v in enumerate(spec)])
    rule = spec.get("rule")
    if rule in ("inner", "literal"):
        _check_keys(spec, "grid.", ("rule", "size", "upper"), ())
        size, upper = _size(spec["size"]), _number(spec["upper"], "grid.upper")
        if upper <= 0:
            raise ValueError(f"grid.upper: must be > 0, got {upper}")
        if rule == "inner":
            return _checked_grid(np.linspace(0.1 * upper, 0.9 * upper, size))
        return _checked_grid(np.arange(1, size + 1) / size * upper)
    if rule == "iqr":
        _check_keys(spec, "grid.", ("rule", "size"), ())
        if calibration is None:
            raise ValueError("grid.rule: 'iqr' needs calibration times (pool family only)")
        q1, q3 = np.percentile(np.asarray(calibration, dtype=float), [25, 75])
        return _checked_grid(np.linspace(q1, q3, _size(spec["size"])))
    raise ValueError(f"grid.rule: unknown rule {rule!r} (expected inner, literal or iqr)")


def _checked_grid(values) -> np.ndarray:
    grid = np.asarray(values, dtype=float)
    if grid.ndim != 1 or grid.size == 0 or not np.all(np.isfinite(grid)):
        raise ValueError(f"grid: expected a non-empty list of finite limits, got {values!r}")
    if np.any(grid <= 0):
        raise ValueError(f"grid: limits must lie in (0, τmax], got {grid.tolist()}")
    if np.any(np.diff(grid) <= 0):
        raise ValueError(f"grid: must be strictly increasing, got {grid.tolist()}")
    return grid


def _size(value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"grid.size: must be a positive integer, got {value!r}")
    return int(value)


def _cost_from_config(spec) -> float:
    """``cost: {slope: s}`` → s (c(x) = s·x)."""
    _check_keys(spec, "cost.", ("slope",), ())
    return _number(spec["slope"], "cost.slope")


def _penalty_from_config(spec) -> tuple[float, float, float]:
    """``penalty: {threshold, below, above}`` → (threshold, below, above), checked."""
    _check_keys(spec, "penalty.", ("threshold", "below", "above"), ())
    values = (_number(spec["threshold"], "penalty.threshold", allow_inf=True),
              _number(spec["below"], "penalty.below"), _number(spec["above"], "penalty.above"))
    _check_penalty(*values)
    return values


def _check_penalty(threshold: float, below: float, above: float) -> None:
    """λ must be a non-decreasing map (0, ∞) → R+ (§2): below, above ≥ 0, threshold > 0, and
    above ≥ below when the threshold is finite (no downward jump at the threshold)."""
    if not threshold > 0:
        raise ValueError(f"penalty.threshold: must be > 0 (or .inf), got {threshold}")
    for key, value in (("below", below), ("above", above)):
        if not (math.isfinite(value) and value >= 0):
            raise ValueError(f"penalty.{key}: must be a finite number >= 0, got {value}")
    if math.isfinite(threshold) and above < below:
        raise ValueError(f"penalty: λ must be non-decreasing, but above = {above} < below = "
                         f"{below} makes it drop at the threshold {threshold}")


def _gaussian_params(environment: dict) -> tuple[int, np.ndarray]:
    """(family code, arm_params) of the truncated bivariate Gaussians (App. E, eq. 35)."""
    means = _means_from_config(environment["means"])
    n = means.shape[0]
    variance = _number(environment["variance"], "variance")
    if variance <= 0:
        raise ValueError(f"variance: must be > 0 (σ is the variance of each coordinate), "
                         f"got {variance}")
    has_x, has_rho = "correlation_x" in environment, "correlation" in environment
    if has_x == has_rho:
        raise ValueError("correlation_x: give exactly one of correlation_x (ρ = 2x·sqrt(1 − x²), "
                         "eq. 35) and correlation (ρ directly)")
    if has_x:
        key, x = "correlation_x", _per_arm(environment["correlation_x"], "correlation_x", n)
        if np.any(np.abs(x) > 1):
            raise ValueError(f"correlation_x: each x must satisfy |x| <= 1, got {x.tolist()}")
        rho = 2 * x * np.sqrt(1 - x ** 2)
    else:
        key, rho = "correlation", _per_arm(environment["correlation"], "correlation", n)
    if np.any(np.abs(rho) > 1 - 1e-9):
        raise ValueError(f"{key}: needs |ρ| < 1 (Σ singular otherwise), got ρ = {rho.tolist()}")
    truncation = environment.get("truncation", "joint")
    if truncation not in _TRUNCATIONS:
        raise ValueError(f"truncation: unknown truncation {truncation!r} "
                         f"(expected joint or open_consumption)")
    code = _TRUNCATIONS[truncation]
    sd = math.sqrt(variance)
    params = np.column_stack([means, np.full(n, sd), rho, np.sqrt(1 - rho ** 2)])
    c_upper = 1.0 if code == GAUSSIAN_JOINT else math.inf
    for i in range(n):
        mass = _gaussian_integrals(params[i], c_upper, np.array([math.inf]))[0][0]
        if mass < MIN_ACCEPTANCE:
            raise ValueError(f"means: arm {i + 1}'s Gaussian puts mass {mass:.3g} < "
                             f"{MIN_ACCEPTANCE} on the truncation region")
    return code, params


def _means_from_config(spec) -> np.ndarray:
    """``[[r, c], ...]`` or ``{rule: linear, n, reward: [a, b], consumption: [c, d]}`` →
    μ_i = (a + b·(i−1)/n, c + d·(i−1)/n), i = 1..n (App. F.2, F.3)."""
    if isinstance(spec, dict):
        if spec.get("rule") != "linear":
            raise ValueError(f"means.rule: unknown rule {spec.get('rule')!r} (expected linear)")
        _check_keys(spec, "means.", ("rule", "n", "reward", "consumption"), ())
        n = spec["n"]
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise ValueError(f"means.n: must be a positive integer, got {n!r}")
        steps = np.arange(n) / n
        columns = []
        for key in ("reward", "consumption"):
            pair = _numbers(spec[key], f"means.{key}")
            if pair.size != 2:
                raise ValueError(f"means.{key}: expected [intercept, slope], got {spec[key]!r}")
            columns.append(pair[0] + pair[1] * steps)
        return np.column_stack(columns)
    pairs = [_numbers(m, f"means[{i}]") for i, m in enumerate(_list(spec, "means"))]
    if not pairs or any(pair.size != 2 for pair in pairs):
        raise ValueError(f"means: expected a non-empty list of [reward, consumption] pairs, "
                         f"got {spec!r}")
    return np.array(pairs)


def _beta_exponential_params(environment: dict) -> np.ndarray:
    """arm_params (a, b, rate, 0, 0) of Indep (App. E): R ~ Beta(a, b) ⊥ C ~ Exp(rate)."""
    n = environment.get("arms")
    if n is not None and (isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1):
        raise ValueError(f"arms: must be a positive integer, got {n!r}")
    columns = []
    for key in ("beta_a", "beta_b", "rate"):
        values = _per_arm(environment[key], key, n)
        n = values.size
        if np.any(values <= 0):
            raise ValueError(f"{key}: must be > 0, got {values.tolist()}")
        columns.append(values)
    return np.column_stack(columns + [np.zeros(n), np.zeros(n)])


def _check_keys(spec, prefix: str, required, optional) -> None:
    """``spec`` must be a mapping with every ``required`` key and nothing outside ``optional``."""
    if not isinstance(spec, dict):
        raise ValueError(f"{prefix.rstrip('.') or 'environment'}: expected a mapping, got {spec!r}")
    for key in required:
        if key not in spec:
            raise ValueError(f"{prefix}{key}: missing")
    for key in spec:
        if key not in required and key not in optional:
            raise ValueError(f"{prefix}{key}: unknown key (allowed: "
                             f"{', '.join(tuple(required) + tuple(optional))})")


def _number(value, key: str, *, allow_inf: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{key}: expected a number, got {value!r}")
    value = float(value)
    if math.isnan(value) or (math.isinf(value) and not allow_inf):
        raise ValueError(f"{key}: must be finite, got {value}")
    return value


def _list(value, key: str) -> list:
    if not isinstance(value, (list, tuple, np.ndarray)):
        raise ValueError(f"{key}: expected a list, got {value!r}")
    return list(value)


def _numbers(value, key: str) -> np.ndarray:
    return np.array([_number(v, key) for v in _list(value, key)], dtype=float)


def _per_arm(value, key: str, n: int | None) -> np.ndarray:
    """One number per arm: a list of length n, or one number meaning "all n arms" (only when
    n is known)."""
    if isinstance(value, (list, tuple, np.ndarray)):
        values = _numbers(value, key)
        if values.size == 0 or (n is not None and values.size != n):
            raise ValueError(f"{key}: expected {n if n is not None else 'one value per arm'} "
                             f"values, got {values.size}")
        return values
    if n is None:
        raise ValueError(f"{key}: a single number needs the arm count 'arms: n'; "
                         f"otherwise give a list with one value per arm")
    return np.full(n, _number(value, key))


def _checked_taus(taus) -> np.ndarray:
    taus = np.atleast_1d(np.asarray(taus, dtype=float))
    if taus.ndim != 1 or not np.all((taus > 0) & np.isfinite(taus)):
        raise ValueError(f"limits τ must be finite and > 0, got {taus}")
    return taus


# ---- exact quantities per family ---------------------------------------------------------------

def _beta_exponential_gain_censor(params, cost_slope, taus):
    """Closed forms (spec §3): F(τ) = 1 − e^{−rτ}, E[C·1{C ≤ τ}] = (1 − e^{−rτ}(1 + rτ))/r,
    E[R·1{C ≤ τ}] = a/(a + b)·F(τ) by independence."""
    a, b, rate = params[0], params[1], params[2]
    survival = np.exp(-rate * taus)
    consumed = -(np.expm1(-rate * taus) + rate * taus * survival) / rate
    return a / (a + b) * (-np.expm1(-rate * taus)) - cost_slope * consumed, survival


def _pool_gain_censor(rewards, consumptions, cost_slope, taus):
    """Exact means over the records: mean((R − c(C))·1{C ≤ τ}) and mean(1{C > τ})."""
    order = np.argsort(consumptions, kind="stable")
    net = np.concatenate([[0.0], np.cumsum(rewards[order] - cost_slope * consumptions[order])])
    within = np.searchsorted(consumptions[order], taus, side="right")
    return net[within] / rewards.size, 1.0 - within / rewards.size


def _gaussian_integrals(params, c_upper: float, limits: np.ndarray):
    """For the untruncated N(μ, Σ) density: over C ∈ [0, min(τ, c_upper)] and R ∈ [0, 1],
        mass(τ) = ∫ f_C(c)·P(0 ≤ R ≤ 1 | c) dc,   reward(τ) = ∫ f_C(c)·E[R·1{0 ≤ R ≤ 1} | c] dc,
        consumption(τ) = ∫ c·f_C(c)·P(0 ≤ R ≤ 1 | c) dc,
    with R | C = c ~ N(μ_r + ρ(c − μ_c), sd²(1 − ρ²)) and its truncated-normal moments
    E[R·1{a ≤ R ≤ b}] = m·(Φ(β) − Φ(α)) + s·(φ(α) − φ(β)). Dividing by mass(∞) gives the
    moments of the truncated law. Composite Gauss–Legendre over μ_c ± TAIL_SDS·sd, in panels no
    wider than sd·min(1, sqrt(1 − ρ²)/|ρ|) (the scale of c ↦ P(0 ≤ R ≤ 1 | c))."""
    mu_r, mu_c, sd, rho, rho_bar = params[0], params[1], params[2], params[3], params[4]
    lo = max(0.0, mu_c - TAIL_SDS * sd)
    hi_all = min(c_upper, mu_c + TAIL_SDS * sd)
    zeros = np.zeros(limits.size)
    if hi_all <= lo:
        return zeros, zeros, zeros
    scale = sd * min(1.0, rho_bar / abs(rho)) if rho != 0 else sd
    panels = int(math.ceil((hi_all - lo) / scale)) + 1
    hi = np.clip(limits, lo, hi_all)
    edges = lo + (hi - lo)[:, None] * np.linspace(0.0, 1.0, panels + 1)[None, :]
    half = 0.5 * np.diff(edges, axis=1)[..., None]
    c = 0.5 * (edges[:, 1:] + edges[:, :-1])[..., None] + half * _GL_NODES
    weight = half * _GL_WEIGHTS * _phi((c - mu_c) / sd) / sd
    cond_mean, cond_sd = mu_r + rho * (c - mu_c), sd * rho_bar
    alpha, beta = -cond_mean / cond_sd, (1.0 - cond_mean) / cond_sd
    from scipy.special import ndtr

    inside = ndtr(beta) - ndtr(alpha)
    reward = cond_mean * inside + cond_sd * (_phi(alpha) - _phi(beta))
    return ((weight * inside).sum(axis=(1, 2)), (weight * reward).sum(axis=(1, 2)),
            (weight * c * inside).sum(axis=(1, 2)))


def _phi(x):
    return np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)


# ---- reporting ---------------------------------------------------------------------------------

def instances_row(name: str, grid_name: str, problem: CensoredProblem) -> dict:
    """One row of the ground-truth table (spec §3): optimal pairs (1-based arms, grouped by τ),
    ν*, P(C > τ*) of the optimal pair(s), smallest positive gap. Several optimal pairs with
    different P(C > τ*) (or τ*) are averaged and flagged in ``censored_prob_note``."""
    pairs = problem.optimal_pairs
    probs = np.array([problem.censor_prob[i, k] for i, k in pairs])
    taus = sorted({k for _, k in pairs})
    groups = [f"{_arm_label([i for i, k in pairs if k == kk])}, τ={problem.grid[kk]:.4g}"
              for kk in taus]
    notes = []
    if np.ptp(probs) > OPTIMALITY_TOLERANCE:
        notes.append(f"mean over {len(pairs)} optimal pairs with P(C > τ*) from "
                     f"{probs.min():.4f} to {probs.max():.4f}")
    if len(taus) > 1:
        notes.append("optimal pairs at several τ; tau_star is their mean")
    return {
        "instance": name, "grid": grid_name, "n": problem.n, "K": problem.K,
        "optimal_pairs": "; ".join(groups), "optimal_count": len(pairs),
        "tau_star": float(np.mean([problem.grid[k] for _, k in pairs])),
        "nu_star": problem.nu_star, "censored_prob_star": float(probs.mean()),
        "censored_prob_note": "; ".join(notes), "smallest_gap": problem.smallest_gap,
    }


def _arm_label(arms: list[int]) -> str:
    """0-based arms → "arm 1" / "arms 2–10" / "arms 1, 3" (1-based, consecutive runs joined)."""
    labels = [i + 1 for i in sorted(arms)]
    if len(labels) == 1:
        return f"arm {labels[0]}"
    if labels == list(range(labels[0], labels[-1] + 1)):
        return f"arms {labels[0]}–{labels[-1]}"
    return "arms " + ", ".join(str(a) for a in labels)


def example1_problem(penalty: dict, grid=None) -> CensoredProblem:
    """Example 1's three arms (Figs. 1–2; distributions are the spec §4 replicator's proposal,
    not the paper's): truncated Gaussians on [0, 1]² with μ = (0.8, 0.8), (0.55, 0.45),
    (0.3, 0.2), Σ = 0.01·[[1, 0.5], [0.5, 1]]; c(x) = x/10 (Example 2); ``penalty`` in config
    form; ``grid`` defaults to the paper's grid M (inner rule, 10 limits in (0, 1])."""
    return CensoredProblem.from_config({
        "family": "truncated_gaussian", "means": [[0.8, 0.8], [0.55, 0.45], [0.3, 0.2]],
        "variance": 0.01, "correlation": 0.5,
        "grid": grid if grid is not None else {"rule": "inner", "size": 10, "upper": 1.0},
        "cost": {"slope": 0.1}, "penalty": penalty,
    })


# ---- compiled sampler --------------------------------------------------------------------------

@njit(cache=True)
def sample_pull(family, arm_params, pool_values, pool_offsets, key, arm, pull):
    """(R, C) of the `pull`-th pull (0-based) of arm `arm`: a pure function of (key, arm, pull)."""
    arm_key = splitmix64(np.uint64(key), arm)
    base = np.uint64(pull) * np.uint64(UNIFORMS_PER_PULL)
    if family == POOL:
        start, count = pool_offsets[arm], pool_offsets[arm + 1] - pool_offsets[arm]
        row = start + min(int(uniform(arm_key, base) * count), count - 1)
        return pool_values[row, 0], pool_values[row, 1]
    if family == BETA_EXPONENTIAL:
        consumption = -math.log1p(-uniform(arm_key, base)) / arm_params[arm, 2]
        reward, _ = beta(arm_params[arm, 0], arm_params[arm, 1], arm_key, base + np.uint64(1))
        return reward, consumption
    c_upper = 1.0 if family == GAUSSIAN_JOINT else np.inf
    mu_r, mu_c, sd = arm_params[arm, 0], arm_params[arm, 1], arm_params[arm, 2]
    rho, rho_bar = arm_params[arm, 3], arm_params[arm, 4]
    j = 0
    while j + 1 < UNIFORMS_PER_PULL:  # rejection: a N(μ, Σ) pair until it lies in the region
        z1, z2 = _box_muller(uniform(arm_key, base + np.uint64(j)),
                             uniform(arm_key, base + np.uint64(j + 1)))
        j += 2
        reward = mu_r + sd * z1
        consumption = mu_c + sd * (rho * z1 + rho_bar * z2)
        if 0.0 <= reward <= 1.0 and 0.0 <= consumption <= c_upper:
            return reward, consumption
    raise RuntimeError("sample_pull: rejection sampling ran out of counters")


@njit(cache=True)
def _box_muller(u1, u2):
    """Two independent standard normals from two uniforms in [0, 1)."""
    radius = math.sqrt(-2.0 * math.log1p(-u1))
    return radius * math.cos(2.0 * math.pi * u2), radius * math.sin(2.0 * math.pi * u2)


@njit(cache=True)
def _sample_many(family, arm_params, pool_values, pool_offsets, key, arm, pulls):
    rewards = np.empty(pulls.size)
    consumptions = np.empty(pulls.size)
    for t in range(pulls.size):
        rewards[t], consumptions[t] = sample_pull(family, arm_params, pool_values, pool_offsets,
                                                  key, arm, pulls[t])
    return rewards, consumptions


def sample_many(problem: CensoredProblem, key, arm: int, pulls) -> tuple[np.ndarray, np.ndarray]:
    """(R, C) arrays of the given pulls of ``arm`` (an array of 0-based pull indices, or a count
    meaning pulls 0..count−1) under ``key``: the same draws ``sample_pull`` gives one by one."""
    pulls = np.arange(pulls) if np.ndim(pulls) == 0 else np.asarray(pulls)
    return _sample_many(problem.family_code, problem.arm_params, problem.pool_values,
                        problem.pool_offsets, np.uint64(key), int(arm),
                        pulls.astype(np.int64))
