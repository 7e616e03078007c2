"""Paper 003's claim kinds on rates across experiments (continuous/claims/rates.py and pairwise.py):
regret_slope, regret_grows, spread_larger and scaled_flat, on hand-built finals at T. Every row the
reader sees is derived by hand: runs of one or two values make the bootstrap's 95% interval land on
known resamples (an atom of probability 1/4 at each end), Welch p-values come from the t
distribution with the hand-computed Welch df, and where a share depends on the draws it is checked
against the claim's own stream check_seed(base seed, "continuous", claim id) and the exact
enumeration. Also each kind's config checks and its decidability witnesses (their levels, and each
side's verdict)."""

from __future__ import annotations

import copy
import itertools
import math
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from timebandits.continuous.claims.pairwise import RegretGrows, SpreadLarger
from timebandits.continuous.claims.rates import RegretSlope, ScaledFlat
from timebandits.core.sim.seeding import check_seed
from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.vocabulary import INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED

CONFIG = {
    "base_seed": 1,
    "claims": {
        "alpha": 0.05,
        "bootstrap_samples": 400,
        "fragile_share": 0.1,
        "run_factors": [2, 4, 8, 16],
    },
}
T = 1000.0  # horizon; T' = T/λ
# P* = μ1 N* − N*²/T' with N* = μ1T'/2 (Props. 1–2): μ = 0.1: N* = 50, 5 − 2.5 = 2.5;
# μ = 0.2: N* = 100, 20 − 10 = 10.
PSTAR = {0.1: 2.5, 0.2: 10.0}


def paper(instances: dict, lam: float = 1.0) -> dict:
    """experiment -> arm means; each runs the oracle and ``ours`` over T = λ·1000 (T' = 1000)."""
    return {
        "paper": {"key": "continuous"},
        "algorithms": {"oracle": {"label": "oracle"}, "ours": {"label": "ours"}},
        "experiments": {
            e: {
                "environment": {"means": m, "lam": lam},
                "horizon": T * lam,
                "algorithms": ["oracle", "ours"],
            }
            for e, m in instances.items()
        },
    }


def context(instances: dict, finals: dict, lam: float = 1.0, samples: int = 400) -> ClaimContext:
    """finals: experiment -> {metric: one value per run} of ``ours`` at its one checkpoint."""
    frames = {}
    for exp, metrics in finals.items():
        n = len(next(iter(metrics.values())))
        frames[(exp, "ours")] = pd.DataFrame(
            {
                "repetition": np.arange(n),
                "t": np.full(n, T),
                **{k: np.asarray(v, float) for k, v in metrics.items()},
            }
        )
    config = copy.deepcopy(CONFIG)
    config["claims"]["bootstrap_samples"] = samples
    return ClaimContext(
        paper=paper(instances, lam), config=config, trace_of=lambda e, a: frames[(e, a)]
    )


def with_regrets(instances: dict, regrets: dict, samples: int = 400) -> ClaimContext:
    """Payoff at T = P* − regret (exact in binary for these P* and regrets)."""
    return context(
        instances,
        {
            e: {"payoff": PSTAR[max(instances[e])] - np.asarray(r, float)}
            for e, r in regrets.items()
        },
        samples=samples,
    )


def regrets_of(ctx: ClaimContext, exp: str) -> np.ndarray:
    return PSTAR[max(ctx.paper["experiments"][exp]["environment"]["means"])] - ctx.final(
        exp, "ours", "payoff"
    )


# --- regret_slope ---

SLOPE_MU = {"lo": [0.1], "hi": [0.2]}
# lo: 2 runs 5/64, 10/64 (mean 0.1171875); hi: 3 runs of 1/16. A resample of lo is both runs
# (mean 0.1171875, probability 1/2) or one run twice (5/64 or 10/64, 1/4 each); hi never moves.
# Two points: slope = ln(m_hi/m_lo)/ln 2. Point: ln(0.0625/0.1171875)/ln 2 = −0.9069; the 2.5%
# and 97.5% quantiles sit on the atoms of probability 1/4: ln(0.4)/ln 2 = −1.3219 and
# ln(0.8)/ln 2 = −0.3219. Every resample mean is > 0, so all 400 are kept.
SLOPE_RUNS = {"lo": [5 / 64, 10 / 64], "hi": [1 / 16] * 3}


