"""Numerical check of Theorem 4 of Cella & Cesa-Bianchi (Sect. 7; spec §4, claim 7 of spec §6):
BanditRanker (Algorithm 2) runs on stationary instances and on a B2DEP instance.

Everything is deterministic given ``seed`` (check_seeds.py): simulation run r of instance i uses
the child SeedSequence (seed's entropy, spawn key + (i, r)) through ``core.sim.seeding.key64``,
so the same seed gives the same table in any order of evaluation.

``ranker_table`` is the table the claims of that kind are judged on, drawn from its claim's own
seed so the report's table and the verdict see the same runs. Memoised: a claim is evaluated
once and then on each decidability witness, which replace only what the claim decides on.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pandas as pd

from timebandits.core.sim.seeding import check_seed, key64

from .check_seeds import check_count, seed_sequence
from .exact_values import exact
from .model import B2DEPProblem
from .ranker import RANKER_DONE, bandit_ranker_b2dep_run, bandit_ranker_run
from .theory import ranker_b2dep_pull_bound, ranker_order_term, ranker_pull_bound


def _child(root: np.random.SeedSequence, *path: int) -> np.random.SeedSequence:
    """The SeedSequence at ``path`` below ``root`` (what ``spawn`` would give, without mutating
    ``root``'s spawn counter)."""
    return np.random.SeedSequence(root.entropy, spawn_key=tuple(root.spawn_key) + path)


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
    root = seed_sequence(seed)
    runs = check_count(runs, "runs")
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


# The cache is keyed by what names a seed (base seed, paper, claim), not by the SeedSequence,
# which hashes by identity: a fresh one per call would miss every time.
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
