"""The batched Beta draws of the TS reduction (App. E.1, eq. (32)): ``core.sim.beta_blocks``, its
vectorisable uniform (``_open_unit_lanes``) and its division-free first-try test (``_series_test``).

The TS kernel draws θ_{i,k} ~ Beta(1 + S, 1 + F) for every pair every round; its traces must not
depend on how the draws are computed, so these tests hold the fast paths to the plain ones: the
same uniforms bit for bit, a series bound that lies below the exact test's exponent (that the
test only accepts what Marsaglia–Tsang's exact test accepts is in tests/test_core_rng.py),
and the same Beta draws as ``beta_block`` pair by pair, with shapes from 1 (where the exact
continuation often runs) to 1e5.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from timebandits.core.sim.beta_blocks import (
    BETA_BLOCK,
    _open_unit_lanes,
    _series_test,
    beta_block,
    beta_blocks,
)
from timebandits.core.sim.jit import njit
from timebandits.core.sim.rng import _open_unit, gamma_constants, splitmix64


@njit(cache=True)
def _units(bits):
    plain = np.empty(bits.size)
    lanes = np.empty(bits.size)
    for k in range(bits.size):
        plain[k] = _open_unit(bits[k])
        lanes[k] = _open_unit_lanes(bits[k])
    return plain, lanes


@njit(cache=True)
def _stream(key, n):
    out = np.empty(n, np.uint64)
    for k in range(n):
        out[k] = splitmix64(key, k)
    return out


def test_open_unit_lanes_is_open_unit_bit_for_bit():
    """Edges of the 53-bit cell index m = bits >> 11 (0, 2^52 − 1, 2^52, odd m ≥ 2^52 where
    m + 1/2 rounds to even, 2^53 − 1) and a million generator outputs."""
    m = np.array(
        [0, 1, 2, 3, 2**52 - 1, 2**52, 2**52 + 1, 2**52 + 3, 2**53 - 2, 2**53 - 1], dtype=np.uint64
    )
    low = np.array([0, 1, 2**11 - 1], dtype=np.uint64)
    edges = ((m[:, None] << np.uint64(11)) | low[None, :]).ravel()
    bits = np.concatenate([edges, _stream(np.uint64(99), 1_000_000)])
    plain, lanes = _units(bits)
    assert plain.view(np.uint64).tolist() == lanes.view(np.uint64).tolist()


def _exact_exponent(d, y):
    """x²/2 + d(1 − v + ln v) for y = c·x, 9dc² = 1, v = (1 + y)³, written as
    3d·Σ_{n≥4} (−1)^{n+1} yⁿ/n: by its series where it converges fast, else by log1p."""
    if abs(y) <= 0.5:
        return 3.0 * d * math.fsum((-1) ** (n + 1) * y**n / n for n in range(4, 80))
    return 3.0 * d * (math.log1p(y) - y + y * y / 2.0 - y**3 / 3.0)


@pytest.mark.parametrize("shape", [1.0, 2.0, 30.0, 1e5])
def test_series_test_bounds_the_exact_exponent_and_is_sharp(shape):
    """On a grid of y ∈ (−1, 1.5): the test accepts u − 1 just below its bound
    3d(−y⁴/4 + y⁵/5 − y⁶/(6t)) and rejects it just above; that bound lies below the exact
    exponent, by at most d·y⁶/(2t) (t = 1 + min(y, 0))."""
    d = gamma_constants(shape)[0]
    for y in np.concatenate([np.linspace(-0.999, 1.5, 2001), [0.0, 1e-3, -1e-3]]):
        t = 1.0 + min(y, 0.0)
        bound = 3.0 * d * (-(y**4) / 4.0 + y**5 / 5.0 - y**6 / (6.0 * t))
        exact = _exact_exponent(d, y)
        slack = 1e-12 * (1.0 + abs(exact))
        assert bound <= exact + slack
        assert exact - bound <= d * y**6 / (2.0 * t) + slack
        if -1.0 < bound - slack and bound + slack < 0.0:
            assert _series_test(d, y, 1.0 + bound - slack)
            assert not _series_test(d, y, 1.0 + bound + slack)


def test_beta_blocks_is_beta_block_at_thompson_posteriors():
    """200 rounds of 150 pairs whose shapes run from Beta(1, 1) (the TS prior) to 1e5 trials:
    every draw equals beta_block's from the same block, including the ~3% that leave the
    vectorised passes (ziggurat wedges and tail, Marsaglia–Tsang rejections)."""
    rng = np.random.default_rng(8)
    a = np.concatenate(
        [np.ones(30), np.floor(rng.uniform(1, 20, 40)), np.floor(10 ** rng.uniform(1, 5, 80))]
    )
    b = np.concatenate(
        [np.floor(rng.uniform(1, 5, 30)), np.ones(40), np.floor(10 ** rng.uniform(0, 4, 80))]
    )
    da, ca = np.array([gamma_constants(x) for x in a]).T.copy()
    db, cb = np.array([gamma_constants(x) for x in b]).T.copy()
    bits, out = np.empty(4 * a.size, np.uint64), np.empty(a.size)
    key = np.uint64(2023)
    for round_ in range(200):
        counter = 5 + round_ * a.size * BETA_BLOCK
        beta_blocks(da, ca, db, cb, key, counter, bits, out)
        one_by_one = [
            beta_block(da[p], ca[p], db[p], cb[p], key, counter + p * BETA_BLOCK)
            for p in range(a.size)
        ]
        assert out.tolist() == one_by_one
