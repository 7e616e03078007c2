"""The decidability witnesses' contexts of paper 004's claim kinds (core/verdicts/decidability.py):
the runs' delays drawn again from their seeds, and quantities or metrics replaced by the most
favourable and the most unfavourable values the setting allows."""

from __future__ import annotations

import numpy as np

from timebandits.core.sim.seeding import environment_seed
from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.decidability import derived

from ..simulation import draw_delays


def with_seeded_delays(ctx):
    """``ctx`` with the delays every trace records (``delay_i``) drawn again from each run's
    environment seed, as the simulation draws them (simulation.draw_delays): the same values in
    real traces, and the real instances in a trace that has only the configured shape (a
    decidability check before any run, core/verdicts/decidability.py). Witnesses start from it."""
    base_seed, key = ctx.config["base_seed"], ctx.paper["paper"]["key"]

    def trace_of(experiment, algorithm):
        trace = ctx.trace(experiment, algorithm)
        environment = ctx.paper["experiments"][experiment]["environment"]
        columns = [f"delay_{i + 1}" for i in range(len(environment["means"]))]
        if not set(columns) <= set(trace.columns):
            return trace
        reps, index = np.unique(trace["repetition"].to_numpy(dtype=int), return_inverse=True)
        drawn = np.array(
            [
                draw_delays(environment, environment_seed(base_seed, key, experiment, int(r)))
                for r in reps
            ]
        )
        trace = trace.copy()
        trace[columns] = drawn[index]
        return trace

    return derived(ctx, trace_of=trace_of)


def sides(favourable: dict, unfavourable: dict, ctx) -> dict:
    """The two witnesses of an exact kind: ``ctx`` (its runs' instances drawn from their seeds)
    with the given quantity overrides."""
    ctx = with_seeded_delays(ctx)
    return {
        "favourable": derived(ctx, overrides=favourable),
        "unfavourable": derived(ctx, overrides=unfavourable),
    }


def everywhere(value):
    """An override that puts ``value`` in every entry of an array-like quantity."""
    return lambda real: np.full(np.shape(real), value)


def with_metrics(ctx, claim, values: dict) -> ClaimContext:
    """A witness of ``ctx`` in which each metric of ``values`` of the claim's algorithm, in each
    of its experiments, is ``value(experiment, trace)`` (an array over the trace's rows), the
    metrics set in order (after the runs' delays, drawn from their seeds); other data are real."""
    ctx = with_seeded_delays(ctx)

    def trace_of(experiment, algorithm):
        trace = ctx.trace(experiment, algorithm)
        if algorithm != claim["algorithm"] or experiment not in claim["experiments"]:
            return trace
        trace = trace.copy()
        for metric, value in values.items():
            trace[metric] = value(experiment, trace)
        return trace

    return derived(ctx, trace_of=trace_of)
