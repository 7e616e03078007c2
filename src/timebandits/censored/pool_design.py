"""The design of the Fig. 5 pool of paper 001 (§5.2; spec §5): its arms, the 672 Random-Forest
configurations in their fixed order; the settings of a generation (records per configuration,
split, threads, smoke-scale caps) and their checks; which configurations a pool and each of its
blocks cover; and the seed of each record. pool.py generates the records by this design.
"""

from __future__ import annotations

import itertools
import zlib

import numpy as np
import pandas as pd

from .pool_records import HYPERPARAMETERS

# --- the arms (paper §5.2) -------------------------------------------------------------------

NUM_TREES = (100, 200, 300, 400, 500, 600, 700)
MTRY = (20, 22, 24, 26, 28, 30)
MIN_NODE_SIZE = (3, 5, 7, 9)
SAMPLE_FRACTION = (0.55, 0.632, 0.75, 0.8)


def configuration_grid() -> pd.DataFrame:
    """The 672 arms in their fixed order: config index = position in
    ``itertools.product(NUM_TREES, MTRY, MIN_NODE_SIZE, SAMPLE_FRACTION)`` (the last varies
    fastest), so config 0 = (100, 20, 3, 0.55) and config 671 = (700, 30, 9, 0.8)."""
    rows = list(itertools.product(NUM_TREES, MTRY, MIN_NODE_SIZE, SAMPLE_FRACTION))
    grid = pd.DataFrame(rows, columns=list(HYPERPARAMETERS))
    grid.insert(0, "config", np.arange(len(grid)))
    return grid


N_CONFIGS = len(NUM_TREES) * len(MTRY) * len(MIN_NODE_SIZE) * len(SAMPLE_FRACTION)  # 672

# --- the settings of a generation and the configurations of its blocks -----------------------

DEFAULT_SPEC = {
    "records": 3,  # K records per configuration, record 0 = calibration pass
    "test_fraction": 0.3,  # paper: 70:30 split
    "n_jobs": 1,  # threads of one fit (fixed: it changes fit times)
    "configs": None,  # None: all 672; an int m: m configurations spread over the grid
    "max_trees": None,  # None: the arm's num.trees; an int caps it (smoke scale only)
    # True: join modeldata's 7 missing columns from openintro (80 predictors)
    "quality_columns": False,
}


def resolve_spec(spec: dict) -> dict:
    """``spec`` over :data:`DEFAULT_SPEC`; raises ValueError naming an unknown or bad key."""
    unknown = set(spec) - set(DEFAULT_SPEC) - {"records_why"}
    if unknown:
        raise ValueError(f"unknown params {sorted(unknown)}; accepted: {sorted(DEFAULT_SPEC)}")
    spec = {**DEFAULT_SPEC, **spec}
    for key in ("records", "n_jobs"):
        if not isinstance(spec[key], int) or spec[key] < 1:
            raise ValueError(f"{key}: {spec[key]!r} is not a positive whole number")
    for key in ("configs", "max_trees"):
        if spec[key] is not None and (not isinstance(spec[key], int) or spec[key] < 1):
            raise ValueError(f"{key}: {spec[key]!r} is neither null nor a positive whole number")
    if not isinstance(spec["quality_columns"], bool):
        raise ValueError(f"quality_columns: {spec['quality_columns']!r} is not true or false")
    if not 0 < spec["test_fraction"] < 1:
        raise ValueError(f"test_fraction: {spec['test_fraction']!r} is not in (0, 1)")
    return spec


def selected_configs(spec: dict) -> np.ndarray:
    """The configuration indices the pool covers: all 672, or ``configs`` of them evenly spread
    over the grid (first and last included)."""
    m = spec.get("configs")
    if m is None or m >= N_CONFIGS:
        return np.arange(N_CONFIGS)
    return np.unique(np.round(np.linspace(0, N_CONFIGS - 1, m)).astype(int))


def block_configs(spec: dict, block: int, n_blocks: int) -> np.ndarray:
    """The configurations of block ``block`` of ``n_blocks``: positions
    [block·N/n_blocks, (block+1)·N/n_blocks) of :func:`selected_configs` (N = its length)."""
    if not 0 <= block < n_blocks:
        raise ValueError(f"block {block} is not in [0, {n_blocks})")
    configs = selected_configs(spec)
    n = len(configs)
    return configs[block * n // n_blocks : (block + 1) * n // n_blocks]


def record_seed(seed: int, config: int, record: int) -> np.random.SeedSequence:
    """The randomness of one record (its split and the forest's random_state), from
    (base seed, "censored", "ames_pool", config index, record index) -- the same on any machine,
    in any block layout."""
    return np.random.SeedSequence(
        [int(seed), zlib.crc32(b"censored"), zlib.crc32(b"ames_pool"), int(config), int(record)]
    )
