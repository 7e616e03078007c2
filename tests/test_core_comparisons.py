"""core/verdicts/comparisons.py and signs.py: verdicts of the generic comparison kinds
(better_at_horizon, close_at_horizon, wins_in_settings, sign_at_horizon) on synthetic traces,
and last_crossing.

Traces are handed to ClaimContext as frames (the make_ctx fixture of tests/conftest.py).
Expectations are worked out by hand in the comments, or from scipy's t-tests."""

import numpy as np
import pandas as pd
import pytest
from claims_fixtures import (
    ASSUMED,
    BASE,
    BETTER_CLAIM,
    JITTER,
    REPS,
    _without,
    horizon_trace,
    make_paper,
    trace_frame,
    wins_claim,
)
from scipy import stats as st

from timebandits.core.verdicts.combine import combine
from timebandits.core.verdicts.comparisons import (
    BetterAtHorizon,
    CloseAtHorizon,
    WinsInSettings,
    last_crossing,
)
from timebandits.core.verdicts.signs import SignAtHorizon
from timebandits.core.verdicts.vocabulary import (
    INCONCLUSIVE,
    NOT_REPRODUCED,
    REPRODUCED,
    STATISTICAL,
)

# --------------------------------------------------------------------------- better_at_horizon


def test_better_at_horizon_reproduced(make_ctx):
    # a = b - 5 + jitter in every repetition: diff = b - a = 5 - jitter, mean 5, se ~ 0.09,
    # t ~ 55 with df 9 -> p ~ 1e-12 < 0.05. a's file is shuffled: pairing must go by repetition.
    ctx = make_ctx(
        make_paper([BETTER_CLAIM]),
        {
            ("e", "a"): horizon_trace(BASE - 5 + JITTER, shuffle_seed=1),
            ("e", "b"): horizon_trace(BASE),
        },
    )
    BetterAtHorizon.check(BETTER_CLAIM, ctx.paper)
    rows = BetterAtHorizon.evaluate(BETTER_CLAIM, ctx)
    assert len(rows) == 1
    row = rows[0]
    assert row["verdict"] == REPRODUCED
    assert row["scope"] == "e A vs B"
    diff = BASE - (BASE - 5 + JITTER)
    assert row["p_claimed"] == pytest.approx(
        st.ttest_rel(BASE, BASE - 5 + JITTER, alternative="greater").pvalue
    )
    assert row["p_claimed"] < 1e-9
    assert row["value_claimed_lower"] == pytest.approx((BASE - 5 + JITTER).mean())
    assert row["value_claimed_higher"] == pytest.approx(BASE.mean())
    assert diff.mean() == pytest.approx(5.0)
    assert "10/10 runs lower" in row["statistic"]
    assert "A " in row["statistic"] and "B " in row["statistic"]  # labels, not ids


def test_better_at_horizon_not_reproduced(make_ctx):
    # a = b + 5 + jitter: every repetition is higher, p_opposite ~ 1e-12.
    ctx = make_ctx(
        make_paper([BETTER_CLAIM]),
        {("e", "a"): horizon_trace(BASE + 5 + JITTER), ("e", "b"): horizon_trace(BASE)},
    )
    (row,) = BetterAtHorizon.evaluate(BETTER_CLAIM, ctx)
    assert row["verdict"] == NOT_REPRODUCED
    assert row["p_claimed"] > 0.999
    assert "0/10 runs lower" in row["statistic"]


