"""What failed and why: each notebook's opening section (DESIGN.md, "What a reader sees").

Every claim of the paper at its own setting that is *not reproduced*, with its cause as the
pipeline decided it (core/verdicts/causes.py), the evidence for that cause, and links to the claim's
line in the verdict table and to the figures that show it. Made from the claims table alone, like
the front page, so the two never disagree.
"""

from __future__ import annotations

import pandas as pd
from IPython.display import HTML, Markdown, display
from markupsafe import Markup, escape

from timebandits.core import paths
from timebandits.core.pages.display import readable
from timebandits.core.pages.frontpage import claim_experiments, figures_of
from timebandits.core.pages.reader_names import figure_names, in_reader_words
from timebandits.core.verdicts.scorecard import read_claims
from timebandits.core.verdicts.vocabulary import NOT_REPRODUCED, PAPER

CAUSE_NOTE = (
    "*fragile*: an assumed threshold flips it within its defensible range or ±10%; *setting*: it "
    "holds under a parameter the paper does not print (a sensitivity claim reproduced at α/m over "
    "the m tried); *data*: another stand-in data set, or judged on one; *erratum*: an exact "
    "computation shows the statement false; *robust*: no variant tried holds; "
    "*unexplained*: no sensitivity run tests it yet."
)


def _links(ids: str, prefix: str, names: dict[str, str] | None = None) -> Markup:
    """Links to in-page anchors ``#<prefix>-<id>`` from a comma-separated list of ids, each
    shown by its name in ``names`` (its id where it has none)."""
    parts = [i for i in str(ids).split(", ") if i]
    if not parts:
        return escape("none")
    names = names or {}
    return Markup(", ").join(
        Markup('<a href="#{0}-{1}">{2}</a>').format(prefix, i, names.get(i, i)) for i in parts
    )


def failed_claims(frame: pd.DataFrame, paper: dict) -> pd.DataFrame:
    """The failed paper claims of a claims frame, one row each, indexed by claim: the paper's
    words, cause, why (the evidence), every variant tried with its verdict, figures (their ids,
    comma-separated)."""
    failed = frame[(frame["scope"] == PAPER) & (frame["verdict"] == NOT_REPRODUCED)]
    configured = {claim["id"]: claim for claim in paper["claims"]}
    rows = [
        {
            "claim": row.claim,
            "the paper's words": row.quote,
            "what we test": row.tested_as,
            "cause": row.cause,
            "why": in_reader_words(row.cause_line, paper),
            "variants tried": row.variants,
            "figures": ", ".join(
                figures_of(
                    paper, claim_experiments(configured.get(row.claim, {}), paper["experiments"])
                )
            ),
        }
        for row in failed.itertuples()
    ]
    columns = [
        "claim",
        "the paper's words",
        "what we test",
        "cause",
        "why",
        "variants tried",
        "figures",
    ]
    return pd.DataFrame(rows, columns=columns).set_index("claim")


def _linked(styler, figure_names: dict[str, str] | None = None):
    """Claims linked to their verdict lines; with ``figure_names``, the figures column linked
    to the figures, each by its name."""
    styler = styler.format_index(lambda claim: _links(claim, "claim"), axis=0)
    if figure_names is None:
        return styler
    return styler.format(lambda ids: _links(ids, "figure", figure_names), subset=["figures"])


def what_failed(root: str, key: str, paper: dict) -> None:
    """The section: one line of how causes are decided, then each failed claim's cause, the
    evidence and its figures (each claim linking to its verdict line, each figure to the
    figure), with every variant tried folded below; or a line saying none failed. The paper's
    words are a click away, in the verdict table, so the verdicts stay near the top."""
    frame = read_claims(paths.claims(root, key), paper)
    table = failed_claims(frame, paper)
    if table.empty:
        display(Markdown("**What failed and why.** None of the paper's own claims failed."))
        return
    display(
        Markdown(
            f"**What failed and why.** {len(table)} of the paper's own claims did not "
            f"reproduce. Each cause is decided by the pipeline, not written by hand: "
            f"{CAUSE_NOTE}"
        )
    )
    display(
        _linked(readable(table[["cause", "why", "figures"]]), figure_names(paper)).set_properties(
            subset=["why"], **{"max-width": "48em"}
        )
    )
    tried = table[table["variants tried"] != ""][["variants tried"]]
    if not tried.empty:
        folded = _linked(readable(tried)).to_html()
        display(
            HTML(
                f"<details><summary>Every variant tried for each failed claim, with its "
                f"verdict ({len(tried)} claims)</summary>{folded}</details>"
            )
        )
