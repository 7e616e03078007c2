"""Helpers for the thin Snakemake scripts and the notebooks: logging to the job's log and to
the console, and reading a paper's traces by id. A trace is the set of its chunk files (one per
simulate job); readers join them, so no job exists only to copy them together."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable

import pandas as pd

from . import paths
from .config import repetition_chunks, resolve_experiment
from .traces import concat_traces


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


def trace_chunks(root: str, paper: dict, config: dict, experiment: str, algorithm: str) -> list[str]:
    """The chunk files that together form the trace of (experiment, algorithm) at the configured
    scale: the single place that decides them, for the rules and every reader."""
    exp = resolve_experiment(paper, experiment, config)
    return [paths.trace_chunk(root, paper["paper"]["key"], experiment, algorithm, start, stop)
            for start, stop in repetition_chunks(exp["repetitions"], exp["horizon"], config["chunk_work"])]


def trace_paths(root: str, paper: dict, config: dict) -> dict:
    """(experiment, algorithm) -> its chunk files, for every run of ``paper``."""
    return {(e, a): trace_chunks(root, paper, config, e, a)
            for e, exp in paper["experiments"].items() for a in exp["algorithms"]}


def trace_reader(root: str, paper: dict, config: dict) -> Callable[[str, str], pd.DataFrame]:
    """``trace_of(experiment, algorithm)``: the whole trace, joined from its chunks."""

    def trace_of(experiment: str, algorithm: str) -> pd.DataFrame:
        return concat_traces(trace_chunks(root, paper, config, experiment, algorithm))

    return trace_of
