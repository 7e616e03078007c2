"""core/verdicts/growth.py: increments over the last two decades (growth_increments) and the
log_growth kind on synthetic curves (log t, sqrt t, t, flat), with a lower limit and a regime.

Expectations are worked out by hand in the comments."""

import math

import numpy as np
import pandas as pd
import pytest
from claims_fixtures import LOG_CLAIM, REPS, make_paper, trace_frame

from timebandits.core.sim.checkpoints import checkpoint_grid
from timebandits.core.verdicts.bounds import compare_to_bound
from timebandits.core.verdicts.growth import LogGrowth, growth_increments
from timebandits.core.verdicts.vocabulary import INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED

# ------------------------------------------------------------------- growth_increments & log_growth


def test_growth_increments_use_nearest_checkpoints():
    # Window [100, 10000]: halves split at sqrt(100 * 10000) = 1000, present; nearest to 100
    # among 97 and 104 is 97 (|3| < |4|).
    # Repetition 0: m(T) = 50, m(1000) = 20, m(97) = 5  -> increments [30, 15]
    # Repetition 1: m(T) = 80, m(1000) = 30, m(97) = 10 -> increments [50, 20]
    table = pd.DataFrame(
        {0: [0.0, 5.0, 99.0, 20.0, 50.0], 1: [0.0, 10.0, 99.0, 30.0, 80.0]},
        index=pd.Index([1, 97, 104, 1000, 10000], name="t"),
    )
    inc, span = growth_increments(table, 100.0, 10000.0)
    np.testing.assert_allclose(inc, [[30.0, 15.0], [50.0, 20.0]])
    assert span == pytest.approx(1.0)  # log10(10000 / 1000): one decade per half


def test_growth_increments_of_log_and_linear_curves():
    t = np.array([1, 10, 100, 1000, 10000])
    # a ln t: increments a ln 10 over each decade -> ratio 1; c t: (T - T/10)/(T/10 - T/100) = 10
    log_inc, _ = growth_increments(
        pd.DataFrame({0: 2 * np.log(t), 1: 3 * np.log(t)}, index=t), 100, 10000
    )
    lin_inc, _ = growth_increments(pd.DataFrame({0: 2.0 * t, 1: 3.0 * t}, index=t), 100, 10000)
    np.testing.assert_allclose(log_inc[:, 0] / log_inc[:, 1], [1.0, 1.0])
    np.testing.assert_allclose(lin_inc[:, 0] / lin_inc[:, 1], [10.0, 10.0])


T_LOG = 10**7


def grid_trace(fn):
    """A trace on the full-scale grid for T = 10^7 with m = fn(t, repetition)."""
    grid = checkpoint_grid(T_LOG, 400)
    return trace_frame({int(t): [fn(float(t), r) for r in range(REPS)] for t in grid})


def test_log_growth_logarithmic_curve_reproduced(make_ctx):
    # m = (1 + 0.1 r) ln t + small wiggle: each decade adds (1 + 0.1 r) ln 10 -> ratio ~ 1 <= 2.
    frame = grid_trace(lambda t, r: (1 + 0.1 * r) * math.log(t) + 0.01 * math.sin(t + r))
    ctx = make_ctx(make_paper([LOG_CLAIM]), {("e", "a"): frame})
    LogGrowth.check(LOG_CLAIM, ctx.paper)
    (row,) = LogGrowth.evaluate(LOG_CLAIM, ctx)
    assert row["slope"] == pytest.approx(0.0, abs=0.01)
    assert row["ci_low"] <= row["slope"] <= row["ci_high"] <= math.log10(2)
    assert row["verdict"] == REPRODUCED


def test_log_growth_linear_curve_not_reproduced(make_ctx):
    # m = (1 + 0.1 r) t: ratio (T - T/10)/(T/10 - T/100) = 0.9/0.09 = 10, slope 1 > log10 2.
    frame = grid_trace(lambda t, r: (1 + 0.1 * r) * t)
    ctx = make_ctx(make_paper([LOG_CLAIM]), {("e", "a"): frame})
    (row,) = LogGrowth.evaluate(LOG_CLAIM, ctx)
    assert row["slope"] == pytest.approx(1.0, rel=1e-3)
    assert row["ci_low"] > math.log10(2)
    assert row["verdict"] == NOT_REPRODUCED


def test_log_growth_sqrt_curve_not_reproduced(make_ctx):
    # t^0.5 gives slope 0.5 > log10 2.
    frame = grid_trace(lambda t, r: (1 + 0.1 * r) * math.sqrt(t))
    ctx = make_ctx(make_paper([LOG_CLAIM]), {("e", "a"): frame})
    (row,) = LogGrowth.evaluate(LOG_CLAIM, ctx)
    assert row["slope"] == pytest.approx(0.5, rel=1e-3)
    assert row["verdict"] == NOT_REPRODUCED


