"""core/verdicts/claims.py and core/verdicts/bounds.py: verdicts of the generic claim kinds on synthetic traces.

Traces are written as parquet into a tmp dir and read back through ClaimContext, exactly as the
claims script does. Expectations are worked out by hand in the comments."""

import copy
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as st

from timebandits.core.sim.checkpoints import checkpoint_grid
from timebandits.core.trivial import is_vacuous, trivial_bound
from timebandits.core.verdicts.bounds import (
    COLUMNS,
    bound_verdict,
    compare_to_bound,
    informative_from,
)
from timebandits.core.verdicts.claims import evaluate_claims, thresholds
from timebandits.core.verdicts.combine import combine, decided_by
from timebandits.core.verdicts.comparisons import (
    BetterAtHorizon,
    CloseAtHorizon,
    SignAtHorizon,
    WinsInSettings,
    last_crossing,
)
from timebandits.core.verdicts.context import ClaimContext, fraction_test, paired_verdict
from timebandits.core.verdicts.growth import LogGrowth, growth_increments
from timebandits.core.verdicts.kinds import GENERIC_KINDS, BelowBound, NotCheckable
from timebandits.core.verdicts.vocabulary import (
    DETAIL_COLUMNS,
    EXACT,
    INCONCLUSIVE,
    NOT_CHECKABLE,
    NOT_REPRODUCED,
    REPRODUCED,
    STATISTICAL,
    SUMMARY_COLUMNS,
    SUPPORTS,
)

CONFIG = {"claims": {"alpha": 0.05, "bootstrap_samples": 500, "fragile_share": 0.1, "run_factors": [2, 4, 8, 16]}}


def ASSUMED(*names):  # noqa: N802 (reads like the config's provenance entries)
    return {name: {"source": "assumed", "why": "test"} for name in names}
REPS = 10


def make_paper(claims=(), experiments=("e",), algorithms=("a", "b")):
    return {
        "paper": {"key": "x"},
        "algorithms": {alg: {"label": alg.upper()} for alg in algorithms},
        "experiments": {exp: {"algorithms": list(algorithms)} for exp in experiments},
        "claims": list(claims),
    }


def trace_frame(values_by_t: dict, shuffle_seed=None) -> pd.DataFrame:
    """A trace with metric ``m`` from {t: values per repetition}."""
    rows = [{"repetition": r, "t": t, "m": float(v)}
            for t, vals in values_by_t.items() for r, v in enumerate(vals)]
    frame = pd.DataFrame(rows)
    if shuffle_seed is not None:
        frame = frame.sample(frac=1.0, random_state=shuffle_seed).reset_index(drop=True)
    return frame


@pytest.fixture
def make_ctx(tmp_path):
    def build(paper, traces: dict, bounds=None):
        return ClaimContext(paper=paper, config=copy.deepcopy(CONFIG),
                            trace_of=lambda exp, alg: traces[(exp, alg)], bounds=bounds)
    return build


def horizon_trace(final_values, early=0.0, shuffle_seed=None):
    """Checkpoints 1, 10, 100; the claim only reads t = 100 (the horizon)."""
    final_values = np.asarray(final_values, dtype=float)
    return trace_frame({1: np.full(final_values.size, early), 10: final_values / 2,
                        100: final_values}, shuffle_seed)


BASE = 100.0 + 1000.0 * np.arange(REPS)   # large spread across repetitions, paired noise cancels
JITTER = np.array([0.3, -0.2, 0.1, -0.4, 0.2, 0.0, -0.1, 0.4, -0.3, 0.0])


# --------------------------------------------------------------------------- combine & paired_verdict

@pytest.mark.parametrize("verdicts, expected", [
    ([], INCONCLUSIVE),
    ([REPRODUCED], REPRODUCED),
    ([REPRODUCED, REPRODUCED], REPRODUCED),
    ([REPRODUCED, INCONCLUSIVE], INCONCLUSIVE),
    ([INCONCLUSIVE, REPRODUCED, NOT_REPRODUCED], NOT_REPRODUCED),
    ([NOT_REPRODUCED, INCONCLUSIVE], NOT_REPRODUCED),
    ([INCONCLUSIVE], INCONCLUSIVE),
])
@pytest.mark.parametrize("evidence", [EXACT, STATISTICAL])
def test_combine_precedence(verdicts, expected, evidence):
    # rows without p-values: each counts with its own verdict, for either kind of evidence
    verdict, _ = combine([{"verdict": v} for v in verdicts], evidence, 0.05)
    assert verdict == expected


def test_combine_statistical_multiplicity():
    # Three sub-tests. "Reproduced" is an intersection-union test: every row at alpha, no
    # correction. "Not reproduced" needs one refutation at alpha/3 = 0.0167 (Bonferroni).
    def row(verdict, p_claimed, p_opposite):
        return {"verdict": verdict, "p_claimed": p_claimed, "p_opposite": p_opposite}
    all_pass = [row(REPRODUCED, 0.04, 0.96)] * 3
    verdict, note = combine(all_pass, STATISTICAL, 0.05)
    assert verdict == REPRODUCED and "intersection–union" in note and "Bonferroni" in note
    weak_refutation = [row(REPRODUCED, 0.01, 0.99), row(NOT_REPRODUCED, 0.97, 0.03)]
    assert combine(weak_refutation, STATISTICAL, 0.05)[0] == INCONCLUSIVE   # 0.03 > 0.05/2
    strong_refutation = [row(REPRODUCED, 0.01, 0.99), row(NOT_REPRODUCED, 0.99, 0.01)]
    assert combine(strong_refutation, STATISTICAL, 0.05)[0] == NOT_REPRODUCED
    # one row: no correction, no note
    assert combine([row(NOT_REPRODUCED, 0.97, 0.03)], STATISTICAL, 0.05) == (NOT_REPRODUCED, "")


def test_combine_not_checkable():
    assert combine([{"verdict": NOT_CHECKABLE}], NOT_CHECKABLE, 0.05) == (NOT_CHECKABLE, "")


