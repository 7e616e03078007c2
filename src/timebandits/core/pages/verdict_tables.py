"""The verdicts as a reader sees them: the per-paper verdict tables (each claim anchored as
``claim-<id>`` for links from the front page), their sub-checks, and the scorecard."""

from __future__ import annotations

import numpy as np
import pandas as pd
from IPython.display import HTML, Markdown, display
from markupsafe import Markup

from timebandits.core import paths
from timebandits.core.pages.display import markdown_text, readable
from timebandits.core.pages.reader_names import in_reader_words
from timebandits.core.pages.render import render
from timebandits.core.pages.verdict_words import (
    ERRATUM_COLOUR,
    VERDICT_COLOURS,
    WORD_COLOURS,
    errata_sentence,
    sentence,
    shown_verdict,
    totals,
)
from timebandits.core.verdicts.vocabulary import DETAIL_COLUMNS as DETAIL_FILE_COLUMNS
from timebandits.core.verdicts.vocabulary import (
    EXACT,
    NOT_CHECKABLE,
    STATISTICAL,
    SUMMARY_COLUMNS,
    VERDICTS,
)

EVIDENCE_HEADINGS = {
    STATISTICAL: "Statistical tests over the runs",
    EXACT: "Exact computations (closed forms, enumeration, exact optimisation; no sampling error)",
    NOT_CHECKABLE: "Not checkable here",
}
# The sub-check table: the details file's columns but the headline, which repeats the
# statistic's deciding number.
DETAIL_COLUMNS = [c for c in DETAIL_FILE_COLUMNS if c != "headline"]
SCORECARD_HEADER = {
    "paper": ("", "paper"),
    "scope": ("", "scope"),
    "claims": ("", "claims"),
    "reproduced": ("statistical tests", "reproduced"),
    "not_reproduced": ("statistical tests", "not reproduced"),
    "inconclusive": ("statistical tests", "inconclusive"),
    "exact": ("exact computations", "all"),
    "exact_holds": ("exact computations", "hold"),
    "exact_fails": ("exact computations", "fail"),
    "not_checkable": ("", "not checkable"),
    "undecidable": ("", "cannot reach both verdicts"),
}
SCORECARD_COLOURS = {
    "reproduced": VERDICT_COLOURS["reproduced"],
    "exact_holds": VERDICT_COLOURS["reproduced"],
    "not_reproduced": VERDICT_COLOURS["not reproduced"],
    "exact_fails": VERDICT_COLOURS["not reproduced"],
    "inconclusive": VERDICT_COLOURS["inconclusive"],
}


def _read_checked(path: str, columns: list[str]) -> pd.DataFrame:
    frame = pd.read_csv(path)
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{path}: missing columns {missing} (expected {columns})")
    unknown = set(frame["verdict"]) - set(VERDICTS) if "verdict" in frame else set()
    unknown |= set(frame["evidence"]) - set(EVIDENCE_HEADINGS) if "evidence" in frame else set()
    if unknown:
        raise ValueError(f"{path}: unknown verdict or evidence values {sorted(unknown)}")
    return frame


def _colour_verdicts(styler):
    return styler.map(
        lambda v: f"background-color: {WORD_COLOURS[v]}; white-space: nowrap;", subset=["verdict"]
    )


def _counts(rows: pd.DataFrame) -> str:
    """``2 reproduced, 1 erratum confirmed``: the rows by the word each page shows."""
    counts = pd.Series(
        [shown_verdict(s, v) for s, v in zip(rows["scope"], rows["verdict"])], dtype=object
    ).value_counts()
    return ", ".join(f"{counts[v]} {v}" for v in WORD_COLOURS if v in counts)


def reachable(row) -> str:
    """Which verdicts the claim could reach as configured, with the reason where not both: the
    config's ``one_sided`` reason if it gives one, else what the witnesses came out as (the
    claims table keeps both); nothing for a claim that could reach both, as almost all can."""
    if row.evidence == NOT_CHECKABLE:
        return "neither (not checkable)"
    if row.can_reproduce and row.can_refute:
        return ""
    side = (
        "neither"
        if not (row.can_reproduce or row.can_refute)
        else "only reproduced"
        if row.can_reproduce
        else "only not reproduced"
    )
    witnesses, _, why = str(row.decidability).partition(". Why (config): ")
    return f"{side}: {why or witnesses}"


