"""Speed of the compiled game loop of paper 001: nanoseconds per (arm, limit) index evaluation
per round for RCUCB, the UCB reduction and TS (Beta draws included) on one full-length run
(T = 10^5) of each synthetic panel, after compilation.

    python benchmarks/benchmark_censored.py [--horizon 1e5] [--panels fig4_poscorr fig8_n80] \
        [--repeats 3]

Prints one row per (panel, algorithm): pairs n·K, seconds per run, ns per round and ns per pair
index. The environment's draws (rejection
sampling of truncated Gaussians) are included in these. The last two columns split them off:
``env ns/round`` is the time of drawing the run's pulls alone (``samplers.sample_many``, the same
(arm, pull) draws), and ``policy ns/pair-index`` what is left per pair and round, the learner's
own work (indices, argmax, updates; TS's Beta draws and Bernoulli trials). Every time is the
fastest of ``--repeats`` calls (core.build.timing.fastest), the kernel's and the replay's alike.
Timing is reported, never asserted (tests do not time anything).
"""

from __future__ import annotations

import argparse

import numpy as np

from timebandits.censored.model import CensoredProblem
from timebandits.censored.policies import POLICY_CODES, run_censored
from timebandits.censored.samplers import sample_many
from timebandits.censored.simulation import algorithm_params, penalty_max
from timebandits.core.build.preflight import load_paper
from timebandits.core.build.timing import fastest
from timebandits.core.sim.checkpoints import checkpoint_grid
from timebandits.core.sim.simulation import reuse_freed_memory

ALGORITHMS = ("rcucb", "rcucb_observable", "ucb", "thompson")
PANELS = (
    "fig4_poscorr",
    "fig4_negcorr",
    "fig4_indep",
    "fig6_poscorr",
    "fig7_poscorr",
    "fig8_n20",
    "fig8_n80",
    "fig9_low_censoring",
)


ENV_KEY = np.uint64(20230101)


def run(problem, algorithm, horizon, checkpoints, record_pairs=False):
    params = algorithm_params(algorithm)
    return run_censored(
        POLICY_CODES[algorithm["policy"]],
        params.get("survival") == "literal",
        float(params.get("alpha", 1.0)),
        penalty_max(params, problem),
        problem.grid,
        problem.penalty,
        problem.cost_slope,
        problem.nu,
        problem.family_code,
        problem.arm_params,
        problem.pool_values,
        problem.pool_offsets,
        ENV_KEY,
        np.uint64(7),
        horizon,
        checkpoints,
        record_pairs,
        False,
    )


def environment_seconds(problem, algorithm, horizon, checkpoints, repeats: int) -> float:
    """Seconds to draw, alone, the environment pulls of the benchmark's run of ``algorithm``
    (the fastest of ``repeats``)."""
    plays = run(problem, algorithm, horizon, checkpoints, record_pairs=True)[4][-1]
    pulls = plays.reshape(problem.n, problem.K).sum(axis=1).astype(np.int64)
    sample_many(problem, ENV_KEY, 0, 1)  # compile

    def draw_all():
        for arm in range(problem.n):
            sample_many(problem, ENV_KEY, arm, int(pulls[arm]))

    return fastest(draw_all, repeats)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--horizon", type=float, default=1e5)
    parser.add_argument("--panels", nargs="*", default=list(PANELS))
    parser.add_argument(
        "--repeats", type=int, default=3, help="calls of each timing; the fastest counts"
    )
    args = parser.parse_args()
    reuse_freed_memory()  # as a simulate job does (core/sim/simulation.py)
    paper = load_paper("censored")
    horizon = int(args.horizon)
    checkpoints = checkpoint_grid(horizon, 400)
    print(
        f"{'panel':20} {'algorithm':18} {'pairs':>5} {'s/run':>7} {'ns/round':>9} "
        f"{'ns/pair-index':>14} {'env ns/round':>13} {'policy ns/pair-index':>21}"
    )
    for panel in args.panels:
        problem = CensoredProblem.from_config(paper["experiments"][panel]["environment"])
        for name in ALGORITHMS:
            algorithm = paper["algorithms"][name]
            run(problem, algorithm, 1000, checkpoints[checkpoints <= 1000])  # compile
            seconds, _ = fastest(
                lambda: run(problem, algorithm, horizon, checkpoints), args.repeats
            )
            environment = environment_seconds(
                problem, algorithm, horizon, checkpoints, args.repeats
            )
            pairs = problem.n * problem.K
            print(
                f"{panel:20} {name:18} {pairs:5d} {seconds:7.3f} {seconds / horizon * 1e9:9.0f} "
                f"{seconds / horizon / pairs * 1e9:14.2f} "
                f"{environment / horizon * 1e9:13.0f} "
                f"{(seconds - environment) / horizon / pairs * 1e9:21.2f}"
            )


if __name__ == "__main__":
    main()
