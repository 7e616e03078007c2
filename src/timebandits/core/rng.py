"""Counter-based uniform random numbers for compiled kernels.

``uniform(key, counter)`` is the SplitMix64 output (Steele, Lea & Flood, OOPSLA 2014) at position
``counter`` of the stream whose state starts at ``key``: the state after ``counter + 1`` steps is
``key + (counter + 1) * GAMMA`` and the output is its finaliser. Because a draw is a pure function
of (key, counter), an environment can address "the delay of macro-arm k in epoch s" directly:
every algorithm of a repetition sees exactly the same draw for the same (s, k) -- common random
numbers -- without storing or pre-drawing anything, and the result does not depend on how many
draws other code made before.

Continuous draws that need a variable number of uniforms (rejection samplers) take the counter of
their first uniform and return ``(value, next counter)``: a caller that gives each draw its own
counter block (e.g. ``pull · 2^20``) keeps every draw addressable.
  normal  Marsaglia & Tsang's ziggurat (J. Stat. Softw. 5(8), 2000) in Doornik's ZIGNOR form
          (128 layers, one 64-bit output per try: 7 bits pick the layer, 53 bits the abscissa)
  gamma   Marsaglia & Tsang (ACM TOMS 26(3), 2000) for shape k ≥ 1, with its squeeze; shapes
          k < 1 use Gamma(k) = Gamma(k + 1)·U^{1/k}
  beta    Gamma(a)/(Gamma(a) + Gamma(b))
  beta_block, beta_blocks  the same for shapes ≥ 1, one draw per block of 2^12 uniforms, with
          both first tries drawn together and tested without branches (a squeeze that is nearly
          as sharp as the exact test); beta_blocks draws many at once in vectorised passes
  binomial  exact, by Devroye's order-statistic recursion on beta draws (O(log n) of them), so
          that a window of a million plays costs a few dozen uniforms
"""

from __future__ import annotations

import math

import numpy as np

from .jit import intrinsic, njit

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_ONE = np.uint64(1)
_TWO_POW_MINUS_53 = 1.0 / 9007199254740992.0
_S63 = np.uint64(63)
_MANTISSA = np.uint64((1 << 52) - 1)
_TWO_POW_52 = np.uint64(0x4330000000000000)  # the bit pattern of 2.0**52


@njit(cache=True)
def splitmix64(key, counter):
    """The SplitMix64 output number ``counter`` (0-based) of the stream seeded with ``key``."""
    z = key + (np.uint64(counter) + _ONE) * _GAMMA
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True)
def uniform(key, counter):
    """A uniform number in [0, 1) with 53 random bits: draw number ``counter`` of stream ``key``."""
    return np.float64(splitmix64(key, counter) >> _S11) * _TWO_POW_MINUS_53


@njit(cache=True, inline="always")
def _open_unit(bits):
    """The midpoint of the 53-bit cell that the top bits of a 64-bit output pick, in (0, 1)."""
    return (np.float64(bits >> _S11) + 0.5) * _TWO_POW_MINUS_53


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


@njit(cache=True)
def open_uniform(key, counter):
    """A uniform number in the open interval (0, 1) (the midpoint of a 53-bit cell), for logs."""
    return _open_unit(splitmix64(key, counter))


# ZIGNOR constants (Doornik 2005): the base strip's right edge R and the common layer area V.
_ZIGGURAT_R = 3.442619855899
_ZIGGURAT_V = 9.91256303526217e-3
_LAYER_BITS = np.uint64(127)
BETA_BLOCK = 1 << 12  # the uniforms of one beta_block draw
_BLOCK_STEP = np.uint64(BETA_BLOCK * 0x9E3779B97F4A7C15 % 2**64)  # a block's SplitMix64 steps


def _ziggurat_tables():
    """Layer edges x_0 > x_1 = R > … > x_128 = 0 (x_0 = V/f(R) closes the base strip) and the
    ratios x_{i+1}/x_i under which a try is accepted at once."""
    x = np.empty(129)
    density = math.exp(-0.5 * _ZIGGURAT_R * _ZIGGURAT_R)
    x[0] = _ZIGGURAT_V / density
    x[1] = _ZIGGURAT_R
    x[128] = 0.0
    for i in range(2, 128):
        x[i] = math.sqrt(-2.0 * math.log(_ZIGGURAT_V / x[i - 1] + density))
        density = math.exp(-0.5 * x[i] * x[i])
    return x, x[1:] / x[:-1]


