"""One word and one colour for each verdict on every page (front page, notebooks, scorecard), and
the totals a reader can add up.

An erratum (a statement of the paper we show false) that comes out "not reproduced" is the
expected outcome: every page calls it "erratum confirmed", in its own blue, never the red of a
failure. An exact computation that holds is "reproduced", like a test that does: the totals
count claims by verdict, whatever decides them, so that a paper's line reads "15 claims: 5
reproduced, 2 not reproduced, 3 inconclusive, 1 not checkable" and its numbers add up to 15.
"""

from __future__ import annotations

import pandas as pd

from timebandits.core.verdicts.vocabulary import ERRATUM, EXTENSION, NOT_REPRODUCED, PAPER, VERDICTS

VERDICT_COLOURS = {
    "reproduced": "#d8f0d8",
    "not reproduced": "#f6d5d5",
    "inconclusive": "#f5ecc8",
    "not checkable": "#e4e4e4",
}
ERRATUM_CONFIRMED = "erratum confirmed"
# A saturated blue, far from the grey of "not checkable" and from the three verdict colours.
ERRATUM_COLOUR = "#b9d3f2"
WORD_COLOURS = {**VERDICT_COLOURS, ERRATUM_CONFIRMED: ERRATUM_COLOUR}


def shown_verdict(scope: str, verdict: str) -> str:
    """The word a page shows for a claim's verdict."""
    return ERRATUM_CONFIRMED if scope == ERRATUM and verdict == NOT_REPRODUCED else verdict


def colour(scope: str, verdict: str) -> str:
    """The colour of that word."""
    return WORD_COLOURS[shown_verdict(scope, verdict)]


def counts(verdicts) -> dict[str, int]:
    """How many of ``verdicts`` have each verdict (every verdict present, zeros included)."""
    found = pd.Series(list(verdicts), dtype=object).value_counts()
    return {v: int(found.get(v, 0)) for v in VERDICTS}


def totals(frame: pd.DataFrame) -> dict:
    """A claims table's (or several stacked) claims by scope and verdict: ``paper`` and
    ``extension`` as {verdict: n} with their ``n``; ``errata`` as the number confirmed and the
    number not (the printed statement held, or the check was undecided)."""
    paper = frame[frame["scope"] == PAPER]["verdict"]
    extension = frame[frame["scope"] == EXTENSION]["verdict"]
    errata = frame[frame["scope"] == ERRATUM]["verdict"]
    confirmed = int((errata == NOT_REPRODUCED).sum())
    return {
        "paper": counts(paper),
        "paper_n": len(paper),
        "extension": counts(extension),
        "extension_n": len(extension),
        "errata_confirmed": confirmed,
        "errata_other": len(errata) - confirmed,
    }


def sentence(count: dict[str, int], n: int) -> str:
    """``15 claims: 5 reproduced, 2 not reproduced, 3 inconclusive, 1 not checkable`` (zero
    counts left out but for the first two, so the line always says what held and what failed)."""
    parts = [f"{count[v]} {v}" for v in VERDICTS if count[v] or v in VERDICTS[:2]]
    return f"{n} claim{'s' * (n != 1)}: " + ", ".join(parts)


def errata_sentence(total: dict) -> str:
    """``4 errata confirmed`` (and how many were not), or "" without errata."""
    confirmed, other = total["errata_confirmed"], total["errata_other"]
    if not confirmed + other:
        return ""
    line = f"{confirmed} erratum confirmed" if confirmed == 1 else f"{confirmed} errata confirmed"
    return line + (f", {other} not confirmed" if other else "")
