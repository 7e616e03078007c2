"""Closed forms of the results of Cella & Cesa-Bianchi, "Stochastic Bandits with Delay-Dependent
Payoffs" (spec §4): π_low's schedule (Algorithm 1), Theorem 3 and the switch bound kS (Sect. 6),
BanditRanker's pull count (Theorem 4, Sect. 7) and UCB1's bound on π_ucb's suboptimal choices
(Sect. 1). Theorem 2 is in theorem2.py, the errata E1–E3 in errata.py, the uniform-delay
statistics behind the Fig. 2 text in uniform_delays.py and the Fig. 1 edge labels in figures.py.

Symbols: T the horizon, k the number of arms (= ranking policies), δ ``delta`` the confidence,
T_s = T^(1 − 2^(−s)) the stage lengths of π_low (Algorithm 1), S the stage count of Sect. 6 with
|A_s| := k (spec P3), C_s = sqrt(k/(2T_s)·ln(2kS/δ)) the widths of event (5), ε_r of eq. (6) and
Δ_i the adjacent gaps of Sect. 7. Logs are natural. S, T_s, C_s and ε_r come from the compiled
helpers of :mod:`.policies` and :mod:`.ranker`, never re-derived here.

The stage counts and Theorem 3 functions accept a scalar T (and return a Python scalar) or an
array of horizons (and return a numpy array of the same shape).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pandas as pd

from .exact_values import exact
from .model import B2DEPProblem
from .policies import low_confidence_width, low_stage_count, low_stage_length
from .ranker import ranker_epsilon

# ranker_rounds_needed searches r up to this many sampling rounds.
MAX_RANKER_ROUNDS = 10**15


# ---- argument checks ----------------------------------------------------------------------------


def _check_k(k) -> int:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise ValueError(f"k (number of arms) must be an integer >= 1, got {k!r}")
    return int(k)


def _check_delta(delta) -> float:
    if not 0.0 < float(delta) < 1.0:
        raise ValueError(f"delta must lie in (0, 1), got {delta!r}")
    return float(delta)


def _check_horizon(T, minimum: float, why: str) -> float:
    T = float(T)
    if not math.isfinite(T) or T < minimum:
        raise ValueError(f"horizon T must be a finite number >= {minimum:g} ({why}), got {T!r}")
    return T


def _over_horizons(function, T):
    """``function`` of one horizon, applied to a scalar T (Python scalar out) or elementwise to an
    array of horizons (array of the same shape out)."""
    if np.ndim(T) == 0:
        return function(T)
    T = np.asarray(T, dtype=float)
    return np.array([function(t) for t in T.ravel()]).reshape(T.shape)


# ---- π_low: the schedule of Algorithm 1 (Sect. 6) ----------------------------------------------


def stage_count(T, k):
    """S = min{j : Σ_{s≤j}(|A_s| + T_s) ≥ T} (Sect. 6, below Algorithm 1) with |A_s| := k
    (spec P3), via ``policies.low_stage_count``."""
    k = _check_k(k)
    return _over_horizons(lambda t: int(low_stage_count(_check_horizon(t, 1, "a horizon"), k)), T)


def low_schedule(T, k, delta) -> pd.DataFrame:
    """π_low's schedule (Algorithm 1, Sect. 6): one row per stage s = 1..S with T_s =
    T^(1 − 2^(−s)), C_s = sqrt(k/(2T_s)·ln(2kS/δ)) and S (|A_s| := k, spec P3). ``cumulative``
    is Σ_{s'≤s}(k + T_{s'}), the sum that defines S (the first stage where it reaches T)."""
    T = _check_horizon(T, 1, "a horizon")
    k, delta = _check_k(k), _check_delta(delta)
    S = int(low_stage_count(T, k))
    lengths = [low_stage_length(T, s) for s in range(1, S + 1)]
    return pd.DataFrame(
        {
            "s": np.arange(1, S + 1),
            "T_s": lengths,
            "C_s": [low_confidence_width(length, k, S, delta) for length in lengths],
            "cumulative": np.cumsum([k + length for length in lengths]),
            "S": S,
        }
    )


def stage_count_closed_form(T):
    """⌈log2 log2 T⌉ + 1, an upper bound on S for T ≥ 2 (spec §4 notation check; Sect. 6 states
    S = O(ln ln T)): T_s ≥ T/2 once s ≥ log2 log2 T, so two such stages already cover T."""
    return _over_horizons(
        lambda t: (
            math.ceil(math.log2(math.log2(_check_horizon(t, 2, "log2 log2 T >= 0 needs T >= 2"))))
            + 1
        ),
        T,
    )


# ---- Theorem 3 (regret of π_low against π_ghost) ----------------------------------------------


def _theorem3_parts(T, k, delta) -> tuple[float, int, float]:
    T = _check_horizon(T, 1, "a horizon")
    S = int(low_stage_count(T, k))
    return T, S, math.log(2.0 * k * S / delta)


def theorem3_bound_paper(T, k, delta):
    """The explicit bound at the end of the proof of Theorem 3, constants as printed:
    k²S + √T + 4(S − 1)·sqrt(k·T·ln(2kS/δ)) (spec §4). The proof's last display,
    k²S + T_1 + 4·sqrt(k ln(2kS/δ))·Σ_{s=2..S} T_s/√T_{s−1}, with T_1 = √T and
    T_s/√T_{s−1} = √T. Holds with probability ≥ 1 − δ; switching costs are not included."""
    k, delta = _check_k(k), _check_delta(delta)

    def bound(t):
        t, S, L = _theorem3_parts(t, k, delta)
        return k * k * S + math.sqrt(t) + 4.0 * (S - 1) * math.sqrt(k * t * L)

    return _over_horizons(bound, T)


def theorem3_bound_tight(T, k, delta):
    """The proof of Theorem 3 with C_s kept as defined (its 1/2 included):
    k²S + T_1 + Σ_{s=2..S} 4·T_s·C_{s−1} = k²S + √T + 2√2(S − 1)·sqrt(k·T·ln(2kS/δ)) (spec §4),
    summed from ``policies.low_stage_length`` and ``low_confidence_width``."""
    k, delta = _check_k(k), _check_delta(delta)

    def bound(t):
        t, S, _ = _theorem3_parts(t, k, delta)
        stages = sum(
            4.0
            * low_stage_length(t, s)
            * low_confidence_width(low_stage_length(t, s - 1), k, S, delta)
            for s in range(2, S + 1)
        )
        return k * k * S + low_stage_length(t, 1) + stages

    return _over_horizons(bound, T)


def switch_bound(T, k):
    """k·S: π_low's deterministic bound on the number of policy switches (proof of Theorem 3;
    Σ_s |A_s| ≤ kS, spec §4 and E7)."""
    k = _check_k(k)
    return _over_horizons(
        lambda t: k * int(low_stage_count(_check_horizon(t, 1, "a horizon"), k)), T
    )


def theorem3_stated_order(T, k, delta):
    """The expression inside O(·) of Theorem 3, eq. (4), without constants:
    k²·ln ln T + sqrt(k·T·(ln(k/δ) + ln ln T)). T > e so that ln ln T > 0."""
    k, delta = _check_k(k), _check_delta(delta)

    def order(t):
        t = _check_horizon(t, math.e, "ln ln T > 0 needs T > e")
        lnln = math.log(math.log(t))
        return k * k * lnln + math.sqrt(k * t * (math.log(k / delta) + lnln))

    return _over_horizons(order, T)


# ---- Theorem 4 (BanditRanker, Sect. 7) ----------------------------------------------------------


def ranker_gaps(means) -> np.ndarray:
    """Δ_i of Sect. 7 for arms sorted by decreasing mean: Δ_1 = μ_1 − μ_2, Δ_k = μ_{k−1} − μ_k,
    Δ_i = min(μ_{i−1} − μ_i, μ_i − μ_{i+1}) otherwise. ``means`` in any order (numbers or strings
    such as "13/15"); the result is in the sorted (paper's) labelling, the differences taken
    exactly and then rounded to float."""
    if np.ndim(means) != 1 or len(means) < 2:
        raise ValueError(f"means: need a flat list of at least 2 arms, got {means!r}")
    mu = sorted((exact(m, f"means[{i}]") for i, m in enumerate(means)), reverse=True)
    adjacent = [float(a - b) for a, b in itertools.pairwise(mu)]
    return np.minimum(adjacent + [math.inf], [math.inf] + adjacent)


def _rounds_needed(gap: float, k: int, delta: float) -> int:
    """min{r ≥ 1 : 4ε_r < Δ}. ε_r (eq. 6) decreases in r when k ≥ 2 (d/dr of ln(c r(r+1))/(2r)
    has the sign of (2r + 1)/(r + 1) − ln(c r(r + 1)) < 0 for c = 2k/δ > 4), so the condition is
    monotone and the first r is found by doubling and bisection."""

    def holds(r):
        return 4.0 * ranker_epsilon(r, k, delta) < gap

    high = 1
    while not holds(high):
        high *= 2
        if high > MAX_RANKER_ROUNDS:
            raise ValueError(f"gap {gap!r} needs more than {MAX_RANKER_ROUNDS} sampling rounds")
    low = high // 2  # holds(low) is False (or low = 0)
    while high - low > 1:
        middle = (low + high) // 2
        if holds(middle):
            high = middle
        else:
            low = middle
    return high


def ranker_rounds_needed(means, delta) -> np.ndarray:
    """N_i = min{r ≥ 1 : 4ε_r < Δ_i} (proof of Theorem 4; spec §4), ε_r of eq. (6) from
    ``ranker.ranker_epsilon`` with the same k and δ: after N_i sampling rounds arm i is removed
    on the event (8). Sorted (paper's) labelling. ValueError if two means tie (Δ_i = 0)."""
    delta = _check_delta(delta)
    gaps = ranker_gaps(means)
    if np.any(gaps <= 0):
        raise ValueError(
            f"means: Theorem 4 needs distinct means (μ_1 > … > μ_k); "
            f"gaps Δ_i = {gaps.tolist()} include 0"
        )
    return np.array([_rounds_needed(gap, gaps.size, delta) for gap in gaps], dtype=np.int64)


def ranker_pull_bound(means, delta) -> int:
    """Pulls of BanditRanker on the event (8), end of the proof of Theorem 4:
    N_[k−1] + Σ_{i=1..k−1} N_[i] with N sorted increasing, which equals Σ_{i=1..k} N_i because
    the smallest adjacent gap is the Δ of both its arms, so the two largest N coincide."""
    rounds = ranker_rounds_needed(means, delta)
    ordered = np.sort(rounds)
    sorted_form = int(ordered[-2] + ordered[:-1].sum())
    if sorted_form != int(rounds.sum()):
        raise AssertionError(
            f"Theorem 4 pull bound: sorted form {sorted_form} != Σ N_i "
            f"{int(rounds.sum())} for N = {rounds.tolist()}"
        )
    return sorted_form


def ranker_b2dep_pull_bound(means, delta, d0) -> int:
    """The Theorem 4 bound for BanditRanker on B2DEP (Sect. 7, last paragraph): a sampling round
    with |A_r| active arms costs 2·d_0·⌈|A_r|/d_0⌉ ≤ 2(|A_r| + d_0 − 1) pulls and there are
    max_i N_i rounds, so pulls ≤ 2·Σ_i N_i + 2(d_0 − 1)·max_i N_i (spec §4). Needs k ≥ d_0 ≥ 1
    (groups of d_0 distinct arms, spec P9)."""
    rounds = ranker_rounds_needed(means, delta)
    if isinstance(d0, bool) or not isinstance(d0, (int, np.integer)) or d0 < 1:
        raise ValueError(f"d0 must be an integer >= 1, got {d0!r}")
    if rounds.size < d0:
        raise ValueError(
            f"BanditRanker on B2DEP needs k >= d0 (groups of d0 distinct arms, "
            f"spec P9); got k = {rounds.size}, d0 = {d0}"
        )
    return int(2 * rounds.sum() + 2 * (d0 - 1) * rounds.max())


def ranker_order_term(means, delta) -> float:
    """Σ_{i=1..k−1} Δ_i^{−2}·ln(1/(δΔ_i)), the order of Theorem 4, eq. (7), without constants."""
    delta = _check_delta(delta)
    gaps = ranker_gaps(means)[:-1]
    if np.any(gaps <= 0):
        raise ValueError(f"means: Theorem 4 needs distinct means; gaps {gaps.tolist()} include 0")
    return float(np.sum(np.log(1.0 / (delta * gaps)) / gaps**2))


# ---- π_ucb: UCB1's bound on the gaps (Auer et al. 2002, Thm 1; Sect. 1) ----------------------


def policy_gaps(problem: B2DEPProblem) -> list[Fraction]:
    """The gaps g(r*) − g(m) of every m ≠ r*, exact (eq. 3)."""
    best = problem.g_fraction(problem.r_star)
    return [best - problem.g_fraction(m) for m in range(1, problem.k + 1) if m != problem.r_star]


def inverse_square_gaps(problem: B2DEPProblem) -> float:
    """X = Σ_{m ≠ r*} (g(r*) − g(m))⁻²; inf if some gap is 0."""
    values = policy_gaps(problem)
    return math.inf if any(d == 0 for d in values) else float(sum(1 / d**2 for d in values))


def ucb_bound_pulls(problem: B2DEPProblem, horizon: float) -> float:
    """The pulls UCB1's bound (Auer et al. 2002, Thm 1) allows π_ucb's suboptimal choices by T:
    Σ_m 2m·(8 ln T / Δ_m² + 1 + π²/3), with ln T in place of ln N (N ≤ T decisions)."""
    total = 0.0
    for m in range(1, problem.k + 1):
        if m == problem.r_star:
            continue
        gap = float(problem.g_fraction(problem.r_star) - problem.g_fraction(m))
        if gap <= 0:
            return math.inf
        total += 2 * m * (8 * math.log(horizon) / gap**2 + 1 + math.pi**2 / 3)
    return total


def ucb_switch_bound(problem: B2DEPProblem, horizon: float) -> float:
    """2·Σ_m (8 ln T / Δ_m² + 1 + π²/3): every switch enters or leaves a suboptimal choice, so
    switches ≤ 2 × suboptimal choices, whose expectation UCB1's bound caps (Auer et al. 2002,
    Thm 1, ln N ≤ ln T). It grows with the squared inverse of the gaps."""
    return 2 * sum(
        8 * math.log(horizon) / float(d) ** 2 + 1 + math.pi**2 / 3 for d in policy_gaps(problem)
    )
