"""UCB on the composite anonymous environment (anonymous/ucb.py), on games worked by hand: arms
of means 1 and 0 make every total certain (X_u = 1{U < s}), so each decision follows from the
index s_hat + sqrt(4 ln t / N_i) alone."""

from __future__ import annotations

import numpy as np
import pytest

from timebandits.anonymous.simulation import algorithm_params, validate_run
from timebandits.anonymous.spread_kernel import DELAY, DETERMINISTIC
from timebandits.anonymous.ucb import run_ucb

MEANS = np.array([1.0, 0.0])


def test_told_each_total_ucb_follows_its_index():
    """Slots 1, 2: one pull each (arm 1 costs a regret of 1). Then arm 0 (estimate 1) keeps the
    larger index while 1 + sqrt(4 ln t/(t − 1)) > sqrt(4 ln t): at t = 4, 2.360 > 2.355; at
    t = 5, 1 + sqrt(6.438/4) = 2.269 < sqrt(6.438) = 2.537, so slot 6 pulls arm 1 again."""
    checkpoints = np.array([1, 2, 5, 6], np.int64)
    regret = run_ucb(MEANS, 4.0, True, DETERMINISTIC, 0, 0, np.uint64(7), 6, checkpoints)
    assert regret.tolist() == [0.0, 1.0, 1.0, 2.0]


def test_anonymous_ucb_credits_each_slots_arrivals_to_the_arm_pulled():
    """Delay 1: slot 1 pulls arm 0 (X = 1, arrives in slot 2), slot 2 pulls arm 1, which is
    credited Y(2) = 1; arm 0 was credited Y(1) = 0. At t = 2 arm 1 leads (1 + sqrt(4 ln 2) against
    sqrt(4 ln 2)): slot 3 pulls arm 1, credited Y(3) = X_2 = 0 (estimate 1/2). At t = 3 arm 0's
    sqrt(4 ln 3) = 2.096 beats 1/2 + sqrt(4 ln 3/2) = 1.982: slot 4 pulls arm 0."""
    checkpoints = np.array([2, 3, 4], np.int64)
    regret = run_ucb(MEANS, 4.0, False, DELAY, 1, 1, np.uint64(7), 4, checkpoints)
    assert regret.tolist() == [1.0, 2.0, 2.0]


def test_alpha_scales_the_exploration():
    """With alpha = 0 the index is the estimate alone: told each total, arm 0 (estimate 1) is
    never left after the first round, so the regret stays 1."""
    checkpoints = np.array([100], np.int64)
    assert run_ucb(
        MEANS, 0.0, True, DETERMINISTIC, 0, 0, np.uint64(3), 100, checkpoints
    ).tolist() == [1.0]


def test_ucb_config_checks():
    delay = {"means": [0.9, 0.1], "kernel": {"kind": "delay", "low": 1, "high": 3}}
    spread = {"means": [0.9, 0.1], "kernel": {"kind": "bounded", "dmin": 1, "dmax": 3}}
    anonymous = {"policy": "ucb", "params": {"alpha": 4.0, "feedback": "anonymous"}}
    immediate = {"policy": "ucb", "params": {"feedback": "immediate"}}
    assert algorithm_params(immediate) == {"alpha": 4.0, "feedback": "immediate"}
    validate_run(delay, anonymous)
    validate_run(spread, immediate)
    with pytest.raises(ValueError, match="delay kernels only"):
        validate_run(spread, anonymous)
    with pytest.raises(ValueError, match="feedback must be one of"):
        algorithm_params({"policy": "ucb", "params": {"feedback": "late"}})
    with pytest.raises(ValueError, match="alpha must be a positive number"):
        algorithm_params({"policy": "ucb", "params": {"alpha": -1.0}})
