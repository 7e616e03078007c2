"""The computed instances some claims of paper 004 are judged on (random small instances for
Theorem 2 and Fact 1, BanditRanker runs for Theorem 4), each drawn from its claim's own seed so
the report's table and the verdict see the same instances. Memoised: a claim is evaluated once
and then on each decidability witness, which replace only what the claim decides on."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from timebandits.core.sim.seeding import check_seed, environment_seed
from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.decidability import derived
from timebandits.core.verdicts.vocabulary import NOT_REPRODUCED, REPRODUCED, STATISTICAL, SUPPORTS

from .checks import fact1_table, theorem2_table, theorem4_table
from .model import B2DEPProblem, exact
from .simulation import draw_delays


def _fraction(flags) -> str:
    flags = np.asarray(flags, dtype=bool)
    return f"{int(flags.sum())}/{flags.size}"


# The caches are keyed by what names a seed (base seed, paper, claim), not by the SeedSequence,
# which hashes by identity: a fresh one per call would miss every time.
@lru_cache(maxsize=8)
def _random_table(kind: str, base_seed: int, paper_key: str, seed_claim: str, instances: int,
                  k_max: int, d_max: int):
    check = theorem2_table if kind == "theorem2" else fact1_table
    return check(check_seed(base_seed, paper_key, seed_claim), instances, k_max, d_max)


def random_instance_table(claim: dict, config: dict, paper_key: str):
    """The random-instance table a ``theorem2`` claim (Theorem 2's table) or a Fact 1 claim (Fact
    1's table) is judged on, drawn from the seed of the claim named by ``instances_of`` (default:
    the claim itself). The table is shared: read it, do not change it."""
    kind = "theorem2" if claim["kind"] == "theorem2" else "fact1"
    return _random_table(kind, int(config["base_seed"]), paper_key,
                         claim.get("instances_of", claim["id"]), int(claim["instances"]),
                         int(claim["k_max"]), int(claim["d_max"]))


@lru_cache(maxsize=4)
def _ranker_table(means, delta, runs, base_seed, paper_key, claim_id, b2dep):
    instance = None if b2dep is None else (B2DEPProblem.from_config(b2dep[0]), b2dep[1])
    return theorem4_table([list(m) for m in means], delta, runs,
                          check_seed(base_seed, paper_key, claim_id), instance)


def ranker_table(claim: dict, config: dict, paper_key: str):
    """The BanditRanker runs a ``theorem4`` claim is judged on: its stationary instances and, if
    it names one, its B2DEP instance with d_0. Shared: read it, do not change it."""
    means = tuple(tuple(float(exact(m, "instances")) for m in instance) for instance in claim["instances"])
    b2dep = claim.get("b2dep")
    key = None
    if b2dep is not None:
        key = (_Frozen(b2dep), int(b2dep["d0"]))
    return _ranker_table(means, float(claim["delta"]), int(claim["runs"]),
                         int(config["base_seed"]), paper_key, claim["id"], key)


class _Frozen(dict):
    """A config mapping usable as a cache key (compared by its YAML text form)."""

    def __hash__(self):
        return hash(repr(sorted(self.items())))


def with_seeded_delays(ctx):
    """``ctx`` with the delays every trace records (``delay_i``) drawn again from each run's
    environment seed, as the simulation draws them (simulation.draw_delays): the same values in
    real traces, and the real instances in a trace that has only the configured shape (a
    decidability check before any run, core/verdicts/decidability.py). Witnesses start from it."""
    base_seed, key = ctx.config["base_seed"], ctx.paper["paper"]["key"]

    def trace_of(experiment, algorithm):
        trace = ctx.trace(experiment, algorithm)
        environment = ctx.paper["experiments"][experiment]["environment"]
        columns = [f"delay_{i + 1}" for i in range(len(environment["means"]))]
        if not set(columns) <= set(trace.columns):
            return trace
        reps, index = np.unique(trace["repetition"].to_numpy(dtype=int), return_inverse=True)
        drawn = np.array([draw_delays(environment, environment_seed(base_seed, key, experiment, int(r)))
                          for r in reps])
        trace = trace.copy()
        trace[columns] = drawn[index]
        return trace
    return derived(ctx, trace_of=trace_of)


def fact1_rows(table) -> list[dict]:
    """Supporting rows of a Fact 1 claim on the random instances: the identity behind the Fact
    (alternation − weighted g = [μ_(m+1→n)(m+n) − μ_(m+1→n)(n)]/(m+n) ≥ 0, Supplement §2) and
    the simulated alternations. They support the Fact; the paper's wording is judged elsewhere
    (Fact 1 at Fig. 3, and as printed for every instance, the erratum)."""
    valid = table["identity_holds"] & table["nonnegative"]
    tied = table[table["tied"]]
    strict = tied["difference"] > 0
    scope = f"{table['instance'].nunique()} random instances, {len(table)} pairs m < n"
    return [{
        "scope": scope, "evidence": "exact computation", "role": SUPPORTS,
        "verdict": REPRODUCED if valid.all() else NOT_REPRODUCED,
        "headline": f"identity and A ≥ W exact on {_fraction(valid)} pairs",
        "statistic": (f"alternation − (m g(m) + n g(n))/(m+n) = [μ_(m+1→n)(m+n) − "
                      f"μ_(m+1→n)(n)]/(m+n) ≥ 0 exactly on {_fraction(valid)}; tied pairs: "
                      f"{len(tied)}, alternation strictly higher on {_fraction(strict)} (equality "
                      f"when every d_j < n for j in m+1..n)"),
    }, {
        "scope": f"{scope}: simulation", "evidence": STATISTICAL, "role": SUPPORTS,
        "verdict": REPRODUCED if table["simulated_matches"].all() else NOT_REPRODUCED,
        "headline": f"simulated alternation matches on {_fraction(table['simulated_matches'])}",
        "statistic": (f"every steady-state cycle of a simulated strict alternation averages "
                      f"the exact value on {_fraction(table['simulated_matches'])} pairs"),
    }]


def with_metrics(ctx, claim, values: dict) -> ClaimContext:
    """A witness of ``ctx`` in which each metric of ``values`` of the claim's algorithm, in each
    of its experiments, is ``value(experiment, trace)`` (an array over the trace's rows), the
    metrics set in order (after the runs' delays, drawn from their seeds); other data are real."""
    ctx = with_seeded_delays(ctx)

    def trace_of(experiment, algorithm):
        trace = ctx.trace(experiment, algorithm)
        if algorithm != claim["algorithm"] or experiment not in claim["experiments"]:
            return trace
        trace = trace.copy()
        for metric, value in values.items():
            trace[metric] = value(experiment, trace)
        return trace
    return derived(ctx, trace_of=trace_of)
