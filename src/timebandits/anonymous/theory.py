r"""The bounds of Wang, Wang & Huang (AAAI 2021) as plain numpy/scipy/math functions.

- Round sizes of ARS-UCB (§2.2): :func:`round_sizes` :math:`f`, :func:`cumulative_rounds`
  :math:`F`, and :func:`condition_k0`, the :math:`k_0` of Theorem 1's condition (ii).
- Theorem 1 (ARS-UCB): :func:`log_term_coefficient`, the :math:`\ln T` coefficient
  :math:`8\alpha\sum_{i\ge2} 1/\Delta_i`, and :func:`theorem1_constant`, the constant
  :math:`c^*_f(d_1, d_2, N, \alpha)` of Appendix A with :math:`t_1`, :math:`t_2`, :math:`N(d_2)`,
  :math:`T^*` in log space (it is astronomically large, and infinite for :math:`\alpha \le 4`,
  the value the experiments use, spec P2, or :math:`d_1 = \infty`, spec P13).
- Lemma 1: :func:`lemma1_radius`, the hidden confidence radius :math:`rad'_i(t)`.
- The Lai-Robbins constant :math:`\sum_{i\ge2}\Delta_i/\mathrm{kl}(s_i, s_1)` of the
  asymptotic lower bound (Bernoulli totals, spec P4): :func:`lai_robbins_constant`.
- Theorem 2 (ARS-EXP3): :func:`exp3_rounds` (:math:`g(k) = \lceil k^\beta\rceil`, spec §2.2,
  P7 [recon]), :func:`ars_exp3_gamma` (appendix and printed :math:`\gamma`),
  :func:`theorem2_bound`, and :func:`trivial_bound` (:math:`T\cdot\max_i\Delta_i`).

Logs are natural throughout (the paper's "log": Bernstein's bound gives :math:`e^{-3\ln t}`
in Lemma 1, Hedge's analysis gives :math:`\ln N` in Theorem 2). Equation and line references
are to the paper text (``002_8f6eed0b508b25e2.txt``) and to the spec
(``002-composite-anonymous-feedback.md``).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from timebandits.core import trivial

ROUND_SIZE_KINDS = ("power", "exponential")
_INT64_MAX = int(np.iinfo(np.int64).max)
_LN10 = math.log(10.0)


# ---- round sizes of ARS-UCB -------------------------------------------------------------------

def _is_integer(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _check_round_size(kind, c, beta) -> None:
    """The two families of §2.2 (below Theorem 1): c·k^β with integers c, β ≥ 1; 2^{k+c} with
    an integer c ≥ 0 (β unused)."""
    if kind not in ROUND_SIZE_KINDS:
        raise ValueError(f"round-size kind must be one of {ROUND_SIZE_KINDS}, got {kind!r}")
    if kind == "power":
        if _is_integer(beta) and beta == 0:
            raise ValueError("f(k) = c*k**0 is constant, not increasing: Theorem 1 needs an "
                             "increasing f (beta >= 1)")
        if not (_is_integer(c) and c >= 1 and _is_integer(beta) and beta >= 1):
            raise ValueError("power round sizes f(k) = c*k**beta need integers c >= 1 and "
                             f"beta >= 1 (paper §2.2), got c={c!r}, beta={beta!r}")
    elif not (_is_integer(c) and c >= 0):
        raise ValueError("exponential round sizes f(k) = 2**(k+c) need an integer c >= 0 "
                         f"(paper §2.2), got c={c!r}")


def _check_count(count) -> None:
    if not (_is_integer(count) and count >= 0):
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


def _exact_size(kind: str, c: int, beta: int, k: int) -> int:
    """f(k) as a Python int; f(0) = 0 by convention (there is no round 0)."""
    if k == 0:
        return 0
    if kind == "power":
        return c * k ** beta
    return 2 ** (max(k, 2) + c)  # f(1) overridden to 2^{2+c}


def _exact_cumulative(kind: str, c: int, beta: int, K: int) -> int:
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
    _check_round_size(kind, c, beta)
    _check_count(count)
    if _exact_size(kind, c, beta, count) > _INT64_MAX:
        raise ValueError(f"f({count}) of the {kind} family (c={c}, beta={beta}) exceeds int64")
    k = np.arange(1, count + 1, dtype=np.int64)
    if kind == "power":
        return c * k ** beta
    return np.left_shift(np.int64(1), np.maximum(k, 2) + c)


def cumulative_rounds(kind: str, c: int, beta: int, count: int) -> np.ndarray:
    r"""Cumulative round sizes :math:`F(1), \dots, F(\text{count})` (§2.2, before Theorem 1).

    .. math::

        F(K) = \sum_{k=1}^{K} f(k),

    so :math:`N_i(t) = F(K_i(t))` at ARS-UCB's decision times. For the exponential family
    :math:`F(K) = 2^{K+1+c}`. Same arguments and errors as :func:`round_sizes` (here the bound is
    on :math:`F(\text{count})`).
    """
    _check_round_size(kind, c, beta)
    _check_count(count)
    if _exact_cumulative(kind, c, beta, count) > _INT64_MAX:
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
    :math:`F(k_0)` in :func:`theorem1_constant`.
    """
    _check_round_size(kind, c, beta)
    limit = _k0_check_limit(kind, beta)
    sizes = round_sizes(kind, c, beta, limit + 1)
    failing = np.flatnonzero(np.cumsum(sizes)[:limit] < sizes[1:]) + 1
    return int(failing.max()) if failing.size else 0


