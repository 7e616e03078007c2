"""core/verdicts/bounds.py: the bound table (compare_curves) row by row, the trivial bound and
vacuity, and bound_verdict's whole result (verdict, headline, statistic) as the reader sees it; then
compare_to_bound, bound_verdict and informative_from on the small table of tests/conftest.py.

Every expected number is worked out by hand in the comments."""

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from claims_fixtures import _compare

from timebandits.core.trivial import is_vacuous, trivial_bound
from timebandits.core.verdicts.bounds import (
    COLUMNS,
    bound_verdict,
    compare_curves,
    compare_to_bound,
    informative_from,
)
from timebandits.core.verdicts.vocabulary import INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED


def assert_same(result: dict, expected: dict):
    """Dict equality where NaN equals NaN."""
    assert set(result) == set(expected)
    for key, value in expected.items():
        if isinstance(value, float) and math.isnan(value):
            assert math.isnan(result[key]), key
        else:
            assert result[key] == value, key


# --------------------------------------------------------------------------- trivial bound, vacuity


def test_trivial_bound_is_rate_times_t_plus_offset():
    # rate 0.5 then 2 (a rate varying with t), offset 1: 0.5·10 + 1 = 6, 2·20 + 1 = 41
    out = trivial_bound([10, 20], [0.5, 2.0], offset=1.0)
    np.testing.assert_array_equal(out, [6.0, 41.0])


def test_an_undefined_rate_gives_an_undefined_trivial_bound():
    # None (a rate the instance does not define at that t) becomes NaN, not a TypeError
    out = trivial_bound([10.0, 20.0], [None, 2.0])
    assert math.isnan(out[0]) and out[1] == 40.0


def test_trivial_bound_of_object_times_is_a_float_array():
    # checkpoint times from an object-dtype column (a mixed table): the result is still float
    t = pd.Series([10, 20], dtype=object)
    out = trivial_bound(t, 3)
    assert out.dtype == np.float64
    np.testing.assert_array_equal(out, [30.0, 60.0])


@pytest.mark.parametrize(
    "bound, trivial, vacuous",
    [
        ([1.0, 5.0, 6.0], [2.0, 5.0, 5.0], [False, True, True]),  # below / equal / above
        ([None, 1.0], [5.0, 5.0], [True, False]),  # an undefined bound says nothing
        ([1.0, 1.0], [None, 5.0], [True, False]),  # nor one with no trivial bound
    ],
)
def test_is_vacuous(bound, trivial, vacuous):
    np.testing.assert_array_equal(is_vacuous(bound, trivial), vacuous)


# --------------------------------------------------------------------------- compare_curves


def test_compare_curves_rows_by_hand():
    # Two curves, checkpoints 1 and 2, two repetitions, given as Python ints.
    #  c1 (metric m1, bound b1): t=1 runs [1, 3]: mean 2, se = sd/sqrt2 = sqrt2/sqrt2 = 1, max 3,
    #     bound 3: no run strictly above (3 is on it), trivial 10, ratio 2/3;
    #     t=2 runs [2, 6]: mean 4, se = 2·sqrt2/sqrt2 = 2, both runs above bound 0, ratio 4/0 = inf.
    #  c2 (m2, b2): t=1 runs [0, 0]: mean 0, se 0, bound 0 = trivial 0 -> vacuous, ratio 0/0 = NaN;
    #     t=2 runs [4, 4]: bound 5, trivial 20, ratio 0.8.
    values = [[[1, 3], [0, 0]], [[2, 6], [4, 4]]]  # (t x curve x repetition)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # 4/0 and 0/0 must not warn
        frame = compare_curves(
            values,
            [[3, 0], [0, 5]],
            [[10, 0], [10, 20]],
            t=np.array([1, 2]),
            experiment="e",
            algorithm="a",
            bound_names=["b1", "b2"],
            metrics=["m1", "m2"],
        )
    expected = pd.DataFrame(
        {
            "experiment": "e",
            "algorithm": "a",
            "bound": ["b1", "b1", "b2", "b2"],
            "metric": ["m1", "m1", "m2", "m2"],
            "t": [1, 2, 1, 2],
            "mean": [2.0, 4.0, 0.0, 4.0],
            "se": [1.0, 2.0, 0.0, 0.0],
            "max": [3.0, 6.0, 0.0, 4.0],
            "runs_exceeding": [0, 2, 0, 0],
            "n_runs": 2,
            "bound_value": [3.0, 0.0, 0.0, 5.0],
            "trivial": [10.0, 10.0, 0.0, 20.0],
            "vacuous": [False, False, True, False],
            "ratio": [2 / 3, math.inf, math.nan, 0.8],
        }
    )
    assert list(frame.columns) == COLUMNS
    pd.testing.assert_frame_equal(frame, expected[COLUMNS])


