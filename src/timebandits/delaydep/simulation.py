"""Glue between the paper config and the compiled kernels: one repetition of π_low or π_ucb on
one B2DEP instance, returned as metrics over the checkpoint grid.

Environment keys: ``means`` (descending; strings such as "13/15" are exact), ``delays`` (a list
of d_i, or ``{uniform: [lo, hi]}``: i.i.d. uniform integers drawn per repetition from the
environment seed, so every algorithm of a repetition meets the same instance, spec §5.1), ``f``
(``{kind: geometric, base: b}`` or ``{kind: table, values: [...]}``) and ``switch_costs`` (the
costs c whose regret is reported).

Metrics at checkpoint t (cumulative over rounds 1..t):
  expected        Σ μ_{I_s}(τ_s), the expectations of the sampled arms (what the paper plots)
  realised        Σ of the Bernoulli rewards (the learner's feedback)
  ghost           G_t(ghost), π_ghost's expected rewards from a fresh state (spec §2.1, P6)
  switches        changes of ranking policy (spec §2.0, P7)
  regret_cost{c}  G_t(ghost) − (expected − c·switches), for each switching cost c (spec §3)
  suboptimal_pulls  pulls made under a policy π_m with g(m) < g(r*)
  pulls_pi{m}     pulls made under π_m
  delay_{i}       d_i of the repetition's instance (constant), so a trace names its instance
                  (r*, gaps and bounds follow from it: analysis.run_instances)
π_low also reports its stage bookkeeping (Algorithm 1): ``stage`` and ``n_active`` = |A_s| of
the stage containing round t, ``optimum_active`` (1 if some maximiser of g is in A_s),
``hoeffding_ok`` (1 if every stage finished by t had |ĝ_s(m) − g(m)| ≤ C_s for all its
estimates: event (5)). π_low as the authors' code runs it (policy ``low_authors``,
:mod:`.policies_authors`) reports ``stage`` (its counter r), ``n_active`` and
``optimum_active`` after the last decision made before round t; it has no C_s, so no event (5).
"""

from __future__ import annotations

import numpy as np

from timebandits.core.config import merged_params
from timebandits.core.sim.seeding import key64

from .exact_values import exact
from .model import B2DEPProblem
from .policies import LOG_TIME_DECISIONS, LOG_TIME_PULLS, checkpoint_totals, low_run, ucb_run
from .policies_authors import authors_schedule, low_authors_run

POLICIES = ("low", "low_authors", "ucb")

# Parameters each policy accepts, with their defaults.
_PARAMS = {
    "low": {"delta": 0.1},
    "low_authors": {"delta": 0.1},
    "ucb": {"log_time": "decisions", "bonus_scale": 1.0},
}
_LOG_TIME = {"decisions": LOG_TIME_DECISIONS, "pulls": LOG_TIME_PULLS}


def switch_costs(environment: dict) -> list[float]:
    """The switching costs c of the environment (each ≥ 0, at least one)."""
    costs = environment.get("switch_costs")
    if not isinstance(costs, list) or not costs:
        raise ValueError(f"switch_costs: expected a non-empty list of costs, got {costs!r}")
    values = [float(exact(c, "switch_costs")) for c in costs]
    if any(c < 0 for c in values):
        raise ValueError(f"switch_costs: costs must be >= 0, got {costs}")
    return values


def regret_metric(cost: float) -> str:
    """Name of the regret metric with switching cost ``cost`` (e.g. regret_cost1)."""
    return f"regret_cost{cost:g}"


def _uniform_delay_range(delays) -> tuple[int, int] | None:
    if not isinstance(delays, dict):
        return None
    if (
        set(delays) != {"uniform"}
        or not isinstance(delays["uniform"], list)
        or len(delays["uniform"]) != 2
    ):
        raise ValueError(f"delays: expected a list or {{uniform: [lo, hi]}}, got {delays!r}")
    lo, hi = delays["uniform"]
    if not (isinstance(lo, int) and isinstance(hi, int) and 1 <= lo <= hi):
        raise ValueError(f"delays.uniform: need integers 1 <= lo <= hi, got {delays['uniform']}")
    return lo, hi


def draw_delays(environment: dict, env_seed: np.random.SeedSequence) -> list[int]:
    """The delays of one repetition: the listed ones, or i.i.d. uniform on {lo..hi} from a
    stream of the environment seed independent of the reward draws (child 1 of ``env_seed``)."""
    bounds = _uniform_delay_range(environment["delays"])
    if bounds is None:
        return list(environment["delays"])
    stream = np.random.SeedSequence(env_seed.entropy, spawn_key=(*env_seed.spawn_key, 1))
    k = len(environment["means"])
    return [int(d) for d in np.random.default_rng(stream).integers(bounds[0], bounds[1] + 1, k)]


def problem_of(environment: dict, env_seed: np.random.SeedSequence | None = None) -> B2DEPProblem:
    """The repetition's instance. Random delays need ``env_seed``."""
    if _uniform_delay_range(environment.get("delays")) is not None and env_seed is None:
        raise ValueError("delays are drawn per repetition: pass the repetition's env_seed")
    delays = None if env_seed is None else draw_delays(environment, env_seed)
    return B2DEPProblem.from_config(environment, delays=delays)


def validate_environment(environment: dict) -> None:
    switch_costs(environment)
    if "delays" not in environment:
        raise ValueError("delays: missing")
    bounds = _uniform_delay_range(environment["delays"])
    delays = None if bounds is None else [bounds[1]] * len(environment.get("means", []))
    B2DEPProblem.from_config(environment, delays=delays)


