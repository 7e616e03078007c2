"""Trace files: one row per repetition x checkpoint, written once and atomically.

A trace file holds identifiers and metrics only (bsuite style): ``algorithm``, ``repetition``,
``t`` (the checkpoint) and one column per metric. Settings are joined back from the paper config
at analysis time. One file holds every algorithm of an experiment for a chunk of repetitions
(one simulate job); algorithms may report different metrics, so a metric column that is empty
(NaN) for every row of an algorithm is not part of that algorithm's trace
(:func:`algorithm_trace`). Writes are atomic (core/atomic.py).

A chunk file carries its contract in its parquet metadata (:func:`trace_contract`): the paper,
the experiment, the repetitions a..b, the algorithms, the number of checkpoints and a hash of
the settings that made it. Every reader checks the file against the contract its config
expects and the rows against the contract (every algorithm x repetition x checkpoint, once); a
file that is unreadable, incomplete or from other settings stops the reader with one line
naming the file, what is wrong and how to rebuild it (:class:`TraceError`). Before any job, the
workflow removes a chunk whose footer already shows it unreadable or incomplete, so that it is
rebuilt (:func:`footer_problem`, workflow/rules/common.smk).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np
import pandas as pd

from timebandits.core.atomic import atomic_output
from timebandits.core.config import resolve_experiment
from timebandits.core.sim.checkpoints import checkpoint_grid
from timebandits.core.sim.sealed import (
    CONTENT_KEY,
    UNSEALED,
    OutputError,
    read_parquet,
    read_sealed,
    seal_problem,
    write_sealed,
)

RUN_COLUMNS = ("repetition", "t")  # the identifiers of one algorithm's trace
ID_COLUMNS = ("algorithm", *RUN_COLUMNS)
CONTRACT_KEY = b"timebandits.trace"


class TraceError(OutputError):
    """A trace file that cannot be used as it is: the message names the file, what is wrong and
    the command that rebuilds it."""


def simulation_settings(paper: dict, config: dict, experiment_id: str) -> dict:
    """Every setting a chunk's trace depends on, and nothing else (no titles, no provenance):
    the simulate rule's rerun trigger, and hashed into each chunk's contract."""
    exp = resolve_experiment(paper, experiment_id, config)
    algorithms = {
        a: {
            "policy": paper["algorithms"][a]["policy"],
            "params": paper["algorithms"][a].get("params", {}),
        }
        for a in exp["algorithms"]
    }
    extra = {"record": exp["record"]} if "record" in exp else {}
    return {
        "environment": exp["environment"],
        "horizon": exp["horizon"],
        "checkpoints": exp["checkpoints"],
        **extra,
        "algorithms": algorithms,
        "base_seed": config["base_seed"],
    }


def trace_contract(paper: dict, config: dict, experiment_id: str, start: int, stop: int) -> dict:
    """What the chunk file of repetitions ``start .. stop-1`` of ``experiment_id`` must hold
    (``checkpoints``: the size of its checkpoint grid, which may be under the configured count
    where rounded times coincide)."""
    settings = json.dumps(simulation_settings(paper, config, experiment_id), sort_keys=True)
    exp = resolve_experiment(paper, experiment_id, config)
    return {
        "paper": paper["paper"]["key"],
        "experiment": experiment_id,
        "repetitions": [int(start), int(stop)],
        "algorithms": list(exp["algorithms"]),
        "checkpoints": int(checkpoint_grid(exp["horizon"], exp["checkpoints"]).size),
        "settings": hashlib.sha256(settings.encode()).hexdigest()[:16],
    }


def _rows(contract: dict) -> int:
    start, stop = contract["repetitions"]
    return (stop - start) * len(contract["algorithms"]) * contract["checkpoints"]


def _contract_problem(found: dict | None, expected: dict) -> str | None:
    if found is None:
        return (
            "no contract in its metadata (written before traces carried one, "
            "or not by the workflow)"
        )
    for key in ("paper", "experiment", "repetitions", "algorithms", "checkpoints", "settings"):
        if found.get(key) != expected[key]:
            what = "made by other settings" if key == "settings" else f"holds other {key}"
            return f"{what} ({key} {found.get(key)!r}, expected {expected[key]!r})"
    return None


def footer_problem(path: str | os.PathLike, expected: dict) -> str | None:
    """What is wrong with a chunk file that its parquet footer alone shows (it cannot be read,
    it holds another chunk, or the wrong number of rows), or None. Settings are left to the
    workflow's rerun trigger, so that a dry run after a config edit changes nothing."""
    import pyarrow.parquet as pq

    try:
        meta = pq.read_metadata(path)
    except Exception as err:  # noqa: BLE001 (any unreadable file is the same finding)
        return f"unreadable ({type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''})"
    raw = (meta.metadata or {}).get(CONTRACT_KEY)
    if raw and CONTENT_KEY not in meta.metadata:
        return UNSEALED
    found = json.loads(raw) if raw else None
    problem = _contract_problem(found, expected)
    if problem is not None and not problem.startswith("made by other settings"):
        return problem
    if meta.num_rows != _rows(expected):
        return f"{meta.num_rows} rows, expected {_rows(expected)} (incomplete)"
    return None


