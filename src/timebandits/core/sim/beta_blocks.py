"""Block-wise Beta draws for Thompson sampling: Beta(a, b) = Gamma(a)/(Gamma(a) + Gamma(b)) for
shapes a, b ≥ 1, one draw per block of ``BETA_BLOCK`` = 2^12 uniforms of the counter-based
generator of :mod:`timebandits.core.sim.rng`, so that every draw stays addressable.

Gamma is Marsaglia & Tsang's (ACM TOMS 26(3), 2000), as :func:`timebandits.core.sim.rng.gamma`, with
both first tries drawn together and tested without branches (a squeeze that is nearly as sharp as
the exact test); a try that is not accepted at once is finished, and followed by
:func:`timebandits.core.sim.rng.gamma`, from uniforms of its own part of the block. A first try's
normal is the 256-layer ziggurat (8 bits pick the layer; Marsaglia & Tsang, J. Stat. Softw. 5(8),
2000): its rectangles hold 98.5% of the tries against 97.2% for the 128 layers of
:func:`timebandits.core.sim.rng.normal`, and a try outside them costs its pair about 60 ns more.
  beta_block   one draw
  beta_blocks  many at once in vectorised passes (a uniform without 64-bit integer conversion,
               :func:`_open_unit_lanes`, and a division-free first-try test, :func:`_series_test`),
               bit-identical to beta_block pair by pair
"""

from __future__ import annotations

import math

import numpy as np

from timebandits.core.sim.jit import intrinsic, njit
from timebandits.core.sim.rng import (
    _GAMMA,
    _S11,
    _TWO_POW_MINUS_53,
    _WIDE_BITS,
    _WIDE_EDGE,
    _WIDE_R,
    _WIDE_RATIO,
    _normal_after_rectangle,
    _open_unit,
    gamma,
    open_uniform,
    splitmix64,
)

_S63 = np.uint64(63)
_MANTISSA = np.uint64((1 << 52) - 1)
_TWO_POW_52 = np.uint64(0x4330000000000000)  # the bit pattern of 2.0**52
BETA_BLOCK = 1 << 12  # the uniforms of one beta_block draw
_BLOCK_STEP = np.uint64(BETA_BLOCK * 0x9E3779B97F4A7C15 % 2**64)  # a block's SplitMix64 steps


@intrinsic
def _as_double(typingctx, bits):
    """The float64 whose IEEE 754 bit pattern is the uint64 ``bits``."""
    from llvmlite import ir
    from numba import types

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.DoubleType())

    return types.float64(types.uint64), codegen


@njit(cache=True, inline="always")
def _open_unit_lanes(bits):
    """:func:`_open_unit` without a 64-bit integer conversion (AVX2 has none, so loops of it do not
    vectorise), bit for bit: the top 53 bits m = 2^52·h + l (l < 2^52) are exactly the double
    (2^52 + l) − 2^52 + 2^52·h, where 2^52 + l has the bit pattern of 2^52 with mantissa l."""
    low = _as_double(((bits >> _S11) & _MANTISSA) | _TWO_POW_52) - 4503599627370496.0
    return (low + _as_double((bits >> _S63) * _TWO_POW_52) + 0.5) * _TWO_POW_MINUS_53


@njit(cache=True, inline="always", error_model="numpy")
def _gamma_first_try(d, c, bits, u):
    """The first Marsaglia–Tsang try of Gamma(shape ≥ 1) from its normal's 64 bits and its
    acceptance uniform u, without a branch: ``(d·v, accepted)``. Accepted means that the ziggurat
    rectangle holds x, that v = (1 + y)³ > 0 with y = c·x, and that

        u − 1 < x²/2 + d·(1 − v + 3ℓ),  ℓ = 2(s + s³/3 + min(s, 0)⁵/(5(1 − s²))),  s = y/(2 + y),

    where ℓ ≤ 2·atanh(s) = ln(1 + y) (the series' tail, bounded geometrically when s < 0).
    As ln u ≤ u − 1, this implies Marsaglia–Tsang's test ln u < x²/2 + d(1 − v + ln v); it misses
    an acceptance only when that test's margin is of the order of its square. 1 − v + 3ℓ is
    written as −3y²/(2 + y) − 3y² − y³ + 2s³ + …, free of the cancellation of 1 − v + ln v."""
    layer = np.int64(bits & _WIDE_BITS)
    w = 2.0 * _open_unit(bits) - 1.0
    x = w * _WIDE_EDGE[layer]
    y = c * x
    s = y / (2.0 + y)
    s2 = s * s
    negative = min(s, 0.0)
    bracket = (
        -3.0 * y * y / (2.0 + y)
        - 3.0 * y * y
        - y * y * y
        + 2.0 * s * s2
        + 1.2 * negative * negative * negative * negative * negative / (1.0 - s2)
    )
    base = 1.0 + y
    accepted = (abs(w) < _WIDE_RATIO[layer]) & (base > 0.0) & (u - 1.0 < 0.5 * x * x + d * bracket)
    return d * (base * base * base), accepted


@njit(cache=True, inline="always")
def _series_test(d, y, u):
    """Whether u − 1 lies below a lower bound of Marsaglia–Tsang's x²/2 + d(1 − v + ln v), for
    y = c·x > −1 and v = (1 + y)³ (so then ln u < that: the try is accepted). As 9dc² = 1 the
    latter is 3d·Σ_{n≥4} (−1)^{n+1} yⁿ/n, at least

        3d·(−y⁴/4 + y⁵/5 − y⁶/(6t)),  t = 1 if y ≥ 0 (the remainder after an even power of
                                      ln(1 + y) is positive), t = 1 + y if y < 0 (a geometric tail);

    the test is multiplied by t > 0, which leaves it free of divisions."""
    t = 1.0 + min(y, 0.0)
    y2 = y * y
    return (u - 1.0) * t < d * y2 * y2 * ((0.6 * y - 0.75) * t - 0.5 * y2)


