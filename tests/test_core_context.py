"""core/verdicts/context.py: ClaimContext reading synthetic traces (final values by repetition,
checkpoint tables, paired runs), the one-sided binomial fraction_test and paired_verdict.

Expectations are worked out by hand in the comments."""

import math

import numpy as np
import pandas as pd
import pytest
from claims_fixtures import BASE, REPS, horizon_trace, make_paper, trace_frame
from scipy import stats as st

from timebandits.core.verdicts.context import fraction_test, paired_verdict
from timebandits.core.verdicts.vocabulary import INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED

# ------------------------------------------------------------------- fraction_test & paired_verdict


@pytest.mark.parametrize(
    "successes, n, verdict",
    [
        (60, 60, REPRODUCED),  # P(X = 60 | p = 0.9) = 0.9^60 = 0.0018 < 0.05
        (20, 20, INCONCLUSIVE),  # 0.9^20 = 0.12: 20 runs cannot show >= 90%
        (40, 60, NOT_REPRODUCED),  # P(X <= 40 | 0.9) is tiny
    ],
)
def test_fraction_test(successes, n, verdict):
    test = fraction_test(successes, n, 0.9, 0.05)
    assert test["verdict"] == verdict
    assert test["p_claimed"] == pytest.approx(st.binom.sf(successes - 1, n, 0.9))
    assert test["p_opposite"] == pytest.approx(st.binom.cdf(successes, n, 0.9))


@pytest.mark.parametrize(
    "p_claimed, p_opposite, expected",
    [
        (0.01, 0.99, REPRODUCED),
        (0.99, 0.01, NOT_REPRODUCED),
        (0.05, 0.95, INCONCLUSIVE),  # strict inequality at alpha
        (0.5, 0.5, INCONCLUSIVE),
        (math.nan, math.nan, INCONCLUSIVE),
    ],
)
def test_paired_verdict(p_claimed, p_opposite, expected):
    assert paired_verdict({"p_claimed": p_claimed, "p_opposite": p_opposite}, 0.05) == expected


# --------------------------------------------------------------------------- ClaimContext


def test_context_final_sorted_by_repetition_and_cached(make_ctx):
    frame = horizon_trace(BASE, shuffle_seed=4)
    ctx = make_ctx(make_paper(), {("e", "a"): frame})
    assert list(ctx.final("e", "a", "m")) == list(BASE)  # repetition order, not file order
    assert ctx.trace("e", "a") is ctx.trace("e", "a")
    table = ctx.at("e", "a", "m")
    assert list(table.index) == [1, 10, 100]
    assert list(table.columns) == list(range(REPS))
    assert ctx.alpha == 0.05
    assert ctx.label("b") == "B"
    with pytest.raises(KeyError):
        ctx.trace("e", "b")


# --------------------------------------------------------------------------- edges


def test_fraction_test_without_runs_is_undefined():
    test = fraction_test(0, 0, 0.9, 0.05)
    assert math.isnan(test["p_claimed"]) and math.isnan(test["p_opposite"])
    assert test["verdict"] == INCONCLUSIVE


def test_paired_verdict_opposite_p_at_alpha_is_not_a_refutation():
    assert paired_verdict({"p_claimed": 0.95, "p_opposite": 0.05}, 0.05) == INCONCLUSIVE


def test_context_final_is_float(make_ctx):
    # an integer metric column (counts) and one with an undefined run (None) both come out as
    # float arrays, the undefined run as NaN
    frame = pd.DataFrame(
        {"repetition": [1, 0], "t": [5, 5], "m": [3, 2], "u": pd.Series([None, 1.5], dtype=object)}
    )
    ctx = make_ctx(make_paper(), {("e", "a"): frame})
    counts = ctx.final("e", "a", "m")
    assert counts.dtype == np.float64 and list(counts) == [2.0, 3.0]
    undefined = ctx.final("e", "a", "u")
    assert undefined.dtype == np.float64 and undefined[0] == 1.5 and math.isnan(undefined[1])


@pytest.mark.parametrize(
    "b",
    [
        {10: [1.0, 2.0]},  # same repetitions 0, 1, horizon 10 instead of 100
        {1: [1.0, 2.0, 3.0], 100: [1.0, 2.0, 3.0]},  # same horizon, a third repetition
    ],
)
def test_context_paired_needs_same_runs_and_horizon(make_ctx, b):
    ctx = make_ctx(
        make_paper(),
        {("e", "a"): trace_frame({1: [0.0, 0.0], 100: [1.0, 2.0]}), ("e", "b"): trace_frame(b)},
    )
    with pytest.raises(
        ValueError,
        match=r"^e: a and b were not run on the same repetitions and "
        r"horizon; rebuild their traces$",
    ):
        ctx.paired("e", "a", "b", "m")
