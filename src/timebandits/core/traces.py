"""Trace files: one row per repetition x checkpoint, written once and atomically.

A trace holds identifiers and metrics only (bsuite style): ``repetition``, ``t`` (the checkpoint)
and one column per metric. Settings are joined back from the paper config at analysis time.
Writes go to a temporary file in the same folder that is renamed into place, so an interrupted
job never leaves a file that looks like a result.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pandas as pd

ID_COLUMNS = ("repetition", "t")


def write_atomic(frame: pd.DataFrame, path: str | os.PathLike, writer=None) -> None:
    """Write ``frame`` to ``path`` (parquet, or csv for a ``.csv`` path) via a rename."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        if writer is not None:
            writer(frame, tmp)
        elif path.suffix == ".csv":
            frame.to_csv(tmp, index=False)
        else:
            frame.to_parquet(tmp, index=False)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


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
    """Join chunk traces of one (experiment, algorithm) into one, refusing overlapping chunks."""
    frame = pd.concat([read_trace(p) for p in paths], ignore_index=True)
    if frame.duplicated(list(ID_COLUMNS)).any():
        raise ValueError(f"chunks {list(map(str, paths))} overlap in repetitions")
    return frame.sort_values(list(ID_COLUMNS)).reset_index(drop=True)
