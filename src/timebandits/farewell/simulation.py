"""Glue between the paper config and the compiled kernels: one repetition of one algorithm on
one F2A problem, returned as metrics over the checkpoint grid.

Metrics (all at checkpoint t, counting the L_t = max{n : C_n ≤ t} completed epochs):
  epochs         L_t
  reward         Σ_{s ≤ L_t} r_s (realised)
  regret         R_t = t·g* − Σ_{s ≤ L_t} r_s      -- the quantity the paper plots (§7)
  pseudo_regret  R̃_t = Σ_{(k,j)} N_{k,j}(L_t)·Δ_{k,j}·μ^c_{k,j}   -- what Thm 2 bounds (spec §4.5)
  pulls_k{k}_j{j}  N_{k,j}(L_t)
The ``constant_policies`` family instead reports reward_k{k}_j{j} of every constant policy
(Thm 1 check), all meeting the same (V, τ) draws.
"""

from __future__ import annotations

import numpy as np

from timebandits.core.config import merged_params
from timebandits.core.sim.seeding import key64

from .model import F2AProblem
from .policies import CONSTANT, POLICY_CODES, run_f2a, wait_ucb_constants

LEARNING_POLICIES = ("wait_ucb", "ucb_simplex", "budget_ucb", "ucb_bv1")
POLICIES = (*LEARNING_POLICIES, "constant_policies")

# Parameters each policy accepts, with their defaults.
_PARAMS = {
    "wait_ucb": {"tie_break": "first"},
    "ucb_simplex": {"tie_break": "first", "cost_scale": "D", "radius_factor": 2.0},
    "budget_ucb": {
        "tie_break": "first",
        "cost_scale": "D",
        "radius_factor": 2.0,
        "cost_lower_bound": "min_cost",
    },
    "ucb_bv1": {
        "tie_break": "first",
        "cost_scale": "D",
        "radius_factor": 1.0,
        "cost_lower_bound": "min_cost",
    },
    "constant_policies": {},
}


def validate_environment(environment: dict) -> None:
    missing = {"reward_prob", "delay_pmf"} - set(environment)
    if missing:
        raise ValueError(f"missing keys {sorted(missing)}")
    F2AProblem.from_config(environment)


def algorithm_params(algorithm: dict) -> dict:
    """The algorithm's params merged over its policy's defaults, checked."""
    policy = algorithm["policy"]
    params = merged_params(algorithm, _PARAMS[policy])
    if params.get("tie_break", "first") not in ("first", "random"):
        raise ValueError(f"tie_break must be 'first' or 'random', got {params['tie_break']!r}")
    scale = params.get("cost_scale", 1.0)
    if scale != "D" and not (isinstance(scale, (int, float)) and scale > 0):
        raise ValueError(f"cost_scale must be 'D' or a positive number, got {scale!r}")
    if params.get("radius_factor", 1.0) <= 0:
        raise ValueError(f"radius_factor must be positive, got {params['radius_factor']!r}")
    lam = params.get("cost_lower_bound", "min_cost")
    if lam != "min_cost" and not (isinstance(lam, (int, float)) and 0 < lam <= 1):
        raise ValueError(f"cost_lower_bound must be 'min_cost' or in (0, 1], got {lam!r}")
    return params


def validate_algorithm(algorithm: dict) -> None:
    algorithm_params(algorithm)


def kernel_arguments(algorithm: dict, problem: F2AProblem) -> tuple[int, np.ndarray, bool]:
    """(policy code, params array, random ties) for :func:`policies.run_f2a`.

    cost_scale 'D' divides consumed time by D (costs in {1/D, ..., 1}, paper §6); the lower
    bound λ 'min_cost' is the smallest possible scaled cost, 1/cost_scale (every c ≥ 1).
    """
    params = algorithm_params(algorithm)
    scale = params.get("cost_scale", 1.0)
    cost_scale = float(problem.D if scale == "D" else scale)
    lam = params.get("cost_lower_bound", "min_cost")
    lam = 1.0 / cost_scale if lam == "min_cost" else float(lam)
    array = np.array([cost_scale, float(params.get("radius_factor", 1.0)), lam, 0.0])
    return POLICY_CODES[algorithm["policy"]], array, params.get("tie_break") == "random"


def run_problem(
    problem: F2AProblem, code, params, random_ties, env_key, policy_key, horizon, checkpoints
):
    """One game of ``problem`` with the kernel arguments of :func:`kernel_arguments`."""
    alpha, beta = wait_ucb_constants(problem.D)
    return run_f2a(
        code,
        params,
        random_ties,
        np.tile(alpha, problem.K),
        np.tile(beta, problem.K),
        problem.delay_cdf,
        problem.reward_prob,
        env_key,
        policy_key,
        horizon,
        checkpoints,
    )


def simulate_repetition(
    experiment: dict, algorithm: dict, env_seed, policy_seed, checkpoints: np.ndarray
) -> dict[str, np.ndarray]:
    problem = F2AProblem.from_config(experiment["environment"])
    horizon = int(experiment["horizon"])
    env_key, policy_key = key64(env_seed), key64(policy_seed)
    if algorithm["policy"] == "constant_policies":
        out = {}
        for a, label in enumerate(problem.pair_labels):
            params = np.array([1.0, 1.0, 1.0, float(a)])
            reward, _, _ = run_problem(
                problem, CONSTANT, params, False, env_key, policy_key, horizon, checkpoints
            )
            out[f"reward_{label}"] = reward
        return out
    code, params, random_ties = kernel_arguments(algorithm, problem)
    reward, epochs, pulls = run_problem(
        problem, code, params, random_ties, env_key, policy_key, horizon, checkpoints
    )
    weights = (problem.gaps * problem.mean_cost).ravel()
    out = {
        "epochs": epochs,
        "reward": reward,
        "regret": checkpoints * problem.g_star - reward,
        "pseudo_regret": pulls @ weights,
    }
    for a, label in enumerate(problem.pair_labels):
        out[f"pulls_{label}"] = pulls[:, a]
    return out
