"""core/verdicts/thresholds.py, core/verdicts/firmness.py and core/verdicts/causes.py: thresholds as
data, tipping points, the runs an undecided claim needs, and the cause of a failed paper claim."""

import copy

import numpy as np
import pytest
from claims_fixtures import CONFIG, REPS, horizon_trace, make_paper
from scipy import optimize, stats

from timebandits.core.verdicts.causes import (
    DATA,
    ERRATUM,
    FRAGILE,
    ROBUST,
    SETTING,
    UNEXPLAINED,
    check_sensitivity,
    decide_cause,
    tried,
)
from timebandits.core.verdicts.claims import evaluate_claims
from timebandits.core.verdicts.comparisons import BetterAtHorizon
from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.firmness import runs_to_decide, tipping_points
from timebandits.core.verdicts.kinds import GENERIC_KINDS
from timebandits.core.verdicts.thresholds import Threshold, check_keys, check_provenance, threshold
from timebandits.core.verdicts.vocabulary import (
    EXACT,
    INCONCLUSIVE,
    NOT_REPRODUCED,
    REPRODUCED,
    STATISTICAL,
)

BETTER = np.array([10.0, 12.0, 9.0, 11.0, 10.5, 9.5, 12.5, 8.5, 11.5, 10.0])
NOISE = np.array([0.4, -0.3, 0.2, -0.5, 0.1, 0.3, -0.2, 0.5, -0.4, -0.1])
WORSE = 2.5 * BETTER + NOISE  # about 2.5 times the better one's, paired


def better_claim(**extra):
    return {
        "id": "C2",
        "kind": "better_at_horizon",
        "scope": "paper",
        "where": "Fig. 1",
        "tested_as": "much better",
        "experiments": ["e"],
        "metric": "m",
        "better": ["a"],
        "worse": ["b"],
        "min_ratio": 2.0,
        "provenance": {"min_ratio": {"source": "assumed", "why": "test"}},
        **extra,
    }


def context(paper, a=BETTER, b=WORSE):
    traces = {("e", "a"): horizon_trace(a), ("e", "b"): horizon_trace(b)}
    return ClaimContext(
        paper=paper, config=copy.deepcopy(CONFIG), trace_of=lambda exp, alg: traces[(exp, alg)]
    )


def p_value(ratio):
    """The claim's own test, worse − ρ·better > 0, by scipy: the tipping point solves p = α."""
    return stats.ttest_1samp(WORSE - ratio * BETTER, 0.0, alternative="greater").pvalue


def test_a_threshold_is_read_with_its_declared_default():
    assert threshold(BetterAtHorizon, {"kind": "better_at_horizon"}, "min_ratio") == 1.0
    assert threshold(BetterAtHorizon, better_claim(), "min_ratio") == 2.0
    with pytest.raises(ValueError, match=r"min_ratio must lie in \[1, inf\], got 0.5"):
        check_keys(BetterAtHorizon, better_claim(min_ratio=0.5))


def test_a_threshold_given_without_provenance_is_refused():
    claim = better_claim()
    check_provenance(BetterAtHorizon, claim)
    with pytest.raises(ValueError, match="threshold min_ratio = 2.0 needs a provenance entry"):
        check_provenance(BetterAtHorizon, {**claim, "provenance": {}})


def test_tipping_point_is_where_the_claims_own_test_crosses_alpha():
    claim = better_claim()
    paper = make_paper([claim])
    ctx = context(paper)
    (point,) = tipping_points(BetterAtHorizon, claim, ctx, REPRODUCED)
    exact = optimize.brentq(lambda r: p_value(r) - 0.05, 2.0, 3.0)
    assert point["name"] == "min_ratio" and point["value"] == 2.0 and point["to"] == INCONCLUSIVE
    assert point["flips_at"] == pytest.approx(exact, rel=2e-3)
    assert 2.2 < exact < 2.5 and not point["fragile"]  # 2.2 is more than 10% above 2
    # a defensible range that reaches the flip makes it fragile
    span = better_claim(
        provenance={"min_ratio": {"source": "assumed", "why": "t", "defensible": [1.5, 2.5]}}
    )
    (point,) = tipping_points(BetterAtHorizon, span, ctx, REPRODUCED)
    assert point["fragile"]