# ---- Theorem 1 (ARS-UCB) and the stochastic lower bound ---------------------------------------

def _suboptimal_gaps(means) -> tuple[np.ndarray, np.ndarray]:
    """(s_i, Δ_i) for the arms other than the best, with s_1 = max s_i; the model (§2.1) needs
    1 ≥ s_1 > s_2 ≥ … ≥ s_N ≥ 0 (any order accepted, but a unique best arm)."""
    means = np.asarray(means, dtype=float)
    if means.ndim != 1 or means.size < 2:
        raise ValueError(f"means must be a 1-D array of at least 2 arms, got {means!r}")
    if not np.all((means >= 0.0) & (means <= 1.0)):
        raise ValueError(f"means must lie in [0, 1], got {means!r}")
    best = int(np.argmax(means))
    others = np.delete(means, best)
    gaps = means[best] - others
    if not np.all(gaps > 0):
        raise ValueError(f"the best arm must be unique (s_1 > s_2, §2.1), got {means!r}")
    return others, gaps


def log_term_coefficient(means, alpha: float) -> float:
    r"""The :math:`\ln T` coefficient of Theorem 1, eq. (2):

    .. math::

        \mathrm{Reg}(T) \le \sum_{i=2}^{N} \frac{8\alpha \ln T}{\Delta_i} + c^*_f(d_1,d_2,N,\alpha),
        \qquad \text{coefficient} = 8\alpha \sum_{i=2}^{N} \frac{1}{\Delta_i},
        \quad \Delta_i = s_1 - s_i.

    Computed for any :math:`\alpha > 0`, though Theorem 1 holds only for :math:`\alpha > 4` (the
    experiments use :math:`\alpha = 4`, spec P2). For :math:`s = (0.9, 0.8, \dots, 0.1)`,
    :math:`\sum_{i\ge2} 1/\Delta_i = 10\,H_8`.
    """
    if not alpha > 0:
        raise ValueError(f"alpha must be > 0, got {alpha!r}")
    _, gaps = _suboptimal_gaps(means)
    return float(8.0 * alpha * np.sum(1.0 / gaps))


def lai_robbins_constant(means) -> float:
    r"""The constant of the asymptotic lower bound (Lai & Robbins 1985; cited via Vernade et al.
    2017 in §1.1) for Bernoulli totals :math:`X \sim \mathrm{Bernoulli}(s_i)` (spec P4, §4):

    .. math::

        \liminf_{T\to\infty} \frac{\mathrm{Reg}(T)}{\ln T} \ge
        \sum_{i=2}^{N} \frac{\Delta_i}{\mathrm{kl}(s_i, s_1)}, \qquad
        \mathrm{kl}(p, q) = p \ln\frac{p}{q} + (1-p) \ln\frac{1-p}{1-q}.

    An arm with :math:`\mathrm{kl}(s_i, s_1) = \infty` (:math:`s_1 = 1`) contributes 0.
    """
    from scipy import special

    others, gaps = _suboptimal_gaps(means)
    best = float(np.max(means))
    kl = special.rel_entr(others, best) + special.rel_entr(1.0 - others, 1.0 - best)
    return float(np.sum(gaps / kl))


