"""Run one simulate job: (paper, experiment, algorithm, chunk of repetitions) -> trace frame."""

from __future__ import annotations

import time
from typing import Callable

import numpy as np
import pandas as pd

from .checkpoints import checkpoint_grid
from .config import resolve_experiment
from .registry import paper_module
from .seeding import environment_seed, policy_seed


def run_chunk(config: dict, paper: dict, experiment_id: str, algorithm_id: str,
              start: int, stop: int, log: Callable[[str], None] = print) -> pd.DataFrame:
    """Simulate repetitions ``start .. stop-1`` and return their trace (one row per repetition
    and checkpoint). Repetition r's seeds depend only on ids and r, never on the chunking."""
    key = paper["paper"]["key"]
    experiment = resolve_experiment(paper, experiment_id, config)
    algorithm = paper["algorithms"][algorithm_id]
    simulation = paper_module(key, "simulation")
    checkpoints = checkpoint_grid(experiment["horizon"], experiment["checkpoints"])
    frames = []
    started = time.perf_counter()
    total = stop - start
    report_every = max(1, total // 10)
    for rep in range(start, stop):
        env_seed = environment_seed(config["base_seed"], key, experiment_id, rep)
        pol_seed = policy_seed(config["base_seed"], key, experiment_id, algorithm_id, rep)
        metrics = simulation.simulate_repetition(experiment, algorithm, env_seed, pol_seed, checkpoints)
        frame = pd.DataFrame({"repetition": np.full(checkpoints.size, rep, dtype=np.int64),
                              "t": checkpoints, **metrics})
        frames.append(frame)
        done = rep + 1 - start
        if done % report_every == 0 or done == total:
            elapsed = time.perf_counter() - started
            log(f"{key}/{experiment_id}/{algorithm_id}: {done}/{total} repetitions done, "
                f"{elapsed:.1f} s elapsed (horizon {experiment['horizon']:g})")
    return pd.concat(frames, ignore_index=True)
