"""Glue between the paper config and the compiled game loops: one repetition of one algorithm on
one composite anonymous problem (model.py), returned as metrics over the checkpoint grid.

Metrics (cumulative over slots 1..t at checkpoint t):
  regret    Σ_s (s_1 − s_{a(s)}), the pseudo-regret of §2 (Figs. 2–4), which counts each
            pull's whole expected total even when part of it falls due after T
and, when the experiment's ``record`` list asks for ``lemma1`` (ARS-UCB only), Lemma 1's tally
(policies.LEMMA1_METRICS: arm-decisions checked, those whose estimate missed s_i by the hidden
radius rad', the misses Lemma 1 allows, Σ 2/t³, and the largest |ŝ_i − s_i|/rad' so far).
ARS-UCB and the ODAAF family are deterministic given the feedback (their ties go to fixed
rules), so only the environment seed is used.
"""

from __future__ import annotations

import numpy as np

from timebandits.core.config import merged_params
from timebandits.core.seeding import key64

from .model import AnonymousProblem
from .odaaf import VARIANTS, run_odaaf
from .policies import LEMMA1_METRICS, run_ars_ucb
from .theory import round_sizes

ARS_UCB = "ars_ucb"
POLICIES = (ARS_UCB, *VARIANTS)
ROUND_SIZE_KINDS = ("power", "exponential")
# What an ODAAF-type baseline is told about the delay (spec §2.4–2.5): the kernel's exact mean
# offset, or the interval size d (the reconstruction of generalized ODAAF, spec §2.5).
KNOWLEDGE = ("mean_offset", "interval_size")
RECORDS = ("lemma1",)

_PARAMS = {
    ARS_UCB: {"alpha": 4.0, "round_size": {"kind": "power", "c": 1, "beta": 2}},
    **{variant: {"expected_delay": "mean_offset"} for variant in VARIANTS},
}


def validate_environment(environment: dict) -> None:
    AnonymousProblem.from_config(environment)


def algorithm_params(algorithm: dict) -> dict:
    """The algorithm's params merged over its policy's defaults, checked."""
    params = merged_params(algorithm, _PARAMS[algorithm["policy"]])
    if algorithm["policy"] == ARS_UCB:
        alpha = params["alpha"]
        if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or alpha <= 0:
            raise ValueError(f"alpha must be a positive number, got {alpha!r}")
        size = params["round_size"]
        if not isinstance(size, dict) or size.get("kind") not in ROUND_SIZE_KINDS:
            raise ValueError(f"round_size.kind must be one of {ROUND_SIZE_KINDS}, got {size!r}")
        round_sizes(size["kind"], size.get("c", 1), size.get("beta", 1), 2)
    elif params["expected_delay"] not in KNOWLEDGE:
        raise ValueError(f"expected_delay must be one of {KNOWLEDGE}, "
                         f"got {params['expected_delay']!r}")
    return params


def validate_algorithm(algorithm: dict) -> None:
    algorithm_params(algorithm)


def told_delay(problem: AnonymousProblem, algorithm: dict) -> float:
    """What an ODAAF-type algorithm is told as E[τ] (its ``expected_delay``: the kernel's mean
    offset or interval size); raises ValueError where that is infinite (the infinite kernels of
    Fig. 4, for which the paper runs no baseline): ODAAF's first phase would last until T."""
    knowledge = algorithm_params(algorithm)["expected_delay"]
    kernel = problem.kernel
    expected = kernel.mean_offset() if knowledge == "mean_offset" else float(kernel.interval_size)
    if not np.isfinite(expected):
        raise ValueError(f"{algorithm['policy']} needs a finite expected delay, but kernel "
                         f"{kernel.kind} {kernel.params} has {knowledge} = inf (the paper runs "
                         "no baseline on the infinite kernels, Fig. 4)")
    return expected


def validate_run(environment: dict, algorithm: dict) -> None:
    if algorithm["policy"] != ARS_UCB:
        told_delay(AnonymousProblem.from_config(environment), algorithm)


def round_size_table(size: dict, horizon: int) -> np.ndarray:
    """f(1), f(2), … until the sum exceeds ``horizon`` (no arm needs more rounds), each capped at
    the horizon (2^{k+c} overflows long before a round could matter)."""
    count = 1
    while True:
        sizes = round_sizes(size["kind"], size.get("c", 1), size.get("beta", 1), count)
        if sizes.sum() > horizon:
            return np.minimum(sizes, horizon).astype(np.int64)
        count *= 2


def simulate_repetition(experiment: dict, algorithm: dict, env_seed, policy_seed,
                        checkpoints: np.ndarray) -> dict[str, np.ndarray]:
    problem = AnonymousProblem.from_config(experiment["environment"])
    params = algorithm_params(algorithm)
    horizon = int(experiment["horizon"])
    kernel = problem.kernel
    common = (kernel.code, kernel.cumulative(horizon + 1), int(min(kernel.window_reach, horizon)),
              int(kernel.params.get("low", 0)), int(kernel.params.get("high", 0)),
              key64(env_seed), horizon, checkpoints)
    if algorithm["policy"] == ARS_UCB:
        regret, lemma, _ = run_ars_ucb(problem.means, float(params["alpha"]),
                                       round_size_table(params["round_size"], horizon),
                                       problem.d1(), problem.d2(), *common)
        if "lemma1" in experiment.get("record", []):
            return {"regret": regret, **dict(zip(LEMMA1_METRICS, lemma))}
    else:
        regret = run_odaaf(problem.means, VARIANTS[algorithm["policy"]],
                           told_delay(problem, algorithm),
                           kernel.offset_variance(), float(kernel.support), *common)
    return {"regret": regret}
