"""Glue between the paper config and the compiled game loop: one repetition of one algorithm on
one censored-resources problem, returned as metrics over the checkpoint grid.

Metrics (cumulative over rounds 1..t at checkpoint t):
  regret    Σ_s (ν* − ν_{I_s,τ_s}), the pseudo-regret with the exact ν table (§2, Figs. 4–9)
  censored  Σ_s 1{C_s > τ_s}, the rounds whose limit was exceeded (tables of §5.1, App. F.1)
  reward    Σ_s R_s·1{C_s ≤ τ_s}, the realised reward (Fig. 5)
  gain      Σ_s y_{τ_s}, the realised penalised gain (Fig. 5's other reading)
z-RCUCB (Alg. 1, the extra simple-regret experiment) instead gives, per checkpoint T, the
output of a run of horizon T (its confidence level ln(nT²/δ) depends on T; every run reads the
same draws):
  simple_regret  sup_{i, τ ∈ (0, τmax]} ν_{i,τ} − ν_{output} (§4.2, Theorem 2)
  output_tau     the output limit τ̂
  grid_points    the points of all arms' grids at the end
and, when the experiment's ``record`` list asks for them,
  pairs     plays_a{i}_l{k}: plays of exactly (arm i, limit τ_k), 1-based (Thm 1, Cor. 14)
  coverage  above_conf / below_conf: pairs whose estimate is outside ν ± 𝔠 (Prop. 1; RCUCB
            algorithms only, the others of the experiment record nothing extra)
"""

from __future__ import annotations

import numpy as np

from timebandits.core.config import merged_params
from timebandits.core.sim.seeding import key64

from .model import CensoredProblem
from .policies import POLICY_CODES, RCUCB, run_censored
from .samplers import sample_many
from .theorem2 import simple_regret
from .zooming import run_zrcucb

ZOOMING = "zrcucb"
POLICIES = (*POLICY_CODES, ZOOMING)
RECORDS = ("pairs", "coverage")

# Parameters each policy accepts, with their defaults.
_PARAMS = {
    "rcucb": {"alpha": 1.0, "survival": "literal"},
    "ucb": {"alpha": 1.0, "penalty_max": "grid"},
    "thompson": {"penalty_max": "grid"},
    "thompson_played": {"penalty_max": "grid"},
    ZOOMING: {"alpha": 2.0, "m": 2, "delta": 0.05},
}


def validate_environment(environment: dict) -> None:
    CensoredProblem.from_config(environment)


def environment_files(environment: dict) -> list[str]:
    """Files a trace of ``environment`` is made from besides the simulation code: for the
    ``pool`` family (Fig. 5) the pool file, by its path relative to the workflow (moving a clone
    reruns nothing). The module that reads it, pool.py, is simulation code (core/imports.py):
    it counts by content, not by its path and time stamp."""
    if environment.get("family") != "pool":
        return []
    return [environment["pool"]["path"]]


def algorithm_params(algorithm: dict) -> dict:
    """The algorithm's params merged over its policy's defaults, checked."""
    params = merged_params(algorithm, _PARAMS[algorithm["policy"]])
    if "alpha" in params and not (
        isinstance(params["alpha"], (int, float)) and params["alpha"] > 0
    ):
        raise ValueError(f"alpha must be a positive number, got {params['alpha']!r}")
    if params.get("survival", "literal") not in ("literal", "observable"):
        raise ValueError(f"survival must be 'literal' or 'observable', got {params['survival']!r}")
    bound = params.get("penalty_max", "grid")
    if bound != "grid" and not (isinstance(bound, (int, float)) and bound >= 0):
        raise ValueError(f"penalty_max must be 'grid' or a number >= 0, got {bound!r}")
    if algorithm["policy"] == ZOOMING:
        if not params["alpha"] > 1:
            raise ValueError(
                f"alpha must be > 1 for z-RCUCB (Algorithm 1), got {params['alpha']!r}"
            )
        if isinstance(params["m"], bool) or not isinstance(params["m"], int) or params["m"] < 2:
            raise ValueError(f"m must be an integer >= 2, got {params['m']!r}")
        if not (isinstance(params["delta"], (int, float)) and 0 < params["delta"] < 1):
            raise ValueError(f"delta must lie in (0, 1), got {params['delta']!r}")
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


def simulate_repetition(
    experiment: dict, algorithm: dict, env_seed, policy_seed, checkpoints: np.ndarray
) -> dict[str, np.ndarray]:
    problem = CensoredProblem.from_config(experiment["environment"])
    params = algorithm_params(algorithm)
    if algorithm["policy"] == ZOOMING:
        return simulate_zooming(problem, params, key64(env_seed), key64(policy_seed), checkpoints)
    record = experiment.get("record", [])
    code = POLICY_CODES[algorithm["policy"]]
    coverage = "coverage" in record and code == RCUCB
    regret, censored, reward, gain, plays, above, below = run_censored(
        code,
        params.get("survival") == "literal",
        float(params.get("alpha", 1.0)),
        penalty_max(params, problem),
        problem.grid,
        problem.penalty,
        problem.cost_slope,
        problem.nu,
        problem.family_code,
        problem.arm_params,
        problem.pool_values,
        problem.pool_offsets,
        key64(env_seed),
        key64(policy_seed),
        int(experiment["horizon"]),
        checkpoints,
        "pairs" in record,
        coverage,
    )
    out = {"regret": regret, "censored": censored, "reward": reward, "gain": gain}
    if "pairs" in record:
        for arm in range(problem.n):
            for limit in range(problem.K):
                out[pair_label(arm, limit)] = plays[:, arm * problem.K + limit]
    if coverage:
        out["above_conf"], out["below_conf"] = above, below
    return out


def simulate_zooming(
    problem: CensoredProblem, params: dict, env_key, policy_key, checkpoints: np.ndarray
) -> dict[str, np.ndarray]:
    """z-RCUCB (Alg. 1) run afresh with horizon T for every checkpoint T, on the pulls
    ``sample_many`` draws for each arm (the same draws RCUCB's j-th pull of the arm sees), with
    τmax the environment grid's largest limit. Metrics in the module docstring."""
    horizon = int(checkpoints[-1])
    draws = [sample_many(problem, env_key, arm, horizon) for arm in range(problem.n)]
    rewards = np.stack([r for r, _ in draws])
    consumptions = np.stack([c for _, c in draws])
    sup = problem.continuous_optimum()[0]
    out = {
        name: np.zeros(len(checkpoints)) for name in ("simple_regret", "output_tau", "grid_points")
    }
    for j, T in enumerate(checkpoints):
        run = run_zrcucb(
            rewards,
            consumptions,
            problem.cost_slope,
            problem.penalty_threshold,
            problem.penalty_below,
            problem.penalty_above,
            problem.tau_max,
            params["alpha"],
            params["m"],
            params["delta"],
            int(T),
            policy_key,
        )
        out["simple_regret"][j] = simple_regret(
            lambda arm, tau: problem.nu_at(arm, [tau])[0], run.output_arm, run.output_tau, sup
        )
        out["output_tau"][j] = run.output_tau
        out["grid_points"][j] = run.grid_sizes.sum()
    return out
