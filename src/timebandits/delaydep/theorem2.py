"""Theorem 2 of Cella & Cesa-Bianchi, "Stochastic Bandits with Delay-Dependent Payoffs" (Sect. 5,
approximation by ranking policies), exactly: the long-run average of a repeated arm sequence, the
condition under which the proof's block argument is valid, and a counterexample to the theorem."""

from __future__ import annotations

from fractions import Fraction

from .model import B2DEPProblem


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
    pulls earns its full baseline twice in the block. It is not one of
    ``random_instance_checks.theorem2_table``'s random instances (f(3) = 1/100 lies off their
    1/20 grid); that table finds failures of the same kind on its own (claim C11).

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
        "problem": problem,
        "g": tuple(problem.g_fraction(m) for m in range(1, problem.k + 1)),
        "r_star": problem.r_star,
        "g_ghost": g_ghost,
        "r0": r0,
        "f_r0": f_r0,
        "top_r0_mean": top,
        "cycle": cycle,
        "cycle_average": average,
        "opt": problem.opt_average,
        "required": (1 - f_r0) * average,
        "theorem2_holds": g_ghost >= (1 - f_r0) * average,
        "opt_bound_holds": average <= top,
        "repeat_condition": theorem2_repeat_condition(problem),
    }
