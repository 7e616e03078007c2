"""The notebook's run tables of "Stochastic Bandits with Delay-Dependent Payoffs" (the runs behind
Fig. 2 and Fig. 3 of Sect. 8, and the sensitivity runs): runs.csv's per-learner quantities at T
(regret at each switching cost, switches, suboptimal pulls), one row per run or the means over
the runs of each experiment."""

from __future__ import annotations

import pandas as pd

# runs.csv's per-learner quantities at T, as the notebook's run tables name them.
RUN_METRICS = {
    "regret_cost1": "regret, cost 1",
    "regret_cost0": "regret, cost 0",
    "switches": "switches",
    "suboptimal_pulls": "suboptimal pulls",
}


def runs_by_learner(runs: pd.DataFrame, paper: dict, algorithms: list[str]) -> pd.DataFrame:
    """runs.csv's rows of ``runs``, one per run (experiment, run) with its delays, r* and best
    gap, and the ``algorithms``' values at T under two-level headings (quantity, learner), so
    that a run's row stays narrow: the quantities a run's experiment does not have are left
    out."""
    frame = runs.set_index(["experiment", "repetition"]).rename_axis(["experiment", "run"])
    instance = frame[["delays", "r_star", "best_gap"]]
    instance.columns = pd.MultiIndex.from_tuples(
        [("instance", "delays"), ("instance", "r*"), ("instance", "best gap")]
    )
    values = {
        (RUN_METRICS[metric], paper["algorithms"][alg]["label"]): frame[f"{alg} {metric}"]
        for metric in RUN_METRICS
        for alg in algorithms
        if f"{alg} {metric}" in frame
    }
    shown = pd.concat([instance, pd.DataFrame(values)], axis=1)
    return shown.dropna(axis=1, how="all")


def run_means(runs: pd.DataFrame, paper: dict) -> pd.DataFrame:
    """The mean over the runs of each experiment of every learner's values at T: one row per
    (experiment, learner), one column per quantity."""
    learners = [alg for alg in paper["algorithms"] if f"{alg} switches" in runs]
    rows = []
    for experiment, group in runs.groupby("experiment", sort=False):
        for alg in learners:
            rows.append(
                {
                    "experiment": experiment,
                    "learner": paper["algorithms"][alg]["label"],
                    **{
                        name: group[f"{alg} {metric}"].mean()
                        for metric, name in RUN_METRICS.items()
                        if f"{alg} {metric}" in group
                    },
                }
            )
    return pd.DataFrame(rows).set_index(["experiment", "learner"])
