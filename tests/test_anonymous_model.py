"""The composite anonymous model (paper 002, §2 and §5): kernels, their exact constants, and the
aggregate feedback of a run of slots against a brute-force arrival buffer."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import special

from timebandits.anonymous.environment import pull, window_sum
from timebandits.anonymous.model import AnonymousProblem
from timebandits.anonymous.spread_kernel import DELAY, Kernel

MEANS = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1]
KERNELS = [
    {"kind": "delay", "low": 10, "high": 30},
    {"kind": "delay", "low": 0, "high": 60},
    {"kind": "bounded", "dmin": 30, "dmax": 40},
    {"kind": "bounded", "dmin": 10, "dmax": 20},
    {"kind": "linear_decreasing", "d": 100},
    {"kind": "linear_decreasing", "d": 50},
    {"kind": "linear_increasing", "d": 100},
    {"kind": "linear_increasing", "d": 50},
    {"kind": "discounted", "ratio": 0.8},
    {"kind": "discounted", "ratio": 0.9},
    {"kind": "polynomial", "exponent": 3},
    {"kind": "polynomial", "exponent": 2},
    {"kind": "weights", "weights": [0.1, 0.0, 0.3, 0.6]},
]
FINITE = [k for k in KERNELS if k["kind"] not in ("discounted", "polynomial")]


def _problem(kernel):
    return AnonymousProblem.from_config({"means": MEANS, "kernel": kernel})


@pytest.mark.parametrize("spec", FINITE)
def test_finite_kernels_sum_to_one_and_their_tails_are_the_weights_left(spec):
    kernel = Kernel.from_config(spec)
    w = kernel.weights(400)
    assert w.sum() == pytest.approx(1.0, abs=1e-12)
    start = np.arange(1, 300)
    np.testing.assert_allclose(kernel.tail(start), 1.0 - np.cumsum(w)[start - 1], atol=1e-12)
    assert kernel.mean_offset() == pytest.approx(float(np.arange(400) @ w), rel=1e-12)


def test_the_printed_kernel_shapes():
    """§5: bounded [t + dmin, t + dmax) equal shares; linear [d r, (d−1) r, …] and [r, 2r, …];
    discounted [r, γr, …]; polynomial c_γ/τ^γ."""
    w = Kernel.from_config({"kind": "bounded", "dmin": 10, "dmax": 20}).weights(25)
    assert np.flatnonzero(w).tolist() == list(range(10, 20)) and w[10] == pytest.approx(0.1)
    w = Kernel.from_config({"kind": "linear_decreasing", "d": 4}).weights(6)
    np.testing.assert_allclose(w, [0, 0.4, 0.3, 0.2, 0.1, 0])
    w = Kernel.from_config({"kind": "linear_increasing", "d": 4}).weights(6)
    np.testing.assert_allclose(w, [0, 0.1, 0.2, 0.3, 0.4, 0])
    w = Kernel.from_config({"kind": "discounted", "ratio": 0.8}).weights(4)
    np.testing.assert_allclose(w, [0, 0.2, 0.16, 0.128])
    w = Kernel.from_config({"kind": "polynomial", "exponent": 2}).weights(3)
    np.testing.assert_allclose(w, [0, 6 / math.pi**2, 1.5 / math.pi**2])


@pytest.mark.parametrize(
    "spec,variance",
    [
        ({"kind": "delay", "low": 10, "high": 30}, 440 / 12),
        ({"kind": "delay", "low": 0, "high": 60}, 310.0),
        ({"kind": "bounded", "dmin": 10, "dmax": 20}, 99 / 12),
        ({"kind": "discounted", "ratio": 0.5}, 2.0),
        ({"kind": "polynomial", "exponent": 3}, math.inf),
    ],
)
def test_offset_variance(spec, variance):
    """ODAAF-V's V(τ): U{10..30} 36.67 and U{0..60} 310 as the spec lists; geometric γ/(1 − γ)²."""
    assert Kernel.from_config(spec).offset_variance() == pytest.approx(variance, rel=1e-12)