def test_the_papers_own_threshold_has_no_tipping_point():
    claim = better_claim(provenance={"min_ratio": {"source": "paper", "why": "printed"}})
    assert tipping_points(BetterAtHorizon, claim, context(make_paper([claim])), REPRODUCED) == []
    # "better" with the default ratio 1 is the paper's direction, not an assumption
    plain = better_claim(provenance={})
    plain.pop("min_ratio")
    assert tipping_points(BetterAtHorizon, plain, context(make_paper([plain])), REPRODUCED) == []


def test_a_refuted_claim_flips_towards_the_looser_threshold():
    # ρ = 3: worse − 3·better < 0 in every run, refuted; it stops being refuted where the
    # opposite test crosses α, below 2.5
    claim = better_claim(min_ratio=3.0)
    (point,) = tipping_points(BetterAtHorizon, claim, context(make_paper([claim])), NOT_REPRODUCED)
    exact = optimize.brentq(
        lambda r: stats.ttest_1samp(WORSE - r * BETTER, 0.0, alternative="less").pvalue - 0.05,
        2.4,
        3.0,
    )
    assert point["to"] == INCONCLUSIVE and point["flips_at"] == pytest.approx(exact, rel=2e-3)


def test_an_integer_threshold_flips_at_a_whole_number():
    item = Threshold("k", "higher", low=1, integer=True)
    assert item.admits(2) and not item.admits(2.5) and not item.admits(0)


def test_runs_to_decide_scales_the_runs_at_the_same_means_and_spread():
    # paired differences with p = 0.18 over 10 runs (inconclusive), 0.089 twice over, under
    # 0.05 four times over: reproduced with 40 runs
    diffs = np.array([1.0, -1.0, 2.0, -0.5, 1.5, -1.5, 1.0, 0.5, -0.2, 0.6])
    claim = better_claim(provenance={})
    claim.pop("min_ratio")
    ctx = context(make_paper([claim]), BETTER, BETTER + diffs)
    p = [stats.ttest_1samp(np.tile(diffs, k), 0.0, alternative="greater").pvalue for k in (1, 2, 4)]
    assert p[0] > 0.05 and p[1] > 0.05 and p[2] < 0.05
    assert runs_to_decide(BetterAtHorizon, claim, ctx, REPS) == (
        "reproduced with 40 runs (4×), at today's means and spread"
    )


CAUSE_ROW = {"evidence": STATISTICAL, "decided_by": "e: refuted"}


@pytest.mark.parametrize(
    "points, variants, row, stand_in, expected",
    [
        # a fragile tipping point decides first
        (
            [
                {
                    "name": "min_ratio",
                    "value": 2.0,
                    "flips_at": 2.1,
                    "to": INCONCLUSIVE,
                    "fragile": True,
                }
            ],
            [],
            CAUSE_ROW,
            "",
            FRAGILE,
        ),
        # a variant that holds at α/m: the setting it varies
        (
            [],
            [
                {"id": "C2-a", "tests": "setting", "varies": "λ = 0.01", "verdict": REPRODUCED},
                {"id": "C2-b", "tests": "setting", "varies": "λ = 0.1", "verdict": NOT_REPRODUCED},
            ],
            CAUSE_ROW,
            "",
            SETTING,
        ),
        (
            [],
            [{"id": "C2-d", "tests": "data", "varies": "flights", "verdict": REPRODUCED}],
            CAUSE_ROW,
            "",
            DATA,
        ),
        # no variant holds: an exact failure is an erratum, a stand-in is data, else robust
        (
            [],
            [{"id": "C2-a", "tests": "setting", "varies": "λ = 0.01", "verdict": INCONCLUSIVE}],
            {"evidence": EXACT, "decided_by": "A < 0"},
            "",
            ERRATUM,
        ),
        ([], [], CAUSE_ROW, "MovieLens for Outbrain", DATA),
        (
            [],
            [{"id": "C2-a", "tests": "setting", "varies": "λ = 0.01", "verdict": NOT_REPRODUCED}],
            CAUSE_ROW,
            "",
            ROBUST,
        ),
        ([], [], CAUSE_ROW, "", UNEXPLAINED),
    ],
)
def test_the_cause_is_decided_in_order(points, variants, row, stand_in, expected):
    paper = {"experiments": {"e": {"stand_in": stand_in} if stand_in else {}}}
    cause, line = decide_cause({"experiments": ["e"]}, row, points, variants, paper, 0.05)
    assert cause == expected and line
    listed = tried(variants, 0.05)
    for variant in variants:  # every variant tried is listed, passing or not
        assert f"{variant['id']} ({variant['varies']}): {variant['verdict']}" in listed
    if variants:
        assert listed.startswith(f"at α/{len(variants)} = {0.05 / len(variants):.2g}: ")