def test_log_growth_inconclusive_when_ci_straddles_threshold(make_ctx):
    # T = 10^4; m(100) = 0, m(1000) = 1, m(T) = 1 + (2 +- 1.5): the ratio of mean increments is
    # exactly 2/1 = 2 (slope log10 2), but the rows alternate 3.5 and 0.5, so the bootstrap CI
    # straddles it.
    last = 1 + 2 + np.array([1.5, -1.5] * (REPS // 2))
    frame = trace_frame({1: np.zeros(REPS), 100: np.zeros(REPS), 1000: np.ones(REPS), 10000: last})
    ctx = make_ctx(make_paper([LOG_CLAIM]), {("e", "a"): frame})
    (row,) = LogGrowth.evaluate(LOG_CLAIM, ctx)
    assert row["slope"] == pytest.approx(math.log10(2))
    assert row["ci_low"] < math.log10(2) < row["ci_high"]
    assert row["verdict"] == INCONCLUSIVE


SYNTHETIC_CURVES = {
    # curve: (m(t, r), verdict of "grows logarithmically", slope)
    "log t": (lambda t, r: (1 + 0.1 * r) * math.log(t), REPRODUCED, 0.0),
    "sqrt t": (lambda t, r: (1 + 0.1 * r) * math.sqrt(t), NOT_REPRODUCED, 0.5),
    "t": (lambda t, r: (1 + 0.1 * r) * t, NOT_REPRODUCED, 1.0),
    "flat": (lambda t, r: 5.0 + r, INCONCLUSIVE, None),
}


@pytest.mark.parametrize("name", SYNTHETIC_CURVES)
def test_log_growth_synthetic_curves(make_ctx, name):
    fn, verdict, slope = SYNTHETIC_CURVES[name]
    ctx = make_ctx(make_paper([LOG_CLAIM]), {("e", "a"): grid_trace(fn)})
    (row,) = LogGrowth.evaluate(LOG_CLAIM, ctx)
    assert row["verdict"] == verdict
    if slope is None:
        assert "flat" in row["headline"]
    else:
        assert row["slope"] == pytest.approx(slope, abs=1e-2)


def test_log_growth_with_a_lower_limit_rejects_a_stop(make_ctx):
    # "keeps exploring at a logarithmic rate": with min_slope −0.3 a curve that stops growing
    # after T/10 (no increase: slope −∞) is not reproduced; without the limit it is.
    stop = lambda t, r: (1 + 0.1 * r) * math.log(min(t, T_LOG / 10))  # noqa: E731
    ctx = make_ctx(make_paper([LOG_CLAIM]), {("e", "a"): grid_trace(stop)})
    (row,) = LogGrowth.evaluate({**LOG_CLAIM, "min_slope": -0.3}, ctx)
    assert row["verdict"] == NOT_REPRODUCED and row["slope"] < -2
    (row,) = LogGrowth.evaluate(LOG_CLAIM, ctx)
    assert row["verdict"] == REPRODUCED


def test_log_growth_window_before_the_regime_is_inconclusive(make_ctx):
    # Linear until the regime starts, logarithmic after. A regime from t = 5*10^6 leaves under a
    # decade before T = 10^7: inconclusive, whatever the curve. From 10^4 the window is [10^5, T]
    # (T/100 is later), the curve is logarithmic there: reproduced.
    curve = lambda t, r: (1 + 0.1 * r) * (min(t, 1e4) + 1e3 * math.log(max(t, 1e4)))  # noqa: E731
    ctx = make_ctx(make_paper([LOG_CLAIM]), {("e", "a"): grid_trace(curve)})
    (row,) = LogGrowth.evaluate({**LOG_CLAIM, "regime": {"from_t": 5e6}}, ctx)
    assert row["verdict"] == INCONCLUSIVE and "under a decade" in row["headline"]
    (row,) = LogGrowth.evaluate({**LOG_CLAIM, "regime": {"from_t": 1e4}}, ctx)
    assert row["verdict"] == REPRODUCED and row["window_start"] == pytest.approx(1e5)
    # the same curve judged over [10^3, 10^5] (T = 10^5 traces would): the linear part decides
    (row,) = LogGrowth.evaluate({**LOG_CLAIM, "regime": {"from_t": 2e7}}, ctx)
    assert row["verdict"] == INCONCLUSIVE and "regime not reached" in row["headline"]


def test_log_growth_regime_from_a_bound(make_ctx):
    # The regime starts where the bound table's bound is informative up to T: vacuous up to
    # t = 10^6 here, so the window is [first checkpoint after 10^6, T], just over a decade.
    frame = grid_trace(lambda t, r: (1 + 0.1 * r) * math.log(t))
    ctx = make_ctx(make_paper([LOG_CLAIM]), {("e", "a"): frame})
    table = ctx.at("e", "a", "m")
    t = table.index.to_numpy(dtype=float)
    bounds = compare_to_bound(
        table,
        np.where(t <= 1e6, 2 * t, 0.5 * t),
        t,
        experiment="e",
        algorithm="a",
        bound_name="theorem2",
        metric="m",
    )
    ctx.bounds = bounds
    claim = {**LOG_CLAIM, "regime": {"bound": "theorem2"}}
    LogGrowth.check(claim, ctx.paper)
    (row,) = LogGrowth.evaluate(claim, ctx)
    assert 1e6 < row["window_start"] <= t[t > 1e6].min()
    assert row["verdict"] == INCONCLUSIVE and "under a decade" in row["headline"]
    with pytest.raises(ValueError, match="regime"):
        LogGrowth.check({**LOG_CLAIM, "regime": {"when": 3}}, ctx.paper)
