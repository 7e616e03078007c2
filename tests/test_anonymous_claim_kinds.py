"""Paper 002's ``best_in_most`` claim kind (anonymous/claims/ranking.py) and its paired bootstrap
of the spread, on hand-built regrets at T: every row the reader sees, derived by hand (constant
paired differences give exact t-test p-values; the bootstrap's share is the exact share over every
resample of three runs, enumerated by hand), its config checks and its decidability witnesses."""

from __future__ import annotations

import copy
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from timebandits.anonymous.claims.ranking import BestInMost, _resampled_spreads, _spread_test
from timebandits.core.sim.seeding import check_seed
from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.decidability import decide
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
LABELS = {"ours": "Ours", "r1": "Rival 1", "r2": "Rival 2"}

OURS = np.array([10.0, 12.0, 14.0, 16.0])  # mean 13
WIN = OURS + 2  # mean 15: paired difference 2 with no spread, so p_claimed = 0; 13/15 = 0.867
LOSE = OURS - 3  # mean 10: ours is 3 worse in every run, the rival wins (p = 0); 13/10 = 1.3
TIE = OURS + [-1.0, 1.0, -1.0, 1.0]  # mean 13: differences of mean 0, t = 0, p = 1/2 both ways

# Three runs whose bootstrap share is known exactly. A resample of 3 runs repeats one run (24 of
# the 27 index triples) or is the sample itself (6); the 3 triples of one run have no spread.
# A triple on runs {a, b} has sd |x_a − x_b|/√3 on each side, so the log sd ratio of ours over
# theirs is ln(|Δours|/|Δtheirs|): runs {0,1}: ln(2/1.5) = 0.288, {0,2}: ln(10/9.6) = 0.041,
# {1,2}: ln(8/8.1) = −0.012; the whole sample: ½ ln(28/26.67) = 0.024 (variances 56/2 and 53.34/2).
SPREAD_OURS = np.array([0.0, 2.0, 10.0])
SPREAD_THEIRS = np.array([0.0, 1.5, 9.6])


def paper(experiments, rivals=("r1", "r2")):
    return {
        "paper": {"key": "anonymous"},
        "algorithms": {a: {"label": LABELS[a], "policy": "ars_ucb"} for a in ("ours", *rivals)},
        "experiments": {e: {"algorithms": ["ours", *rivals]} for e in experiments},
        "claims": [],
    }


def context(regrets: dict, rivals=("r1", "r2"), bootstrap_samples=400) -> ClaimContext:
    """regrets: (experiment, algorithm) -> regret at T, one value per repetition."""
    frames = {
        key: pd.DataFrame(
            {
                "repetition": np.arange(len(v)),
                "t": np.full(len(v), 1000.0),
                "regret": np.asarray(v, dtype=float),
            }
        )
        for key, v in regrets.items()
    }
    config = copy.deepcopy(CONFIG)
    config["claims"]["bootstrap_samples"] = bootstrap_samples
    return ClaimContext(
        paper=paper(sorted({e for e, _ in regrets}), rivals),
        config=config,
        trace_of=lambda e, a: frames[(e, a)],
    )


def claim(experiments, statistic="mean", tolerance=0.0, rivals=("r1", "r2")):
    return {
        "id": "C3",
        "kind": "best_in_most",
        "where": "",
        "tested_as": "",
        "scope": "paper",
        "algorithm": "ours",
        "rivals": list(rivals),
        "experiments": list(experiments),
        "statistic": statistic,
        "tolerance": tolerance,
    }


def instance_row(exp, verdict, outcome, ratio, vs, p, statistic="mean", ratio_bound="1"):
    return {
        "scope": exp,
        "role": "supports",
        "verdict": verdict,
        "headline": f"{outcome}; largest {statistic} ratio {ratio} (vs {vs})",
        "statistic": (
            f"{statistic} of the regret at T, Ours over each rival; the largest is "
            f"{ratio} against {vs} (test of < {ratio_bound}: p = {p})"
        ),
    }


