"""Paper 003's empirical regrets against its bounds (core/verdicts/bounds.py format), at the
horizon: CTSAB against Theorem 5 and CTMAB against Theorem 8, each with its free constant set to
1 (the paper gives none; spec §5), so a row's ratio is the constant the run needs. The trivial
bound is the oracle's payoff P*(T): the regret of never playing."""

from __future__ import annotations

import numpy as np
import pandas as pd

from timebandits.core.verdicts.bounds import compare_to_bound

from .model import normalised_horizon, oracle
from .simulation import CTMAB, CTSAB, algorithm_params, learner_epsilon
from .theory import theorem5_bound, theorem8_bound


def run_sets(paper: dict):
    """(experiment id, experiment, T' = T/λ, the oracle's payoff P*(T), algorithm id, its config
    entry) for every algorithm of every experiment of ``paper``."""
    for exp_id, experiment in paper["experiments"].items():
        environment = experiment["environment"]
        horizon = normalised_horizon(float(experiment["horizon"]), float(environment["lam"]))
        best = oracle(max(environment["means"]), horizon).payoff
        for algorithm in experiment["algorithms"]:
            yield exp_id, experiment, horizon, best, algorithm, paper["algorithms"][algorithm]


def horizon_regrets(trace: pd.DataFrame, best: float) -> pd.DataFrame:
    """One row per repetition of a learner's trace: its regret P*(T) − P(T) at T and its i*."""
    last = trace[trace["t"] == trace["t"].max()].set_index("repetition").sort_index()
    return pd.DataFrame(
        {"regret": best - last["payoff"], "i_star": last["i_star"], "t": trace["t"].max()}
    )


def bound_table(paper: dict, trace_of) -> pd.DataFrame:
    frames = []
    for exp_id, experiment, horizon, best, algorithm, alg in run_sets(paper):
        environment = experiment["environment"]
        if alg["policy"] in (CTSAB, CTMAB):
            params = algorithm_params(alg)
            epsilon = learner_epsilon(params, horizon)
            runs = horizon_regrets(trace_of(exp_id, algorithm), best)
            table = pd.DataFrame([runs["regret"].to_numpy()], index=[runs["t"].iloc[0]])
            if alg["policy"] == CTSAB:
                name = "theorem5"
                bound = theorem5_bound(horizon, environment["means"][0], epsilon)
            else:
                # nu_m = i* eps (spec §3.4 [R]), at the runs' median i*
                name = "theorem8"
                nu_m = float(np.median(runs["i_star"])) * epsilon
                bound = theorem8_bound(horizon, environment["means"], nu_m)
            frames.append(
                compare_to_bound(
                    table,
                    np.array([bound]),
                    np.array([best]),
                    experiment=exp_id,
                    algorithm=algorithm,
                    bound_name=f"{name}_{algorithm}",
                    metric="regret",
                )
            )
    return pd.concat(frames, ignore_index=True)


# The metrics of the paper's traces (simulation.py's docstring), which a claim's or a figure's
# `metric` may name (checked when the paper file loads: core/build/config_checks.py); {…} stands for
# a number.
METRICS = (
    "payoff",
    "failed",
    "id_cut",
    "i_star",
    "stop_time",
    "stop_estimate",
    "id_time",
    "identified",
)

# Kinds of bound no run can exceed, with the word the comparison notebook gives them instead of a
# verdict: Theorems 5 and 8 are orders O(·) whose constant the paper does not give (drawn with
# C = 1, theory.py).
BOUND_WORDS = {"Theorem 5": "shape only", "Theorem 8": "shape only"}


def metric_range(paper: dict, experiment: str, metric: str, horizon: float):
    """The range of the mean payoff at the horizon T': at most the oracle's P* (Props. 1–2: no
    learner earns more in expectation than the best equally spaced plays of the best arm), with
    no lower end (a learner may sample at any rate, each play costing more). None for other
    metrics."""
    if metric != "payoff":
        return None
    environment = paper["experiments"][experiment]["environment"]
    lam = float(environment["lam"])
    return -np.inf, oracle(
        float(np.max(environment["means"])), normalised_horizon(horizon, lam)
    ).payoff