@dataclass(frozen=True)
class Theorem1Constant:
    r"""The pieces of :math:`c^*_f(d_1, d_2, N, \alpha)` (Appendix A, proof of Lemma 2), see
    :func:`theorem1_constant`. ``math.inf`` in a value field means infinite/undefined or beyond
    the float range; the ``log10_*`` fields are then still finite in the latter case.
    ``void_reason`` says why the constant is infinite (None when it is finite in principle).
    """

    n_arms: int
    k0: int
    f_k0: int
    F_k0: int
    n_d2: float | int
    t1: float
    t2: float
    T_star: float
    c_star: float
    c_star_unsimplified: float
    log10_t1: float
    log10_t2: float
    log10_T_star: float
    log10_c_star: float
    log10_c_star_unsimplified: float
    void_reason: str | None


def _exp_or_inf(log_value: float) -> float:
    """exp(log_value), or inf where it is infinite or beyond the float range."""
    try:
        return math.exp(log_value)
    except OverflowError:
        return math.inf


def _log(value: float) -> float:
    """ln(value) for value ≥ 0 (Python ints of any size), −inf at 0."""
    return math.log(value) if value > 0 else -math.inf


def _n_d2(d2: float, alpha: float, kind: str, c: int, beta: int) -> float | int:
    """N(d2) of eq. (20); see :func:`theorem1_constant`. K/F(K) is non-increasing, so the failing
    K form an initial segment 1..K*: find K* by doubling and bisection with exact F."""
    if d2 == math.inf:
        return math.inf
    lhs, rhs = Fraction(12.0 * d2), Fraction(((math.sqrt(alpha) - 2.0) / 2.0) ** 2)

    def fails(K: int) -> bool:
        return lhs * K > rhs * _exact_cumulative(kind, c, beta, K)

    if not fails(1):
        return 0
    low, high = 1, 2
    while fails(high):
        low, high = high, 2 * high
    while high - low > 1:  # fails(low) and not fails(high)
        middle = (low + high) // 2
        low, high = (middle, high) if fails(middle) else (low, middle)
    return _exact_cumulative(kind, c, beta, low)


def _check_delay_measure(name: str, value) -> float:
    value = float(value)
    if math.isnan(value) or value < 0:
        raise ValueError(f"{name} must be >= 0 (math.inf allowed), got {value!r}")
    return value


