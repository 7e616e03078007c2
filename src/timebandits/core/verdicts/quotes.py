"""The paper's own words beside each claim: a claim's ``quote`` is the paper's sentence, verbatim,
and its ``tested_as`` what we test, in our words (workflow/schemas/paper.schema.yaml).

A quote may leave words out, marked "…": its pieces must then appear in the paper in that order.
:func:`quote_problem` checks a quote against the paper's text (the text extraction in
``shared/papers/``, which the repository does not copy: the papers' licences vary), after
:func:`normalise` has removed what the extraction changes and a reader does not see: letter case,
white space and line breaks, hyphens (a word split at a line end loses or keeps its hyphen),
typographic quotes and dashes, and the extraction's look-alike symbols. A sensitivity claim
(one with a ``parent``) shows its parent's quote.
"""

from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path

ELLIPSIS = re.compile(r"\s*(?:…|\.\.\.)\s*")
# The extraction's symbols and their usual forms (after NFKC, which already maps µ, ﬁ, ….)
_SYMBOLS = str.maketrans(
    {
        "∆": "Δ",
        "−": "-",
        "–": "-",
        "—": "-",
        "‐": "-",
        "‑": "-",
        "“": '"',
        "”": '"',
        "„": '"',
        "‘": "'",
        "’": "'",
        "`": "'",
        "ϵ": "ε",
    }
)
_DROPPED = re.compile(r"[\s\-'\"]+")
# Where the papers' texts are: $TIMEBANDITS_PAPERS, else shared/papers beside the checkout.
PAPERS_ENV = "TIMEBANDITS_PAPERS"


def normalise(text: str) -> str:
    """``text`` as the comparison sees it: NFKC, the look-alike symbols mapped, lower case, and
    no white space, hyphens or quote marks."""
    text = unicodedata.normalize("NFKC", text).translate(_SYMBOLS).lower()
    return _DROPPED.sub("", text)


def pieces(quote: str) -> list[str]:
    """The parts of a quote between its "…" (or "..."), normalised, empty parts left out."""
    return [p for p in (normalise(part) for part in ELLIPSIS.split(quote)) if p]


def quote_problem(quote: str, paper_text: str) -> str | None:
    """None if every piece of ``quote`` is found in ``paper_text``, in order; else which piece
    is not (the first of them, with what was found before it)."""
    text, at = normalise(paper_text), 0
    parts = [part for part in ELLIPSIS.split(quote) if normalise(part)]
    if not parts:
        return "the quote is empty"
    for i, part in enumerate(parts):
        found = text.find(normalise(part), at)
        if found < 0:
            where = "" if i == 0 else f" after {i} piece(s) found"
            return f"piece {i + 1} not found{where}: {part.strip()!r}"
        at = found + len(normalise(part))
    return None


def quote_of(claim: dict, paper: dict) -> str:
    """The paper's words a claim shows: its own ``quote``, else its parent's, else ""."""
    if claim.get("quote"):
        return claim["quote"]
    parents = {c["id"]: c for c in paper["claims"]}
    parent = parents.get(claim.get("parent", ""), {})
    return parent.get("quote", "")


def papers_folder(repo_root: str | os.PathLike) -> Path:
    """Where the texts of the papers are: $TIMEBANDITS_PAPERS, else ../shared/papers beside the
    repository (they are not part of it)."""
    if os.environ.get(PAPERS_ENV):
        return Path(os.environ[PAPERS_ENV])
    return Path(repo_root).resolve().parent / "shared" / "papers"
