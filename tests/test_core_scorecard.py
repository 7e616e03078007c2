"""core/verdicts/scorecard.py: the scorecard counts each paper's verdicts by scope and evidence,
and rejects what it does not know."""

import pandas as pd
import pytest

from timebandits.core.verdicts.vocabulary import EXACT, NOT_REPRODUCED, REPRODUCED, STATISTICAL


def test_scorecard_rejects_unknown_evidence():
    from timebandits.core.verdicts.scorecard import scorecard

    good = pd.DataFrame(
        {
            "evidence": [STATISTICAL, EXACT],
            "verdict": [REPRODUCED, NOT_REPRODUCED],
            "scope": ["paper", "paper"],
            "can_reproduce": [True, True],
            "can_refute": [True, False],
        }
    )
    assert scorecard({"x": good}).loc[0, ["reproduced", "exact_fails", "undecidable"]].tolist() == [
        1,
        1,
        1,
    ]
    with pytest.raises(ValueError, match="unknown evidence or scope"):
        scorecard({"x": good.assign(evidence=["p = 0.01", EXACT])})
    with pytest.raises(ValueError, match="unknown evidence or scope"):
        scorecard({"x": good.assign(scope=["paper", "ours"])})


def test_scorecard_counts_each_scope_apart():
    from timebandits.core.verdicts.scorecard import scorecard

    frame = pd.DataFrame(
        {
            "evidence": [STATISTICAL, STATISTICAL, EXACT],
            "verdict": [REPRODUCED, NOT_REPRODUCED, NOT_REPRODUCED],
            "scope": ["paper", "extension", "erratum"],
            "can_reproduce": [True] * 3,
            "can_refute": [True] * 3,
        }
    )
    table = scorecard({"x": frame}).set_index("scope")
    assert list(table.index) == ["paper", "extension", "erratum"]
    assert table.loc["paper", "reproduced"] == 1 and table.loc["paper", "not_reproduced"] == 0
    assert table.loc["extension", "not_reproduced"] == 1
    assert table.loc["erratum", "exact_fails"] == 1
