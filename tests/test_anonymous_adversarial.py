"""The Fig. 5 games (adversarial.py, ars_exp3.py, clw.py): ARS-EXP3 (Algorithm 2) and CLW(d̂)
against a slot-by-slot plain-Python reading of their pseudocode (same uniforms, so the same
trajectory, bit for bit), the two delay adversaries, the block rule, and the regret
max_i G_i(t) − gain(t)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from timebandits.anonymous import adversarial as adv
from timebandits.anonymous.ars_exp3 import play_ars_exp3, run_ars_exp3
from timebandits.anonymous.clw import block_ends, clw_gamma, play_clw, run_clw
from timebandits.anonymous.theory import ars_exp3_gamma, exp3_rounds
from timebandits.core.sim.rng import uniform

ENV, POLICY = np.uint64(11), np.uint64(23)


def _probabilities(w, scale, gamma):
    x = np.asarray(w, float) / scale
    e = np.exp(x - x.max())
    return (1 - gamma) * e / e.sum() + gamma / len(w)


def _draw(p, u):
    return int(np.searchsorted(np.cumsum(p)[:-1], u, side="right"))


class Game:
    """The game of the module docstring, one slot at a time, in plain Python."""

    def __init__(self, labels, n, mode, d, low, high):
        self.labels, self.n, self.mode, self.d, self.low, self.high = labels, n, mode, d, low, high
        self.T = len(labels)
        self.best = int(np.argmax(np.bincount(labels, minlength=n)))
        self.arrive = [0.0] * (self.T + 2)
        self.history = []  # arms played so far
        self.regret = [0.0]  # regret after slot t (index t)

    def play(self, arm):
        t = len(self.history) + 1
        earned = float(arm == self.labels[t - 1])
        if self.mode == adv.NON_OBLIVIOUS:
            streak = self.history[-3 * self.d :] if t > 3 * self.d else []
            z = (
                self.d
                if arm == self.best
                and len(streak) == 3 * self.d
                and all(a == self.best for a in streak)
                else 1
            )
        else:
            z = self.low + int(uniform(ENV, t) * (self.high - self.low + 1))
        if t + z <= self.T + 1:
            self.arrive[t + z] += earned
        self.history.append(arm)
        counts = np.bincount(self.labels[:t], minlength=self.n)
        gain = sum(float(a == c) for a, c in zip(self.history, self.labels))
        self.regret.append(counts.max() - gain)
        return self.arrive[t]


def reference_ars_exp3(labels, n, beta, mode, d, low, high):
    game = Game(labels, n, mode, d, low, high)
    T = len(labels)
    K = exp3_rounds(T, beta).K
    g = [math.ceil(k**beta) for k in range(1, K + 2)]
    gamma = ars_exp3_gamma(n, T, beta).appendix
    w = [0.0] * n
    for k in range(1, K + 1):
        p = _probabilities(w, g[K - 1], gamma)
        a = _draw(p, uniform(POLICY, k - 1))
        Z = sum(game.play(a) for _ in range(g[k - 1]))
        w[a] += gamma * min(Z, g[k - 1]) / (n * p[a])
    a = _draw(_probabilities(w, g[K - 1], gamma), uniform(POLICY, K))
    while len(game.history) < T:
        game.play(a)
    return game


def reference_clw(labels, n, d_hat, mode, d, low, high):
    game = Game(labels, n, mode, d, low, high)
    T = len(labels)
    q = 1 / (2 * d_hat)
    B = [False] + [uniform(POLICY, 2 * t) < q for t in range(1, T + 1)] + [False] * (2 * d_hat)
    gamma = min(1.0, math.sqrt(2 * d_hat * n * math.log(n) / (T + d_hat)))
    w = [0.0] * n
    p = _probabilities(w, 1.0, gamma)
    a = _draw(p, uniform(POLICY, 1))
    observed = [0.0]
    for t in range(1, T + 1):
        observed.append(game.play(a))
        if B[t] and not any(B[t + 1 : t + 2 * d_hat]):
            x = sum(observed[max(1, t - d_hat + 1) : t + 1]) / (2 * d_hat)
            w[a] += gamma * x / (n * p[a])
            p = _probabilities(w, 1.0, gamma)
            a = _draw(p, uniform(POLICY, 2 * t + 1))
    return game


def _stream(T, shares, seed=0):
    return np.random.default_rng(seed).choice(len(shares), size=T, p=shares).astype(np.int64)


GAMES = [(adv.NON_OBLIVIOUS, 2, 1, 1), (adv.OBLIVIOUS, 3, 1, 3), (adv.OBLIVIOUS, 4, 2, 4)]


@pytest.mark.parametrize("mode, d, low, high", GAMES)
@pytest.mark.parametrize("beta", [0.5, 1.0])
def test_ars_exp3_follows_algorithm_2_slot_by_slot(mode, d, low, high, beta):
    labels = _stream(400, [0.6, 0.3, 0.1])
    checkpoints = np.arange(1, 401, dtype=np.int64)
    want = reference_ars_exp3(labels, 3, beta, mode, d, low, high)
    sizes = np.array([math.ceil(k**beta) for k in range(1, exp3_rounds(400, beta).K + 1)])
    regret, plays = run_ars_exp3(
        labels,
        3,
        sizes,
        ars_exp3_gamma(3, 400, beta).appendix,
        mode,
        d,
        low,
        high,
        want.best,
        ENV,
        POLICY,
        checkpoints,
    )
    assert list(plays[1:]) == want.history
    np.testing.assert_array_equal(regret, want.regret[1:])
    game_regret, game_plays = play_ars_exp3(
        labels, 3, beta, mode, d, low, high, ENV, POLICY, checkpoints
    )
    np.testing.assert_array_equal(game_regret, regret)
    np.testing.assert_array_equal(game_plays, plays)


@pytest.mark.parametrize("mode, d, low, high", GAMES)
@pytest.mark.parametrize("d_hat", [1, 2, 3])
def test_clw_follows_its_block_rule_slot_by_slot(mode, d, low, high, d_hat):
    labels = _stream(400, [0.5, 0.2, 0.2, 0.1], seed=1)
    checkpoints = np.arange(1, 401, dtype=np.int64)
    want = reference_clw(labels, 4, d_hat, mode, d, low, high)
    regret, plays = run_clw(
        labels,
        4,
        d_hat,
        clw_gamma(4, 400, d_hat),
        mode,
        d,
        low,
        high,
        want.best,
        ENV,
        POLICY,
        checkpoints,
    )
    assert list(plays[1:]) == want.history
    np.testing.assert_array_equal(regret, want.regret[1:])
    assert len(set(want.history)) > 1  # the trajectory switches arms: blocks were ended


def test_block_ends_against_the_rule_and_blocks_last_2d():
    T, d_hat = 5000, 4
    ends = block_ends(T, d_hat, POLICY)
    B = np.array(
        [False]
        + [uniform(POLICY, 2 * t) < 1 / (2 * d_hat) for t in range(1, T + 1)]
        + [False] * (2 * d_hat)
    )
    brute = [bool(B[t] and not B[t + 1 : t + 2 * d_hat].any()) for t in range(1, T + 1)]
    assert list(ends[1:]) == brute
    gaps = np.diff(np.flatnonzero(ends))
    assert gaps.min() >= 2 * d_hat
    # P[t ends a block] = q (1 − q)^{2d̂ − 1}: 0.125 · 0.875^7 = 0.0491 (binomial s.e. 0.003)
    assert ends[1 : T - 2 * d_hat].mean() == pytest.approx(0.125 * 0.875**7, abs=0.012)


def test_the_non_oblivious_delay_needs_3d_best_pulls_in_a_row():
    d, best = 3, 1
    assert adv._delay(adv.NON_OBLIVIOUS, 50, best, best, 3 * d, d, 1, 1, ENV) == d
    assert adv._delay(adv.NON_OBLIVIOUS, 50, best, best, 3 * d - 1, d, 1, 1, ENV) == 1
    assert adv._delay(adv.NON_OBLIVIOUS, 50, 0, best, 3 * d, d, 1, 1, ENV) == 1
    # In a game: the best arm (label 1 everywhere) played from slot 1 is delayed from slot
    # 3d + 1 on; its reward of slot 3d + 1 arrives at 4d + 1, not 3d + 2.
    labels = np.ones(20, np.int64)
    arrivals, counts, state = np.zeros(22), np.zeros(2), np.zeros(4)
    plays = np.zeros(21, np.int64)
    adv._play_run(
        1,
        3 * d + 1,
        best,
        labels,
        adv.NON_OBLIVIOUS,
        d,
        1,
        1,
        best,
        ENV,
        arrivals,
        counts,
        state,
        np.zeros(0, np.int64),
        np.zeros(0),
        plays,
    )
    assert list(np.flatnonzero(arrivals)) == list(range(2, 3 * d + 2)) + [4 * d + 1]
    assert state[2] == 3 * d + 1  # the streak


def test_oblivious_delays_are_uniform_on_their_range():
    z = np.array([adv._delay(adv.OBLIVIOUS, t, 0, 0, 0, 20, 10, 20, ENV) for t in range(1, 22001)])
    assert z.min() == 10 and z.max() == 20
    np.testing.assert_allclose(np.bincount(z)[10:] / z.size, 1 / 11, atol=0.006)
    # and they do not depend on the play
    assert adv._delay(adv.OBLIVIOUS, 7, 3, 0, 99, 20, 10, 20, ENV) == z[6]


@pytest.mark.parametrize("runner", ["ars_exp3", "clw"])
def test_regret_is_the_best_label_count_minus_the_gain(runner):
    labels = _stream(20_000, [0.5, 0.3, 0.2], seed=3)
    checkpoints = np.array([100, 5000, 20_000], np.int64)
    if runner == "ars_exp3":
        sizes = np.array([math.ceil(k**0.5) for k in range(1, exp3_rounds(20_000, 0.5).K + 1)])
        regret, plays = run_ars_exp3(
            labels, 3, sizes, 0.3, adv.OBLIVIOUS, 5, 1, 5, 0, ENV, POLICY, checkpoints
        )
    else:
        regret, plays = run_clw(
            labels, 3, 5, 0.3, adv.OBLIVIOUS, 5, 1, 5, 0, ENV, POLICY, checkpoints
        )
    for value, t in zip(regret, checkpoints):
        best = np.bincount(labels[:t], minlength=3).max()
        assert value == best - np.sum(plays[1 : t + 1] == labels[:t])


def test_ars_exp3_learns_a_dominant_label():
    """Labels i.i.d. with shares (0.6, 0.1, 0.1, 0.1, 0.1): uniform play loses (0.6 − 0.2)·T
    = 80,000 at T = 2·10^5; ARS-EXP3 (β = 1/2) loses 18,900 (measured; the test allows 40,000), and
    its regret per slot falls over time."""
    T = 200_000
    labels = _stream(T, [0.6, 0.1, 0.1, 0.1, 0.1], seed=4)
    checkpoints = np.array([T // 10, T], np.int64)
    regret, _ = play_ars_exp3(labels, 5, 0.5, adv.OBLIVIOUS, 5, 1, 5, ENV, POLICY, checkpoints)
    assert regret[-1] < 0.5 * 0.4 * T
    assert regret[-1] / T < regret[0] / (T // 10)


def test_weights_never_overflow_on_a_single_label_stream():
    T = 1_000_000
    labels = np.zeros(T, np.int64)
    checkpoints = np.array([T], np.int64)
    sizes = np.array([math.ceil(k**0.5) for k in range(1, exp3_rounds(T, 0.5).K + 1)])
    regret, plays = run_ars_exp3(
        labels,
        7,
        sizes,
        ars_exp3_gamma(7, T, 0.5).appendix,
        adv.NON_OBLIVIOUS,
        10,
        1,
        1,
        0,
        ENV,
        POLICY,
        checkpoints,
    )
    assert np.isfinite(regret).all() and 0 < regret[0] < T
    assert np.mean(plays[-T // 10 :] == 0) > 0.9  # it ends up on the only paying arm


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: play_ars_exp3(np.array([0, 1]), 2, 1.5, 0, 1, 1, 1, ENV, POLICY, [1]), "beta"),
        (
            lambda: play_ars_exp3(np.array([0, 3]), 2, 0.5, 0, 1, 1, 1, ENV, POLICY, [1]),
            "labels",
        ),
        (lambda: play_clw(np.array([0, 1]), 2, 0, 0, 1, 1, 1, ENV, POLICY, [1]), "d_hat"),
        (lambda: play_clw(np.array([0, 1]), 2, 1.5, 0, 1, 1, 1, ENV, POLICY, [1]), "d_hat"),
        (lambda: play_clw(np.array([0, 1]), 2, 1, 1, 5, 6, 5, ENV, POLICY, [1]), "low <= high"),
        (lambda: play_clw(np.array([0, 1]), 2, 1, 1, 5, 0, 5, ENV, POLICY, [1]), "1 <= low"),
        (lambda: play_clw(np.array([0, 1]), 2, 1, 2, 5, 1, 5, ENV, POLICY, [1]), "mode"),
    ],
)
def test_bad_game_inputs_are_refused(call, message):
    with pytest.raises(ValueError, match=message):
        call()