def test_better_at_horizon_inconclusive_exact_tie(make_ctx):
    # a = b + (+1, -1, +1, ...): mean difference exactly 0, t = 0, both p = 0.5.
    signs = np.array([1.0, -1.0] * (REPS // 2))
    ctx = make_ctx(
        make_paper([BETTER_CLAIM]),
        {("e", "a"): horizon_trace(BASE + signs), ("e", "b"): horizon_trace(BASE)},
    )
    (row,) = BetterAtHorizon.evaluate(BETTER_CLAIM, ctx)
    assert row["verdict"] == INCONCLUSIVE
    assert row["p_claimed"] == pytest.approx(0.5)


def test_better_at_horizon_inconclusive_same_distribution_noise(make_ctx):
    # Independent N(50, 1) draws for both algorithms (seed 12): no real difference. With this
    # seed the paired test is far from significant either way (checked against scipy below).
    rng = np.random.default_rng(12)
    a, b = rng.normal(50, 1, REPS), rng.normal(50, 1, REPS)
    p = st.ttest_rel(b, a, alternative="greater").pvalue
    assert 0.1 < p < 0.9
    ctx = make_ctx(
        make_paper([BETTER_CLAIM]), {("e", "a"): horizon_trace(a), ("e", "b"): horizon_trace(b)}
    )
    (row,) = BetterAtHorizon.evaluate(BETTER_CLAIM, ctx)
    assert row["verdict"] == INCONCLUSIVE
    assert row["p_claimed"] == pytest.approx(p)


def test_better_at_horizon_uses_the_horizon_only(make_ctx):
    # At t = 1 and t = 10 a is far worse, at the horizon (t = 100) clearly better.
    a = trace_frame({1: BASE + 500, 10: BASE + 500, 100: BASE - 5 + JITTER})
    ctx = make_ctx(make_paper([BETTER_CLAIM]), {("e", "a"): a, ("e", "b"): horizon_trace(BASE)})
    (row,) = BetterAtHorizon.evaluate(BETTER_CLAIM, ctx)
    assert row["verdict"] == REPRODUCED


def test_better_at_horizon_one_row_per_pair(make_ctx):
    claim = {**BETTER_CLAIM, "experiments": ["e", "f"], "better": ["a"], "worse": ["b", "c"]}
    paper = make_paper([claim], experiments=("e", "f"), algorithms=("a", "b", "c"))
    traces = {}
    for exp in ("e", "f"):
        traces[(exp, "a")] = horizon_trace(BASE - 5 + JITTER)
        traces[(exp, "b")] = horizon_trace(BASE)
        # c: a is better in e, worse in f
        traces[(exp, "c")] = horizon_trace(BASE if exp == "e" else BASE - 10)
    ctx = make_ctx(paper, traces)
    BetterAtHorizon.check(claim, paper)
    rows = BetterAtHorizon.evaluate(claim, ctx)
    assert [(r["scope"], r["verdict"]) for r in rows] == [
        ("e A vs B", REPRODUCED),
        ("e A vs C", REPRODUCED),
        ("f A vs B", REPRODUCED),
        ("f A vs C", NOT_REPRODUCED),
    ]
    # f: a - c = 5 - jitter in every run, p_opposite ~ 1e-12 < 0.05/4 (Bonferroni)
    assert combine(rows, STATISTICAL, 0.05)[0] == NOT_REPRODUCED


def test_better_at_horizon_effect_size(make_ctx):
    # b = 2.5 a in every run (a > 0): better than a by far, and by more than a factor 2, but not
    # by a factor 3. The test is on b - rho a.
    a = 100.0 + 10.0 * np.arange(REPS) + JITTER
    traces = {("e", "a"): horizon_trace(a), ("e", "b"): horizon_trace(2.5 * a)}
    for rho, verdict in ((2.0, REPRODUCED), (3.0, NOT_REPRODUCED), (2.5, INCONCLUSIVE)):
        claim = {**BETTER_CLAIM, "min_ratio": rho}
        ctx = make_ctx(make_paper([claim]), traces)
        (row,) = BetterAtHorizon.evaluate(claim, ctx)
        assert row["verdict"] == verdict, rho
        assert f"B/A = 2.5 (needs > {rho:g})" in row["headline"]
    with pytest.raises(ValueError, match="min_ratio"):
        BetterAtHorizon.check({**BETTER_CLAIM, "min_ratio": 0.5}, make_paper())


@pytest.mark.parametrize(
    "shift, verdict", [(5.0, REPRODUCED), (-5.0, NOT_REPRODUCED), (0.0, INCONCLUSIVE)]
)
def test_better_at_horizon_higher_direction(make_ctx, shift, verdict):
    # A reward: "a better" means a > b. a = b + shift + jitter; with shift 0 the jitter has mean
    # exactly 0 (p = 0.5).
    jitter = JITTER - JITTER.mean()
    claim = {**BETTER_CLAIM, "direction": "higher"}
    ctx = make_ctx(
        make_paper([claim]),
        {("e", "a"): horizon_trace(BASE + shift + jitter), ("e", "b"): horizon_trace(BASE)},
    )
    BetterAtHorizon.check(claim, ctx.paper)
    (row,) = BetterAtHorizon.evaluate(claim, ctx)
    assert row["verdict"] == verdict
    if shift > 0:
        assert "10/10 runs higher" in row["statistic"]
        assert row["p_claimed"] == pytest.approx(
            st.ttest_rel(BASE + shift + jitter, BASE, alternative="greater").pvalue
        )
    with pytest.raises(ValueError, match="direction must be"):
        BetterAtHorizon.check({**BETTER_CLAIM, "direction": "up"}, make_paper())


def test_better_at_horizon_higher_direction_effect_size(make_ctx):
    # a = 2.5 b: a higher by more than a factor 2, not by a factor 3.
    b = 100.0 + 10.0 * np.arange(REPS) + JITTER
    traces = {("e", "a"): horizon_trace(2.5 * b), ("e", "b"): horizon_trace(b)}
    for rho, verdict in ((2.0, REPRODUCED), (3.0, NOT_REPRODUCED)):
        claim = {**BETTER_CLAIM, "direction": "higher", "min_ratio": rho}
        (row,) = BetterAtHorizon.evaluate(claim, make_ctx(make_paper([claim]), traces))
        assert row["verdict"] == verdict, rho
        assert f"B/A = 0.4 (needs < {1 / rho:g})" in row["headline"]


# --------------------------------------------------------------------------- close_at_horizon

CLOSE_CLAIM = {
    "id": "c9",
    "kind": "close_at_horizon",
    "where": "Fig. 5",
    "tested_as": "a ~ b",
    "experiments": ["e"],
    "metric": "m",
    "pair": ["a", "b"],
    "tolerance": 0.02,
    "provenance": ASSUMED("tolerance"),
}


@pytest.mark.parametrize(
    "offset, verdict",
    [
        (0.0, REPRODUCED),  # difference = jitter (mean 0, s.e. 0.09); margin 0.02 x ~4600 = 92
        (300.0, NOT_REPRODUCED),  # difference 300 + jitter: 6.5% of the mean, far outside ±2%
        # the mean difference sits on the margin, d = 0.02 (4600 + d/2): neither side shown
        (92.0 / 0.99, INCONCLUSIVE),
    ],
)
def test_close_at_horizon(make_ctx, offset, verdict):
    jitter = JITTER - JITTER.mean()
    a = BASE + offset + jitter
    ctx = make_ctx(
        make_paper([CLOSE_CLAIM]), {("e", "a"): horizon_trace(a), ("e", "b"): horizon_trace(BASE)}
    )
    CloseAtHorizon.check(CLOSE_CLAIM, ctx.paper)
    (row,) = CloseAtHorizon.evaluate(CLOSE_CLAIM, ctx)
    margin = 0.02 * np.concatenate([a, BASE]).mean()
    diff = a - BASE
    tost = max(
        st.ttest_1samp(diff, margin, alternative="less").pvalue,
        st.ttest_1samp(diff, -margin, alternative="greater").pvalue,
    )
    assert row["p_claimed"] == pytest.approx(tost)
    assert row["verdict"] == verdict
    assert "margin ±2%" in row["headline"]


def test_close_at_horizon_check():
    paper = make_paper()
    CloseAtHorizon.check(CLOSE_CLAIM, paper)
    for key in ("pair", "tolerance", "metric"):
        with pytest.raises(ValueError, match=key):
            CloseAtHorizon.check(_without(CLOSE_CLAIM, key), paper)
    with pytest.raises(ValueError, match="pair must list two"):
        CloseAtHorizon.check({**CLOSE_CLAIM, "pair": ["a"]}, paper)
    with pytest.raises(ValueError, match=r"tolerance must lie in \(0, inf\]"):
        CloseAtHorizon.check({**CLOSE_CLAIM, "tolerance": 0}, paper)
    with pytest.raises(ValueError, match="'zzz' is not run"):
        CloseAtHorizon.check({**CLOSE_CLAIM, "pair": ["a", "zzz"]}, paper)


def test_last_crossing():
    t = pd.Index([1, 10, 100, 1000], name="t")
    first = pd.Series([5.0, 1.0, 3.0, 4.0], index=t)
    second = pd.Series([2.0, 2.0, 2.0, 2.0], index=t)
    assert last_crossing(first, second) == 100.0  # above, below, above: last change at 100
    assert last_crossing(first + 10, second) is None


# --------------------------------------------------------------------------- wins_in_settings


@pytest.fixture
def wins_ctx(make_ctx):
    # a vs b: clearly better in e, clearly worse in f, exact tie (t = 0) in g.
    # a vs c: clearly better everywhere.
    signs = np.array([1.0, -1.0] * (REPS // 2))
    a_of = {"e": BASE - 5 + JITTER, "f": BASE + 5 + JITTER, "g": BASE + signs}
    traces = {}
    for exp in ("e", "f", "g"):
        traces[(exp, "a")] = horizon_trace(a_of[exp])
        traces[(exp, "b")] = horizon_trace(BASE)
        traces[(exp, "c")] = horizon_trace(BASE + 50)
    paper = make_paper([], experiments=("e", "f", "g"), algorithms=("a", "b", "c"))
    return make_ctx(paper, traces)


@pytest.mark.parametrize(
    "min_settings, verdict",
    [
        (1, REPRODUCED),  # 1 win (e) >= 1
        (2, INCONCLUSIVE),  # 1 win + 1 undecided (g) could still reach 2
        (3, NOT_REPRODUCED),  # 1 win + 1 undecided < 3 (f is a loss)
    ],
)
def test_wins_in_settings_counts(wins_ctx, min_settings, verdict):
    claim = wins_claim(min_settings)
    WinsInSettings.check(claim, wins_ctx.paper)
    (row,) = WinsInSettings.evaluate(claim, wins_ctx)
    assert row["verdict"] == verdict
    assert row["scope"] == "e,f,g"
    assert "in 1/3 settings (e)" in row["statistic"]
    assert "worse than some rival in f" in row["statistic"]
    assert f"needs {min_settings}" in row["statistic"]


def test_wins_in_settings_needs_every_rival(wins_ctx):
    # Against c alone, a wins in all three settings; against b and c only e is a win.
    (row,) = WinsInSettings.evaluate(wins_claim(3, against=("c",)), wins_ctx)
    assert row["verdict"] == REPRODUCED
    assert "3/3 settings (e, f, g)" in row["statistic"]
    (row,) = WinsInSettings.evaluate(wins_claim(1, against=("b", "c")), wins_ctx)
    assert "1/3 settings (e)" in row["statistic"]
    assert row["verdict"] == REPRODUCED


# --------------------------------------------------------------------------- sign_at_horizon

SIGN_CLAIM = {
    "id": "c5",
    "kind": "sign_at_horizon",
    "where": "Fig. 3",
    "tested_as": "negative",
    "experiments": ["e"],
    "algorithms": ["a"],
    "metric": "m",
    "sign": "negative",
}


@pytest.mark.parametrize(
    "final, sign, verdict",
    [
        (-5.0 + JITTER, "negative", REPRODUCED),  # mean -5, s.e. 0.08: t = -62
        (5.0 + JITTER, "negative", NOT_REPRODUCED),  # clearly positive
        (JITTER, "negative", INCONCLUSIVE),  # mean 0: p = 0.5
        (5.0 + JITTER, "positive", REPRODUCED),
        (np.full(REPS, -1.0), "negative", REPRODUCED),  # zero spread: the sign is certain
    ],
)
def test_sign_at_horizon(make_ctx, final, sign, verdict):
    claim = {**SIGN_CLAIM, "sign": sign}
    ctx = make_ctx(make_paper([claim]), {("e", "a"): horizon_trace(final, early=100.0)})
    (row,) = SignAtHorizon.evaluate(claim, ctx)
    assert row["verdict"] == verdict
    assert row["mean"] == pytest.approx(np.mean(final))
    assert f"{int(np.sum(final < 0))}/{REPS} runs negative" in row["statistic"]


def test_sign_at_horizon_check():
    paper = make_paper()
    SignAtHorizon.check(SIGN_CLAIM, paper)
    with pytest.raises(ValueError, match="sign must be"):
        SignAtHorizon.check({**SIGN_CLAIM, "sign": "zero"}, paper)
    with pytest.raises(ValueError, match="algorithms"):
        SignAtHorizon.check(_without(SIGN_CLAIM, "algorithms"), paper)
    with pytest.raises(ValueError, match="'zzz' is not run"):
        SignAtHorizon.check({**SIGN_CLAIM, "algorithms": ["zzz"]}, paper)
