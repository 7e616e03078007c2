"""The index-evaluation counts of the benchmarks of papers 003 (benchmarks/benchmark_continuous.py)
and 004 (benchmarks/benchmark_delaydep.py) against runs worked by hand, and the environment
replays of 002 and 004 against their kernels. Counts and draws only: nothing is timed."""

import runpy
from pathlib import Path

import numpy as np
import pytest

from timebandits.anonymous.policies import run_ars_ucb
from timebandits.anonymous.simulation import label_game_call, round_size_table
from timebandits.anonymous.stochastic_instance import environment_arguments
from timebandits.continuous.ctmab import (
    FAILED_ESTIMATION,
    FAILED_IDENTIFICATION,
    LEARNED,
    run_ctmab,
)
from timebandits.continuous.ctsab import run_ctsab
from timebandits.core.build.preflight import load_paper
from timebandits.core.sim.seeding import environment_seed, policy_seed
from timebandits.delaydep.model import B2DEPProblem
from timebandits.delaydep.policies import LOG_TIME_DECISIONS, low_run, ucb_run

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
CONTINUOUS = runpy.run_path(str(BENCHMARKS / "benchmark_continuous.py"))
DELAYDEP = runpy.run_path(str(BENCHMARKS / "benchmark_delaydep.py"))
ANONYMOUS = runpy.run_path(str(BENCHMARKS / "benchmark_anonymous.py"))
KEY = np.uint64(20200826)
CHECKPOINTS = np.array([1.0, 16.0])
C = 1000.0**0.5  # c = T'^ε at T' = 1000, ε = 1/2: phase 1 is (0, c], c = 31.62


def test_ctsab_learned_run():
    """T' = 1000, ε = 1/2, κ = 1, μ = 0.9: phase 1 has ⌈ln(1000)·c^{2/3}⌉ = ⌈6.91·10⌉ = 70 plays
    and eq. 5 holds at its end (sqrt(ln 40/70) = 0.23 < μ̂/2 ≈ 0.45): 1 check, τ = c. Exploit
    windows start at τ(j + 1) < 1000 for j = 0..30 (31τ = 980.3, 32τ = 1011.9): 31. Total 32."""
    _, outcome, i_star, tau, *_ = run_ctsab(0.9, 1000.0, 0.5, 1.0, 0.05, KEY, CHECKPOINTS, 0)
    assert (outcome, i_star, tau) == (LEARNED, 1, C)
    assert CONTINUOUS["ctsab_evaluations"](1000.0, 0.5, 1.0, outcome, i_star, tau) == 32


def test_ctsab_counts_only_phases_that_end_by_the_horizon():
    """T' = 16, ε = 1/2: c = 4, phases end at 4 and 16 ≤ T', each with a check, and phase 3
    never starts; failed or learned at i* = 2 (τ = T', no window), 2 checks. Learned at i* = 1
    (τ = 4): 1 check and windows at 4, 8, 12 (16 is not < 16): 4."""
    count = CONTINUOUS["ctsab_evaluations"]
    assert count(16.0, 0.5, 1.0, 1, 0, 0.0) == 2
    assert count(16.0, 0.5, 1.0, LEARNED, 2, 16.0) == 2
    assert count(16.0, 0.5, 1.0, LEARNED, 1, 4.0) == 4


def test_ctmab_failed_estimation_run():
    """T' = 16, ε = 1/2, κ = 1/4, K = 2: N_1 = ⌈0.25·2.77·4^{2/3}⌉ = 2 and N_2 = ⌈0.25·2.77·
    4^{4/3}⌉ = 5 per arm, 7 < 4 ln 40 = 14.8, so eq. 5 can never hold. Plays: 4 over (0, 4], 10
    over (4, 16] (the last at 4 + 10·1.2 = 16 ≤ T'): 14, each followed by a check of every arm
    sampled so far: 1 + 13·2 = 27."""
    _, outcome, i_star, t_es, t_id, _, _, samples = run_ctmab(
        np.array([0.5, 0.4]), 16.0, 0.5, 0.25, 0.05, 0.05, 1.0, KEY, CHECKPOINTS, 0
    )
    assert (outcome, samples) == (FAILED_ESTIMATION, 0)
    assert (
        CONTINUOUS["ctmab_evaluations"](2, 16.0, 0.5, 0.25, outcome, i_star, t_es, t_id, samples)
        == 27
    )


