"""Speed of paper 004's compiled learners: nanoseconds per pull and per index evaluation of
pi_low and pi_ucb on one run of the Fig. 2 and Fig. 3 instances, kernel alone and with the
reduction to checkpoints (``simulate_repetition``, what a simulate job does per repetition),
after compilation; every time is the fastest of ``--repeats`` runs.

    python benchmarks/benchmark_delaydep.py [--horizon 1e6] [--experiments fig2 fig3]

Prints one row per (experiment, algorithm): the kernel's seconds per run, ns per pull, ns per
pull with checkpoints, index evaluations in the run and ``ns/index-eval``, the kernel's wall time
over them. One *index evaluation* is one evaluation of a statistic that decides which ranking
policy is played, counted exactly from the kernel's outputs:

- π_ucb (Sect. 8, UCB1 over Π_K): k indices ĝ(m) + c·sqrt(2 ln N/n(m)) per decision after the k
  initial ones (each decision plays π_m twice, 2m pulls): k·(decisions − k)⁺.
- π_low (Algorithm 1): one estimate ĝ_s(m) per policy m ∈ A_s whose n_sm + 1 plays of stage s
  were completed (line 5), each then tested against max ĝ_s − 2C_s (lines 7–8) if the whole
  stage was. Between estimates π_low plays a fixed schedule: its pulls evaluate no index, so its
  ns/index-eval is the cost of whole stages, and ns/pull is the measure of its speed.

A pull (environment: μ_i(τ) looked up, one Bernoulli draw) is no index evaluation for either.
The last two columns set the environment apart: ``env ns/pull`` replays the run's pulls alone
(the same arms in the same rounds, read from the per-pull policy labels: a play of π_m pulls arms
0..m−1 in turn; the kernel's own ``_play``, so the same draws and output writes), and
``learner ns/index-eval`` is the kernel's time less that replay, over the index evaluations
(each the fastest of ``--repeats`` runs); for π_low, over the pulls. The replay is handed the
runs of equal labels (``label_runs``), so that it does the pulls and nothing else.
Timing is reported, never asserted (tests do not time anything).
"""

from __future__ import annotations

import argparse

import numpy as np

from timebandits.core.build.preflight import load_paper
from timebandits.core.build.timing import fastest
from timebandits.core.sim.checkpoints import checkpoint_grid
from timebandits.core.sim.jit import njit
from timebandits.core.sim.seeding import environment_seed, key64
from timebandits.core.sim.simulation import reuse_freed_memory
from timebandits.delaydep.policies import _play
from timebandits.delaydep.simulation import problem_of, run_learner, simulate_repetition

ALGORITHMS = ("pi_low", "pi_ucb")


