"""core/verdicts/claims.py: every claim of a paper evaluated (evaluate_claims: the summary and
detail tables) and the thresholds text of a claim.

Expectations are worked out by hand in the comments, or from scipy's t-tests."""

import math

import numpy as np
import pytest
from claims_fixtures import (
    BASE,
    BELOW_CLAIM,
    BETTER_CLAIM,
    JITTER,
    LOG_CLAIM,
    REPS,
    _compare,
    _note,
    horizon_trace,
    make_paper,
    trace_frame,
)
from scipy import stats as st

from timebandits.core.verdicts.claims import evaluate_claims, thresholds
from timebandits.core.verdicts.kinds import GENERIC_KINDS
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

# --------------------------------------------------------------------------- evaluate_claims


def test_evaluate_claims_end_to_end(make_ctx, small_table):
    claims = [
        BETTER_CLAIM,
        LOG_CLAIM,
        {**BELOW_CLAIM, "bounds": ["theorem2"]},
        {
            "id": "c6",
            "kind": "not_checkable",
            "where": "Thm 1",
            "tested_as": "NP-hard",
            "reason": "a complexity statement",
        },
    ]
    claims = [{"scope": "paper", **c} for c in claims]
    paper = make_paper(claims)
    bounds = _compare(small_table, [10.0, 10.0, 10.0])
    ctx = make_ctx(
        paper,
        {
            ("e", "a"): trace_frame(
                {
                    1: np.zeros(REPS),
                    10: np.full(REPS, 10.0),
                    100: np.full(REPS, 20.0),
                    1000: BASE - 5 + JITTER,
                }
            ),
            ("e", "b"): trace_frame(
                {1: np.zeros(REPS), 10: np.zeros(REPS), 100: np.zeros(REPS), 1000: BASE}
            ),
        },
        bounds=bounds,
    )
    summary, details = evaluate_claims(paper, ctx, GENERIC_KINDS)
    assert list(summary.columns) == [
        "claim",
        "scope",
        "where",
        "quote",
        "tested_as",
        "kind",
        "evidence",
        "verdict",
        "decided_by",
        "can_reproduce",
        "can_refute",
        "decidability",
        "thresholds",
        "multiplicity",
        "flips_at",
        "fragile",
        "runs_to_decide",
        "parent",
        "cause",
        "cause_line",
        "variants",
    ]
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
            return [
                {
                    "scope": "s",
                    "verdict": REPRODUCED,
                    "headline": "p = 0.01",
                    "statistic": "",
                    "p_claimed": 0.01,
                    "p_opposite": 0.99,
                },
                {
                    "scope": "x",
                    "verdict": NOT_REPRODUCED,
                    "headline": "exact",
                    "statistic": "",
                    "evidence": EXACT,
                    **claim.get("extra", {}),
                },
            ]

    paper = make_paper(
        [{"id": "m", "kind": "mixed", "where": "", "tested_as": "", "scope": "paper"}]
    )
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


# --------------------------------------------------------------------------- texts and edges


def test_thresholds_text():
    claim = {
        "share": 0.9,
        "sign": "negative",
        "provenance": {"share": {"source": "assumed"}, "sign": {"source": "paper, Thm 2"}},
    }
    assert thresholds(claim) == "share = 0.9 (assumed); sign (paper, Thm 2)"
    assert thresholds({"share": 0.9}) == ""


def test_evaluate_claims_whole_summary_row(make_ctx):
    # sign_at_horizon over two experiments. e: -1 .. -10 at the horizon, mean -5.5,
    # se = sd/sqrt(10) with sd² = 110/12 (the variance of 1..10, ddof 1): 0.957;
    # f: the same minus 10, mean -15.5, same se, so its p is smaller and e is the weakest row.
    values = -np.arange(1.0, REPS + 1)
    claim = {
        "id": "s1",
        "kind": "sign_at_horizon",
        "scope": "extension",
        "where": "Fig. 2",
        "tested_as": "a's metric is negative",
        "experiments": ["e", "f"],
        "algorithms": ["a"],
        "metric": "m",
        "sign": "negative",
        "provenance": {"sign": {"source": "paper"}},
    }
    paper = make_paper([claim], experiments=("e", "f"))
    ctx = make_ctx(
        paper, {("e", "a"): horizon_trace(values), ("f", "a"): horizon_trace(values - 10)}
    )
    summary, details = evaluate_claims(paper, ctx, GENERIC_KINDS)
    p_e = st.ttest_1samp(values, 0.0, alternative="less").pvalue
    assert p_e < 0.001
    assert summary.to_dict("records") == [
        {
            "claim": "s1",
            "scope": "extension",
            "where": "Fig. 2",
            "quote": "",
            "tested_as": "a's metric is negative",
            "kind": "sign_at_horizon",
            "evidence": STATISTICAL,
            "verdict": REPRODUCED,
            "decided_by": f"e A: mean -5.5 ± 0.96, p = {p_e:.2g} (2 of 2 sub-checks reproduced)",
            "can_reproduce": True,
            "can_refute": True,
            "decidability": "",
            "thresholds": "sign (paper)",
            "multiplicity": _note(2),
            "flips_at": "",
            "fragile": False,
            "runs_to_decide": "",
            "parent": "",
            "cause": "",
            "cause_line": "",
            "variants": "",
        }
    ]
    assert list(details["scope"]) == ["e A", "f A"]


def test_evaluate_claims_of_a_paper_without_claims(make_ctx):
    # No claim: both tables are empty, with their columns (it raised KeyError before).
    paper = make_paper([])
    summary, details = evaluate_claims(paper, make_ctx(paper, {}), GENERIC_KINDS)
    assert summary.empty and list(summary.columns) == SUMMARY_COLUMNS
    assert details.empty and list(details.columns) == DETAIL_COLUMNS
