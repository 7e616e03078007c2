"""Glue between the paper config and the compiled game loops: one repetition of one algorithm on
one composite anonymous problem (model.py, stochastic_instance.py; Figs. 1–4) or one label-stream
game (label_game_config.py, adversarial.py, ars_exp3.py, clw.py; Fig. 5), returned as metrics
over the checkpoint grid.

An experiment's ``environment`` is either stochastic, ``{means, kernel}``, or a label-stream
game, ``{stream, extend, delays}`` (label_game_config.py).

Metrics (cumulative over slots 1..t at checkpoint t):
  regret    stochastic: Σ_s (s_1 − s_{a(s)}), the pseudo-regret of §2 (Figs. 2–4), which counts
            each pull's whole expected total even when part of it falls due after T;
            label streams: max_i G_i(t) − gain(t), the best label's count so far minus the
            learner's earnings (spec P9)
and, when the experiment's ``record`` list asks for ``lemma1`` (ARS-UCB only), Lemma 1's tally
(policies.LEMMA1_METRICS: arm-decisions checked, those whose estimate missed s_i by the hidden
radius rad', the misses Lemma 1 allows, Σ 2/t³, and the largest |ŝ_i − s_i|/rad' so far).
ARS-UCB, UCB and the ODAAF family are deterministic given the feedback (their ties go to fixed
rules), so only the environment seed is used; ARS-EXP3 and CLW draw from the policy seed.
"""

from __future__ import annotations

import numpy as np

from timebandits.core.config import merged_params
from timebandits.core.sim.seeding import key64

from . import streams
from .ars_exp3 import ars_exp3_call
from .clw import clw_call
from .kaggle_data import check_stream_files, stream_files
from .label_game_config import ADVERSARIES, _delays, game_labels, is_label_game
from .label_stream import EXTENDS
from .model import AnonymousProblem
from .odaaf import VARIANTS, run_odaaf
from .policies import LEMMA1_METRICS, run_ars_ucb
from .rounds import round_sizes
from .stochastic_instance import environment_arguments
from .ucb import run_ucb

ARS_UCB = "ars_ucb"
UCB = "ucb"
ARS_EXP3, CLW = "ars_exp3", "clw"
STOCHASTIC_POLICIES = (ARS_UCB, UCB, *VARIANTS)
LABEL_GAME_POLICIES = (ARS_EXP3, CLW)
POLICIES = (*STOCHASTIC_POLICIES, *LABEL_GAME_POLICIES)
ROUND_SIZE_KINDS = ("power", "exponential")
# What an ODAAF-type baseline is told about the delay (spec §2.4–2.5): the kernel's exact mean
# offset, or the interval size d (the reconstruction of generalized ODAAF, spec §2.5).
KNOWLEDGE = ("mean_offset", "interval_size")
RECORDS = ("lemma1",)
# What UCB is told after a pull (ucb.py): the slot's anonymous aggregate, or the pull's own total.
UCB_FEEDBACK = ("anonymous", "immediate")

_PARAMS = {
    ARS_UCB: {"alpha": 4.0, "round_size": {"kind": "power", "c": 1, "beta": 2}},
    **{variant: {"expected_delay": "mean_offset"} for variant in VARIANTS},
    UCB: {"alpha": 4.0, "feedback": "anonymous"},
    ARS_EXP3: {"beta": 0.5},
    CLW: {"d_factor": 1.0},
}


def validate_environment(environment: dict) -> None:
    if not is_label_game(environment):
        AnonymousProblem.from_config(environment)
        return
    streams.validate_stream_spec(environment["stream"])
    check_stream_files(environment["stream"])
    if environment.get("extend") not in EXTENDS:
        raise ValueError(f"extend must be one of {EXTENDS}, got {environment.get('extend')!r}")
    _delays(environment)


def validate_experiment(experiment: dict) -> None:
    """A label-stream game's stream can be read and is long enough: with ``extend: stop`` its
    horizon (as the paper file gives it, the largest of any scale) fits in the stream. The
    stream is read here, before any job, once; then from the disk cache."""
    environment = experiment["environment"]
    if is_label_game(environment):
        stream = streams.load_stream(environment["stream"])
        stream.horizon_labels(int(experiment["horizon"]), environment["extend"])


def environment_files(environment: dict) -> list[str]:
    """The data files a label-stream game reads (Kaggle CSVs in data/raw/), for Snakemake."""
    return (
        [str(path) for path in stream_files(environment["stream"])]
        if is_label_game(environment)
        else []
    )


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
    elif algorithm["policy"] == UCB:
        alpha = params["alpha"]
        if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or alpha <= 0:
            raise ValueError(f"alpha must be a positive number, got {alpha!r}")
        if params["feedback"] not in UCB_FEEDBACK:
            raise ValueError(f"feedback must be one of {UCB_FEEDBACK}, got {params['feedback']!r}")
    elif algorithm["policy"] == ARS_EXP3:
        beta = params["beta"]
        if isinstance(beta, bool) or not isinstance(beta, (int, float)) or not 0 <= beta <= 1:
            raise ValueError(
                f"beta must be a number in [0, 1] (Theorem 2: g(k) = k^beta), got {beta!r}"
            )
    elif algorithm["policy"] == CLW:
        factor = params["d_factor"]
        if isinstance(factor, bool) or not isinstance(factor, (int, float)) or factor <= 0:
            raise ValueError(f"d_factor must be a positive number, got {factor!r}")
    elif params["expected_delay"] not in KNOWLEDGE:
        raise ValueError(
            f"expected_delay must be one of {KNOWLEDGE}, got {params['expected_delay']!r}"
        )
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
        raise ValueError(
            f"{algorithm['policy']} needs a finite expected delay, but kernel "
            f"{kernel.kind} {kernel.params} has {knowledge} = inf (the paper runs "
            "no baseline on the infinite kernels, Fig. 4)"
        )
    return expected