def label_runs(policy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The maximal runs of equal labels in the per-pull ``policy``: (first pull of each run, 0-based
    and ending with the horizon; the run's label m)."""
    labels = np.asarray(policy, dtype=np.int64)
    starts = np.flatnonzero(np.diff(labels, prepend=0))
    return np.append(starts, labels.size), labels[starts]


def ucb_decisions(policy: np.ndarray) -> int:
    """π_ucb's decisions from the per-pull labels: a decision is 2m pulls labelled m (the last
    one possibly cut at T), so a maximal run of r pulls labelled m holds ⌈r/(2m)⌉ of them."""
    bounds, labels = label_runs(policy)
    return int((-(-np.diff(bounds) // (2 * labels))).sum())


def index_evaluations(policy: np.ndarray, stage_log, k: int) -> int:
    """Index evaluations of one run (module docstring) from ``run_learner``'s outputs: the
    per-pull labels ``policy`` and π_low's stage log (None for π_ucb), k arms. For π_low, the
    finite ĝ_s(m) of the stages started (policies.low_run leaves NaN where no estimate was
    made)."""
    if stage_log is None:
        return k * max(ucb_decisions(policy) - k, 0)
    _, _, ghat, _, _, n_stages, _ = stage_log
    return int(np.isfinite(ghat[:n_stages]).sum())


@njit
def replay_pulls(mean_table, bounds, labels, env_key):
    """The run's pulls alone (module docstring): the run of pulls labelled m = ``labels[r]``,
    pulls ``bounds[r]`` + 1 to ``bounds[r + 1]`` (``label_runs``), is plays of π_m, arms 0..m−1
    in turn (the last one cut where the run ends, at T), pulled by the kernel's own ``_play``;
    returns (expected, realised) per pull, as the kernel writes them."""
    horizon = bounds[-1]
    last = np.zeros(mean_table.shape[0], np.int64)
    expected = np.empty(horizon)
    realised = np.empty(horizon, np.uint8)
    policy = np.empty(horizon, np.int8)
    t = 0
    for r in range(labels.size):
        m, end = labels[r], bounds[r + 1]
        while t < end:  # the run's plays, the last one cut where the run ends
            t, _ = _play(m, mean_table, last, t, end, env_key, expected, realised, policy)
    return expected, realised


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--horizon", type=float, default=1e6)
    parser.add_argument("--experiments", nargs="*", default=["fig2", "fig3"])
    parser.add_argument(
        "--repeats", type=int, default=5, help="runs of each timing; the fastest counts"
    )
    args = parser.parse_args()
    reuse_freed_memory()  # as a simulate job does (core/sim/simulation.py)
    paper = load_paper("delaydep")
    horizon = int(args.horizon)
    checkpoints = checkpoint_grid(horizon, 400)
    print(
        f"{'experiment':10} {'algorithm':9} {'seconds':>8} {'ns/pull':>8}"
        f" {'with checkpoints':>17} {'index evals':>11} {'ns/index-eval':>13}"
        f" {'env ns/pull':>11} {'learner ns/index-eval':>21}"
    )
    for exp_id in args.experiments:
        experiment = {**paper["experiments"][exp_id], "horizon": horizon}
        seed = environment_seed(20200826, "delaydep", exp_id, 0)
        problem = problem_of(experiment["environment"], seed)
        for alg_id in ALGORITHMS:
            algorithm = paper["algorithms"][alg_id]
            # compile the kernel and the reduction to checkpoints
            run_learner(algorithm, problem, 1000, key64(seed))
            simulate_repetition(
                {**experiment, "horizon": 1000}, algorithm, seed, None, checkpoint_grid(1000, 50)
            )
            kernel, (_, _, policy, stage_log) = fastest(
                lambda: run_learner(algorithm, problem, horizon, key64(seed)), args.repeats
            )
            total, _ = fastest(
                lambda: simulate_repetition(experiment, algorithm, seed, None, checkpoints),
                args.repeats,
            )
            evaluations = index_evaluations(policy, stage_log, problem.k)
            table, (bounds, labels) = problem.mean_table(), label_runs(policy)
            replay_pulls(table, bounds[:2], labels[:1], key64(seed))
            environment, _ = fastest(
                lambda: replay_pulls(table, bounds, labels, key64(seed)), args.repeats
            )
            learner = (
                f"{(kernel - environment) / evaluations * 1e9:21.1f}"
                if stage_log is None
                else f"{(kernel - environment) / horizon * 1e9:16.1f}/pull"
            )
            print(
                f"{exp_id:10} {alg_id:9} {kernel:8.3f} {kernel / horizon * 1e9:8.1f} "
                f"{total / horizon * 1e9:14.1f} ns {evaluations:11d} "
                f"{kernel / evaluations * 1e9:13.1f} {environment / horizon * 1e9:11.1f} "
                f"{learner}"
            )
    print(
        "ns/index-eval = kernel time / (pi_ucb: k UCB indices per decision after the first k;"
        "\n  pi_low: estimates g_s(m)); pulls are not counted (module docstring). pi_low's"
        "\n  learner is given per pull: it estimates 9-14 times in a run, and between estimates"
        "\n  keeps sums it could not do without; kernel - replay is then within the noise."
    )


if __name__ == "__main__":
    main()