def algorithm_params(algorithm: dict) -> dict:
    """The algorithm's params merged over its policy's defaults, checked."""
    policy = algorithm["policy"]
    params = merged_params(algorithm, _PARAMS[policy])
    if policy in ("low", "low_authors") and not (
        isinstance(params["delta"], (int, float)) and 0 < params["delta"] < 1
    ):
        raise ValueError(f"delta must be in (0, 1), got {params['delta']!r}")
    if policy == "ucb" and params["log_time"] not in _LOG_TIME:
        raise ValueError(f"log_time must be one of {sorted(_LOG_TIME)}, got {params['log_time']!r}")
    if policy == "ucb" and not (
        isinstance(params["bonus_scale"], (int, float)) and params["bonus_scale"] > 0
    ):
        raise ValueError(f"bonus_scale must be a positive number, got {params['bonus_scale']!r}")
    return params


def validate_algorithm(algorithm: dict) -> None:
    algorithm_params(algorithm)


def optimal_policies(problem: B2DEPProblem) -> np.ndarray:
    """Mask over m = 1..k of the exact maximisers of g (two for the tied Fig. 3 instance)."""
    values = [problem.g_fraction(m) for m in range(1, problem.k + 1)]
    return np.array([v == max(values) for v in values])


def _stage_metrics(problem: B2DEPProblem, stage_log, checkpoints: np.ndarray) -> dict:
    """π_low's stage bookkeeping over the checkpoints (see the module docstring)."""
    n_active, active, ghat, width, stage_end, n_stages, _ = stage_log
    n = int(n_stages)
    g = problem.g_all()
    optimal = optimal_policies(problem)
    stage = np.searchsorted(stage_end[:n], checkpoints, side="left")  # 0-based stage of round t
    with np.errstate(invalid="ignore"):
        errors = np.abs(ghat[:n] - g[None, :])
    held = np.all(~(errors > width[:n, None]), axis=1)  # NaN estimates do not count
    held_by = np.concatenate([[True], np.logical_and.accumulate(held)])
    finished = np.searchsorted(stage_end[:n], checkpoints, side="right")  # stages ended by t
    return {
        "stage": (stage + 1).astype(float),
        "n_active": n_active[stage].astype(float),
        "optimum_active": np.any(active[stage] & optimal[None, :], axis=1).astype(float),
        "hoeffding_ok": held_by[finished].astype(float),
    }


def _authors_stage_metrics(problem: B2DEPProblem, stage_log, checkpoints: np.ndarray) -> dict:
    """The authors' π_low's state after the last decision made before round t: its stage
    counter r, |A| and whether some maximiser of g is in A (see the module docstring)."""
    n_stages, start, n_active, active = stage_log
    stage = np.searchsorted(start[1:n_stages], checkpoints, side="left")  # 0-based r − 1
    return {
        "stage": (stage + 1).astype(float),
        "n_active": n_active[stage].astype(float),
        "optimum_active": np.any(active[stage] & optimal_policies(problem)[None, :], axis=1).astype(
            float
        ),
    }


def run_learner(algorithm: dict, problem: B2DEPProblem, horizon: int, env_key: np.uint64):
    """Run the algorithm's kernel: (expected, realised, policy) per pull, and π_low's stage log
    (None for π_ucb; for the authors' π_low, (final r, start, |A|, active) per stage)."""
    params = algorithm_params(algorithm)
    table = problem.mean_table()
    if algorithm["policy"] == "low":
        out = low_run(table, float(params["delta"]), horizon, env_key)
        return out[0], out[1], out[2], out[3:]
    if algorithm["policy"] == "low_authors":
        lengths, widths = authors_schedule(horizon, problem.k, float(params["delta"]))
        out = low_authors_run(table, lengths, widths, horizon, env_key)
        return out[0], out[1], out[2], out[4:8]
    out = ucb_run(
        table, horizon, env_key, _LOG_TIME[params["log_time"]], float(params["bonus_scale"])
    )
    return out[0], out[1], out[2], None


def trajectory_metrics(
    problem: B2DEPProblem, expected, realised, policy, costs, checkpoints: np.ndarray
) -> dict:
    """Per-pull outputs of a kernel reduced to the cumulative metrics at the checkpoints."""
    expected_at, realised_at, switches_at, pulls = checkpoint_totals(
        expected, realised, policy, checkpoints, problem.k
    )
    out = {
        "expected": expected_at,
        "realised": realised_at,
        "ghost": problem.ghost_cumulative(checkpoints),
        "switches": switches_at,
    }
    for cost in costs:
        out[regret_metric(cost)] = out["ghost"] - (out["expected"] - cost * out["switches"])
    out["suboptimal_pulls"] = pulls[:, ~optimal_policies(problem)].sum(axis=1)
    out.update({f"pulls_pi{m}": pulls[:, m - 1] for m in range(1, problem.k + 1)})
    out.update(
        {
            f"delay_{i + 1}": np.full(checkpoints.size, float(d))
            for i, d in enumerate(problem.delays)
        }
    )
    return out


def simulate_repetition(
    experiment: dict, algorithm: dict, env_seed, policy_seed, checkpoints: np.ndarray
) -> dict[str, np.ndarray]:
    environment = experiment["environment"]
    problem = problem_of(environment, env_seed)
    horizon = int(experiment["horizon"])
    expected, realised, policy, stage_log = run_learner(
        algorithm, problem, horizon, key64(env_seed)
    )
    out = trajectory_metrics(
        problem, expected, realised, policy, switch_costs(environment), checkpoints
    )
    if algorithm["policy"] == "low":
        out.update(_stage_metrics(problem, stage_log, checkpoints))
    elif algorithm["policy"] == "low_authors":
        out.update(_authors_stage_metrics(problem, stage_log, checkpoints))
    return out
