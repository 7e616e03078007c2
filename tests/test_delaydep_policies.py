"""π_low (Algorithm 1) and π_ucb against hand-worked trajectories and a plain-Python reading of
their pseudocode (spec §2.3, §2.4), the switch accounting (P7), calibration plays (P8),
truncation (P4) and the simulation glue's metrics."""

import math

import numpy as np
import pytest

from timebandits.core.sim.checkpoints import checkpoint_grid
from timebandits.core.sim.rng import uniform
from timebandits.delaydep.model import B2DEPProblem
from timebandits.delaydep.policies import (
    LOG_TIME_DECISIONS,
    LOG_TIME_PULLS,
    low_run,
    low_stage_count,
    ucb_run,
)
from timebandits.delaydep.simulation import simulate_repetition, trajectory_metrics

KEY = np.uint64(20200826)

# Deterministic rewards: μ_i(1) = 0 and μ_i(τ) = 1 otherwise (d = 1, f(1) = 1), so g(1) = 0
# and g(2) = 1, and every Bernoulli draw equals its mean.
DETERMINISTIC = B2DEPProblem(["1", "1"], [1, 1], ["1"])


class Environment:
    """Spec §2.0 written out in Python: τ = rounds since the last pull (0 for a first pull)."""

    def __init__(self, problem, key):
        self.problem, self.key = problem, key
        self.last = [0] * problem.k
        self.t = 0
        self.expected, self.realised, self.policy = [], [], []

    def play(self, m, horizon):
        """Pull arms 0..m-1 (cut at the horizon); return the rewards of the pulls made."""
        rewards = []
        for arm in range(m):
            if self.t >= horizon:
                break
            self.t += 1
            tau = 0 if self.last[arm] == 0 else self.t - self.last[arm]
            mean = float(self.problem.mean_fraction(arm, tau))
            reward = 1.0 if uniform(self.key, (self.t - 1) * self.problem.k + arm) < mean else 0.0
            self.last[arm] = self.t
            self.expected.append(mean)
            self.realised.append(reward)
            self.policy.append(m)
            rewards.append(reward)
        return rewards


def reference_stage_count(horizon, k):
    """S = min{j : Σ_{s≤j} (k + T_s) ≥ T}, T_s = T^{1 − 2^{−s}} (Sect. 6, spec P3), summed here
    without the implementation's helpers."""
    total, s = 0.0, 0
    while total < horizon:
        s += 1
        total += k + horizon ** (1 - 2.0**-s)
    return s


def reference_low(problem, delta, horizon, key):
    """Algorithm 1 line by line (with the spec's P2–P4 choices)."""
    env, k = Environment(problem, key), problem.k
    stages = reference_stage_count(horizon, k)
    log_term = math.log(2 * k * stages / delta)
    active, s, history = list(range(1, k + 1)), 0, []
    while env.t < horizon:
        s += 1
        t_s = horizon ** (1 - 2.0**-s)
        width = math.sqrt(k / (2 * t_s) * log_term)
        ghat, complete = {}, True
        for m in active:
            n_sm = max(1, math.floor(t_s / (m * len(active))))
            env.play(m, horizon)  # calibration, discarded
            rewards = [r for _ in range(n_sm) for r in env.play(m, horizon)]
            if len(rewards) < n_sm * m or env.t > horizon:
                complete = False
                break
            ghat[m] = sum(rewards) / (n_sm * m)
        history.append((list(active), dict(ghat), width, env.t))
        if complete:
            best = max(ghat.values())
            active = [m for m in active if ghat[m] >= best - 2 * width]
    return env, history


def reference_ucb(problem, horizon, key, log_time, bonus_scale=1.0):
    env, k = Environment(problem, key), problem.k
    n, sums, decisions = [0] * k, [0.0] * k, 0
    while env.t < horizon:
        if decisions < k:
            m = decisions + 1
        else:
            clock = decisions if log_time == LOG_TIME_DECISIONS else env.t
            index = [
                sums[c] / n[c] + bonus_scale * math.sqrt(2 * math.log(clock) / n[c])
                for c in range(k)
            ]
            m = index.index(max(index)) + 1
        decisions += 1
        first = env.play(m, horizon)
        second = env.play(m, horizon)
        if len(first) + len(second) == 2 * m:
            n[m - 1] += 1
            sums[m - 1] += sum(second) / m
    return env, decisions


