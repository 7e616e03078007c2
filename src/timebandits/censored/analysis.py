"""Analysis of the censored-resources traces against the exact ν tables and the paper's bounds:
the bound table (Theorem 1 for RCUCB, Corollary 14 for the UCB reduction, per run and per pair)
and the censoring table of §5.1 / App. F.1."""

from __future__ import annotations

import numpy as np
import pandas as pd

from timebandits.core.bounds import compare_to_bound, trivial_bound

from .claims import censored_share, problem_of, truth_of
from .simulation import algorithm_params, pair_label, penalty_max
from .theory import corollary14_bound, corollary14_per_pair, theorem1_bound, theorem1_per_pair

# Which bound each policy's curves are compared with.
BOUNDS = {"rcucb": ("theorem1", theorem1_bound, theorem1_per_pair),
          "ucb": ("corollary14", corollary14_bound, corollary14_per_pair)}


def _bound_arguments(paper: dict, algorithm: str, problem) -> tuple:
    """(penalty argument, α) of the algorithm's bound: λ(τ_k) for Theorem 1, λ(τmax) for Cor. 14."""
    alg = paper["algorithms"][algorithm]
    params = algorithm_params(alg)
    lam = problem.penalty if alg["policy"] == "rcucb" else penalty_max(params, problem)
    return lam, float(params["alpha"])


def bound_table(paper: dict, trace_of) -> pd.DataFrame:
    """Every experiment that records per-pair plays: the regret of each RCUCB (UCB) algorithm
    against Theorem 1 (Corollary 14), bound ``theorem1_<algorithm>`` (``corollary14_<algorithm>``),
    and the plays of every suboptimal pair against its per-pair term (u_{i,τ} resp. the Cor. 14
    per-pair bound), bound ``pairs_<theorem>_<algorithm>_plays_a<i>_l<k>``, with the trivial bounds
    t·max Δ and t. Bounds are void (+inf) for α ≤ 1."""
    frames = []
    for exp_id, exp in paper["experiments"].items():
        if "pairs" not in exp.get("record", []):
            continue
        problem = problem_of(paper, exp_id)
        for algorithm in exp["algorithms"]:
            policy = paper["algorithms"][algorithm]["policy"]
            if policy not in BOUNDS:
                continue
            name, total, per_pair = BOUNDS[policy]
            lam, alpha = _bound_arguments(paper, algorithm, problem)
            trace = trace_of(exp_id, algorithm)
            regret = trace.pivot(index="t", columns="repetition", values="regret")
            t = regret.index.to_numpy(dtype=float)
            frames.append(compare_to_bound(regret, total(problem.nu, lam, alpha, t),
                                           trivial_bound(t, problem.gaps.max()), experiment=exp_id,
                                           algorithm=algorithm, bound_name=f"{name}_{algorithm}",
                                           metric="regret"))
            terms = per_pair(problem.nu, lam, alpha, t)
            for i, k in zip(*np.nonzero(problem.gaps > 0)):
                label = pair_label(i, k)
                plays = trace.pivot(index="t", columns="repetition", values=label)
                frames.append(compare_to_bound(plays, terms[:, i, k], trivial_bound(t, 1.0),
                                               experiment=exp_id, algorithm=algorithm,
                                               bound_name=f"pairs_{name}_{algorithm}_{label}",
                                               metric=label))
    return pd.concat(frames, ignore_index=True)


def censoring_table(paper: dict, trace_of) -> pd.DataFrame:
    """Mean share of censored rounds (sd over runs) per algorithm of every paper experiment
    beside the paper's printed numbers, and the exact P(C > τ*) beside the printed 1 − F(τ*)."""
    printed = paper.get("printed", {}).get("censoring", {})
    rows = []

    for exp_id, exp in paper["experiments"].items():
        if exp["group"] != "paper":
            continue
        theirs = printed.get(exp_id, {})
        truth = truth_of(paper, exp_id)
        row = {"experiment": exp_id, "title": exp["title"], "truth": truth,
               "truth_printed": theirs.get("truth", np.nan)}
        for algorithm in ("rcucb", "thompson", "ucb"):
            share = censored_share(trace_of(exp_id, algorithm))
            printed_value = theirs.get(algorithm, [np.nan, np.nan])
            printed_value = printed_value if isinstance(printed_value, list) else [printed_value, np.nan]
            row.update({f"{algorithm}": share.mean(), f"{algorithm}_sd": share.std(ddof=1),
                        f"{algorithm}_printed": printed_value[0],
                        f"{algorithm}_sd_printed": printed_value[1]})
        rows.append(row)
    return pd.DataFrame(rows)