def _coverage_problem(frame: pd.DataFrame, contract: dict) -> str | None:
    """Whether the rows are exactly every algorithm x repetition x checkpoint, once each."""
    start, stop = contract["repetitions"]
    algorithms = sorted(frame["algorithm"].unique()) if len(frame) else []
    repetitions = sorted(frame["repetition"].unique()) if len(frame) else []
    if algorithms != sorted(contract["algorithms"]):
        return f"algorithms {algorithms}, expected {sorted(contract['algorithms'])}"
    if repetitions != list(range(start, stop)):
        missing = sorted(set(range(start, stop)) - set(repetitions))
        return (
            f"repetitions {missing or repetitions} missing or extra (expected {start}..{stop - 1})"
        )
    per_run = frame.groupby(["algorithm", "repetition"])["t"].nunique()
    if len(frame) != _rows(contract) or (per_run != contract["checkpoints"]).any():
        return (
            f"{len(frame)} rows, expected {_rows(contract)} (every checkpoint of every run, once)"
        )
    return None


def write_atomic(frame: pd.DataFrame, path: str | os.PathLike, writer=None) -> None:
    """Write ``frame`` to ``path`` (sealed parquet, core/sim/sealed.py, or csv for a ``.csv`` path)
    via a rename."""
    with atomic_output(path) as tmp:
        if writer is not None:
            writer(frame, tmp)
        elif Path(path).suffix == ".csv":
            frame.to_csv(tmp, index=False)
        else:
            write_sealed(frame, tmp)


def write_trace(frame: pd.DataFrame, path: str | os.PathLike, contract: dict | None = None) -> None:
    """Check that ``frame`` is a trace (and, given its ``contract``, that it holds exactly what
    the contract says) and write it atomically, with the contract in its metadata."""
    missing = [c for c in ID_COLUMNS if c not in frame.columns]
    if missing:
        raise ValueError(f"trace for {path} lacks identifier columns {missing}")
    if frame.duplicated(list(ID_COLUMNS)).any():
        raise ValueError(f"trace for {path} has duplicated (algorithm, repetition, t) rows")
    if contract is not None and (problem := _coverage_problem(frame, contract)):
        raise ValueError(f"trace for {path} does not hold its chunk: {problem}")
    frame = frame.sort_values(list(ID_COLUMNS)).reset_index(drop=True)
    if contract is None:
        write_atomic(frame, path)
        return

    def with_contract(frame, tmp):
        write_sealed(frame, tmp, {CONTRACT_KEY: json.dumps(contract, sort_keys=True).encode()})

    write_atomic(frame, path, writer=with_contract)


def read_trace(path: str | os.PathLike, contract: dict | None = None) -> pd.DataFrame:
    """A chunk file, checked against its seal (core/sim/sealed.py) and, given the ``contract`` its
    config expects, against that (metadata and rows): :class:`TraceError` names the file, what
    is wrong and how to rebuild it."""
    if contract is None:
        return read_sealed(path, TraceError)
    frame, metadata = read_parquet(path, TraceError)
    raw = metadata.get(CONTRACT_KEY)
    problem = _contract_problem(json.loads(raw) if raw else None, contract)
    problem = problem or _coverage_problem(frame, contract) or seal_problem(frame, metadata)
    if problem:
        raise TraceError(path, problem)
    return frame


def concat_traces(
    paths: list[str | os.PathLike], contracts: list[dict] | None = None
) -> pd.DataFrame:
    """Join the chunk files of one experiment into its trace, refusing overlaps (and, given
    their contracts, any file that does not hold what its contract says)."""
    contracts = contracts or [None] * len(paths)
    frame = pd.concat([read_trace(p, c) for p, c in zip(paths, contracts)], ignore_index=True)
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


def checkpoint_table(trace: pd.DataFrame, metric: str) -> pd.DataFrame:
    """``metric`` as a (checkpoint × repetition) table: ``trace.pivot(index="t",
    columns="repetition", values=metric)``, the same frame, built straight from the trace's
    grid (a tenth of pivot's time; the claims make hundreds). A cell no row fills is NaN; a
    repeated (t, repetition) raises ValueError, as pivot does."""
    row, checkpoints = pd.factorize(trace["t"], sort=True)
    column, repetitions = pd.factorize(trace["repetition"], sort=True)
    cells, size = row * repetitions.size + column, checkpoints.size * repetitions.size
    if cells.size and np.bincount(cells, minlength=size).max() > 1:
        raise ValueError("Index contains duplicate entries, cannot reshape")
    values = trace[metric].to_numpy()
    table = np.empty(size, values.dtype) if cells.size == size else np.full(size, np.nan)
    table[cells] = values
    # laid out as pivot lays it out (one row per checkpoint in memory): a reduction over the
    # repetitions then adds in the same order, to the same bits
    return pd.DataFrame(
        table.reshape(checkpoints.size, repetitions.size),
        index=checkpoints.rename("t"),
        columns=repetitions.rename("repetition"),
        copy=False,
    )
