"""Trace files: one row per repetition x checkpoint, written once and atomically.

A trace holds identifiers and metrics only (bsuite style): ``repetition``, ``t`` (the checkpoint)
and one column per metric. Settings are joined back from the paper config at analysis time.
Writes are atomic (core/atomic.py).
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from .atomic import atomic_output

ID_COLUMNS = ("repetition", "t")


def write_atomic(frame: pd.DataFrame, path: str | os.PathLike, writer=None) -> None:
    """Write ``frame`` to ``path`` (parquet, or csv for a ``.csv`` path) via a rename."""
    with atomic_output(path) as tmp:
        if writer is not None:
            writer(frame, tmp)
        elif Path(path).suffix == ".csv":
            frame.to_csv(tmp, index=False)
        else:
            frame.to_parquet(tmp, index=False)


def write_trace(frame: pd.DataFrame, path: str | os.PathLike) -> None:
    """Check that ``frame`` is a trace and write it atomically."""
    missing = [c for c in ID_COLUMNS if c not in frame.columns]
    if missing:
        raise ValueError(f"trace for {path} lacks identifier columns {missing}")
    if frame.duplicated(list(ID_COLUMNS)).any():
        raise ValueError(f"trace for {path} has duplicated (repetition, t) rows")
    write_atomic(frame.sort_values(list(ID_COLUMNS)).reset_index(drop=True), path)


def read_trace(path: str | os.PathLike) -> pd.DataFrame:
    return pd.read_parquet(path)


def concat_traces(paths: list[str | os.PathLike]) -> pd.DataFrame:
    """Join the chunk files of one (experiment, algorithm) into its trace, refusing overlaps."""
    frame = pd.concat([read_trace(p) for p in paths], ignore_index=True)
    if frame.duplicated(list(ID_COLUMNS)).any():
        raise ValueError(f"chunks {list(map(str, paths))} overlap in repetitions")
    return frame.sort_values(list(ID_COLUMNS)).reset_index(drop=True)
