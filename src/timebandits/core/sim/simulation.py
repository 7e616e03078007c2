"""Run one simulate job: (paper, experiment, chunk of repetitions) -> trace frame of every
algorithm of the experiment."""

from __future__ import annotations

import ctypes
import time
from typing import Callable

import numpy as np
import pandas as pd

from timebandits.core.config import resolve_experiment
from timebandits.core.registry import paper_module
from timebandits.core.sim.checkpoints import checkpoint_grid
from timebandits.core.sim.seeding import environment_seed, policy_seed

# glibc's mallopt parameters (malloc.h) and the values reuse_freed_memory sets: blocks up to
# 32 MiB (the ceiling of glibc's own adaptive threshold on 64-bit; a repetition at T = 10^6 makes
# arrays of at most 8 MB) come from the heap, and freed heap memory is kept unless more than
# 1 GiB of it is free.
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
_MMAP_BELOW, _TRIM_ABOVE = 32 << 20, 1 << 30


def reuse_freed_memory() -> None:
    """Let a repetition reuse the memory the one before it freed. glibc's malloc hands a large
    freed block back to the kernel (munmap, or trimming the heap), so each repetition's arrays
    of the same size fault in every page again: an ARS-UCB run at T = 10^6 allocates some
    17 MB and spent 17 ms per run where its kernel computes for 8 (page faults cost about 2 µs
    each on this machine's VM). Changes no result. Elsewhere than glibc (no ``mallopt``) the
    allocator is left as it is."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return
    mallopt(_M_MMAP_THRESHOLD, _MMAP_BELOW)
    mallopt(_M_TRIM_THRESHOLD, _TRIM_ABOVE)


def run_chunk(
    config: dict,
    paper: dict,
    experiment_id: str,
    start: int,
    stop: int,
    log: Callable[[str], None] = print,
) -> pd.DataFrame:
    """Simulate repetitions ``start .. stop-1`` of every algorithm of the experiment and return
    their trace (one row per algorithm, repetition and checkpoint). Repetition r's seeds depend
    only on ids and r, never on the chunking or on the other algorithms, so a trace is the same
    however the jobs are cut. One job runs all algorithms, so a job's start-up (interpreter,
    imports, compiled-code loading) is paid once per chunk, not once per algorithm."""
    reuse_freed_memory()
    key = paper["paper"]["key"]
    experiment = resolve_experiment(paper, experiment_id, config)
    simulation = paper_module(key, "simulation")
    checkpoints = checkpoint_grid(experiment["horizon"], experiment["checkpoints"])
    frames = []
    started = time.perf_counter()
    algorithms = experiment["algorithms"]
    total = (stop - start) * len(algorithms)
    report_every = max(1, total // 10)
    done = 0
    for algorithm_id in algorithms:
        algorithm = paper["algorithms"][algorithm_id]
        for rep in range(start, stop):
            env_seed = environment_seed(config["base_seed"], key, experiment_id, rep)
            pol_seed = policy_seed(config["base_seed"], key, experiment_id, algorithm_id, rep)
            metrics = simulation.simulate_repetition(
                experiment, algorithm, env_seed, pol_seed, checkpoints
            )
            frames.append(
                pd.DataFrame(
                    {
                        "algorithm": algorithm_id,
                        "repetition": np.full(checkpoints.size, rep, dtype=np.int64),
                        "t": checkpoints,
                        **metrics,
                    }
                )
            )
            done += 1
            if done % report_every == 0 or done == total:
                elapsed = time.perf_counter() - started
                log(
                    f"{key}/{experiment_id} reps {start}-{stop}: {done}/{total} runs done "
                    f"({algorithm_id} rep {rep}), {elapsed:.1f} s elapsed "
                    f"(horizon {experiment['horizon']:g})"
                )
    return pd.concat(frames, ignore_index=True)