_LAYER_EDGE, _LAYER_RATIO = _ziggurat_tables()


@njit(cache=True)
def _normal_after_rectangle(layer, u, key, counter):
    """The rest of :func:`normal` once the first try (layer, u) missed its rectangle: that try's
    tail or wedge test, then further tries from uniform number ``counter``."""
    while True:
        if layer == 0:  # the tail beyond R (Marsaglia 1964)
            while True:
                x = math.log(open_uniform(key, counter)) / _ZIGGURAT_R
                y = math.log(open_uniform(key, counter + 1))
                counter += 2
                if -2.0 * y >= x * x:
                    return (x - _ZIGGURAT_R if u < 0.0 else _ZIGGURAT_R - x), counter
        x = u * _LAYER_EDGE[layer]
        upper = math.exp(-0.5 * (_LAYER_EDGE[layer] ** 2 - x * x))
        lower = math.exp(-0.5 * (_LAYER_EDGE[layer + 1] ** 2 - x * x))
        accept = lower + open_uniform(key, counter) * (upper - lower) < 1.0
        counter += 1
        if accept:
            return x, counter
        bits = splitmix64(key, counter)
        counter += 1
        layer = np.int64(bits & _LAYER_BITS)
        u = 2.0 * _open_unit(bits) - 1.0
        if abs(u) < _LAYER_RATIO[layer]:
            return u * _LAYER_EDGE[layer], counter


@njit(cache=True, inline="always")
def normal(key, counter):
    """A standard normal draw starting at uniform number ``counter``: ``(z, next counter)``. The
    common case (one uniform inside its layer's rectangle) is inlined into the caller."""
    bits = splitmix64(key, counter)
    layer = np.int64(bits & _LAYER_BITS)
    u = 2.0 * _open_unit(bits) - 1.0
    if abs(u) < _LAYER_RATIO[layer]:
        return u * _LAYER_EDGE[layer], counter + 1
    return _normal_after_rectangle(layer, u, key, counter + 1)


@njit(cache=True)
def gamma_constants(shape):
    """(d, c) = (k' − 1/3, 1/sqrt(9d)) of Marsaglia–Tsang for k' = max(shape, shape + 1 if
    shape < 1): cache them when the same shape is drawn many times."""
    boosted = shape + 1.0 if shape < 1.0 else shape
    d = boosted - 1.0 / 3.0
    return d, 1.0 / math.sqrt(9.0 * d)


@njit(cache=True, inline="always")
def gamma(shape, d, c, key, counter):
    """A Gamma(shape, 1) draw with the constants of :func:`gamma_constants`: ``(g, next counter)``
    (inlined into the caller, like the common case of :func:`normal`)."""
    while True:
        x, counter = normal(key, counter)
        v = 1.0 + c * x
        if v <= 0.0:
            continue
        v = v * v * v
        u = open_uniform(key, counter)
        counter += 1
        x2 = x * x
        if u < 1.0 - 0.0331 * x2 * x2 or math.log(u) < 0.5 * x2 + d * (1.0 - v + math.log(v)):
            break
    if shape < 1.0:
        boost = open_uniform(key, counter) ** (1.0 / shape)
        return d * v * boost, counter + 1
    return d * v, counter


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
    layer = np.int64(bits & _LAYER_BITS)
    w = 2.0 * _open_unit(bits) - 1.0
    x = w * _LAYER_EDGE[layer]
    y = c * x
    s = y / (2.0 + y)
    s2 = s * s
    negative = min(s, 0.0)
    bracket = (-3.0 * y * y / (2.0 + y) - 3.0 * y * y - y * y * y + 2.0 * s * s2
               + 1.2 * negative * negative * negative * negative * negative / (1.0 - s2))
    base = 1.0 + y
    accepted = ((abs(w) < _LAYER_RATIO[layer]) & (base > 0.0)
                & (u - 1.0 < 0.5 * x * x + d * bracket))
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
    layer = np.int64(bits & _LAYER_BITS)
    w = 2.0 * _open_unit(bits) - 1.0
    if abs(w) < _LAYER_RATIO[layer]:
        x = w * _LAYER_EDGE[layer]
    else:
        x, counter = _normal_after_rectangle(layer, w, key, counter)
    y = c * x
    v = 1.0 + y
    if v > 0.0:
        v = v * v * v
        if (_series_test(d, y, u)
                or math.log(u) < 0.5 * x * x + d * (1.0 - v + math.log(v))):
            return d * v
    return gamma(d + 1.0 / 3.0, d, c, key, counter)[0]


