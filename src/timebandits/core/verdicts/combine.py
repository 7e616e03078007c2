"""From a claim's sub-checks to its verdict (DESIGN.md, "Claims and bounds"). A row's ``role`` is
``decides`` (the default) or ``supports``: only deciding rows make the claim's verdict, and they
must all carry the kind's evidence, so a claim judged by a test is never decided by a sub-check
whose outcome follows from the config alone (that becomes a supporting row or a claim of its
own). :func:`combine` pools the deciding rows (with multiplicity), :func:`decided_by` names the
one that settles the verdict."""

from __future__ import annotations

import math

from timebandits.core.verdicts.vocabulary import (
    DECIDES,
    EXACT,
    INCONCLUSIVE,
    NOT_CHECKABLE,
    NOT_REPRODUCED,
    REPRODUCED,
)

# What every sub-check row says: where it looked, its verdict, and its numbers, short and whole.
ROW_KEYS = ("scope", "verdict", "headline", "statistic")


def claim_rows(kind, claim: dict, ctx) -> list[dict]:
    """The claim's sub-check rows, each with its evidence and role (deciding or supporting).
    Raises ValueError if a row lacks one of ``ROW_KEYS`` (a misspelt key would otherwise leave an
    empty cell in the details), or if a deciding row carries other evidence than its kind (a kind
    must mark such a row as supporting)."""
    rows = [
        {"evidence": kind.evidence, "role": DECIDES, **row} for row in kind.evaluate(claim, ctx)
    ]
    for row in rows:
        missing = [key for key in ROW_KEYS if key not in row]
        if missing:
            raise ValueError(
                f"claim {claim['id']}: a sub-check row without {', '.join(missing)} "
                f"({row.get('scope', 'no scope')})"
            )
    deciding = [r for r in rows if r["role"] == DECIDES]
    mixed = {r["evidence"] for r in deciding} - {kind.evidence}
    if mixed:
        raise ValueError(
            f"claim {claim['id']}: deciding rows with evidence {sorted(mixed)} in "
            f"a claim decided by {kind.evidence!r}; mark them as supporting"
        )
    return rows


def combine(rows: list[dict], evidence: str, alpha: float) -> tuple[str, str]:
    """The claim's verdict from its deciding rows, and how pooled tests were combined.

    Exact rows: *not reproduced* if any fails, *inconclusive* if any is, else *reproduced*.
    Statistical rows, m of them, for a claim that holds only if every one holds: *reproduced*
    only if every row is reproduced at level α (an intersection–union test, which needs no
    correction); *not reproduced* if some row's opposite p-value is below α/m (Bonferroni: a
    family-wise level α for "some sub-claim fails"; rows without a p-value, such as the bound
    checks, count with their own verdict); else *inconclusive*.
    """
    if evidence == NOT_CHECKABLE:
        return NOT_CHECKABLE, ""
    verdicts = [r["verdict"] for r in rows]
    if not verdicts:
        return INCONCLUSIVE, ""
    m = len(rows)
    if evidence == EXACT or m == 1:
        if NOT_REPRODUCED in verdicts:
            return NOT_REPRODUCED, ""
        return (INCONCLUSIVE if INCONCLUSIVE in verdicts else REPRODUCED), ""
    note = (
        f"{m} sub-tests: reproduced only if all {m} are at α = {alpha:g} (intersection–union "
        f"test, no correction needed); not reproduced if one is refuted at α/{m} = "
        f"{alpha / m:.2g} (Bonferroni)"
    )
    refuted = [
        r
        for r in rows
        if r["verdict"] == NOT_REPRODUCED and _p_value(r, "p_opposite", 0.0) < alpha / m
    ]
    if refuted:
        return NOT_REPRODUCED, note
    if all(v == REPRODUCED for v in verdicts):
        return REPRODUCED, note
    return INCONCLUSIVE, note


def _p_value(row: dict, key: str, missing: float) -> float:
    value = row.get(key)
    return missing if value is None or value != value else float(value)


def decided_by(rows: list[dict], verdict: str, alpha: float | None = None) -> str:
    """One short line: the deciding row that settles ``verdict``, with its scope and the number
    that decides it. *Reproduced*: the weakest row (largest p-value, or the largest
    ``tightness``, e.g. mean/bound), with p. *Not reproduced*: the strongest refuting row
    (smallest opposite p-value; a row refuted without one, e.g. a curve clearly above a bound,
    first; then the largest ``tightness``) with the refuting test, its p-value against α/m.
    Otherwise the row nearest a verdict, with both p-values."""
    if not rows:
        return "no sub-check"
    agreeing = [r for r in rows if r["verdict"] == verdict] or rows
    if verdict == REPRODUCED:
        row = max(
            agreeing,
            key=lambda r: (_p_value(r, "p_claimed", -1.0), _p_value(r, "tightness", -math.inf)),
        )
    else:
        row = min(
            agreeing,
            key=lambda r: (_p_value(r, "p_opposite", 0.0), -_p_value(r, "tightness", -math.inf)),
        )
    suffix = f" ({len(agreeing)} of {len(rows)} sub-checks {verdict})" if len(rows) > 1 else ""
    return f"{row['scope']}: {row['headline']}{_p_text(row, verdict, len(rows), alpha)}{suffix}"


def _p_text(row: dict, verdict: str, m: int, alpha: float | None) -> str:
    """The p-value that decides ``row`` for ``verdict``: the claim's test where it holds (or is
    undecided), the opposite test where it is refuted ("" without p-values)."""
    p_claimed, p_opposite = (
        _p_value(row, "p_claimed", math.nan),
        _p_value(row, "p_opposite", math.nan),
    )
    if math.isnan(p_claimed) and math.isnan(p_opposite):
        return ""
    if verdict == NOT_REPRODUCED:
        level = (
            f" < α/{m} = {alpha / m:.2g}"
            if alpha is not None and m > 1
            else (f" < α = {alpha:g}" if alpha is not None else "")
        )
        return f"; refuted by the opposite test, {_p(p_opposite)}{level}"
    if verdict == REPRODUCED:
        return f", {_p(p_claimed)}"
    return f", {_p(p_claimed)} (opposite {_p(p_opposite)})"


def _p(value: float) -> str:
    """``p = 0.013``; a p-value that underflows double precision reads ``p < 1e-300``, never
    ``p = 0``."""
    return "p < 1e-300" if value == 0 else f"p = {value:.2g}"
