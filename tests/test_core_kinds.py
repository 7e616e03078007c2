"""core/verdicts/kinds.py: the registry of generic kinds, every kind's check() of a malformed
claim, below_bound on a bound table and not_checkable."""

import numpy as np
import pandas as pd
import pytest
from claims_fixtures import (
    BELOW_CLAIM,
    BETTER_CLAIM,
    LOG_CLAIM,
    _compare,
    _without,
    make_paper,
    wins_claim,
)

from timebandits.core.verdicts.bounds import compare_to_bound
from timebandits.core.verdicts.comparisons import BetterAtHorizon, CloseAtHorizon, WinsInSettings
from timebandits.core.verdicts.growth import LogGrowth
from timebandits.core.verdicts.kinds import GENERIC_KINDS, BelowBound, NotCheckable
from timebandits.core.verdicts.signs import SignAtHorizon
from timebandits.core.verdicts.vocabulary import INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED

# ------------------------------------------------------------------------ check(): malformed claims

CHECK_CASES = [
    (
        BetterAtHorizon,
        BETTER_CLAIM,
        ["experiments", "metric", "better", "worse"],
        lambda c: {**c, "better": ["zzz"]},
    ),
    (
        LogGrowth,
        LOG_CLAIM,
        ["experiments", "algorithm", "metric", "max_slope"],
        lambda c: {**c, "algorithm": "zzz"},
    ),
    (
        WinsInSettings,
        wins_claim(1),
        ["experiments", "algorithm", "against", "metric", "min_settings"],
        lambda c: {**c, "against": ["b", "zzz"]},
    ),
    (
        BelowBound,
        BELOW_CLAIM,
        ["experiments", "algorithm", "bounds"],
        lambda c: {**c, "algorithm": "zzz"},
    ),
]


@pytest.mark.parametrize(
    "kind, claim, required, bad_algorithm", CHECK_CASES, ids=[c[0].__name__ for c in CHECK_CASES]
)
def test_check_rejects_malformed_claims(kind, claim, required, bad_algorithm):
    paper = make_paper(experiments=("e", "f", "g"))
    kind.check(claim, paper)  # well-formed: no error
    for key in required:
        with pytest.raises(ValueError, match=key):
            kind.check(_without(claim, key), paper)
    with pytest.raises(ValueError, match="unknown experiment 'nope'"):
        kind.check({**claim, "experiments": ["e", "nope"]}, paper)
    with pytest.raises(ValueError, match="'zzz' is not run in experiment"):
        kind.check(bad_algorithm(claim), paper)


def test_check_rejects_algorithm_defined_but_not_run():
    paper = make_paper()
    paper["algorithms"]["c"] = {"label": "C"}  # defined, but e runs only a and b
    with pytest.raises(ValueError, match="'c' is not run in experiment 'e'"):
        BetterAtHorizon.check({**BETTER_CLAIM, "worse": ["b", "c"]}, paper)


def test_generic_kinds_registry():
    assert GENERIC_KINDS == {
        "below_bound": BelowBound,
        "better_at_horizon": BetterAtHorizon,
        "close_at_horizon": CloseAtHorizon,
        "log_growth": LogGrowth,
        "not_checkable": NotCheckable,
        "sign_at_horizon": SignAtHorizon,
        "wins_in_settings": WinsInSettings,
    }


# --------------------------------------------------------------------------- below_bound


def test_below_bound_claim_selects_algorithm_experiment_and_prefix(make_ctx, small_table):
    bounds = pd.concat(
        [
            _compare(small_table, [10.0, 10.0, 10.0], name="theorem2"),  # a, e: below
            _compare(small_table, [10.0, 3.0, 10.0], name="lemma2_k1_j1"),  # a, e: within 2 se
            _compare(small_table, [10.0, 10.0, 10.0], name="lemma2_k1_j2"),  # a, e: below
            # other algorithm / experiment far above their bounds: must be ignored
            compare_to_bound(
                small_table,
                np.full(3, 0.1),
                np.full(3, 100.0),
                experiment="e",
                algorithm="b",
                bound_name="theorem2",
                metric="m",
            ),
            compare_to_bound(
                small_table,
                np.full(3, 0.1),
                np.full(3, 100.0),
                experiment="f",
                algorithm="a",
                bound_name="theorem2",
                metric="m",
            ),
        ],
        ignore_index=True,
    )
    claim = {**BELOW_CLAIM, "bounds": ["theorem2", "lemma2"]}
    paper = make_paper([claim], experiments=("e", "f"))
    ctx = make_ctx(paper, {}, bounds=bounds)
    BelowBound.check(claim, paper)
    rows = BelowBound.evaluate(claim, ctx)
    assert [(r["scope"], r["verdict"]) for r in rows] == [
        ("e theorem2", REPRODUCED),
        ("e lemma2", INCONCLUSIVE),
    ]
    assert "the bound: 1/6" in rows[1]["statistic"]  # two lemma2 bounds x 3 checkpoints
    rows_f = BelowBound.evaluate({**claim, "experiments": ["f"], "bounds": ["theorem2"]}, ctx)
    assert [r["verdict"] for r in rows_f] == [NOT_REPRODUCED]


def test_below_bound_needs_bound_table(make_ctx):
    ctx = make_ctx(make_paper([BELOW_CLAIM]), {})
    with pytest.raises(ValueError, match="bound table"):
        BelowBound.evaluate(BELOW_CLAIM, ctx)


# --------------------------------------------------------------------------- not_checkable


def test_not_checkable_needs_a_reason():
    with pytest.raises(ValueError, match="reason"):
        NotCheckable.check({"id": "x", "kind": "not_checkable"}, make_paper())