def slope_claim(low, high):
    return {
        "id": "C",
        "kind": "regret_slope",
        "experiments": ["lo", "hi"],
        "algorithm": "ours",
        "low": low,
        "high": high,
    }


@pytest.mark.parametrize(
    "low, high, verdict, needs",
    [
        (-1.5, 0.0, REPRODUCED, "-1.5 to 0"),  # [−1.32, −0.32] inside
        (-math.inf, 0.0, REPRODUCED, "< 0"),  # an open low end
        (0.5, 1.0, NOT_REPRODUCED, "0.5 to 1"),  # CI below the band
        (-3.0, -2.0, NOT_REPRODUCED, "-3 to -2"),  # CI above the band
        (-1.0, 0.0, INCONCLUSIVE, "-1 to 0"),  # straddles −1
    ],
)
def test_regret_slope_every_verdict_and_the_row(low, high, verdict, needs):
    ctx = with_regrets(SLOPE_MU, SLOPE_RUNS)
    point, ci_low, ci_high = (
        math.log(0.0625 / m) / math.log(2) for m in (0.1171875, 10 / 64, 5 / 64)
    )
    assert (f"{point:.3g}", f"{ci_low:.3g}", f"{ci_high:.3g}") == ("-0.907", "-1.32", "-0.322")
    assert (f"{point:.4g}", f"{ci_low:.4g}", f"{ci_high:.4g}") == ("-0.9069", "-1.322", "-0.3219")
    assert RegretSlope.evaluate(slope_claim(low, high), ctx) == [
        {
            "scope": "all μ",
            "verdict": verdict,
            "headline": f"slope -0.907 (95% CI -1.32 to -0.322; needs {needs})",
            "statistic": (
                "least-squares slope of log mean regret on log μ over μ = [0.1, 0.2]: "
                "-0.9069; bootstrap over runs (400 resamples with every mean > 0): 95% CI "
                "-1.322 to -0.3219; mean regrets [0.1172, 0.0625]"
            ),
        }
    ]


@pytest.mark.parametrize(
    "lo, hi, low, high, verdict",
    [
        # lo runs {1, 4}, hi fixed at 1: slopes ln(1/m)/ln 2 in {0 (m = 1), −2 (m = 4)} at the ends.
        (
            [1.0, 4.0],
            [1.0],
            0.0,
            1.0,
            INCONCLUSIVE,
        ),  # CI [−2, 0] touches low = 0 from below: no refutation
        ([1.0, 4.0], [1.0], -3.0, 0.0, REPRODUCED),  # ... and inside a band closed at high = 0
        # lo fixed at 1, hi runs {1, 4}: slopes in {0, 2}
        ([1.0], [1.0, 4.0], -1.0, 0.0, INCONCLUSIVE),  # CI [0, 2] touches high = 0 from above
        ([1.0], [1.0, 4.0], 0.0, 3.0, REPRODUCED),  # ... and inside a band closed at low = 0
    ],
)
def test_regret_slope_band_is_closed(lo, hi, low, high, verdict):
    """The band [low, high] is closed: a CI with an end exactly on it is inside there, and a CI
    touching it is no refutation. ln 1 = 0 exactly, so the least-squares slope of the resample
    with both means 1 is exactly 0."""
    ctx = with_regrets(SLOPE_MU, {"lo": lo, "hi": hi})
    assert np.polyfit(np.log([0.1, 0.2]), [0.0, 0.0], 1)[0] == 0.0
    (row,) = RegretSlope.evaluate(slope_claim(low, high), ctx)
    assert row["verdict"] == verdict


@pytest.mark.parametrize(
    "runs, samples, headline, statistic",
    [
        (
            {"lo": [0.0, 0.0], "hi": [1 / 16] * 3},
            400,
            "a mean regret ≤ 0: no log-log slope",
            "mean regrets [0, 0.0625] at μ = [0.1, 0.2]",
        ),
        # bootstrap_samples = 0: every mean > 0 but no resample to judge the slope on
        (
            SLOPE_RUNS,
            0,
            "no resample with every mean regret > 0",
            "mean regrets [0.117188, 0.0625] at μ = [0.1, 0.2]",
        ),
    ],
)
def test_regret_slope_without_a_slope_is_inconclusive(runs, samples, headline, statistic):
    ctx = with_regrets(SLOPE_MU, runs, samples=samples)
    assert RegretSlope.evaluate(slope_claim(-1.5, 0.0), ctx) == [
        {"scope": "all μ", "verdict": INCONCLUSIVE, "headline": headline, "statistic": statistic}
    ]