def test_decided_by_names_the_settling_row():
    rows = [{"scope": "e", "verdict": REPRODUCED, "headline": "lower", "p_claimed": 0.001},
            {"scope": "f", "verdict": REPRODUCED, "headline": "lower", "p_claimed": 0.04}]
    assert decided_by(rows, REPRODUCED) == "f: lower, p = 0.04 (2 of 2 sub-checks reproduced)"
    rows[0].update(verdict=NOT_REPRODUCED, headline="higher", p_claimed=0.999, p_opposite=0.001)
    # a refuted claim shows the test that refutes it, against α/m, never its own p = 0.999
    assert decided_by(rows, NOT_REPRODUCED, 0.05) == (
        "e: higher; refuted by the opposite test, p = 0.001 < α/2 = 0.025 "
        "(1 of 2 sub-checks not reproduced)")
    assert decided_by(rows[:1], NOT_REPRODUCED, 0.05) == (
        "e: higher; refuted by the opposite test, p = 0.001 < α = 0.05")


def test_decided_by_shows_the_tightest_of_pooled_checks_without_p_values():
    # anonymous C1b showed its first bound check (0.158) where its worst was 0.841
    rows = [{"scope": "a", "verdict": REPRODUCED, "headline": "ratio 0.158", "tightness": 0.158},
            {"scope": "b", "verdict": REPRODUCED, "headline": "ratio 0.841", "tightness": 0.841},
            {"scope": "c", "verdict": REPRODUCED, "headline": "ratio 0.5", "tightness": 0.5}]
    assert decided_by(rows, REPRODUCED).startswith("b: ratio 0.841")
    rows[2].update(verdict=NOT_REPRODUCED, headline="ratio 1.2", tightness=1.2)
    rows[0].update(verdict=NOT_REPRODUCED, headline="ratio 3", tightness=3.0)
    assert decided_by(rows, NOT_REPRODUCED).startswith("a: ratio 3")


@pytest.mark.parametrize("successes, n, verdict", [
    (60, 60, REPRODUCED),      # P(X = 60 | p = 0.9) = 0.9^60 = 0.0018 < 0.05
    (20, 20, INCONCLUSIVE),    # 0.9^20 = 0.12: 20 runs cannot show >= 90%
    (40, 60, NOT_REPRODUCED),  # P(X <= 40 | 0.9) is tiny
])
def test_fraction_test(successes, n, verdict):
    test = fraction_test(successes, n, 0.9, 0.05)
    assert test["verdict"] == verdict
    assert test["p_claimed"] == pytest.approx(st.binom.sf(successes - 1, n, 0.9))
    assert test["p_opposite"] == pytest.approx(st.binom.cdf(successes, n, 0.9))


@pytest.mark.parametrize("p_claimed, p_opposite, expected", [
    (0.01, 0.99, REPRODUCED),
    (0.99, 0.01, NOT_REPRODUCED),
    (0.05, 0.95, INCONCLUSIVE),      # strict inequality at alpha
    (0.5, 0.5, INCONCLUSIVE),
    (math.nan, math.nan, INCONCLUSIVE),
])
def test_paired_verdict(p_claimed, p_opposite, expected):
    assert paired_verdict({"p_claimed": p_claimed, "p_opposite": p_opposite}, 0.05) == expected


# --------------------------------------------------------------------------- ClaimContext

def test_context_final_sorted_by_repetition_and_cached(make_ctx):
    frame = horizon_trace(BASE, shuffle_seed=4)
    ctx = make_ctx(make_paper(), {("e", "a"): frame})
    assert list(ctx.final("e", "a", "m")) == list(BASE)        # repetition order, not file order
    assert ctx.trace("e", "a") is ctx.trace("e", "a")
    table = ctx.at("e", "a", "m")
    assert list(table.index) == [1, 10, 100]
    assert list(table.columns) == list(range(REPS))
    assert ctx.alpha == 0.05
    assert ctx.label("b") == "B"
    with pytest.raises(KeyError):
        ctx.trace("e", "b")


# --------------------------------------------------------------------------- better_at_horizon

BETTER_CLAIM = {"id": "c1", "kind": "better_at_horizon", "where": "Fig. 1", "tested_as": "a beats b",
                "experiments": ["e"], "metric": "m", "better": ["a"], "worse": ["b"]}


def test_better_at_horizon_reproduced(make_ctx):
    # a = b - 5 + jitter in every repetition: diff = b - a = 5 - jitter, mean 5, se ~ 0.09,
    # t ~ 55 with df 9 -> p ~ 1e-12 < 0.05. a's file is shuffled: pairing must go by repetition.
    ctx = make_ctx(make_paper([BETTER_CLAIM]), {
        ("e", "a"): horizon_trace(BASE - 5 + JITTER, shuffle_seed=1),
        ("e", "b"): horizon_trace(BASE)})
    BetterAtHorizon.check(BETTER_CLAIM, ctx.paper)
    rows = BetterAtHorizon.evaluate(BETTER_CLAIM, ctx)
    assert len(rows) == 1
    row = rows[0]
    assert row["verdict"] == REPRODUCED
    assert row["scope"] == "e A vs B"
    diff = BASE - (BASE - 5 + JITTER)
    assert row["p_claimed"] == pytest.approx(st.ttest_rel(BASE, BASE - 5 + JITTER,
                                                         alternative="greater").pvalue)
    assert row["p_claimed"] < 1e-9
    assert row["value_claimed_lower"] == pytest.approx((BASE - 5 + JITTER).mean())
    assert row["value_claimed_higher"] == pytest.approx(BASE.mean())
    assert diff.mean() == pytest.approx(5.0)
    assert "10/10 runs lower" in row["statistic"]
    assert "A " in row["statistic"] and "B " in row["statistic"]   # labels, not ids


def test_better_at_horizon_not_reproduced(make_ctx):
    # a = b + 5 + jitter: every repetition is higher, p_opposite ~ 1e-12.
    ctx = make_ctx(make_paper([BETTER_CLAIM]), {
        ("e", "a"): horizon_trace(BASE + 5 + JITTER),
        ("e", "b"): horizon_trace(BASE)})
    row, = BetterAtHorizon.evaluate(BETTER_CLAIM, ctx)
    assert row["verdict"] == NOT_REPRODUCED
    assert row["p_claimed"] > 0.999
    assert "0/10 runs lower" in row["statistic"]