def theorem1_constant(means, alpha: float, d1: float, d2: float, kind: str, c: int,
                      beta: int) -> Theorem1Constant:
    r"""The constant :math:`c^*_f(d_1, d_2, N, \alpha)` of Theorem 1, eq. (2), from Appendix A.

    .. math::

        c^*_f = 2T^* + 8N + N F(k_0) \quad \text{(the theorem's constant, App. A after (14))},

        c^{*,\text{unsimpl.}}_f = 2T^* + f(k_0) + 8(N-1) + (N-1) F(k_0)
        \quad \text{(the line the proof derives)},

        T^* = \max\{t_1, t_2\}, \qquad
        t_1 = \exp\Big(\Big(\frac{4 d_1}{\sqrt\alpha - 2}\Big)^2\Big), \qquad
        t_2 = \exp\Big(\frac{N(d_2)}{\alpha}\Big) + N\big(F(k_0) + 2N(d_2)\big),

        N(d_2) = \min\Big\{n \ge 0 : \frac{12 d_2 K}{F(K)} \le
        \Big(\frac{\sqrt\alpha - 2}{2}\Big)^2 \ \text{for all } K \text{ with } F(K) > n\Big\}.

    Both :math:`c^*` lines are in the paper and both bound the regret; the summary line is
    Theorem 1's :math:`c^*_f` ("Setting :math:`c_f^* = 2T^*+8N+NF(k_0)`"), which rounds the
    derived line up (:math:`f(k_0) \le F(k_0)`), so the unsimplified one is the tighter.

    Judgement calls (the paper's text is the reference; the spec §4 agrees on every formula):

    - :math:`N = ` ``len(means)``; :math:`k_0` = :func:`condition_k0` (the smallest one), with
      :math:`f(0) = F(0) = 0` when :math:`k_0 = 0`.
    - :math:`N(d_2)`: the paper only says "there must exist some :math:`N(d_2)` such that for any
      :math:`N_i(t) > N(d_2)`, Eq. (20) always holds"; this is the smallest one (spec §4). As
      :math:`K/F(K)` is non-increasing for non-decreasing :math:`f`, it equals :math:`F(K^*)` for
      the last :math:`K^*` violating (20), or 0 if none does. It is exact (integer :math:`F`).
    - :math:`t_1` uses :math:`K/\sqrt{F(K)} \le 2` as in App. A.2 (the main-text sketch says
      :math:`\sqrt2`, which would halve the exponent).
    - The paper's first-phase step :math:`E[\ell(T^*)] \le f(k_0) + T^*` does not cover a round
      of index :math:`k_0 + 1` (condition (ii) bounds :math:`f(k)` by :math:`F(k-1)` only for
      :math:`k \ge k_0 + 2`); the printed :math:`f(k_0)` is kept, as it is negligible next to
      :math:`2T^*`.

    Never raises for :math:`\alpha \le 4` or :math:`d_1, d_2 = \infty`: the value fields are
    ``math.inf`` where the constant is undefined or infinite (:math:`\alpha \le 4`: the proof
    needs :math:`\sqrt\alpha - 2 > 0`, spec P2; :math:`d_1 = \infty`: polynomial kernel of
    exponent 2, spec P13) or where :math:`\exp` overflows; the ``log10_*`` fields are computed
    in log space, so they stay finite in the last case (e.g. :math:`\log_{10} t_1 \approx 2251`
    for :math:`\alpha = 9`, :math:`d_1 = 18`).
    """
    _check_round_size(kind, c, beta)
    if math.isnan(float(alpha)):
        raise ValueError("alpha must be a number, got nan")
    d1 = _check_delay_measure("d1", d1)
    d2 = _check_delay_measure("d2", d2)
    n_arms = len(means)
    _suboptimal_gaps(means)
    k0 = condition_k0(kind, c, beta)
    f_k0 = _exact_size(kind, c, beta, k0)
    F_k0 = _exact_cumulative(kind, c, beta, k0)
    void_reason = None
    if alpha <= 4.0:
        void_reason = ("alpha <= 4: Theorem 1 needs sqrt(alpha) - 2 > 0 (App. A, eqs. (18)-(20)); "
                       "t1, N(d2) and c* are undefined (spec P2: the experiments use alpha = 4)")
        n_d2, log_t1, log_t2 = math.inf, math.inf, math.inf
    else:
        if d1 == math.inf:
            void_reason = "d1 = inf (e.g. polynomial kernel of exponent 2, spec P13): t1 = inf"
        log_t1 = (4.0 * d1 / (math.sqrt(alpha) - 2.0)) ** 2
        n_d2 = _n_d2(d2, alpha, kind, c, beta)
        if n_d2 == math.inf:
            void_reason = "d2 = inf: N(d2) and t2 are infinite"
            log_t2 = math.inf
        else:
            log_t2 = float(np.logaddexp(n_d2 / alpha, _log(n_arms * (F_k0 + 2 * n_d2))))
    t1 = _exp_or_inf(log_t1)
    if n_d2 == math.inf or _exp_or_inf(n_d2 / alpha) == math.inf:
        t2 = math.inf
    else:
        t2 = math.exp(n_d2 / alpha) + n_arms * (F_k0 + 2 * n_d2)
    T_star = max(t1, t2)
    log_T_star = max(log_t1, log_t2)
    rest = 8 * n_arms + n_arms * F_k0
    rest_unsimplified = f_k0 + 8 * (n_arms - 1) + (n_arms - 1) * F_k0
    log_c_star = float(np.logaddexp(math.log(2.0) + log_T_star, _log(rest)))
    log_c_unsimplified = float(np.logaddexp(math.log(2.0) + log_T_star, _log(rest_unsimplified)))
    return Theorem1Constant(
        n_arms=n_arms, k0=k0, f_k0=f_k0, F_k0=F_k0, n_d2=n_d2, t1=t1, t2=t2, T_star=T_star,
        c_star=2.0 * T_star + rest, c_star_unsimplified=2.0 * T_star + rest_unsimplified,
        log10_t1=log_t1 / _LN10, log10_t2=log_t2 / _LN10, log10_T_star=log_T_star / _LN10,
        log10_c_star=log_c_star / _LN10, log10_c_star_unsimplified=log_c_unsimplified / _LN10,
        void_reason=void_reason)


