"""Numerical checks of Theorem 2, Fact 1 and Theorem 4 of Cella & Cesa-Bianchi on many instances
(spec §4, claims 6–8 of spec §6).

Everything is deterministic given ``seed``: an int or a ``numpy.random.SeedSequence``. Random
instances come from ``numpy.random.default_rng(seed)``; simulation run r of instance i uses the
child SeedSequence (seed's entropy, spawn key + (i, r)) through ``core.sim.seeding.key64``, so the
same seed gives the same table in any order of evaluation.

``random_instance_table`` and ``ranker_table`` are the tables the claims of those kinds are
judged on (random small instances for Theorem 2 and Fact 1, BanditRanker runs for Theorem 4),
each drawn from its claim's own seed so the report's table and the verdict see the same
instances. Memoised: a claim is evaluated once and then on each decidability witness, which
replace only what the claim decides on.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import numpy as np
import pandas as pd

from timebandits.core.sim.seeding import check_seed, key64

from .exact_values import exact
from .model import OPT_TOLERANCE, B2DEPProblem
from .ranker import RANKER_DONE, bandit_ranker_b2dep_run, bandit_ranker_run
from .theorem2 import theorem2_repeat_condition
from .theory import ranker_b2dep_pull_bound, ranker_order_term, ranker_pull_bound

# Means on this grid keep every g, alternation average and r_0 exact.
GRID = 20
# Cycles of the simulated alternation in ``fact1_table`` (the first one is the transient).
ALTERNATION_CYCLES = 50
# Tolerance for comparing a float simulation with an exact formula.
SIMULATION_TOLERANCE = 1e-12


def _seed_sequence(seed) -> np.random.SeedSequence:
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative int or a numpy SeedSequence, got {seed!r}")
    return np.random.SeedSequence(int(seed))


def _child(root: np.random.SeedSequence, *path: int) -> np.random.SeedSequence:
    """The SeedSequence at ``path`` below ``root`` (what ``spawn`` would give, without mutating
    ``root``'s spawn counter)."""
    return np.random.SeedSequence(root.entropy, spawn_key=tuple(root.spawn_key) + path)


def _check_count(n, name: str) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {n!r}")
    return int(n)


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
    rng = np.random.default_rng(_seed_sequence(seed))
    return [
        random_instance(rng, k_max, d_max) for _ in range(_check_count(n_instances, "n_instances"))
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
    together with OPT ≤ top-r_0 mean, which is false in general (``theorem2.theorem2_counterexample``)
    but holds under ``repeat_condition``. Where that condition fails, the check is inconclusive:
    the exact OPT is needed."""
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


def _ranker_row(label, means, order, pulls, status, bound, delta) -> dict:
    correct = [
        status[r] == RANKER_DONE and np.array_equal(order[r], np.argsort(-means, kind="stable"))
        for r in range(len(pulls))
    ]
    return {
        "instance": label,
        "k": means.size,
        "means": tuple(float(m) for m in means),
        "runs": len(pulls),
        "fraction_correct": float(np.mean(correct)),
        "target_correct": 1.0 - delta,
        "mean_pulls": float(np.mean(pulls)),
        "max_pulls": int(np.max(pulls)),
        "pull_bound": bound,
        "fraction_within_bound": float(np.mean(np.asarray(pulls) <= bound)),
        "max_within_bound": bool(np.max(pulls) <= bound),
        "order_term": ranker_order_term(means, delta),
    }


def theorem4_table(
    means_list, delta: float, runs: int, seed, b2dep=None, max_rounds: int = 10**7
) -> pd.DataFrame:
    """Theorem 4 by simulation (spec §4, claim 7): BanditRanker (Algorithm 2) on stationary
    Bernoulli arms with the given means (distinct), ``runs`` runs each; per instance the fraction
    of runs returning the true order (target ≥ 1 − δ), the mean and max pulls against
    ``theory.ranker_pull_bound`` = Σ N_i, and the order term of eq. (7).

    With ``b2dep`` = (problem, d_0), one more row runs the B2DEP version (Sect. 7, last
    paragraph) on that instance, which needs max d_i < d_0 ≤ k (spec P9), against
    ``theory.ranker_b2dep_pull_bound``. Run r of row i uses key64 of child (i, r) of ``seed``."""
    root = _seed_sequence(seed)
    runs = _check_count(runs, "runs")
    rows = []
    for index, means in enumerate(means_list):
        means = np.asarray(means, dtype=float)
        bound = ranker_pull_bound(means, delta)
        results = [
            bandit_ranker_run(means, delta, key64(_child(root, index, r)), max_rounds)
            for r in range(runs)
        ]
        rows.append(
            _ranker_row(
                f"stationary {index}",
                means,
                [x[0] for x in results],
                [x[1] for x in results],
                [x[4] for x in results],
                bound,
                delta,
            )
        )
    if b2dep is not None:
        problem, d0 = b2dep
        index = len(rows)
        bound = ranker_b2dep_pull_bound(problem.means, delta, d0)
        results = [
            bandit_ranker_b2dep_run(
                problem.mean_table(), d0, delta, key64(_child(root, index, r)), max_rounds
            )
            for r in range(runs)
        ]
        row = _ranker_row(
            "b2dep",
            problem.means,
            [x[0] for x in results],
            [x[1] for x in results],
            [x[4] for x in results],
            bound,
            delta,
        )
        rows.append({**row, "delays": tuple(int(d) for d in problem.delays), "d0": d0})
    return pd.DataFrame(rows)


# The caches are keyed by what names a seed (base seed, paper, claim), not by the SeedSequence,
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


@lru_cache(maxsize=4)
def _ranker_table(means, delta, runs, base_seed, paper_key, claim_id, b2dep):
    instance = None if b2dep is None else (B2DEPProblem.from_config(b2dep[0]), b2dep[1])
    return theorem4_table(
        [list(m) for m in means], delta, runs, check_seed(base_seed, paper_key, claim_id), instance
    )


def ranker_table(claim: dict, config: dict, paper_key: str):
    """The BanditRanker runs a ``theorem4`` claim is judged on: its stationary instances and, if
    it names one, its B2DEP instance with d_0. Shared: read it, do not change it."""
    means = tuple(
        tuple(float(exact(m, "instances")) for m in instance) for instance in claim["instances"]
    )
    b2dep = claim.get("b2dep")
    key = None
    if b2dep is not None:
        key = (_Frozen(b2dep), int(b2dep["d0"]))
    return _ranker_table(
        means,
        float(claim["delta"]),
        int(claim["runs"]),
        int(config["base_seed"]),
        paper_key,
        claim["id"],
        key,
    )


class _Frozen(dict):
    """A config mapping usable as a cache key (compared by its YAML text form)."""

    def __hash__(self):
        return hash(repr(sorted(self.items())))