def test_best_in_most_on_the_mean_every_row():
    """Four instances, two rivals, no tolerance. e1: both rivals worse by a constant, the largest
    ratio 13/15 is Rival 1's (listed first, so the second's smaller 13/26 must not replace it);
    e2: both rivals tie at 13/15 (the first is named); e3: Rival 2 better in every run (13/10);
    e4: Rival 1 equal on average (ratio 1, p = 1/2), so undecided. Wins e1, e2 of 4, needs
    4 // 2 + 1 = 3; with e4 still open the claim is inconclusive."""
    ctx = context(
        {
            ("e1", "ours"): OURS,
            ("e1", "r1"): WIN,
            ("e1", "r2"): OURS + 13,
            ("e2", "ours"): OURS,
            ("e2", "r1"): WIN,
            ("e2", "r2"): WIN,
            ("e3", "ours"): OURS,
            ("e3", "r1"): WIN,
            ("e3", "r2"): LOSE,
            ("e4", "ours"): OURS,
            ("e4", "r1"): TIE,
            ("e4", "r2"): WIN,
        }
    )
    rows = BestInMost.evaluate(claim(["e1", "e2", "e3", "e4"]), ctx)
    assert rows == [
        {
            "scope": "all instances",
            "verdict": INCONCLUSIVE,
            "headline": "best in 2/4 instances, needs 3",
            "statistic": (
                "Ours's mean regret at T below 1 × every rival's (one-sided tests at "
                "α/4 = 0.013) in 2/4 instances (e1, e2); a rival significantly better by "
                "more (at 0.0063) in e3; needs more than half"
            ),
        },
        instance_row("e1", REPRODUCED, "best or within the tolerance", "0.867", "Rival 1", "0"),
        instance_row("e2", REPRODUCED, "best or within the tolerance", "0.867", "Rival 1", "0"),
        instance_row(
            "e3",
            NOT_REPRODUCED,
            "a rival is better by more than the tolerance",
            "1.3",
            "Rival 2",
            "1",
        ),
        instance_row("e4", INCONCLUSIVE, "undecided", "1", "Rival 1", "0.5"),
    ]


def test_best_in_most_within_a_tolerance():
    """Tolerance 50%: ours against 1.5 × the rival's. Rival at ours − 3 (ratio 1.3): the paired
    differences 1.5·theirs − ours = (0.5, 1.5, 2.5, 3.5) have p = 0.027 (scipy's one-sample t-test),
    a win at α but not at α/3 = 0.017, the level a win needs when any 2 of 3 instances may be the
    wins: undecided. Rival at ours / 2 (ratio 2): ours − 1.5·theirs = (2.5, 3, 3.5, 4) > 0 in every
    run, a loss, and p_claimed = P(T_3 > −t) rounds to 1. No win, two losses of 3: not
    reproduced."""
    ctx = context(
        {
            ("e1", "ours"): OURS,
            ("e1", "r1"): OURS / 2,
            ("e2", "ours"): OURS,
            ("e2", "r1"): OURS / 2,
            ("e3", "ours"): OURS,
            ("e3", "r1"): LOSE,
        },
        rivals=["r1"],
    )
    rows = BestInMost.evaluate(claim(["e1", "e2", "e3"], tolerance=0.5, rivals=["r1"]), ctx)
    p_win = stats.ttest_1samp([0.5, 1.5, 2.5, 3.5], 0.0, alternative="greater").pvalue
    assert f"{p_win:.2g}" == "0.027"
    lost = "a rival is better by more than the tolerance"
    assert rows == [
        {
            "scope": "all instances",
            "verdict": NOT_REPRODUCED,
            "headline": "best or within 50% in 0/3 instances, needs 2",
            "statistic": (
                "Ours's mean regret at T below 1.5 × every rival's (one-sided tests at "
                "α/3 = 0.017) in 0/3 instances (none); a rival significantly better by "
                "more (at 0.017) in e1, e2; needs more than half"
            ),
        },
        instance_row("e1", NOT_REPRODUCED, lost, "2", "Rival 1", "1", ratio_bound="1.5"),
        instance_row("e2", NOT_REPRODUCED, lost, "2", "Rival 1", "1", ratio_bound="1.5"),
        instance_row("e3", INCONCLUSIVE, "undecided", "1.3", "Rival 1", "0.027", ratio_bound="1.5"),
    ]