def lemma1_radius(n, k_rounds, t, d1, d2):
    r"""The hidden confidence radius of Lemma 1 (App. A, before Lemma 1):

    .. math::

        rad'_i(t) = \sqrt{\frac{4\ln t}{N_i(t)}} + d_1 \frac{K_i(t)}{N_i(t)}
        + \sqrt{\frac{12\, d_2\, K_i(t) \ln t}{N_i(t)^2}},

    with :math:`n = N_i(t)` pulls and :math:`K_i(t)` = ``k_rounds`` completed rounds of arm
    :math:`i`. Lemma 1: :math:`P[\hat s_i(t) > s_i + rad'_i(t)] \le t^{-3}` and
    :math:`P[\hat s_i(t) < s_i - rad'_i(t)] \le t^{-3}`, so
    :math:`P[|\hat s_i(t) - s_i| \ge rad'_i(t)] \le 2/t^3` (the paper writes the hidden bounds
    as :math:`\min\{\hat s - rad', 0\}` and :math:`\max\{\hat s + rad', 1\}`, typos for max and
    min, spec P1). The proof's :math:`\Delta = \min\{1, \cdot\}` cap is not part of the radius:
    beyond 1 the event is empty as :math:`s_i \le 1`. Broadcasts over all arguments.
    """
    n, k_rounds, t = (np.asarray(x, dtype=float) for x in (n, k_rounds, t))
    log_t = np.log(t)
    return (np.sqrt(4.0 * log_t / n) + d1 * k_rounds / n
            + np.sqrt(12.0 * d2 * k_rounds * log_t / n ** 2))


# ---- Theorem 2 (ARS-EXP3) ---------------------------------------------------------------------

class Exp3Rounds(NamedTuple):
    """K complete rounds in T slots, g(K), g(K+1) and G(K) (see :func:`exp3_rounds`)."""

    K: int
    g_K: int
    g_next: int
    G_K: int


class Exp3Gamma(NamedTuple):
    """γ of ARS-EXP3 in the appendix form and in Theorem 2's printed form."""

    appendix: float
    printed: float


def _check_exp3(beta, T) -> np.ndarray:
    if not 0.0 <= beta <= 1.0:
        raise ValueError(f"Theorem 2 needs beta in [0, 1], got {beta!r}")
    T = np.asarray(T, dtype=float)
    if not np.all(np.isfinite(T) & (T >= 1.0)):
        raise ValueError(f"horizon T must be finite and >= 1, got {T!r}")
    return T


def _check_arms(N) -> None:
    if not (_is_integer(N) and N >= 2):
        raise ValueError(f"the number of arms N must be an integer >= 2, got {N!r}")


def _exp3_sizes(count: int, beta: float) -> np.ndarray:
    """g(1), …, g(count), g(k) = ⌈k^β⌉."""
    return np.ceil(np.arange(1, count + 1, dtype=float) ** beta).astype(np.int64)


def _exp3_schedule(T, beta) -> tuple[np.ndarray, ...]:
    """(K, g(K), g(K+1), G(K)) arrays shaped like T. Since G(K) ≥ Σ_{k≤K} k^β ≥ K^{β+1}/(β+1),
    K ≤ ((β+1)T)^{1/(β+1)}, so g up to that bound + 2 covers K + 1."""
    T = _check_exp3(beta, T)
    k_max = int(((beta + 1.0) * T.max()) ** (1.0 / (beta + 1.0))) + 2
    g = _exp3_sizes(k_max, beta)
    G = np.cumsum(g)
    K = np.searchsorted(G, T, side="right")  # G strictly increasing (g ≥ 1)
    return K, g[K - 1], g[K], G[K - 1]