def test_interval_sizes_given_to_generalized_odaaf():
    sizes = [Kernel.from_config(k).interval_size for k in KERNELS]
    assert sizes == [30, 60, 40, 20, 100, 50, 100, 50, math.inf, math.inf, math.inf, math.inf, 4]


@pytest.mark.parametrize(
    "spec,mean",
    [
        ({"kind": "discounted", "ratio": 0.9}, 10.0),
        ({"kind": "polynomial", "exponent": 3}, special.zeta(2) / special.zeta(3)),
        ({"kind": "polynomial", "exponent": 2}, math.inf),
    ],
)
def test_infinite_kernels_mean_offset(spec, mean):
    assert Kernel.from_config(spec).mean_offset() == pytest.approx(mean, rel=1e-12)


@pytest.mark.parametrize("spec", KERNELS)
def test_d1_and_d2_against_their_definitions_term_by_term(spec):
    """d1 = Σ_{d'≥1} max_i s_i W̄(d'); d2 = Σ_{d'≥1} max_i Var[late part], summed directly over
    d' ≤ 2·10^5 (the infinite kernels' remainders are bounded below)."""
    problem = _problem(spec)
    s = np.asarray(MEANS)
    d = np.arange(1, 200_001)
    tail = problem.kernel.tail(d)
    if spec["kind"] == "delay":
        x = np.multiply.outer(tail, s)
        variance = (x * (1 - x)).max(axis=1)
    else:
        variance = (s * (1 - s)).max() * tail**2
    if math.isfinite(problem.d1()):
        assert problem.d1() == pytest.approx(float((s.max() * tail).sum()), rel=1e-5)
    remainder = (
        0.25
        * (special.zeta(spec.get("exponent", 3), 2e5) / special.zeta(spec.get("exponent", 3))) ** 2
        * 2e5
        if spec["kind"] == "polynomial"
        else 1e-12
    )
    assert -1e-12 <= problem.d2() - variance.sum() <= remainder + 1e-12


def test_given_weights_match_the_printed_kernel_they_copy():
    d = 50
    printed = _problem({"kind": "linear_increasing", "d": d})
    given = _problem(
        {"kind": "weights", "weights": [2 * t / (d * (d + 1)) for t in range(1, d + 1)]}
    )
    for name in ("d1", "d2", "mean_offset"):
        assert getattr(given, name)() == pytest.approx(getattr(printed, name)(), rel=1e-12), name
    assert given.kernel.offset_variance() == pytest.approx(
        printed.kernel.offset_variance(), rel=1e-12
    )
    assert given.kernel.interval_size == printed.kernel.interval_size == d
    np.testing.assert_allclose(
        given.kernel.cumulative(80), printed.kernel.cumulative(80), atol=1e-15
    )
    irregular = Kernel.from_config({"kind": "weights", "weights": [0.1, 0.0, 0.3, 0.6]})
    assert irregular.mean_offset() == pytest.approx(0.1 * 1 + 0.3 * 3 + 0.6 * 4)
    assert list(irregular.tail(np.arange(1, 7))) == pytest.approx([1.0, 0.9, 0.9, 0.6, 0.0, 0.0])


def test_polynomial_two_has_infinite_d1_and_finite_d2():
    problem = _problem({"kind": "polynomial", "exponent": 2})
    assert problem.d1() == math.inf and 0.333 < problem.d2() < 0.334


@pytest.mark.parametrize(
    "bad",
    [
        {"kind": "delay", "low": 5, "high": 2},
        {"kind": "bounded", "dmin": 0, "dmax": 5},
        {"kind": "linear_decreasing", "d": 0},
        {"kind": "discounted", "ratio": 1.0},
        {"kind": "polynomial", "exponent": 1.0},
        {"kind": "spiral"},
        {"kind": "delay", "low": 1.5, "high": 3},
        {"kind": "delay", "low": 1},
        {"kind": "weights", "weights": [0.5, 0.6]},
        {"kind": "weights", "weights": [1.5, -0.5]},
        {"kind": "weights", "weights": []},
    ],
)
def test_bad_kernels_are_refused(bad):
    with pytest.raises(ValueError, match="kernel"):
        Kernel.from_config(bad)


