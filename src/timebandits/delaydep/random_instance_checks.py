"""Numerical checks of Theorem 2 (Sect. 5) and Fact 1 (Sect. 8; proof in Supplement §2) of Cella &
Cesa-Bianchi on random small instances (spec §4, claims 6 and 8 of spec §6), and Theorem 2's
proxy for instances too large for exact OPT.

Everything is deterministic given ``seed`` (check_seeds.py): random instances come from
``numpy.random.default_rng(seed)``, so the same seed gives the same table in any order of
evaluation.

``random_instance_table`` is the table the claims of those kinds are judged on, drawn from its
claim's own seed so the report's table and the verdict see the same instances. Memoised: a claim
is evaluated once and then on each decidability witness, which replace only what the claim
decides on.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import numpy as np
import pandas as pd

from timebandits.core.sim.seeding import check_seed

from .check_seeds import check_count, seed_sequence
from .model import OPT_TOLERANCE, B2DEPProblem
from .theorem2 import theorem2_repeat_condition

# Means on this grid keep every g, alternation average and r_0 exact.
GRID = 20
# Cycles of the simulated alternation in ``fact1_table`` (the first one is the transient).
ALTERNATION_CYCLES = 50
# Tolerance for comparing a float simulation with an exact formula.
SIMULATION_TOLERANCE = 1e-12


def random_instance(rng: np.random.Generator, k_max: int = 4, d_max: int = 3) -> B2DEPProblem:
    """A random B2DEP instance: k uniform on 2..k_max, distinct baseline means on the grid
    {0, 1/20, …, 1} sorted descending (μ_1 > … > μ_k as Sect. 5 assumes), delays uniform on
    1..d_max and f(1) ≥ … ≥ f(max(k_max, d_max)) a sorted sample of the same grid (constant
    beyond). All values are exact Fractions."""
    if not 2 <= k_max <= GRID + 1:
        raise ValueError(f"k_max must lie in 2..{GRID + 1}, got {k_max}")
    if d_max < 1:
        raise ValueError(f"d_max must be >= 1, got {d_max}")
    k = int(rng.integers(2, k_max + 1))
    means = sorted(rng.choice(GRID + 1, size=k, replace=False), reverse=True)
    delays = rng.integers(1, d_max + 1, size=k)
    f = sorted(rng.integers(0, GRID + 1, size=max(k_max, d_max)), reverse=True)
    return B2DEPProblem(
        [Fraction(int(m), GRID) for m in means], delays, [Fraction(int(v), GRID) for v in f]
    )


def _instances(seed, n_instances, k_max, d_max):
    rng = np.random.default_rng(seed_sequence(seed))
    return [
        random_instance(rng, k_max, d_max) for _ in range(check_count(n_instances, "n_instances"))
    ]


def _describe(problem: B2DEPProblem) -> dict:
    return {
        "k": problem.k,
        "means": tuple(str(m) for m in problem.means_exact),
        "delays": tuple(int(d) for d in problem.delays),
        "f": tuple(str(v) for v in problem.f_exact),
    }


def theorem2_table(seed, n_instances: int, k_max: int = 4, d_max: int = 3) -> pd.DataFrame:
    """Theorem 2 in long-run averages on random small instances (spec §4, claim 6), one row per
    instance: r*, g(r*), OPT (Karp's maximum mean cycle, ``B2DEPProblem.opt_average``), r_0,
    f(r_0), the ratio g(r*)/OPT and the two inequalities of the theorem and its proof,
    ``ghost_bound_holds``: g(r*) ≥ (1 − f(r_0))·OPT and ``opt_bound_holds``: OPT ≤ (1/r_0)·Σ_{i≤r_0}
    μ_i; ``opt_ge_g``: OPT ≥ g(m) for every m (π_m is a policy); ``repeat_condition``: the
    condition of ``theorem2.theorem2_repeat_condition`` under which the proof is valid.

    Both inequalities fail on some instances (``theorem2.theorem2_counterexample``); they must hold
    wherever ``repeat_condition`` does."""
    rows = []
    for index, problem in enumerate(_instances(seed, n_instances, k_max, d_max)):
        check = problem.approximation_check()
        rows.append(
            {
                "instance": index,
                **_describe(problem),
                **{
                    name: check[name]
                    for name in (
                        "r_star",
                        "g_ghost",
                        "opt",
                        "r0",
                        "f_r0",
                        "lower_bound",
                        "top_r0_mean",
                        "ratio",
                        "ghost_bound_holds",
                        "opt_bound_holds",
                    )
                },
                "opt_ge_g": bool(np.all(problem.g_all() <= check["opt"] + OPT_TOLERANCE)),
                "repeat_condition": theorem2_repeat_condition(problem),
            }
        )
    return pd.DataFrame(rows)


def theorem2_proxy(problem: B2DEPProblem) -> dict:
    """Theorem 2 for instances too large for Karp (Fig. 2 sizes), exact: r_0, f(r_0), the mean of
    the top-r_0 baselines (the proof's bound on OPT), g(r*), ``sufficient``: g(r*) ≥ (1 − f(r_0))·
    top-r_0 mean, ``repeat_condition`` (``theorem2.theorem2_repeat_condition``) and ``certified``
    = both.

    ``sufficient`` is the first chain of the proof (g(r*) ≥ g(r_0) ≥ (1 − f(r_0))·top-r_0 mean)
    and always holds; a failure would mean a bug in g, r* or r_0. It proves the theorem only
    together with OPT ≤ top-r_0 mean, which is false in general
    (``theorem2.theorem2_counterexample``) but holds under ``repeat_condition``. Where that
    condition fails, the check is inconclusive: the exact OPT is needed."""
    r0 = problem.r0
    f_r0 = problem.f_fraction(r0)
    top = sum(problem.means_exact[:r0], Fraction(0)) / r0
    g_ghost = problem.g_fraction(problem.r_star)
    sufficient = g_ghost >= (1 - f_r0) * top
    repeat = theorem2_repeat_condition(problem)
    return {
        "r_star": problem.r_star,
        "g_ghost": g_ghost,
        "r0": r0,
        "f_r0": f_r0,
        "top_r0_mean": top,
        "lower_bound": (1 - f_r0) * top,
        "sufficient": sufficient,
        "repeat_condition": repeat,
        "certified": sufficient and repeat,
    }


def _simulated_alternation(problem: B2DEPProblem, m: int, n: int) -> np.ndarray:
    """Per-cycle averages of π_m, π_n, π_m, π_n, … (``sequence_expected_rewards``) from a fresh
    state, dropping the first cycle (the transient: arms > m are fresh in it)."""
    cycle = np.concatenate([np.arange(m), np.arange(n)])
    rewards = problem.sequence_expected_rewards(np.tile(cycle, ALTERNATION_CYCLES))
    return rewards.reshape(ALTERNATION_CYCLES, m + n)[1:].mean(axis=1)


def fact1_table(seed, n_instances: int, k_max: int = 4, d_max: int = 3) -> pd.DataFrame:
    """Fact 1 (Sect. 8; proof in Supplement §2) on random instances, one row per instance and pair
    m < n (spec §4, claim 8). Exact columns: the alternation average A (Supplement §2 / spec §2.6,
    ``alternation_average_fraction``), g(m), g(n), W = (m·g(m) + n·g(n))/(m + n), and the identity
    A − W = [μ_{m+1→n}(m+n) − μ_{m+1→n}(n)]/(m + n) ≥ 0 (``identity_holds``, ``nonnegative``);
    when g(m) = g(n) (``tied``) this is the Fact. ``simulated`` is the steady-state average of a
    simulated strict alternation (first cycle dropped); ``simulated_matches`` says every later
    cycle's average equals A within SIMULATION_TOLERANCE."""
    rows = []
    for index, problem in enumerate(_instances(seed, n_instances, k_max, d_max)):
        for m in range(1, problem.k + 1):
            for n in range(m + 1, problem.k + 1):
                alternation = problem.alternation_average_fraction(m, n)
                g_m, g_n = problem.g_fraction(m), problem.g_fraction(n)
                weighted = (m * g_m + n * g_n) / (m + n)
                rhs = (
                    problem.mu_sum_fraction(m + 1, n, m + n) - problem.mu_sum_fraction(m + 1, n, n)
                ) / (m + n)
                cycles = _simulated_alternation(problem, m, n)
                rows.append(
                    {
                        "instance": index,
                        **_describe(problem),
                        "m": m,
                        "n": n,
                        "g_m": g_m,
                        "g_n": g_n,
                        "alternation": alternation,
                        "weighted": weighted,
                        "difference": alternation - weighted,
                        "identity_rhs": rhs,
                        "identity_holds": alternation - weighted == rhs,
                        "nonnegative": rhs >= 0,
                        "tied": g_m == g_n,
                        "simulated": float(cycles.mean()),
                        "simulated_matches": bool(
                            np.all(np.abs(cycles - float(alternation)) <= SIMULATION_TOLERANCE)
                        ),
                    }
                )
    return pd.DataFrame(rows)


# The cache is keyed by what names a seed (base seed, paper, claim), not by the SeedSequence,
# which hashes by identity: a fresh one per call would miss every time.
@lru_cache(maxsize=8)
def _random_table(
    kind: str,
    base_seed: int,
    paper_key: str,
    seed_claim: str,
    instances: int,
    k_max: int,
    d_max: int,
):
    check = theorem2_table if kind == "theorem2" else fact1_table
    return check(check_seed(base_seed, paper_key, seed_claim), instances, k_max, d_max)


def random_instance_table(claim: dict, config: dict, paper_key: str):
    """The random-instance table a ``theorem2`` claim (Theorem 2's table) or a Fact 1 claim (Fact
    1's table) is judged on, drawn from the seed of the claim named by ``instances_of`` (default:
    the claim itself). The table is shared: read it, do not change it."""
    kind = "theorem2" if claim["kind"] == "theorem2" else "fact1"
    return _random_table(
        kind,
        int(config["base_seed"]),
        paper_key,
        claim.get("instances_of", claim["id"]),
        int(claim["instances"]),
        int(claim["k_max"]),
        int(claim["d_max"]),
    )
