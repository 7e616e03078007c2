"""Closed forms of the results of Cella & Cesa-Bianchi, "Stochastic Bandits with Delay-Dependent
Payoffs" (spec §4), the Fig. 1 edge labels, the uniform-delay statistics behind the Fig. 2 text,
the numbers behind errata E1–E3 (spec §5.2) and a counterexample to Theorem 2.

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

from .model import B2DEPProblem, exact
from .policies import low_confidence_width, low_stage_count, low_stage_length
from .ranker import ranker_epsilon

# Float g values within this distance are re-compared exactly (spec P5).
NEAR_TIE = 1e-9
# uniform_delay_statistics enumerates d_max^k vectors; refuse more than this many.
MAX_DELAY_VECTORS = 5_000_000
# ranker_rounds_needed searches r up to this many sampling rounds.
MAX_RANKER_ROUNDS = 10 ** 15


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
    return _over_horizons(
        lambda t: int(low_stage_count(_check_horizon(t, 1, "a horizon"), k)), T)


def low_schedule(T, k, delta) -> pd.DataFrame:
    """π_low's schedule (Algorithm 1, Sect. 6): one row per stage s = 1..S with T_s =
    T^(1 − 2^(−s)), C_s = sqrt(k/(2T_s)·ln(2kS/δ)) and S (|A_s| := k, spec P3). ``cumulative``
    is Σ_{s'≤s}(k + T_{s'}), the sum that defines S (the first stage where it reaches T)."""
    T = _check_horizon(T, 1, "a horizon")
    k, delta = _check_k(k), _check_delta(delta)
    S = int(low_stage_count(T, k))
    lengths = [low_stage_length(T, s) for s in range(1, S + 1)]
    return pd.DataFrame({
        "s": np.arange(1, S + 1),
        "T_s": lengths,
        "C_s": [low_confidence_width(length, k, S, delta) for length in lengths],
        "cumulative": np.cumsum([k + length for length in lengths]),
        "S": S,
    })


def stage_count_closed_form(T):
    """⌈log2 log2 T⌉ + 1, an upper bound on S for T ≥ 2 (spec §4 notation check; Sect. 6 states
    S = O(ln ln T)): T_s ≥ T/2 once s ≥ log2 log2 T, so two such stages already cover T."""
    return _over_horizons(lambda t: math.ceil(math.log2(math.log2(
        _check_horizon(t, 2, "log2 log2 T >= 0 needs T >= 2")))) + 1, T)


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
        stages = sum(4.0 * low_stage_length(t, s)
                     * low_confidence_width(low_stage_length(t, s - 1), k, S, delta)
                     for s in range(2, S + 1))
        return k * k * S + low_stage_length(t, 1) + stages
    return _over_horizons(bound, T)


def switch_bound(T, k):
    """k·S: π_low's deterministic bound on the number of policy switches (proof of Theorem 3;
    Σ_s |A_s| ≤ kS, spec §4 and E7)."""
    k = _check_k(k)
    return _over_horizons(lambda t: k * int(low_stage_count(_check_horizon(t, 1, "a horizon"),
                                                            k)), T)


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
        raise ValueError(f"means: Theorem 4 needs distinct means (μ_1 > … > μ_k); "
                         f"gaps Δ_i = {gaps.tolist()} include 0")
    return np.array([_rounds_needed(gap, gaps.size, delta) for gap in gaps], dtype=np.int64)


def ranker_pull_bound(means, delta) -> int:
    """Pulls of BanditRanker on the event (8), end of the proof of Theorem 4:
    N_[k−1] + Σ_{i=1..k−1} N_[i] with N sorted increasing, which equals Σ_{i=1..k} N_i because
    the smallest adjacent gap is the Δ of both its arms, so the two largest N coincide."""
    rounds = ranker_rounds_needed(means, delta)
    ordered = np.sort(rounds)
    sorted_form = int(ordered[-2] + ordered[:-1].sum())
    if sorted_form != int(rounds.sum()):
        raise AssertionError(f"Theorem 4 pull bound: sorted form {sorted_form} != Σ N_i "
                             f"{int(rounds.sum())} for N = {rounds.tolist()}")
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
        raise ValueError(f"BanditRanker on B2DEP needs k >= d0 (groups of d0 distinct arms, "
                         f"spec P9); got k = {rounds.size}, d0 = {d0}")
    return int(2 * rounds.sum() + 2 * (d0 - 1) * rounds.max())


def ranker_order_term(means, delta) -> float:
    """Σ_{i=1..k−1} Δ_i^{−2}·ln(1/(δΔ_i)), the order of Theorem 4, eq. (7), without constants."""
    delta = _check_delta(delta)
    gaps = ranker_gaps(means)[:-1]
    if np.any(gaps <= 0):
        raise ValueError(f"means: Theorem 4 needs distinct means; gaps {gaps.tolist()} include 0")
    return float(np.sum(np.log(1.0 / (delta * gaps)) / gaps ** 2))


# ---- Figure 1 and the ranking-policy statistics of Figure 2 -------------------------------------

def figure1_edges(problem: B2DEPProblem, m: int, n: int) -> dict:
    """The four edge labels of Fig. 1 (caption; Supplement §2), exact, for m < n: the expected
    reward of one play of
        self_m = μ_{1→m}(m)   π_m after π_m,     self_n = μ_{1→n}(n)   π_n after π_n,
        n_to_m = μ_{1→m}(n)   π_m after π_n,
        m_to_n = μ_{1→m}(m) + μ_{m+1→n}(m+n)   π_n after π_m, under strict alternation."""
    if not 1 <= m < n <= problem.k:
        raise ValueError(f"figure1_edges needs 1 <= m < n <= k = {problem.k}, got m={m}, n={n}")
    return {
        "self_m": problem.mu_sum_fraction(1, m, m),
        "self_n": problem.mu_sum_fraction(1, n, n),
        "n_to_m": problem.mu_sum_fraction(1, m, n),
        "m_to_n": problem.mu_sum_fraction(1, m, m) + problem.mu_sum_fraction(m + 1, n, m + n),
    }


def uniform_delay_statistics(means, f_values, d_max: int = 6) -> dict:
    """Statistics of the ranking policies (eq. 3) over all d_max^k delay vectors, each equally
    likely as under Fig. 2's i.i.d. uniform delays on {1..d_max} (Fig. 2 caption, spec §3).

    With τ = m ≥ 1, g(m) = (1/m)·(Σ_{j≤m} μ_j − f(m)·Σ_{j≤m} μ_j·1{d_j ≥ m}), evaluated in float64
    for all vectors at once. The best-vs-second gap is g(r*) − max_{m≠r*} g(m). Vectors whose two
    largest g are within NEAR_TIE, and those within NEAR_TIE of the smallest gap, are recomputed
    exactly with ``B2DEPProblem`` (ties to the smallest m, spec P5), which settles r*, the exact
    ties and the exact minimum. ``means`` descending, ``f_values`` = f(1), f(2), … (constant tail).

    Returns n_vectors, mean_gap, median_gap, max_gap (floats), min_gap (Fraction), the number of
    vectors attaining it, the smallest such vector and its (r*, runner-up m), n_ties (exact gap 0),
    r_star_counts and p_r_star (m = 1..k), mean_g_ghost (mean of g(r*)) and n_exact (vectors
    recomputed exactly).
    """
    means_exact = [exact(m, f"means[{i}]") for i, m in enumerate(means)]
    f_exact = [exact(v, f"f_values[{i}]") for i, v in enumerate(f_values)]
    k = len(means_exact)
    if k < 2:
        raise ValueError(f"means: need at least 2 arms for a best-vs-second gap, got {k}")
    if isinstance(d_max, bool) or not isinstance(d_max, (int, np.integer)) or d_max < 1:
        raise ValueError(f"d_max must be an integer >= 1, got {d_max!r}")
    if d_max ** k > MAX_DELAY_VECTORS:
        raise ValueError(f"d_max^k = {d_max}^{k} exceeds MAX_DELAY_VECTORS = {MAX_DELAY_VECTORS}")
    # validates order and ranges of means and f once
    B2DEPProblem(means_exact, [1] * k, f_exact)

    delays = np.indices((d_max,) * k, dtype=np.int16).reshape(k, -1).T + 1   # (N, k)
    mu = np.array([float(x) for x in means_exact])
    f = np.array([float(f_exact[min(m, len(f_exact)) - 1]) for m in range(1, k + 1)])
    g = np.empty((delays.shape[0], k))
    for m in range(1, k + 1):
        delayed = (delays[:, :m] >= m) @ mu[:m]
        g[:, m - 1] = (mu[:m].sum() - f[m - 1] * delayed) / m
    ordered = np.sort(g, axis=1)
    best, gap = ordered[:, -1].copy(), ordered[:, -1] - ordered[:, -2]
    r_star = np.argmax(g, axis=1) + 1

    # g depends on d_j only through 1{d_j >= m} for m = j..k, i.e. through clip(d_j, j - 1, k):
    # vectors with the same clipped delays share their exact values, computed once.
    clipped = np.clip(delays, np.maximum(np.arange(k), 1), k)
    exact_values = {}   # clipped delays -> (r*, exact gap, exact g(r*), runner-up m)
    exact_gap = {}      # row -> exact gap, for the rows recomputed
    runner_up = {}      # row -> the second-best m, for the rows recomputed

    def recompute(row):
        key = tuple(int(d) for d in clipped[row])
        if key not in exact_values:
            problem = B2DEPProblem(means_exact, delays[row], f_exact)
            r = problem.r_star
            others = {m: problem.g_fraction(m) for m in range(1, k + 1) if m != r}
            second = max(others, key=lambda m: (others[m], -m))
            exact_values[key] = (r, problem.g_fraction(r) - others[second],
                                 problem.g_fraction(r), second)
        r, value, top, runner_up[row] = exact_values[key]
        exact_gap[row] = value
        r_star[row], gap[row], best[row] = r, float(value), float(top)

    for row in np.flatnonzero((gap <= NEAR_TIE) | (gap <= gap.min() + NEAR_TIE)):
        recompute(row)
    min_gap = min(exact_gap.values())  # every vector within float error of the minimum is here
    min_rows = [row for row, value in exact_gap.items() if value == min_gap]
    example = min(tuple(int(d) for d in delays[row]) for row in min_rows)
    counts = np.bincount(r_star, minlength=k + 1)[1:]
    return {
        "n_vectors": int(delays.shape[0]),
        "mean_gap": float(gap.mean()),
        "median_gap": float(np.median(gap)),
        "max_gap": float(gap.max()),
        "min_gap": min_gap,
        "n_min_gap_vectors": len(min_rows),
        "min_gap_example": example,
        "min_gap_policies": (int(r_star[min_rows[0]]), int(runner_up[min_rows[0]])),
        "n_ties": sum(1 for value in exact_gap.values() if value == 0),
        "r_star_counts": counts,
        "p_r_star": counts / delays.shape[0],
        "mean_g_ghost": float(best.mean()),
        "n_exact": len(exact_gap),
    }


# ---- Theorem 2 (approximation by ranking policies, Sect. 5) ------------------------------------

def cycle_average_fraction(problem: B2DEPProblem, cycle) -> Fraction:
    """Steady-state per-pull average of repeating the arm sequence ``cycle`` (1-based paper
    labels) forever, exact: the pull at position p of arm a has τ = the cyclic distance back to
    the previous pull of a (the cycle length if a appears once) and earns μ_a(τ) (eq. 1)."""
    cycle = [int(a) for a in cycle]
    if not cycle or any(not 1 <= a <= problem.k for a in cycle):
        raise ValueError(f"cycle: need a non-empty sequence of arms in 1..{problem.k}, got {cycle}")
    length = len(cycle)
    total = Fraction(0)
    for p, a in enumerate(cycle):
        tau = next(d for d in range(1, length + 1) if cycle[(p - d) % length] == a)
        total += problem.mean_fraction(a - 1, tau)
    return total / length


def theorem2_repeat_condition(problem: B2DEPProblem) -> bool:
    """max_{j, 1≤τ≤r_0−1} μ_j(τ) ≤ μ_{r_0}: a condition under which the block argument in the
    proof of Theorem 2 is valid. In any r_0 consecutive pulls the first pull of each of p distinct
    arms earns at most its baseline and every repeated pull has τ ≤ r_0 − 1, hence earns at most
    μ_{r_0}; the block earns at most μ_1 + … + μ_{r_0}, so OPT ≤ (1/r_0)·Σ_{i≤r_0} μ_i and the
    theorem follows. The paper's definition of r_0 (μ_i > μ_j(i − j)) does not imply it: an arm
    with a short delay d_j < τ earns its full baseline on a repeat (``theorem2_counterexample``)."""
    r0 = problem.r0
    repeats = [problem.mean_fraction(j, tau) for j in range(problem.k) for tau in range(1, r0)]
    return max(repeats, default=Fraction(0)) <= problem.means_exact[r0 - 1]


def theorem2_counterexample() -> dict:
    """An instance on which Theorem 2 fails (not in the paper or the spec): k = 3,
    μ = (1, 9/10, 1/2), d = (2, 1, 2), f(1) = f(2) = 1, f(τ) = 1/100 for τ ≥ 3 (nonincreasing, as
    Sect. 3 requires). Built by hand while checking the proof's step "r_0 consecutive rounds earn
    at most μ_1 + … + μ_{r_0}": an arm whose delay is shorter than the gap between two of its
    pulls earns its full baseline twice in the block. It is not one of ``checks.theorem2_table``'s
    random instances (f(3) = 1/100 lies off their 1/20 grid); that table finds failures of the
    same kind on its own (claim C11).

    r_0 = 3 (μ_2 = 9/10 > μ_1(1) = 0 and μ_3 = 1/2 > max(μ_1(2), μ_2(1)) = 0), f(r_0) = 1/100 and
    r* = 3 with g(3) = 4/5 (every τ = 3 exceeds every delay). The cycle 1, 2, 3, 2 pulls arm 2
    every second round, past its delay d_2 = 1, and averages (1 + 9/10 + 1/2 + 9/10)/4 = 33/40, so
    OPT ≥ 33/40 and (1 − f(r_0))·OPT ≥ 0.99·33/40 = 0.81675 > g(r*): the long-run form of
    G_T(π_ghost) ≥ (1 − f(r_0))·G_T(π*) + O(1) fails by a margin linear in T. The proof's
    intermediate claim OPT ≤ (1/r_0)·Σ_{i≤r_0} μ_i = 4/5 fails too: the block 2, 1, 2 of that
    cycle earns 14/5 > μ_1 + μ_2 + μ_3 = 12/5, its repeated pull of arm 2 (τ = 2 > d_2) earning
    μ_2 = 9/10 > μ_3. The failure is exact (a cycle's average is a lower bound on OPT); Karp's
    OPT (= 33/40) is reported alongside."""
    problem = B2DEPProblem(["1", "9/10", "1/2"], [2, 1, 2], ["1", "1", "1/100"])
    cycle = (1, 2, 3, 2)
    average = cycle_average_fraction(problem, cycle)
    r0 = problem.r0
    f_r0 = problem.f_fraction(r0)
    g_ghost = problem.g_fraction(problem.r_star)
    top = sum(problem.means_exact[:r0], Fraction(0)) / r0
    return {
        "problem": problem, "g": tuple(problem.g_fraction(m) for m in range(1, problem.k + 1)),
        "r_star": problem.r_star, "g_ghost": g_ghost, "r0": r0, "f_r0": f_r0,
        "top_r0_mean": top, "cycle": cycle, "cycle_average": average,
        "opt": problem.opt_average, "required": (1 - f_r0) * average,
        "theorem2_holds": g_ghost >= (1 - f_r0) * average,
        "opt_bound_holds": average <= top,
        "repeat_condition": theorem2_repeat_condition(problem),
    }


# ---- errata (spec §5.2) --------------------------------------------------------------------------

def erratum_e1() -> dict:
    """E1, the Sect. 5 example after Theorem 2: k = 3, μ = (1, 2/3, 1/2), d_1 = d_2 = d_3 = 2,
    f(τ) = 2^(−τ), for which the paper states g(2) < g(1) < g(3). By eq. (3) with τ = m:
    g = (1/2, 5/8, 13/18), which is increasing, so the printed order fails. With the constant
    f ≡ 1/2 the same instance gives g = (1/2, 5/12, 13/18), which satisfies it."""
    means, delays = ["1", "2/3", "1/2"], [2, 2, 2]
    printed = B2DEPProblem(means, delays, [Fraction(1, 2 ** tau) for tau in (1, 2, 3)])
    constant = B2DEPProblem(means, delays, ["1/2"])
    result = {}
    for name, problem in (("paper_f", printed), ("constant_f", constant)):
        g = tuple(problem.g_fraction(m) for m in (1, 2, 3))
        result[f"g_{name}"] = g
        result[f"printed_order_holds_{name}"] = g[1] < g[0] < g[2]
        result[f"monotone_{name}"] = g[0] <= g[1] <= g[2]
    return result


def greedy_example_problem(eps) -> B2DEPProblem:
    """The Sect. 3 instance where π_greedy is suboptimal: k = 2, f ≡ 1/2, μ_1 = 1,
    μ_2 = 1/2 − ε, d_1 = d_2 = 1 (fully specified by the paper). 0 ≤ ε ≤ 1/2."""
    eps = exact(eps, "eps")
    if not 0 <= eps <= Fraction(1, 2):
        raise ValueError(f"eps must lie in [0, 1/2] so that μ_2 = 1/2 − ε ∈ [0, 1/2], got {eps}")
    return B2DEPProblem([Fraction(1), Fraction(1, 2) - eps], [1, 1], ["1/2"])


def erratum_e2(eps, T: int = 10_000) -> dict:
    """E2, the greedy example of Sect. 3 (``greedy_example_problem``): the paper concludes
    G_T(π_greedy) ≤ (2/3)·G_T(π*), from G_T(π_greedy) = 1 + (T − 1)/2 and
    G_T(π*) = 1 + ((T − 1)/2)(3/2 − ε), π* alternating the two arms.

    Long run: greedy always pulls arm 1 (μ_1(1) = 1/2 ≥ μ_2 = 1/2 − ε, ties to arm 1) and averages
    1/2; the alternation averages (1 + 1/2 − ε)/2, so the ratio is 1/(3/2 − ε) > 2/3 for ε > 0.
    The claim holds only in the limit ε → 0; with the printed finite-T formulas the ratio is
    (T + 1)/(2 + (T − 1)(3/2 − ε)) > 2/3 for every T even at ε = 0.

    Returns the closed-form ratio (Fraction), the long-run averages from simulation
    (``greedy_expected_rewards``, steady state after the first pull) and from Karp's OPT
    (``opt_average``, 4 states), their ratio, the alternation's average and the finite-T ratios
    (simulated greedy over simulated alternation, and the paper's formulas).
    """
    problem = greedy_example_problem(eps)
    eps = exact(eps, "eps")
    if T < 2:
        raise ValueError(f"T must be >= 2, got {T}")
    greedy = problem.greedy_expected_rewards(T)
    alternation = problem.sequence_expected_rewards(np.arange(T) % 2)
    paper_greedy = 1 + Fraction(T - 1, 2)
    paper_opt = 1 + Fraction(T - 1, 2) * (Fraction(3, 2) - eps)
    ratio = 1 / (Fraction(3, 2) - eps)
    return {
        "eps": eps,
        "ratio_closed_form": ratio,
        "greedy_average": float(greedy[1:].mean()),
        "alternation_average": float(alternation[2:].mean()),
        "opt_average": problem.opt_average,
        "ratio_long_run": float(greedy[1:].mean()) / problem.opt_average,
        "ratio_finite_T_simulated": float(greedy.sum() / alternation.sum()),
        "ratio_finite_T_paper_formulas": paper_greedy / paper_opt,
        "exceeds_two_thirds": ratio > Fraction(2, 3),
    }


def erratum_e3(T, k, delta) -> dict:
    """E3, Theorem 3's statement against its proof: the proof's bound (``theorem3_bound_paper``)
    sums S − 1 stage terms of order sqrt(kT ln(2kS/δ)), so its ratio to the statement's
    k² ln ln T + sqrt(kT(ln(k/δ) + ln ln T)) (``theorem3_stated_order``) grows like S − 1 =
    O(ln ln T), the factor eq. (4) drops; ``ratio_per_stage`` = ratio/(S − 1) stays of order one.
    ``printed_last_line`` is the proof's final expression
    k² ln ln T + √T + √(kT)·(ln(k/δ) + ln ln T), where the logarithms lost their square root.
    Returns T, S, bound_paper, stated_order, ratio, ratio_per_stage and printed_last_line: arrays
    over T (scalars for a scalar T)."""
    T_arr = np.asarray(T, dtype=float)
    paper = np.asarray(theorem3_bound_paper(T_arr, k, delta))
    stated = np.asarray(theorem3_stated_order(T_arr, k, delta))
    S = np.asarray(stage_count(T_arr, k))
    lnln = np.log(np.log(T_arr))
    result = {
        "T": T_arr, "S": S, "bound_paper": paper, "stated_order": stated,
        "ratio": paper / stated, "ratio_per_stage": paper / stated / np.maximum(S - 1, 1),
        "printed_last_line": (k * k * lnln + np.sqrt(T_arr)
                              + np.sqrt(k * T_arr) * (math.log(k / delta) + lnln)),
    }
    return {name: value.item() for name, value in result.items()} if np.ndim(T) == 0 else result
