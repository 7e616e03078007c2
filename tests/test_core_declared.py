"""A claim kind's check as data (core/verdicts/declared.py): the keys, the runs each experiment
must make, the values a key may take, a sign or a direction, each refused in one line."""

import pytest

from timebandits.core.verdicts.declared import DeclaredCheck, ids
from timebandits.core.verdicts.thresholds import HIGHER, Threshold

PAPER = {
    "experiments": {
        "e1": {"algorithms": ["a", "b", "oracle"]},
        "e2": {"algorithms": ["a", "oracle"]},
    }
}


class Compared(DeclaredCheck):
    keys = ("experiments", "better", "worse")
    thresholds = (Threshold("min_ratio", HIGHER, default=1.0, low=1.0),)
    runs, also_runs, reads_direction = ("experiments", "better", "worse"), ("oracle",), True


class Signed(DeclaredCheck):
    keys = ("experiment", "algorithm", "sign", "statistic")
    runs, reads_sign = ("experiment", "algorithm"), True
    choices = {"statistic": ("mean", "sd")}


def claim(**keys):
    return {"kind": "compared", "experiments": ["e1"], "better": ["a"], "worse": ["b"], **keys}


def test_a_well_formed_claim_passes():
    Compared.check(claim(), PAPER)
    Signed.check(
        {
            "kind": "signed",
            "experiment": "e2",
            "algorithm": "a",
            "sign": "negative",
            "statistic": "sd",
        },
        PAPER,
    )


@pytest.mark.parametrize(
    "bad, message",
    [
        ({"better": None}, "needs keys"),  # a key missing
        ({"min_ratio": 0.5}, "min_ratio must lie in"),  # a threshold out of range
        ({"experiments": ["e3"]}, "unknown experiment 'e3'"),
        ({"experiments": ["e1", "e2"]}, "algorithm 'b' is not run in experiment 'e2'"),
        ({"direction": "sideways"}, "direction must be 'lower' or 'higher'"),
    ],
)
def test_each_fault_is_one_line(bad, message):
    malformed = {k: v for k, v in claim(**bad).items() if v is not None}
    with pytest.raises(ValueError, match=message):
        Compared.check(malformed, PAPER)


def test_an_experiment_without_the_kinds_own_algorithm_is_refused():
    no_oracle = {"experiments": {"e1": {"algorithms": ["a", "b"]}}}
    with pytest.raises(ValueError, match="algorithm 'oracle' is not run"):
        Compared.check(claim(), no_oracle)
    signed = {
        "kind": "signed",
        "experiment": "e1",
        "algorithm": "a",
        "sign": "negative",
        "statistic": "mean",
    }
    with pytest.raises(ValueError, match="sign must be"):
        Signed.check({**signed, "sign": "zero"}, PAPER)
    with pytest.raises(ValueError, match=r"statistic must be one of \('mean', 'sd'\), got 'max'"):
        Signed.check({**signed, "statistic": "max"}, PAPER)


def test_ids_of_one_a_list_or_a_mapping():
    assert ids("e1") == ["e1"] and ids(["e1", "e2"]) == ["e1", "e2"]
    assert ids({"e1": 0.5, "e2": 0.7}) == ["e1", "e2"]