def random_problem(rng, k):
    means = sorted((rng.integers(0, 21, k) / 20).tolist(), reverse=True)
    f = sorted(rng.uniform(0, 1, 4).round(3).tolist(), reverse=True)
    return B2DEPProblem(means, rng.integers(1, 5, k).tolist(), f)


# ---- π_low ---------------------------------------------------------------------------------------


def test_low_hand_worked_trajectory():
    """T = 100, k = 2: S = 3 (12 + 33.6 + 58.2 ≥ 100). Stage 1 (T_1 = 10): π_1 played
    ⌊10/2⌋ + 1 = 6 times (rounds 1–6), π_2 ⌊10/4⌋ + 1 = 3 times (rounds 7–12); C_1 = 0.692, so
    2C_1 > 1 = ĝ(2) − ĝ(1) eliminates nothing. Stage 2 (T_2 = 31.6): π_1 16 times (13–28), π_2
    8 times (29–44); 2C_2 = 0.78 < 1 eliminates π_1. Stage 3: π_2 alone until T."""
    expected, realised, policy, n_active, active, ghat, width, end, n_stages, stages = low_run(
        DETERMINISTIC.mean_table(), 0.1, 100, KEY
    )
    assert stages == 3 and n_stages == 3
    assert policy.tolist() == [1] * 6 + [2] * 6 + [1] * 16 + [2] * 72
    assert end[:3].tolist() == [12, 44, 100]
    assert n_active[:3].tolist() == [2, 2, 1]
    assert width[0] == pytest.approx(math.sqrt(2 / 20 * math.log(120)))
    assert width[1] == pytest.approx(math.sqrt(2 / (2 * 100**0.75) * math.log(120)))
    # ĝ discards the calibration play: π_1's round-1 pull is at the baseline (τ = 0) and pays 1,
    # the estimate uses rounds 2–6 only; π_2's calibration (round 7, arm 1 at τ = 1) pays 0.
    assert ghat[0].tolist() == [0.0, 1.0]
    assert ghat[1].tolist() == [0.0, 1.0]
    assert np.isnan(ghat[2, 0]) and np.isnan(ghat[2, 1])  # cut stage: no estimate
    hand = (
        [1]
        + [0] * 5  # stage 1, π_1: first pull at τ = 0, then τ = 1
        + [0, 1]
        + [1] * 4  # π_2: arm 1 at τ = 1 (calibration), arm 2 first pull, τ = 2
        + [1]
        + [0] * 15  # stage 2, π_1: arm 1 last pulled at round 11 (τ = 2)
        + [0]
        + [1] * 15  # π_2: arm 1 at τ = 1, arm 2 at τ = 18, then τ = 2
        + [1] * 56
    )  # stage 3
    assert expected.tolist() == hand
    assert realised.tolist() == hand  # deterministic rewards


def test_low_switches_charged_only_on_a_change_of_policy():
    expected, realised, policy, *_ = low_run(DETERMINISTIC.mean_table(), 0.1, 100, KEY)
    checkpoints = np.arange(1, 101)
    metrics = trajectory_metrics(DETERMINISTIC, expected, realised, policy, [1.0, 0.0], checkpoints)
    # switches at rounds 7, 13 and 29; stage 3 continues π_2 from stage 2: not a switch
    assert np.flatnonzero(np.diff(metrics["switches"], prepend=0)).tolist() == [6, 12, 28]
    assert metrics["switches"][-1] == 3
    assert metrics["ghost"][-1] == 100  # π_ghost = π_2 pays 1 on every pull
    assert metrics["regret_cost0"][-1] == 100 - 78  # the hand trajectory above sums to 78
    assert metrics["regret_cost1"][-1] == 100 - 78 + 3
    assert metrics["pulls_pi1"][-1] == 22 and metrics["pulls_pi2"][-1] == 78
    assert metrics["suboptimal_pulls"][-1] == 22


