"""Speed of paper 004's compiled learners: nanoseconds per pull of pi_low and pi_ucb on one
run of the Fig. 2 and Fig. 3 instances, kernel alone and with the reduction to checkpoints
(``simulate_repetition``, what a simulate job does per repetition), after compilation.

    python benchmarks/benchmark_delaydep.py [--horizon 1e6] [--experiments fig2 fig3]

Timing is reported, never asserted (tests do not time anything).
"""

from __future__ import annotations

import argparse
import time

from timebandits.core.checkpoints import checkpoint_grid
from timebandits.core.config import load_paper
from timebandits.core.seeding import environment_seed, key64
from timebandits.delaydep.simulation import problem_of, run_learner, simulate_repetition

ALGORITHMS = ("pi_low", "pi_ucb")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--horizon", type=float, default=1e6)
    parser.add_argument("--experiments", nargs="*", default=["fig2", "fig3"])
    args = parser.parse_args()
    paper = load_paper("delaydep")
    horizon = int(args.horizon)
    checkpoints = checkpoint_grid(horizon, 400)
    print(f"{'experiment':10} {'algorithm':9} {'seconds':>8} {'ns/pull':>8} {'with checkpoints':>17}")
    for exp_id in args.experiments:
        experiment = {**paper["experiments"][exp_id], "horizon": horizon}
        seed = environment_seed(20200826, "delaydep", exp_id, 0)
        problem = problem_of(experiment["environment"], seed)
        for alg_id in ALGORITHMS:
            algorithm = paper["algorithms"][alg_id]
            run_learner(algorithm, problem, 1000, key64(seed))  # compile
            started = time.perf_counter()
            run_learner(algorithm, problem, horizon, key64(seed))
            kernel = time.perf_counter() - started
            started = time.perf_counter()
            simulate_repetition(experiment, algorithm, seed, None, checkpoints)
            total = time.perf_counter() - started
            print(f"{exp_id:10} {alg_id:9} {kernel:8.3f} {kernel / horizon * 1e9:8.1f} "
                  f"{total / horizon * 1e9:14.1f} ns")


if __name__ == "__main__":
    main()
