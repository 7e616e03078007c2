"""Helpers for the thin Snakemake scripts: logging to the job's log and to the console,
and reading a paper's traces by id."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable

import pandas as pd

from . import paths


def logger(log_path: str | Path) -> Callable[[str], None]:
    """A function that writes a line to ``log_path`` (truncated first) and to stderr, so long
    jobs show progress in the console and keep it in their log."""
    log_path = Path(log_path)
    log_path.parent.mkdir(parents=True, exist_ok=True)
    handle = log_path.open("w")

    def log(message: str) -> None:
        print(message, file=handle, flush=True)
        print(message, file=sys.stderr, flush=True)

    return log


def trace_reader(root: str, paper: str) -> Callable[[str, str], pd.DataFrame]:
    """``trace_of(experiment, algorithm)`` reading the gathered traces of ``paper``."""

    def trace_of(experiment: str, algorithm: str) -> pd.DataFrame:
        return pd.read_parquet(paths.trace(root, paper, experiment, algorithm))

    return trace_of


def trace_paths(root: str, paper: dict) -> dict:
    key = paper["paper"]["key"]
    return {(e, a): paths.trace(root, key, e, a)
            for e, exp in paper["experiments"].items() for a in exp["algorithms"]}
