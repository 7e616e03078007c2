"""Analysis of the simulated traces against the model's exact quantities and the paper's
bounds: π_low against Theorem 3 and its switch bound, the instances each repetition met, and the
per-run table."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd

from timebandits.core.sim.traces import checkpoint_table
from timebandits.core.trivial import trivial_bound
from timebandits.core.verdicts.bounds import compare_to_bound

from .model import B2DEPProblem
from .simulation import algorithm_params, regret_metric, switch_costs
from .theory import switch_bound, theorem3_bound_paper, theorem3_bound_tight

BOUNDED_POLICY = "low"


def run_instances(paper: dict, experiment: str, trace: pd.DataFrame) -> dict:
    """The B2DEP instance each repetition of ``experiment`` met, from the delays its trace
    records: {repetition: problem}."""
    environment = paper["experiments"][experiment]["environment"]
    k = len(environment["means"])
    first = trace[trace["t"] == trace["t"].min()].sort_values("repetition")
    delays = first[[f"delay_{i + 1}" for i in range(k)]].to_numpy(dtype=int)
    return {
        int(rep): B2DEPProblem.from_config(environment, delays=list(row))
        for rep, row in zip(first["repetition"], delays)
    }


def bounded_algorithms(paper: dict, experiment: str) -> list[str]:
    """The experiment's algorithms that run π_low (the algorithm Theorem 3 bounds)."""
    return [
        a
        for a in paper["experiments"][experiment]["algorithms"]
        if paper["algorithms"][a]["policy"] == BOUNDED_POLICY
    ]


def bound_table(paper: dict, trace_of) -> pd.DataFrame:
    """π_low's curves against Theorem 3 in every experiment that runs it.

    Bounds (spec §4), all at the run's own horizon T since π_low is tuned to T, and compared
    at every checkpoint t ≤ T: ``theorem3`` = k²S + √T + 4(S−1)√(kT ln(2kS/δ)) on R(t) without
    switching cost; ``theorem3-tight`` the same keeping C_s's factor 1/2; ``theorem3-cost{c}``
    = theorem3 + c·kS on R(t) with switching cost c > 0; ``switches`` = kS on the switch count.
    The trivial bounds (core.trivial.trivial_bound) are G_t(ghost) for the regret (the learner
    earns ≥ 0: the rate is the ghost's mean earnings per round), plus c·kS with costs, and t for
    the switches.
    """
    frames = []
    for exp_id, exp in paper["experiments"].items():
        k = len(exp["environment"]["means"])
        for alg in bounded_algorithms(paper, exp_id):
            delta = float(algorithm_params(paper["algorithms"][alg])["delta"])
            trace = trace_of(exp_id, alg)
            pivot = {
                m: checkpoint_table(trace, m)
                for m in (
                    "ghost",
                    "expected",
                    "switches",
                    *(regret_metric(c) for c in switch_costs(exp["environment"])),
                )
            }
            regret = pivot["ghost"] - pivot["expected"]  # R(t) without switching cost
            t = regret.index.to_numpy(dtype=float)
            horizon = int(t.max())
            ghost_rate = pivot["ghost"].mean(axis=1).to_numpy() / t
            switches_allowed = float(switch_bound(horizon, k))
            common = {"experiment": exp_id, "algorithm": alg}
            for name, bound in (
                ("theorem3", theorem3_bound_paper(horizon, k, delta)),
                ("theorem3-tight", theorem3_bound_tight(horizon, k, delta)),
            ):
                frames.append(
                    compare_to_bound(
                        regret,
                        np.full(t.size, bound),
                        trivial_bound(t, ghost_rate),
                        bound_name=name,
                        metric=regret_metric(0.0),
                        **common,
                    )
                )
            for cost in switch_costs(exp["environment"]):
                if cost > 0:
                    bound = theorem3_bound_paper(horizon, k, delta) + cost * switches_allowed
                    metric = regret_metric(cost)
                    frames.append(
                        compare_to_bound(
                            pivot[metric],
                            np.full(t.size, bound),
                            trivial_bound(t, ghost_rate, cost * switches_allowed),
                            bound_name=f"theorem3-cost{cost:g}",
                            metric=metric,
                            **common,
                        )
                    )
            frames.append(
                compare_to_bound(
                    pivot["switches"],
                    np.full(t.size, switches_allowed),
                    trivial_bound(t, 1.0),
                    bound_name="switches",
                    metric="switches",
                    **common,
                )
            )
    return pd.concat(frames, ignore_index=True)


