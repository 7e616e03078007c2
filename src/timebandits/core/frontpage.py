"""The front page, ``results/index.html`` (DESIGN.md, "What a reader sees"): the scorecard per
paper and scope, then every claim of every paper in one line (the paper's words, the verdict,
the number that decides it) linking to the figures it reads and to its line in the paper's
notebook, then a thumbnail of every paper figure linking to its PDF and PNG. Static: every link
is relative, nothing is loaded from the network, so it works from ``file://``."""

from __future__ import annotations

import pandas as pd

from . import paths
from .claims import NOT_CHECKABLE
from .scorecard import read_claims
from .text import prose
from .versions import LOCK
from .pages import render
from .verdict_tables import ERRATUM_COLOUR, SCORECARD_NOTE, VERDICT_COLOURS, scorecard_table


def claim_experiments(claim, known) -> set[str]:
    """Every experiment of ``known`` a claim's config names, at any depth: as a value
    (``experiment``, ``experiments``, the pairs of a comparison) or as a key (a table of printed
    values per experiment)."""
    if isinstance(claim, str):
        return {claim} & set(known)
    if isinstance(claim, dict):
        return set().union(set(claim) & set(known),
                           *(claim_experiments(v, known) for v in claim.values()))
    if isinstance(claim, list):
        return set().union(*(claim_experiments(v, known) for v in claim))
    return set()


def figures_of(paper: dict, experiments: set[str]) -> list[str]:
    """The figures of ``paper`` that read any of ``experiments`` (their own or ``also``): the
    paper's figures among them, or, for a claim on our extra runs only, those runs' figures."""
    reading = [fid for fid, spec in paper["figures"].items()
               if experiments & {spec["experiment"], *spec.get("also", [])}]
    papers_own = [fid for fid in reading if paper["figures"][fid]["group"] == "paper"]
    return papers_own or reading


def _shown_verdict(scope: str, verdict: str) -> dict:
    """The verdict as the front page shows it: an erratum's "not reproduced" is the expected
    outcome (the printed statement is false), so it is shown as a confirmed erratum, in a
    neutral colour, never as a failure."""
    if scope == "erratum" and verdict == "not reproduced":
        return {"verdict_label": "erratum confirmed", "colour": ERRATUM_COLOUR}
    return {"verdict_label": verdict, "colour": VERDICT_COLOURS[verdict]}


def _claim_rows(root: str, key: str, paper: dict) -> list[dict]:
    frame = read_claims(paths.claims(root, key), paper)
    configured = {claim["id"]: claim for claim in paper["claims"]}
    notebook = paths.relative_to_front_page(paths.notebook(root, key, "html"))
    rows = []
    for row in frame.itertuples():
        figures = figures_of(paper, claim_experiments(configured.get(row.claim, {}),
                                                      paper["experiments"]))
        rows.append({
            "id": row.claim, "scope": row.scope, "quote": row.quote,
            "tested_as": prose(row.tested_as),
            "where": prose(str(row.where)),
            "verdict": row.verdict, "evidence": row.evidence, "decided_by": prose(row.decided_by),
            "cause": row.cause, "cause_line": prose(row.cause_line),
            "fragile": row.fragile, "flips_at": row.flips_at,
            **_shown_verdict(row.scope, row.verdict),
            "one_sided": row.evidence != NOT_CHECKABLE and not (row.can_reproduce
                                                                and row.can_refute),
            "link": f"{notebook}#claim-{row.claim}",
            "figures": [{"id": fid, "link": f"{notebook}#figure-{fid}"} for fid in figures],
        })
    return rows


def _thumbnails(root: str, key: str, paper: dict) -> list[dict]:
    return [{"id": fid, "title": spec["title"],
             "png": paths.relative_to_front_page(paths.figure(root, key, fid, "png")),
             "pdf": paths.relative_to_front_page(paths.figure(root, key, fid, "pdf"))}
            for fid, spec in paper["figures"].items() if spec["group"] == "paper"]


def front_page(root: str, papers: dict[str, dict], software: str) -> str:
    """The front page's HTML for the configured ``papers`` ({key: paper config}), from the
    scorecard and each paper's claims table under ``root``."""
    sections = [{"key": key, "title": paper["paper"]["title"],
                 "citation": paper["paper"].get("citation", ""),
                 "notebook": paths.relative_to_front_page(paths.notebook(root, key, "html")),
                 "claims": _claim_rows(root, key, paper),
                 "thumbnails": _thumbnails(root, key, paper)}
                for key, paper in papers.items()]
    return render("index.html.j2", scorecard=scorecard_table(pd.read_csv(paths.scorecard(root))).to_html(),
                  scorecard_note=SCORECARD_NOTE, papers=sections,
                  comparison=paths.relative_to_front_page(paths.notebook(root, "comparison",
                                                                         "html")),
                  colours={**VERDICT_COLOURS, "erratum confirmed": ERRATUM_COLOUR},
                  software=software, lock=LOCK)