@njit(cache=True)
def beta_block(da, ca, db, cb, key, counter):
    """Beta(a, b) = Gamma(a)/(Gamma(a) + Gamma(b)) for shapes a, b ≥ 1, given the Marsaglia–Tsang
    constants (da, ca), (db, cb) of :func:`gamma_constants`, from its own block of ``BETA_BLOCK``
    = 2^12 uniforms starting at ``counter``: the first tries of Gamma(a) and Gamma(b) take
    uniforms 0–1 and 2–3; what follows a try that is not accepted at once takes uniforms from 4
    (Gamma(a)) and 2^11 (Gamma(b)) on."""
    ga, accepted_a = _gamma_first_try(da, ca, splitmix64(key, counter),
                                      open_uniform(key, counter + 1))
    gb, accepted_b = _gamma_first_try(db, cb, splitmix64(key, counter + 2),
                                      open_uniform(key, counter + 3))
    if not accepted_a:
        ga = _gamma_after_first_try(da, ca, splitmix64(key, counter),
                                    open_uniform(key, counter + 1), key, counter + 4)
    if not accepted_b:
        gb = _gamma_after_first_try(db, cb, splitmix64(key, counter + 2),
                                    open_uniform(key, counter + 3), key, counter + 2048)
    return ga / (ga + gb)


@njit(cache=True, inline="always")
def _gamma_first_try_series(d, c, bits, u):
    """:func:`_gamma_first_try` with :func:`_series_test` (no division) and
    :func:`_open_unit_lanes`: the same value; an acceptance that only one of the two tests makes
    is decided the same way by the exact test of :func:`_gamma_after_first_try`, up to rounding
    (within ~1e-12 of its boundary with u within ~1e-6 of 1: a chance of order 1e-18)."""
    layer = np.int64(bits & _LAYER_BITS)
    w = 2.0 * _open_unit_lanes(bits) - 1.0
    x = w * _LAYER_EDGE[layer]
    y = c * x
    base = 1.0 + y
    accepted = (abs(w) < _LAYER_RATIO[layer]) & (base > 0.0) & _series_test(d, y, u)
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
        ga, accepted_a = _gamma_first_try_series(da[p], ca[p], bits[p],
                                                 _open_unit_lanes(bits[size + p]))
        gb, accepted_b = _gamma_first_try_series(db[p], cb[p], bits[2 * size + p],
                                                 _open_unit_lanes(bits[3 * size + p]))
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


@njit(cache=True)
def beta(a, b, key, counter):
    """A Beta(a, b) draw as Gamma(a)/(Gamma(a) + Gamma(b)): ``(x, next counter)``."""
    da, ca = gamma_constants(a)
    db, cb = gamma_constants(b)
    ga, counter = gamma(a, da, ca, key, counter)
    gb, counter = gamma(b, db, cb, key, counter)
    return ga / (ga + gb), counter


# Up to this many trials a binomial draw counts uniforms below p; beyond, it recurses on order
# statistics (:func:`binomial`).
BINOMIAL_DIRECT = 16


@njit(cache=True)
def binomial(n, p, key, counter):
    """An exact Binomial(n, p) draw in O(log n) beta draws: ``(x, next counter)``. Up to
    ``BINOMIAL_DIRECT`` trials it counts the uniforms below p. Beyond, it uses the order-statistic
    recursion (Devroye, *Non-Uniform Random Variate Generation*, 1986, §X.4.3): with
    a = 1 + ⌊n/2⌋, the a-th smallest of n uniforms is Y ~ Beta(a, n + 1 − a); if Y ≤ p, those a
    are successes and the other n − a are uniform on (Y, 1), each a success with probability
    (p − Y)/(1 − Y); otherwise only the a − 1 below Y can succeed, each uniform on (0, Y), with
    probability p/Y."""
    x = 0
    while n > BINOMIAL_DIRECT:
        if p <= 0.0:
            return x, counter
        if p >= 1.0:
            return x + n, counter
        a = 1 + n // 2
        y, counter = beta(float(a), float(n + 1 - a), key, counter)
        if y <= p:
            x += a
            n -= a
            p = (p - y) / (1.0 - y)
        else:
            n = a - 1
            p = p / y
    for j in range(n):
        if uniform(key, counter + j) < p:
            x += 1
    return x, counter + n

