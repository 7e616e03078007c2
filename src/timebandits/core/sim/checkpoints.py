"""Checkpoint grids: where traces record cumulative quantities (DESIGN.md, "Checkpoints").

A grid mixes log-spaced points (bsuite style, dense early, where log-regret curves bend) and
linear points (for the paper's linear axes), all integers, strictly increasing and ending exactly
at the horizon.
"""

from __future__ import annotations

import numpy as np


def checkpoint_grid(horizon: int | float, n_points: int, first: int = 1) -> np.ndarray:
    """About ``n_points`` integer checkpoints in ``[first, horizon]``, half log- and half
    linear-spaced, sorted, unique, with ``horizon`` as the last one.

    >>> checkpoint_grid(100, 10).tolist()
    [1, 3, 10, 20, 31, 40, 60, 80, 100]
    """
    horizon = int(horizon)
    if horizon < 1:
        raise ValueError(f"horizon must be >= 1, got {horizon}")
    if n_points < 2:
        raise ValueError(f"need at least 2 checkpoints, got {n_points}")
    first = min(max(int(first), 1), horizon)
    n_log = n_points // 2
    n_lin = n_points - n_log
    log_part = np.geomspace(first, horizon, n_log)
    lin_part = np.linspace(horizon / n_lin, horizon, n_lin)
    grid = np.unique(
        np.concatenate([np.floor(log_part), np.floor(lin_part), [horizon]]).astype(np.int64)
    )
    return grid[grid >= first]
