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
from .quotes import quote_of

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

SUMMARY_COLUMNS = ["claim", "scope", "where", "quote", "tested_as", "kind", "evidence", "verdict", "decided_by",
                   "can_reproduce", "can_refute", "decidability", "thresholds", "multiplicity",
                   "flips_at", "fragile", "runs_to_decide", "parent", "cause", "cause_line",
                   "variants"]

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
        row = max(agreeing, key=lambda r: (_p_value(r, "p_claimed", -1.0),
                                           _p_value(r, "tightness", -math.inf)))
    else:
        row = min(agreeing, key=lambda r: (_p_value(r, "p_opposite", 0.0),
                                           -_p_value(r, "tightness", -math.inf)))
    suffix = f" ({len(agreeing)} of {len(rows)} sub-checks {verdict})" if len(rows) > 1 else ""
    return f"{row['scope']}: {row['headline']}{_p_text(row, verdict, len(rows), alpha)}{suffix}"


def _p_text(row: dict, verdict: str, m: int, alpha: float | None) -> str:
    """The p-value that decides ``row`` for ``verdict``: the claim's test where it holds (or is
    undecided), the opposite test where it is refuted ("" without p-values)."""
    p_claimed, p_opposite = _p_value(row, "p_claimed", math.nan), _p_value(row, "p_opposite", math.nan)
    if math.isnan(p_claimed) and math.isnan(p_opposite):
        return ""
    if verdict == NOT_REPRODUCED:
        level = f" < α/{m} = {alpha / m:.2g}" if alpha is not None and m > 1 else (
            f" < α = {alpha:g}" if alpha is not None else "")
        return f"; refuted by the opposite test, {_p(p_opposite)}{level}"
    if verdict == REPRODUCED:
        return f", {_p(p_claimed)}"
    return f", {_p(p_claimed)} (opposite {_p(p_opposite)})"


def _p(value: float) -> str:
    """``p = 0.013``; a p-value that underflows double precision reads ``p < 1e-300``, never
    ``p = 0``."""
    return "p < 1e-300" if value == 0 else f"p = {value:.2g}"


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

    def memo(self, key: tuple, compute: Callable[[], object]):
        """``compute()``, made once per context for ``key``: a statistic of its traces that a
        claim's re-evaluations at other thresholds (core/firmness.py) read again unchanged, such
        as a bootstrap. ``key`` must name everything the value depends on besides the traces."""
        key = ("memo", *key)
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

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

    def metric_range(self, experiment: str, algorithm: str, metric: str) -> tuple[float, float]:
        """The least and the largest mean value ``metric`` can take at the horizon T (the last
        checkpoint of ``algorithm``'s trace) on the experiment's instance, by any policy (the paper's
        ``analysis.metric_range(paper, experiment, metric, T)``, exact from
        the model: the oracle's payoff, T·Δ_max, max_i G_i(T), …); (−∞, ∞) where it gives none.
        Decidability witnesses stay inside it (core/decidability.py)."""
        key = ("range", experiment, algorithm, metric)
        if key not in self._cache:
            from .registry import PAPER_PACKAGES, paper_module

            paper_key = self.paper.get("paper", {}).get("key")
            hook = (getattr(paper_module(paper_key, "analysis"), "metric_range", None)
                    if paper_key in PAPER_PACKAGES else None)
            found = None
            if hook is not None and "environment" in self.paper["experiments"][experiment]:
                horizon = float(self.trace(experiment, algorithm)["t"].max())
                found = hook(self.paper, experiment, metric, horizon)
            self._cache[key] = found or (-math.inf, math.inf)
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
    been refuted is *inconclusive*, never *reproduced*. How firmly it stands comes from
    core/firmness.py (``flips_at``, ``fragile``, ``runs_to_decide``), and a failed paper claim's
    ``cause`` from core/causes.py."""
    from .causes import decide_cause, sensitivity_claims, tried, variant_verdicts
    from .firmness import describe, runs_needed, tipping_points

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
            "claim": claim["id"], "scope": claim["scope"], "where": claim["where"],
            "quote": quote_of(claim, paper), "tested_as": claim["tested_as"],
            "kind": claim["kind"], "evidence": kind.evidence,
            "verdict": verdict, "decided_by": reason, **decidable,
            "thresholds": thresholds(claim), "multiplicity": multiplicity,
            "flips_at": describe(points[claim["id"]]),
            "fragile": any(p["fragile"] for p in points[claim["id"]]),
            "runs_to_decide": runs_needed(kind, claim, ctx, verdict, decidable),
            "parent": claim.get("parent", ""), "cause": "", "cause_line": "", "variants": "",
        }
    children = sensitivity_claims(paper)
    for claim in paper["claims"]:
        row = summary[claim["id"]]
        if claim["scope"] != PAPER or row["verdict"] != NOT_REPRODUCED:
            continue
        variants = (variant_verdicts(children[claim["id"]], kinds, ctx, summary)
                    if claim["id"] in children else [])
        row["cause"], row["cause_line"] = decide_cause(claim, row, points[claim["id"]], variants,
                                                       paper, ctx.alpha)
        row["variants"] = tried(variants, ctx.alpha)
    details = pd.DataFrame(details, columns=DETAIL_COLUMNS if not details else None)
    ordered = DETAIL_COLUMNS + [c for c in details.columns if c not in DETAIL_COLUMNS]
    return pd.DataFrame(list(summary.values()), columns=SUMMARY_COLUMNS), details[ordered]
