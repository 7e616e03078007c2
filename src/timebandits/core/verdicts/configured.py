"""Decidability as a property of the configuration (DESIGN.md, "Claims and bounds"): what a
build at a configured scale could decide, known before any simulation at that scale, from the
traces of a smaller build stretched to that scale's shape (:func:`configured_reader`) and the
claims' witnesses (core/verdicts/decidability.py)."""

from __future__ import annotations

from typing import Callable

import numpy as np
import pandas as pd

from timebandits.core.config import resolve_experiment
from timebandits.core.registry import paper_module
from timebandits.core.sim.checkpoints import checkpoint_grid
from timebandits.core.sim.traces import checkpoint_table
from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.decidability import decide
from timebandits.core.verdicts.kinds import claim_kinds_of


def configured_reader(paper: dict, config: dict, template_of) -> Callable[[str, str], pd.DataFrame]:
    """``trace_of(experiment, algorithm)`` at the configured scale without running it: the
    repetitions × checkpoints the config would make (core/sim/simulation.py), each filled from the
    trace ``template_of(experiment, algorithm)`` of a smaller build (repetition r from its
    repetition r mod n, checkpoint t from its checkpoint at the nearest share t/T of the
    horizon). Witnesses replace what a claim decides on; the template only gives the columns
    and the shape of the rest (which values are defined, which runs finished), so decidability
    becomes a property of the configuration, known before any simulation at that scale."""

    def trace_of(experiment: str, algorithm: str) -> pd.DataFrame:
        exp = resolve_experiment(paper, experiment, config)
        t = checkpoint_grid(exp["horizon"], exp["checkpoints"]).astype(float)
        n = int(exp["repetitions"])
        template = template_of(experiment, algorithm)
        reps = np.sort(template["repetition"].unique())
        times = np.sort(template["t"].unique()).astype(float)
        share = times / times[-1]
        nearest = np.clip(np.searchsorted(share, t / t[-1]), 0, times.size - 1)
        closer = np.abs(share[np.maximum(nearest - 1, 0)] - t / t[-1]) < np.abs(
            share[nearest] - t / t[-1]
        )
        rows = np.where(closer, nearest - 1, nearest)
        columns = {"repetition": np.repeat(np.arange(n), t.size), "t": np.tile(t, n)}
        for column in template.columns.drop(["repetition", "t"]):
            table = checkpoint_table(template, column).loc[times, reps]
            columns[column] = table.to_numpy()[rows][:, np.arange(n) % reps.size].T.ravel()
        return pd.DataFrame(columns)

    return trace_of


def configured_decidability(paper: dict, config: dict, template_of) -> pd.DataFrame:
    """One row per claim of ``paper``: ``claim``, ``evidence``, ``can_reproduce``, ``can_refute``,
    ``decidability`` and ``one_sided`` (the config's reason, if any), at the scale ``config``
    asks for, from :func:`configured_reader` and the paper's own bound table on it: what a build
    at that scale could decide, known before any simulation."""
    key = paper["paper"]["key"]
    reader = configured_reader(paper, config, template_of)
    bounds = paper_module(key, "analysis").bound_table(paper, reader)
    ctx = ClaimContext(paper=paper, config=config, trace_of=reader, bounds=bounds)
    kinds = claim_kinds_of(key)
    return pd.DataFrame(
        [
            {
                "claim": c["id"],
                "evidence": kinds[c["kind"]].evidence,
                **decide(c, kinds[c["kind"]], ctx),
                "one_sided": c.get("one_sided", ""),
            }
            for c in paper["claims"]
        ]
    )