def test_best_in_most_with_every_rival_far_better_wins_nowhere():
    """Every instance lost and none won: "none" won, a majority out of reach."""
    ctx = context({("e1", "ours"): OURS, ("e1", "r1"): LOSE}, rivals=["r1"])
    (overall, row) = BestInMost.evaluate(claim(["e1"], rivals=["r1"]), ctx)
    assert overall["verdict"] == NOT_REPRODUCED and row["verdict"] == NOT_REPRODUCED
    assert overall["statistic"].endswith(
        "(one-sided tests at α = 0.05) in 0/1 instances (none); "
        "a rival significantly better by more (at 0.05) in e1; "
        "needs more than half"
    )


def reference_bootstrap(claim_id, ours, theirs, ratio, n_boot, draws):
    """The share of resamples with sd(ours) ≥ ratio·sd(theirs), for the bootstrap draws number
    ``draws`` of the claim's own stream check_seed(base seed, "anonymous", claim id)."""
    rng = np.random.default_rng(check_seed(CONFIG["base_seed"], "anonymous", claim_id))
    shares = []
    for _ in range(draws):
        idx = rng.integers(0, ours.size, size=(n_boot, ours.size))
        a, b = ours[idx].std(axis=1, ddof=1), ratio * theirs[idx].std(axis=1, ddof=1)
        ok = (a > 0) & (b > 0)
        shares.append(float(np.mean(a[ok] >= b[ok])))
    return shares


def test_best_in_most_on_the_spread_undecided():
    """SPREAD_OURS/THEIRS in three instances, tolerance 10% (ln 1.1 = 0.095): only the resamples
    on runs {0, 1} have log sd ratio ≥ 0.095, so p_claimed = 6/24 = 0.25 and the opposite share
    (ratio ≤ 0.095) = 18/24: each instance undecided, none won or lost. The shown sd ratio is
    √(28/26.67) = 1.02. Each p is the share of the claim's own bootstrap draws (draws 0, 2, 4;
    the opposite tests take 1, 3, 5)."""
    regrets = {}
    for exp in ("e1", "e2", "e3"):
        regrets[(exp, "ours")], regrets[(exp, "r1")] = SPREAD_OURS, SPREAD_THEIRS
    rows = BestInMost.evaluate(
        claim(["e1", "e2", "e3"], "sd", 0.1, ["r1"]), context(regrets, ["r1"])
    )
    shares = reference_bootstrap("C3", SPREAD_OURS, SPREAD_THEIRS, 1.1, 400, 6)[::2]
    assert all(abs(p - 0.25) < 0.1 for p in shares)  # 4 standard errors of 400 resamples
    assert rows[0] == {
        "scope": "all instances",
        "verdict": INCONCLUSIVE,
        "headline": "best or within 10% in 0/3 instances, needs 2",
        "statistic": (
            "Ours's sd regret at T below 1.1 × every rival's (one-sided tests at α/3 = "
            "0.017) in 0/3 instances (none); a rival significantly better by more (at "
            "0.017) in none; needs more than half"
        ),
    }
    assert rows[1:] == [
        instance_row(e, INCONCLUSIVE, "undecided", "1.02", "Rival 1", f"{p:.2g}", "sd", "1.1")
        for e, p in zip(("e1", "e2", "e3"), shares)
    ]


def spread_test(ours, theirs, ratio, rng, n_boot):
    """_spread_test of sd(ours) against ratio·sd(theirs) on one resampling drawn from rng."""
    idx = rng.integers(0, ours.size, size=(n_boot, ours.size))
    scale = max(np.abs(ours).max(), np.abs(ratio * theirs).max())
    return _spread_test(
        (_resampled_spreads(ours, idx), ratio * _resampled_spreads(theirs, idx)), scale
    )