def clw_interval(environment: dict, algorithm: dict) -> int:
    """The interval size d̂ = d_factor · d CLW is told (an integer: q = 1/(2d̂) and the last d̂
    observations of a block)."""
    d = _delays(environment)["d"]
    factor = algorithm_params(algorithm)["d_factor"]
    told = factor * d
    if abs(told - round(told)) > 1e-9 or round(told) < 1:
        raise ValueError(
            f"CLW is told d_factor * d = {factor:g} * {d} = {told:g}, which must be "
            "a positive integer"
        )
    return int(round(told))


def validate_run(environment: dict, algorithm: dict) -> None:
    game = is_label_game(environment)
    if game != (algorithm["policy"] in LABEL_GAME_POLICIES):
        raise ValueError(
            f"{algorithm['policy']} runs on "
            + ("label-stream games (Fig. 5)" if not game else "stochastic instances")
            + ", not on this experiment's environment"
        )
    if algorithm["policy"] == CLW:
        clw_interval(environment, algorithm)
    elif algorithm["policy"] in VARIANTS:
        told_delay(AnonymousProblem.from_config(environment), algorithm)
    elif (
        algorithm["policy"] == UCB
        and algorithm_params(algorithm)["feedback"] == "anonymous"
        and environment["kernel"]["kind"] != "delay"
    ):
        raise ValueError("UCB on anonymous feedback runs on the delay kernels only (ucb.py)")


def round_size_table(size: dict, horizon: int) -> np.ndarray:
    """f(1), f(2), … until the sum exceeds ``horizon`` (no arm needs more rounds), each capped at
    the horizon (2^{k+c} overflows long before a round could matter)."""
    count = 1
    while True:
        sizes = round_sizes(size["kind"], size.get("c", 1), size.get("beta", 1), count)
        if sizes.sum() > horizon:
            return np.minimum(sizes, horizon).astype(np.int64)
        count *= 2


def runs_of(paper: dict, experiment: dict, policy: str):
    """(id, config entry, merged params) of each algorithm of ``experiment`` that runs
    ``policy``."""
    for algorithm in experiment["algorithms"]:
        alg = paper["algorithms"][algorithm]
        if alg["policy"] == policy:
            yield algorithm, alg, algorithm_params(alg)


def label_game_call(
    experiment: dict, algorithm: dict, env_seed, policy_seed, checkpoints: np.ndarray
):
    """(the compiled kernel, its arguments) of one run of ARS-EXP3 or CLW on a label game
    (Fig. 5); the kernel returns (regret at ``checkpoints``, plays[1..T])."""
    environment = experiment["environment"]
    stream, labels = game_labels(environment, int(experiment["horizon"]))
    delays = _delays(environment)
    game = (
        ADVERSARIES[delays["adversary"]],
        delays["d"],
        delays.get("low", 1),
        delays.get("high", 1),
        key64(env_seed),
        key64(policy_seed),
        checkpoints,
    )
    if algorithm["policy"] == ARS_EXP3:
        return ars_exp3_call(
            labels, stream.n_arms, float(algorithm_params(algorithm)["beta"]), *game
        )
    return clw_call(labels, stream.n_arms, clw_interval(environment, algorithm), *game)


def simulate_repetition(
    experiment: dict, algorithm: dict, env_seed, policy_seed, checkpoints: np.ndarray
) -> dict[str, np.ndarray]:
    if is_label_game(experiment["environment"]):
        kernel, arguments = label_game_call(
            experiment, algorithm, env_seed, policy_seed, checkpoints
        )
        return {"regret": kernel(*arguments)[0]}
    params = algorithm_params(algorithm)
    problem, d1, d2, common = environment_arguments(experiment, env_seed, checkpoints)
    kernel, horizon = problem.kernel, int(experiment["horizon"])
    if algorithm["policy"] == ARS_UCB:
        regret, lemma, _ = run_ars_ucb(
            problem.means,
            float(params["alpha"]),
            round_size_table(params["round_size"], horizon),
            d1,
            d2,
            *common,
        )
        if "lemma1" in experiment.get("record", []):
            return {"regret": regret, **dict(zip(LEMMA1_METRICS, lemma))}
    elif algorithm["policy"] == UCB:
        regret = run_ucb(
            problem.means,
            float(params["alpha"]),
            params["feedback"] == "immediate",
            common[0],
            common[3],
            common[4],
            *common[5:],
        )
    else:
        regret = run_odaaf(
            problem.means,
            VARIANTS[algorithm["policy"]],
            told_delay(problem, algorithm),
            kernel.offset_variance(),
            float(kernel.support),
            *common,
        )
    return {"regret": regret}
