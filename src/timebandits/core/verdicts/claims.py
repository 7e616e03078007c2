"""Every claim of a paper evaluated: its verdict with its numbers, whether it could have come out
otherwise, how firmly it stands and, for a failed paper claim, why (DESIGN.md, "Claims and
bounds"). The words are core/verdicts/vocabulary.py's, a kind's tools core/verdicts/context.py's,
and a verdict from its sub-checks core/verdicts/combine.py's."""

from __future__ import annotations

import pandas as pd

from timebandits.core.verdicts.causes import (
    decide_cause,
    sensitivity_claims,
    tried,
    variant_verdicts,
)
from timebandits.core.verdicts.combine import claim_rows, combine, decided_by
from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.decidability import decide
from timebandits.core.verdicts.firmness import describe, runs_needed, tipping_points
from timebandits.core.verdicts.quotes import quote_of
from timebandits.core.verdicts.vocabulary import (
    DECIDES,
    DETAIL_COLUMNS,
    INCONCLUSIVE,
    NOT_REPRODUCED,
    PAPER,
    REPRODUCED,
    SUMMARY_COLUMNS,
)


def thresholds(claim: dict) -> str:
    """Every value of the claim with a provenance, with its source, e.g. "share = 0.9 (assumed)"."""
    shown = []
    for key, entry in (claim.get("provenance") or {}).items():
        value = claim.get(key)
        text = f"{key} = {value:g}" if isinstance(value, (int, float)) else key
        shown.append(f"{text} ({entry['source']})")
    return "; ".join(shown)


def evaluate_claims(
    paper: dict, ctx: ClaimContext, kinds: dict
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Evaluate every claim of ``paper``: (one row per claim, one row per sub-check).

    The claim's evidence is its kind's; its verdict combines the deciding rows (:func:`combine`)
    and ``decided_by`` names the row that settles it. Whether the claim could reach each verdict
    as configured comes from its witnesses (core/verdicts/decidability.py): a claim that could not
    have been refuted is *inconclusive*, never *reproduced*. How firmly it stands comes from
    core/verdicts/firmness.py (``flips_at``, ``fragile``, ``runs_to_decide``), and a failed paper
    claim's ``cause`` from core/verdicts/causes.py."""
    summary, details, points = {}, [], {}
    for claim in paper["claims"]:
        kind = kinds[claim["kind"]]
        rows = claim_rows(kind, claim, ctx)
        deciding = [r for r in rows if r["role"] == DECIDES]
        verdict, multiplicity = combine(deciding, kind.evidence, ctx.alpha)
        reason = decided_by(deciding, verdict, ctx.alpha)
        decidable = decide(claim, kind, ctx)
        if verdict == REPRODUCED and not decidable["can_refute"]:
            verdict, reason = INCONCLUSIVE, f"could not have been refuted as configured; {reason}"
        for row in rows:
            details.append({"claim": claim["id"], **row})
        points[claim["id"]] = tipping_points(kind, claim, ctx, verdict)
        summary[claim["id"]] = {
            "claim": claim["id"],
            "scope": claim["scope"],
            "where": claim["where"],
            "quote": quote_of(claim, paper),
            "tested_as": claim["tested_as"],
            "kind": claim["kind"],
            "evidence": kind.evidence,
            "verdict": verdict,
            "decided_by": reason,
            **decidable,
            "thresholds": thresholds(claim),
            "multiplicity": multiplicity,
            "flips_at": describe(points[claim["id"]]),
            "fragile": any(p["fragile"] for p in points[claim["id"]]),
            "runs_to_decide": runs_needed(kind, claim, ctx, verdict, decidable),
            "parent": claim.get("parent", ""),
            "cause": "",
            "cause_line": "",
            "variants": "",
        }
    children = sensitivity_claims(paper)
    for claim in paper["claims"]:
        row = summary[claim["id"]]
        if claim["scope"] != PAPER or row["verdict"] != NOT_REPRODUCED:
            continue
        variants = (
            variant_verdicts(children[claim["id"]], kinds, ctx, summary)
            if claim["id"] in children
            else []
        )
        row["cause"], row["cause_line"] = decide_cause(
            claim, row, points[claim["id"]], variants, paper, ctx.alpha
        )
        row["variants"] = tried(variants, ctx.alpha)
    details = pd.DataFrame(details, columns=DETAIL_COLUMNS if not details else None)
    ordered = DETAIL_COLUMNS + [c for c in details.columns if c not in DETAIL_COLUMNS]
    return pd.DataFrame(list(summary.values()), columns=SUMMARY_COLUMNS), details[ordered]