def _text(value) -> str:
    return "" if pd.isna(value) else str(value)


def firmness(row) -> str:
    """The claim's thresholds with their provenance, then where its verdict would flip (the
    tipping point of every threshold that is not the paper's; "fragile" where the flip lies
    within ±10% or the range the config calls defensible)."""
    parts = [_text(row.thresholds)]
    if _text(row.flips_at):
        parts.append(f"flips at: {row.flips_at}")
    return "; ".join(p for p in parts if p)


def failure(row) -> str:
    """Why a failed paper claim failed: its cause and the evidence, one line ("" otherwise)."""
    return f"{row.cause}: {row.cause_line}" if _text(row.cause) else ""


def anchored(claim: str) -> Markup:
    """A claim's id as the target of links from the front page (``#claim-<id>``)."""
    return Markup('<span id="claim-{0}">{0}</span>').format(claim)


def verdict_table(rows: pd.DataFrame):
    """One line per claim of ``rows`` (a claims frame): the claim (anchored), its scope, its
    text and place in the paper, the verdict (coloured), the number that decides it, its
    thresholds with their provenance and tipping points, why it failed (a failed paper claim's
    cause), and which verdicts it could reach as configured (with the runs an undecided claim
    would need)."""
    where = rows["where"].fillna("").astype(str)
    shown = pd.DataFrame(
        {
            "scope": rows["scope"],
            "the paper says": rows["quote"]
            .fillna("")
            .astype(str)
            .map(lambda q: f"“{q}”" if q else "")
            + where.map(lambda w: f" ({w})" if w else ""),
            "we test": rows["tested_as"],
            "verdict": [shown_verdict(s, v) for s, v in zip(rows["scope"], rows["verdict"])],
            "decided by": rows["decided_by"],
            "thresholds": [firmness(r) for r in rows.itertuples()],
            "why it failed": [failure(r) for r in rows.itertuples()],
            "could reach": [
                "; ".join(p for p in (reachable(r), _text(r.runs_to_decide)) if p)
                for r in rows.itertuples()
            ],
        }
    )
    shown.index = pd.Index(rows["claim"].to_numpy(), name="claim")
    # The paper's words get the room; the deciding number and the reasons wrap narrower.
    return (
        _colour_verdicts(readable(shown))
        .format_index(anchored, axis=0)
        .set_properties(subset=["the paper says", "we test"], **{"min-width": "18em"})
        .set_properties(
            subset=["decided by", "why it failed", "could reach"], **{"max-width": "28em"}
        )
    )


def answer(root: str, paper: str) -> None:
    """The answer first, in the words of the front page: the paper's own claims by verdict (the
    numbers add up to its claims), its errata confirmed, then our extensions."""
    total = totals(_read_checked(paths.claims(root, paper), SUMMARY_COLUMNS))
    lines = [
        f"- **The paper's claims**, at its settings: {sentence(total['paper'], total['paper_n'])}"
    ]
    if errata := errata_sentence(total):
        lines.append(f"- **Errata**, statements of the paper we show false: {errata}")
    if total["extension_n"]:
        lines.append(
            "- **Our extensions** (sensitivity runs and extra experiments): "
            + sentence(total["extension"], total["extension_n"])
        )
    display(Markdown("**The answer.**\n\n" + "\n".join(lines)))


def _in_reader_words(frame: pd.DataFrame, columns: list[str], paper: dict) -> pd.DataFrame:
    """``frame`` with the paper's experiment and bound ids in ``columns`` in words
    (core/pages/reader_names.py)."""
    return frame.assign(
        **{c: frame[c].map(lambda text: in_reader_words(text, paper)) for c in columns}
    )


