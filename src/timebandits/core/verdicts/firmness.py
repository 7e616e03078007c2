"""How firmly a verdict stands (DESIGN.md, "Claims and bounds": firmness).

:func:`tipping_points` re-evaluates a claim, with its own code, at other values of every threshold
that is not the paper's, and finds the nearest value at which its verdict changes (``flips_at``).
A flip within ``claims.fragile_share`` of the threshold (config/config.yaml: ±10%), or inside
the range the paper file calls as defensible, makes the verdict ``fragile``.
:func:`runs_to_decide` finds how many runs an undecided statistical claim would need, at the
effect and spread it shows now, to reach a verdict.

The search assumes a verdict that changes monotonically with the threshold (each kind tests a
statistic against it): from the threshold it steps outwards, ×2 a step (or +1 for a whole
number), until the verdict changes or the threshold's range ends, then bisects to 0.1%. It
assumes the same of the number of runs (more runs at the same means and spread only sharpen a
test): the largest factor is tried first, and the smaller ones only where it decides.
"""

from __future__ import annotations

import math

import numpy as np

from timebandits.core.verdicts.combine import claim_rows, combine
from timebandits.core.verdicts.decidability import decide, derived
from timebandits.core.verdicts.thresholds import HIGHER, defensible, source_of, threshold
from timebandits.core.verdicts.vocabulary import (
    DECIDES,
    INCONCLUSIVE,
    NOT_CHECKABLE,
    NOT_REPRODUCED,
    REPRODUCED,
    STATISTICAL,
)

STEPS, BISECTIONS = 14, 14  # of the search; ×2 a step reaches 2^14 times the threshold


def verdict_with(kind, claim: dict, ctx) -> str:
    """The claim's verdict from its deciding rows (as :func:`claims.evaluate_claims` combines
    them; decidability apart)."""
    rows = [r for r in claim_rows(kind, claim, ctx) if r["role"] == DECIDES]
    return combine(rows, kind.evidence, ctx.alpha)[0]


def _toward(item, x0: float, outward: int):
    """Values stepping away from ``x0`` in direction ``outward`` (+1 up, −1 down), inside the
    threshold's range: ×2 steps on a positive scale, ±1 for whole numbers, else growing steps;
    the range's end (or, where it is excluded, a value just inside) is the last."""
    last, edge = x0, (item.high if outward > 0 else item.low)
    for k in range(1, STEPS + 1):
        if item.integer:
            x = x0 + outward * k
        elif x0 > 0 and item.low >= 0:
            x = x0 * 2.0 ** (outward * k)
        else:
            x = x0 + outward * max(abs(x0), 1.0) * (2.0**k - 1.0)
        at_edge = x >= edge if outward > 0 else x <= edge
        if at_edge:
            x = edge if item.admits(edge) else last + (edge - last) * (1 - 1e-6)
        if not item.admits(x) or x == last:
            return
        yield x
        last = x
        if at_edge:
            return


def _bisect(item, inside: float, outside: float, flips) -> float:
    for _ in range(BISECTIONS):
        if item.integer and abs(outside - inside) <= 1:
            break
        if not item.integer and abs(outside - inside) <= 1e-3 * max(abs(inside), abs(outside)):
            break
        if item.integer:
            middle = float(math.floor((inside + outside) / 2))
        elif inside > 0 and outside > 0:
            middle = math.sqrt(inside * outside)
        else:
            middle = (inside + outside) / 2
        inside, outside = (inside, middle) if flips(middle) else (middle, outside)
    return outside


def flip(kind, claim: dict, ctx, item, verdict: str, outward: int) -> tuple[float, str] | None:
    """The nearest value of threshold ``item`` in direction ``outward`` at which the claim's
    verdict is no longer ``verdict``, and the verdict there; None if none within its range."""
    x0 = threshold(kind, claim, item.name)
    found: dict[float, str] = {}

    def other(x: float) -> bool:
        found[x] = verdict_with(kind, {**claim, item.name: x}, ctx)
        return found[x] != verdict

    inside = x0
    for x in _toward(item, x0, outward):
        if other(x):
            at = _bisect(item, inside, x, other)
            return at, found[at]
        inside = x
    return None


def tipping_points(kind, claim: dict, ctx, verdict: str) -> list[dict]:
    """For every threshold of the claim that is not the paper's: the nearest flips of its
    verdict (towards stricter for a reproduced claim, looser for a refuted one, both ways for an
    inconclusive one), each ``{name, value, flips_at, to, fragile}``."""
    if kind.evidence == NOT_CHECKABLE:
        return []
    out = []
    for item in getattr(kind, "thresholds", ()):
        if source_of(kind, claim, item.name) == "paper":
            continue
        stricter = 1 if item.stricter == HIGHER else -1
        ways = {
            REPRODUCED: (stricter,),
            NOT_REPRODUCED: (-stricter,),
            INCONCLUSIVE: (stricter, -stricter),
        }.get(verdict, ())
        x0 = threshold(kind, claim, item.name)
        span = defensible(claim, item.name)
        for outward in ways:
            hit = flip(kind, claim, ctx, item, verdict, outward)
            if hit is None:
                continue
            at, to = hit
            share = float(ctx.config["claims"]["fragile_share"])
            near = abs(at - x0) <= share * abs(x0) if x0 else False
            within = span is not None and span[0] <= at <= span[1]
            out.append(
                {
                    "name": item.name,
                    "value": x0,
                    "flips_at": at,
                    "to": to,
                    "fragile": bool(near or within),
                }
            )
    return out


