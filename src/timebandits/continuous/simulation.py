"""Glue between the paper config and the compiled learners: one repetition of one policy on one
continuous-time instance (model.py), as metrics over the checkpoint grid.

An experiment's ``environment`` is ``{means, lam}``: the Bernoulli means (one arm for CTSAB's
Figs. 2–3, K arms in decreasing order for CTMAB's Fig. 1) and the cost weight λ. Its ``horizon``
is the paper's T and its checkpoints are raw times t ∈ [1, T]; every policy runs in normalised
units over T' = T/λ (Remark 3) and sees the checkpoint t/λ.

Policies: ``oracle`` (Props. 1–2) and ``baseline`` (the best arm at the oracle rate of an
``assumed_mean``, Sec. 5: BaseLine1 0.12, BaseLine2 0.09) are exact and deterministic;
``ctsab`` and ``ctmab`` are the learners (ctsab.py, ctmab.py).

Metrics (at checkpoint t):
  payoff       cumulative expected payoff Σ_{t_i ≤ t} (μ[k_i] − λ/Δt_i) (eq. 1)
and, for the learners, one value per run repeated at every checkpoint:
  failed       1 if learning (CTSAB) or estimation (CTMAB) never stopped before T, else 0
  id_cut       1 if CTMAB's identification was cut at T, else 0
  i_star       the phase that ended learning (0 on failure)
  stop_time    τ (CTSAB) or t_Es (CTMAB), raw time
  stop_estimate  μ̂ when learning/estimation stopped (CTSAB: the pooled mean; CTMAB: μ̂[1]; NaN on
               failure)
  id_time      t_Id, raw time (CTMAB), and ``identified``: 1 if LUCB1 returned arm 1
"""

from __future__ import annotations

import math

import numpy as np

from timebandits.core.config import merged_params
from timebandits.core.sim.seeding import key64

from .ctmab import FAILED_ESTIMATION, FAILED_IDENTIFICATION, run_ctmab
from .ctsab import FAILED, run_ctsab
from .model import normalised_horizon, oracle
from .schedule import ROUNDINGS

ORACLE, BASELINE, CTSAB, CTMAB = "oracle", "baseline", "ctsab", "ctmab"
POLICIES = (ORACLE, BASELINE, CTSAB, CTMAB)
# δ as Theorems 5 and 8 and Lemma 13 choose it, and δ_id as Alg. 2 fixes it: 1/T'² (T' = T/λ),
# given in the config as this string.
INVERSE_SQUARE_HORIZON = "1/T'^2"
# ``rounding``: how an exploit window gets its μ̂L/2 plays (schedule.exploit_window): "rate"
# (plays 2/μ̂ apart across windows, the paper's real N_k), "half_up" (the nearest integer per
# window, the earlier rule) or "carry" (the remainder carried between windows); the last two are
# sensitivity runs.
_LEARNER = {"epsilon": 0.05, "kappa": 1.0, "delta": 0.05, "rounding": "rate"}
_PARAMS = {
    ORACLE: {},
    BASELINE: {"assumed_mean": 0.12},
    CTSAB: dict(_LEARNER),
    CTMAB: {**_LEARNER, "delta_id": 0.05, "id_spacing_factor": 1.0},
}