def test_compare_curves_with_an_undefined_bound():
    # bound None at t=1: no run exceeds it, it is vacuous, and the ratio is undefined
    frame = compare_curves(
        [[[1.0, 3.0]], [[2.0, 6.0]]],
        [[None], [5.0]],
        [[None], [9.0]],
        t=np.array([1, 2]),
        experiment="e",
        algorithm="a",
        bound_names=["b"],
        metrics=["m"],
    )
    assert list(frame["runs_exceeding"]) == [0, 1]  # 6 > 5 only
    assert list(frame["vacuous"]) == [True, False]
    assert frame["trivial"].dtype == np.float64 and math.isnan(frame["trivial"].iloc[0])
    assert math.isnan(frame["ratio"].iloc[0]) and frame["ratio"].iloc[1] == 4 / 5


def test_compare_to_bound_is_one_curve_of_compare_curves():
    table = pd.DataFrame([[1, 3], [2, 6]], index=pd.Index([1, 2], name="t"))
    rows = compare_to_bound(
        table,
        np.array([3.0, 0.0]),
        np.array([10.0, 10.0]),
        experiment="e",
        algorithm="a",
        bound_name="b1",
        metric="m1",
    )
    assert list(rows["mean"]) == [2.0, 4.0] and list(rows["se"]) == [1.0, 2.0]
    assert list(rows["runs_exceeding"]) == [0, 2]


# --------------------------------------------------------------------------- bound_verdict


def one_curve(runs_by_t: dict, bound, trivial):
    """Rows of one curve (metric m, bound thm) from {t: runs}."""
    ts = list(runs_by_t)
    values = np.array([runs_by_t[t] for t in ts], dtype=float)[:, None, :]
    return compare_curves(
        values,
        np.array(bound, float)[:, None],
        np.array(trivial, float)[:, None],
        t=np.array(ts),
        experiment="e",
        algorithm="a",
        bound_names=["thm"],
        metrics=["m"],
    )


def test_bound_verdict_when_the_bound_never_applies():
    rows = one_curve({10: [1, 2, 3]}, [math.nan], [5.0])
    text = "the bound does not apply at any checkpoint"
    assert_same(
        bound_verdict(rows),
        {
            "verdict": INCONCLUSIVE,
            "headline": text,
            "statistic": text,
            "max_ratio": math.nan,
            "informative_from": math.inf,
        },
    )


def test_bound_verdict_when_the_bound_is_vacuous_everywhere():
    # bound 10 at or above the trivial bound 5 at t = 10 and 20
    rows = one_curve({10: [1, 2, 3], 20: [1, 2, 3]}, [10.0, 10.0], [5.0, 10.0])
    assert_same(
        bound_verdict(rows),
        {
            "verdict": INCONCLUSIVE,
            "headline": "bound vacuous until t > 20 (at every checkpoint)",
            "statistic": "inconclusive: bound vacuous until t > 20 (at every checkpoint); no "
            "checkpoint can support the bound",
            "max_ratio": math.nan,
            "informative_from": math.inf,
        },
    )


