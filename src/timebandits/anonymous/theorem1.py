r"""Theorem 1 of Wang, Wang & Huang (AAAI 2021), the regret bound of ARS-UCB, eq. (2):
:func:`log_term_coefficient`, the :math:`\ln T` coefficient :math:`8\alpha\sum_{i\ge2} 1/\Delta_i`,
and :func:`theorem1_constant`, the constant :math:`c^*_f(d_1, d_2, N, \alpha)` of Appendix A with
:math:`t_1`, :math:`t_2`, :math:`N(d_2)`, :math:`T^*` in log space (it is astronomically large,
and infinite for :math:`\alpha \le 4`, the value the experiments use, spec P2, or
:math:`d_1 = \infty`, spec P13). The round sizes :math:`f`, :math:`F`, :math:`k_0` are
rounds.py's; logs and references as in theory.py.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .rounds import check_round_size, condition_k0, exact_cumulative, exact_size

_LN10 = math.log(10.0)


def suboptimal_gaps(means) -> tuple[np.ndarray, np.ndarray]:
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
    _, gaps = suboptimal_gaps(means)
    return float(8.0 * alpha * np.sum(1.0 / gaps))


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
        return lhs * K > rhs * exact_cumulative(kind, c, beta, K)

    if not fails(1):
        return 0
    low, high = 1, 2
    while fails(high):
        low, high = high, 2 * high
    while high - low > 1:  # fails(low) and not fails(high)
        middle = (low + high) // 2
        low, high = (middle, high) if fails(middle) else (low, middle)
    return exact_cumulative(kind, c, beta, low)


def _check_delay_measure(name: str, value) -> float:
    value = float(value)
    if math.isnan(value) or value < 0:
        raise ValueError(f"{name} must be >= 0 (math.inf allowed), got {value!r}")
    return value


def theorem1_constant(
    means, alpha: float, d1: float, d2: float, kind: str, c: int, beta: int
) -> Theorem1Constant:
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

    - :math:`N = ` ``len(means)``; :math:`k_0` = rounds.condition_k0 (the smallest one), with
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
    check_round_size(kind, c, beta)
    if math.isnan(float(alpha)):
        raise ValueError("alpha must be a number, got nan")
    d1 = _check_delay_measure("d1", d1)
    d2 = _check_delay_measure("d2", d2)
    n_arms = len(means)
    suboptimal_gaps(means)
    k0 = condition_k0(kind, c, beta)
    f_k0 = exact_size(kind, c, beta, k0)
    F_k0 = exact_cumulative(kind, c, beta, k0)
    void_reason = None
    if alpha <= 4.0:
        void_reason = (
            "alpha <= 4: Theorem 1 needs sqrt(alpha) - 2 > 0 (App. A, eqs. (18)-(20)); "
            "t1, N(d2) and c* are undefined (spec P2: the experiments use alpha = 4)"
        )
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
        n_arms=n_arms,
        k0=k0,
        f_k0=f_k0,
        F_k0=F_k0,
        n_d2=n_d2,
        t1=t1,
        t2=t2,
        T_star=T_star,
        c_star=2.0 * T_star + rest,
        c_star_unsimplified=2.0 * T_star + rest_unsimplified,
        log10_t1=log_t1 / _LN10,
        log10_t2=log_t2 / _LN10,
        log10_T_star=log_T_star / _LN10,
        log10_c_star=log_c_star / _LN10,
        log10_c_star_unsimplified=log_c_unsimplified / _LN10,
        void_reason=void_reason,
    )
