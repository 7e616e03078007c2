"""Trace files: one row per repetition x checkpoint, written once and atomically.

A trace file holds identifiers and metrics only (bsuite style): ``algorithm``, ``repetition``,
``t`` (the checkpoint) and one column per metric. Settings are joined back from the paper config
at analysis time. One file holds every algorithm of an experiment for a chunk of repetitions
(one simulate job); algorithms may report different metrics, so a metric column that is empty
(NaN) for every row of an algorithm is not part of that algorithm's trace
(:func:`algorithm_trace`). Writes are atomic (core/atomic.py).
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from .atomic import atomic_output

RUN_COLUMNS = ("repetition", "t")  # the identifiers of one algorithm's trace
ID_COLUMNS = ("algorithm", *RUN_COLUMNS)


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
        raise ValueError(f"trace for {path} has duplicated (algorithm, repetition, t) rows")
    write_atomic(frame.sort_values(list(ID_COLUMNS)).reset_index(drop=True), path)


def read_trace(path: str | os.PathLike) -> pd.DataFrame:
    return pd.read_parquet(path)


def concat_traces(paths: list[str | os.PathLike]) -> pd.DataFrame:
    """Join the chunk files of one experiment into its trace, refusing overlaps."""
    frame = pd.concat([read_trace(p) for p in paths], ignore_index=True)
    if frame.duplicated(list(ID_COLUMNS)).any():
        raise ValueError(f"chunks {list(map(str, paths))} overlap in repetitions")
    return frame.sort_values(list(ID_COLUMNS)).reset_index(drop=True)


def algorithm_trace(frame: pd.DataFrame, algorithm: str) -> pd.DataFrame:
    """The rows of ``algorithm`` in an experiment's trace, without the ``algorithm`` column and
    without the metrics it does not report (empty for all its rows)."""
    rows = frame[frame["algorithm"] == algorithm]
    if rows.empty:
        raise KeyError(f"the trace has no rows of algorithm {algorithm!r}")
    return rows.drop(columns="algorithm").dropna(axis=1, how="all").reset_index(drop=True)