def test_bound_verdict_mean_on_the_bound_is_reproduced():
    # t=10: [1, 2, 3] vs bound 1.5 >= trivial 1: vacuous, never counted (though 2 runs exceed it).
    # t=20: [4, 4, 4], mean 4 = bound 4, se 0: excess 0, not above the bound -> still below it.
    # t=30: [1, 2, 6], mean 3 vs bound 5.5: excess -2.5; one run (6) above the bound.
    # t=40: [1, 1, 1] vs 10.
    # Informative: t = 20, 30, 40; ratios 1, 3/5.5 = 0.545, 0.1: the largest is 1 at t = 20.
    rows = one_curve(
        {10: [1, 2, 3], 20: [4, 4, 4], 30: [1, 2, 6], 40: [1, 1, 1]},
        [1.5, 4.0, 5.5, 10.0],
        [1.0, 100.0, 100.0, 100.0],
    )
    assert_same(
        bound_verdict(rows),
        {
            "verdict": REPRODUCED,
            "headline": "largest mean/bound 1 over 3 informative checkpoints "
            "(vacuous until t = 10)",
            "statistic": "largest mean/bound = 1 (m vs thm at t = 20) over the informative "
            "curve-checkpoints; with the mean above the bound: 0/3, with some run above "
            "it: 1; bound vacuous until t = 10 (1/4 curve-checkpoints vacuous, never "
            "counted)",
            "max_ratio": 1.0,
            "tightness": 1.0,
            "informative_from": 20.0,
        },
    )


def test_bound_verdict_not_reproduced_whole_row():
    # Informative everywhere (trivial 100). t=1: [1, 3], mean 2, se 1 vs bound 1: excess 1 < 2 se;
    # t=2: [5, 7], mean 6, se 1 vs bound 2: excess 4 > 2 -> clearly above. Ratios 2 and 3.
    # Runs above the bound: t=1 one (3 > 1; 1 is on it), t=2 both: 2 checkpoints with some run.
    rows = one_curve({1: [1, 3], 2: [5, 7]}, [1.0, 2.0], [100.0, 100.0])
    assert_same(
        bound_verdict(rows),
        {
            "verdict": NOT_REPRODUCED,
            "headline": "largest mean/bound 3 over 2 informative checkpoints "
            "(informative everywhere)",
            "statistic": "largest mean/bound = 3 (m vs thm at t = 2) over the informative "
            "curve-checkpoints; with the mean above the bound: 2/2, with some run above "
            "it: 2; bound informative everywhere (0/2 curve-checkpoints vacuous, never "
            "counted)",
            "max_ratio": 3.0,
            "tightness": 3.0,
            "informative_from": 1.0,
        },
    )


def test_bound_verdict_inconclusive_just_above_the_bound():
    # t=1: [1, 3], mean 2, se 1 vs bound 1.5: excess 0.5 <= 2 se = 2 -> within the noise
    rows = one_curve({1: [1, 3]}, [1.5], [100.0])
    result = bound_verdict(rows)
    assert result["verdict"] == INCONCLUSIVE
    assert result["max_ratio"] == pytest.approx(2 / 1.5)
    assert "with the mean above the bound: 1/1, with some run above it: 1;" in result["statistic"]


# --------------------------------------------------------------------------- small_table


def test_compare_to_bound_rows_by_hand(small_table):
    rows = _compare(small_table, [2.5, 3.0, np.nan], trivial=[2.0, 100.0, 100.0])
    assert list(rows.columns) == COLUMNS
    assert list(rows["t"]) == [10, 20, 30]
    np.testing.assert_allclose(rows["mean"], [2.0, 4.0, 3.0])
    np.testing.assert_allclose(rows["se"], [1 / math.sqrt(3), 2 / math.sqrt(3), 0.0])
    np.testing.assert_allclose(rows["max"], [3.0, 6.0, 3.0])
    # runs above the bound: t=10 only 3 > 2.5; t=20: 4 and 6 > 3; t=30: nothing exceeds NaN
    assert list(rows["runs_exceeding"]) == [1, 2, 0]
    assert (rows["n_runs"] == 3).all()
    # vacuous where bound >= trivial: 2.5 >= 2 yes; 3 < 100 no; NaN bound counts as vacuous
    assert list(rows["vacuous"]) == [True, False, True]
    np.testing.assert_allclose(rows["ratio"], [0.8, 4 / 3, np.nan])
    assert set(rows["experiment"]) == {"e"} and set(rows["bound"]) == {"theorem2"}


def test_compare_to_bound_vacuous_at_equality(small_table):
    rows = _compare(small_table, [5.0, 5.0, 5.0], trivial=[5.0, 6.0, 4.0])
    assert list(rows["vacuous"]) == [True, False, True]


def test_compare_to_bound_single_run_has_zero_se():
    table = pd.DataFrame({0: [1.0, 2.0]}, index=pd.Index([1, 2], name="t"))
    rows = _compare(table, [5.0, 5.0], trivial=[9.0, 9.0])
    assert list(rows["se"]) == [0.0, 0.0]


