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
          (128 layers, one 64-bit output per try: 7 bits pick the layer, 53 bits the abscissa;
          Thompson sampling's Gamma draws use the 256-layer ziggurat, whose rectangles hold
          98.5% of the tries instead of 97.2%: 8 bits pick the layer)
  gamma   Marsaglia & Tsang (ACM TOMS 26(3), 2000) for shape k ≥ 1, with its squeeze; shapes
          k < 1 use Gamma(k) = Gamma(k + 1)·U^{1/k}
  beta    Gamma(a)/(Gamma(a) + Gamma(b)) (Thompson sampling's many draws per round, one per
          block of 2^12 uniforms, are :mod:`timebandits.core.sim.beta_blocks`)
Binomial draws of whole windows of plays are :mod:`timebandits.core.sim.binomial`.
"""

from __future__ import annotations

import math

import numpy as np

from timebandits.core.sim.jit import njit

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_ONE = np.uint64(1)
_TWO_POW_MINUS_53 = 1.0 / 9007199254740992.0


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


@njit(cache=True)
def open_uniform(key, counter):
    """A uniform number in the open interval (0, 1) (the midpoint of a 53-bit cell), for logs."""
    return _open_unit(splitmix64(key, counter))


# ZIGNOR constants (Doornik 2005): the base strip's right edge R and the common layer area V, for
# 128 layers and (Marsaglia & Tsang 2000, §2) for 256.
_ZIGGURAT_R = 3.442619855899
_ZIGGURAT_V = 9.91256303526217e-3
_LAYER_BITS = np.uint64(127)
_WIDE_R = 3.6541528853610088
_WIDE_V = 4.92867323399e-3
_WIDE_BITS = np.uint64(255)


def _ziggurat_tables(layers: int, edge: float, area: float):
    """Layer edges x_0 > x_1 = R > … > x_layers = 0 (x_0 = V/f(R) closes the base strip) of the
    ziggurat with R = ``edge``, V = ``area``, and the ratios x_{i+1}/x_i under which a try is
    accepted at once."""
    x = np.empty(layers + 1)
    density = math.exp(-0.5 * edge * edge)
    x[0] = area / density
    x[1] = edge
    x[layers] = 0.0
    for i in range(2, layers):
        x[i] = math.sqrt(-2.0 * math.log(area / x[i - 1] + density))
        density = math.exp(-0.5 * x[i] * x[i])
    return x, x[1:] / x[:-1]


_LAYER_EDGE, _LAYER_RATIO = _ziggurat_tables(128, _ZIGGURAT_R, _ZIGGURAT_V)
_WIDE_EDGE, _WIDE_RATIO = _ziggurat_tables(256, _WIDE_R, _WIDE_V)


@njit(cache=True)
def _normal_after_rectangle(layer, u, key, counter, edges, ratios, layer_bits, tail_edge):
    """The rest of a ziggurat normal draw (tables ``edges``, ``ratios`` of
    :func:`_ziggurat_tables`, ``layer_bits`` picking the layer, R = ``tail_edge``) once the first
    try (layer, u) missed its rectangle: that try's tail or wedge test, then further tries from
    uniform number ``counter``."""
    while True:
        if layer == 0:  # the tail beyond R (Marsaglia 1964)
            while True:
                x = math.log(open_uniform(key, counter)) / tail_edge
                y = math.log(open_uniform(key, counter + 1))
                counter += 2
                if -2.0 * y >= x * x:
                    return (x - tail_edge if u < 0.0 else tail_edge - x), counter
        x = u * edges[layer]
        upper = math.exp(-0.5 * (edges[layer] ** 2 - x * x))
        lower = math.exp(-0.5 * (edges[layer + 1] ** 2 - x * x))
        accept = lower + open_uniform(key, counter) * (upper - lower) < 1.0
        counter += 1
        if accept:
            return x, counter
        bits = splitmix64(key, counter)
        counter += 1
        layer = np.int64(bits & layer_bits)
        u = 2.0 * _open_unit(bits) - 1.0
        if abs(u) < ratios[layer]:
            return u * edges[layer], counter


@njit(cache=True, inline="always")
def ziggurat_normal(key, counter, edges, ratios, layer_bits, tail_edge):
    """A standard normal draw from the ziggurat with tables ``edges``, ``ratios`` (layer picked
    by ``layer_bits``, base strip edge R = ``tail_edge``), starting at uniform number
    ``counter``: ``(z, next counter)``. The common case (one uniform inside its layer's
    rectangle) is inlined into the caller."""
    bits = splitmix64(key, counter)
    layer = np.int64(bits & layer_bits)
    u = 2.0 * _open_unit(bits) - 1.0
    if abs(u) < ratios[layer]:
        return u * edges[layer], counter + 1
    return _normal_after_rectangle(layer, u, key, counter + 1, edges, ratios, layer_bits, tail_edge)


@njit(cache=True, inline="always")
def normal(key, counter):
    """A standard normal draw starting at uniform number ``counter`` (128 layers):
    ``(z, next counter)``."""
    return ziggurat_normal(key, counter, _LAYER_EDGE, _LAYER_RATIO, _LAYER_BITS, _ZIGGURAT_R)


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


@njit(cache=True)
def beta(a, b, key, counter):
    """A Beta(a, b) draw as Gamma(a)/(Gamma(a) + Gamma(b)): ``(x, next counter)``."""
    da, ca = gamma_constants(a)
    db, cb = gamma_constants(b)
    ga, counter = gamma(a, da, ca, key, counter)
    gb, counter = gamma(b, db, cb, key, counter)
    return ga / (ga + gb), counter
