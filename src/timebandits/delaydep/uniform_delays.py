"""The uniform-delay statistics behind the Fig. 2 text of Cella & Cesa-Bianchi, "Stochastic
Bandits with Delay-Dependent Payoffs": the ranking policies' g (eq. 3) over every delay vector of
Fig. 2's i.i.d. uniform delays (Fig. 2 caption, spec §3)."""

from __future__ import annotations

import numpy as np

from .exact_values import exact
from .model import B2DEPProblem

# Float g values within this distance are re-compared exactly (spec P5).
NEAR_TIE = 1e-9
# uniform_delay_statistics enumerates d_max^k vectors; refuse more than this many.
MAX_DELAY_VECTORS = 5_000_000


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
    if d_max**k > MAX_DELAY_VECTORS:
        raise ValueError(f"d_max^k = {d_max}^{k} exceeds MAX_DELAY_VECTORS = {MAX_DELAY_VECTORS}")
    # validates order and ranges of means and f once
    B2DEPProblem(means_exact, [1] * k, f_exact)

    delays = np.indices((d_max,) * k, dtype=np.int16).reshape(k, -1).T + 1  # (N, k)
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
    exact_values = {}  # clipped delays -> (r*, exact gap, exact g(r*), runner-up m)
    exact_gap = {}  # row -> exact gap, for the rows recomputed
    runner_up = {}  # row -> the second-best m, for the rows recomputed

    def recompute(row):
        key = tuple(int(d) for d in clipped[row])
        if key not in exact_values:
            problem = B2DEPProblem(means_exact, delays[row], f_exact)
            r = problem.r_star
            others = {m: problem.g_fraction(m) for m in range(1, k + 1) if m != r}
            second = max(others, key=lambda m: (others[m], -m))
            exact_values[key] = (
                r,
                problem.g_fraction(r) - others[second],
                problem.g_fraction(r),
                second,
            )
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
