"""The generic claim kind that compares one algorithm's metric with 0 at the horizon (DESIGN.md,
"Claims and bounds"):

  sign_at_horizon    one-sided t-test, at the horizon, that the metric's mean is negative (or
                     positive) for every (experiment, algorithm).

Its ``witnesses`` give the most favourable and unfavourable curves (core/verdicts/decidability.py).
The kinds that compare algorithms with each other are in core/verdicts/comparisons.py.
"""

from __future__ import annotations

import numpy as np

from timebandits.core.verdicts.comparisons import standard_error
from timebandits.core.verdicts.context import ClaimContext, paired_verdict
from timebandits.core.verdicts.decidability import linear, scale, with_curves
from timebandits.core.verdicts.declared import DeclaredCheck
from timebandits.core.verdicts.stats import paired_one_sided
from timebandits.core.verdicts.vocabulary import STATISTICAL


class SignAtHorizon(DeclaredCheck):
    """The metric's mean at T is negative (or positive) for every (experiment, algorithm):
    a one-sided t-test against 0."""

    evidence = STATISTICAL
    keys = ("experiments", "algorithms", "metric", "sign")
    optional = ()

    runs, reads_sign = ("experiments", "algorithms"), True

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        for exp in claim["experiments"]:
            for alg in claim["algorithms"]:
                values = ctx.final(exp, alg, claim["metric"])
                zero = np.zeros_like(values)
                negative = claim["sign"] == "negative"
                test = (
                    paired_one_sided(values, zero) if negative else paired_one_sided(zero, values)
                )
                rows.append(
                    {
                        "scope": f"{exp} {ctx.label(alg)}",
                        "verdict": paired_verdict(test, ctx.alpha),
                        "headline": f"mean {values.mean():.3g} ± {standard_error(values):.2g}",
                        "statistic": (
                            f"{claim['metric']} at T of {ctx.label(alg)}: {values.mean():.4g} "
                            f"± {standard_error(values):.2g} (mean ± s.e.), "
                            f"{int(np.sum(values < 0))}/{values.size} runs negative; "
                            f"t = {-test['t'] if negative else test['t']:.2f}, "
                            f"one-sided p = {test['p_claimed']:.2g} for a {claim['sign']} mean"
                        ),
                        "mean": float(values.mean()),
                        "p_claimed": test["p_claimed"],
                        "p_opposite": test["p_opposite"],
                    }
                )
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """Every curve on the claimed side of 0, or on the other."""
        s = min(
            scale(ctx, claim["experiments"], claim["algorithms"], claim["metric"], negative=neg)
            for neg in (False, True)
        )  # a witness on each side of 0
        sign = -1.0 if claim["sign"] == "negative" else 1.0
        return {
            side: with_curves(
                ctx,
                claim["metric"],
                {a: linear(s * sign * (1 if good else -1)) for a in claim["algorithms"]},
            )
            for side, good in (("favourable", True), ("unfavourable", False))
        }
