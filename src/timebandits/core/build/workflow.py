"""Helpers for the thin Snakemake scripts and the notebooks: logging to the job's log and to
the console, and reading a paper's traces by id. An experiment's trace is the set of its chunk
files (one per simulate job, each with every algorithm); readers join them, so no job exists
only to copy them together."""

from __future__ import annotations

import atexit
import os
import resource
import socket
import sys
import traceback
from pathlib import Path
from typing import Callable

import pandas as pd

from timebandits.core import paths
from timebandits.core.build.job_clock import adopted, cpu_seconds, process_age
from timebandits.core.config import repetition_chunks, resolve_experiment
from timebandits.core.sim.traces import algorithm_trace, concat_traces, trace_contract


def logger(log_path: str | Path) -> Callable[[str], None]:
    """A function that writes a line to ``log_path`` (truncated first) and to stderr, so long
    jobs show progress in the console and keep it in their log. An exception the job does not
    catch ends in the log with its traceback, and on the console as one line naming the log. A
    job run by Slurm says so in its first line (job id and node), which ties each output to the
    cluster's own record."""
    log_path = Path(log_path)
    log_path.parent.mkdir(parents=True, exist_ok=True)
    handle = log_path.open("w")

    def log(message: str, console: bool = True) -> None:
        print(message, file=handle, flush=True)
        if console:
            print(message, file=sys.stderr, flush=True)

    def keep_the_cause(kind, error, trace) -> None:
        """An uncaught exception: its traceback into the log, one line on the console."""
        traceback.print_exception(kind, error, trace, file=handle)
        handle.flush()
        first = str(error).splitlines()[0] if str(error) else ""
        print(f"{kind.__name__}: {first} (traceback in {log_path})", file=sys.stderr, flush=True)

    sys.excepthook = keep_the_cause
    if adopted():
        log(
            "run in a forked copy of the build's job server (core/build/job_server.py)",
            console=False,
        )
    if "SLURM_JOB_ID" in os.environ:
        log(f"Slurm job {os.environ['SLURM_JOB_ID']} on {socket.gethostname()}")
    return log


def log_start_up(log: Callable[..., None]) -> float:
    """Log ``start-up: 0.84 s``, the time from this process's start (or the job's hand-over to the
    job server) to the job's own work, and return it; when the process exits, the log gets the
    :func:`job_record` too. Call it once everything the job needs is imported.
    benchmarks/build_profile.py and benchmarks/cluster_costs.py read both lines."""
    seconds = process_age()
    log(f"start-up: {seconds:.2f} s")
    atexit.register(lambda: log(job_record(), console=False))
    return seconds


def job_record() -> str:
    """``job record: 4.21 s wall, 3.95 s CPU, 312 MB peak``: this process's age, the CPU time of
    it and of its finished children, and its peak resident memory plus the largest of any
    finished child's (an upper bound on the job's peak while one child runs at a time, as a
    notebook's kernel does; a child's peak may include the pages it was forked with, and a job
    forked from the job server counts the server's pages it shares). Each job
    measures itself: Snakemake's ``benchmark`` directive polled every job's process tree from
    the main process twice a second, a third of that process's busy time in a smoke build."""
    cpu = cpu_seconds()
    peak_kb = (
        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        + resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    )
    return f"job record: {process_age():.2f} s wall, {cpu:.2f} s CPU, {peak_kb / 1024:.0f} MB peak"


def end_job(code: int = 0) -> None:
    """End a job whose work is done, with exit code ``code``, without the interpreter's teardown.
    Its outputs are closed and in place (each is written atomically) and its log is flushed line
    by line; the exit handlers (the :func:`job_record`) run first. Freeing pandas, matplotlib and
    Snakemake module by module took 0.15-0.3 s of CPU per job, about a minute of a smoke build's
    330 jobs. A job that fails in its own process does not come here: it exits as usual, its
    traceback in its log; a forked copy of the job server (core/build/job_server.py) always ends
    here, as it must never return into the server."""
    atexit._run_exitfuncs()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def chunk_contracts(
    root: str, paper: dict, config: dict, experiment: str
) -> list[tuple[str, dict]]:
    """The chunk files that together form the trace of ``experiment`` at the configured scale,
    each with what it must hold (core.sim.traces.trace_contract): the single place that decides
    them, for the rules and every reader."""
    exp = resolve_experiment(paper, experiment, config)
    chunks = repetition_chunks(
        exp["repetitions"], exp["horizon"], config["chunk_work"], len(exp["algorithms"])
    )
    return [
        (
            paths.trace_chunk(root, paper["paper"]["key"], experiment, start, stop),
            trace_contract(paper, config, experiment, start, stop),
        )
        for start, stop in chunks
    ]


def trace_reader(root: str, paper: dict, config: dict) -> Callable[[str, str], pd.DataFrame]:
    """``trace_of(experiment, algorithm)``: the algorithm's whole trace, joined from the
    experiment's chunks, each checked against its contract (each experiment is read once)."""
    experiments: dict[str, pd.DataFrame] = {}

    def trace_of(experiment: str, algorithm: str) -> pd.DataFrame:
        if experiment not in paper["experiments"]:
            raise KeyError(f"no experiment {experiment!r} in paper {paper['paper']['key']!r}")
        if algorithm not in paper["experiments"][experiment]["algorithms"]:
            raise KeyError(f"experiment {experiment!r} does not run algorithm {algorithm!r}")
        if experiment not in experiments:
            chunks = chunk_contracts(root, paper, config, experiment)
            experiments[experiment] = concat_traces(*map(list, zip(*chunks)))
        return algorithm_trace(experiments[experiment], algorithm)

    return trace_of
