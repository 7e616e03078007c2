"""The kernels w of the composite and anonymous feedback model of Wang, Wang & Huang (AAAI 2021),
§2 and §5 (model.py): a pull's total X_u is spread over later slots, X_u·w_τ falling due in slot
u + τ; for a random delay the whole total falls due at a fresh offset z_u ~ U{low..high}.

Kernels over offsets τ (spec §2.7; the paper's §5 cases):
  delay               all mass at z ~ U{low..high}, fresh per pull (z = 0 arrives in the same
                      slot, spec P3)
  bounded             uniform on τ = dmin … dmax − 1 (the paper's [t + dmin, t + dmax))
  linear_decreasing   w_τ = 2(d + 1 − τ)/(d(d + 1)), τ = 1..d
  linear_increasing   w_τ = 2τ/(d(d + 1)), τ = 1..d
  discounted          w_τ = (1 − γ)γ^{τ−1}, τ ≥ 1 (infinite)
  polynomial          w_τ = τ^{−γ}/ζ(γ), τ ≥ 1 (infinite)
  weights             any finite kernel w_1 … w_L given as a list (the general model of §2: the
                      weights must be ≥ 0 and sum to 1)
Exact quantities of a kernel: its weights, W(n) = Σ_{τ ≤ n} w_τ and W̄(d') = Σ_{τ ≥ d'} w_τ, the
mean offset Σ τ w_τ (``math.inf`` for polynomial γ ≤ 2) and its variance, what an algorithm is
told of it, and the sums over d' of W̄ that Theorem 1's d2 takes (model.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


def _zeta(s, q=None):
    """Riemann ζ(s), or Hurwitz ζ(s, q): scipy's, imported at first use (a figure job that
    imports this module need not load scipy)."""
    from scipy.special import zeta

    return zeta(s, q)


KERNELS = (
    "delay",
    "bounded",
    "linear_decreasing",
    "linear_increasing",
    "discounted",
    "polynomial",
    "weights",
)
# How far the weights of a ``weights`` kernel may sum from 1.
WEIGHTS_SUM_TOLERANCE = 1e-9
DELAY, DETERMINISTIC = 0, 1
# The polynomial d2 sums Σ W̄(d')² term by term up to this d', then adds its Euler–Maclaurin tail.
_EULER_MACLAURIN_START = 10_000
# The most a window sum of a truncated infinite kernel may lose (issue: "truncation with a stated
# error below 1e-12").
WINDOW_TRUNCATION_ERROR = 1e-12


def _checked_weights(weights) -> tuple[float, ...]:
    """The weights w_1 … w_L of a ``weights`` kernel, checked: numbers ≥ 0 summing to 1."""
    if (
        not isinstance(weights, list)
        or not weights
        or not all(isinstance(w, (int, float)) and not isinstance(w, bool) for w in weights)
    ):
        raise ValueError(f"kernel.weights must be a non-empty list of numbers, got {weights!r}")
    negative = [(tau, w) for tau, w in enumerate(weights, start=1) if w < 0]
    if negative:
        raise ValueError(f"kernel.weights must be >= 0, got w_τ < 0 at (τ, w_τ) = {negative}")
    if abs(math.fsum(weights) - 1.0) > WEIGHTS_SUM_TOLERANCE:
        raise ValueError(
            f"kernel.weights must sum to 1 (a pull's whole total is spread), "
            f"got sum {math.fsum(weights)!r}"
        )
    return tuple(float(w) for w in weights)


@dataclass(frozen=True)
class Kernel:
    """How one pull's total is spread over later slots (module docstring). ``params`` holds
    low/high (delay), dmin/dmax (bounded), d (linear), ratio (discounted), exponent
    (polynomial) or weights (w_1 … w_L)."""

    kind: str
    params: dict

    @classmethod
    def from_config(cls, spec: dict) -> "Kernel":
        if not isinstance(spec, dict) or spec.get("kind") not in KERNELS:
            raise ValueError(f"kernel.kind must be one of {KERNELS}, got {spec!r}")
        kind = spec["kind"]
        params = {key: value for key, value in spec.items() if key != "kind"}
        needed = {
            "delay": ("low", "high"),
            "bounded": ("dmin", "dmax"),
            "linear_decreasing": ("d",),
            "linear_increasing": ("d",),
            "discounted": ("ratio",),
            "polynomial": ("exponent",),
            "weights": ("weights",),
        }[kind]
        if sorted(params) != sorted(needed):
            raise ValueError(f"kernel {kind!r} takes exactly {needed}, got {sorted(params)}")
        integers = {
            "delay": ("low", "high"),
            "bounded": ("dmin", "dmax"),
            "linear_decreasing": ("d",),
            "linear_increasing": ("d",),
        }.get(kind, ())
        for key in integers:
            if isinstance(params[key], bool) or not isinstance(params[key], int):
                raise ValueError(f"kernel.{key} must be an integer, got {params[key]!r}")
        if kind == "delay" and not 0 <= params["low"] <= params["high"]:
            raise ValueError(f"kernel delay needs 0 <= low <= high, got {params}")
        if kind == "bounded" and not 1 <= params["dmin"] < params["dmax"]:
            raise ValueError(f"kernel bounded needs 1 <= dmin < dmax, got {params}")
        if kind.startswith("linear") and params["d"] < 1:
            raise ValueError(f"kernel.d must be >= 1, got {params['d']!r}")
        if kind == "discounted" and not 0 < params["ratio"] < 1:
            raise ValueError(f"kernel.ratio must lie in (0, 1), got {params['ratio']!r}")
        if kind == "polynomial" and not params["exponent"] > 1:
            raise ValueError(f"kernel.exponent must be > 1, got {params['exponent']!r}")
        if kind == "weights":
            params = {"weights": _checked_weights(params["weights"])}
        return cls(kind, params)

    @property
    def code(self) -> int:
        """DELAY (a random offset per pull) or DETERMINISTIC (a fixed spread)."""
        return DELAY if self.kind == "delay" else DETERMINISTIC

    @property
    def support(self) -> float:
        """The largest offset with mass (``math.inf`` for the infinite kernels)."""
        p = self.params
        return {
            "delay": lambda: p.get("high"),
            "bounded": lambda: p.get("dmax", 0) - 1,
            "linear_decreasing": lambda: p.get("d"),
            "linear_increasing": lambda: p.get("d"),
            "discounted": lambda: math.inf,
            "polynomial": lambda: math.inf,
            "weights": lambda: len(p.get("weights", ())),
        }[self.kind]()

    @property
    def window_reach(self) -> float:
        """How many slots back a window sum (environment.window_sum) looks for pulls that can
        still reach it: the support for the finite kernels; for the discounted kernel the
        smallest L with Σ_{n>L} W̄(n) = γ^L/(1 − γ) < 1e-12, so skipping older pulls changes any
        window sum by less than 1e-12 (L = 132 at γ = 0.8, 285 at γ = 0.9); ``math.inf`` for
        the polynomial kernel, whose window sums run exactly over every earlier pull."""
        if self.kind == "discounted":
            ratio = self.params["ratio"]
            return float(
                math.ceil(math.log(WINDOW_TRUNCATION_ERROR * (1.0 - ratio)) / math.log(ratio))
            )
        return self.support

    @property
    def interval_size(self) -> float:
        """The reward interval's size d as §5 gives it: high for a delay, dmax for the bounded
        interval [t + dmin, t + dmax), d for the linear kernels, L for given weights w_1 … w_L
        (``math.inf`` otherwise); what generalized ODAAF is told (spec §2.5)."""
        p = self.params
        return {
            "delay": p.get("high"),
            "bounded": p.get("dmax"),
            "linear_decreasing": p.get("d"),
            "linear_increasing": p.get("d"),
            "weights": len(p.get("weights", ())),
        }.get(self.kind, math.inf)

    def offset_variance(self) -> float:
        """Var of the offset under w (ODAAF-V's V(τ)): ((high − low + 1)² − 1)/12 for a delay,
        γ/(1 − γ)² discounted, ζ(γ−2)/ζ(γ) − mean² polynomial (``math.inf`` for γ ≤ 3), the finite
        sum otherwise."""
        p = self.params
        if self.kind == "delay":
            return ((p["high"] - p["low"] + 1) ** 2 - 1) / 12.0
        if self.kind == "discounted":
            return p["ratio"] / (1.0 - p["ratio"]) ** 2
        if self.kind == "polynomial":
            gamma = p["exponent"]
            if gamma <= 3:
                return math.inf
            return _zeta(gamma - 2) / _zeta(gamma) - self.mean_offset() ** 2
        tau = np.arange(int(self.support) + 1, dtype=float)
        w = self.weights(tau.size)
        return float(tau**2 @ w - (tau @ w) ** 2)

    def weights(self, size: int) -> np.ndarray:
        """w_τ for τ = 0 … size − 1 (for a delay, P(z = τ))."""
        tau = np.arange(size, dtype=float)
        p = self.params
        w = np.zeros(size)
        if self.kind == "delay":
            w[(tau >= p["low"]) & (tau <= p["high"])] = 1.0 / (p["high"] - p["low"] + 1)
        elif self.kind == "bounded":
            w[(tau >= p["dmin"]) & (tau < p["dmax"])] = 1.0 / (p["dmax"] - p["dmin"])
        elif self.kind == "linear_decreasing":
            inside = (tau >= 1) & (tau <= p["d"])
            w[inside] = 2.0 * (p["d"] + 1 - tau[inside]) / (p["d"] * (p["d"] + 1))
        elif self.kind == "linear_increasing":
            inside = (tau >= 1) & (tau <= p["d"])
            w[inside] = 2.0 * tau[inside] / (p["d"] * (p["d"] + 1))
        elif self.kind == "weights":
            given = np.asarray(p["weights"], dtype=float)[: max(size - 1, 0)]
            w[1 : 1 + given.size] = given
        elif self.kind == "discounted":
            # exp of a product, not a power: 10x faster over a 10^6-slot horizon
            w[1:] = (1.0 - p["ratio"]) * np.exp(math.log(p["ratio"]) * (tau[1:] - 1.0))
        else:
            w[1:] = tau[1:] ** -p["exponent"] / _zeta(p["exponent"])
        return w

    def cumulative(self, size: int) -> np.ndarray:
        """W(n) = Σ_{τ ≤ n} w_τ for n = 0 … size − 1: the share of a pull's total that has
        fallen due n slots after it. Exact within a horizon of ``size`` slots, so the infinite
        kernels need no truncation."""
        return np.cumsum(self.weights(size))

    def tail(self, start: np.ndarray) -> np.ndarray:
        """W̄(d') = Σ_{τ ≥ d'} w_τ = P(offset ≥ d') for integers d' ≥ 1, in closed form."""
        d = np.asarray(start, dtype=float)
        p = self.params
        if self.kind == "delay":
            return np.clip((p["high"] - d + 1) / (p["high"] - p["low"] + 1), 0.0, 1.0)
        if self.kind == "bounded":
            return np.clip(
                (p["dmax"] - np.maximum(d, p["dmin"])) / (p["dmax"] - p["dmin"]), 0.0, 1.0
            )
        if self.kind == "linear_decreasing":
            m = np.clip(p["d"] + 1 - d, 0.0, None)  # terms d' … d have weights m, m − 1, …, 1
            return m * (m + 1) / (p["d"] * (p["d"] + 1))
        if self.kind == "linear_increasing":
            low = np.maximum(d, 1.0)
            return np.clip(
                (p["d"] * (p["d"] + 1) - (low - 1) * low) / (p["d"] * (p["d"] + 1)), 0.0, 1.0
            )
        if self.kind == "weights":
            given = np.asarray(p["weights"], dtype=float)
            suffix = np.concatenate([np.cumsum(given[::-1])[::-1], [0.0]])  # W̄(1) … W̄(L+1)
            return suffix[np.clip(d.astype(int), 1, given.size + 1) - 1]
        if self.kind == "discounted":
            return p["ratio"] ** (d - 1.0)
        return _zeta(p["exponent"], d) / _zeta(p["exponent"])

    def mean_offset(self) -> float:
        """Σ τ w_τ (``math.inf`` for polynomial γ ≤ 2)."""
        p = self.params
        if self.kind == "delay":
            return (p["low"] + p["high"]) / 2.0
        if self.kind == "bounded":
            return (p["dmin"] + p["dmax"] - 1) / 2.0
        if self.kind == "linear_decreasing":
            return (p["d"] + 2) / 3.0
        if self.kind == "linear_increasing":
            return (2 * p["d"] + 1) / 3.0
        if self.kind == "weights":
            return float(np.arange(1, len(p["weights"]) + 1) @ np.asarray(p["weights"], float))
        if self.kind == "discounted":
            return 1.0 / (1.0 - p["ratio"])
        gamma = p["exponent"]
        return math.inf if gamma <= 2 else _zeta(gamma - 1) / _zeta(gamma)

    def squared_tail_sum(self, weight) -> float:
        """Σ_{d' ≥ 1} weight(W̄(d')), with ``weight`` a vectorised function of W̄ that is at most
        a constant times W̄² (the d2 sums). Finite kernels sum their support; the discounted
        kernel to 1e-17; the polynomial one term by term to d' = 10^4, then the Euler–Maclaurin
        tail ∫_M^∞ g − g(M)/2 − g'(M)/12 with g(q) = weight(W̄(q)) (the next term is below
        1e-20 there)."""
        if self.kind != "polynomial":
            last = (
                self.support
                if math.isfinite(self.support)
                else math.ceil(math.log(1e-17) / math.log(self.params["ratio"])) + 1
            )
            return float(np.sum(weight(self.tail(np.arange(1, int(last) + 1)))))
        gamma = self.params["exponent"]
        norm = _zeta(gamma)
        start = _EULER_MACLAURIN_START
        head = float(np.sum(weight(self.tail(np.arange(1, start + 1)))))

        def g(q):
            return float(weight(_zeta(gamma, q) / norm))

        def g_prime(q, step=1e-3):
            return (g(q + step) - g(q - step)) / (2 * step)

        from scipy.integrate import quad

        integral, _ = quad(g, start, np.inf, epsabs=1e-15, epsrel=1e-12, limit=200)
        return head + integral - g(start) / 2.0 - g_prime(start) / 12.0
