"""Glue between the paper config and the compiled game loop: one repetition of one algorithm on
one censored-resources problem, returned as metrics over the checkpoint grid.

Metrics (cumulative over rounds 1..t at checkpoint t):
  regret    Σ_s (ν* − ν_{I_s,τ_s}), the pseudo-regret with the exact ν table (§2, Figs. 4–9)
  censored  Σ_s 1{C_s > τ_s}, the rounds whose limit was exceeded (tables of §5.1, App. F.1)
  reward    Σ_s R_s·1{C_s ≤ τ_s}, the realised reward (Fig. 5)
  gain      Σ_s y_{τ_s}, the realised penalised gain (Fig. 5's other reading)
and, when the experiment's ``record`` list asks for them,
  pairs     plays_a{i}_l{k}: plays of exactly (arm i, limit τ_k), 1-based (Thm 1, Cor. 14)
  coverage  above_conf / below_conf: pairs whose estimate is outside ν ± 𝔠 (Prop. 1; RCUCB
            algorithms only, the others of the experiment record nothing extra)
"""

from __future__ import annotations

import numpy as np

from timebandits.core.config import merged_params
from timebandits.core.seeding import key64

from .model import CensoredProblem
from .policies import POLICY_CODES, RCUCB, run_censored

POLICIES = tuple(POLICY_CODES)
RECORDS = ("pairs", "coverage")

# Parameters each policy accepts, with their defaults.
_PARAMS = {
    "rcucb": {"alpha": 1.0, "survival": "literal"},
    "ucb": {"alpha": 1.0, "penalty_max": "grid"},
    "thompson": {"penalty_max": "grid"},
}


def validate_environment(environment: dict) -> None:
    CensoredProblem.from_config(environment)


def algorithm_params(algorithm: dict) -> dict:
    """The algorithm's params merged over its policy's defaults, checked."""
    params = merged_params(algorithm, _PARAMS[algorithm["policy"]])
    if "alpha" in params and not (isinstance(params["alpha"], (int, float)) and params["alpha"] > 0):
        raise ValueError(f"alpha must be a positive number, got {params['alpha']!r}")
    if params.get("survival", "literal") not in ("literal", "observable"):
        raise ValueError(f"survival must be 'literal' or 'observable', got {params['survival']!r}")
    bound = params.get("penalty_max", "grid")
    if bound != "grid" and not (isinstance(bound, (int, float)) and bound >= 0):
        raise ValueError(f"penalty_max must be 'grid' or a number >= 0, got {bound!r}")
    return params


def validate_algorithm(algorithm: dict) -> None:
    algorithm_params(algorithm)


def penalty_max(params: dict, problem: CensoredProblem) -> float:
    """λ(τmax) of the reductions' rescaling (eqs. (31)–(32)): λ of the largest grid point
    (``grid``, spec P3) or the number given."""
    bound = params.get("penalty_max", "grid")
    return float(problem.penalty[-1] if bound == "grid" else bound)


def pair_label(arm: int, limit: int) -> str:
    """plays_a{i}_l{k} with 1-based arm i and limit index k."""
    return f"plays_a{arm + 1}_l{limit + 1}"


def simulate_repetition(experiment: dict, algorithm: dict, env_seed, policy_seed,
                        checkpoints: np.ndarray) -> dict[str, np.ndarray]:
    problem = CensoredProblem.from_config(experiment["environment"])
    params = algorithm_params(algorithm)
    record = experiment.get("record", [])
    code = POLICY_CODES[algorithm["policy"]]
    coverage = "coverage" in record and code == RCUCB
    regret, censored, reward, gain, plays, above, below = run_censored(
        code, params.get("survival") == "literal", float(params.get("alpha", 1.0)),
        penalty_max(params, problem), problem.grid, problem.penalty, problem.cost_slope,
        problem.nu, problem.family_code, problem.arm_params, problem.pool_values,
        problem.pool_offsets, key64(env_seed), key64(policy_seed), int(experiment["horizon"]),
        checkpoints, "pairs" in record, coverage)
    out = {"regret": regret, "censored": censored, "reward": reward, "gain": gain}
    if "pairs" in record:
        for arm in range(problem.n):
            for limit in range(problem.K):
                out[pair_label(arm, limit)] = plays[:, arm * problem.K + limit]
    if coverage:
        out["above_conf"], out["below_conf"] = above, below
    return out