def exp3_rounds(T, beta: float) -> Exp3Rounds:
    r"""The round structure of ARS-EXP3 (Algorithm 2, Theorem 2, App. B) for one horizon T:

    .. math::

        g(k) = \lceil k^\beta \rceil, \qquad G(K) = \sum_{k=1}^{K} g(k), \qquad
        K = \max\{K : G(K) \le T\}.

    The paper's :math:`g(k) = k^\beta` is not integer; the ceiling is the spec's [recon] choice
    (§2.2, P7), and :math:`K` comes from the integer :math:`G`. :math:`k^\beta` is a float power
    (exact for :math:`\beta = 1/2`, where numpy uses the correctly rounded square root, and for
    integer :math:`\beta`). The :math:`T - G(K) < g(K+1)` leftover slots are not a complete round.
    """
    K, g_K, g_next, G_K = _exp3_schedule(T, beta)
    return Exp3Rounds(int(K), int(g_K), int(g_next), int(G_K))


def exp3_round_sizes(T: int, beta: float) -> np.ndarray:
    """g(1), …, g(K): the sizes of ARS-EXP3's K complete rounds in T slots (Algorithm 2;
    :func:`exp3_rounds`)."""
    return _exp3_sizes(exp3_rounds(T, beta).K, beta)


def _scalar_or_array(values, T):
    return float(values) if np.ndim(T) == 0 else np.asarray(values, dtype=float)


def ars_exp3_gamma(N: int, T, beta: float) -> Exp3Gamma:
    r"""The exploration/learning parameter :math:`\gamma` of ARS-EXP3, in two forms:

    .. math::

        \gamma_{\text{app}} = \min\Big\{1, \sqrt{\frac{N \ln N}{(e-1) K}}\Big\}
        \quad \text{(App. B, after eq. (28))},

        \gamma_{\text{thm}} = \min\Big\{1, \sqrt{\frac{N \ln N}{(e-1)((\beta+1)T)^{1/(\beta+1)}}}
        \Big\} \quad \text{(Theorem 2)},

    with :math:`K` from :func:`exp3_rounds`; the printed form comes from the appendix's
    approximation :math:`G(K) \approx K^{\beta+1}/(\beta+1)`.
    With the ceiling rounding, :math:`K` is a little below :math:`((\beta+1)T)^{1/(\beta+1)}`,
    so :math:`\gamma_{\text{app}} > \gamma_{\text{thm}}`, by about 0.5% at :math:`T = 10^5` and
    :math:`\beta = 1/2` (spec §2.2 says "within 1%"; the gap shrinks like :math:`K^{-1/2}`).
    Vectorised over T (float for scalar T).
    """
    _check_arms(N)
    K = _exp3_schedule(T, beta)[0]
    T = np.asarray(T, dtype=float)
    scale = N * math.log(N) / (math.e - 1.0)
    appendix = np.minimum(1.0, np.sqrt(scale / K))
    printed = np.minimum(1.0, np.sqrt(scale / ((beta + 1.0) * T) ** (1.0 / (beta + 1.0))))
    return Exp3Gamma(_scalar_or_array(appendix, T), _scalar_or_array(printed, T))


def theorem2_bound(T, N: int, d: float, beta: float):
    r"""The regret bound of ARS-EXP3 (Theorem 2, proved at the end of App. B):

    .. math::

        \mathrm{Reg}(T) \le 3\, g(K) \sqrt{N K \ln N} + 2 d K + g(K+1)
        = O\big((N\ln N)^{1/2} T^{\frac{2\beta+1}{2\beta+2}} + d\, T^{\frac{1}{\beta+1}}\big),

    with :math:`K`, :math:`g` as in :func:`exp3_rounds` and :math:`\gamma` in its appendix form.
    The appendix's ":math:`3g(K)\sqrt{N\log NK}`" is read as :math:`3 g(K)\sqrt{N K \ln N}`
    (spec P1). :math:`d` is the reward-interval size. Vectorised over the horizon(s) ``T``
    (float for scalar T).
    """
    _check_arms(N)
    K, g_K, g_next, _ = _exp3_schedule(T, beta)
    value = 3.0 * g_K * np.sqrt(N * K * math.log(N)) + 2.0 * d * K + g_next
    return _scalar_or_array(value, T)


def trivial_bound(T, max_gap):
    r"""The trivial regret bound :math:`T \cdot \max_i \Delta_i` (spec §4, claim 8): a bound
    says something only where it is below this. Delegates to
    :func:`timebandits.core.trivial.trivial_bound` (one definition for every paper).
    """
    return _scalar_or_array(trivial.trivial_bound(T, max_gap), T)