def horizon_table(bounds: pd.DataFrame, paper: dict) -> pd.DataFrame:
    """One row per (experiment, bound) at the horizon: the bound, the mean and maximum over runs
    of the empirical quantity at T, its maximum over runs and checkpoints, and the number of runs
    above the bound at T."""
    rows = []
    for (exp_id, bound), group in bounds.groupby(["experiment", "bound"], sort=False):
        final = group[group["t"] == group["t"].max()].iloc[0]
        rows.append(
            {
                "experiment": exp_id,
                "horizon": int(final["t"]),
                "bound": bound,
                "metric": final["metric"],
                "bound_value": final["bound_value"],
                "mean_at_T": final["mean"],
                "max_at_T": final["max"],
                "max_over_t": group["max"].max(),
                "n_runs": int(final["n_runs"]),
                "runs_above_at_T": int(final["runs_exceeding"]),
                "vacuous": bool(final["vacuous"]),
                "ratio_mean_to_bound": final["ratio"],
                "group": paper["experiments"][exp_id]["group"],
            }
        )
    return pd.DataFrame(rows)


def run_table(paper: dict, experiment: str, trace_of) -> pd.DataFrame:
    """Per repetition of ``experiment``: its delays, r*, best gap, and every algorithm's regret
    at T (each switching cost), switches and suboptimal pulls."""
    exp = paper["experiments"][experiment]
    problems = run_instances(paper, experiment, trace_of(experiment, exp["algorithms"][0]))
    reps = sorted(problems)
    table = pd.DataFrame(
        {
            "experiment": experiment,
            "repetition": reps,
            "delays": [" ".join(str(d) for d in problems[r].delays) for r in reps],
            "r_star": [problems[r].r_star for r in reps],
            "best_gap": [problems[r].best_gap() for r in reps],
        }
    )
    metrics = [regret_metric(c) for c in switch_costs(exp["environment"])]
    for alg in exp["algorithms"]:
        trace = trace_of(experiment, alg)
        final = trace[trace["t"] == trace["t"].max()].set_index("repetition").loc[reps]
        for metric in (*metrics, "switches", "suboptimal_pulls"):
            table[f"{alg} {metric}"] = final[metric].to_numpy()
    return table


# The metrics of the paper's traces (simulation.py's docstring), which a claim's or a figure's
# `metric` may name (checked when the paper file loads: core/build/config_checks.py); {…} stands for
# a number.
METRICS = (
    "expected",
    "realised",
    "ghost",
    "switches",
    "regret_cost{c}",
    "suboptimal_pulls",
    "pulls_pi{m}",
    "delay_{i}",
    "stage",
    "n_active",
    "optimum_active",
    "hoeffding_ok",
)


def metric_range(paper: dict, experiment: str, metric: str, horizon: float):
    """The range of a mean at the horizon T, from the payoffs alone (every expected reward lies
    in [0, max μ], paper §2): a regret with switching cost c, the ghost's earnings less the
    learner's plus c per switch, lies in [−T·max μ, T·max μ + c·T]; switches and suboptimal pulls
    in [0, T]. None for other metrics."""
    means = [
        float(Fraction(str(m))) for m in paper["experiments"][experiment]["environment"]["means"]
    ]
    costs = {
        regret_metric(c): c for c in switch_costs(paper["experiments"][experiment]["environment"])
    }
    if metric in costs:
        return -horizon * max(means), horizon * (max(means) + costs[metric])
    if metric in ("switches", "suboptimal_pulls"):
        return 0.0, float(horizon)
    return None
