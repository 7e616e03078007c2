"""core/verdicts/combine.py: one verdict from a claim's sub-checks (intersection–union test and
Bonferroni refutation) and the decided-by line that names the row settling it.

Expectations are worked out by hand in the comments."""

import pytest
from claims_fixtures import _note

from timebandits.core.verdicts.combine import ROW_KEYS, claim_rows, combine, decided_by
from timebandits.core.verdicts.vocabulary import (
    DECIDES,
    EXACT,
    INCONCLUSIVE,
    NOT_CHECKABLE,
    NOT_REPRODUCED,
    REPRODUCED,
    STATISTICAL,
    SUPPORTS,
)

# --------------------------------------------------------------------------- combine & decided_by


@pytest.mark.parametrize(
    "verdicts, expected",
    [
        ([], INCONCLUSIVE),
        ([REPRODUCED], REPRODUCED),
        ([REPRODUCED, REPRODUCED], REPRODUCED),
        ([REPRODUCED, INCONCLUSIVE], INCONCLUSIVE),
        ([INCONCLUSIVE, REPRODUCED, NOT_REPRODUCED], NOT_REPRODUCED),
        ([NOT_REPRODUCED, INCONCLUSIVE], NOT_REPRODUCED),
        ([INCONCLUSIVE], INCONCLUSIVE),
    ],
)
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
    assert combine(weak_refutation, STATISTICAL, 0.05)[0] == INCONCLUSIVE  # 0.03 > 0.05/2
    strong_refutation = [row(REPRODUCED, 0.01, 0.99), row(NOT_REPRODUCED, 0.99, 0.01)]
    assert combine(strong_refutation, STATISTICAL, 0.05)[0] == NOT_REPRODUCED
    # one row: no correction, no note
    assert combine([row(NOT_REPRODUCED, 0.97, 0.03)], STATISTICAL, 0.05) == (NOT_REPRODUCED, "")


def test_combine_not_checkable():
    assert combine([{"verdict": NOT_CHECKABLE}], NOT_CHECKABLE, 0.05) == (NOT_CHECKABLE, "")


def test_decided_by_names_the_settling_row():
    rows = [
        {"scope": "e", "verdict": REPRODUCED, "headline": "lower", "p_claimed": 0.001},
        {"scope": "f", "verdict": REPRODUCED, "headline": "lower", "p_claimed": 0.04},
    ]
    assert decided_by(rows, REPRODUCED) == "f: lower, p = 0.04 (2 of 2 sub-checks reproduced)"
    rows[0].update(verdict=NOT_REPRODUCED, headline="higher", p_claimed=0.999, p_opposite=0.001)
    # a refuted claim shows the test that refutes it, against α/m, never its own p = 0.999
    assert decided_by(rows, NOT_REPRODUCED, 0.05) == (
        "e: higher; refuted by the opposite test, p = 0.001 < α/2 = 0.025 "
        "(1 of 2 sub-checks not reproduced)"
    )
    assert decided_by(rows[:1], NOT_REPRODUCED, 0.05) == (
        "e: higher; refuted by the opposite test, p = 0.001 < α = 0.05"
    )


def test_decided_by_shows_the_tightest_of_pooled_checks_without_p_values():
    # anonymous C1b showed its first bound check (0.158) where its worst was 0.841
    rows = [
        {"scope": "a", "verdict": REPRODUCED, "headline": "ratio 0.158", "tightness": 0.158},
        {"scope": "b", "verdict": REPRODUCED, "headline": "ratio 0.841", "tightness": 0.841},
        {"scope": "c", "verdict": REPRODUCED, "headline": "ratio 0.5", "tightness": 0.5},
    ]
    assert decided_by(rows, REPRODUCED).startswith("b: ratio 0.841")
    rows[2].update(verdict=NOT_REPRODUCED, headline="ratio 1.2", tightness=1.2)
    rows[0].update(verdict=NOT_REPRODUCED, headline="ratio 3", tightness=3.0)
    assert decided_by(rows, NOT_REPRODUCED).startswith("a: ratio 3")


# --------------------------------------------------------------------------- texts and edges


def test_combine_returns_no_note_without_pooling():
    assert combine([], STATISTICAL, 0.05) == (INCONCLUSIVE, "")
    assert combine([{"verdict": REPRODUCED}] * 2, EXACT, 0.05) == (REPRODUCED, "")
    assert combine([{"verdict": INCONCLUSIVE}] * 2, EXACT, 0.05) == (INCONCLUSIVE, "")


def test_combine_note_and_bonferroni_edge():
    # m = 2: α/2 = 0.025 exactly (halving is exact in binary). A refutation at p_opposite = 0.025
    # is not below it -> inconclusive; just below it -> not reproduced.
    assert _note(2).endswith("α/2 = 0.025 (Bonferroni)") and _note(3).endswith(
        "α/3 = 0.017 (Bonferroni)"
    )
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
    rows = [
        {"scope": "e", "verdict": REPRODUCED, "headline": "below the bound"},
        {"scope": "f", "verdict": REPRODUCED, "headline": "lower", "p_claimed": 0.3},
    ]
    assert decided_by(rows, REPRODUCED) == "f: lower, p = 0.3 (2 of 2 sub-checks reproduced)"
    # not reproduced: the strongest row, smallest p_opposite (0.001 of f, not e's 0.02)
    rows = [
        {"scope": "e", "verdict": NOT_REPRODUCED, "headline": "higher", "p_opposite": 0.02},
        {"scope": "f", "verdict": NOT_REPRODUCED, "headline": "higher", "p_opposite": 0.001},
    ]
    assert decided_by(rows, NOT_REPRODUCED) == (
        "f: higher; refuted by the opposite test, p = 0.001 (2 of 2 sub-checks not reproduced)"
    )
    # ... and a row without a p-value (clearly above a bound) counts as refuted outright
    rows[1] = {"scope": "g", "verdict": NOT_REPRODUCED, "headline": "above the bound"}
    assert (
        decided_by(rows, NOT_REPRODUCED) == "g: above the bound (2 of 2 sub-checks not reproduced)"
    )


# --------------------------------------------------------------------------- claim_rows


class _Rows:
    """A kind whose evaluate returns the rows it is given."""

    evidence = STATISTICAL

    def __init__(self, rows):
        self.rows = rows

    def evaluate(self, claim, ctx):
        return self.rows


def _row(**changes):
    row = {"scope": "a", "verdict": REPRODUCED, "headline": "h", "statistic": "s"}
    row.update(changes)
    return row


def test_claim_rows_gives_each_row_its_kind_evidence_and_a_deciding_role():
    rows = claim_rows(_Rows([_row(), _row(role=SUPPORTS)]), {"id": "C1"}, None)
    assert [(r["evidence"], r["role"]) for r in rows] == [
        (STATISTICAL, DECIDES),
        (STATISTICAL, SUPPORTS),
    ]


@pytest.mark.parametrize("key", ROW_KEYS)
def test_a_row_without_one_of_its_keys_is_refused_by_name(key):
    """A misspelt key ("VERDICT") would otherwise leave an empty cell in the details table."""
    row = _row()
    row[key.upper()] = row.pop(key)
    with pytest.raises(ValueError, match=rf"^claim C1: a sub-check row without {key} "):
        claim_rows(_Rows([_row(), row]), {"id": "C1"}, None)