def _brute_force_feedback(totals, delays, kernel, horizon):
    """Y(t) for t = 1..horizon from an explicit arrival buffer."""
    arrivals = np.zeros(2 * horizon + 200)
    w = kernel.weights(horizon + 1)
    for u in range(1, horizon + 1):
        if kernel.code == DELAY:
            arrivals[u + delays[u]] += totals[u]
        else:
            arrivals[u : u + horizon + 1] += totals[u] * w
    return arrivals[: horizon + 1]


@pytest.mark.parametrize("spec", KERNELS)
def test_window_sums_equal_the_arrival_buffer(spec):
    horizon = 400
    problem = _problem(spec)
    kernel = problem.kernel
    low, high = spec.get("low", 0), spec.get("high", 0)
    totals = np.zeros(horizon + 1)
    delays = np.zeros(horizon + 1, np.int64)
    rng = np.random.default_rng(0)
    arms = rng.integers(0, len(MEANS), horizon + 1)
    for u in range(1, horizon + 1):
        pull(problem.means[arms[u]], u, np.uint64(9), kernel.code, low, high, totals, delays)
    feedback = _brute_force_feedback(totals, delays, kernel, horizon)
    cumulative = kernel.cumulative(horizon + 1)
    reach = int(min(kernel.window_reach, horizon))
    edges = np.sort(rng.choice(np.arange(1, horizon + 1), 30, replace=False))
    for first, last in zip(edges[:-1], edges[1:] - 1):
        assert window_sum(
            first, last, totals, delays, kernel.code, cumulative, reach
        ) == pytest.approx(feedback[first : last + 1].sum(), abs=1e-9)


def test_pulls_have_the_right_laws():
    """Totals Bernoulli(s); delays uniform on {low..high} (z = 0 included, spec P3)."""
    n = 200_000
    totals = np.zeros(n + 1)
    delays = np.zeros(n + 1, np.int64)
    for u in range(1, n + 1):
        pull(0.3, u, np.uint64(4), DELAY, 0, 60, totals, delays)
    assert abs(totals[1:].mean() - 0.3) < 4 * math.sqrt(0.21 / n)
    counts = np.bincount(delays[1:], minlength=61)
    assert counts.size == 61 and counts.min() > 0
    from scipy import stats

    assert stats.chisquare(counts).pvalue > 1e-3


@pytest.mark.parametrize("ratio, reach", [(0.8, 132), (0.9, 285)])
def test_discounted_window_reach_loses_less_than_1e_12(ratio, reach):
    """The discounted kernel's window sums skip pulls older than its reach L, the smallest L with
    γ^L/(1 − γ) < 1e-12; against the sum over every earlier pull, in the worst case (every total
    1), the loss stays below 1e-12 and is not zero (the truncation is real)."""
    kernel = Kernel.from_config({"kind": "discounted", "ratio": ratio})
    assert kernel.window_reach == reach
    assert ratio**reach / (1 - ratio) < 1e-12 <= ratio ** (reach - 1) / (1 - ratio)
    horizon = 3000
    totals = np.ones(horizon + 1)
    delays = np.zeros(horizon + 1, np.int64)
    cumulative = kernel.cumulative(horizon + 1)
    losses = [
        window_sum(first, last, totals, delays, kernel.code, cumulative, horizon)
        - window_sum(first, last, totals, delays, kernel.code, cumulative, reach)
        for first, last in [(2000, 2000), (2000, 2500), (1500, 3000)]
    ]
    assert 0 < max(losses) < 1e-12
