"""The generic claim kinds (core/verdicts/kinds.py GENERIC_KINDS): each kind reaches every verdict
it can give, on a tiny hand-built context, and its decidability witnesses come out "reproduced"
(favourable) and "not reproduced" (unfavourable).

Expected verdicts and numbers are derived by hand in the comments, or from scipy's t-tests."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as st

from timebandits.core.verdicts.bounds import compare_to_bound
from timebandits.core.verdicts.combine import combine
from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.decidability import decide
from timebandits.core.verdicts.kinds import GENERIC_KINDS
from timebandits.core.verdicts.vocabulary import (
    INCONCLUSIVE,
    NOT_CHECKABLE,
    NOT_REPRODUCED,
    REPRODUCED,
    STATISTICAL,
)

CONFIG = {
    "claims": {
        "alpha": 0.05,
        "bootstrap_samples": 300,
        "fragile_share": 0.1,
        "run_factors": [2, 4, 8, 16],
    }
}
N = 8
Z = np.linspace(-1.0, 1.0, N)  # a small spread over repetitions, mean 0
SIGNS = np.array([1.0, -1.0] * (N // 2))  # ±1, mean exactly 0
LOG_T = (1.0, 10.0, 100.0, 1000.0, 10000.0)  # log-growth windows: [100, 10^4], middle 10^3


def trace(curve, ts=(1.0, 10.0, 100.0)) -> pd.DataFrame:
    """Metric ``m`` = curve(t) per repetition (curve returns N values)."""
    return pd.DataFrame(
        [
            {"repetition": r, "t": t, "m": float(v)}
            for t in ts
            for r, v in enumerate(np.asarray(curve(t), dtype=float))
        ]
    )


def final(values) -> pd.DataFrame:
    """``values`` at the horizon t = 100, rising linearly from 0 before it."""
    values = np.asarray(values, dtype=float)
    return trace(lambda t: values * t / 100.0)


def context(traces: dict, bounds=None, experiments=("e", "f")) -> ClaimContext:
    algorithms = sorted({a for _, a in traces} | {"a", "b"})
    paper = {
        "paper": {"key": "x"},
        "claims": [],
        "algorithms": {a: {"label": a.upper()} for a in algorithms},
        "experiments": {e: {"algorithms": algorithms} for e in experiments},
    }
    return ClaimContext(
        paper=paper, config=CONFIG, trace_of=lambda e, a: traces[(e, a)], bounds=bounds
    )


def claim(kind, **fields):
    return {"id": "c", "kind": kind, "where": "", "tested_as": "", "scope": "paper", **fields}


def verdicts(kind_name, claim_, ctx):
    return [r["verdict"] for r in GENERIC_KINDS[kind_name].evaluate(claim_, ctx)]


def witness_verdicts(kind_name, claim_, ctx):
    """{witness: combined verdict of its deciding rows}: favourable and unfavourable."""
    kind = GENERIC_KINDS[kind_name]
    return {
        name: combine(kind.evaluate(claim_, w), kind.evidence, w.alpha)[0]
        for name, w in kind.witnesses(claim_, ctx).items()
    }


WITNESSES = {"favourable": REPRODUCED, "unfavourable": NOT_REPRODUCED}
BASE = 100.0 + 10.0 * np.arange(N)  # level differs by run; pairing cancels it


# --------------------------------------------------------------------------- sign_at_horizon

SIGN = claim("sign_at_horizon", experiments=["e"], algorithms=["a"], metric="m", sign="negative")


@pytest.mark.parametrize(
    "values, sign, verdict",
    [
        (-2.0 + 0.1 * Z, "negative", REPRODUCED),  # mean -2, se ~0.02: p ~ 1e-12
        (2.0 + 0.1 * Z, "negative", NOT_REPRODUCED),  # clearly positive: p_opposite ~ 1e-12
        (2.0 + 0.1 * Z, "positive", REPRODUCED),
        (SIGNS, "negative", INCONCLUSIVE),  # mean exactly 0: t = 0, both p = 0.5
    ],
)
def test_sign_at_horizon_verdicts(values, sign, verdict):
    ctx = context({("e", "a"): final(values)})
    (row,) = GENERIC_KINDS["sign_at_horizon"].evaluate({**SIGN, "sign": sign}, ctx)
    assert row["verdict"] == verdict
    alternative = "less" if sign == "negative" else "greater"
    assert row["p_claimed"] == pytest.approx(
        st.ttest_1samp(values, 0.0, alternative=alternative).pvalue
    )


def test_sign_at_horizon_row_text():
    # -1 .. -8: mean -4.5, sd = sqrt(6) (the variance of 1..8, ddof 1, is 6),
    # se = sqrt(6)/sqrt(8) = 0.866. The t shown is the mean's, -4.5/0.866 = -5.196.
    values = -np.arange(1.0, N + 1)
    (row,) = GENERIC_KINDS["sign_at_horizon"].evaluate(SIGN, context({("e", "a"): final(values)}))
    p = st.ttest_1samp(values, 0.0, alternative="less").pvalue
    t = -4.5 / math.sqrt(6 / 8)
    assert row["headline"] == "mean -4.5 ± 0.87"
    assert row["statistic"] == (
        f"m at T of A: -4.5 ± 0.87 (mean ± s.e.), 8/8 runs negative; "
        f"t = {t:.2f}, one-sided p = {p:.2g} for a negative mean"
    )
    assert row["scope"] == "e A" and row["mean"] == -4.5


def test_sign_at_horizon_witnesses():
    ctx = context({("e", "a"): final(SIGNS)})
    assert witness_verdicts("sign_at_horizon", SIGN, ctx) == WITNESSES


# --------------------------------------------------------------------------- better_at_horizon

BETTER = claim("better_at_horizon", experiments=["e"], metric="m", better=["a"], worse=["b"])


@pytest.mark.parametrize(
    "shift, verdict",
    [
        (-5.0, REPRODUCED),  # a = b - 5 + 0.1 z: b - a = 5 - 0.1 z, se ~0.02, p ~ 1e-15
        (5.0, NOT_REPRODUCED),  # a above b in every run
        (0.0, INCONCLUSIVE),  # a = b ± 1 alternately: mean difference 0, p = 0.5
    ],
)
def test_better_at_horizon_verdicts(shift, verdict):
    noise = 0.1 * Z if shift else SIGNS
    ctx = context({("e", "a"): final(BASE + shift + noise), ("e", "b"): final(BASE)})
    (row,) = GENERIC_KINDS["better_at_horizon"].evaluate(BETTER, ctx)
    assert row["verdict"] == verdict
    assert row["p_claimed"] == pytest.approx(
        st.ttest_rel(BASE, BASE + shift + noise, alternative="greater").pvalue
    )


def test_better_at_horizon_witnesses():
    ctx = context({("e", "a"): final(BASE), ("e", "b"): final(BASE)})
    assert witness_verdicts("better_at_horizon", BETTER, ctx) == WITNESSES
    higher = {**BETTER, "direction": "higher", "min_ratio": 2.0}
    assert witness_verdicts("better_at_horizon", higher, ctx) == WITNESSES


# --------------------------------------------------------------------------- close_at_horizon

CLOSE = claim("close_at_horizon", experiments=["e"], metric="m", pair=["a", "b"], tolerance=0.1)


@pytest.mark.parametrize(
    "difference, verdict",
    [
        # mean of a and b ~ 135, margin ±13.5:
        (0.1 * Z, REPRODUCED),  # difference mean 0, se ~0.02: inside the margin
        (50.0 + 0.1 * Z, NOT_REPRODUCED),  # 50 > 13.5 with se ~0.02: outside
        (40.0 * SIGNS, INCONCLUSIVE),  # mean 0, se = 40·sqrt(8/7)/sqrt(8) = 15.1: t = -0.89
    ],
)
def test_close_at_horizon_verdicts(difference, verdict):
    ctx = context({("e", "a"): final(BASE + difference), ("e", "b"): final(BASE)})
    (row,) = GENERIC_KINDS["close_at_horizon"].evaluate(CLOSE, ctx)
    assert row["verdict"] == verdict
    margin = 0.1 * np.concatenate([BASE + difference, BASE]).mean()
    upper = st.ttest_1samp(difference, margin, alternative="less").pvalue
    lower = st.ttest_1samp(difference, -margin, alternative="greater").pvalue
    assert row["p_claimed"] == pytest.approx(max(upper, lower))


def test_close_at_horizon_witnesses():
    ctx = context({("e", "a"): final(BASE), ("e", "b"): final(BASE)})
    assert witness_verdicts("close_at_horizon", CLOSE, ctx) == WITNESSES


# --------------------------------------------------------------------------- wins_in_settings


def wins(need):
    return claim(
        "wins_in_settings",
        experiments=["e", "f"],
        algorithm="a",
        against=["b"],
        metric="m",
        min_settings=need,
    )


def wins_ctx(shift_e, shift_f):
    """a = b + shift + noise in each experiment (shift 0: ±1 alternately, mean exactly 0)."""

    def a(shift):
        return final(BASE + shift + (0.1 * Z if shift else SIGNS))

    return context(
        {
            ("e", "a"): a(shift_e),
            ("f", "a"): a(shift_f),
            ("e", "b"): final(BASE),
            ("f", "b"): final(BASE),
        }
    )


@pytest.mark.parametrize(
    "shifts, need, verdict, headline",
    [
        ((-5.0, -5.0), 2, REPRODUCED, "wins in 2/2 settings, needs 2"),
        ((-5.0, 0.0), 1, REPRODUCED, "wins in 1/2 settings, needs 1"),
        ((-5.0, 0.0), 2, INCONCLUSIVE, "wins in 1/2 settings, needs 2"),  # f undecided
        ((-5.0, 5.0), 2, NOT_REPRODUCED, "wins in 1/2 settings, needs 2"),  # f lost: 1 + 0 < 2
        ((5.0, 5.0), 1, NOT_REPRODUCED, "wins in 0/2 settings, needs 1"),
    ],
)
def test_wins_in_settings_verdicts(shifts, need, verdict, headline):
    (row,) = GENERIC_KINDS["wins_in_settings"].evaluate(wins(need), wins_ctx(*shifts))
    assert (row["scope"], row["verdict"], row["headline"]) == ("e,f", verdict, headline)


def test_wins_in_settings_witnesses():
    assert witness_verdicts("wins_in_settings", wins(2), wins_ctx(0.0, 0.0)) == WITNESSES


# --------------------------------------------------------------------------- log_growth

LOG = claim("log_growth", experiments=["e"], algorithm="a", metric="m", max_slope=math.log10(2))


def growth_ctx(curve):
    return context({("e", "a"): trace(curve, LOG_T)})


def steps(ratios):
    """0 up to t = 100, 1 at t = 1000, 1 + ratio at t = 10^4: a decade ratio ``ratios`` per run."""
    ratios = np.asarray(ratios, dtype=float)
    return lambda t: np.zeros(N) if t <= 100 else np.ones(N) if t <= 1000 else 1.0 + ratios


@pytest.mark.parametrize(
    "curve, extra, verdict, headline",
    [
        # window [max(10^4/100, 0), 10^4] = [100, 10^4], halves [100, 10^3] and [10^3, 10^4]: one
        # decade each. ln t: equal increases, slope exactly 0 in every run, CI (0, 0).
        (
            lambda t: math.log(t) * (1 + 0.01 * Z),
            {},
            REPRODUCED,
            "slope 0.00 (CI 0.00 to 0.00; needs ≤ 0.301)",
        ),
        # t: increases 9000 and 900, ratio 10, slope 1 in every run: above log10 2.
        (
            lambda t: t * (1 + 0.01 * Z),
            {},
            NOT_REPRODUCED,
            "slope 1.00 (CI 1.00 to 1.00; needs ≤ 0.301)",
        ),
        # ln t with a lower limit 0.2: slope 0 < 0.2.
        (
            lambda t: math.log(t) * (1 + 0.01 * Z),
            {"min_slope": 0.2},
            NOT_REPRODUCED,
            "slope 0.00 (CI 0.00 to 0.00; needs 0.2 to 0.301)",
        ),
        # constant: the earlier half does not grow, the ratio is undefined.
        (lambda t: np.ones(N), {}, INCONCLUSIVE, "flat over [100, 1e+04]: no growth to compare"),
        # the regime starts at the horizon: no window.
        (
            lambda t: t * np.ones(N),
            {"regime": {"from_t": 10000.0}},
            INCONCLUSIVE,
            "regime not reached: regime from t = 1e+04 (config)",
        ),
        # from t = 2000: [2000, 10^4] is under a decade.
        (
            lambda t: t * np.ones(N),
            {"regime": {"from_t": 2000.0}},
            INCONCLUSIVE,
            "window [2e+03, 1e+04] is under a decade (regime from t = 2e+03 (config))",
        ),
    ],
)
def test_log_growth_verdicts(curve, extra, verdict, headline):
    (row,) = GENERIC_KINDS["log_growth"].evaluate({**LOG, **extra}, growth_ctx(curve))
    assert (row["verdict"], row["headline"]) == (verdict, headline)


def test_log_growth_inconclusive_when_the_ci_straddles_the_limit():
    # Per-run ratios 1 and 3 alternately: the mean ratio is exactly 2 (sum 16 / 8 of 1 over 8),
    # on the limit; bootstrap resamples fall on both sides of it.
    (row,) = GENERIC_KINDS["log_growth"].evaluate(LOG, growth_ctx(steps(2.0 + SIGNS)))
    assert row["verdict"] == INCONCLUSIVE
    assert row["slope"] == pytest.approx(math.log10(2))
    assert row["ci_low"] < math.log10(2) < row["ci_high"]


def test_log_growth_witnesses():
    ctx = growth_ctx(lambda t: t * (1 + 0.01 * Z))
    assert witness_verdicts("log_growth", LOG, ctx) == WITNESSES


# --------------------------------------------------------------------------- below_bound

BELOW = claim("below_bound", experiments=["e"], algorithm="a", bounds=["thm"])


def bound_ctx(values, bound, trivial=(100.0, 100.0)):
    """A bound table at t = 10, 20 from (t x repetition) ``values``."""
    table = pd.DataFrame(values, index=pd.Index([10, 20], name="t"))
    bounds = compare_to_bound(
        table,
        np.array(bound, float),
        np.array(trivial, float),
        experiment="e",
        algorithm="a",
        bound_name="thm1",
        metric="m",
    )
    return context({}, bounds=bounds)


@pytest.mark.parametrize(
    "values, bound, trivial, verdict",
    [
        ([[1, 2, 3], [2, 3, 4]], (10, 10), (100, 100), REPRODUCED),  # means 2, 3 < 10
        ([[11, 12, 13], [2, 3, 4]], (10, 10), (100, 100), NOT_REPRODUCED),  # 12 - 10 > 2 · 0.577
        ([[9, 10, 12], [2, 3, 4]], (10, 10), (100, 100), INCONCLUSIVE),  # 10.33 - 10 < 2 · 0.88
        ([[11, 12, 13], [2, 3, 4]], (10, 10), (5, 5), INCONCLUSIVE),  # vacuous everywhere
        ([[11, 12, 13], [2, 3, 4]], (math.nan, math.nan), (5, 5), INCONCLUSIVE),  # never applies
    ],
)
def test_below_bound_verdicts(values, bound, trivial, verdict):
    (row,) = GENERIC_KINDS["below_bound"].evaluate(BELOW, bound_ctx(values, bound, trivial))
    assert (row["scope"], row["verdict"]) == ("e thm", verdict)


def test_below_bound_witnesses():
    # favourable: means at 0 < 10; unfavourable: means at the trivial bound 100 > 10, se 0.
    ctx = bound_ctx([[1, 2, 3], [2, 3, 4]], (10, 10))
    assert witness_verdicts("below_bound", BELOW, ctx) == WITNESSES


# --------------------------------------------------------------------------- not_checkable


def test_not_checkable():
    nc = claim("not_checkable", reason="NP-hard")
    kind = GENERIC_KINDS["not_checkable"]
    kind.check(nc, {})
    rows = kind.evaluate(nc, context({}))
    assert rows == [
        {"scope": "reason", "verdict": NOT_CHECKABLE, "headline": "NP-hard", "statistic": "NP-hard"}
    ]
    assert combine(rows, kind.evidence, 0.05) == (NOT_CHECKABLE, "")
    assert kind.witnesses(nc, context({})) == {}
    assert decide(nc, kind, context({})) == {
        "can_reproduce": False,
        "can_refute": False,
        "decidability": "not checkable: no computation decides it",
    }


def test_every_generic_kind_is_covered_here():
    assert sorted(GENERIC_KINDS) == [
        "below_bound",
        "better_at_horizon",
        "close_at_horizon",
        "log_growth",
        "not_checkable",
        "sign_at_horizon",
        "wins_in_settings",
    ]
    assert all(
        GENERIC_KINDS[k].evidence == STATISTICAL for k in GENERIC_KINDS if k != "not_checkable"
    )
