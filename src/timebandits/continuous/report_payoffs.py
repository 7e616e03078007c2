"""The ``final_payoffs`` table of "Continuous Time Bandits With Sampling Costs"
(results/tables/continuous/final_payoffs.csv): every run set's payoff at T against the oracle's
(Props. 1–2), its regret and the runs whose learning never stopped."""

from __future__ import annotations

import pandas as pd

from .analysis import run_sets
from .simulation import BASELINE, CTMAB, CTSAB, ORACLE, algorithm_params


def final_payoffs_table(paper: dict, trace_of) -> pd.DataFrame:
    """One row per (experiment, algorithm): μ[1], λ, κ, T' = T/λ, the payoff at T (mean and
    standard error over runs; exact for the oracle and the baselines), the oracle's payoff and
    the ratio, the regret, and the runs whose learning never stopped (``failures``) or whose
    identification was cut at T (``identification_cut``)."""
    rows = []
    for exp_id, experiment, horizon, best, algorithm, alg in run_sets(paper):
        environment = experiment["environment"]
        trace = trace_of(exp_id, algorithm)
        last = trace[trace["t"] == trace["t"].max()]
        payoff = last["payoff"]
        learner = alg["policy"] in (CTSAB, CTMAB)
        rows.append(
            {
                "experiment": exp_id,
                "group": experiment["group"],
                "mu": max(environment["means"]),
                "K": len(environment["means"]),
                "lam": float(environment["lam"]),
                "kappa": learner_kappa(alg),
                "T_prime": horizon,
                "algorithm": algorithm,
                "policy": alg["policy"],
                "final_payoff_mean": payoff.mean(),
                "final_payoff_se": payoff.std(ddof=1) / len(payoff) ** 0.5 if learner else 0.0,
                "oracle_payoff": best,
                "payoff_over_oracle": payoff.mean() / best,
                "regret_mean": best - payoff.mean(),
                "failures": int(last["failed"].sum()) if learner else 0,
                "identification_cut": int(last["id_cut"].sum()) if alg["policy"] == CTMAB else 0,
                "runs": len(payoff),
            }
        )
    return pd.DataFrame(rows)


def learner_kappa(algorithm: dict) -> float:
    """κ of a learner (NaN for the oracle and the baselines)."""
    if algorithm["policy"] in (ORACLE, BASELINE):
        return float("nan")
    return float(algorithm_params(algorithm)["kappa"])
