"""Speed of paper 002's compiled game loops: nanoseconds per slot of every algorithm of the
chosen experiments (one repetition, ``simulate_repetition``: what a simulate job does per
repetition, checkpoints included), after compilation.

    python benchmarks/benchmark_anonymous.py [--horizon 1e6] [--experiments delay_10_30 ...]

The defaults cover one instance of every kernel (random delay, bounded interval, linear, the
two infinite kernels) and the Fig. 5 label-stream games. The last column times, apart, the
kernel's W(n) for n = 0..T (``Kernel.cumulative``): ``simulate_repetition`` makes a stochastic
experiment's instance with it once per process (``simulation._instance``), shared by every
repetition and algorithm of a job, so it is made before the first timed run and left out of
ns/slot.
Timing is reported, never asserted (tests do not time anything).
"""

from __future__ import annotations

import argparse
import time

from timebandits.anonymous.model import AnonymousProblem
from timebandits.anonymous.simulation import is_label_game, simulate_repetition
from timebandits.core.checkpoints import checkpoint_grid
from timebandits.core.config import load_paper
from timebandits.core.seeding import environment_seed, policy_seed

DEFAULT_EXPERIMENTS = ["delay_10_30", "bounded_30_40", "linear_increasing_100", "discounted_09",
                       "polynomial_3", "polynomial_2", "fig5a", "fig5c"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--horizon", type=float, default=None,
                        help="slots per run (default: each experiment's own horizon)")
    parser.add_argument("--experiments", nargs="*", default=DEFAULT_EXPERIMENTS)
    args = parser.parse_args()
    paper = load_paper("anonymous")
    print(f"{'experiment':24} {'algorithm':24} {'horizon':>9} {'seconds':>8} {'ns/slot':>8} "
          f"{'W(n) ms':>8}")
    for exp_id in args.experiments:
        base = paper["experiments"][exp_id]
        horizon = int(args.horizon or base["horizon"])
        experiment = {**base, "horizon": horizon}
        checkpoints = checkpoint_grid(horizon, 400)
        env_seed = environment_seed(20200826, "anonymous", exp_id, 0)
        cumulative_ms = "-"
        if not is_label_game(experiment["environment"]):
            kernel = AnonymousProblem.from_config(experiment["environment"]).kernel
            started = time.perf_counter()
            kernel.cumulative(horizon + 1)
            cumulative_ms = f"{(time.perf_counter() - started) * 1e3:.1f}"
        for order, alg_id in enumerate(experiment["algorithms"]):
            algorithm = paper["algorithms"][alg_id]
            pol_seed = policy_seed(20200826, "anonymous", exp_id, alg_id, 0)
            warm = {**experiment, "horizon": 2000}
            simulate_repetition(warm, algorithm, env_seed, pol_seed, checkpoint_grid(2000, 10))
            if order == 0:  # the job's instance at this horizon (module docstring)
                simulate_repetition(experiment, algorithm, env_seed, pol_seed, checkpoints)
            started = time.perf_counter()
            simulate_repetition(experiment, algorithm, env_seed, pol_seed, checkpoints)
            seconds = time.perf_counter() - started
            print(f"{exp_id:24} {alg_id:24} {horizon:9d} {seconds:8.3f} "
                  f"{seconds / horizon * 1e9:8.1f} {cumulative_ms:>8}", flush=True)


if __name__ == "__main__":
    main()
