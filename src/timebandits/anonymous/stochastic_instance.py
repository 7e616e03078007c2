"""The stochastic instance of a composite anonymous experiment (model.py; Wang, Wang & Huang,
AAAI 2021, §2 and §5, Figs. 1–4) as the compiled kernels take it: the problem, its cumulative
kernel W(0..T) and Theorem 1's d1 and d2, made once per process, and the environment's
arguments of every stochastic kernel (environment.py).
"""

from __future__ import annotations

import functools
import json

import numpy as np

from timebandits.core.sim.seeding import key64

from .model import AnonymousProblem


@functools.lru_cache(maxsize=4)
def stochastic_instance(environment: str, horizon: int):
    """(problem, W(0..T) read-only, d1, d2) of a stochastic environment (JSON) at horizon T,
    made once per process: every repetition and algorithm of a job plays the same instance, and
    W over 10^6 slots costs as much as a repetition of a cheap kernel. Fig. 1's run takes its
    arguments from here too, so that it calls the kernel with the simulation's argument types and
    runs the machine code the simulation cached (a writable W is another signature: 5 s of
    compiling in the figure's job)."""
    problem = AnonymousProblem.from_config(json.loads(environment))
    cumulative = problem.kernel.cumulative(horizon + 1)
    cumulative.flags.writeable = False
    return problem, cumulative, problem.d1(), problem.d2()


def environment_arguments(experiment: dict, env_seed, checkpoints: np.ndarray):
    """(problem, d1, d2, the environment's arguments of every stochastic kernel: kernel code,
    W(0..T), window reach, delay low and high, environment key, T, checkpoints)."""
    horizon = int(experiment["horizon"])
    problem, cumulative, d1, d2 = stochastic_instance(
        json.dumps(experiment["environment"], sort_keys=True), horizon
    )
    kernel = problem.kernel
    return (
        problem,
        d1,
        d2,
        (
            kernel.code,
            cumulative,
            int(min(kernel.window_reach, horizon)),
            int(kernel.params.get("low", 0)),
            int(kernel.params.get("high", 0)),
            key64(env_seed),
            horizon,
            checkpoints,
        ),
    )
