r"""Exact Binomial(n, p) draws from the counter-based uniforms of :mod:`timebandits.core.sim.rng`,
for kernels that simulate a window of n Bernoulli plays in one draw (continuous' CTSAB and CTMAB).

A draw takes the counter of its first uniform and returns ``(x, next counter)``. With
μ = n·min(p, 1 − p):

- **n ≤** ``BINOMIAL_DIRECT``: the uniforms below p are counted, one per trial.
- **μ < 10**: BINV, inversion by sequential search (Kachitvichyanukul & Schmeiser, *Binomial
  random variate generation*, CACM 31(2), 1988): one uniform U, and x the first k with
  U < Σ_{j≤k} f(j), the terms from f(0) = q^n and f(k) = f(k − 1)·((n + 1)s/k − s), s = p/q.
  Rounding can carry the search past n (probability about 1e-16); then a new uniform is drawn.
- **μ ≥ 10**: BTRS, transformed rejection with squeeze (Hörmann, *The generation of binomial
  random variates*, J. Stat. Comput. Simul. 46, 1993, algorithm BTRS). A try takes two uniforms,
  U ∈ [−1/2, 1/2) and V; with u_s = 1/2 − |U| the candidate is

  .. math:: k = \lfloor (2a/u_s + b)\,U + c \rfloor,

  accepted at once when u_s ≥ 0.07 and V ≤ v_r (the squeeze, about 86% of tries), otherwise
  when :math:`\ln(V\alpha/(a/u_s^2 + b)) \le \ln f(k) - \ln f(m)`, m = ⌊(n + 1)p⌋, with

  .. math::

      \ln\frac{f(k)}{f(m)} = (n + 1)\ln\frac{n - m + 1}{n - k + 1}
        + (k + \tfrac12)\ln\frac{(n - k + 1)\,r}{k + 1}
        - (m + \tfrac12)\ln\frac{(n - m + 1)\,r}{m + 1}
        + f_c(m) + f_c(n - m) - f_c(k) - f_c(n - k),

  r = p/q, f_c(j) = ln j! − [ln √(2π) + (j + ½) ln(j + 1) − (j + 1)] the Stirling remainder
  (exact below 10, its series 1/12 − … in 1/(j + 1) from 10 on: error below 3·10^-11). The
  constants are Hörmann's: b = 1.15 + 2.53√(μq), a = −0.0873 + 0.0248b + 0.01p, c = np + ½,
  α = (2.83 + 5.1/b)√(μq), v_r = 0.92 − 4.2/b. About 1.15 tries per draw.

p > 1/2 draws n − Binomial(n, 1 − p) on the two large-n paths. Beyond n = 16 a draw costs 30–75 ns
whatever n (it grew with n under the order-statistic recursion used before, Devroye 1986,
§X.4.3: 150–800 ns from n = 100 to 10^6).
"""

from __future__ import annotations

import math

import numpy as np

from timebandits.core.sim.jit import njit
from timebandits.core.sim.rng import uniform

# Up to this many trials a draw counts the uniforms below p.
BINOMIAL_DIRECT = 16
# From this mean min(p, 1 − p)·n on, BTRS; below it, BINV (Hörmann's and most libraries' split).
BTRS_FROM = 10.0
_HALF_LOG_TWO_PI = 0.5 * math.log(2.0 * math.pi)
_STIRLING_EXACT = 10
# f_c(j) for j < 10 from ln j! itself.
_STIRLING_TABLE = np.array(
    [
        math.lgamma(j + 1.0) - (_HALF_LOG_TWO_PI + (j + 0.5) * math.log(j + 1.0) - (j + 1.0))
        for j in range(_STIRLING_EXACT)
    ]
)


@njit(cache=True)
def stirling_remainder(j):
    """f_c(j) = ln j! − [ln √(2π) + (j + ½) ln(j + 1) − (j + 1)] (module docstring)."""
    if j < _STIRLING_EXACT:
        return _STIRLING_TABLE[j]
    inverse = 1.0 / (j + 1.0)
    squared = inverse * inverse
    return (1.0 / 12.0 - (1.0 / 360.0 - squared / 1260.0) * squared) * inverse


@njit(cache=True)
def log_ratio_to_mode(n, p, k, m):
    """ln f(k) − ln f(m) for the Binomial(n, p) pmf f, in Hörmann's form (module docstring)."""
    log_r = math.log(p) - math.log1p(-p)
    return (
        (n + 1.0) * math.log((n - m + 1.0) / (n - k + 1.0))
        + (k + 0.5) * (math.log((n - k + 1.0) / (k + 1.0)) + log_r)
        - (m + 0.5) * (math.log((n - m + 1.0) / (m + 1.0)) + log_r)
        + stirling_remainder(m)
        + stirling_remainder(n - m)
        - stirling_remainder(k)
        - stirling_remainder(n - k)
    )


@njit(cache=True)
def _inversion(n, p, key, counter):
    """BINV for p ≤ 1/2 (module docstring): ``(x, next counter)``."""
    ratio = p / (1.0 - p)
    step = (n + 1.0) * ratio
    first = math.exp(n * math.log1p(-p))
    while True:
        u = uniform(key, counter)
        counter += 1
        term, x = first, 0
        while u >= term and x <= n:
            u -= term
            x += 1
            term *= step / x - ratio
        if x <= n:
            return x, counter


@njit(cache=True)
def _btrs(n, p, key, counter):
    """BTRS for p ≤ 1/2 and n·p ≥ 10 (module docstring): ``(x, next counter)``."""
    spread = math.sqrt(n * p * (1.0 - p))
    b = 1.15 + 2.53 * spread
    a = -0.0873 + 0.0248 * b + 0.01 * p
    c = n * p + 0.5
    alpha = (2.83 + 5.1 / b) * spread
    v_r = 0.92 - 4.2 / b
    mode = math.floor((n + 1) * p)
    while True:
        u = uniform(key, counter) - 0.5
        v = uniform(key, counter + 1)
        counter += 2
        u_s = 0.5 - abs(u)
        if u_s <= 0.0:
            continue
        k = math.floor((2.0 * a / u_s + b) * u + c)
        if k < 0 or k > n:
            continue
        if u_s >= 0.07 and v <= v_r:
            return k, counter
        if v > 0.0 and math.log(v * alpha / (a / (u_s * u_s) + b)) > log_ratio_to_mode(
            n, p, k, mode
        ):
            continue
        return k, counter


@njit(cache=True)
def binomial(n, p, key, counter):
    """An exact Binomial(n, p) draw from uniforms ``counter``, ``counter + 1``, …: ``(x, next
    counter)`` (module docstring for the three methods)."""
    if n <= 0 or p <= 0.0:
        return 0, counter
    if p >= 1.0:
        return n, counter
    if n <= BINOMIAL_DIRECT:
        x = 0
        for j in range(n):
            if uniform(key, counter + j) < p:
                x += 1
        return x, counter + n
    low = min(p, 1.0 - p)
    x, counter = (
        _inversion(n, low, key, counter) if n * low < BTRS_FROM else _btrs(n, low, key, counter)
    )
    return (n - x if p > 0.5 else x), counter