def test_ctmab_learned_run():
    """T' = 1000, ε = 1/2, κ = 1, means (1 − 2^−30, 2^−30): arm 1 draws 1 and arm 2 draws 0
    (but with odds of 2^−30 a draw). Phase 1 plays the arms 2·70 times, c/140 apart. Arm 1
    passes eq. 5 at its 15th sample (sqrt(ln 40/15) = 0.496 < 1/2; at 14, 0.513), global play 29:
    28 plays with 1 + 27·2 = 55 checks, then arm 1 alone at play 29: 56. LUCB1 (δ_id = 0.05):
    β(u, t) = sqrt((ln 50 + 4 ln t)/(2u)) with u = t stops when β < 1/2, first at t = 37
    (18.36 < 18.5; t = 36: 18.25 > 18): 37 rounds, 2·37 = 74 bounds, 2 + 2·36 = 74 samples.
    Exploit from t_Es + t_Id = 29c/140 + 74/1 = 80.55 (μ̂[1] = 1), windows of width c:
    w = 0..29 (80.55 + 29c = 997.6 < 1000 ≤ 80.55 + 30c): 30. Total 56 + 74 + 30 = 160."""
    means = np.array([1 - 2.0**-30, 2.0**-30])
    _, outcome, i_star, t_es, t_id, arm, _, samples = run_ctmab(
        means, 1000.0, 0.5, 1.0, 0.05, 0.05, 1.0, KEY, CHECKPOINTS, 0
    )
    assert (outcome, i_star, t_es, t_id, arm, samples) == (LEARNED, 1, 29 * (C / 140), 74.0, 0, 74)
    assert (
        CONTINUOUS["ctmab_evaluations"](2, 1000.0, 0.5, 1.0, outcome, i_star, t_es, t_id, samples)
        == 160
    )


def test_ctmab_stop_and_cut_identification():
    """K = 3, stop at play 31 of phase 1 (plays c/210 apart): 30 plays with 1 + 2 + 28·3 = 87
    checks, then arm 1 alone (play 31 is arm ((31 − 1) mod 3) + 1 = 1): 88. LUCB1 cut after 8
    samples: 3 initial, rounds 1 and 2 sample 4–7, round 3 samples h (8), then the budget is out: 3
    rounds, 9 bounds; no exploit. Total 97. With K = 2 and the stop at play 31 (arm 1): 1 + 29·2 + 1
    = 60, 10 samples = 5 rounds = 10 bounds, exploit from 31c/140 + 20 = 27.0 in windows of c: w =
    0..30 (27.0 + 30c = 975.7 < 1000 ≤ 27.0 + 31c): 31. Total 101."""
    count = CONTINUOUS["ctmab_evaluations"]
    assert count(3, 1000.0, 0.5, 1.0, FAILED_IDENTIFICATION, 1, 31 * (C / 210), 20.0, 8) == 97
    assert count(2, 1000.0, 0.5, 1.0, LEARNED, 1, 31 * (C / 140), 20.0, 10) == 101


def test_ctmab_rejects_a_stop_time_that_is_no_play():
    with pytest.raises(ValueError, match="no play"):
        CONTINUOUS["ctmab_evaluations"](2, 1000.0, 0.5, 1.0, LEARNED, 1, 1.0, 20.0, 10)


# Deterministic rewards (as in test_delaydep_policies.py): μ_i(1) = 0, μ_i(τ) = 1 otherwise.
DETERMINISTIC = B2DEPProblem(["1", "1"], [1, 1], ["1"])


@pytest.mark.parametrize("plays_per_window", [0.3, 1.0, 7.5, 1000.0])
def test_division_chain_is_the_exploit_windows_arithmetic(plays_per_window):
    """The bare chain timed as the floor of a window's index evaluation gives every window the
    plays that ``schedule.exploit_window`` gives it (last play and plays equal, to the bit), and
    the windows get plays (the chain is not idle)."""
    width, mean = 2.0 * plays_per_window / 0.3, 0.3
    kernel = CONTINUOUS["_windows_without_draws"](5000, width, mean)
    chain = CONTINUOUS["_division_chain"](5000, width, mean)
    assert chain == kernel
    assert kernel[1] > 5000 * plays_per_window * 0.9


def test_pi_low_counts_estimates_made():
    """The T = 100, k = 2 run of test_delaydep_policies.test_low_hand_worked_trajectory: stages 1
    and 2 estimate ĝ(1) and ĝ(2), stage 3 (π_2 alone) is cut before its estimate: 4."""
    out = low_run(DETERMINISTIC.mean_table(), 0.1, 100, KEY)
    assert DELAYDEP["index_evaluations"](out[2], out[3:], 2) == 4


def test_pi_ucb_counts_decisions_from_labels():
    """The T = 26 run of test_ucb_hand_worked_start: labels [1]·2 + [2]·20 + [1]·2 + [2]·2, runs
    of ⌈2/2⌉ + ⌈20/4⌉ + ⌈2/2⌉ + ⌈2/4⌉ = 1 + 5 + 1 + 1 = 8 decisions (the kernel's count), the
    first k = 2 without an index: 2·(8 − 2) = 12."""
    _, _, policy, decisions = ucb_run(DETERMINISTIC.mean_table(), 26, KEY, LOG_TIME_DECISIONS, 1.0)
    assert DELAYDEP["ucb_decisions"](policy) == decisions == 8
    assert DELAYDEP["index_evaluations"](policy, None, 2) == 12


