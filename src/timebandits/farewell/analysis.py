"""Analysis of the simulated traces against the model's exact quantities and the paper's
bounds: bound tables (Thm 2, Lemma 2), the Theorem 1 table and the per-panel quantities."""

from __future__ import annotations

import numpy as np
import pandas as pd

from timebandits.core.sim.traces import checkpoint_table
from timebandits.core.trivial import trivial_bound
from timebandits.core.verdicts.bounds import compare_to_bound

from .model import F2AProblem
from .theory import (
    comparison_orders,
    constant_policy_expected_reward,
    lemma2_pull_bound,
    theorem1_offset,
    theorem2_bound,
    theorem2_leading_term,
    vacuity_crossover,
)

BOUNDED_ALGORITHM = "wait_ucb"


def problem_of(paper: dict, experiment: str) -> F2AProblem:
    return F2AProblem.from_config(paper["experiments"][experiment]["environment"])


def bound_table(paper: dict, trace_of) -> pd.DataFrame:
    """Wait-UCB's curves against Thm 2 (pseudo-regret R̃_t and the paper's realised R_t) and
    Lemma 2 (pulls of every suboptimal pair), for every experiment that runs Wait-UCB.

    ``trace_of(experiment, algorithm)`` returns a trace. The trivial bounds (core.verdicts.bounds)
    are t·max Δ for the regrets (every epoch of length c loses at most Δ_max·c in expectation) and
    t for the pulls.
    """
    frames = []
    for exp_id, exp in paper["experiments"].items():
        if BOUNDED_ALGORITHM not in exp["algorithms"]:
            continue
        problem = problem_of(paper, exp_id)
        trace = trace_of(exp_id, BOUNDED_ALGORITHM)
        pivot = {
            m: checkpoint_table(trace, m) for m in trace.columns if m not in ("t", "repetition")
        }
        t = pivot["regret"].index.to_numpy(dtype=float)
        regret_bound = theorem2_bound(t, problem)
        trivial = trivial_bound(t, problem.gaps.max())
        for metric in ("pseudo_regret", "regret"):
            frames.append(
                compare_to_bound(
                    pivot[metric],
                    regret_bound,
                    trivial,
                    experiment=exp_id,
                    algorithm=BOUNDED_ALGORITHM,
                    bound_name="theorem2",
                    metric=metric,
                )
            )
        pulls_bound = lemma2_pull_bound(t, problem)
        for a, label in enumerate(problem.pair_labels):
            if problem.gaps.ravel()[a] > 0:
                frames.append(
                    compare_to_bound(
                        pivot[f"pulls_{label}"],
                        pulls_bound[:, a],
                        trivial_bound(t, 1.0),
                        experiment=exp_id,
                        algorithm=BOUNDED_ALGORITHM,
                        bound_name=f"lemma2_{label}",
                        metric=f"pulls_{label}",
                    )
                )
    return pd.concat(frames, ignore_index=True)


def theorem1_table(paper: dict, experiment: str, trace: pd.DataFrame) -> pd.DataFrame:
    """Per constant policy (k, j): exact g and W(T), the simulated mean reward at T with its
    standard error, and Theorem 1's offset A_j = W(T) − T·g (exact)."""
    problem = problem_of(paper, experiment)
    horizon = int(trace["t"].max())
    final = trace[trace["t"] == horizon]
    rows = []
    for a, label in enumerate(problem.pair_labels):
        k, j = divmod(a, problem.D)
        rewards = final[f"reward_{label}"].to_numpy(dtype=float)
        exact = float(constant_policy_expected_reward(problem, k + 1, j + 1, [horizon])[0])
        se = float(rewards.std(ddof=1) / np.sqrt(rewards.size))
        rows.append(
            {
                "pair": f"({k + 1},{j + 1})",
                "k": k + 1,
                "j": j + 1,
                "horizon": horizon,
                "g": float(problem.ratio[k, j]),
                "simulated_rate": float(rewards.mean() / horizon),
                "rate_se": se / horizon,
                "exact_reward": exact,
                "simulated_reward": float(rewards.mean()),
                "reward_se": se,
                "z_simulated_vs_exact": (rewards.mean() - exact) / se if se > 0 else 0.0,
                "offset_A": float(theorem1_offset(problem, k + 1, j + 1, [horizon])[0]),
            }
        )
    return pd.DataFrame(rows)


