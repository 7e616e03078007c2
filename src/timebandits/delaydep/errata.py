"""The numbers behind errata E1–E3 (spec §5.2) of Cella & Cesa-Bianchi, "Stochastic Bandits with
Delay-Dependent Payoffs": the Sect. 5 example's printed order of g (E1), the greedy example of
Sect. 3 (E2) and Theorem 3's statement against its proof (E3)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from .exact_values import exact
from .model import B2DEPProblem
from .theory import stage_count, theorem3_bound_paper, theorem3_stated_order


def erratum_e1() -> dict:
    """E1, the Sect. 5 example after Theorem 2: k = 3, μ = (1, 2/3, 1/2), d_1 = d_2 = d_3 = 2,
    f(τ) = 2^(−τ), for which the paper states g(2) < g(1) < g(3). By eq. (3) with τ = m:
    g = (1/2, 5/8, 13/18), which is increasing, so the printed order fails. With the constant
    f ≡ 1/2 the same instance gives g = (1/2, 5/12, 13/18), which satisfies it."""
    means, delays = ["1", "2/3", "1/2"], [2, 2, 2]
    printed = B2DEPProblem(means, delays, [Fraction(1, 2**tau) for tau in (1, 2, 3)])
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
        "T": T_arr,
        "S": S,
        "bound_paper": paper,
        "stated_order": stated,
        "ratio": paper / stated,
        "ratio_per_stage": paper / stated / np.maximum(S - 1, 1),
        "printed_last_line": (
            k * k * lnln + np.sqrt(T_arr) + np.sqrt(k * T_arr) * (math.log(k / delta) + lnln)
        ),
    }
    return {name: value.item() for name, value in result.items()} if np.ndim(T) == 0 else result