@pytest.mark.parametrize(
    "horizon, k, stages",
    [
        (4, 2, 1),  # 2 + √4 = 4 ≥ 4: the sum reaches T exactly in stage 1
        (9, 6, 1),  # 6 + √9 = 9 ≥ 9, exactly
        (4, 1, 2),  # 1 + 2 = 3 < 4; 3 + (1 + 4^{3/4} = 3.83) ≥ 4
        (100, 2, 3),  # 12, 12 + 33.6, 45.6 + 58.2 ≥ 100
        (10, 2, 2),  # 2 + 3.16 = 5.16; 5.16 + 2 + 5.62 ≥ 10
    ],
)
def test_low_stage_count_by_hand(horizon, k, stages):
    assert low_stage_count(horizon, k) == stages == reference_stage_count(horizon, k)


@pytest.mark.parametrize("horizon", [1, 4, 7, 9, 10, 99, 1000, 4321])
def test_low_matches_reference_implementation(horizon):
    rng = np.random.default_rng(horizon)
    for k in (1, 2, 4, 6):  # T = 4, k = 2 and T = 9, k = 6: stage sums that reach T exactly
        problem = random_problem(rng, k)
        out = low_run(problem.mean_table(), 0.1, horizon, KEY)
        env, history = reference_low(problem, 0.1, horizon, KEY)
        assert out[0].size == horizon  # truncated at exactly T (P4)
        np.testing.assert_allclose(out[0], env.expected, rtol=0, atol=1e-15)
        assert out[1].tolist() == env.realised
        assert out[2].tolist() == env.policy
        assert out[8] == len(history)
        for s, (active, ghat, width, end) in enumerate(history):
            assert out[3][s] == len(active)
            assert out[7][s] == end
            assert out[6][s] == pytest.approx(width)
            for m, value in ghat.items():
                assert out[5][s, m - 1] == pytest.approx(value)


def test_low_small_horizon_cuts_the_last_play():
    """T = 10, k = 2: S = 2; stage 1 plays π_1 ⌊√10/2⌋ + 1 = 2 times, π_2 max(1, 0) + 1 = 2
    times (rounds 3–6); stage 2 is cut at T and estimates only what it completed."""
    _, _, policy, n_active, _, ghat, _, end, n_stages, stages = low_run(
        DETERMINISTIC.mean_table(), 0.1, 10, KEY
    )
    assert stages == 2
    assert policy[:6].tolist() == [1, 1, 2, 2, 2, 2]
    assert end[:n_stages].tolist()[-1] == 10
    assert np.isnan(ghat[n_stages - 1]).any()


def test_low_rejects_bad_delta():
    with pytest.raises(ValueError, match="delta"):
        low_run(DETERMINISTIC.mean_table(), 1.5, 10, KEY)


# ---- π_ucb ---------------------------------------------------------------------------------------


def test_ucb_hand_worked_start():
    """Decision 1 plays π_1 twice (rounds 1–2; x = μ_1(1) = 0), decision 2 π_2 twice (rounds
    3–6; x = 1). Then UCB1 keeps π_2 while 1 + sqrt(2 ln N/(N − 1)) ≥ sqrt(2 ln N): until
    N = 6, when sqrt(2 ln 6)·(1 − 1/√5) = 1.046 > 1, so decision 7 returns to π_1."""
    expected, realised, policy, decisions = ucb_run(
        DETERMINISTIC.mean_table(), 26, KEY, LOG_TIME_DECISIONS, 1.0
    )
    assert policy.tolist() == [1, 1] + [2] * 20 + [1, 1] + [2, 2]
    assert decisions == 8  # the last one (π_2, rounds 25–26) is cut after one play
    assert expected[:2].tolist() == [1.0, 0.0]  # τ = 0, then τ = 1
    assert expected[22:24].tolist() == [1.0, 0.0]  # π_1 after π_2: arm 1 at τ = 2, then τ = 1


