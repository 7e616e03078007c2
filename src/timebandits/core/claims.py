"""Claims as checks over the traces, each ending in a verdict with its numbers
(DESIGN.md, "Claims and bounds").

A claim kind has ``evidence`` (what decides its claims: a statistical test over runs, an exact
computation, or nothing: not checkable), ``check(claim, paper)`` (raises ValueError on a
malformed claim, run when the workflow loads) and ``evaluate(claim, context) -> list of
sub-check rows``. A sub-check row is a dict with at least ``scope`` (e.g. the experiment),
``verdict``, ``headline`` (the number that decides it, one short line) and ``statistic`` (every
number); optionally ``evidence`` and ``role``. A row's ``role`` is ``decides`` (the default) or
``supports``: only deciding rows make the claim's verdict, and they must all carry the kind's
evidence, so a claim judged by a test is never decided by a sub-check whose outcome follows from
the config alone (that becomes a supporting row or a claim of its own). Statistical rows carry
``p_claimed`` and ``p_opposite`` where they come from a p-value; :func:`combine` uses them for
multiplicity.

The generic claim kinds are in core/comparisons.py, core/growth.py and core/kinds.py;
a paper adds its own in its ``claims`` module (``CLAIM_KINDS``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pandas as pd

from .decidability import decide

REPRODUCED = "reproduced"
NOT_REPRODUCED = "not reproduced"
INCONCLUSIVE = "inconclusive"
NOT_CHECKABLE = "not checkable"
VERDICTS = (REPRODUCED, NOT_REPRODUCED, INCONCLUSIVE, NOT_CHECKABLE)

# The kind of evidence that decides a claim (or a sub-check).
STATISTICAL = "statistical test"
EXACT = "exact computation"
EVIDENCE = (STATISTICAL, EXACT, NOT_CHECKABLE)

# The role of a sub-check in its claim.
DECIDES = "decides"
SUPPORTS = "supports"

SUMMARY_COLUMNS = ["claim", "scope", "where", "text", "kind", "evidence", "verdict", "decided_by",
                   "can_reproduce", "can_refute", "decidability", "thresholds", "multiplicity"]

# The scope of a claim: the paper's claim at the paper's setting, our sensitivity runs and
# extra experiments, or a statement of the paper shown false ("not reproduced" confirms it).
PAPER, EXTENSION, ERRATUM = "paper", "extension", "erratum"
SCOPES = (PAPER, EXTENSION, ERRATUM)
DETAIL_COLUMNS = ["claim", "scope", "evidence", "role", "verdict", "headline", "statistic"]


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
    note = (f"{m} sub-tests: reproduced only if all {m} are at α = {alpha:g} (intersection–union "
            f"test, no correction needed); not reproduced if one is refuted at α/{m} = "
            f"{alpha / m:.2g} (Bonferroni)")
    refuted = [r for r in rows if r["verdict"] == NOT_REPRODUCED
               and _p_value(r, "p_opposite", 0.0) < alpha / m]
    if refuted:
        return NOT_REPRODUCED, note
    if all(v == REPRODUCED for v in verdicts):
        return REPRODUCED, note
    return INCONCLUSIVE, note


def _p_value(row: dict, key: str, missing: float) -> float:
    value = row.get(key)
    return missing if value is None or value != value else float(value)


def decided_by(rows: list[dict], verdict: str) -> str:
    """One short line: the deciding row that settles ``verdict``, with its scope and number. When
    every row agrees on *reproduced* it is the weakest (largest p-value); otherwise the strongest
    row of the verdict (smallest opposite p-value), or the first."""
    if not rows:
        return "no sub-check"
    agreeing = [r for r in rows if r["verdict"] == verdict] or rows
    if verdict == REPRODUCED:
        row = max(agreeing, key=lambda r: _p_value(r, "p_claimed", -1.0))
    else:
        row = min(agreeing, key=lambda r: _p_value(r, "p_opposite", 0.0))
    suffix = f" ({len(agreeing)} of {len(rows)} sub-checks {verdict})" if len(rows) > 1 else ""
    return f"{row['scope']}: {row['headline']}{suffix}"


def fraction_test(successes: int, n: int, level: float, alpha: float) -> dict:
    """Exact one-sided binomial tests that an event holds with probability ≥ ``level``:
    ``p_claimed`` = P(X ≥ successes | p = level) (small: the event is more frequent than level),
    ``p_opposite`` = P(X ≤ successes | p = level) (small: it is rarer). With ``verdict``."""
    from scipy.stats import binom  # here: a figure job imports this module, not scipy

    p_claimed = float(binom.sf(successes - 1, n, level)) if n else math.nan
    p_opposite = float(binom.cdf(successes, n, level)) if n else math.nan
    return {"p_claimed": p_claimed, "p_opposite": p_opposite,
            "verdict": paired_verdict({"p_claimed": p_claimed, "p_opposite": p_opposite}, alpha)}


@dataclass
class ClaimContext:
    """What a claim may look at: the paper config, the workflow config and the traces."""

    paper: dict
    config: dict
    trace_of: Callable[[str, str], pd.DataFrame]  # (experiment, algorithm) -> its trace (core/workflow.trace_reader)
    bounds: pd.DataFrame | None = None  # the paper's bound table (core/bounds.py), if any
    _cache: dict = field(default_factory=dict)
    # A decidability witness's replacements of computed quantities (core/decidability.py):
    # key -> function of the real value.
    overrides: dict = field(default_factory=dict)

    def quantity(self, key: str, compute: Callable[[], object]):
        """A quantity an exact claim decides on, ``compute()``, unless a witness replaces it."""
        value = compute()
        return self.overrides[key](value) if key in self.overrides else value

    def trace(self, experiment: str, algorithm: str) -> pd.DataFrame:
        key = (experiment, algorithm)
        if key not in self._cache:
            self._cache[key] = self.trace_of(experiment, algorithm)
        return self._cache[key]

    def last(self, experiment: str, algorithm: str) -> pd.DataFrame:
        """The trace's rows at its last checkpoint (the horizon), by repetition."""
        key = ("last", experiment, algorithm)
        if key not in self._cache:
            trace = self.trace(experiment, algorithm)
            self._cache[key] = trace[trace["t"] == trace["t"].max()].sort_values("repetition")
        return self._cache[key]

    def final(self, experiment: str, algorithm: str, metric: str) -> np.ndarray:
        """The metric at the last checkpoint (the horizon), one value per repetition."""
        return self.last(experiment, algorithm)[metric].to_numpy(dtype=float)

    def paired(self, experiment: str, first: str, second: str, metric: str):
        """The metric at the horizon for two algorithms, paired by repetition (same runs and
        same horizon required: the pairing is what common random numbers are for)."""
        a, b = self.trace(experiment, first), self.trace(experiment, second)
        if a["t"].max() != b["t"].max() or not np.array_equal(np.unique(a["repetition"]),
                                                               np.unique(b["repetition"])):
            raise ValueError(f"{experiment}: {first} and {second} were not run on the same "
                             f"repetitions and horizon; rebuild their traces")
        return self.final(experiment, first, metric), self.final(experiment, second, metric)

    def at(self, experiment: str, algorithm: str, metric: str) -> pd.DataFrame:
        """The metric as a (checkpoint x repetition) table (made once per context; read-only, as
        every cached table here)."""
        key = ("at", experiment, algorithm, metric)
        if key not in self._cache:
            self._cache[key] = self.trace(experiment, algorithm).pivot(
                index="t", columns="repetition", values=metric)
        return self._cache[key]

    @property
    def alpha(self) -> float:
        return float(self.config["claims"]["alpha"])

    def label(self, algorithm: str) -> str:
        return self.paper["algorithms"][algorithm]["label"]


