"""Why a paper claim failed, decided by evidence the pipeline computes (DESIGN.md, "Claims and
bounds": causes).

A paper-scope claim that is *not reproduced* gets a ``cause``, a category and one line:

  fragile   an assumed threshold flips it within its defensible range or ±10% (its tipping point,
            core/verdicts/firmness.py);
  setting   it holds under a variant of a parameter the paper did not print, or another reading
            of one: a sensitivity claim naming it as ``parent`` (``tests: setting``) is reproduced
            at α/m over the m sensitivity claims tried for it;
  data      the same for another stand-in data set (``tests: data``), or, with no variant that
            holds, it was judged on a stand-in data set (an experiment's ``stand_in``);
  erratum   an exact computation shows the statement false, and no variant makes it hold;
  robust    it holds under none of the variants tried (each refuted or undecided);
  unexplained  nothing above applies: no sensitivity claim names it and no assumed threshold
            flips it (the pages show it, so the gap is visible).

Every variant tried is listed beside the cause, passing or not: choosing among many variants is
itself a multiple comparison, which α/m accounts for.
"""

from __future__ import annotations

from dataclasses import replace

from timebandits.core.verdicts.firmness import describe, verdict_with
from timebandits.core.verdicts.vocabulary import EXACT, INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED

FRAGILE, SETTING, DATA, ERRATUM, ROBUST, UNEXPLAINED = (
    "fragile",
    "setting",
    "data",
    "erratum",
    "robust",
    "unexplained",
)
CAUSES = (FRAGILE, SETTING, DATA, ERRATUM, ROBUST, UNEXPLAINED)


def sensitivity_claims(paper: dict) -> dict[str, list[dict]]:
    """The sensitivity claims of every parent claim id, in config order."""
    out: dict[str, list[dict]] = {}
    for claim in paper["claims"]:
        if claim.get("parent"):
            out.setdefault(claim["parent"], []).append(claim)
    return out


def check_sensitivity(paper: dict) -> None:
    """Raise ValueError unless every ``parent`` names a paper-scope claim, from an extension
    claim that says what it ``tests`` and what it ``varies``."""
    scopes = {claim["id"]: claim["scope"] for claim in paper["claims"]}
    for claim in paper["claims"]:
        parent = claim.get("parent")
        has = [k for k in ("parent", "tests", "varies") if k in claim]
        if not has:
            continue
        if len(has) < 3:
            raise ValueError(
                f"claim {claim['id']}: a sensitivity claim needs parent, tests and "
                f"varies (has {has})"
            )
        if claim["scope"] != "extension":
            raise ValueError(f"claim {claim['id']}: a sensitivity claim has scope extension")
        if scopes.get(parent) != "paper":
            raise ValueError(f"claim {claim['id']}: parent {parent!r} is not a paper-scope claim")


def at_level(ctx, alpha: float):
    """The context with another α (the same traces and cache)."""
    return replace(ctx, config={**ctx.config, "claims": {**ctx.config["claims"], "alpha": alpha}})


def variant_verdicts(children: list[dict], kinds: dict, ctx, summary: dict) -> list[dict]:
    """Each sensitivity claim's verdict at α/m (m = how many were tried), as ``{id, tests,
    varies, verdict}``; a variant that could not have been refuted never counts as holding."""
    level = at_level(ctx, ctx.alpha / len(children))
    out = []
    for child in children:
        verdict = verdict_with(kinds[child["kind"]], child, level)
        if verdict == REPRODUCED and not summary[child["id"]]["can_refute"]:
            verdict = INCONCLUSIVE
        out.append(
            {
                "id": child["id"],
                "tests": child["tests"],
                "varies": child["varies"],
                "verdict": verdict,
            }
        )
    return out


def stand_in(claim: dict, paper: dict) -> str:
    """What stands in for the paper's data in the claim's experiments ("" if nothing)."""
    notes = [paper["experiments"][e].get("stand_in", "") for e in claim.get("experiments", [])]
    return "; ".join(dict.fromkeys(n for n in notes if n))


def tried(variants: list[dict], alpha: float) -> str:
    """Every variant tried for a claim with its verdict at α/m, one line."""
    if not variants:
        return ""
    m = len(variants)
    return f"at α/{m} = {alpha / m:.2g}: " + "; ".join(
        f"{v['id']} ({v['varies']}): {v['verdict']}" for v in variants
    )


def decide_cause(
    claim: dict, row: dict, points: list[dict], variants: list[dict], paper: dict, alpha: float
) -> tuple[str, str]:
    """The cause of a failed paper claim and its line, which names the variants it rests on
    (:func:`tried` lists them all); see the module docstring for the order."""
    m = len(variants)
    ids = ", ".join(v["id"] for v in variants)
    fragile = [p for p in points if p["fragile"]]
    if fragile:
        return FRAGILE, f"An assumed threshold decides it: {describe(fragile)}."
    holding = [v for v in variants if v["verdict"] == REPRODUCED]
    if holding:
        first = holding[0]
        what = (
            "another stand-in data set"
            if first["tests"] == DATA
            else "a setting the paper does not print"
        )
        level = f"at α/{m} over the {m} variants tried" if m > 1 else "at α, the one variant tried"
        return first["tests"], f"Holds with {first['varies']} ({what}; {first['id']}, {level})."
    if row["evidence"] == EXACT:
        return ERRATUM, f"An exact computation shows it false: {row['decided_by']}."
    data = stand_in(claim, paper)
    if data:
        return DATA, (
            f"Judged on a stand-in data set: {data}"
            + (f"; no variant tried holds ({ids})." if variants else ".")
        )
    if variants:
        refuted = sum(v["verdict"] == NOT_REPRODUCED for v in variants)
        if refuted == m:
            return ROBUST, f"Fails under every variant tried ({m}: {ids})."
        return ROBUST, (
            f"No variant tried holds ({m}: {ids}): {refuted} refuted, {m - refuted} undecided."
        )
    return UNEXPLAINED, (
        "No sensitivity claim names it as parent, and no assumed threshold "
        "flips it within its defensible range."
    )
