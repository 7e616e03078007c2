"""Paper 003's empirical regrets against its bounds (core/bounds.py format), at the horizon:
CTSAB against Theorem 5 and CTMAB against Theorem 8, each with its free constant set to 1 (the
paper gives none; spec §5), so a row's ratio is the constant the run needs. The trivial bound is
the oracle's payoff P*(T): the regret of never playing."""

from __future__ import annotations

import numpy as np
import pandas as pd

from timebandits.core.bounds import compare_to_bound

from .model import normalised_horizon, oracle
from .simulation import CTMAB, CTSAB, algorithm_params
from .theory import theorem5_bound, theorem8_bound


def horizon_regrets(paper: dict, exp_id: str, algorithm: str, trace_of) -> pd.DataFrame:
    """A one-row (t = T) × repetition table of the regret P*(T) − P(T) and the runs' i*."""
    experiment = paper["experiments"][exp_id]
    environment = experiment["environment"]
    horizon = normalised_horizon(float(experiment["horizon"]), float(environment["lam"]))
    trace = trace_of(exp_id, algorithm)
    last = trace[trace["t"] == trace["t"].max()].set_index("repetition").sort_index()
    best = oracle(max(environment["means"]), horizon).payoff
    return pd.DataFrame({"regret": best - last["payoff"], "i_star": last["i_star"],
                         "t": last.index.size * [trace["t"].max()]})


def bound_table(paper: dict, trace_of) -> pd.DataFrame:
    frames = []
    for exp_id, experiment in paper["experiments"].items():
        environment = experiment["environment"]
        horizon = normalised_horizon(float(experiment["horizon"]), float(environment["lam"]))
        best = oracle(max(environment["means"]), horizon).payoff
        for algorithm in experiment["algorithms"]:
            alg = paper["algorithms"][algorithm]
            if alg["policy"] not in (CTSAB, CTMAB):
                continue
            params = algorithm_params(alg)
            runs = horizon_regrets(paper, exp_id, algorithm, trace_of)
            table = pd.DataFrame([runs["regret"].to_numpy()], index=[runs["t"].iloc[0]])
            if alg["policy"] == CTSAB:
                name = "theorem5"
                bound = theorem5_bound(horizon, environment["means"][0], params["epsilon"])
            else:
                # nu_m = i* eps (spec §3.4 [R]), at the runs' median i*
                name = "theorem8"
                nu_m = float(np.median(runs["i_star"])) * params["epsilon"]
                bound = theorem8_bound(horizon, environment["means"], nu_m)
            frames.append(compare_to_bound(table, np.array([bound]), np.array([best]),
                                           experiment=exp_id, algorithm=algorithm,
                                           bound_name=f"{name}_{algorithm}", metric="regret"))
    return pd.concat(frames, ignore_index=True)
