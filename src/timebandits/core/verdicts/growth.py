"""The generic growth-rate claim kind (DESIGN.md, "Claims and bounds"):

log_growth         the metric's growth exponent over the window [max(T/100, regime start), T],
                   the log-log slope of its increase: 0 for logarithmic growth, p for t^p,
                   1 for linear; bootstrap CI. Inconclusive when the window does not reach the
                   claim's regime or is flat.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from timebandits.core.verdicts.bounds import informative_from
from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.decidability import power, scale, with_curves
from timebandits.core.verdicts.declared import DeclaredCheck
from timebandits.core.verdicts.stats import bootstrap_ci
from timebandits.core.verdicts.thresholds import HIGHER, LOWER, Threshold, threshold
from timebandits.core.verdicts.vocabulary import (
    INCONCLUSIVE,
    NOT_REPRODUCED,
    REPRODUCED,
    STATISTICAL,
)

FLOOR = 1e-12  # the smallest ratio of increments a slope is computed from (no later increase)


def growth_increments(
    table: pd.DataFrame, start: float, horizon: float
) -> tuple[np.ndarray, float]:
    """Per repetition, the metric's increase over the two geometric halves of [start, T],
    [√(start·T), T] and [start, √(start·T)], from a (t x repetition) table, using the
    checkpoints nearest to those times; and log10 of the half-window's span, T/√(start·T).
    For t^p growth the ratio of the increments is 10^(p·span); for logarithmic growth it is 1."""
    ts = table.index.to_numpy(dtype=float)
    middle = math.sqrt(start * horizon)
    pick = [ts[np.argmin(np.abs(ts - x))] for x in (horizon, middle, start)]
    m_T, m_mid, m_start = (table.loc[p].to_numpy(dtype=float) for p in pick)
    return np.column_stack([m_T - m_mid, m_mid - m_start]), math.log10(pick[0] / pick[1])


def _slope(span: float):
    """The growth exponent: log10 of the mean last-half increase over the mean first-half
    increase, per decade of time (the log-log slope of the increase), for each of a batch of
    (run x half) increment tables (a bootstrap's resamples, or one table as a batch of one).
    An earlier half with no increase leaves it undefined (NaN); a later half with none gives the
    floor log10(FLOOR)/span (−∞ would leave a bootstrap's quantiles undefined)."""

    def statistic(increments: np.ndarray) -> np.ndarray:
        last, previous = increments[..., 0].mean(axis=-1), increments[..., 1].mean(axis=-1)
        with np.errstate(invalid="ignore", divide="ignore"):
            slope = np.log10(np.maximum(last / previous, FLOOR)) / span
        return np.where(previous > 0, slope, math.nan)

    return statistic


def regime_start(claim: dict, ctx: "ClaimContext", experiment: str) -> tuple[float, str]:
    """Where the regime a growth claim is about begins, and why: ``regime: {bound: <name
    prefix>}`` is the first checkpoint from which the paper's bound for the claim's algorithm is
    informative (below the trivial bound) up to T, inf if it never is; ``regime: {from_t: t}``
    is a fixed time. No ``regime``: 0."""
    regime = claim.get("regime")
    if regime is None:
        return 0.0, ""
    if "from_t" in regime:
        return float(regime["from_t"]), f"regime from t = {float(regime['from_t']):.3g} (config)"
    rows = ctx.bounds[
        (ctx.bounds["experiment"] == experiment)
        & (ctx.bounds["algorithm"] == claim["algorithm"])
        & ctx.bounds["bound"].str.startswith(regime["bound"])
    ]
    start = informative_from(rows)
    return start, f"{regime['bound']} bound informative from t = {start:.3g}"


def band_verdict(low: float, high: float, band_low: float, band_high: float) -> str:
    """A confidence interval [low, high] against the band a claim allows: reproduced if it lies
    inside, not reproduced if it lies wholly outside, else inconclusive."""
    if band_low <= low and high <= band_high:
        return REPRODUCED
    if low > band_high or high < band_low:
        return NOT_REPRODUCED
    return INCONCLUSIVE


class LogGrowth(DeclaredCheck):
    """Growth no faster than ``max_slope`` (and, with ``min_slope``, no slower): the growth
    exponent p, the log-log slope of the metric's increase (log10 of its increase over the later
    to the earlier geometric half of the window, per decade of time; 0 for logarithmic growth,
    p for t^p), with a bootstrap CI over runs. The window is [max(T/100, regime start), T]; a
    window shorter than a decade, one that starts before the regime (``regime``, see
    :func:`regime_start`), or one whose earlier half does not grow gives *inconclusive*."""

    evidence = STATISTICAL
    keys = ("experiments", "algorithm", "metric")
    thresholds = (Threshold("max_slope", LOWER), Threshold("min_slope", HIGHER, default=-math.inf))
    optional = ("regime",)  # {bound: <name prefix>} or {from_t: <time>}: regime_start

    runs = ("experiments", "algorithm")

    @classmethod
    def check(cls, claim, paper):
        super().check(claim, paper)  # keys, thresholds and runs (DeclaredCheck)
        if not threshold(cls, claim, "min_slope") < threshold(cls, claim, "max_slope"):
            raise ValueError("min_slope must be below max_slope")
        regime = claim.get("regime")
        if regime is not None and not (
            isinstance(regime, dict) and len(regime) == 1 and set(regime) <= {"bound", "from_t"}
        ):
            raise ValueError(
                f"regime must be {{bound: <name>}} or {{from_t: <time>}}, got {regime!r}"
            )

    @classmethod
    def evaluate(cls, claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        high_threshold = threshold(cls, claim, "max_slope")
        low_threshold = threshold(cls, claim, "min_slope")
        for exp in claim["experiments"]:
            table = ctx.at(exp, claim["algorithm"], claim["metric"])
            horizon = float(table.index.max())
            start, why = regime_start(claim, ctx, exp)
            window_start = max(horizon / 100, start)
            row = {"scope": exp, "window_start": window_start}
            if horizon / window_start < 10:
                reason = (
                    f"regime not reached: {why}"
                    if start >= horizon
                    else f"window [{window_start:.3g}, {horizon:.3g}] is under a decade ({why})"
                )
                rows.append(
                    {
                        **row,
                        "verdict": INCONCLUSIVE,
                        "headline": reason,
                        "statistic": f"{reason}; the growth rate is judged over at least a "
                        f"decade of the regime the claim is about",
                    }
                )
                continue
            increments, span = growth_increments(table, window_start, horizon)
            statistic = _slope(span)
            window = f"over [{window_start:.3g}, {horizon:.3g}]" + (f" ({why})" if why else "")
            if not np.isfinite(statistic(increments[None])[0]):
                rows.append(
                    {
                        **row,
                        "verdict": INCONCLUSIVE,
                        "headline": f"flat {window}: no growth to compare",
                        "statistic": (
                            f"{claim['metric']} does not increase over the first "
                            f"half of the window {window}: the growth rate is "
                            f"undefined"
                        ),
                    }
                )
                continue
            n_boot = int(ctx.config["claims"]["bootstrap_samples"])
            est, low, high = ctx.memo(
                ("log_growth", exp, claim["algorithm"], claim["metric"], window_start, n_boot),
                lambda: bootstrap_ci(increments, statistic, batched=True, n_boot=n_boot),
            )
            verdict = band_verdict(low, high, low_threshold, high_threshold)
            bounds_text = (
                f"{low_threshold:.3g} to {high_threshold:.3g}"
                if low_threshold > -math.inf
                else f"≤ {high_threshold:.3g}"
            )
            rows.append(
                {
                    **row,
                    "verdict": verdict,
                    "headline": (
                        f"slope {est:.2f} (CI {low:.2f} to {high:.2f}; needs {bounds_text})"
                    ),
                    "statistic": (
                        f"{claim['metric']} growth {window}: log-log slope of the increase "
                        f"(log10 of the later-half over the earlier-half increase, per decade "
                        f"of time) = {est:.3g} (95% bootstrap CI {low:.3g} to {high:.3g}); "
                        f"logarithmic growth gives 0, t^p gives p, linear 1; needs {bounds_text}"
                    ),
                    "slope": est,
                    "ci_low": low,
                    "ci_high": high,
                }
            )
        return rows

    @classmethod
    def witnesses(cls, claim, ctx):
        """Growth at the middle of the claimed range of slopes (logarithmic where it admits 0),
        or 0.6 above its upper end."""
        high = threshold(cls, claim, "max_slope")
        low = threshold(cls, claim, "min_slope")
        inside = 0.0 if low <= 0.0 <= high else (max(low, high - 1.0) + high) / 2
        s = scale(ctx, claim["experiments"], [claim["algorithm"]], claim["metric"])
        return {
            side: with_curves(ctx, claim["metric"], {claim["algorithm"]: power(s, slope)})
            for side, slope in (("favourable", inside), ("unfavourable", high + 0.6))
        }
