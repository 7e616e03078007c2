"""What a job asks a cluster for, estimated from its work (docs/cluster.md).

A simulate job runs ``repetitions`` runs of each of ``algorithms`` algorithms over ``horizon``
time units, i.e. ``steps = horizon x repetitions x algorithms``, and takes about

    seconds = start_up_seconds + ns_per_step x steps / 10^9

where ``ns_per_step`` is its paper's measured cost (``cluster_cost`` in the paper's own
``config/papers/<key>.yaml``): the upper envelope, over the paper's simulate jobs of a full
build, of (seconds - start_up_seconds) / steps, as ``benchmarks/cluster_costs.py`` measures it
from the record each job ends its log with (``core.build.workflow.job_record``). An experiment
whose steps cost far more than the rest of its paper's (paper 001's Fig. 5 plays 672 arms, the
others 3 to 6) has its own cost there, so that it does not inflate every other job's estimate.
The job asks for ``runtime_safety`` times that, in whole minutes, and for ``memory_safety``
times the paper's measured peak memory (the factors, the start-up and the analysis rules'
costs are ``cluster`` in ``config/config.yaml``: nothing there is per paper). A job estimated
to take less than ``bundle_below_minutes`` is put in the group ``bundled_simulations``: on a
cluster, Snakemake runs several such jobs in one cluster job (``--group-components``), so that
small jobs share one queue wait instead of each waiting for a node. None of this changes a
result (seeds depend on the repetition, not on the job).
"""

from __future__ import annotations

import math

BUNDLE_GROUP = "bundled_simulations"


def simulation_steps(horizon: int, repetitions: int, algorithms: int) -> float:
    """Time units simulated by one job: every algorithm runs every repetition to the horizon."""
    return float(horizon) * repetitions * algorithms


def ns_per_step(cost: dict, experiment: str) -> float:
    """The measured cost of a step of ``experiment``: its own, if it has one, else its paper's
    (``cost`` is the paper's ``cluster_cost``)."""
    return (cost.get("experiments") or {}).get(experiment, cost["ns_per_step"])


def simulation_seconds(cluster: dict, cost: dict, experiment: str, steps: float) -> float:
    """Estimated wall time of a simulate job of ``experiment`` simulating ``steps`` time units,
    from the paper's ``cost`` and the ``cluster`` settings' start-up."""
    return cluster["start_up_seconds"] + ns_per_step(cost, experiment) * steps / 1e9


def simulation_resources(
    cluster: dict, cost: dict, experiment: str, steps: float
) -> dict[str, int]:
    """``runtime`` (minutes) and ``mem_mb`` a simulate job asks for, with the safety factors."""
    seconds = simulation_seconds(cluster, cost, experiment, steps)
    return {
        "runtime": math.ceil(cluster["runtime_safety"] * seconds / 60),
        "mem_mb": math.ceil(cluster["memory_safety"] * cost["mem_mb"]),
    }


def simulation_group(cluster: dict, cost: dict, experiment: str, steps: float) -> str | None:
    """``BUNDLE_GROUP`` for a job estimated under ``bundle_below_minutes``, else None (its own
    cluster job)."""
    seconds = simulation_seconds(cluster, cost, experiment, steps)
    small = seconds < 60 * cluster["bundle_below_minutes"]
    return BUNDLE_GROUP if small else None


def analysis_resources(cluster: dict, rule: str) -> dict[str, int]:
    """``runtime`` (minutes) and ``mem_mb`` of a job of ``rule`` after the simulation (summaries,
    bounds, claims, tables, figures, notebooks): the rule's measured largest job
    (``cluster.analysis_costs``), with the safety factors."""
    measured = cluster["analysis_costs"][rule]
    return {
        "runtime": math.ceil(cluster["runtime_safety"] * measured["seconds"] / 60),
        "mem_mb": math.ceil(cluster["memory_safety"] * measured["mem_mb"]),
    }