@njit(cache=True)
def _gamma_after_first_try(d, c, bits, u, key, counter):
    """Gamma(shape ≥ 1) when the fast tests of :func:`_gamma_first_try` did not accept: that try
    is finished (the rest of its normal's ziggurat step, Marsaglia–Tsang's logarithmic test, whose
    logarithms are skipped when :func:`_series_test` accepts), and a rejected one is followed by
    :func:`gamma` from uniform ``counter`` on."""
    layer = np.int64(bits & _WIDE_BITS)
    w = 2.0 * _open_unit(bits) - 1.0
    if abs(w) < _WIDE_RATIO[layer]:
        x = w * _WIDE_EDGE[layer]
    else:
        x, counter = _normal_after_rectangle(
            layer, w, key, counter, _WIDE_EDGE, _WIDE_RATIO, _WIDE_BITS, _WIDE_R
        )
    y = c * x
    v = 1.0 + y
    if v > 0.0:
        v = v * v * v
        if _series_test(d, y, u) or math.log(u) < 0.5 * x * x + d * (1.0 - v + math.log(v)):
            return d * v
    return gamma(d + 1.0 / 3.0, d, c, key, counter)[0]


@njit(cache=True)
def beta_block(da, ca, db, cb, key, counter):
    """Beta(a, b) = Gamma(a)/(Gamma(a) + Gamma(b)) for shapes a, b ≥ 1, given the Marsaglia–Tsang
    constants (da, ca), (db, cb) of :func:`gamma_constants`, from its own block of ``BETA_BLOCK``
    = 2^12 uniforms starting at ``counter``: the first tries of Gamma(a) and Gamma(b) take
    uniforms 0–1 and 2–3; what follows a try that is not accepted at once takes uniforms from 4
    (Gamma(a)) and 2^11 (Gamma(b)) on."""
    ga, accepted_a = _gamma_first_try(
        da, ca, splitmix64(key, counter), open_uniform(key, counter + 1)
    )
    gb, accepted_b = _gamma_first_try(
        db, cb, splitmix64(key, counter + 2), open_uniform(key, counter + 3)
    )
    if not accepted_a:
        ga = _gamma_after_first_try(
            da, ca, splitmix64(key, counter), open_uniform(key, counter + 1), key, counter + 4
        )
    if not accepted_b:
        gb = _gamma_after_first_try(
            db,
            cb,
            splitmix64(key, counter + 2),
            open_uniform(key, counter + 3),
            key,
            counter + 2048,
        )
    return ga / (ga + gb)


@njit(cache=True, inline="always")
def _gamma_first_try_series(d, c, bits, u):
    """:func:`_gamma_first_try` with :func:`_series_test` (no division) and
    :func:`_open_unit_lanes`: the same value; an acceptance that only one of the two tests makes
    is decided the same way by the exact test of :func:`_gamma_after_first_try`, up to rounding
    (within ~1e-12 of its boundary with u within ~1e-6 of 1: a chance of order 1e-18)."""
    layer = np.int64(bits & _WIDE_BITS)
    w = 2.0 * _open_unit_lanes(bits) - 1.0
    x = w * _WIDE_EDGE[layer]
    y = c * x
    base = 1.0 + y
    accepted = (abs(w) < _WIDE_RATIO[layer]) & (base > 0.0) & _series_test(d, y, u)
    return d * (base * base * base), accepted


@njit(cache=True, error_model="numpy")
def beta_blocks(da, ca, db, cb, key, counter, bits, out):
    """``out[p]`` = :func:`beta_block` of pair p from the block at ``counter + p·BETA_BLOCK``, for
    every p, in three passes: the first tries' uniforms of all pairs (into ``bits``, size
    4·len(out), uniform r of pair p at r·len(out) + p), their tests
    (:func:`_gamma_first_try_series`; both passes are vectorised), then the few pairs that the
    tests did not accept, from where :func:`beta_block` goes on. Bit-identical to calling it pair
    by pair."""
    size = out.size
    block_key = key + np.uint64(counter) * _GAMMA  # uniform r of block p: splitmix64(block_key, r)
    for p in range(size):
        for r in range(4):
            bits[r * size + p] = splitmix64(block_key, r)
        block_key += _BLOCK_STEP
    pending = 0
    for p in range(size):
        ga, accepted_a = _gamma_first_try_series(
            da[p], ca[p], bits[p], _open_unit_lanes(bits[size + p])
        )
        gb, accepted_b = _gamma_first_try_series(
            db[p], cb[p], bits[2 * size + p], _open_unit_lanes(bits[3 * size + p])
        )
        out[p] = ga / (ga + gb) if accepted_a & accepted_b else -1.0
        pending += not (accepted_a & accepted_b)
    for p in range(size if pending else 0):
        if out[p] < 0.0:
            ua, ub = _open_unit(bits[size + p]), _open_unit(bits[3 * size + p])
            ga, accepted_a = _gamma_first_try_series(da[p], ca[p], bits[p], ua)
            gb, accepted_b = _gamma_first_try_series(db[p], cb[p], bits[2 * size + p], ub)
            start = counter + p * BETA_BLOCK
            if not accepted_a:
                ga = _gamma_after_first_try(da[p], ca[p], bits[p], ua, key, start + 4)
            if not accepted_b:
                gb = _gamma_after_first_try(db[p], cb[p], bits[2 * size + p], ub, key, start + 2048)
            out[p] = ga / (ga + gb)