def test_bound_verdict_reproduced_and_nan_rows_ignored(small_table):
    # bound 10 at t = 10, 20 (means 2, 4 below it); NaN at t = 30 is dropped from every count.
    result = bound_verdict(_compare(small_table, [10.0, 10.0, np.nan]))
    assert result["verdict"] == REPRODUCED
    assert result["max_ratio"] == pytest.approx(0.4)  # 4/10 at t = 20
    assert "t = 20" in result["statistic"]
    assert "the bound: 0/2" in result["statistic"]  # of 2 informative, not 3
    assert "informative everywhere" in result["headline"]


def test_bound_verdict_not_reproduced_above_two_se(small_table):
    # t=20: mean 4 vs bound 1, excess 3 > 2 se = 2.309 -> not reproduced.
    result = bound_verdict(_compare(small_table, [10.0, 1.0, np.nan]))
    assert result["verdict"] == NOT_REPRODUCED
    assert result["max_ratio"] == pytest.approx(4.0)
    assert "the bound: 1/2" in result["statistic"]


def test_bound_verdict_inconclusive_within_two_se(small_table):
    # t=10 is vacuous (2.5 >= trivial 2) and never counts; t=20: mean 4 vs bound 3, excess 1 < 2 se
    # = 2.309 -> inconclusive, judged on the one informative checkpoint.
    rows = _compare(small_table, [2.5, 3.0, np.nan], trivial=[2.0, 100.0, 100.0])
    result = bound_verdict(rows)
    assert result["verdict"] == INCONCLUSIVE
    assert result["max_ratio"] == pytest.approx(4 / 3)
    assert "over 1 informative checkpoints (vacuous until t = 10)" in result["headline"]
    assert result["informative_from"] == 20


def test_bound_verdict_vacuous_checkpoints_never_support(small_table):
    # The mean exceeds the bound only where the bound is vacuous (t = 10: mean 2 > 1.5, trivial
    # 1): that checkpoint is ignored; elsewhere the mean is far below -> reproduced.
    rows = _compare(small_table, [1.5, 10.0, 10.0], trivial=[1.0, 100.0, 100.0])
    assert bound_verdict(rows)["verdict"] == REPRODUCED
    # vacuous everywhere: inconclusive, however far below the bound the mean is
    everywhere = bound_verdict(_compare(small_table, [10.0, 10.0, 10.0], trivial=[5.0, 5.0, 5.0]))
    assert everywhere["verdict"] == INCONCLUSIVE
    assert everywhere["headline"] == "bound vacuous until t > 30 (at every checkpoint)"
    assert everywhere["informative_from"] == math.inf


def test_informative_from_needs_every_later_checkpoint(small_table):
    rows = _compare(small_table, [1.0, 200.0, 1.0], trivial=[100.0, 100.0, 100.0])
    assert informative_from(rows) == 30  # informative at 10, vacuous at 20, then not
    assert informative_from(_compare(small_table, [1.0, 1.0, 1.0])) == 10


def test_trivial_bound_and_vacuity():
    np.testing.assert_allclose(trivial_bound([1, 10], 0.5, offset=2.0), [2.5, 7.0])
    np.testing.assert_array_equal(
        is_vacuous([1.0, 5.0, np.nan], [2.0, 5.0, 9.0]), [False, True, True]
    )


def test_bound_verdict_zero_se_excess_is_clear(small_table):
    # t=30: mean 3 with se 0 vs bound 2.9: excess 0.1 > 0 = 2 se -> not reproduced.
    assert bound_verdict(_compare(small_table, [10.0, 10.0, 2.9]))["verdict"] == NOT_REPRODUCED


def test_bound_verdict_no_applicable_rows(small_table):
    result = bound_verdict(_compare(small_table, [np.nan, np.nan, np.nan]))
    assert result["verdict"] == INCONCLUSIVE
    assert "does not apply" in result["statistic"]


def test_bound_verdict_tolerates_duplicate_index(small_table):
    rows = pd.concat(
        [
            _compare(small_table, [10.0, 10.0, 10.0], name="lemma2_x"),
            _compare(small_table, [10.0, 10.0, 10.0], name="lemma2_y"),
        ]
    )
    assert bound_verdict(rows)["verdict"] == REPRODUCED