def panel_table(paper: dict) -> pd.DataFrame:
    """Per experiment: g*, optimal pairs, minimum gap, Thm 2 bound and its vacuity crossover at
    the paper's horizon, and the §6.2 order terms (WAIT) and (FJ)."""
    rows = []
    for exp_id, exp in paper["experiments"].items():
        if exp["group"] == "theory":
            continue
        problem = problem_of(paper, exp_id)
        horizon = float(exp["horizon"])
        orders = comparison_orders(problem)
        rows.append(
            {
                "experiment": exp_id,
                "group": exp["group"],
                "K": problem.K,
                "D": problem.D,
                "g_star": problem.g_star,
                "optimal_pairs": " ".join(f"({k},{j})" for k, j in problem.optimal_pairs),
                "min_gap": problem.min_gap,
                "thm2_bound_at_T": float(theorem2_bound(horizon, problem)),
                "thm2_leading_at_T": float(theorem2_leading_term(horizon, problem)),
                "bound_nonvacuous_from_t": vacuity_crossover(problem, int(horizon)),
                "mean_cost_avg": orders["mean_cost"],
                "sum_inverse_cost": orders["sum_inverse_cost"],
                "order_WAIT": orders["wait"],
                "order_FJ": orders["fj"],
                "order_DQZL": orders["dqzl"],
            }
        )
    return pd.DataFrame(rows)


def ratio_table(paper: dict, experiment: str) -> pd.DataFrame:
    """g_{k,j}, μ^c_{k,j} and Δ_{k,j} of one experiment, one row per macro-arm."""
    problem = problem_of(paper, experiment)
    rows = []
    for k in range(problem.K):
        for name, values in (
            ("g", problem.ratio),
            ("mu_c", problem.mean_cost),
            ("gap", problem.gaps),
        ):
            rows.append(
                {
                    "k": k + 1,
                    "quantity": name,
                    **{f"j={j + 1}": float(values[k, j]) for j in range(problem.D)},
                }
            )
    return pd.DataFrame(rows)


def regret_decomposition(
    paper: dict, experiment: str, trace_of, algorithms: list[str]
) -> pd.DataFrame:
    """Where each algorithm's pseudo-regret at T comes from: per suboptimal pair, the mean pulls
    N_{k,j}(L_T) over runs and its share Δ_{k,j}·μ^c_{k,j}·N of the mean pseudo-regret.
    One row per pair, one (pulls, share) column pair per algorithm."""
    problem = problem_of(paper, experiment)
    weights = (problem.gaps * problem.mean_cost).ravel()
    table = pd.DataFrame(
        {
            "pair": [
                f"({a // problem.D + 1},{a % problem.D + 1})" for a in range(problem.K * problem.D)
            ],
            "gap": problem.gaps.ravel(),
            "mu_c": problem.mean_cost.ravel(),
        }
    )
    for alg in algorithms:
        trace = trace_of(experiment, alg)
        final = trace[trace["t"] == trace["t"].max()]
        pulls = np.array([final[f"pulls_{lab}"].mean() for lab in problem.pair_labels])
        table[f"{alg} pulls"] = pulls
        table[f"{alg} share"] = weights * pulls / max(float((weights * pulls).sum()), 1e-300)
    return table[table["gap"] > 0].reset_index(drop=True)


# The metrics of the paper's traces (simulation.py's docstring), which a claim's or a figure's
# `metric` may name (checked when the paper file loads: core/build/config_checks.py); {…} stands for
# a number.
METRICS = ("epochs", "reward", "regret", "pseudo_regret", "pulls_k{k}_j{j}", "reward_k{k}_j{j}")


def metric_range(paper: dict, experiment: str, metric: str, horizon: float):
    """The range of a mean regret at the horizon T on the experiment's instance: the pseudo-regret
    R̃_T lies in [0, T·max Δ] and the realised regret's mean is at most T·max Δ too (every epoch
    of length c loses at most Δ_max·c in expectation; as the bound table's trivial bound). None
    for other metrics."""
    if metric not in ("pseudo_regret", "regret"):
        return None
    top = float(trivial_bound(np.array([horizon]), problem_of(paper, experiment).gaps.max())[0])
    return (0.0 if metric == "pseudo_regret" else -np.inf, top)
