"""Generic claim kinds that compare algorithms at the horizon (DESIGN.md, "Claims and bounds"):

  better_at_horizon  paired one-sided t-test, at the horizon, that metric(worse) > ρ·metric(better)
                     for every (experiment, better, worse); ρ = ``min_ratio`` (1 unless the paper
                     says "much better"); common random numbers make the pairs. With
                     ``direction: higher`` (a reward, not a regret) the claim is
                     metric(better) > ρ·metric(worse).
  close_at_horizon   paired equivalence test (TOST), at the horizon, that the two algorithms of
                     ``pair`` differ by less than ``tolerance`` × their mean metric.
  wins_in_settings   the algorithm beats every rival (paired test) in at least ``min_settings``
                     experiments.

Each kind's ``witnesses`` give the most favourable and unfavourable curves
(core/verdicts/decidability.py). The kind that compares one algorithm's metric with 0
(sign_at_horizon) is in core/verdicts/signs.py.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from timebandits.core.verdicts.context import ClaimContext, check_run, paired_verdict
from timebandits.core.verdicts.decidability import linear, scale, with_curves
from timebandits.core.verdicts.declared import DeclaredCheck
from timebandits.core.verdicts.stats import equivalence_test, paired_one_sided
from timebandits.core.verdicts.thresholds import HIGHER, LOWER, Threshold, check_keys, threshold
from timebandits.core.verdicts.vocabulary import (
    INCONCLUSIVE,
    NOT_REPRODUCED,
    REPRODUCED,
    STATISTICAL,
)


def standard_error(values: np.ndarray) -> float:
    return float(values.std(ddof=1) / np.sqrt(values.size)) if values.size > 1 else math.nan


def last_crossing(first: pd.Series, second: pd.Series) -> float | None:
    """The first checkpoint after the last change of sign of ``first − second`` (mean curves on
    the same checkpoints): from then on their order is the one at the horizon. None if they never
    cross."""
    sign = np.sign((first - second).to_numpy(dtype=float))
    changes = np.flatnonzero(sign[1:] * sign[:-1] < 0)
    return None if changes.size == 0 else float(first.index[changes[-1] + 1])


class BetterAtHorizon(DeclaredCheck):
    """metric(better) < metric(worse) at T, paired over runs. With ``min_ratio`` ρ > 1 (a paper
    that says "much better" or "clearly"), the claim is metric(worse) > ρ·metric(better): the
    paired test is on worse − ρ·better, and the evidence shows the ratio of the means next to the
    p-value. ``direction: higher`` turns the order round for a metric to maximise (a reward):
    metric(better) > ρ·metric(worse). The statistic also records where the mean curves last
    cross."""

    evidence = STATISTICAL
    keys = ("experiments", "metric", "better", "worse")
    # "better" is a direction (a ratio of 1); "much better" needs a ratio the paper does not give
    thresholds = (Threshold("min_ratio", HIGHER, default=1.0, low=1.0),)
    optional = ("direction",)

    runs, reads_direction = ("experiments", "better", "worse"), True

    @classmethod
    def evaluate(cls, claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        ratio = threshold(cls, claim, "min_ratio")
        metric = claim["metric"]
        higher = claim.get("direction", "lower") == "higher"
        side = "higher" if higher else "lower"
        for exp in claim["experiments"]:
            for better in claim["better"]:
                for worse in claim["worse"]:
                    ours, theirs = ctx.paired(exp, better, worse, metric)
                    # The claim is "high > ratio · low": who is low depends on the direction.
                    low, high = (theirs, ours) if higher else (ours, theirs)
                    test = paired_one_sided(ratio * low, high)
                    wins = int(np.sum(low < high))
                    crossing = last_crossing(
                        ctx.at(exp, better, metric).mean(axis=1),
                        ctx.at(exp, worse, metric).mean(axis=1),
                    )
                    means = (
                        f"{ctx.label(worse)}/{ctx.label(better)} = "
                        f"{theirs.mean() / ours.mean():.3g}"
                        if ours.mean() > 0 and theirs.mean() > 0
                        else "ratio undefined (a mean ≤ 0)"
                    )
                    effect = (
                        f"{means} (needs {'<' if higher else '>'} "
                        f"{1 / ratio if higher else ratio:g}); "
                        if ratio > 1
                        else ""
                    )
                    rows.append(
                        {
                            "scope": f"{exp} {ctx.label(better)} vs {ctx.label(worse)}",
                            "verdict": paired_verdict(test, ctx.alpha),
                            "headline": f"{effect}{wins}/{low.size} runs {side}",
                            "statistic": (
                                f"{metric} at T: {ctx.label(better)} {ours.mean():.4g} ± "
                                f"{standard_error(ours):.2g} vs {ctx.label(worse)} "
                                f"{theirs.mean():.4g} ± {standard_error(theirs):.2g} "
                                f"(mean ± s.e.); {wins}/{low.size} runs "
                                f"{side}; {effect}paired t = {test['t']:.2f}, "
                                f"p = {test['p_claimed']:.2g}; mean curves "
                                + (
                                    f"last cross at t = {crossing:.3g}"
                                    if crossing is not None
                                    else "never cross"
                                )
                            ),
                            "value_claimed_lower": float(low.mean()),
                            "value_claimed_higher": float(high.mean()),
                            "p_claimed": test["p_claimed"],
                            "p_opposite": test["p_opposite"],
                            "last_crossing": crossing,
                        }
                    )
        return rows

    @classmethod
    def witnesses(cls, claim, ctx):
        """The claimed-higher side at 3ρ times the other (favourable), or the reverse."""
        ratio = threshold(cls, claim, "min_ratio")
        higher = claim.get("direction", "lower") == "higher"
        low, high = (
            (claim["worse"], claim["better"]) if higher else (claim["better"], claim["worse"])
        )
        s = scale(ctx, claim["experiments"], low + high, claim["metric"], headroom=3 * ratio)
        return {
            side: with_curves(
                ctx,
                claim["metric"],
                {
                    **{a: linear(s * (1 if good else 3 * ratio)) for a in low},
                    **{a: linear(s * (3 * ratio if good else 1)) for a in high},
                },
            )
            for side, good in (("favourable", True), ("unfavourable", False))
        }


class CloseAtHorizon:
    """metric(first) ≈ metric(second) at T for the two algorithms of ``pair``: a paired
    equivalence test (TOST) that the mean of the per-run differences lies within ±``tolerance``
    × m, with m the mean of both algorithms' metric at T (taken as fixed). *Not reproduced* when
    the difference is shown to lie outside the margin."""

    evidence = STATISTICAL
    keys = ("experiments", "metric", "pair")
    thresholds = (Threshold("tolerance", LOWER, low=0.0, open_low=True),)
    optional = ()

    @classmethod
    def check(cls, claim, paper):
        check_keys(cls, claim)
        if not (isinstance(claim["pair"], list) and len(claim["pair"]) == 2):
            raise ValueError(f"pair must list two algorithms, got {claim['pair']!r}")
        check_run(paper, claim["experiments"], claim["pair"])

    @classmethod
    def evaluate(cls, claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        first, second = claim["pair"]
        tol, metric = threshold(cls, claim, "tolerance"), claim["metric"]
        for exp in claim["experiments"]:
            a, b = ctx.paired(exp, first, second, metric)
            scale = abs(float(np.concatenate([a, b]).mean()))
            margin = tol * scale
            test = equivalence_test(a - b, 0.0, margin)
            relative = (a.mean() - b.mean()) / scale if scale > 0 else math.nan
            rows.append(
                {
                    "scope": f"{exp} {ctx.label(first)} vs {ctx.label(second)}",
                    "verdict": paired_verdict(test, ctx.alpha),
                    "headline": f"difference {relative:+.2%} of the mean (margin ±{tol:.0%})",
                    "statistic": (
                        f"{metric} at T: {ctx.label(first)} {a.mean():.4g} ± "
                        f"{standard_error(a):.2g} vs {ctx.label(second)} {b.mean():.4g} ± "
                        f"{standard_error(b):.2g} (mean ± s.e.); paired difference "
                        f"{(a - b).mean():.4g} ± {standard_error(a - b):.2g}, "
                        f"margin ±{margin:.4g} ({tol:g} × {scale:.4g}); TOST p = "
                        f"{test['p_claimed']:.2g}, outside the margin p = "
                        f"{test['p_opposite']:.2g}"
                    ),
                    **test,
                }
            )
        return rows

    @classmethod
    def witnesses(cls, claim, ctx):
        """Both algorithms on one curve (favourable), or 4 × the tolerance apart."""
        first, second = claim["pair"]
        apart = 1.0 + 4.0 * threshold(cls, claim, "tolerance")
        s = scale(ctx, claim["experiments"], claim["pair"], claim["metric"], headroom=apart)
        return {
            "favourable": with_curves(ctx, claim["metric"], {first: linear(s), second: linear(s)}),
            "unfavourable": with_curves(
                ctx, claim["metric"], {first: linear(s), second: linear(s * apart)}
            ),
        }


class WinsInSettings(DeclaredCheck):
    """The algorithm beats every rival in at least ``min_settings`` of the experiments. A win is
    a paired t-test against every rival at level α/m in a setting (m settings; Bonferroni, as
    any ``min_settings`` of them may be the wins; α when every setting must be won); a loss is a
    rival better at α/(m·r) (r rivals: a loss in any setting against any rival counts). Not
    reproduced when the wins and the undecided settings together fall short."""

    evidence = STATISTICAL
    keys = ("experiments", "algorithm", "against", "metric")
    thresholds = (Threshold("min_settings", HIGHER, low=1, integer=True),)
    optional = ()

    runs = ("experiments", "algorithm", "against")

    @classmethod
    def evaluate(cls, claim, ctx: ClaimContext) -> list[dict]:
        wins, losses = [], []
        m, need = len(claim["experiments"]), int(threshold(cls, claim, "min_settings"))
        win_level = ctx.alpha if need >= m else ctx.alpha / m
        loss_level = ctx.alpha / (m * len(claim["against"]))
        for exp in claim["experiments"]:
            tests = [
                paired_one_sided(*ctx.paired(exp, claim["algorithm"], rival, claim["metric"]))
                for rival in claim["against"]
            ]
            if all(t["p_claimed"] < win_level for t in tests):
                wins.append(exp)
            if any(t["p_opposite"] < loss_level for t in tests):
                losses.append(exp)
        undecided = m - len(wins) - len(losses)
        if len(wins) >= need:
            verdict = REPRODUCED
        elif len(wins) + undecided < need:
            verdict = NOT_REPRODUCED
        else:
            verdict = INCONCLUSIVE
        return [
            {
                "scope": ",".join(claim["experiments"]),
                "verdict": verdict,
                "headline": f"wins in {len(wins)}/{m} settings, needs {need}",
                "statistic": (
                    f"{ctx.label(claim['algorithm'])} significantly better than every rival in "
                    f"{len(wins)}/{m} settings ({', '.join(wins) or 'none'}); "
                    f"worse than some rival in {', '.join(losses) or 'none'}; needs {need} "
                    f"(a win: paired t-tests against every rival at α = {win_level:.2g}; a "
                    f"loss: some rival better at {loss_level:.2g})"
                ),
            }
        ]

    @staticmethod
    def witnesses(claim, ctx):
        """The algorithm at a third of every rival in every setting, or at three times."""
        algs = [claim["algorithm"], *claim["against"]]
        s = scale(ctx, claim["experiments"], algs, claim["metric"], headroom=3)
        return {
            side: with_curves(
                ctx,
                claim["metric"],
                {a: linear(s * (1 if (a == claim["algorithm"]) == good else 3)) for a in algs},
            )
            for side, good in (("favourable", True), ("unfavourable", False))
        }