def test_regret_slope_keeps_only_resamples_with_every_mean_positive():
    """lo runs {0, 1/2}: the resample (0, 0) has mean 0 (probability 1/4) and is dropped; hi runs
    {−1/4, 1/2, 1/2}: two or three draws of −1/4 give a mean ≤ 0 (3·(1/3)²(2/3) + 1/27 = 7/27).
    So 3/4 · 20/27 = 5/9 of the 400 resamples are kept: 222 ± 4 × 9.9. The exact count and
    interval are those of the claim's own stream (all 400 resamples of lo, then all of hi)."""
    runs = {"lo": np.array([0.0, 0.5]), "hi": np.array([-0.25, 0.5, 0.5])}
    (row,) = RegretSlope.evaluate(slope_claim(-5.0, 5.0), with_regrets(SLOPE_MU, runs))
    rng = np.random.default_rng(check_seed(CONFIG["base_seed"], "continuous", "C"))
    draws = {
        name: [x[i].mean() for i in rng.integers(0, x.size, (400, x.size))]
        for name, x in runs.items()
    }
    slopes = [
        math.log(m_hi / m_lo) / math.log(2)
        for m_lo, m_hi in zip(draws["lo"], draws["hi"])
        if m_lo > 0 and m_hi > 0
    ]
    assert abs(len(slopes) - 400 * 5 / 9) < 4 * math.sqrt(400 * 5 / 9 * 4 / 9)
    low, high = np.quantile(slopes, [0.025, 0.975])
    assert row["verdict"] == REPRODUCED  # mean regrets 1/4, 1/4: slope 0; resample slopes in ±1.6
    assert row["statistic"].endswith(
        f"({len(slopes)} resamples with every mean > 0): 95% CI {low:.4g} to {high:.4g}; "
        f"mean regrets [0.25, 0.25]"
    )


def test_regret_slope_check():
    paper_ = paper({"a": [0.1], "b": [0.2]})
    good = slope_claim(-1.5, -0.5) | {"experiments": ["a", "b"]}
    RegretSlope.check(good, paper_)
    for key in ("experiments", "algorithm", "high"):  # low may be left open (−∞)
        with pytest.raises(ValueError, match=rf"needs keys \['{key}'\]"):
            RegretSlope.check({k: v for k, v in good.items() if k != key}, paper_)
    for bad in ({"experiments": ["a"]}, {"low": -0.5}):
        with pytest.raises(
            ValueError, match="^regret_slope needs at least 2 experiments and low < high$"
        ):
            RegretSlope.check(good | bad, paper_)
    with pytest.raises(ValueError, match=r"^high must lie in \[-inf, inf\), got inf$"):
        RegretSlope.check(good | {"low": -math.inf, "high": math.inf}, paper_)


@pytest.mark.parametrize(
    "low, high, inside, outside",
    [
        (-2.0, -1.5, -1.75, -1.0),  # the middle; high + the band's width 0.5
        (-math.inf, 0.0, -1.0, 1.0),  # high − 1; high + 1
    ],
)
def test_regret_slope_witnesses(low, high, inside, outside):
    """Witness regrets at T are size × (μ/μ_top)^s (mean over runs; the spread averages to 1),
    size = the largest mean regret (3); the favourable one is reproduced, the other refuted."""
    mus = {"lo": [0.1], "hi": [0.2]}
    ctx = with_regrets(mus, {"lo": [3.0, 3.0], "hi": [1.0, 1.0]})
    claim = slope_claim(low, high)
    out = RegretSlope.witnesses(claim, ctx)
    for side, s, verdict in (
        ("favourable", inside, REPRODUCED),
        ("unfavourable", outside, NOT_REPRODUCED),
    ):
        w = out[side]
        assert regrets_of(w, "lo").mean() == pytest.approx(3.0 * 0.5**s, rel=1e-9)
        assert regrets_of(w, "hi").mean() == pytest.approx(3.0, rel=1e-9)
        assert [r["verdict"] for r in RegretSlope.evaluate(claim, w)] == [verdict]


