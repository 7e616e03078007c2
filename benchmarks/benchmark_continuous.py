"""Speed of paper 003's compiled learners: milliseconds per run of CTSAB and CTMAB at each
normalised horizon T' = T/λ (one repetition, ``simulate_repetition``: what a simulate job does per
repetition, checkpoints included), after compilation.

    python benchmarks/benchmark_continuous.py [--horizons 6e4 6e5 6e6 6e7] [--runs 5]

CTSAB and CTMAB's exploit periods are simulated one window at a time in closed form (one binomial
draw per window); only CTMAB's estimation and LUCB1 go play by play. Timing is reported, never
asserted (tests do not time anything).
"""

from __future__ import annotations

import argparse
import time

from timebandits.continuous.simulation import simulate_repetition
from timebandits.core.checkpoints import checkpoint_grid
from timebandits.core.config import load_paper
from timebandits.core.seeding import environment_seed, policy_seed

CASES = [("ctsab", [0.3]), ("ctsab_k01", [0.3]), ("ctsab", [0.05]),
         ("ctmab", [0.35, 0.2, 0.15, 0.1, 0.08]), ("ctmab", [0.25, 0.2, 0.15, 0.1, 0.08])]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--horizons", type=float, nargs="*", default=[6e4, 6e5, 6e6, 6e7])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    paper = load_paper("continuous")
    raw_horizon = 60000
    checkpoints = checkpoint_grid(raw_horizon, 400)
    print(f"{'algorithm':12} {'means':32} {'T prime':>9} {'ms/run':>8} {'oracle plays':>12}")
    for alg_id, means in CASES:
        algorithm = paper["algorithms"][alg_id]
        for horizon in args.horizons:
            experiment = {"environment": {"means": means, "lam": raw_horizon / horizon},
                          "horizon": raw_horizon}
            simulate_repetition(experiment, algorithm, environment_seed(1, "continuous", "b", 0),
                                policy_seed(1, "continuous", "b", alg_id, 0), checkpoints)
            started = time.perf_counter()
            for rep in range(args.runs):
                simulate_repetition(experiment, algorithm,
                                    environment_seed(1, "continuous", "b", rep),
                                    policy_seed(1, "continuous", "b", alg_id, rep), checkpoints)
            ms = (time.perf_counter() - started) / args.runs * 1e3
            oracle_plays = max(means) * horizon / 2
            print(f"{alg_id:12} {str(means):32} {horizon:9.3g} {ms:8.2f} {oracle_plays:12.3g}",
                  flush=True)


if __name__ == "__main__":
    main()
