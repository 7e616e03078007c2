"""Speed of paper 002's compiled game loops: nanoseconds per slot of every algorithm of the
chosen experiments (one repetition, ``simulate_repetition``: what a simulate job does per
repetition, checkpoints included), after compilation; every time is the fastest of ``--repeats``
runs, so that the columns of a row compare.

    python benchmarks/benchmark_anonymous.py [--horizon 1e6] [--experiments delay_10_30 ...]

The defaults cover one instance of every kernel (random delay, bounded interval, linear, the
two infinite kernels) and the Fig. 5 label-stream games. The last column times, apart, the
kernel's W(n) for n = 0..T (``Kernel.cumulative``): ``simulate_repetition`` makes a stochastic
experiment's instance with it once per process (``stochastic_instance``), shared by every
repetition and algorithm of a job, so it is made before the first timed run and left out of
ns/slot.

For ARS-UCB the last two columns set the environment apart, as benchmark_censored does:
``env ns/slot`` replays the run's pulls and window sums alone (:func:`replay_environment`: the
same draws in the same slots, the same ``window_feedback`` over the same rounds, each the fastest
of ``--repeats`` runs, as is the kernel here), and ``learner ns/slot`` is the kernel less the
replay, per slot: the N indices u_i(t) of each decision (Algorithm 1, with Lemma 1's tally) and
the slot loop's bookkeeping (the arm of each slot, the checkpoints). ARS-UCB decides once per
round, tens to thousands of slots, so per slot, not per index evaluation, is its learner's unit
(as per pull is π_low's in benchmark_delaydep). For ARS-EXP3 and CLW on the label games the
replay is :func:`replay_label_game`, the game's slots through the kernel's own ``_play_run``
with the kernel's arms; their learner (about one choice per 50 slots, and CLW's block draws, one
uniform per slot) is the compiled kernel call less it, both without the game's Python checks.
Timing is reported, never asserted (tests do not time anything).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from timebandits.anonymous.adversarial import _new_game, _play_run
from timebandits.anonymous.environment import pull, window_feedback, window_state
from timebandits.anonymous.label_game_config import is_label_game
from timebandits.anonymous.model import AnonymousProblem
from timebandits.anonymous.policies import run_ars_ucb
from timebandits.anonymous.simulation import (
    ARS_UCB,
    algorithm_params,
    label_game_call,
    round_size_table,
    simulate_repetition,
)
from timebandits.anonymous.spread_kernel import DELAY
from timebandits.anonymous.stochastic_instance import environment_arguments
from timebandits.core.build.preflight import load_paper
from timebandits.core.build.timing import fastest
from timebandits.core.sim.checkpoints import checkpoint_grid
from timebandits.core.sim.jit import njit
from timebandits.core.sim.seeding import environment_seed, policy_seed
from timebandits.core.sim.simulation import reuse_freed_memory

DEFAULT_EXPERIMENTS = [
    "delay_10_30",
    "bounded_30_40",
    "linear_increasing_100",
    "discounted_09",
    "polynomial_3",
    "polynomial_2",
    "fig5a",
    "fig5c",
]


@njit
def replay_environment(
    means,
    round_sizes,
    plays,
    kernel_code,
    cumulative,
    reach,
    delay_low,
    delay_high,
    env_key,
    horizon,
):
    """An ARS-UCB run's environment alone (module docstring): its rounds rebuilt from the arm of
    each slot (a round of arm a starts where the previous one ended and lasts f(k_a), cut at T),
    each slot's pull and each round's feedback. Returns (the rounds, the decisions' pseudo-regret
    Σ_t (max s − s_{a(t)}), the feedback summed over the rounds)."""
    totals = np.zeros(horizon + 1, np.uint8)
    delays = np.zeros(horizon + 1 if kernel_code == DELAY else 1, np.int64)
    next_round = np.zeros(means.size, np.int64)
    window = window_state(kernel_code, cumulative, reach, horizon)
    best = means.max()
    rounds, regret, observed, t = 0, 0.0, 0.0, 0
    while t < horizon:
        arm = plays[t + 1]
        last = min(t + round_sizes[next_round[arm]], horizon)
        for u in range(t + 1, last + 1):
            pull(means[arm], u, env_key, kernel_code, delay_low, delay_high, totals, delays)
            regret += best - means[arm]
        observed += window_feedback(
            t + 1, last, totals, delays, kernel_code, cumulative, reach, window
        )
        next_round[arm] += 1
        rounds += 1
        t = last
    return rounds, regret, observed


def environment_split(
    experiment: dict, algorithm: dict, env_seed, checkpoints, repeats: int
) -> tuple[float, float]:
    """(env ns/slot, learner ns/slot) of one ARS-UCB run (module docstring)."""
    params = algorithm_params(algorithm)
    problem, d1, d2, common = environment_arguments(experiment, env_seed, checkpoints)
    horizon = common[-2]
    sizes = round_size_table(params["round_size"], horizon)
    kernel, (regret, lemma, plays) = fastest(
        lambda: run_ars_ucb(problem.means, float(params["alpha"]), sizes, d1, d2, *common), repeats
    )
    environment, (rounds, replayed, _) = fastest(
        lambda: replay_environment(problem.means, sizes, plays, *common[:-1]), repeats
    )
    n_arms = problem.means.size
    if (
        not np.isclose(replayed, regret[-1], rtol=1e-12)
        or checkpoints[-1] != horizon
        or rounds != lemma[0, -1] / n_arms + n_arms
    ):
        raise RuntimeError("the replay did not play the kernel's rounds")
    return environment / horizon * 1e9, (kernel - environment) / horizon * 1e9


@njit
def replay_label_game(labels, n_arms, plays, mode, d, low, high, best_arm, env_key, checkpoints):
    """A label game's environment alone (module docstring): every maximal run of slots played
    with one arm (``plays``, the kernel's) goes through the kernel's own ``_play_run`` (rewards,
    their delays and arrivals, the label counts, the regret at the checkpoints), without the
    learner's probabilities, draws and weight updates. Returns the regret at the checkpoints."""
    horizon = labels.size
    arrivals, counts, state, regret, replayed, _ = _new_game(horizon, n_arms, checkpoints)
    first = 1
    while first <= horizon:
        last = first
        while last < horizon and plays[last + 1] == plays[first]:
            last += 1
        _play_run(
            first,
            last,
            plays[first],
            labels,
            mode,
            d,
            low,
            high,
            best_arm,
            env_key,
            arrivals,
            counts,
            state,
            checkpoints,
            regret,
            replayed,
        )
        first = last + 1
    return regret


def label_game_split(
    experiment: dict, algorithm: dict, env_seed, pol_seed, checkpoints, repeats: int
) -> tuple[float, float]:
    """(env ns/slot, learner ns/slot) of one ARS-EXP3 or CLW run (module docstring)."""
    run, arguments = label_game_call(experiment, algorithm, env_seed, pol_seed, checkpoints)
    kernel, (regret, plays) = fastest(lambda: run(*arguments), repeats)
    labels, n_arms, _, _, mode, d, low, high, best_arm, env_key, _, checkpoints = arguments
    environment, replayed = fastest(
        lambda: replay_label_game(
            labels, n_arms, plays, mode, d, low, high, best_arm, env_key, checkpoints
        ),
        repeats,
    )
    if not np.array_equal(replayed, regret):
        raise RuntimeError("the replay did not play the kernel's game")
    return environment / labels.size * 1e9, (kernel - environment) / labels.size * 1e9


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--horizon",
        type=float,
        default=None,
        help="slots per run (default: each experiment's own horizon)",
    )
    parser.add_argument("--experiments", nargs="*", default=DEFAULT_EXPERIMENTS)
    parser.add_argument(
        "--repeats", type=int, default=5, help="runs of each timing; the fastest counts"
    )
    args = parser.parse_args()
    reuse_freed_memory()  # as a simulate job does (core/sim/simulation.py)
    paper = load_paper("anonymous")
    print(
        f"{'experiment':24} {'algorithm':24} {'horizon':>9} {'seconds':>8} {'ns/slot':>8} "
        f"{'W(n) ms':>8} {'env ns/slot':>11} {'learner ns/slot':>15}"
    )
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
            seconds, _ = fastest(
                lambda: simulate_repetition(experiment, algorithm, env_seed, pol_seed, checkpoints),
                args.repeats,
            )
            split = ""
            if algorithm["policy"] == ARS_UCB:
                split = "{:11.1f} {:15.1f}".format(
                    *environment_split(experiment, algorithm, env_seed, checkpoints, args.repeats)
                )
            elif is_label_game(experiment["environment"]):
                split = "{:11.1f} {:15.1f}".format(
                    *label_game_split(
                        experiment, algorithm, env_seed, pol_seed, checkpoints, args.repeats
                    )
                )
            print(
                f"{exp_id:24} {alg_id:24} {horizon:9d} {seconds:8.3f} "
                f"{seconds / horizon * 1e9:8.1f} {cumulative_ms:>8} {split}",
                flush=True,
            )
    print(
        "learner ns/slot = kernel − replay, each the fastest of --repeats runs. Where the"
        "\n  environment is most of the slot (the polynomial kernels) the difference is within"
        "\n  the machine's noise, and can even come out negative."
    )


if __name__ == "__main__":
    main()