# --- regret_grows ---

GROW_RUNS = {"a": [1.0, 2.0, 2.0], "b": [2.0, 2.0, 3.0, 4.0, 4.0, 5.0], "c": [1.0, 2.0, 2.0]}


def test_regret_grows_rows():
    """a: mean 5/3, sd √(1/3), se 1/3; b: mean 10/3, sd² 22/15, se √(11/45) = 0.494.
    Welch t = (5/3)/√(1/9 + 11/45) = 2.795, df = (16/45)²/((1/9)²/2 + (11/45)²/5) = 6.975:
    p = 0.0134 that b's regret is larger (reproduced), 0.9866 the other way; from b to c (= a)
    the same test reversed (not reproduced)."""
    va, vb = Fraction(1, 9), Fraction(11, 45)
    t = (5 / 3) / math.sqrt(float(va + vb))
    df = float((va + vb) ** 2 / (va**2 / 2 + vb**2 / 5))
    p = float(stats.t.sf(t, df))
    assert (f"{t:.4g}", f"{df:.4g}", f"{p:.3g}") == ("2.795", "6.975", "0.0134")
    ctx = with_regrets({e: [0.2] for e in GROW_RUNS}, GROW_RUNS)
    rows = RegretGrows.evaluate(
        {"id": "C", "experiments": ["a", "b", "c"], "algorithm": "ours"}, ctx
    )
    assert [r.pop("p_claimed") for r in rows] == [
        pytest.approx(p, rel=1e-9),
        pytest.approx(1 - p, rel=1e-9),
    ]
    assert [r.pop("p_opposite") for r in rows] == [
        pytest.approx(1 - p, rel=1e-9),
        pytest.approx(p, rel=1e-9),
    ]
    assert rows == [
        {
            "scope": "a → b",
            "verdict": REPRODUCED,
            "headline": "regret 1.667 → 3.333",
            "statistic": (
                "mean regret at T 1.66667 ± 0.33 then 3.33333 ± 0.49; one-sided Welch "
                "p = 0.013 (opposite 0.99)"
            ),
        },
        {
            "scope": "b → c",
            "verdict": NOT_REPRODUCED,
            "headline": "regret 3.333 → 1.667",
            "statistic": (
                "mean regret at T 3.33333 ± 0.49 then 1.66667 ± 0.33; one-sided Welch "
                "p = 0.99 (opposite 0.013)"
            ),
        },
    ]


def test_regret_grows_without_a_difference_is_inconclusive():
    """The same runs twice: t = 0, so p = 1/2 each way."""
    ctx = with_regrets({"a": [0.2], "b": [0.2]}, {"a": GROW_RUNS["a"], "b": GROW_RUNS["a"]})
    (row,) = RegretGrows.evaluate({"id": "C", "experiments": ["a", "b"], "algorithm": "ours"}, ctx)
    assert (row["verdict"], row["p_claimed"], row["p_opposite"]) == (INCONCLUSIVE, 0.5, 0.5)
    assert row["headline"] == "regret 1.667 → 1.667" and row["p_claimed"] == pytest.approx(0.5)


def test_regret_grows_check_and_witnesses():
    """Witness regrets: size (the largest mean regret, 10/3) × 3^j, or × 3^−j."""
    claim = {"id": "C", "experiments": ["a", "b", "c"], "algorithm": "ours"}
    ctx = with_regrets({e: [0.2] for e in GROW_RUNS}, GROW_RUNS)
    RegretGrows.check(claim, ctx.paper)
    for key in ("experiments", "algorithm"):
        with pytest.raises(ValueError, match=rf"needs keys \['{key}'\]"):
            RegretGrows.check(
                {k: v for k, v in claim.items() if k != key} | {"kind": "k"}, ctx.paper
            )
    out = RegretGrows.witnesses(claim, ctx)
    for side, factor, verdict in (
        ("favourable", 3.0, REPRODUCED),
        ("unfavourable", 1 / 3, NOT_REPRODUCED),
    ):
        assert [regrets_of(out[side], e).mean() for e in "abc"] == pytest.approx(
            [10 / 3 * factor**j for j in range(3)], rel=1e-9
        )
        assert {r["verdict"] for r in RegretGrows.evaluate(claim, out[side])} == {verdict}