def test_spread_test_shares_are_the_exact_bootstrap_shares():
    """SPREAD_OURS/THEIRS at ratio 1: of the 24 resamples with spread, those on runs {0,1},
    {0,2} (12) and the 6 whole samples have sd(ours) > sd(theirs), those on {1,2} (6) less:
    p_claimed → 18/24, p_opposite → 6/24 (2000 resamples: standard error 0.01)."""
    out = spread_test(SPREAD_OURS, SPREAD_THEIRS, 1.0, np.random.default_rng(0), 2000)
    assert out["p_claimed"] == pytest.approx(0.75, abs=0.04)
    assert out["p_opposite"] == pytest.approx(0.25, abs=0.04)
    # scale free: the same runs in units of 1e-8 give the same resamples and shares
    small = spread_test(
        1e-8 * SPREAD_OURS, 1e-8 * SPREAD_THEIRS, 1.0, np.random.default_rng(0), 2000
    )
    assert small == out


@pytest.mark.parametrize(
    "factor, ratio, expected",
    [
        (1.0, 1.0, (1.0, 1.0)),  # the same runs: every ratio is exactly 1, counted both ways
        (1.1, 1.0, (1.0, 0.0)),  # theirs = ours / 1.1: log ratio ln 1.1 = 0.095 > 0 everywhere
        (1.0, 1.1, (0.0, 1.0)),  # ours against 1.1 × the same: log ratio −0.095 everywhere
    ],
)
def test_spread_test_with_a_constant_sd_ratio(factor, ratio, expected):
    """theirs = ours / factor: every resample's sd ratio is factor / ratio (ddof = 1 both sides)."""
    ours = np.array([1.0, 4.0, 2.0, 8.0, 5.0])
    out = spread_test(ours, ours / factor, ratio, np.random.default_rng(3), 200)
    assert (out["p_claimed"], out["p_opposite"]) == expected


@pytest.mark.parametrize(
    "ours, theirs",
    [
        ([5.0, 5.0, 5.0], [0.0, 1.0, 2.0]),  # ours never spreads: no resample to compare
        ([0.0, 1.0, 2.0], [3.0, 3.0, 3.0]),  # theirs never spreads
        ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0]),  # nothing at all (scale 0)
    ],
)
def test_spread_test_without_spread_has_no_p_value(ours, theirs):
    out = spread_test(np.array(ours), np.array(theirs), 1.0, np.random.default_rng(0), 50)
    assert set(out) == {"p_claimed", "p_opposite"}
    assert math.isnan(out["p_claimed"]) and math.isnan(out["p_opposite"])


@pytest.mark.parametrize(
    "missing", ["experiments", "algorithm", "rivals", "statistic", "tolerance"]
)
def test_best_in_most_check_names_a_missing_key(missing):
    c = {k: v for k, v in claim(["e1"]).items() if k != missing}
    with pytest.raises(ValueError, match=rf"needs keys \['{missing}'\]"):
        BestInMost.check(c, paper(["e1"]))


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("statistic", "median", r"statistic must be one of \('mean', 'sd'\), got 'median'"),
        ("tolerance", -0.1, r"tolerance must lie in \[0, inf\], got -0.1"),
    ],
)
def test_best_in_most_check_rejects_bad_values(field, value, message):
    BestInMost.check(claim(["e1"]), paper(["e1"]))  # the claim as built is valid
    with pytest.raises(ValueError, match=message):
        BestInMost.check({**claim(["e1"]), field: value}, paper(["e1"]))


def test_best_in_most_witnesses():
    """scale = the largest mean regret at T over the named traces: 26 (e1's Rival 2). Favourable:
    ours at 26, every rival at 3 × 26; unfavourable: ours at 3 (1 + 0.1) × 26 = 85.8, rivals at 26
    (witness curves have mean exactly the level at T). Each reaches its verdict."""
    ctx = context({("e1", "ours"): OURS, ("e1", "r1"): WIN, ("e1", "r2"): OURS + 13})
    c = claim(["e1"], tolerance=0.1)
    witnesses = BestInMost.witnesses(c, ctx)
    assert set(witnesses) == {"favourable", "unfavourable"}
    means = {
        side: [w.final("e1", a, "regret").mean() for a in ("ours", "r1", "r2")]
        for side, w in witnesses.items()
    }
    assert means["favourable"] == pytest.approx([26.0, 78.0, 78.0])
    assert means["unfavourable"] == pytest.approx([85.8, 26.0, 26.0])
    out = decide(c, BestInMost, ctx)
    assert (out["can_reproduce"], out["can_refute"]) == (True, True)
