"""The game loops' window feedback (environment.window_feedback, issue 24): the feedback observed in
a run of slots t1..t2, Σ_u X_u·[W(t2 − u) − W(t1 − 1 − u)] (for a delay Σ_u X_u·1{t1 ≤ u + z_u ≤
t2}), against that sum taken directly, for every kernel kind; and bit for bit the direct
``window_sum`` it replaces in the game loops, on the polynomial kernels' exact path too."""

from __future__ import annotations

import math

import numpy as np
import pytest

from timebandits.anonymous.environment import pull, window_feedback, window_state, window_sum
from timebandits.anonymous.spread_kernel import DELAY, Kernel

MEANS = np.array([0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1])
KERNELS = [
    {"kind": "delay", "low": 10, "high": 30},
    {"kind": "delay", "low": 0, "high": 60},
    {"kind": "bounded", "dmin": 30, "dmax": 40},
    {"kind": "linear_decreasing", "d": 50},
    {"kind": "linear_increasing", "d": 100},
    {"kind": "discounted", "ratio": 0.9},
    {"kind": "polynomial", "exponent": 3},
    {"kind": "polynomial", "exponent": 2},
    {"kind": "polynomial", "exponent": 1.5},
    {"kind": "weights", "weights": [0.1, 0.0, 0.3, 0.6]},
]
# The kernels whose window sums run over every earlier pull and whose W(n) lie on the grid of
# 2^-53 (W(1) = 1/ζ(γ) ≥ 1/2): the exact path. For γ = 1.5, W(1) = 0.38 is finer than the grid.
EXACT = [{"kind": "polynomial", "exponent": 3}, {"kind": "polynomial", "exponent": 2}]


def _game(spec, horizon, seed):
    """Totals (and delays) of ``horizon`` pulls of random arms, the kernel's W and reach."""
    kernel = Kernel.from_config(spec)
    low, high = spec.get("low", 0), spec.get("high", 0)
    totals = np.zeros(horizon + 1, np.uint8)
    delays = np.zeros(horizon + 1, np.int64)
    arms = np.random.default_rng(seed).integers(0, MEANS.size, horizon + 1)
    for u in range(1, horizon + 1):
        pull(MEANS[arms[u]], u, np.uint64(seed), kernel.code, low, high, totals, delays)
    return (
        kernel,
        totals,
        delays,
        kernel.cumulative(horizon + 1),
        int(min(kernel.window_reach, horizon)),
    )


def _windows(horizon, count, seed, contiguous=True):
    """Random windows (t1, t2) within 1..horizon: consecutive runs of slots, as the game loops
    ask for them, or (``contiguous=False``) each anywhere."""
    rng = np.random.default_rng(seed)
    if contiguous:
        edges = np.sort(rng.choice(np.arange(2, horizon + 1), count - 1, replace=False))
        return list(zip(np.concatenate([[1], edges]), np.concatenate([edges - 1, [horizon]])))
    ends = np.sort(rng.integers(1, horizon + 1, (count, 2)), axis=1)
    return [(int(a), int(b)) for a, b in ends]


def _direct(first, last, kernel, totals, delays, cumulative):
    """Σ_{u ≤ last} X_u·[W(last − u) − W(first − 1 − u)] (W(n) = 0 for n < 0), or for a delay
    Σ_u X_u·1{first ≤ u + z_u ≤ last}, over every earlier pull, in exact rational terms."""
    u = np.arange(1, last + 1)
    x = totals[1 : last + 1].astype(float)
    if kernel.code == DELAY:
        return float(
            x[(u + delays[1 : last + 1] >= first) & (u + delays[1 : last + 1] <= last)].sum()
        )
    before = first - 1 - u
    spread = cumulative[last - u] - np.where(before >= 0, cumulative[np.maximum(before, 0)], 0.0)
    return math.fsum(x * spread)


@pytest.mark.parametrize("contiguous", [True, False])
@pytest.mark.parametrize("spec", KERNELS)
def test_window_feedback_is_the_direct_sum(spec, contiguous):
    """On random windows, within 1e-9 of the direct sum over every earlier pull (the discounted
    kernel's skipped pulls add less than 1e-12: spread_kernel.Kernel.window_reach), and not all
    zero."""
    horizon = 6000
    kernel, totals, delays, cumulative, reach = _game(spec, horizon, 3)
    state = window_state(kernel.code, cumulative, reach, horizon)
    observed = [
        (
            window_feedback(first, last, totals, delays, kernel.code, cumulative, reach, state),
            _direct(first, last, kernel, totals, delays, cumulative),
        )
        for first, last in _windows(horizon, 60, 4, contiguous)
    ]
    fast, direct = np.array(observed).T
    np.testing.assert_allclose(fast, direct, rtol=0, atol=1e-9)
    assert direct.max() > 1.0


@pytest.mark.parametrize("spec", KERNELS)
def test_window_feedback_takes_the_exact_path_only_where_it_holds(spec):
    """The polynomial kernels with W(1) ≥ 1/2 convolve exactly (their state is not empty); the
    others sum each window directly."""
    horizon = 2000
    kernel, _, _, cumulative, reach = _game(spec, horizon, 5)
    state = window_state(kernel.code, cumulative, reach, horizon)
    assert (state[4].size > 0) == (spec in EXACT)


@pytest.mark.parametrize(
    "horizon, lengths", [(60_000, (1, 40)), (60_000, (500, 4000)), (600_000, (5000, 60_000))]
)
@pytest.mark.parametrize("spec", EXACT)
def test_exact_path_is_window_sum_bit_for_bit(spec, horizon, lengths):
    """The game loops' windows (consecutive runs of slots, short ones and long ones) give the same
    floats as ``window_sum`` over every earlier pull, through the dense and the sparse part of the
    convolution (the latter at T = 6·10^5; for γ = 3 past the point where W stops changing);
    and a window out of order (not after the last one) too."""
    kernel, totals, delays, cumulative, reach = _game(spec, horizon, 6)
    state = window_state(kernel.code, cumulative, reach, horizon)
    assert state[2].size > 0 or horizon < 100_000  # the sparse part is used
    rng = np.random.default_rng(7)
    first, fast, direct = 1, [], []
    while first <= horizon:
        last = min(first + int(rng.integers(*lengths)) - 1, horizon)
        fast.append(
            window_feedback(first, last, totals, delays, kernel.code, cumulative, reach, state)
        )
        direct.append(window_sum(first, last, totals, delays, kernel.code, cumulative, reach))
        first = last + 1
    assert fast == direct
    assert max(direct) > 1.0
    middle = horizon // 2
    assert window_feedback(
        middle, middle + 99, totals, delays, kernel.code, cumulative, reach, state
    ) == window_sum(middle, middle + 99, totals, delays, kernel.code, cumulative, reach)
