"""What the continuous claim kinds share: the instance and oracle of an experiment, and witness
contexts whose final payoffs or regrets are set (core/verdicts/decidability.py)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from timebandits.core.config import resolve_experiment
from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.decidability import derived, spread

from ..model import normalised_horizon, oracle


def instance(ctx: ClaimContext, exp: str) -> tuple[np.ndarray, float, float]:
    """(means, λ, T') of an experiment, at the scale being built (a smoke build caps T)."""
    experiment = ctx.paper["experiments"][exp]
    if "scales" in ctx.config:
        experiment = resolve_experiment(ctx.paper, exp, ctx.config)
    lam = float(experiment["environment"]["lam"])
    return (
        np.asarray(experiment["environment"]["means"], dtype=float),
        lam,
        normalised_horizon(float(experiment["horizon"]), lam),
    )


def oracle_payoff(ctx: ClaimContext, exp: str) -> float:
    means, _, horizon = instance(ctx, exp)
    return oracle(means.max(), horizon).payoff


SIDES = (("favourable", True), ("unfavourable", False))


def shown(value, digits: int = 4) -> str:
    """A number as a claim's text shows it: to ``digits`` significant digits, from 1,000 written
    out with thousands separators (``-1,690``, ``1,837.5``), an exponent without ``+`` or
    leading zeros (``5.5e-48``, ``1.2e-5``); never a numpy repr such as ``np.float64(…)``."""
    value = float(value)
    if math.isfinite(value) and 1e3 <= abs(value) < 1e15:
        decimals = max(0, digits - len(str(int(abs(value)))))
        text = f"{value:,.{decimals}f}"
        return text.rstrip("0").rstrip(".") if decimals else text
    text = f"{value:.{digits}g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}e{int(exponent)}"
    return text


def listed(values, digits: int = 6) -> str:
    """Numbers as a claim's text shows them (``shown``): ``[1,350, 337.5, 37.5]``."""
    return "[" + ", ".join(shown(v, digits) for v in values) + "]"


def with_finals(ctx: ClaimContext, algorithm: str, metric: str, levels: dict, of=None):
    """A decidability witness (core/verdicts/decidability.py) in which ``metric`` of
    ``algorithm`` in each experiment of ``levels`` is level × (1 ± a small spread over runs) at
    every checkpoint, passed through ``of(experiment, values)`` (e.g. regret → payoff). Other
    traces are real."""

    def trace_of(experiment: str, name: str) -> pd.DataFrame:
        trace = ctx.trace(experiment, name)
        if name != algorithm or experiment not in levels:
            return trace
        trace = trace.copy()
        reps = np.sort(trace["repetition"].unique())
        values = (
            levels[experiment]
            * pd.Series(spread(reps.size), index=reps).loc[trace["repetition"]].to_numpy()
        )
        trace[metric] = values if of is None else of(experiment, values)
        return trace

    return derived(ctx, trace_of=trace_of)


def with_regrets(ctx: ClaimContext, algorithm: str, regrets: dict) -> ClaimContext:
    """A witness in which the learner's regret at T in each experiment is the given level (with
    the small spread over runs): payoff = P* − regret."""
    return with_finals(ctx, algorithm, "payoff", regrets, of=lambda e, r: oracle_payoff(ctx, e) - r)


def regret_scale(ctx: ClaimContext, experiments, algorithm: str) -> float:
    """A positive size for witness regrets: the largest |mean regret at T| over the claim's
    experiments, or 1 where every one is 0 or undefined."""
    sizes = [abs(float(np.mean(horizon_regrets(ctx, e, algorithm)))) for e in experiments]
    sizes = [x for x in sizes if math.isfinite(x) and x > 0]
    return max(sizes) if sizes else 1.0


def horizon_regrets(ctx: ClaimContext, exp: str, algorithm: str) -> np.ndarray:
    return oracle_payoff(ctx, exp) - ctx.final(exp, algorithm, "payoff")