@pytest.mark.parametrize(
    "log_time, bonus_scale",
    [(LOG_TIME_DECISIONS, 1.0), (LOG_TIME_PULLS, 1.0), (LOG_TIME_PULLS, 2**-0.5)],
)
def test_ucb_matches_reference_implementation(log_time, bonus_scale):
    rng = np.random.default_rng(7 + log_time + int(10 * bonus_scale))
    for k in (1, 2, 3, 5):
        problem = random_problem(rng, k)
        horizon = int(rng.integers(1, 3000))
        expected, realised, policy, decisions = ucb_run(
            problem.mean_table(), horizon, KEY, log_time, bonus_scale
        )
        env, reference_decisions = reference_ucb(problem, horizon, KEY, log_time, bonus_scale)
        np.testing.assert_allclose(expected, env.expected, rtol=0, atol=1e-15)
        assert realised.tolist() == env.realised
        assert policy.tolist() == env.policy
        assert decisions == reference_decisions


def test_ucb_observation_is_unbiased_for_g():
    """The second play of a double play is calibrated: its mean reward is g(m) exactly, while
    the first play after a different policy is not (Fig. 3 instance: π_2 after π_1)."""
    problem = B2DEPProblem(["1", "13/15"], [2, 2], ["3/10", "1/4"])
    expected, _, policy, _ = ucb_run(problem.mean_table(), 200_000, KEY, LOG_TIME_DECISIONS, 1.0)
    runs = np.flatnonzero(np.diff(policy, prepend=0) != 0)  # first pull of each switch
    starts = [r for r in runs if policy[r] == 2 and r + 4 <= policy.size]
    second_play = np.array([expected[r + 2 : r + 4].mean() for r in starts])
    first_play = np.array([expected[r : r + 2].mean() for r in starts[1:]])
    assert np.allclose(second_play, problem.g(2))
    # π_2 after π_1: arm 1 at τ = 1 (0.7), arm 2 at τ ≥ 3 (13/15)
    assert np.allclose(first_play, (0.7 + 13 / 15) / 2)


# ---- simulation glue -----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_ghost_cumulative_closed_form_matches_the_trajectory(seed):
    problem = random_problem(np.random.default_rng(seed), 1 + seed)
    rounds = np.arange(0, 300)
    trajectory = np.concatenate([[0.0], np.cumsum(problem.ghost_expected_rewards(299))])
    np.testing.assert_allclose(problem.ghost_cumulative(rounds), trajectory, rtol=1e-12, atol=1e-12)


def test_simulation_metrics_and_common_random_numbers():
    environment = {
        "means": ["1", "14/15", "13/15", "4/5", "2/3", "1/3", "0"],
        "delays": {"uniform": [1, 6]},
        "f": {"kind": "geometric", "base": 0.999},
        "switch_costs": [1, 0.5],
    }
    experiment = {"environment": environment, "horizon": 5000}
    checkpoints = checkpoint_grid(5000, 40)
    seed = np.random.SeedSequence([1, 2, 3])
    low = simulate_repetition(
        experiment, {"policy": "low", "params": {"delta": 0.1}}, seed, None, checkpoints
    )
    ucb = simulate_repetition(experiment, {"policy": "ucb"}, seed, None, checkpoints)
    delays = [low[f"delay_{i}"][0] for i in range(1, 8)]
    assert delays == [ucb[f"delay_{i}"][0] for i in range(1, 8)]  # one instance per repetition
    assert all(1 <= d <= 6 for d in delays)
    problem = B2DEPProblem(
        environment["means"], [int(d) for d in delays], [0.999**t for t in range(1, 7)]
    )
    others = [m for m in range(1, 8) if m != problem.r_star]  # Fig. 2's g has no exact ties
    assert low["suboptimal_pulls"][-1] == sum(low[f"pulls_pi{m}"][-1] for m in others)
    np.testing.assert_allclose(
        low["ghost"], np.cumsum(problem.ghost_expected_rewards(5000))[checkpoints - 1]
    )
    for out in (low, ucb):
        np.testing.assert_allclose(
            out["regret_cost0.5"], out["ghost"] - out["expected"] + 0.5 * out["switches"]
        )
        total = sum(out[f"pulls_pi{m}"] for m in range(1, 8))
        np.testing.assert_array_equal(total, checkpoints)
    assert low["switches"][-1] <= 7 * low_stage_count(5000, 7)
    assert set(np.unique(low["n_active"])) <= set(range(1, 8))
    np.testing.assert_array_equal(np.diff(low["stage"]) >= 0, True)