def _number(params: dict, key: str) -> float:
    value = params[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{key} must be a number, got {value!r}")
    return float(value)


def _in_open_unit(params: dict, key: str) -> None:
    if not 0 < _number(params, key) < 1:
        raise ValueError(f"{key} must lie in (0, 1), got {params[key]!r}")


def _check_confidence(params: dict, key: str) -> None:
    """δ or δ_id: a number in (0, 1), or the theorems' ``"1/T'^2"``."""
    if isinstance(params[key], str):
        if params[key] != INVERSE_SQUARE_HORIZON:
            raise ValueError(
                f"{key} must lie in (0, 1) or be {INVERSE_SQUARE_HORIZON!r}, got {params[key]!r}"
            )
        return
    _in_open_unit(params, key)


def learner_epsilon(params: dict, horizon: float) -> float:
    """ε of a learner over T': the number given, or, for ``{phase_base: c}``, ε = ln c/ln T' so
    that the phase ratio T'^ε = c stays fixed as T' grows (spec §6.18: the regime in which the
    theorems' O(·) hold)."""
    epsilon = params["epsilon"]
    if isinstance(epsilon, dict):
        return math.log(epsilon["phase_base"]) / math.log(horizon)
    return float(epsilon)


def confidence(params: dict, key: str, horizon: float) -> float:
    """δ or δ_id (``key``) of a learner over T': the number given, or 1/T'² for
    ``"1/T'^2"`` (the theorems' δ, Alg. 2's δ_id)."""
    value = params[key]
    return 1.0 / horizon**2 if value == INVERSE_SQUARE_HORIZON else float(value)


def algorithm_params(algorithm: dict) -> dict:
    """The policy's params over its defaults, checked (ε, δ, δ_id in (0, 1), or δ and δ_id given
    as ``"1/T'^2"``, ε as ``{phase_base: c}`` with c > 1; κ and the spacing factor > 0; a
    baseline's assumed mean, a Bernoulli mean, in (0, 1])."""
    params = merged_params(algorithm, _PARAMS[algorithm["policy"]])
    if algorithm["policy"] == BASELINE and not 0 < _number(params, "assumed_mean") <= 1:
        raise ValueError(
            f"assumed_mean is a mean of Bernoulli rewards, so it must lie in (0, 1] "
            f"(it sets the baseline rate assumed_mean/(2 lambda)); got "
            f"{params['assumed_mean']!r}"
        )
    if algorithm["policy"] in (CTSAB, CTMAB):
        if isinstance(params["epsilon"], dict):
            base = params["epsilon"].get("phase_base")
            if (
                set(params["epsilon"]) != {"phase_base"}
                or isinstance(base, bool)
                or not isinstance(base, (int, float))
                or not base > 1
            ):
                raise ValueError(
                    f"epsilon must lie in (0, 1) or be {{phase_base: c}} with c > 1, "
                    f"got {params['epsilon']!r}"
                )
        else:
            _in_open_unit(params, "epsilon")
        _check_confidence(params, "delta")
        if params["rounding"] not in ROUNDINGS:
            raise ValueError(
                f"rounding must be one of {sorted(ROUNDINGS)}, got {params['rounding']!r}"
            )
        if not _number(params, "kappa") > 0:
            raise ValueError(f"kappa must be > 0, got {params['kappa']!r}")
    if algorithm["policy"] == CTMAB:
        _check_confidence(params, "delta_id")
        if not _number(params, "id_spacing_factor") > 0:
            raise ValueError(f"id_spacing_factor must be > 0, got {params['id_spacing_factor']!r}")
    return params


def validate_algorithm(algorithm: dict) -> None:
    algorithm_params(algorithm)


def validate_environment(environment: dict) -> None:
    means = environment.get("means")
    if (
        not isinstance(means, list)
        or not means
        or not all(
            isinstance(m, (int, float)) and not isinstance(m, bool) and 0 < m < 1 for m in means
        )
    ):
        raise ValueError(f"means must be a list of numbers in (0, 1), got {means!r}")
    lam = environment.get("lam")
    if isinstance(lam, bool) or not isinstance(lam, (int, float)) or not lam > 0:
        raise ValueError(f"lam (the cost weight lambda) must be a number > 0, got {lam!r}")
    unknown = set(environment) - {"means", "lam"}
    if unknown:
        raise ValueError(f"unknown environment keys {sorted(unknown)}; accepted: ['lam', 'means']")


def validate_run(environment: dict, algorithm: dict) -> None:
    means = environment["means"]
    if algorithm["policy"] == CTSAB and len(means) != 1:
        raise ValueError(
            f"ctsab is the single-arm algorithm; this environment has {len(means)} arms"
        )
    if algorithm["policy"] == CTMAB and not all(a > b for a, b in zip(means, means[1:])):
        raise ValueError(
            f"ctmab needs the means in strictly decreasing order (arm 1 the best), got {means}"
        )


def _repeated(value: float, checkpoints: np.ndarray) -> np.ndarray:
    return np.full(checkpoints.size, float(value))


def simulate_repetition(
    experiment: dict, algorithm: dict, env_seed, policy_seed, checkpoints: np.ndarray
) -> dict[str, np.ndarray]:
    """One run: metrics (module docstring) at the raw-time ``checkpoints``. The oracle and the
    baselines do not draw; a learner's rewards come from the environment seed, so every learner
    of a repetition meets the same draws."""
    environment = experiment["environment"]
    lam = float(environment["lam"])
    horizon = normalised_horizon(float(experiment["horizon"]), lam)
    means = np.asarray(environment["means"], dtype=float)
    times = np.asarray(checkpoints, dtype=float) / lam
    params = algorithm_params(algorithm)
    policy = algorithm["policy"]
    if policy == ORACLE:
        return {"payoff": oracle(means[0], horizon).payoff_until(times)}
    if policy == BASELINE:
        # the normalised rate of assumed_mean/(2 lambda): plays 1/rate apart, each earning
        # mu1 - rate (model.baseline_payoff over the whole horizon)
        rate = params["assumed_mean"] / 2.0
        done = np.minimum(np.floor(times * rate * (1 + 1e-12)), math.floor(horizon * rate))
        return {"payoff": done * (means[0] - rate)}
    key = key64(env_seed)
    if policy == CTSAB:
        payoff, outcome, i_star, tau, _, estimate, _ = run_ctsab(
            means[0],
            horizon,
            learner_epsilon(params, horizon),
            params["kappa"],
            confidence(params, "delta", horizon),
            key,
            times,
            ROUNDINGS[params["rounding"]],
        )
        return {
            "payoff": payoff,
            "failed": _repeated(outcome == FAILED, times),
            "i_star": _repeated(i_star, times),
            "stop_time": _repeated(tau * lam, times),
            "stop_estimate": _repeated(estimate if i_star else np.nan, times),
        }
    payoff, outcome, i_star, t_es, t_id, arm, estimate, _ = run_ctmab(
        means,
        horizon,
        learner_epsilon(params, horizon),
        params["kappa"],
        confidence(params, "delta", horizon),
        confidence(params, "delta_id", horizon),
        params["id_spacing_factor"],
        key,
        times,
        ROUNDINGS[params["rounding"]],
    )
    return {
        "payoff": payoff,
        "failed": _repeated(outcome == FAILED_ESTIMATION, times),
        "id_cut": _repeated(outcome == FAILED_IDENTIFICATION, times),
        "i_star": _repeated(i_star, times),
        "stop_time": _repeated(t_es * lam, times),
        "stop_estimate": _repeated(estimate if i_star else np.nan, times),
        "id_time": _repeated(t_id * lam, times),
        "identified": _repeated(arm == 0, times),
    }