# --- spread_larger ---

WIDE = 2.0 * np.arange(20)  # sd 2√35 = 11.8322 (ddof 1: Σ(x − x̄)² = 4·665, /19 = 140)
SPREAD_MU = {"wide": [0.2], "flat": [0.1], "wider": [0.1]}


def spread_claim(smaller, relative=None):
    claim = {
        "id": "C",
        "kind": "spread_larger",
        "larger": "wide",
        "smaller": smaller,
        "algorithm": "ours",
    }
    return claim if relative is None else claim | {"relative": relative}


@pytest.mark.parametrize("relative", [None, False, True])
def test_spread_larger_rows(relative):
    """Against a constant payoff every resample of 20 runs has sd > 0 = the other's (log ratio
    +∞; all 20 draws equal has probability 20^−19): p = 0, opposite 1. Against 100 × WIDE the
    resampled sd is never the larger: p = 1, opposite 0. Relative: sds / P* (10 and 2.5)."""
    ctx = context(
        SPREAD_MU,
        {
            "wide": {"payoff": WIDE},
            "flat": {"payoff": np.full(20, 5.0)},
            "wider": {"payoff": 100 * WIDE},
        },
    )
    rows = SpreadLarger.evaluate(spread_claim(["flat", "wider"], relative), ctx)
    sd = 2 * math.sqrt(35)
    assert f"{sd:.6g}" == "11.8322"
    if relative:
        what, w, w6, f_, f6, v, v6 = (
            "sd of the payoff at T / P*",
            "1.183",
            "1.18322",
            "0",
            "0",
            "473.3",
            "473.286",
        )
        assert f"{sd / 10:.6g} {100 * sd / 2.5:.6g}" == "1.18322 473.286"
    else:
        what, w, w6, f_, f6, v, v6 = (
            "run-to-run sd of the payoff at T",
            "11.83",
            "11.8322",
            "0",
            "0",
            "1,183",
            "1,183.22",
        )
    assert rows == [
        {
            "scope": "wide vs flat",
            "verdict": REPRODUCED,
            "headline": f"sd {w} against {f_}",
            "statistic": f"{what}: {w6} (wide) against {f6} (flat); bootstrap of the log ratio: "
            "p = 0 (opposite 1)",
            "p_claimed": 0.0,
            "p_opposite": 1.0,
        },
        {
            "scope": "wide vs wider",
            "verdict": NOT_REPRODUCED,
            "headline": f"sd {w} against {v}",
            "statistic": f"{what}: {w6} (wide) against {v6} (wider); bootstrap of the log ratio: "
            "p = 1 (opposite 0)",
            "p_claimed": 1.0,
            "p_opposite": 0.0,
        },
    ]


def _resample_sds(x, idx):
    return x[idx].std(axis=1, ddof=1)