def require_keys(claim: dict, *keys: str) -> None:
    """Raise ValueError naming the keys a claim of its kind needs but lacks."""
    missing = [k for k in keys if k not in claim]
    if missing:
        raise ValueError(f"claim kind {claim['kind']!r} needs keys {missing}")


def check_sign(claim: dict) -> None:
    """Raise ValueError unless the claim's ``sign`` is 'negative' or 'positive'."""
    if claim["sign"] not in ("negative", "positive"):
        raise ValueError(f"sign must be 'negative' or 'positive', got {claim['sign']!r}")


def check_run(paper: dict, experiments, algorithms) -> None:
    """Raise ValueError if an experiment is unknown or does not run one of the algorithms."""
    for exp in experiments:
        if exp not in paper["experiments"]:
            raise ValueError(f"unknown experiment {exp!r}")
        for alg in algorithms:
            if alg not in paper["experiments"][exp]["algorithms"]:
                raise ValueError(f"algorithm {alg!r} is not run in experiment {exp!r}")


def paired_verdict(test: dict, alpha: float) -> str:
    if test["p_claimed"] < alpha:
        return REPRODUCED
    if test["p_opposite"] < alpha:
        return NOT_REPRODUCED
    return INCONCLUSIVE


def claim_rows(kind, claim: dict, ctx: ClaimContext) -> list[dict]:
    """The claim's sub-check rows, each with its evidence and role (deciding or supporting).
    Raises ValueError if a deciding row carries other evidence than its kind (a kind must mark
    such a row as supporting)."""
    rows = [{"evidence": kind.evidence, "role": DECIDES, **row} for row in kind.evaluate(claim, ctx)]
    deciding = [r for r in rows if r["role"] == DECIDES]
    mixed = {r["evidence"] for r in deciding} - {kind.evidence}
    if mixed:
        raise ValueError(f"claim {claim['id']}: deciding rows with evidence {sorted(mixed)} in "
                         f"a claim decided by {kind.evidence!r}; mark them as supporting")
    return rows


