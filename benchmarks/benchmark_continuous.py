r"""Speed of paper 003's compiled learners: milliseconds per run of CTSAB and CTMAB at each
normalised horizon T' = T/λ (one repetition, ``simulate_repetition``: what a simulate job does per
repetition, checkpoints included), after compilation, and nanoseconds per index evaluation.

    python benchmarks/benchmark_continuous.py [--horizons 6e4 6e5 6e6 6e7] [--runs 5] [--repeats 5]

Prints one row per (algorithm, means, T'): ms per run of ``simulate_repetition`` and of the
compiled kernel call alone (without seeding, argument assembly and the Python around it, which
are most of a short run), the oracle's plays μ1 T'/2 (Prop. 1), index evaluations per run (mean
over the runs) and ``ns/index-eval``, the kernel's total time over the runs' total index
evaluations; every time is the fastest of ``--repeats`` calls. One *index evaluation* is one
evaluation of a statistic that decides what the learner does next, counted exactly as the
kernels perform them:

- CTSAB (Algorithm 1, §3.1): one per learning phase that ends by T' (the stopping rule of eq. 5
  on the pooled mean, checked only at phase ends; a phase cut by T' has no check), plus one per
  exploit window (the estimate μ̂ that sets the window's μ̂L/2 plays, evaluated also for a
  window that gets none). Phases and windows are simulated in closed form: their plays are paid
  by a formula and their rewards drawn as one binomial, so no work is done per play and plays
  are not counted.
- CTMAB (Algorithm 2, §4.1): in estimation, eq. 5 is checked after every play for every arm
  sampled so far, arms 1..K in order, until one holds (the stopping play checks arms 1..k, k the
  arm just played: the others failed one play earlier with the same counts); in identification,
  K confidence bounds per LUCB1 round (K − 1 upper ones, p̂_a + β(u_a, t), and the leader's lower
  one, spec §3.5); in exploit, one μ̂ per window as in CTSAB. The argmax of μ̂ at the end of
  estimation and LUCB1's leader (means, no bounds) are not counted.

Counts are derived from what the kernels return (outcome, i*, τ or t_Es and t_Id, LUCB1 samples)
and the deterministic phase schedule, which :func:`_phase` evaluates as compiled code: numba's
``float ** int`` multiplies by squaring, so Python's ``c ** i`` can differ in the last bits, and
at ε = 0.05 c^20 equals T' up to those bits, which decide whether phase 20 is checked. The counts
come from a second, untimed kernel call with the timed run's arguments, whose payoff must equal
the timed run's bit for bit.

Two last tables split a window's cost:

- the exact binomial draw (core.sim.binomial) that every window with plays carries, alone, at window
  sizes n from 2 to 10^6 (p = 0.3): the environment's share;
- an exploit window without its draw, at μ·W/2 = 1, 10 and 1,000 plays a window (μ = 0.3, plays
  2/μ̂ apart): through the kernels' own ``schedule.exploit_window`` (the learner's μ̂ and play
  count, and the closed-form payoff), and as the bare chain of the learner's arithmetic, μ̂ = S/N,
  spacing 2/μ̂, plays ⌊gap/spacing⌋, each window's inputs the last one's outputs. That chain is
  three dependent divisions a window, so no implementation of this arithmetic evaluates a
  window's index faster than it, whatever the environment costs.

Timing is reported, never asserted (tests do not time anything).
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from timebandits.continuous import ctmab, ctsab
from timebandits.continuous.model import normalised_horizon
from timebandits.continuous.schedule import RATE, ROUNDINGS, exploit_window, learning_phase
from timebandits.continuous.simulation import (
    CTSAB,
    INVERSE_SQUARE_HORIZON,
    algorithm_params,
    learner_epsilon,
    simulate_repetition,
)
from timebandits.core.build.preflight import load_paper
from timebandits.core.build.timing import fastest
from timebandits.core.sim.binomial import binomial
from timebandits.core.sim.checkpoints import checkpoint_grid
from timebandits.core.sim.jit import njit
from timebandits.core.sim.seeding import environment_seed, key64, policy_seed
from timebandits.core.sim.simulation import reuse_freed_memory

CASES = [
    ("ctsab", [0.3]),
    ("ctsab_k01", [0.3]),
    ("ctsab", [0.05]),
    ("ctmab", [0.35, 0.2, 0.15, 0.1, 0.08]),
    ("ctmab", [0.25, 0.2, 0.15, 0.1, 0.08]),
]


@njit
def _phase(horizon, epsilon, kappa, phase):
    """(end, plays per arm) of learning phase i, computed as the kernels compute it
    (``schedule.learning_phase`` with c = T'^ε, ℓ = ln T'; module docstring)."""
    return learning_phase(horizon**epsilon, math.log(horizon), kappa, phase)


def _first_false(holds, first: int) -> int:
    """The smallest n ≥ ``first`` with ``holds(n)`` false, for ``holds`` true then false (a
    float a + n·b compared with a bound, b > 0, is monotone in n): exponential then binary
    search, exact."""
    if not holds(first):
        return first
    low, step = first, 1
    while holds(low + step):
        low, step = low + step, step * 2
    high = low + step  # holds(low) and not holds(high)
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if holds(middle) else (low, middle)
    return high


def _exploit_windows(start: float, width: float, horizon: float) -> int:
    """Exploit windows w = 0, 1, ... whose left end start + w·W is < T' (ctsab.py: τ(j + 1),
    i.e. start = W = τ; ctmab.py: t_Es + t_Id + rW)."""
    return _first_false(lambda w: start + w * width < horizon, 0)


def ctsab_evaluations(horizon, epsilon, kappa, outcome, i_star, tau) -> int:
    """Index evaluations of one CTSAB run (module docstring) from its outcome, i* and τ:
    eq. 5 checks (i* on success; on failure every phase with c^i ≤ T') plus exploit windows."""
    if not horizon > 1:
        raise ValueError(f"T' must exceed 1 (ln T' > 0), got {horizon!r}")
    if outcome == ctsab.LEARNED:
        return i_star + _exploit_windows(tau, tau, horizon)
    checks, end = 0, 0.0
    while end < horizon:  # phase checks + 1 starts at the previous end
        end = _phase(horizon, epsilon, kappa, checks + 1)[0]
        if end > horizon:
            break
        checks += 1
    return checks


def _estimation_plays(n_arms, horizon, epsilon, kappa, i_star, t_es) -> int:
    """Plays of CTMAB's estimation (ctmab._estimate): every phase's K N_i plays up to T', and,
    if it stopped (i* > 0), phase i*'s plays up to the one at t_Es."""
    played, phase, start = 0, 1, 0.0
    while start < horizon:
        end, per_arm = _phase(horizon, epsilon, kappa, phase)
        plays, spacing = n_arms * per_arm, (end - start) / (n_arms * per_arm)
        if phase == i_star:
            stop = _first_false(lambda j: start + j * spacing < t_es, 1)
            if start + stop * spacing != t_es:
                raise ValueError(f"t_Es = {t_es!r} is no play of phase {i_star}")
            return played + stop
        played += min(plays, _first_false(lambda j: start + j * spacing <= horizon, 1) - 1)
        start, phase = end, phase + 1
    return played


def ctmab_evaluations(n_arms, horizon, epsilon, kappa, outcome, i_star, t_es, t_id, samples) -> int:
    """Index evaluations of one CTMAB run (module docstring) from its outcome, i*, t_Es, t_Id
    and LUCB1 samples. After estimation play p, arms 1..min(p, K) are checked; the stopping play
    P checks arms 1..((P − 1) mod K) + 1; LUCB1 rounds are ⌊(samples − K)/2⌋ + 1 once the K
    initial samples are in (lucb.run_lucb1: each round evaluates, then samples h and l)."""
    if not horizon > 1:
        raise ValueError(f"T' must exceed 1 (ln T' > 0), got {horizon!r}")
    stopped = outcome != ctmab.FAILED_ESTIMATION
    plays = _estimation_plays(n_arms, horizon, epsilon, kappa, i_star if stopped else 0, t_es)
    checked = plays - 1 if stopped else plays  # plays after which every sampled arm is checked
    estimation = (
        checked * (checked + 1) // 2
        if checked <= n_arms
        else n_arms * (n_arms + 1) // 2 + (checked - n_arms) * n_arms
    )
    if stopped:
        estimation += (plays - 1) % n_arms + 1
    rounds = (samples - n_arms) // 2 + 1 if samples >= n_arms else 0
    exploit = 0
    if outcome == ctmab.LEARNED:
        width = _phase(horizon, epsilon, kappa, i_star)[0]
        exploit = _exploit_windows(t_es + t_id, width, horizon)
    return estimation + n_arms * rounds + exploit


def kernel_call(experiment: dict, algorithm: dict, env_seed, checkpoints: np.ndarray):
    """The learner's kernel call of ``simulate_repetition`` (simulation.py, same arguments) at
    the raw-time ``checkpoints``: (the compiled kernel, its arguments, a function of its outputs
    giving the run's index evaluations)."""
    lam = float(experiment["environment"]["lam"])
    horizon = normalised_horizon(float(experiment["horizon"]), lam)
    means = np.asarray(experiment["environment"]["means"], dtype=float)
    params = algorithm_params(algorithm)
    epsilon, kappa, delta = learner_epsilon(params, horizon), params["kappa"], params["delta"]
    times = np.asarray(checkpoints, dtype=float) / lam
    rounding, key = ROUNDINGS[params["rounding"]], key64(env_seed)
    if algorithm["policy"] == CTSAB:

        def count(out):
            _, outcome, i_star, tau, _, _, _ = out
            return ctsab_evaluations(horizon, epsilon, kappa, outcome, i_star, tau)

        return (
            ctsab.run_ctsab,
            (means[0], horizon, epsilon, kappa, delta, key, times, rounding),
            count,
        )
    delta_id = (
        1.0 / horizon**2 if params["delta_id"] == INVERSE_SQUARE_HORIZON else params["delta_id"]
    )

    def count(out):
        _, outcome, i_star, t_es, t_id, _, _, samples = out
        return ctmab_evaluations(
            means.size, horizon, epsilon, kappa, outcome, i_star, t_es, t_id, samples
        )

    return (
        ctmab.run_ctmab,
        (
            means,
            horizon,
            epsilon,
            kappa,
            delta,
            delta_id,
            params["id_spacing_factor"],
            key,
            times,
            rounding,
        ),
        count,
    )


@njit
def _binomial_draws(n, p, draws, key):
    """``draws`` binomial(n, p) draws, each from its own block of uniforms as in the kernels."""
    total = 0
    for w in range(draws):
        total += binomial(n, p, key, w * ctsab.WINDOW_DRAWS)[0]
    return total


def binomial_table(draws: int = 200_000, repeats: int = 5) -> None:
    """ns per exact Binomial(n, 0.3) draw (module docstring), the fastest of ``repeats``."""
    print(f"\n{'binomial n':>10} {'ns/draw':>8}")
    key = key64(environment_seed(1, "continuous", "binomial", 0))
    for n in (2, 16, 20, 100, 1_000, 100_000, 1_000_000):
        _binomial_draws(n, 0.3, 10, key)
        seconds, _ = fastest(lambda: _binomial_draws(n, 0.3, draws, key), repeats)
        print(f"{n:10d} {seconds / draws * 1e9:8.1f}", flush=True)


@njit
def _windows_without_draws(windows, width, mean):
    """``windows`` exploit windows of width W through ``schedule.exploit_window`` (plays 2/μ̂
    apart), each window's binomial draw replaced by its mean μ·plays (no checkpoints): (the last
    play's time, plays + 1)."""
    checkpoints, payoff = np.empty(0), np.empty(0)
    paid, next_cp, last_play, carry, total, successes = 0.0, 0, 0.0, 0.0, 1.0, mean
    for w in range(windows):
        paid, next_cp, last_play, plays, carry = exploit_window(
            (w + 1) * width,
            width,
            successes / total,
            RATE,
            carry,
            mean,
            last_play,
            checkpoints,
            next_cp,
            paid,
            payoff,
        )
        total += plays
        successes += mean * plays
    return last_play, total


@njit
def _division_chain(windows, width, mean):
    """The learner's arithmetic of ``windows`` exploit windows alone (module docstring): μ̂ = S/N,
    spacing 2/μ̂, plays ⌊gap/spacing⌋, as ``schedule.exploit_window`` computes them: the same
    (last play's time, plays + 1) as :func:`_windows_without_draws`."""
    last_play, total, successes = 0.0, 1.0, mean
    for w in range(windows):
        spacing = 2.0 / (successes / total)
        plays = int(math.floor(((w + 1) * width + width - last_play) / spacing * (1.0 + 1e-12)))
        last_play += plays * spacing
        total += plays
        successes += mean * plays
    return last_play, total


def window_table(windows: int = 2_000_000, repeats: int = 5) -> None:
    """ns per exploit window without its draw (module docstring)."""
    mean = 0.3
    print(f"\n{'plays/window':>12} {'exploit_window ns':>17} {'division chain ns':>17}")
    for plays in (1, 10, 1_000):
        width = 2.0 * plays / mean
        cells = []
        for run in (_windows_without_draws, _division_chain):
            run(10, width, mean)
            seconds, _ = fastest(lambda: run(windows, width, mean), repeats)
            cells.append(seconds / windows * 1e9)
        print(f"{plays:12d} {cells[0]:17.1f} {cells[1]:17.1f}", flush=True)
    print(
        "exploit windows without their binomial draw; the division chain is the learner's\n"
        "  arithmetic alone (module docstring): a floor for any window's index evaluation."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--horizons", type=float, nargs="*", default=[6e4, 6e5, 6e6, 6e7])
    parser.add_argument("--runs", type=int, default=5, help="repetitions (seeds) per row")
    parser.add_argument(
        "--repeats", type=int, default=5, help="calls of each timing; the fastest counts"
    )
    args = parser.parse_args()
    reuse_freed_memory()  # as a simulate job does (core/sim/simulation.py)
    paper = load_paper("continuous")
    raw_horizon = 60000
    checkpoints = checkpoint_grid(raw_horizon, 400)
    print(
        f"{'algorithm':12} {'means':32} {'T prime':>9} {'ms/run':>7} {'kernel ms':>9}"
        f" {'oracle plays':>12} {'index evals':>11} {'ns/index-eval':>13}"
    )
    for alg_id, means in CASES:
        algorithm = paper["algorithms"][alg_id]
        for horizon in args.horizons:
            experiment = {
                "environment": {"means": means, "lam": raw_horizon / horizon},
                "horizon": raw_horizon,
            }
            simulate_repetition(
                experiment,
                algorithm,
                environment_seed(1, "continuous", "b", 0),
                policy_seed(1, "continuous", "b", alg_id, 0),
                checkpoints,
            )
            whole, kernel, evaluations = 0.0, 0.0, 0
            for rep in range(args.runs):
                env_seed = environment_seed(1, "continuous", "b", rep)
                seconds, out = fastest(
                    lambda: simulate_repetition(
                        experiment,
                        algorithm,
                        env_seed,
                        policy_seed(1, "continuous", "b", alg_id, rep),
                        checkpoints,
                    ),
                    args.repeats,
                )
                whole += seconds
                run, arguments, count = kernel_call(experiment, algorithm, env_seed, checkpoints)
                seconds, kernel_out = fastest(lambda: run(*arguments), args.repeats)
                kernel += seconds
                if not np.array_equal(kernel_out[0], out["payoff"]):
                    raise RuntimeError("the kernel call is not simulate_repetition's")
                evaluations += count(kernel_out)
            oracle_plays = max(means) * horizon / 2
            print(
                f"{alg_id:12} {str(means):32} {horizon:9.3g} {whole / args.runs * 1e3:7.2f} "
                f"{kernel / args.runs * 1e3:9.3f} {oracle_plays:12.3g} "
                f"{evaluations / args.runs:11.4g} {kernel / evaluations * 1e9:13.1f}",
                flush=True,
            )
    print(
        "ms/run: simulate_repetition, checkpoints and seeding included; kernel ms: the compiled"
        "\n  kernel call alone. ns/index-eval = kernel time / (eq. 5 checks + LUCB1 confidence"
        "\n  bounds + exploit windows); plays simulated in closed form are not counted (module"
        "\n  docstring). Each time is the fastest of --repeats calls."
    )
    binomial_table(repeats=args.repeats)
    window_table(repeats=args.repeats)


if __name__ == "__main__":
    main()