def test_spread_larger_shares_are_the_bootstrap_shares():
    """wide {0, 1, 3} against the same runs (ties: equal sds give log ratio 0, which supports
    neither side) and against {0, 1, 2, 3, 5} (5 runs). p = share of resamples whose sd ratio is
    not > 1, opposite = share not < 1 (undefined ratios count in both). The exact shares come from
    enumerating every pair of index tuples; the claim's own draws are within 4 standard errors."""
    wide, twin, odd = (
        np.array([0.0, 1.0, 3.0]),
        np.array([0.0, 1.0, 3.0]),
        np.array([0.0, 1.0, 2.0, 3.0, 5.0]),
    )
    ctx = context(
        {"wide": [0.2], "twin": [0.2], "odd": [0.2]},
        {"wide": {"payoff": wide}, "twin": {"payoff": twin}, "odd": {"payoff": odd}},
    )
    rows = SpreadLarger.evaluate(spread_claim(["twin", "odd"]), ctx)
    rng = np.random.default_rng(check_seed(CONFIG["base_seed"], "continuous", "C"))
    for row, other in zip(rows, (twin, odd)):
        sd_w = _resample_sds(wide, rng.integers(0, 3, (400, 3)))
        sd_o = _resample_sds(other, rng.integers(0, other.size, (400, other.size)))
        drawn = (
            np.mean(~(sd_w > sd_o) | (sd_o == 0) & (sd_w == 0)),
            np.mean(~(sd_w < sd_o) | (sd_o == 0) & (sd_w == 0)),
        )
        all_w = _resample_sds(wide, np.array(list(itertools.product(range(3), repeat=3))))
        all_o = _resample_sds(
            other, np.array(list(itertools.product(range(other.size), repeat=other.size)))
        )
        a, b = np.meshgrid(all_w, all_o)
        undefined = (a == 0) & (b == 0)
        exact = (np.mean(~(a > b) | undefined), np.mean(~(a < b) | undefined))
        for share, p in zip(drawn, exact):
            assert abs(share - p) < 4 * math.sqrt(p * (1 - p) / 400) + 1e-9
        assert (row["p_claimed"], row["p_opposite"]) == drawn
        assert f"{row['p_claimed']:.2g}" == f"{drawn[0]:.2g}"
        assert row["statistic"].endswith(f"p = {drawn[0]:.2g} (opposite {drawn[1]:.2g})")
        assert row["verdict"] == (
            REPRODUCED if drawn[0] < 0.05 else NOT_REPRODUCED if drawn[1] < 0.05 else INCONCLUSIVE
        )


