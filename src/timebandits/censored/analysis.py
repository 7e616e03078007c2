"""Analysis of the censored-resources traces against the exact ν tables and the paper's bounds:
the bound table (Theorem 1 for RCUCB, Corollary 14 for the UCB reduction, per run and per pair;
Theorem 2 for z-RCUCB's simple regret) and the censoring table of §5.1 / App. F.1 (with the
exact P(C > τ*) and the runs' censored shares that the censoring claims compare)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from timebandits.core.sim.traces import checkpoint_table
from timebandits.core.trivial import trivial_bound
from timebandits.core.verdicts.bounds import compare_curves, compare_to_bound

from .model import problem_of
from .simulation import ZOOMING, algorithm_params, pair_label, penalty_max
from .theorem2 import (
    near_optimality_constant,
    theorem2_c_T,
    theorem2_constant,
    theorem2_H_T,
    theorem2_rate,
)
from .theory import corollary14_bound, corollary14_per_pair, theorem1_bound, theorem1_per_pair

# Def. 3's packing counts are evaluated on this many equidistant limits per arm, for ε from
# PACKING_EPSILON_MIN up to the range of ν (smaller ε are not resolved by the limit grid).
PACKING_POINTS = 20001
PACKING_EPSILON_MIN = 1e-3

# Which bound each policy's curves are compared with.
BOUNDS = {
    "rcucb": ("theorem1", theorem1_bound, theorem1_per_pair),
    "ucb": ("corollary14", corollary14_bound, corollary14_per_pair),
}


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
        for algorithm in exp["algorithms"]:
            if paper["algorithms"][algorithm]["policy"] == ZOOMING:
                frames.append(theorem2_rows(paper, exp_id, algorithm, trace_of(exp_id, algorithm)))
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
            regret = checkpoint_table(trace, "regret")
            t = regret.index.to_numpy(dtype=float)
            frames.append(
                compare_to_bound(
                    regret,
                    total(problem.nu, lam, alpha, t),
                    trivial_bound(t, problem.gaps.max()),
                    experiment=exp_id,
                    algorithm=algorithm,
                    bound_name=f"{name}_{algorithm}",
                    metric="regret",
                )
            )
            terms = per_pair(problem.nu, lam, alpha, t)
            suboptimal = list(zip(*np.nonzero(problem.gaps > 0)))
            labels = [pair_label(i, k) for i, k in suboptimal]
            if not suboptimal:
                continue
            plays = trace.pivot(index="t", columns="repetition", values=labels)[labels]
            rows, columns = map(list, zip(*suboptimal))
            frames.append(
                compare_curves(  # every pair at once: (t x pair x repetition)
                    plays.to_numpy(dtype=float).reshape(len(t), len(labels), -1),
                    terms[:, rows, columns],
                    np.repeat(trivial_bound(t, 1.0)[:, None], len(labels), axis=1),
                    t=regret.index.to_numpy(),
                    experiment=exp_id,
                    algorithm=algorithm,
                    bound_names=[f"pairs_{name}_{algorithm}_{label}" for label in labels],
                    metrics=labels,
                )
            )
    return pd.concat(frames, ignore_index=True)


def theorem2_parameters(paper: dict, experiment: str) -> dict:
    """Theorem 2's instance constants for ``experiment``: sup ν over (0, τmax], the hand-derived
    near-optimality dimension d (environment key ``near_optimality_d``) and the constant C of
    Def. 3 computed from the exact ν on PACKING_POINTS limits per arm."""
    environment = paper["experiments"][experiment]["environment"]
    if "near_optimality_d" not in environment:
        raise ValueError(
            f"experiment {experiment!r} runs z-RCUCB but its environment lacks "
            f"near_optimality_d (Theorem 2 needs it)"
        )
    problem = problem_of(paper, experiment)
    taus = np.linspace(problem.tau_max / PACKING_POINTS, problem.tau_max, PACKING_POINTS)
    curves = np.array([problem.nu_at(arm, taus) for arm in range(problem.n)])
    sup = problem.continuous_optimum()[0]
    d = float(environment["near_optimality_d"])
    epsilons = np.geomspace(PACKING_EPSILON_MIN, sup - curves.min(), 80)
    return {
        "problem": problem,
        "sup": sup,
        "d": d,
        "range": sup - curves.min(),
        "C": near_optimality_constant(taus, curves, sup, d, epsilons),
    }


def theorem2_curve(paper: dict, experiment: str, algorithm: str, t, constants=None) -> np.ndarray:
    """Theorem 2's bound C̃·(ln(T²/δ)/T)^{1/(d+2)} at the horizons ``t`` for z-RCUCB
    ``algorithm`` on ``experiment`` (C̃ with H_T and c_T of each T)."""
    constants = constants or theorem2_parameters(paper, experiment)
    problem = constants["problem"]
    params = algorithm_params(paper["algorithms"][algorithm])
    alpha, m, delta = float(params["alpha"]), int(params["m"]), float(params["delta"])
    t = np.asarray(t, dtype=float)
    lam_max = float(problem.penalty_at(problem.tau_max))
    c_T = np.atleast_1d(theorem2_c_T(t, delta, problem.n, alpha, lam_max, problem.tau_max))
    scale = np.array(
        [
            theorem2_constant(
                constants["d"],
                constants["C"],
                m,
                alpha,
                lam_max,
                theorem2_H_T(problem.penalty_at, problem.tau_max, m, c),
            )
            for c in c_T
        ]
    )
    return scale * theorem2_rate(t, delta, constants["d"])


def theorem2_rows(paper: dict, experiment: str, algorithm: str, trace) -> pd.DataFrame:
    """z-RCUCB's simple regret against Theorem 2 at each checkpoint T, bound
    ``theorem2_<algorithm>``: a bound that holds with probability ≥ 1 − δ, compared here with the
    mean over runs and with the number of runs above it. The trivial bound is the range of ν
    (sup − min)."""
    constants = theorem2_parameters(paper, experiment)
    table = checkpoint_table(trace, "simple_regret")
    t = table.index.to_numpy(dtype=float)
    return compare_to_bound(
        table,
        theorem2_curve(paper, experiment, algorithm, t, constants),
        np.full(t.shape, constants["range"]),
        experiment=experiment,
        algorithm=algorithm,
        bound_name=f"theorem2_{algorithm}",
        metric="simple_regret",
    )


def truth_of(paper: dict, experiment: str) -> float:
    """P(C > τ*) of the optimal pair (the mean over optimal pairs if several are tied)."""
    problem = problem_of(paper, experiment)
    return float(np.mean([problem.censor_prob[i, k] for i, k in problem.optimal_pairs]))


def censored_share(trace) -> np.ndarray:
    """Censored rounds / T per run, ordered by repetition (spec P10: every round counts, the
    initialisation included)."""
    last = trace[trace["t"] == trace["t"].max()].sort_values("repetition")
    return last["censored"].to_numpy(dtype=float) / float(trace["t"].max())


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
        row = {
            "experiment": exp_id,
            "title": exp["title"],
            "truth": truth,
            "truth_printed": theirs.get("truth", np.nan),
        }
        for algorithm in ("rcucb", "thompson", "ucb"):
            share = censored_share(trace_of(exp_id, algorithm))
            printed_value = theirs.get(algorithm, [np.nan, np.nan])
            printed_value = (
                printed_value if isinstance(printed_value, list) else [printed_value, np.nan]
            )
            row.update(
                {
                    f"{algorithm}": share.mean(),
                    f"{algorithm}_sd": share.std(ddof=1),
                    f"{algorithm}_printed": printed_value[0],
                    f"{algorithm}_sd_printed": printed_value[1],
                }
            )
        rows.append(row)
    return pd.DataFrame(rows)


# The metrics of the paper's traces (simulation.py's docstring), which a claim's or a figure's
# `metric` may name (checked when the paper file loads: core/build/config_checks.py); {…} stands for
# a number.
METRICS = (
    "regret",
    "censored",
    "reward",
    "gain",
    "simple_regret",
    "output_tau",
    "grid_points",
    "plays_a{i}_l{k}",
    "above_conf",
    "below_conf",
)


def metric_range(paper: dict, experiment: str, metric: str, horizon: float):
    """The range of a mean at the horizon T on the experiment's instance (policies.run_censored):
    the pseudo-regret Σ (ν* − ν_{I_s,τ_s}) lies in [0, T·max Δ]; the counts of censored rounds
    and the rewards (each in [0, 1] a round) in [0, T]; the penalized gain, a round's reward less
    its cost c·x (x ≤ the largest limit) or, censored, less the penalty λ(τ), in
    [−T·max(max λ, c·max τ), T]. None for other metrics."""
    if metric in ("censored", "reward"):
        return 0.0, float(horizon)
    problem = problem_of(paper, experiment)
    if metric == "regret":
        return 0.0, float(trivial_bound(np.array([horizon]), problem.gaps.max())[0])
    if metric == "gain":
        loss = max(float(np.max(problem.penalty)), problem.cost_slope * float(np.max(problem.grid)))
        return -horizon * loss, float(horizon)
    return None
