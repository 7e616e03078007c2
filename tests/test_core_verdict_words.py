"""core/pages/verdict_words.py: one word and one colour per verdict on every page, and totals a
reader can add up."""

import pandas as pd

from timebandits.core.pages.verdict_words import (
    ERRATUM_COLOUR,
    VERDICT_COLOURS,
    colour,
    errata_sentence,
    sentence,
    shown_verdict,
    totals,
)

FRAME = pd.DataFrame(
    {
        "scope": ["paper"] * 5 + ["erratum"] * 3 + ["extension"] * 2,
        "verdict": [
            "reproduced",
            "reproduced",
            "not reproduced",
            "inconclusive",
            "not checkable",
            "not reproduced",
            "not reproduced",
            "reproduced",
            "reproduced",
            "not reproduced",
        ],
    }
)


def test_a_confirmed_erratum_has_its_own_word_and_colour_everywhere():
    assert shown_verdict("erratum", "not reproduced") == "erratum confirmed"
    assert colour("erratum", "not reproduced") == ERRATUM_COLOUR
    assert shown_verdict("paper", "not reproduced") == "not reproduced"
    assert colour("erratum", "reproduced") == VERDICT_COLOURS["reproduced"]
    assert ERRATUM_COLOUR not in VERDICT_COLOURS.values()


def test_totals_add_up_to_the_claims_of_each_scope():
    total = totals(FRAME)
    assert sum(total["paper"].values()) == total["paper_n"] == 5
    assert sentence(total["paper"], total["paper_n"]) == (
        "5 claims: 2 reproduced, 1 not reproduced, 1 inconclusive, 1 not checkable"
    )
    assert errata_sentence(total) == "2 errata confirmed, 1 not confirmed"
    assert sentence(total["extension"], total["extension_n"]) == (
        "2 claims: 1 reproduced, 1 not reproduced"
    )
    assert errata_sentence(totals(FRAME[FRAME["scope"] != "erratum"])) == ""