def test_spread_larger_undefined_ratio_is_silent():
    """Two constant payoffs: both sds 0, log 0 − log 0 undefined, and no RuntimeWarning."""
    ctx = context(
        {"wide": [0.2], "flat": [0.1]},
        {"wide": {"payoff": np.zeros(4)}, "flat": {"payoff": np.zeros(4)}},
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (row,) = SpreadLarger.evaluate(spread_claim(["flat"]), ctx)
    assert (row["verdict"], row["p_claimed"], row["p_opposite"]) == (INCONCLUSIVE, 1.0, 1.0)


def test_spread_larger_check():
    paper_ = paper(SPREAD_MU)
    SpreadLarger.check(spread_claim(["flat"], True), paper_)
    for key in ("larger", "smaller", "algorithm"):
        with pytest.raises(ValueError, match=rf"needs keys \['{key}'\]"):
            SpreadLarger.check(
                {k: v for k, v in spread_claim(["flat"]).items() if k != key}, paper_
            )
    with pytest.raises(ValueError, match="relative must be true or false, got 'yes'"):
        SpreadLarger.check(spread_claim(["flat"], "yes"), paper_)


@pytest.mark.parametrize("relative", [False, True])
def test_spread_larger_witnesses(relative):
    """Payoffs at T: base × (1 ± 1%), or base × (1 ± 10%) in ``larger`` (favourable) or in each
    smaller one (unfavourable). base = the largest |mean payoff| (20), capped so that the widest
    run stays within the smaller P* (2.5): 2.5/1.1; relative, each P*/1.1 (10/1.1, 2.5/1.1).
    No witness mean leaves [−∞, P*]."""
    ctx = context(
        SPREAD_MU, {"wide": {"payoff": np.full(5, 20.0)}, "flat": {"payoff": np.full(5, 1.0)}}
    )
    claim = spread_claim(["flat"], relative)
    base = (
        {"wide": 10.0 / 1.1, "flat": 2.5 / 1.1}
        if relative
        else dict.fromkeys(("wide", "flat"), 2.5 / 1.1)
    )
    z = np.linspace(-1, 1, 5)
    out = SpreadLarger.witnesses(claim, ctx)
    for side, big, verdict in (
        ("favourable", "wide", REPRODUCED),
        ("unfavourable", "flat", NOT_REPRODUCED),
    ):
        for e in ("wide", "flat"):
            expected = base[e] * (1 + (0.1 if e == big else 0.01) * z)
            assert expected.max() <= {"wide": 10.0, "flat": 2.5}[e] * (1 + 1e-12)
            assert out[side].final(e, "ours", "payoff") == pytest.approx(expected, rel=1e-12)
        assert [r["verdict"] for r in SpreadLarger.evaluate(claim, out[side])] == [verdict]


# --- scaled_flat ---

LN2 = math.log(1000.0) ** 2  # (ln T')² = 47.717
FLAT_MU = {"a": [0.2], "b": [0.2]}


def flat_claim(limit, quantity="regret", experiments=("a", "b")):
    return {
        "id": "C",
        "kind": "scaled_flat",
        "experiments": list(experiments),
        "algorithm": "ours",
        "quantity": quantity,
        "max_spread": limit,
    }


@pytest.mark.parametrize(
    "limit, verdict", [(3.0, REPRODUCED), (1.2, NOT_REPRODUCED), (2.0, INCONCLUSIVE)]
)
def test_scaled_flat_regret_rows(limit, verdict):
    """a: one run of regret 3; b: runs 4, 8 (resample means 4, 6, 8 with 1/4, 1/2, 1/4); both at
    μ = 0.2, so regret × μ/(ln T')² = 0.6/47.717 = 0.01257 and 1.2/47.717 = 0.02515, spread 2;
    the CI ends are the atoms 4/3 and 8/3."""
    ctx = with_regrets(FLAT_MU, {"a": [3.0], "b": [4.0, 8.0]})
    assert (f"{0.6 / LN2:.4g}", f"{1.2 / LN2:.4g}") == ("0.01257", "0.02515")
    what = "regret at T × μ/(ln T')²"
    assert ScaledFlat.evaluate(flat_claim(limit), ctx) == [
        {
            "scope": "all",
            "verdict": verdict,
            "headline": f"largest/smallest {what} = 2 (95% CI 1.33–2.67; needs ≤ {limit:g})",
            "statistic": f"{what} per experiment: a 0.01257, b 0.02515; spread 2, bootstrap 95% "
            "CI 1.333 to 2.667",
        }
    ]


@pytest.mark.parametrize("limit, verdict", [(4.0, REPRODUCED), (2.0, INCONCLUSIVE)])
def test_scaled_flat_limit_is_inclusive(limit, verdict):
    """a: regret 2; b: runs 4, 8: resample spreads 2, 3, 4 exactly (a power of 2 apart, the same
    scale): a CI [2, 4] ending on max_spread passes, and one starting on it is not refuted."""
    ctx = with_regrets(FLAT_MU, {"a": [2.0], "b": [4.0, 8.0]})
    (row,) = ScaledFlat.evaluate(flat_claim(limit), ctx)
    assert row["verdict"] == verdict and "(95% CI 2–4;" in row["headline"]


ID_MEANS = [0.5, 0.25]  # K = 2, μ1 = 0.5, Δ = 0.25
# λ = 2, T = 2000: T' = 1000; scale μ1Δ²/(K ln T'²) = 0.03125/(2 ln 10⁶) = 0.0011310
ID_SCALE = 0.5 * 0.25**2 / (2 * math.log(1e6))


def id_context(q_time):
    """p: runs (i*, id_cut, raw id_time) — only i* ≥ 1 with no cut count: the first two, t_Id =
    id_time/λ = 10, 20; q: two finished runs at raw time ``q_time``."""
    finals = {
        "p": {
            "i_star": [1, 2, 0, 1, 3],
            "id_cut": [0, 0, 0, 1, 1],
            "id_time": [20.0, 40.0, 4000.0, 8000.0, 1e5],
        },
        "q": {"i_star": [1, 1], "id_cut": [0, 0], "id_time": [q_time, q_time]},
        "r": {"i_star": [0, 1], "id_cut": [0, 1], "id_time": [5.0, 5.0]},
    }
    return context({e: ID_MEANS for e in finals}, finals, lam=2.0)


def test_scaled_flat_identification_time_row():
    """p mean t_Id 15 (resamples 10, 15, 20), q 35 (raw 70): spread 35/15 = 2.333, CI from the
    atoms 35/20 = 1.75 and 35/10 = 3.5. Scaled: 15 × 0.001131 = 0.01696, 35 × 0.001131 = 0.03958."""
    assert (f"{15 * ID_SCALE:.4g}", f"{35 * ID_SCALE:.4g}") == ("0.01696", "0.03958")
    what = "t_Id × μ1Δ²/(K ln T'²)"
    assert ScaledFlat.evaluate(
        flat_claim(5.0, "identification_time", ("p", "q")), id_context(70.0)
    ) == [
        {
            "scope": "all",
            "verdict": REPRODUCED,
            "headline": f"largest/smallest {what} = 2.33 (95% CI 1.75–3.5; needs ≤ 5)",
            "statistic": f"{what} per experiment: p 0.01696, q 0.03958; spread 2.333, bootstrap "
            "95% CI 1.75 to 3.5",
        }
    ]


def test_scaled_flat_without_runs_or_with_a_zero_mean_is_inconclusive():
    what = "t_Id × μ1Δ²/(K ln T'²)"
    # r has no finished run (i* = 0, or cut); neither has a second r
    ctx = id_context(70.0)
    assert ScaledFlat.evaluate(flat_claim(5.0, "identification_time", ("p", "r", "r")), ctx) == [
        {
            "scope": "all",
            "verdict": INCONCLUSIVE,
            "headline": "no run to judge in r, r",
            "statistic": what,
        }
    ]
    # q identified at time 0: a scaled mean of 0
    assert ScaledFlat.evaluate(
        flat_claim(5.0, "identification_time", ("p", "q")), id_context(0.0)
    ) == [
        {
            "scope": "all",
            "verdict": INCONCLUSIVE,
            "headline": "a mean ≤ 0",
            "statistic": f"{what} = [{15 * ID_SCALE:.6g}, 0]",
        }
    ]


def test_scaled_flat_check():
    paper_ = paper(FLAT_MU)
    ScaledFlat.check(flat_claim(1.5), paper_)
    for key in ("experiments", "algorithm", "quantity", "max_spread"):
        with pytest.raises(ValueError, match=rf"needs keys \['{key}'\]"):
            ScaledFlat.check({k: v for k, v in flat_claim(3.0).items() if k != key}, paper_)
    with pytest.raises(ValueError, match=r"quantity must be one of .*, got 'payoff'"):
        ScaledFlat.check(flat_claim(3.0, "payoff"), paper_)
    with pytest.raises(ValueError, match=r"max_spread must lie in \(1, inf\], got 1"):
        ScaledFlat.check(flat_claim(1), paper_)
    # t_Id is scaled by the gap μ1 − μ2: one arm has none (regret needs no gap)
    one_arm = paper({"a": [0.5], "b": [0.5, 0.3]})
    ScaledFlat.check(flat_claim(3.0), one_arm)
    with pytest.raises(
        ValueError, match="^identification_time needs two arms or more; experiment 'a'"
    ):
        ScaledFlat.check(flat_claim(3.0, "identification_time"), one_arm)


def test_scaled_flat_witnesses():
    """Levels size / scale, × 4·max_spread in the first experiment when unfavourable. Regret:
    size = the largest mean regret (6), scale 0.2/(ln T')²; t_Id: size 1, set as raw time × λ."""
    ctx = with_regrets(FLAT_MU, {"a": [3.0], "b": [4.0, 8.0]})
    out = ScaledFlat.witnesses(flat_claim(3.0), ctx)
    for side, first, verdict in (
        ("favourable", 1.0, REPRODUCED),
        ("unfavourable", 12.0, NOT_REPRODUCED),
    ):
        level = 6.0 * LN2 / 0.2
        assert [regrets_of(out[side], e).mean() for e in "ab"] == pytest.approx(
            [level * first, level], rel=1e-9
        )
        assert [r["verdict"] for r in ScaledFlat.evaluate(flat_claim(3.0), out[side])] == [verdict]
    claim = flat_claim(3.0, "identification_time", ("p", "q"))
    out = ScaledFlat.witnesses(claim, id_context(70.0))
    for side, first, verdict in (
        ("favourable", 1.0, REPRODUCED),
        ("unfavourable", 12.0, NOT_REPRODUCED),
    ):
        w = out[side]
        for e, factor in (("p", first), ("q", 1.0)):  # raw time = λ / scale, with the spread
            spread = 1 + 0.01 * np.linspace(-1, 1, 5 if e == "p" else 2)
            assert w.final(e, "ours", "id_time") == pytest.approx(
                2.0 / ID_SCALE * factor * spread, rel=1e-9
            )
        assert [r["verdict"] for r in ScaledFlat.evaluate(claim, w)] == [verdict]
