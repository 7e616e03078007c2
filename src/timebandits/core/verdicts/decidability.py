"""Can a claim, as configured, reach each verdict? (DESIGN.md, "Claims and bounds": decidability)

A verdict that could not have come out otherwise is no evidence. Every claim kind gives
``witnesses(claim, ctx) -> {name: ClaimContext}``: contexts built from the claim's real inputs
(its runs, checkpoints, α, thresholds, bounds and trivial bounds, the instance's constants), in
which the data the claim reads are replaced by the most favourable and the most unfavourable the
setting allows. The claim is evaluated on each witness with its own code; it *can reproduce* if
some witness comes out "reproduced", and *can refute* if some witness comes out "not reproduced".
A claim that cannot be refuted is never "reproduced"
(:func:`timebandits.core.verdicts.claims.evaluate_claims`).

Witness data are made here, once for every paper:
  :func:`with_curves`     replace a metric's curve of chosen (experiment, algorithm) traces by a
                          level × (1 + a small spread over repetitions), so tests over runs see a
                          clear effect with a non-zero standard error;
  :func:`with_runs`       the same with the spread over runs chosen too, keeping undefined values;
  :func:`bound_witness`   a bound table whose mean curves sit at 0 (favourable) or at the trivial
                          bound, the largest value the metric can take (unfavourable);
  :meth:`ClaimContext.quantity` lets an exact kind's witness replace a computed quantity.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Callable

import numpy as np
import pandas as pd

from timebandits.core.verdicts.combine import claim_rows, combine, decided_by
from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.vocabulary import DECIDES, NOT_CHECKABLE, NOT_REPRODUCED, REPRODUCED

# Relative spread of a witness's curves over repetitions: enough to give every test over runs a
# non-zero standard error, far too small to change the side a witness is on.
SPREAD = 0.01


def spread(n: int) -> np.ndarray:
    """Factors 1 ± SPREAD, evenly spread over ``n`` repetitions (mean exactly 1)."""
    return 1.0 + SPREAD * (np.linspace(-1.0, 1.0, n) if n > 1 else np.zeros(n))


Level = Callable[[np.ndarray], np.ndarray]  # checkpoint times -> the witness's mean curve


def linear(value: float) -> Level:
    """A curve rising linearly from 0 to ``value`` at the horizon."""
    return lambda t: value * np.asarray(t, dtype=float) / float(np.max(t))


def power(value: float, exponent: float) -> Level:
    """A curve whose increase has log-log slope ``exponent`` (t^p, p = exponent; ln t for 0),
    ``value`` at the horizon. Increasing also for a negative slope (−t^p with p < 0, shifted)."""

    def level(t):
        x = np.maximum(np.asarray(t, dtype=float), 1.0) / float(np.max(t))
        if exponent == 0.0:
            return value * (1.0 + np.log(x) / math.log(float(np.max(t))))
        if exponent > 0:
            return value * x**exponent
        return value * (2.0 - x**exponent)

    return level


def with_runs(ctx, metric: str, values: dict, keep_undefined: bool = True) -> "ClaimContext":  # noqa: F821
    """A witness of ``ctx`` in which ``metric`` of the traces named in ``values`` (keys: an
    algorithm or an (experiment, algorithm) pair) is ``fn(t, z)``, z the repetition's place in
    [−1, 1] (evenly spread over the sorted repetitions), so the witness chooses the spread over
    runs too, clipped into the range the instance can produce (``ctx.metric_range``). With
    ``keep_undefined``, a value undefined (NaN) in the real trace stays undefined: no witness
    makes evidence where there is none. Other traces are the real ones."""

    def trace_of(experiment: str, algorithm: str) -> pd.DataFrame:
        trace = ctx.trace(experiment, algorithm)
        fn = values.get((experiment, algorithm), values.get(algorithm))
        if fn is None:
            return trace
        trace = trace.copy(deep=False)  # copy on write: the real trace stays as it is
        reps = np.sort(trace["repetition"].unique())
        z = pd.Series(
            np.linspace(-1.0, 1.0, reps.size) if reps.size > 1 else np.zeros(1), index=reps
        )
        value = fn(trace["t"].to_numpy(dtype=float), z.loc[trace["repetition"]].to_numpy())
        value = np.clip(value, *ctx.metric_range(experiment, algorithm, metric))
        if keep_undefined and metric in trace:
            value = np.where(np.isnan(trace[metric].to_numpy(dtype=float)), np.nan, value)
        trace[metric] = value
        return trace

    return derived(ctx, trace_of=trace_of)


def with_curves(ctx, metric: str, levels: dict) -> "ClaimContext":  # noqa: F821
    """A witness of ``ctx`` in which ``metric`` of the traces named in ``levels`` (keys as for
    :func:`with_runs`) is replaced everywhere: repetition r gets level(t) × spread(n)[r]."""
    return with_runs(
        ctx,
        metric,
        {
            key: (lambda t, z, level=level: level(t) * (1.0 + SPREAD * z))
            for key, level in levels.items()
        },
        keep_undefined=False,
    )


def derived(ctx, trace_of=None, bounds=None, overrides=None):
    """A copy of ``ctx`` with other traces, bounds or quantity overrides (and its own cache)."""
    return replace(
        ctx,
        trace_of=trace_of or ctx.trace,
        _cache={},
        bounds=ctx.bounds if bounds is None else bounds,
        overrides={**ctx.overrides, **(overrides or {})},
    )


def scale(
    ctx, experiments, algorithms, metric: str, headroom: float = 1.0, negative: bool = False
) -> float:
    """A positive size for witness curves: the largest |mean of ``metric`` at the horizon| over
    the named traces, or 1 where every one is 0 or undefined; at most 1/``headroom`` of the
    largest value the instance allows (``ctx.metric_range``; of minus the least, for a witness
    that goes ``negative``), so that a witness ``headroom`` times the size stays feasible."""
    sizes = [abs(float(np.mean(ctx.final(e, a, metric)))) for e in experiments for a in algorithms]
    sizes = [s for s in sizes if math.isfinite(s) and s > 0]
    size = max(sizes) if sizes else 1.0
    for experiment in experiments:
        for algorithm in algorithms:
            low, high = ctx.metric_range(experiment, algorithm, metric)
            room = -low if negative else high
            if math.isfinite(room) and room > 0:
                size = min(size, room / (headroom * (1.0 + SPREAD)))
    return size


def bound_witness(bounds: pd.DataFrame, favourable: bool) -> pd.DataFrame:
    """The bound table with every mean curve at 0 (``favourable``) or at the trivial bound, the
    largest value its metric can take (every run there, no spread). Where the trivial bound is
    infinite or undefined, no curve can exceed a bound."""
    out = bounds.copy()
    value = 0.0 if favourable else out["trivial"].to_numpy(dtype=float)
    value = np.where(np.isfinite(value), value, 0.0)
    out["mean"] = value
    out["max"] = value
    out["se"] = 0.0
    with np.errstate(invalid="ignore", divide="ignore"):
        out["runs_exceeding"] = np.where(value > out["bound_value"], out["n_runs"], 0)
        out["ratio"] = value / out["bound_value"]
    return out


def decide(claim: dict, kind, ctx) -> dict:
    """``can_reproduce``, ``can_refute`` and ``decidability`` (the reason where either is false,
    with the witness verdicts that show it, and the config's ``one_sided`` reason if given)."""
    if kind.evidence == NOT_CHECKABLE:
        return {
            "can_reproduce": False,
            "can_refute": False,
            "decidability": "not checkable: no computation decides it",
        }
    outcomes = {}
    for name, witness in kind.witnesses(claim, ctx).items():
        rows = claim_rows(kind, claim, witness)
        deciding = [r for r in rows if r["role"] == DECIDES]
        verdict, _ = combine(deciding, kind.evidence, ctx.alpha)
        outcomes[name] = (
            verdict,
            decided_by(deciding, verdict)
            if deciding
            else "no deciding sub-check; "
            + "; ".join(f"{r['scope']}: {r['headline']}" for r in rows[:2]),
        )
    can = {v: any(out[0] == v for out in outcomes.values()) for v in (REPRODUCED, NOT_REPRODUCED)}
    missing = [
        side
        for verdict, side in ((REPRODUCED, "reproduced"), (NOT_REPRODUCED, "refuted"))
        if not can[verdict]
    ]
    reason = ""
    if missing:
        seen = "; ".join(f"{name} witness: {v} ({why})" for name, (v, why) in outcomes.items())
        reason = (
            " and ".join(f"cannot be {side} as configured" for side in missing)
            + f": {seen or 'no witness'}"
        )
        if claim.get("one_sided"):
            reason += f". Why (config): {claim['one_sided']}"
    return {
        "can_reproduce": can[REPRODUCED],
        "can_refute": can[NOT_REPRODUCED],
        "decidability": reason,
    }
