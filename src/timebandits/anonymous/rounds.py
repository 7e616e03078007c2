r"""The round sizes of ARS-UCB (Wang, Wang & Huang, AAAI 2021, §2.2, below Theorem 1):
:func:`round_sizes` :math:`f`, :func:`cumulative_rounds` :math:`F`, and :func:`condition_k0`,
the :math:`k_0` of Theorem 1's condition (ii); exact Python-int forms for Theorem 1's constant
(theorem1.py). References as in theory.py.
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction
from functools import lru_cache

import numpy as np

ROUND_SIZE_KINDS = ("power", "exponential")
_INT64_MAX = int(np.iinfo(np.int64).max)


def is_integer(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def check_round_size(kind, c, beta) -> None:
    """The two families of §2.2 (below Theorem 1): c·k^β with integers c, β ≥ 1; 2^{k+c} with
    an integer c ≥ 0 (β unused)."""
    if kind not in ROUND_SIZE_KINDS:
        raise ValueError(f"round-size kind must be one of {ROUND_SIZE_KINDS}, got {kind!r}")
    if kind == "power":
        if is_integer(beta) and beta == 0:
            raise ValueError(
                "f(k) = c*k**0 is constant, not increasing: Theorem 1 needs an "
                "increasing f (beta >= 1)"
            )
        if not (is_integer(c) and c >= 1 and is_integer(beta) and beta >= 1):
            raise ValueError(
                "power round sizes f(k) = c*k**beta need integers c >= 1 and "
                f"beta >= 1 (paper §2.2), got c={c!r}, beta={beta!r}"
            )
    elif not (is_integer(c) and c >= 0):
        raise ValueError(
            "exponential round sizes f(k) = 2**(k+c) need an integer c >= 0 "
            f"(paper §2.2), got c={c!r}"
        )


def _check_count(count) -> None:
    if not (is_integer(count) and count >= 0):
        raise ValueError(f"count must be an integer >= 0, got {count!r}")


@lru_cache(maxsize=None)
def _bernoulli_plus(order: int) -> tuple[Fraction, ...]:
    """B⁺_0..B⁺_order (B⁺_1 = +1/2), by B⁺_m = 1 − Σ_{j<m} C(m, j)·B⁺_j/(m − j + 1)."""
    values = [Fraction(1)]
    for m in range(1, order + 1):
        values.append(1 - sum(math.comb(m, j) * values[j] / (m - j + 1) for j in range(m)))
    return tuple(values)


def _power_sum(K: int, p: int) -> int:
    """Σ_{k=1}^{K} k^p exactly (Faulhaber: Σ_j C(p+1, j)·B⁺_j·K^{p+1−j}/(p+1))."""
    bern = _bernoulli_plus(p)
    total = sum(math.comb(p + 1, j) * bern[j] * K ** (p + 1 - j) for j in range(p + 1))
    return int(total / (p + 1))


def exact_size(kind: str, c: int, beta: int, k: int) -> int:
    """f(k) as a Python int; f(0) = 0 by convention (there is no round 0)."""
    if k == 0:
        return 0
    if kind == "power":
        return c * k**beta
    return 2 ** (max(k, 2) + c)  # f(1) overridden to 2^{2+c}


def exact_cumulative(kind: str, c: int, beta: int, K: int) -> int:
    """F(K) as a Python int: c·Σ_{k≤K} k^β, or 2^{K+1+c} (K ≥ 1) for the exponential family."""
    if K == 0:
        return 0
    if kind == "power":
        return c * _power_sum(K, beta)
    return 2 ** (K + 1 + c)


def round_sizes(kind: str, c: int, beta: int, count: int) -> np.ndarray:
    r"""Round sizes :math:`f(1), \dots, f(\text{count})` of ARS-UCB (§2.2, below Theorem 1).

    .. math::

        \text{power:}\quad f(k) = c\,k^{\beta}, \qquad c, \beta \in \mathbb{N},\ c, \beta \ge 1;

        \text{exponential:}\quad f(k) = 2^{k+c}\ (k \ge 2), \quad f(1) = 2^{2+c},
        \qquad c \in \mathbb{N}.

    The override :math:`f(1) = 2^{2+c}` is the paper's ("here we need to set
    :math:`f(1)=2^{2+c}` specifically"); it makes :math:`F(k) = f(k+1)` for every :math:`k \ge 1`
    (so :math:`k_0 = 0`) but leaves :math:`f(1) = f(2)`, so this :math:`f` is non-decreasing rather
    than increasing. ``beta`` is ignored for the exponential family.

    Returns an int64 array of length ``count``. Raises ``ValueError`` for any other ``kind``,
    non-integer or out-of-range ``c``/``beta``/``count``, or if :math:`f(\text{count})` exceeds
    the int64 range.
    """
    check_round_size(kind, c, beta)
    _check_count(count)
    if exact_size(kind, c, beta, count) > _INT64_MAX:
        raise ValueError(f"f({count}) of the {kind} family (c={c}, beta={beta}) exceeds int64")
    k = np.arange(1, count + 1, dtype=np.int64)
    if kind == "power":
        return c * k**beta
    return np.left_shift(np.int64(1), np.maximum(k, 2) + c)


def cumulative_rounds(kind: str, c: int, beta: int, count: int) -> np.ndarray:
    r"""Cumulative round sizes :math:`F(1), \dots, F(\text{count})` (§2.2, before Theorem 1).

    .. math::

        F(K) = \sum_{k=1}^{K} f(k),

    so :math:`N_i(t) = F(K_i(t))` at ARS-UCB's decision times. For the exponential family
    :math:`F(K) = 2^{K+1+c}`. Same arguments and errors as :func:`round_sizes` (here the bound is
    on :math:`F(\text{count})`).
    """
    check_round_size(kind, c, beta)
    _check_count(count)
    if exact_cumulative(kind, c, beta, count) > _INT64_MAX:
        raise ValueError(f"F({count}) of the {kind} family (c={c}, beta={beta}) exceeds int64")
    return np.cumsum(round_sizes(kind, c, beta, count))


def _k0_check_limit(kind: str, beta: int) -> int:
    """A K such that F(k) ≥ f(k+1) holds for every k > K (proof in :func:`condition_k0`)."""
    if kind == "power":
        return math.ceil(math.e * (beta + 1))
    return 1


def condition_k0(kind: str, c: int, beta: int) -> int:
    r"""The smallest :math:`k_0 \ge 0` of Theorem 1's condition (ii):

    .. math::

        F(k) \ge f(k+1) \quad \text{for all } k > k_0,

    i.e. the last :math:`k \ge 1` with :math:`F(k) < f(k+1)`, or 0 if there is none. Found by
    checking every :math:`k \le K_{\text{check}}`, which suffices:

    - power, :math:`K_{\text{check}} = \lceil e(\beta+1) \rceil`. The factor :math:`c` cancels.
      As :math:`x^\beta` increases, :math:`\sum_{j\le k} j^\beta \ge \int_0^k x^\beta\,dx =
      k^{\beta+1}/(\beta+1)`, and :math:`(k+1)^\beta = k^\beta (1+1/k)^\beta \le k^\beta
      e^{\beta/k}`. For :math:`k \ge e(\beta+1)`, :math:`e^{\beta/k} < e^{1/e} < e \le
      k/(\beta+1)`, so :math:`F(k) \ge c\,k^{\beta+1}/(\beta+1) > c\,(k+1)^\beta = f(k+1)`.
    - exponential, :math:`K_{\text{check}} = 1`: :math:`F(k) = 2^{k+1+c} = f(k+1)` for every
      :math:`k \ge 1`, so :math:`k_0 = 0` (the paper's reason for the override of :math:`f(1)`).

    Gives 1, 3, 4 for :math:`f = k, k^2, k^3` (spec §2.1). The smallest :math:`k_0` is this
    module's choice: the paper only needs one to exist, and the smallest gives the smallest
    :math:`F(k_0)` in theorem1.theorem1_constant.
    """
    check_round_size(kind, c, beta)
    limit = _k0_check_limit(kind, beta)
    sizes = round_sizes(kind, c, beta, limit + 1)
    failing = np.flatnonzero(np.cumsum(sizes)[:limit] < sizes[1:]) + 1
    return int(failing.max()) if failing.size else 0
