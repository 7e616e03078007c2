"""The front page, ``results/index.html`` (DESIGN.md, "What a reader sees"): the scorecard per
paper and scope, then every claim of every paper in one line (the paper's words, the verdict,
the number that decides it) linking to the figures it reads and to its line in the paper's
notebook, then a thumbnail of every paper figure (its main panel, legible at its size:
core/thumbnails.py) linking to the figure in the notebook and to its PDF and PNG. Static: every
link is relative, nothing is loaded from the network, so it works from ``file://``. It fits a
window 800 px wide: the claims tables fold into one block per claim there."""

from __future__ import annotations

import pandas as pd
from PIL import Image

from timebandits.core import paths
from timebandits.core.pages.display import in_zip_report
from timebandits.core.pages.reader_names import figure_names, in_reader_words
from timebandits.core.pages.render import render
from timebandits.core.pages.verdict_tables import SCORECARD_NOTE, scorecard_table
from timebandits.core.pages.verdict_words import (
    WORD_COLOURS,
    colour,
    counts,
    errata_sentence,
    sentence,
    shown_verdict,
    totals,
)
from timebandits.core.text import prose
from timebandits.core.verdicts.scorecard import read_claims
from timebandits.core.verdicts.vocabulary import EXTENSION, NOT_CHECKABLE
from timebandits.core.versions import LOCK


def claim_experiments(claim, known) -> set[str]:
    """Every experiment of ``known`` a claim's config names, at any depth: as a value
    (``experiment``, ``experiments``, the pairs of a comparison) or as a key (a table of printed
    values per experiment)."""
    if isinstance(claim, str):
        return {claim} & set(known)
    if isinstance(claim, dict):
        return set().union(
            set(claim) & set(known), *(claim_experiments(v, known) for v in claim.values())
        )
    if isinstance(claim, list):
        return set().union(*(claim_experiments(v, known) for v in claim))
    return set()


def figures_of(paper: dict, experiments: set[str]) -> list[str]:
    """The figures of ``paper`` that read any of ``experiments`` (their own or ``also``): the
    paper's figures among them, or, for a claim on our extra runs only, those runs' figures."""
    reading = [
        fid
        for fid, spec in paper["figures"].items()
        if experiments & {spec["experiment"], *spec.get("also", [])}
    ]
    papers_own = [fid for fid in reading if paper["figures"][fid]["group"] == "paper"]
    return papers_own or reading


def short_label(text: str, width: int = 72) -> str:
    """A claim's label beside its square: what we test, cut at a word before ``width``
    characters (the whole text is in the claims table below and in the tooltip)."""
    text = " ".join(str(text).split())
    if len(text) <= width:
        return text
    return text[:width].rsplit(" ", 1)[0].rstrip(",;:") + " …"


def _claim_rows(root: str, key: str, paper: dict) -> list[dict]:
    frame = read_claims(paths.claims(root, key), paper)
    configured = {claim["id"]: claim for claim in paper["claims"]}
    notebook = paths.relative_to_front_page(paths.notebook(root, key, "html"))
    rows = []
    for row in frame.itertuples():
        figures = figures_of(
            paper, claim_experiments(configured.get(row.claim, {}), paper["experiments"])
        )
        rows.append(
            {
                "id": row.claim,
                "scope": row.scope,
                "quote": row.quote,
                "tested_as": prose(row.tested_as),
                "label": short_label(prose(row.tested_as)),
                "where": prose(str(row.where)),
                "verdict": row.verdict,
                "evidence": row.evidence,
                "decided_by": prose(in_reader_words(row.decided_by, paper)),
                "cause": row.cause,
                "cause_line": prose(in_reader_words(row.cause_line, paper)),
                "fragile": row.fragile,
                "flips_at": row.flips_at,
                "verdict_label": shown_verdict(row.scope, row.verdict),
                "colour": colour(row.scope, row.verdict),
                "one_sided": row.evidence != NOT_CHECKABLE
                and not (row.can_reproduce and row.can_refute),
                "link": f"{notebook}#claim-{row.claim}",
                "figures": [
                    {
                        "id": fid,
                        "name": figure_names(paper).get(fid, fid),
                        "link": f"{notebook}#figure-{fid}",
                    }
                    for fid in figures
                ],
            }
        )
    return rows


def _thumbnails(root: str, key: str, paper: dict) -> list[dict]:
    """The paper's own figures: each one's thumbnail with its size in pixels (shown at it),
    linking to the figure in the notebook, and its PDF and PNG; inside the zip report, where
    thumbnails are not, the whole figure's copy there (``in_report``)."""
    notebook = paths.relative_to_front_page(paths.notebook(root, key, "html"))
    thumbnails = []
    for fid, spec in paper["figures"].items():
        if spec["group"] != "paper":
            continue
        thumbnail = paths.thumbnail(root, key, fid)
        with Image.open(thumbnail) as image:
            width, height = image.size
        thumbnails.append(
            {
                "id": fid,
                "title": spec["title"],
                "width": width,
                "height": height,
                "src": paths.relative_to_front_page(thumbnail),
                "link": f"{notebook}#figure-{fid}",
                "png": paths.relative_to_front_page(paths.figure(root, key, fid, "png")),
                "pdf": paths.relative_to_front_page(paths.figure(root, key, fid, "pdf")),
                "in_report": in_zip_report(paths.figure(root, key, fid, "png")),
            }
        )
    return thumbnails


def _section(root: str, key: str, paper: dict) -> dict:
    """One paper on the front page: its claims, the line of totals that adds up (the paper's
    own claims by verdict, its errata, our extensions) and its figures' thumbnails."""
    claims = _claim_rows(root, key, paper)
    total = totals(pd.DataFrame(claims, columns=["scope", "verdict"]))
    return {
        "key": key,
        "title": paper["paper"]["title"],
        "citation": paper["paper"].get("citation", ""),
        "notebook": paths.relative_to_front_page(paths.notebook(root, key, "html")),
        "claims": claims,
        "own": [c for c in claims if c["scope"] != EXTENSION],
        "extensions": [c for c in claims if c["scope"] == EXTENSION],
        "line": sentence(total["paper"], total["paper_n"]),
        "errata": errata_sentence(total),
        "extension_line": sentence(total["extension"], total["extension_n"]),
        "total": total,
        "thumbnails": _thumbnails(root, key, paper),
    }


def front_page(root: str, papers: dict[str, dict], software: str) -> str:
    """The front page's HTML for the configured ``papers`` ({key: paper config}), from the
    scorecard and each paper's claims table under ``root``: first the papers' own claims over
    all papers, then each paper's line of totals, its claims with a label each, and its
    extensions on a line of their own."""
    sections = [_section(root, key, paper) for key, paper in papers.items()]
    verdicts = [c["verdict"] for s in sections for c in s["claims"] if c["scope"] == "paper"]
    return render(
        "index.html.j2",
        scorecard=scorecard_table(pd.read_csv(paths.scorecard(root))).to_html(),
        scorecard_note=SCORECARD_NOTE,
        papers=sections,
        overall=sentence(counts(verdicts), len(verdicts)),
        comparison=paths.relative_to_front_page(paths.notebook(root, "comparison", "html")),
        colours=WORD_COLOURS,
        software=software,
        lock=LOCK,
    )