def thresholds(claim: dict) -> str:
    """Every value of the claim with a provenance, with its source, e.g. "share = 0.9 (assumed)"."""
    shown = []
    for key, entry in (claim.get("provenance") or {}).items():
        value = claim.get(key)
        text = f"{key} = {value:g}" if isinstance(value, (int, float)) else key
        shown.append(f"{text} ({entry['source']})")
    return "; ".join(shown)


def evaluate_claims(paper: dict, ctx: ClaimContext, kinds: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Evaluate every claim of ``paper``: (one row per claim, one row per sub-check).

    The claim's evidence is its kind's; its verdict combines the deciding rows (:func:`combine`)
    and ``decided_by`` names the row that settles it. Whether the claim could reach each verdict
    as configured comes from its witnesses (core/decidability.py): a claim that could not have
    been refuted is *inconclusive*, never *reproduced*."""
    summary, details = [], []
    for claim in paper["claims"]:
        kind = kinds[claim["kind"]]
        rows = claim_rows(kind, claim, ctx)
        deciding = [r for r in rows if r["role"] == DECIDES]
        verdict, multiplicity = combine(deciding, kind.evidence, ctx.alpha)
        reason = decided_by(deciding, verdict)
        decidable = decide(claim, kind, ctx)
        if verdict == REPRODUCED and not decidable["can_refute"]:
            verdict, reason = INCONCLUSIVE, f"could not have been refuted as configured; {reason}"
        for row in rows:
            details.append({"claim": claim["id"], **row})
        summary.append({
            "claim": claim["id"], "scope": claim["scope"], "where": claim["where"],
            "text": claim["text"], "kind": claim["kind"], "evidence": kind.evidence,
            "verdict": verdict, "decided_by": reason, **decidable,
            "thresholds": thresholds(claim), "multiplicity": multiplicity,
        })
    details = pd.DataFrame(details, columns=DETAIL_COLUMNS if not details else None)
    ordered = DETAIL_COLUMNS + [c for c in details.columns if c not in DETAIL_COLUMNS]
    return pd.DataFrame(summary, columns=SUMMARY_COLUMNS), details[ordered]
