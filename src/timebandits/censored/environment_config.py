"""The ``environment`` entry of a paper config for the censored-resources environment (spec
§2.6, §3; model.py): keys per family, the limit grid M, the cost c and the penalty λ, and the
arm parameters of the Gaussian and Beta–Exponential families. Every ValueError starts with the
offending key."""

from __future__ import annotations

import math

import numpy as np

from .families import GAUSSIAN_JOINT, GAUSSIAN_OPEN, gaussian_integrals

# A Gaussian arm whose truncation region has less mass than this is refused (rejection sampling).
MIN_ACCEPTANCE = 1e-4

COMMON_KEYS = ("family", "grid", "cost", "penalty")
# Optional for every family: Def. 3's 1/3-near-optimality dimension d of the instance, derived by
# hand, for Theorem 2's bound (theorem2.py, analysis.theorem2_parameters); the simulation does
# not use it.
COMMON_OPTIONAL = ("near_optimality_d",)
FAMILY_KEYS = {  # (required, optional) beyond COMMON_KEYS
    "truncated_gaussian": (("means", "variance"), ("correlation_x", "correlation", "truncation")),
    "beta_exponential": (("beta_a", "beta_b", "rate"), ("arms",)),
    "pool": (("pool",), ("time_unit",)),
}
_TRUNCATIONS = {"joint": GAUSSIAN_JOINT, "open_consumption": GAUSSIAN_OPEN}


def grid_from_config(spec, calibration=None) -> np.ndarray:
    """The limits M from a config ``grid`` entry (spec §2.6): an explicit list; ``{rule: inner,
    size: K, upper: u}`` → linspace(0.1u, 0.9u, K) (the inferred rule, default for the paper's
    grids); ``{rule: literal, size: K, upper: u}`` → (k/K)·u, k = 1..K; ``{rule: iqr, size: K}``
    → linspace(Q1, Q3, K) of the ``calibration`` times (pool only)."""
    if not isinstance(spec, dict):
        if isinstance(spec, (str, bytes)) or np.ndim(spec) != 1:
            raise ValueError(
                f"grid: expected a list of limits or a mapping with a rule, got {spec!r}"
            )
        return checked_grid([number(v, f"grid[{k}]") for k, v in enumerate(spec)])
    rule = spec.get("rule")
    if rule in ("inner", "literal"):
        check_keys(spec, "grid.", ("rule", "size", "upper"), ())
        size, upper = _size(spec["size"]), number(spec["upper"], "grid.upper")
        if upper <= 0:
            raise ValueError(f"grid.upper: must be > 0, got {upper}")
        if rule == "inner":
            return checked_grid(np.linspace(0.1 * upper, 0.9 * upper, size))
        return checked_grid(np.arange(1, size + 1) / size * upper)
    if rule == "iqr":
        check_keys(spec, "grid.", ("rule", "size"), ())
        if calibration is None:
            raise ValueError("grid.rule: 'iqr' needs calibration times (pool family only)")
        q1, q3 = np.percentile(np.asarray(calibration, dtype=float), [25, 75])
        return checked_grid(np.linspace(q1, q3, _size(spec["size"])))
    raise ValueError(f"grid.rule: unknown rule {rule!r} (expected inner, literal or iqr)")


def checked_grid(values) -> np.ndarray:
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


def cost_from_config(spec) -> float:
    """``cost: {slope: s}`` → s (c(x) = s·x)."""
    check_keys(spec, "cost.", ("slope",), ())
    return number(spec["slope"], "cost.slope")


def penalty_from_config(spec) -> tuple[float, float, float]:
    """``penalty: {threshold, below, above}`` → (threshold, below, above), checked."""
    check_keys(spec, "penalty.", ("threshold", "below", "above"), ())
    values = (
        number(spec["threshold"], "penalty.threshold", allow_inf=True),
        number(spec["below"], "penalty.below"),
        number(spec["above"], "penalty.above"),
    )
    check_penalty(*values)
    return values


def check_penalty(threshold: float, below: float, above: float) -> None:
    """λ must be a non-decreasing map (0, ∞) → R+ (§2): below, above ≥ 0, threshold > 0, and
    above ≥ below when the threshold is finite (no downward jump at the threshold)."""
    if not threshold > 0:
        raise ValueError(f"penalty.threshold: must be > 0 (or .inf), got {threshold}")
    for key, value in (("below", below), ("above", above)):
        if not (math.isfinite(value) and value >= 0):
            raise ValueError(f"penalty.{key}: must be a finite number >= 0, got {value}")
    if math.isfinite(threshold) and above < below:
        raise ValueError(
            f"penalty: λ must be non-decreasing, but above = {above} < below = "
            f"{below} makes it drop at the threshold {threshold}"
        )