def test_a_variant_that_holds_only_at_alpha_does_not_decide_a_setting():
    # the parent C2 (ratio 3) is refuted; C2-a (ratio 1) holds with p ≈ 0; C2-b (ratio 2.3)
    # holds at α = 0.05 but not at α/2: only C2-a counts, and both are listed
    parent = better_claim(min_ratio=3.0, provenance={"min_ratio": {"source": "paper", "why": "t"}})
    near = optimize.brentq(lambda r: p_value(r) - 0.04, 2.0, 3.0)  # p = 0.04 exactly

    def child(cid, ratio):
        return better_claim(
            id=cid,
            scope="extension",
            parent="C2",
            tests="setting",
            varies=f"ratio {ratio:.3g}",
            min_ratio=ratio,
        )

    for children, cause in (
        ([child("C2-b", near)], SETTING),
        ([child("C2-b", near), child("C2-c", near)], ROBUST),
        ([child("C2-a", 1.0), child("C2-b", near)], SETTING),
    ):
        paper = make_paper([parent, *children])
        summary, _ = evaluate_claims(paper, context(paper), GENERIC_KINDS)
        row = summary.set_index("claim").loc["C2"]
        assert row["verdict"] == NOT_REPRODUCED and row["cause"] == cause, row["cause_line"]
        assert summary.set_index("claim").loc["C2-b", "verdict"] == REPRODUCED


def test_a_sensitivity_claim_must_name_a_paper_claim_and_say_what_it_varies():
    paper = {
        "claims": [
            {"id": "P", "scope": "paper"},
            {"id": "S", "scope": "extension", "parent": "P", "tests": "setting", "varies": "λ"},
        ]
    }
    check_sensitivity(paper)
    with pytest.raises(ValueError, match="needs parent, tests and varies"):
        check_sensitivity({"claims": [{"id": "S", "scope": "extension", "parent": "P"}]})
    with pytest.raises(ValueError, match="parent 'Q' is not a paper-scope claim"):
        check_sensitivity({"claims": [paper["claims"][1] | {"parent": "Q"}]})
    with pytest.raises(ValueError, match="has scope extension"):
        check_sensitivity({"claims": [paper["claims"][0], paper["claims"][1] | {"scope": "paper"}]})


class Bounded(ClaimContext):
    """A context whose instance allows mean values of at most 10 (as a payoff below P*)."""

    def metric_range(self, experiment, algorithm, metric):
        return (-np.inf, 10.0)


def test_witnesses_stay_inside_what_the_instance_can_produce():
    # real payoffs around 25 and 62: a witness 3 times the larger (the old one) would show 186,
    # which no learner could earn; inside [−∞, 10] both sides are still reachable
    from timebandits.core.verdicts.decidability import decide

    claim = better_claim(direction="higher", provenance={})
    claim.pop("min_ratio")
    traces = {("e", "a"): horizon_trace(2.5 * BETTER), ("e", "b"): horizon_trace(WORSE)}
    ctx = Bounded(
        paper=make_paper([claim]),
        config=copy.deepcopy(CONFIG),
        trace_of=lambda exp, alg: traces[(exp, alg)],
    )
    witnesses = BetterAtHorizon.witnesses(claim, ctx)
    for witness in witnesses.values():
        for algorithm in ("a", "b"):
            assert witness.final("e", algorithm, "m").max() <= 10.0
    out = decide(claim, BetterAtHorizon, ctx)
    assert out["can_reproduce"] and out["can_refute"]


def test_a_frequency_that_cannot_pass_says_with_how_many_runs_it_could():
    # 50 runs at level 0.95: even 50/50 gives p = 0.95^50 = 0.077 > α; twice the runs pass
    from test_core_decidability import CONFIG as DEC_CONFIG
    from test_core_decidability import Frequency, T, trace

    from timebandits.core.verdicts.firmness import runs_to_pass

    hits = trace(np.ones((50, T.size)), "hit")
    ctx = ClaimContext(paper={"paper": {"key": "x"}}, config=DEC_CONFIG, trace_of=lambda e, a: hits)
    assert runs_to_pass(Frequency, {"id": "f", "level": 0.95}, ctx, 50) == (
        "could be reproduced with 100 runs (2×)"
    )
