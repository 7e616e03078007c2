r"""The other bounds of Wang, Wang & Huang (AAAI 2021) as plain numpy/scipy/math functions
(Theorem 1 and its constant are in theorem1.py, ARS-UCB's round sizes in rounds.py).

- The Lai-Robbins constant :math:`\sum_{i\ge2}\Delta_i/\mathrm{kl}(s_i, s_1)` of the
  asymptotic lower bound (Bernoulli totals, spec P4): :func:`lai_robbins_constant`.
- Lemma 1: :func:`lemma1_radius`, the hidden confidence radius :math:`rad'_i(t)`.
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
from typing import NamedTuple

import numpy as np

from timebandits.core import trivial

from .rounds import is_integer
from .theorem1 import suboptimal_gaps

# ---- the stochastic lower bound and Lemma 1 ---------------------------------------------------


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

    others, gaps = suboptimal_gaps(means)
    best = float(np.max(means))
    kl = special.rel_entr(others, best) + special.rel_entr(1.0 - others, 1.0 - best)
    return float(np.sum(gaps / kl))


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
    return (
        np.sqrt(4.0 * log_t / n) + d1 * k_rounds / n + np.sqrt(12.0 * d2 * k_rounds * log_t / n**2)
    )


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
    if not (is_integer(N) and N >= 2):
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