def gaussian_params(environment: dict) -> tuple[int, np.ndarray]:
    """(family code, arm_params) of the truncated bivariate Gaussians (App. E, eq. 35)."""
    means = _means_from_config(environment["means"])
    n = means.shape[0]
    variance = number(environment["variance"], "variance")
    if variance <= 0:
        raise ValueError(
            f"variance: must be > 0 (σ is the variance of each coordinate), got {variance}"
        )
    has_x, has_rho = "correlation_x" in environment, "correlation" in environment
    if has_x == has_rho:
        raise ValueError(
            "correlation_x: give exactly one of correlation_x (ρ = 2x·sqrt(1 − x²), "
            "eq. 35) and correlation (ρ directly)"
        )
    if has_x:
        key, x = "correlation_x", _per_arm(environment["correlation_x"], "correlation_x", n)
        if np.any(np.abs(x) > 1):
            raise ValueError(f"correlation_x: each x must satisfy |x| <= 1, got {x.tolist()}")
        rho = 2 * x * np.sqrt(1 - x**2)
    else:
        key, rho = "correlation", _per_arm(environment["correlation"], "correlation", n)
    if np.any(np.abs(rho) > 1 - 1e-9):
        raise ValueError(f"{key}: needs |ρ| < 1 (Σ singular otherwise), got ρ = {rho.tolist()}")
    truncation = environment.get("truncation", "joint")
    if truncation not in _TRUNCATIONS:
        raise ValueError(
            f"truncation: unknown truncation {truncation!r} (expected joint or open_consumption)"
        )
    code = _TRUNCATIONS[truncation]
    sd = math.sqrt(variance)
    params = np.column_stack([means, np.full(n, sd), rho, np.sqrt(1 - rho**2)])
    c_upper = 1.0 if code == GAUSSIAN_JOINT else math.inf
    for i in range(n):
        mass = gaussian_integrals(params[i], c_upper, np.array([math.inf]))[0][0]
        if mass < MIN_ACCEPTANCE:
            raise ValueError(
                f"means: arm {i + 1}'s Gaussian puts mass {mass:.3g} < "
                f"{MIN_ACCEPTANCE} on the truncation region"
            )
    return code, params


def _means_from_config(spec) -> np.ndarray:
    """``[[r, c], ...]`` or ``{rule: linear, n, reward: [a, b], consumption: [c, d]}`` →
    μ_i = (a + b·(i−1)/n, c + d·(i−1)/n), i = 1..n (App. F.2, F.3)."""
    if isinstance(spec, dict):
        if spec.get("rule") != "linear":
            raise ValueError(f"means.rule: unknown rule {spec.get('rule')!r} (expected linear)")
        check_keys(spec, "means.", ("rule", "n", "reward", "consumption"), ())
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
        raise ValueError(
            f"means: expected a non-empty list of [reward, consumption] pairs, got {spec!r}"
        )
    return np.array(pairs)


def beta_exponential_params(environment: dict) -> np.ndarray:
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


def check_keys(spec, prefix: str, required, optional) -> None:
    """``spec`` must be a mapping with every ``required`` key and nothing outside ``optional``."""
    if not isinstance(spec, dict):
        raise ValueError(f"{prefix.rstrip('.') or 'environment'}: expected a mapping, got {spec!r}")
    for key in required:
        if key not in spec:
            raise ValueError(f"{prefix}{key}: missing")
    for key in spec:
        if key not in required and key not in optional:
            raise ValueError(
                f"{prefix}{key}: unknown key (allowed: "
                f"{', '.join(tuple(required) + tuple(optional))})"
            )


def number(value, key: str, *, allow_inf: bool = False) -> float:
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
    return np.array([number(v, key) for v in _list(value, key)], dtype=float)


def _per_arm(value, key: str, n: int | None) -> np.ndarray:
    """One number per arm: a list of length n, or one number meaning "all n arms" (only when
    n is known)."""
    if isinstance(value, (list, tuple, np.ndarray)):
        values = _numbers(value, key)
        if values.size == 0 or (n is not None and values.size != n):
            raise ValueError(
                f"{key}: expected {n if n is not None else 'one value per arm'} "
                f"values, got {values.size}"
            )
        return values
    if n is None:
        raise ValueError(
            f"{key}: a single number needs the arm count 'arms: n'; "
            f"otherwise give a list with one value per arm"
        )
    return np.full(n, number(value, key))