def test_better_at_horizon_inconclusive_exact_tie(make_ctx):
    # a = b + (+1, -1, +1, ...): mean difference exactly 0, t = 0, both p = 0.5.
    signs = np.array([1.0, -1.0] * (REPS // 2))
    ctx = make_ctx(make_paper([BETTER_CLAIM]), {
        ("e", "a"): horizon_trace(BASE + signs),
        ("e", "b"): horizon_trace(BASE)})
    row, = BetterAtHorizon.evaluate(BETTER_CLAIM, ctx)
    assert row["verdict"] == INCONCLUSIVE
    assert row["p_claimed"] == pytest.approx(0.5)


def test_better_at_horizon_inconclusive_same_distribution_noise(make_ctx):
    # Independent N(50, 1) draws for both algorithms (seed 12): no real difference. With this
    # seed the paired test is far from significant either way (checked against scipy below).
    rng = np.random.default_rng(12)
    a, b = rng.normal(50, 1, REPS), rng.normal(50, 1, REPS)
    p = st.ttest_rel(b, a, alternative="greater").pvalue
    assert 0.1 < p < 0.9
    ctx = make_ctx(make_paper([BETTER_CLAIM]), {("e", "a"): horizon_trace(a),
                                                ("e", "b"): horizon_trace(b)})
    row, = BetterAtHorizon.evaluate(BETTER_CLAIM, ctx)
    assert row["verdict"] == INCONCLUSIVE
    assert row["p_claimed"] == pytest.approx(p)


def test_better_at_horizon_uses_the_horizon_only(make_ctx):
    # At t = 1 and t = 10 a is far worse, at the horizon (t = 100) clearly better.
    a = trace_frame({1: BASE + 500, 10: BASE + 500, 100: BASE - 5 + JITTER})
    ctx = make_ctx(make_paper([BETTER_CLAIM]), {("e", "a"): a, ("e", "b"): horizon_trace(BASE)})
    row, = BetterAtHorizon.evaluate(BETTER_CLAIM, ctx)
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
        ("e A vs B", REPRODUCED), ("e A vs C", REPRODUCED), ("f A vs B", REPRODUCED),
        ("f A vs C", NOT_REPRODUCED)]
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
        row, = BetterAtHorizon.evaluate(claim, ctx)
        assert row["verdict"] == verdict, rho
        assert f"B/A = 2.5 (needs > {rho:g})" in row["headline"]
    with pytest.raises(ValueError, match="min_ratio"):
        BetterAtHorizon.check({**BETTER_CLAIM, "min_ratio": 0.5}, make_paper())


@pytest.mark.parametrize("shift, verdict", [(5.0, REPRODUCED), (-5.0, NOT_REPRODUCED),
                                            (0.0, INCONCLUSIVE)])
def test_better_at_horizon_higher_direction(make_ctx, shift, verdict):
    # A reward: "a better" means a > b. a = b + shift + jitter; with shift 0 the jitter has mean
    # exactly 0 (p = 0.5).
    jitter = JITTER - JITTER.mean()
    claim = {**BETTER_CLAIM, "direction": "higher"}
    ctx = make_ctx(make_paper([claim]), {("e", "a"): horizon_trace(BASE + shift + jitter),
                                         ("e", "b"): horizon_trace(BASE)})
    BetterAtHorizon.check(claim, ctx.paper)
    row, = BetterAtHorizon.evaluate(claim, ctx)
    assert row["verdict"] == verdict
    if shift > 0:
        assert "10/10 runs higher" in row["statistic"]
        assert row["p_claimed"] == pytest.approx(st.ttest_rel(BASE + shift + jitter, BASE,
                                                             alternative="greater").pvalue)
    with pytest.raises(ValueError, match="direction must be"):
        BetterAtHorizon.check({**BETTER_CLAIM, "direction": "up"}, make_paper())


def test_better_at_horizon_higher_direction_effect_size(make_ctx):
    # a = 2.5 b: a higher by more than a factor 2, not by a factor 3.
    b = 100.0 + 10.0 * np.arange(REPS) + JITTER
    traces = {("e", "a"): horizon_trace(2.5 * b), ("e", "b"): horizon_trace(b)}
    for rho, verdict in ((2.0, REPRODUCED), (3.0, NOT_REPRODUCED)):
        claim = {**BETTER_CLAIM, "direction": "higher", "min_ratio": rho}
        row, = BetterAtHorizon.evaluate(claim, make_ctx(make_paper([claim]), traces))
        assert row["verdict"] == verdict, rho
        assert f"B/A = 0.4 (needs < {1 / rho:g})" in row["headline"]


# --------------------------------------------------------------------------- close_at_horizon

CLOSE_CLAIM = {"id": "c9", "kind": "close_at_horizon", "where": "Fig. 5", "tested_as": "a ~ b",
               "experiments": ["e"], "metric": "m", "pair": ["a", "b"], "tolerance": 0.02,
               "provenance": ASSUMED("tolerance")}


@pytest.mark.parametrize("offset, verdict", [
    (0.0, REPRODUCED),        # difference = jitter (mean 0, s.e. 0.09); margin 0.02 x ~4600 = 92
    (300.0, NOT_REPRODUCED),  # difference 300 + jitter: 6.5% of the mean, far outside ±2%
    # the mean difference sits on the margin, d = 0.02 (4600 + d/2): neither side shown
    (92.0 / 0.99, INCONCLUSIVE),
])
def test_close_at_horizon(make_ctx, offset, verdict):
    jitter = JITTER - JITTER.mean()
    a = BASE + offset + jitter
    ctx = make_ctx(make_paper([CLOSE_CLAIM]), {("e", "a"): horizon_trace(a),
                                               ("e", "b"): horizon_trace(BASE)})
    CloseAtHorizon.check(CLOSE_CLAIM, ctx.paper)
    row, = CloseAtHorizon.evaluate(CLOSE_CLAIM, ctx)
    margin = 0.02 * np.concatenate([a, BASE]).mean()
    diff = a - BASE
    tost = max(st.ttest_1samp(diff, margin, alternative="less").pvalue,
               st.ttest_1samp(diff, -margin, alternative="greater").pvalue)
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
    assert last_crossing(first, second) == 100.0       # above, below, above: last change at 100
    assert last_crossing(first + 10, second) is None


# --------------------------------------------------------------------------- decade_ratio & log_growth

def test_growth_increments_use_nearest_checkpoints():
    # Window [100, 10000]: halves split at sqrt(100 * 10000) = 1000, present; nearest to 100
    # among 97 and 104 is 97 (|3| < |4|).
    # Repetition 0: m(T) = 50, m(1000) = 20, m(97) = 5  -> increments [30, 15]
    # Repetition 1: m(T) = 80, m(1000) = 30, m(97) = 10 -> increments [50, 20]
    table = pd.DataFrame({0: [0.0, 5.0, 99.0, 20.0, 50.0], 1: [0.0, 10.0, 99.0, 30.0, 80.0]},
                         index=pd.Index([1, 97, 104, 1000, 10000], name="t"))
    inc, span = growth_increments(table, 100.0, 10000.0)
    np.testing.assert_allclose(inc, [[30.0, 15.0], [50.0, 20.0]])
    assert span == pytest.approx(1.0)     # log10(10000 / 1000): one decade per half


def test_growth_increments_of_log_and_linear_curves():
    t = np.array([1, 10, 100, 1000, 10000])
    # a ln t: increments a ln 10 over each decade -> ratio 1; c t: (T - T/10)/(T/10 - T/100) = 10
    log_inc, _ = growth_increments(pd.DataFrame({0: 2 * np.log(t), 1: 3 * np.log(t)}, index=t), 100, 10000)
    lin_inc, _ = growth_increments(pd.DataFrame({0: 2.0 * t, 1: 3.0 * t}, index=t), 100, 10000)
    np.testing.assert_allclose(log_inc[:, 0] / log_inc[:, 1], [1.0, 1.0])
    np.testing.assert_allclose(lin_inc[:, 0] / lin_inc[:, 1], [10.0, 10.0])


LOG_CLAIM = {"id": "c2", "kind": "log_growth", "where": "Thm 2", "tested_as": "log regret",
             "experiments": ["e"], "algorithm": "a", "metric": "m", "max_slope": math.log10(2),
             "provenance": ASSUMED("max_slope")}
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
    row, = LogGrowth.evaluate(LOG_CLAIM, ctx)
    assert row["slope"] == pytest.approx(0.0, abs=0.01)
    assert row["ci_low"] <= row["slope"] <= row["ci_high"] <= math.log10(2)
    assert row["verdict"] == REPRODUCED


def test_log_growth_linear_curve_not_reproduced(make_ctx):
    # m = (1 + 0.1 r) t: ratio (T - T/10)/(T/10 - T/100) = 0.9/0.09 = 10, slope 1 > log10 2.
    frame = grid_trace(lambda t, r: (1 + 0.1 * r) * t)
    ctx = make_ctx(make_paper([LOG_CLAIM]), {("e", "a"): frame})
    row, = LogGrowth.evaluate(LOG_CLAIM, ctx)
    assert row["slope"] == pytest.approx(1.0, rel=1e-3)
    assert row["ci_low"] > math.log10(2)
    assert row["verdict"] == NOT_REPRODUCED


def test_log_growth_sqrt_curve_not_reproduced(make_ctx):
    # t^0.5 gives slope 0.5 > log10 2.
    frame = grid_trace(lambda t, r: (1 + 0.1 * r) * math.sqrt(t))
    ctx = make_ctx(make_paper([LOG_CLAIM]), {("e", "a"): frame})
    row, = LogGrowth.evaluate(LOG_CLAIM, ctx)
    assert row["slope"] == pytest.approx(0.5, rel=1e-3)
    assert row["verdict"] == NOT_REPRODUCED


def test_log_growth_inconclusive_when_ci_straddles_threshold(make_ctx):
    # T = 10^4; m(100) = 0, m(1000) = 1, m(T) = 1 + (2 +- 1.5): the ratio of mean increments is
    # exactly 2/1 = 2 (slope log10 2), but the rows alternate 3.5 and 0.5, so the bootstrap CI
    # straddles it.
    last = 1 + 2 + np.array([1.5, -1.5] * (REPS // 2))
    frame = trace_frame({1: np.zeros(REPS), 100: np.zeros(REPS), 1000: np.ones(REPS), 10000: last})
    ctx = make_ctx(make_paper([LOG_CLAIM]), {("e", "a"): frame})
    row, = LogGrowth.evaluate(LOG_CLAIM, ctx)
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
    row, = LogGrowth.evaluate(LOG_CLAIM, ctx)
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
    row, = LogGrowth.evaluate({**LOG_CLAIM, "min_slope": -0.3}, ctx)
    assert row["verdict"] == NOT_REPRODUCED and row["slope"] < -2
    row, = LogGrowth.evaluate(LOG_CLAIM, ctx)
    assert row["verdict"] == REPRODUCED


def test_log_growth_window_before_the_regime_is_inconclusive(make_ctx):
    # Linear until the regime starts, logarithmic after. A regime from t = 5*10^6 leaves under a
    # decade before T = 10^7: inconclusive, whatever the curve. From 10^4 the window is [10^5, T]
    # (T/100 is later), the curve is logarithmic there: reproduced.
    curve = lambda t, r: (1 + 0.1 * r) * (min(t, 1e4) + 1e3 * math.log(max(t, 1e4)))  # noqa: E731
    ctx = make_ctx(make_paper([LOG_CLAIM]), {("e", "a"): grid_trace(curve)})
    row, = LogGrowth.evaluate({**LOG_CLAIM, "regime": {"from_t": 5e6}}, ctx)
    assert row["verdict"] == INCONCLUSIVE and "under a decade" in row["headline"]
    row, = LogGrowth.evaluate({**LOG_CLAIM, "regime": {"from_t": 1e4}}, ctx)
    assert row["verdict"] == REPRODUCED and row["window_start"] == pytest.approx(1e5)
    # the same curve judged over [10^3, 10^5] (T = 10^5 traces would): the linear part decides
    row, = LogGrowth.evaluate({**LOG_CLAIM, "regime": {"from_t": 2e7}}, ctx)
    assert row["verdict"] == INCONCLUSIVE and "regime not reached" in row["headline"]


def test_log_growth_regime_from_a_bound(make_ctx):
    # The regime starts where the bound table's bound is informative up to T: vacuous up to
    # t = 10^6 here, so the window is [first checkpoint after 10^6, T], just over a decade.
    frame = grid_trace(lambda t, r: (1 + 0.1 * r) * math.log(t))
    ctx = make_ctx(make_paper([LOG_CLAIM]), {("e", "a"): frame})
    table = ctx.at("e", "a", "m")
    t = table.index.to_numpy(dtype=float)
    bounds = compare_to_bound(table, np.where(t <= 1e6, 2 * t, 0.5 * t), t,
                              experiment="e", algorithm="a", bound_name="theorem2", metric="m")
    ctx.bounds = bounds
    claim = {**LOG_CLAIM, "regime": {"bound": "theorem2"}}
    LogGrowth.check(claim, ctx.paper)
    row, = LogGrowth.evaluate(claim, ctx)
    assert 1e6 < row["window_start"] <= t[t > 1e6].min()
    assert row["verdict"] == INCONCLUSIVE and "under a decade" in row["headline"]
    with pytest.raises(ValueError, match="regime"):
        LogGrowth.check({**LOG_CLAIM, "regime": {"when": 3}}, ctx.paper)


# --------------------------------------------------------------------------- wins_in_settings

def wins_claim(min_settings, against=("b",)):
    return {"id": "c3", "kind": "wins_in_settings", "where": "Sec. 7", "tested_as": "a wins",
            "experiments": ["e", "f", "g"], "algorithm": "a", "against": list(against),
            "metric": "m", "min_settings": min_settings, "provenance": ASSUMED("min_settings")}


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


@pytest.mark.parametrize("min_settings, verdict", [
    (1, REPRODUCED),        # 1 win (e) >= 1
    (2, INCONCLUSIVE),      # 1 win + 1 undecided (g) could still reach 2
    (3, NOT_REPRODUCED),    # 1 win + 1 undecided < 3 (f is a loss)
])
def test_wins_in_settings_counts(wins_ctx, min_settings, verdict):
    claim = wins_claim(min_settings)
    WinsInSettings.check(claim, wins_ctx.paper)
    row, = WinsInSettings.evaluate(claim, wins_ctx)
    assert row["verdict"] == verdict
    assert row["scope"] == "e,f,g"
    assert "in 1/3 settings (e)" in row["statistic"]
    assert "worse than some rival in f" in row["statistic"]
    assert f"needs {min_settings}" in row["statistic"]


def test_wins_in_settings_needs_every_rival(wins_ctx):
    # Against c alone, a wins in all three settings; against b and c only e is a win.
    row, = WinsInSettings.evaluate(wins_claim(3, against=("c",)), wins_ctx)
    assert row["verdict"] == REPRODUCED
    assert "3/3 settings (e, f, g)" in row["statistic"]
    row, = WinsInSettings.evaluate(wins_claim(1, against=("b", "c")), wins_ctx)
    assert "1/3 settings (e)" in row["statistic"]
    assert row["verdict"] == REPRODUCED


# --------------------------------------------------------------------------- check(): malformed claims

def _without(claim, key):
    return {k: v for k, v in claim.items() if k != key}


BELOW_CLAIM = {"id": "c4", "kind": "below_bound", "where": "Thm 2", "tested_as": "below",
               "experiments": ["e"], "algorithm": "a", "bounds": ["theorem2"]}

CHECK_CASES = [
    (BetterAtHorizon, BETTER_CLAIM, ["experiments", "metric", "better", "worse"],
     lambda c: {**c, "better": ["zzz"]}),
    (LogGrowth, LOG_CLAIM, ["experiments", "algorithm", "metric", "max_slope"],
     lambda c: {**c, "algorithm": "zzz"}),
    (WinsInSettings, wins_claim(1), ["experiments", "algorithm", "against", "metric",
                                     "min_settings"],
     lambda c: {**c, "against": ["b", "zzz"]}),
    (BelowBound, BELOW_CLAIM, ["experiments", "algorithm", "bounds"],
     lambda c: {**c, "algorithm": "zzz"}),
]


@pytest.mark.parametrize("kind, claim, required, bad_algorithm", CHECK_CASES,
                         ids=[c[0].__name__ for c in CHECK_CASES])
def test_check_rejects_malformed_claims(kind, claim, required, bad_algorithm):
    paper = make_paper(experiments=("e", "f", "g"))
    kind.check(claim, paper)                                   # well-formed: no error
    for key in required:
        with pytest.raises(ValueError, match=key):
            kind.check(_without(claim, key), paper)
    with pytest.raises(ValueError, match="unknown experiment 'nope'"):
        kind.check({**claim, "experiments": ["e", "nope"]}, paper)
    with pytest.raises(ValueError, match="'zzz' is not run in experiment"):
        kind.check(bad_algorithm(claim), paper)


def test_check_rejects_algorithm_defined_but_not_run():
    paper = make_paper()
    paper["algorithms"]["c"] = {"label": "C"}                 # defined, but e runs only a and b
    with pytest.raises(ValueError, match="'c' is not run in experiment 'e'"):
        BetterAtHorizon.check({**BETTER_CLAIM, "worse": ["b", "c"]}, paper)


def test_generic_kinds_registry():
    assert GENERIC_KINDS == {"below_bound": BelowBound, "better_at_horizon": BetterAtHorizon,
                             "close_at_horizon": CloseAtHorizon, "log_growth": LogGrowth, "not_checkable": NotCheckable,
                             "sign_at_horizon": SignAtHorizon, "wins_in_settings": WinsInSettings}


# --------------------------------------------------------------------------- sign_at_horizon

SIGN_CLAIM = {"id": "c5", "kind": "sign_at_horizon", "where": "Fig. 3", "tested_as": "negative",
              "experiments": ["e"], "algorithms": ["a"], "metric": "m", "sign": "negative"}


@pytest.mark.parametrize("final, sign, verdict", [
    (-5.0 + JITTER, "negative", REPRODUCED),      # mean -5, s.e. 0.08: t = -62
    (5.0 + JITTER, "negative", NOT_REPRODUCED),   # clearly positive
    (JITTER, "negative", INCONCLUSIVE),           # mean 0: p = 0.5
    (5.0 + JITTER, "positive", REPRODUCED),
    (np.full(REPS, -1.0), "negative", REPRODUCED),  # zero spread: the sign is certain
])
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


# --------------------------------------------------------------------------- bounds

@pytest.fixture
def small_table():
    # 3 repetitions at t = 10, 20, 30:
    #   t=10: [1, 2, 3] mean 2, sd 1, se 1/sqrt3 = 0.5774, max 3
    #   t=20: [2, 4, 6] mean 4, sd 2, se 2/sqrt3 = 1.1547, max 6
    #   t=30: [3, 3, 3] mean 3, se 0,                      max 3
    return pd.DataFrame([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [3.0, 3.0, 3.0]],
                        index=pd.Index([10, 20, 30], name="t"), columns=[0, 1, 2])


def _compare(table, bound, trivial=(100.0, 100.0, 100.0), name="theorem2"):
    return compare_to_bound(table, np.array(bound, dtype=float), np.array(trivial, dtype=float),
                            experiment="e", algorithm="a", bound_name=name, metric="m")


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
    assert result["max_ratio"] == pytest.approx(0.4)        # 4/10 at t = 20
    assert "t = 20" in result["statistic"]
    assert "the bound: 0/2" in result["statistic"]           # of 2 informative, not 3
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
    assert informative_from(rows) == 30          # informative at 10, vacuous at 20, then not
    assert informative_from(_compare(small_table, [1.0, 1.0, 1.0])) == 10


def test_trivial_bound_and_vacuity():
    np.testing.assert_allclose(trivial_bound([1, 10], 0.5, offset=2.0), [2.5, 7.0])
    np.testing.assert_array_equal(is_vacuous([1.0, 5.0, np.nan], [2.0, 5.0, 9.0]),
                                  [False, True, True])


def test_bound_verdict_zero_se_excess_is_clear(small_table):
    # t=30: mean 3 with se 0 vs bound 2.9: excess 0.1 > 0 = 2 se -> not reproduced.
    assert bound_verdict(_compare(small_table, [10.0, 10.0, 2.9]))["verdict"] == NOT_REPRODUCED


def test_bound_verdict_no_applicable_rows(small_table):
    result = bound_verdict(_compare(small_table, [np.nan, np.nan, np.nan]))
    assert result["verdict"] == INCONCLUSIVE
    assert "does not apply" in result["statistic"]


def test_bound_verdict_tolerates_duplicate_index(small_table):
    rows = pd.concat([_compare(small_table, [10.0, 10.0, 10.0], name="lemma2_x"),
                      _compare(small_table, [10.0, 10.0, 10.0], name="lemma2_y")])
    assert bound_verdict(rows)["verdict"] == REPRODUCED


def test_below_bound_claim_selects_algorithm_experiment_and_prefix(make_ctx, small_table):
    bounds = pd.concat([
        _compare(small_table, [10.0, 10.0, 10.0], name="theorem2"),            # a, e: below
        _compare(small_table, [10.0, 3.0, 10.0], name="lemma2_k1_j1"),         # a, e: within 2 se
        _compare(small_table, [10.0, 10.0, 10.0], name="lemma2_k1_j2"),        # a, e: below
        # other algorithm / experiment far above their bounds: must be ignored
        compare_to_bound(small_table, np.full(3, 0.1), np.full(3, 100.0), experiment="e",
                         algorithm="b", bound_name="theorem2", metric="m"),
        compare_to_bound(small_table, np.full(3, 0.1), np.full(3, 100.0), experiment="f",
                         algorithm="a", bound_name="theorem2", metric="m"),
    ], ignore_index=True)
    claim = {**BELOW_CLAIM, "bounds": ["theorem2", "lemma2"]}
    paper = make_paper([claim], experiments=("e", "f"))
    ctx = make_ctx(paper, {}, bounds=bounds)
    BelowBound.check(claim, paper)
    rows = BelowBound.evaluate(claim, ctx)
    assert [(r["scope"], r["verdict"]) for r in rows] == [
        ("e theorem2", REPRODUCED), ("e lemma2", INCONCLUSIVE)]
    assert "the bound: 1/6" in rows[1]["statistic"]      # two lemma2 bounds x 3 checkpoints
    rows_f = BelowBound.evaluate({**claim, "experiments": ["f"], "bounds": ["theorem2"]}, ctx)
    assert [r["verdict"] for r in rows_f] == [NOT_REPRODUCED]


def test_below_bound_needs_bound_table(make_ctx):
    ctx = make_ctx(make_paper([BELOW_CLAIM]), {})
    with pytest.raises(ValueError, match="bound table"):
        BelowBound.evaluate(BELOW_CLAIM, ctx)


# --------------------------------------------------------------------------- evaluate_claims

def test_evaluate_claims_end_to_end(make_ctx, small_table):
    claims = [BETTER_CLAIM, LOG_CLAIM, {**BELOW_CLAIM, "bounds": ["theorem2"]},
              {"id": "c6", "kind": "not_checkable", "where": "Thm 1", "tested_as": "NP-hard",
               "reason": "a complexity statement"}]
    claims = [{"scope": "paper", **c} for c in claims]
    paper = make_paper(claims)
    bounds = _compare(small_table, [10.0, 10.0, 10.0])
    ctx = make_ctx(paper, {
        ("e", "a"): trace_frame({1: np.zeros(REPS), 10: np.full(REPS, 10.0),
                                 100: np.full(REPS, 20.0), 1000: BASE - 5 + JITTER}),
        ("e", "b"): trace_frame({1: np.zeros(REPS), 10: np.zeros(REPS), 100: np.zeros(REPS),
                                 1000: BASE}),
    }, bounds=bounds)
    summary, details = evaluate_claims(paper, ctx, GENERIC_KINDS)
    assert list(summary.columns) == ["claim", "scope", "where", "quote", "tested_as", "kind", "evidence",
                                     "verdict", "decided_by", "can_reproduce", "can_refute",
                                     "decidability", "thresholds", "multiplicity", "flips_at",
                                     "fragile", "runs_to_decide", "parent", "cause", "cause_line",
                                     "variants"]
    assert list(summary["can_reproduce"]) == [True, True, True, False]
    assert list(summary["can_refute"]) == [True, True, True, False]
    assert list(summary["claim"]) == ["c1", "c2", "c4", "c6"]
    # c1: a lower at the horizon t = 1000 in every run -> reproduced.
    # c2: a's increments m(1000) - m(100) = BASE - 25 + jitter (>= 75) over m(100) - m(10) = 10:
    #     mean ratio (4600 - 25)/10 = 457.5, slope log10 457.5 = 2.66 >> log10 2 -> not
    #     reproduced.
    # c4: means 2, 4, 3 below bound 10 -> reproduced.
    assert list(summary["verdict"]) == [REPRODUCED, NOT_REPRODUCED, REPRODUCED, NOT_CHECKABLE]
    assert list(summary["evidence"]) == [STATISTICAL] * 3 + [NOT_CHECKABLE]
    assert summary.loc[0, "decided_by"].startswith("e A vs B: 10/10 runs lower, p = ")
    assert summary.loc[3, "decided_by"] == "reason: a complexity statement"
    assert list(details["claim"]) == ["c1", "c2", "c4", "c6"]
    assert details.loc[1, "slope"] == pytest.approx(math.log10((BASE.mean() - 25) / 10))
    assert set(details["role"]) == {"decides"}


def test_evaluate_claims_rejects_a_config_fixed_deciding_row(make_ctx):
    # A statistical claim must not be decided by an exact row; as a supporting row it is shown
    # but does not move the verdict.
    class Mixed:
        evidence = STATISTICAL

        @staticmethod
        def witnesses(claim, ctx):
            return {}

        @staticmethod
        def evaluate(claim, ctx):
            return [{"scope": "s", "verdict": REPRODUCED, "headline": "p = 0.01", "statistic": "",
                     "p_claimed": 0.01, "p_opposite": 0.99},
                    {"scope": "x", "verdict": NOT_REPRODUCED, "headline": "exact", "statistic": "",
                     "evidence": EXACT, **claim.get("extra", {})}]

    paper = make_paper([{"id": "m", "kind": "mixed", "where": "", "tested_as": "", "scope": "paper"}])
    ctx = make_ctx(paper, {})
    with pytest.raises(ValueError, match="mark them as supporting"):
        evaluate_claims(paper, ctx, {"mixed": Mixed})
    paper["claims"][0]["extra"] = {"role": SUPPORTS}
    summary, details = evaluate_claims(paper, ctx, {"mixed": Mixed})
    # No witness can refute it: its "reproduced" could not have come out otherwise.
    assert summary.loc[0, "verdict"] == INCONCLUSIVE
    assert summary.loc[0, "decided_by"].startswith("could not have been refuted as configured; s:")
    assert not summary.loc[0, "can_refute"] and not summary.loc[0, "can_reproduce"]
    assert list(details["role"]) == ["decides", "supports"]


def test_not_checkable_needs_a_reason():
    with pytest.raises(ValueError, match="reason"):
        NotCheckable.check({"id": "x", "kind": "not_checkable"}, make_paper())


def test_scorecard_rejects_unknown_evidence():
    from timebandits.core.verdicts.scorecard import scorecard

    good = pd.DataFrame({"evidence": [STATISTICAL, EXACT], "verdict": [REPRODUCED, NOT_REPRODUCED],
                         "scope": ["paper", "paper"], "can_reproduce": [True, True],
                         "can_refute": [True, False]})
    assert scorecard({"x": good}).loc[0, ["reproduced", "exact_fails", "undecidable"]].tolist() == [1, 1, 1]
    with pytest.raises(ValueError, match="unknown evidence or scope"):
        scorecard({"x": good.assign(evidence=["p = 0.01", EXACT])})
    with pytest.raises(ValueError, match="unknown evidence or scope"):
        scorecard({"x": good.assign(scope=["paper", "ours"])})


def test_scorecard_counts_each_scope_apart():
    from timebandits.core.verdicts.scorecard import scorecard

    frame = pd.DataFrame({"evidence": [STATISTICAL, STATISTICAL, EXACT],
                          "verdict": [REPRODUCED, NOT_REPRODUCED, NOT_REPRODUCED],
                          "scope": ["paper", "extension", "erratum"],
                          "can_reproduce": [True] * 3, "can_refute": [True] * 3})
    table = scorecard({"x": frame}).set_index("scope")
    assert list(table.index) == ["paper", "extension", "erratum"]
    assert table.loc["paper", "reproduced"] == 1 and table.loc["paper", "not_reproduced"] == 0
    assert table.loc["extension", "not_reproduced"] == 1
    assert table.loc["erratum", "exact_fails"] == 1


# --------------------------------------------------------------------------- claims.py: texts and edges

def _note(m):
    # the multiplicity note the summary shows for m statistical sub-tests at α = 0.05
    return (f"{m} sub-tests: reproduced only if all {m} are at α = 0.05 (intersection–union test, "
            f"no correction needed); not reproduced if one is refuted at α/{m} = {0.05 / m:.2g} "
            f"(Bonferroni)")


def test_combine_returns_no_note_without_pooling():
    assert combine([], STATISTICAL, 0.05) == (INCONCLUSIVE, "")
    assert combine([{"verdict": REPRODUCED}] * 2, EXACT, 0.05) == (REPRODUCED, "")
    assert combine([{"verdict": INCONCLUSIVE}] * 2, EXACT, 0.05) == (INCONCLUSIVE, "")


def test_combine_note_and_bonferroni_edge():
    # m = 2: α/2 = 0.025 exactly (halving is exact in binary). A refutation at p_opposite = 0.025
    # is not below it -> inconclusive; just below it -> not reproduced.
    assert _note(2).endswith("α/2 = 0.025 (Bonferroni)") and _note(3).endswith("α/3 = 0.017 (Bonferroni)")
    passing = {"verdict": REPRODUCED, "p_claimed": 0.01, "p_opposite": 0.99}
    on_edge = {"verdict": NOT_REPRODUCED, "p_claimed": 0.975, "p_opposite": 0.025}
    assert combine([passing, on_edge], STATISTICAL, 0.05) == (INCONCLUSIVE, _note(2))
    below = {**on_edge, "p_opposite": 0.024}
    assert combine([passing, below], STATISTICAL, 0.05) == (NOT_REPRODUCED, _note(2))
    assert combine([passing] * 3, STATISTICAL, 0.05) == (REPRODUCED, _note(3))


def test_decided_by_edges():
    assert decided_by([], REPRODUCED) == "no sub-check"
    # reproduced: the weakest row by p_claimed; a row without a p-value (a bound check) is not
    # weaker than one with p = 0.3
    rows = [{"scope": "e", "verdict": REPRODUCED, "headline": "below the bound"},
            {"scope": "f", "verdict": REPRODUCED, "headline": "lower", "p_claimed": 0.3}]
    assert decided_by(rows, REPRODUCED) == "f: lower, p = 0.3 (2 of 2 sub-checks reproduced)"
    # not reproduced: the strongest row, smallest p_opposite (0.001 of f, not e's 0.02)
    rows = [{"scope": "e", "verdict": NOT_REPRODUCED, "headline": "higher", "p_opposite": 0.02},
            {"scope": "f", "verdict": NOT_REPRODUCED, "headline": "higher", "p_opposite": 0.001}]
    assert decided_by(rows, NOT_REPRODUCED) == (
        "f: higher; refuted by the opposite test, p = 0.001 (2 of 2 sub-checks not reproduced)")
    # ... and a row without a p-value (clearly above a bound) counts as refuted outright
    rows[1] = {"scope": "g", "verdict": NOT_REPRODUCED, "headline": "above the bound"}
    assert decided_by(rows, NOT_REPRODUCED) == "g: above the bound (2 of 2 sub-checks not reproduced)"


def test_fraction_test_without_runs_is_undefined():
    test = fraction_test(0, 0, 0.9, 0.05)
    assert math.isnan(test["p_claimed"]) and math.isnan(test["p_opposite"])
    assert test["verdict"] == INCONCLUSIVE


def test_paired_verdict_opposite_p_at_alpha_is_not_a_refutation():
    assert paired_verdict({"p_claimed": 0.95, "p_opposite": 0.05}, 0.05) == INCONCLUSIVE


def test_context_final_is_float(make_ctx):
    # an integer metric column (counts) and one with an undefined run (None) both come out as
    # float arrays, the undefined run as NaN
    frame = pd.DataFrame({"repetition": [1, 0], "t": [5, 5], "m": [3, 2],
                          "u": pd.Series([None, 1.5], dtype=object)})
    ctx = make_ctx(make_paper(), {("e", "a"): frame})
    counts = ctx.final("e", "a", "m")
    assert counts.dtype == np.float64 and list(counts) == [2.0, 3.0]
    undefined = ctx.final("e", "a", "u")
    assert undefined.dtype == np.float64 and undefined[0] == 1.5 and math.isnan(undefined[1])


@pytest.mark.parametrize("b", [
    {10: [1.0, 2.0]},                  # same repetitions 0, 1, horizon 10 instead of 100
    {1: [1.0, 2.0, 3.0], 100: [1.0, 2.0, 3.0]},   # same horizon, a third repetition
])
def test_context_paired_needs_same_runs_and_horizon(make_ctx, b):
    ctx = make_ctx(make_paper(), {("e", "a"): trace_frame({1: [0.0, 0.0], 100: [1.0, 2.0]}),
                                  ("e", "b"): trace_frame(b)})
    with pytest.raises(ValueError, match=r"^e: a and b were not run on the same repetitions and "
                                         r"horizon; rebuild their traces$"):
        ctx.paired("e", "a", "b", "m")


def test_thresholds_text():
    claim = {"share": 0.9, "sign": "negative",
             "provenance": {"share": {"source": "assumed"}, "sign": {"source": "paper, Thm 2"}}}
    assert thresholds(claim) == "share = 0.9 (assumed); sign (paper, Thm 2)"
    assert thresholds({"share": 0.9}) == ""


def test_evaluate_claims_whole_summary_row(make_ctx):
    # sign_at_horizon over two experiments. e: -1 .. -10 at the horizon, mean -5.5,
    # se = sd/sqrt(10) with sd² = 110/12 (the variance of 1..10, ddof 1): 0.957;
    # f: the same minus 10, mean -15.5, same se, so its p is smaller and e is the weakest row.
    values = -np.arange(1.0, REPS + 1)
    claim = {"id": "s1", "kind": "sign_at_horizon", "scope": "extension", "where": "Fig. 2",
             "tested_as": "a's metric is negative", "experiments": ["e", "f"], "algorithms": ["a"],
             "metric": "m", "sign": "negative", "provenance": {"sign": {"source": "paper"}}}
    paper = make_paper([claim], experiments=("e", "f"))
    ctx = make_ctx(paper, {("e", "a"): horizon_trace(values), ("f", "a"): horizon_trace(values - 10)})
    summary, details = evaluate_claims(paper, ctx, GENERIC_KINDS)
    p_e = st.ttest_1samp(values, 0.0, alternative="less").pvalue
    assert p_e < 0.001
    assert summary.to_dict("records") == [{
        "claim": "s1", "scope": "extension", "where": "Fig. 2", "quote": "",
        "tested_as": "a's metric is negative",
        "kind": "sign_at_horizon", "evidence": STATISTICAL, "verdict": REPRODUCED,
        "decided_by": f"e A: mean -5.5 ± 0.96, p = {p_e:.2g} (2 of 2 sub-checks reproduced)",
        "can_reproduce": True, "can_refute": True, "decidability": "",
        "thresholds": "sign (paper)", "multiplicity": _note(2), "flips_at": "",
        "fragile": False, "runs_to_decide": "", "parent": "", "cause": "", "cause_line": "",
        "variants": ""}]
    assert list(details["scope"]) == ["e A", "f A"]


def test_evaluate_claims_of_a_paper_without_claims(make_ctx):
    # No claim: both tables are empty, with their columns (it raised KeyError before).
    paper = make_paper([])
    summary, details = evaluate_claims(paper, make_ctx(paper, {}), GENERIC_KINDS)
    assert summary.empty and list(summary.columns) == SUMMARY_COLUMNS
    assert details.empty and list(details.columns) == DETAIL_COLUMNS