@pytest.mark.parametrize("horizon", [1, 2, 3, 5, 6, 7, 99, 1000, 4321])
def test_pi_ucb_decisions_match_the_kernel(horizon):
    """Decisions counted from the labels equal the kernel's own count, a cut one included."""
    problem = B2DEPProblem(["13/15", "4/5", "1/2"], [2, 1, 3], ["1/2", "1/4", "1/8"])
    _, _, policy, decisions = ucb_run(problem.mean_table(), horizon, KEY, LOG_TIME_DECISIONS, 1.0)
    assert DELAYDEP["ucb_decisions"](policy) == decisions


@pytest.mark.parametrize("learner", ["ucb", "low"])
@pytest.mark.parametrize("horizon", [1, 7, 1000, 4321])
def test_delaydep_replay_draws_the_kernels_pulls(learner, horizon):
    """The benchmark's environment replay pulls the same arms in the same rounds as the kernel:
    the same μ_i(τ) and the same Bernoulli rewards, pull for pull."""
    problem = B2DEPProblem(["13/15", "4/5", "1/2"], [2, 1, 3], ["1/2", "1/4", "1/8"])
    table = problem.mean_table()
    out = (
        ucb_run(table, horizon, KEY, LOG_TIME_DECISIONS, 1.0)
        if learner == "ucb"
        else low_run(table, 0.1, horizon, KEY)
    )
    expected, realised = DELAYDEP["replay_pulls"](table, *DELAYDEP["label_runs"](out[2]), KEY)
    assert np.array_equal(expected, out[0]) and np.array_equal(realised, out[1])
    assert 0 < realised.sum() < horizon or horizon < 10


@pytest.mark.parametrize("experiment", ["delay_10_30", "polynomial_2", "bounded_30_40"])
@pytest.mark.parametrize(
    "round_size", [{"kind": "power", "c": 1, "beta": 1}, {"kind": "exponential", "c": 0}]
)
def test_anonymous_replay_rebuilds_the_kernels_rounds(experiment, round_size):
    """The replay rebuilds ARS-UCB's rounds from the arm of each slot: the same arms (its
    pseudo-regret is the kernel's at T) and the same rounds (as many as the kernel's decisions,
    which Lemma 1's tally counts: a replay with other round boundaries has another count)."""
    paper = load_paper("anonymous")
    horizon = 3000
    exp = {**paper["experiments"][experiment], "horizon": horizon}
    checkpoints = np.array([1000, horizon])
    problem, d1, d2, common = environment_arguments(
        exp, environment_seed(1, "anonymous", experiment, 0), checkpoints
    )
    sizes = round_size_table(round_size, horizon)
    regret, lemma, plays = run_ars_ucb(problem.means, 4.0, sizes, d1, d2, *common)
    rounds, replayed, observed = ANONYMOUS["replay_environment"](
        problem.means, sizes, plays, *common[:-1]
    )
    n_arms = problem.means.size
    assert replayed == pytest.approx(regret[-1], rel=1e-12)
    # Lemma 1's tally checks every arm at each decision after the first round of all
    assert rounds == lemma[0, -1] / n_arms + n_arms
    assert rounds > 2 * n_arms and 0 < observed < horizon


@pytest.mark.parametrize(
    "experiment, algorithm",
    [("fig5a", "ars_exp3"), ("fig5c", "clw"), ("synthetic_oblivious", "clw")],
)
def test_anonymous_label_game_replay_is_the_kernels_game(experiment, algorithm):
    """The replay of a label game's environment gives the kernel's regret at every checkpoint
    from the kernel's arms alone; with the arms of another run it does not."""
    paper = load_paper("anonymous")
    exp = {**paper["experiments"][experiment], "horizon": 5000}
    checkpoints = np.array([10, 1000, 5000], np.int64)
    run, arguments = label_game_call(
        exp,
        paper["algorithms"][algorithm],
        environment_seed(1, "anonymous", experiment, 0),
        policy_seed(1, "anonymous", experiment, algorithm, 0),
        checkpoints,
    )
    regret, plays = run(*arguments)
    labels, n_arms, _, _, mode, d, low, high, best_arm, env_key, _, cps = arguments
    replay = ANONYMOUS["replay_label_game"]
    assert np.array_equal(
        replay(labels, n_arms, plays, mode, d, low, high, best_arm, env_key, cps), regret
    )
    other = np.roll(plays, 7)
    other[0] = -1
    assert not np.array_equal(
        replay(labels, n_arms, other, mode, d, low, high, best_arm, env_key, cps), regret
    )