def describe(points: list[dict]) -> str:
    """One line, e.g. "max_spread 3 → 2.12: inconclusive (fragile)"."""
    return "; ".join(
        f"{p['name']} {p['value']:.3g} → {p['flips_at']:.3g}: {p['to']}"
        + (" (fragile)" if p["fragile"] else "")
        for p in points
    )


def tiled(ctx, factor: int):
    """A context whose every trace holds its runs ``factor`` times (new repetition numbers):
    the same means and spread, ``factor`` times the runs."""

    def trace_of(experiment: str, algorithm: str):
        import pandas as pd

        trace = ctx.trace(experiment, algorithm)
        if "repetition" not in trace:
            return trace
        span = int(trace["repetition"].max()) + 1
        copies = [trace.assign(repetition=trace["repetition"] + j * span) for j in range(factor)]
        return pd.concat(copies, ignore_index=True)

    return derived(ctx, trace_of=trace_of)


def runs_to_decide(kind, claim: dict, ctx, runs: int) -> str:
    """For an inconclusive claim decided by a test over runs: the fewest runs (today's times
    each of ``claims.run_factors``) at which the same means and spread reach a verdict, e.g.
    "reproduced with 400 runs (4×)", or that the largest would not; "" for a claim that no test
    over runs decides."""
    if kind.evidence != STATISTICAL or not getattr(kind, "reads_traces", True) or runs <= 0:
        return ""
    factors = ctx.config["claims"]["run_factors"]
    verdicts = {factors[-1]: verdict_with(kind, claim, tiled(ctx, factors[-1]))}
    if verdicts[factors[-1]] == INCONCLUSIVE:  # more runs only sharpen a test: none decides
        return f"still inconclusive with {runs * factors[-1]} runs ({factors[-1]}×)"
    for factor in factors:
        if factor not in verdicts:
            verdicts[factor] = verdict_with(kind, claim, tiled(ctx, factor))
        if verdicts[factor] != INCONCLUSIVE:
            return (
                f"{verdicts[factor]} with {runs * factor} runs ({factor}×), at today's "
                f"means and spread"
            )


def runs_to_pass(kind, claim: dict, ctx, runs: int) -> str:
    """For a claim that cannot be reproduced as configured (no witness reaches it, e.g. 50 runs
    at a frequency of 0.95): the fewest runs (today's times each of ``claims.run_factors``) with
    which its favourable witness would reach "reproduced"; "" for a claim no test over runs
    decides."""
    if kind.evidence != STATISTICAL or not getattr(kind, "reads_traces", True) or runs <= 0:
        return ""
    factors = ctx.config["claims"]["run_factors"]
    can = {factors[-1]: decide(claim, kind, tiled(ctx, factors[-1]))["can_reproduce"]}
    if not can[factors[-1]]:  # more runs only sharpen a test: none could
        return f"could not be reproduced even with {runs * factors[-1]} runs ({factors[-1]}×)"
    for factor in factors:
        if factor not in can:
            can[factor] = decide(claim, kind, tiled(ctx, factor))["can_reproduce"]
        if can[factor]:
            return f"could be reproduced with {runs * factor} runs ({factor}×)"


def repetitions_of(kind, claim: dict, ctx) -> int:
    """The number of runs the claim's first experiment has (0 where it reads no trace)."""
    if not getattr(kind, "reads_traces", True):
        return 0
    for experiment in claim.get("experiments", []):
        algorithms = ctx.paper["experiments"][experiment]["algorithms"]
        try:
            return int(np.unique(ctx.trace(experiment, next(iter(algorithms)))["repetition"]).size)
        except (KeyError, StopIteration):
            return 0
    return 0


def runs_needed(kind, claim: dict, ctx, verdict: str, decidable: dict) -> str:
    """How many runs would let the claim come out otherwise: for one that cannot be reproduced
    as configured, the runs with which it could be; for an inconclusive one, the runs that
    would decide it at today's means and spread."""
    if kind.evidence == NOT_CHECKABLE:
        return ""
    if not decidable["can_reproduce"]:
        return runs_to_pass(kind, claim, ctx, repetitions_of(kind, claim, ctx))
    if verdict == INCONCLUSIVE:
        return runs_to_decide(kind, claim, ctx, repetitions_of(kind, claim, ctx))
    return ""
