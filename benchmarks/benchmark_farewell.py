"""Speed of the compiled kernels: nanoseconds per pair-index evaluation for every policy of
paper 000 on one full-length run (T = 10^7) of each Fig. 1/2 panel, after compilation.

    python benchmarks/benchmark_farewell.py [--horizon 1e7] [--panels fig1a fig2a] [--repeats 5]

Prints one row per (panel, policy): epochs, seconds, ns per epoch, ns per pair evaluation; each
time is the fastest of ``--repeats`` runs.
Timing is reported, never asserted (tests do not time anything).
"""

from __future__ import annotations

import argparse

import numpy as np

from timebandits.core.build.preflight import load_paper
from timebandits.core.build.timing import fastest
from timebandits.core.sim.checkpoints import checkpoint_grid
from timebandits.core.sim.simulation import reuse_freed_memory
from timebandits.farewell.model import F2AProblem
from timebandits.farewell.simulation import kernel_arguments, run_problem

POLICIES = ("wait_ucb", "ucb_simplex", "budget_ucb", "ucb_bv1")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--horizon", type=float, default=1e7)
    parser.add_argument(
        "--panels", nargs="*", default=["fig1a", "fig1b", "fig1c", "fig2a", "fig2b", "fig2c"]
    )
    parser.add_argument(
        "--repeats", type=int, default=5, help="runs of each timing; the fastest counts"
    )
    args = parser.parse_args()
    reuse_freed_memory()  # as a simulate job does (core/sim/simulation.py)
    paper = load_paper("farewell")
    horizon = int(args.horizon)
    checkpoints = checkpoint_grid(horizon, 400)
    keys = np.uint64(20200826), np.uint64(1)
    print(
        f"{'panel':7} {'policy':12} {'epochs':>10} {'seconds':>8} {'ns/epoch':>9} "
        f"{'ns/pair-eval':>13}"
    )
    for panel in args.panels:
        problem = F2AProblem.from_config(paper["experiments"][panel]["environment"])
        for policy in POLICIES:
            code, params, ties = kernel_arguments(paper["algorithms"][policy], problem)
            run_problem(
                problem, code, params, ties, *keys, 1000, checkpoints[checkpoints <= 1000]
            )  # compile
            seconds, (_, epochs, _) = fastest(
                lambda: run_problem(problem, code, params, ties, *keys, horizon, checkpoints),
                args.repeats,
            )
            n = int(epochs[-1])
            print(
                f"{panel:7} {policy:12} {n:10d} {seconds:8.2f} {seconds / n * 1e9:9.1f} "
                f"{seconds / n / (problem.K * problem.D) * 1e9:13.2f}"
            )


if __name__ == "__main__":
    main()