def verdicts(root: str, paper: dict) -> None:
    """The verdict tables of ``paper`` (its config), one per kind of evidence that decides a
    claim (statistical tests, exact computations, not checkable), each a ``verdict_table``. How
    pooled sub-tests were combined follows each table, one line per claim; the words they use are
    explained below them (the front page's glossary, folded)."""
    frame = _in_reader_words(
        _read_checked(paths.claims(root, paper["paper"]["key"]), SUMMARY_COLUMNS),
        ["decided_by", "cause_line"],
        paper,
    )
    for evidence, heading in EVIDENCE_HEADINGS.items():
        rows = frame[frame["evidence"] == evidence]
        if rows.empty:
            continue
        display(
            Markdown(f"**{heading}** — {len(rows)} claim{'s' * (len(rows) > 1)}: {_counts(rows)}")
        )
        display(verdict_table(rows))
        # a column of NaN alone (no claim of the table combines sub-tests) is read as floats
        notes = rows[rows["multiplicity"].fillna("").astype(str).str.strip() != ""]
        if not notes.empty:  # one line per way of combining, with the claims combined so
            grouped = notes.groupby("multiplicity", sort=False)["claim"].agg(list)
            display(
                Markdown(
                    "How the sub-tests of a claim are combined:\n\n"
                    + "\n".join(
                        f"- **{markdown_text(', '.join(claims))}**: {markdown_text(m)}"
                        for m, claims in grouped.items()
                    )
                )
            )
    display(HTML(render("glossary.html.j2")))  # the front page's, folded


def verdict_details(root: str, paper: dict):
    """Every sub-check behind the verdicts of ``paper`` (its config), one per line: claim, scope
    (e.g. the experiment, by its short name), evidence, role ("decides" the verdict or
    "supports" it), verdict (coloured), statistic."""
    frame = _in_reader_words(
        _read_checked(paths.claim_details(root, paper["paper"]["key"]), DETAIL_COLUMNS),
        ["scope"],
        paper,
    )
    return _colour_verdicts(readable(frame[DETAIL_COLUMNS])).set_properties(
        subset=["evidence", "role"], **{"white-space": "nowrap"}
    )


SCORECARD_NOTE = (
    "One row per paper and scope (the paper's own claims; our extensions, sensitivity runs and "
    "extra experiments; errata, statements of the paper shown false, where a failing exact "
    "computation confirms the erratum): its claims, the statistical tests over the runs by "
    "verdict, the exact computations (no sampling error) that hold or fail, the claims that "
    "cannot be checked, and those that as configured cannot reach both verdicts."
)


def scorecard_table(frame: pd.DataFrame):
    """The scorecard (``core.verdicts.scorecard.scorecard``, ``results/scorecard.csv``) as a styled
    table: verdict colours, and an erratum's counts in a neutral colour (its failure is the
    expected outcome)."""
    frame = frame[list(SCORECARD_HEADER)]
    erratum = (frame["scope"] == "erratum").to_numpy()
    frame.columns = pd.MultiIndex.from_tuples(SCORECARD_HEADER.values())

    def colours(table: pd.DataFrame) -> pd.DataFrame:
        styles = pd.DataFrame("", index=table.index, columns=table.columns)
        for column, colour in SCORECARD_COLOURS.items():
            key = SCORECARD_HEADER[column]
            row_colour = np.where(erratum, ERRATUM_COLOUR, colour)
            styles[key] = [
                f"background-color: {c}" if v else ""
                for c, v in zip(row_colour, table[key].to_numpy())
            ]
        return styles

    # An erratum's failing exact computation confirms it: said in the front page's words.
    fails = SCORECARD_HEADER["exact_fails"]
    confirmed = pd.IndexSlice[frame.index[erratum], [fails]]
    return (
        readable(frame)
        .apply(colours, axis=None)
        .format(lambda v: f"{v} (erratum confirmed)" if v else "0", subset=confirmed)
    )


def scorecard(root: str):
    """The scorecard under one line on how to read it (the comparison notebook)."""
    display(
        Markdown(
            f"**Scorecard.** {SCORECARD_NOTE} Each paper's notebook gives every verdict "
            "with its number."
        )
    )
    return scorecard_table(pd.read_csv(paths.scorecard(root)))
