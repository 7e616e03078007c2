"""Claim kinds of "Continuous Time Bandits With Sampling Costs" on the oracle and the fixed-rate
policies (spec §7): ``oracle_exact`` (Props. 1–2, Remark 3), ``exact_sign`` and
``close_to_oracle``; what each checks is in the package's docstring (claims/__init__.py)."""

from __future__ import annotations

import math

import numpy as np

from timebandits.core.verdicts.context import ClaimContext, paired_verdict
from timebandits.core.verdicts.decidability import derived
from timebandits.core.verdicts.declared import DeclaredCheck
from timebandits.core.verdicts.stats import paired_one_sided
from timebandits.core.verdicts.thresholds import HIGHER, LOWER, Threshold, threshold
from timebandits.core.verdicts.vocabulary import (
    EXACT,
    INCONCLUSIVE,
    NOT_REPRODUCED,
    REPRODUCED,
    STATISTICAL,
)

from ..model import equal_spacing_payoff, normalised_horizon, oracle
from .common import SIDES, instance, listed, oracle_payoff, shown, with_finals

# The unfavourable witness of oracle_exact puts the simulated payoff this far (relative, and at
# least this much absolute) off the best over integer N; the tolerances must stay below it.
WITNESS_ERROR = 1e-6


class OracleExact(DeclaredCheck):
    """Decides on the oracle's simulated payoff, routed through ``ctx.quantity`` so that the
    witnesses can put it on the brute-force optimum (favourable) or off it (unfavourable)."""

    evidence = EXACT
    keys = ("experiments",)
    # below the unfavourable witness's error, which must be outside them
    thresholds = (
        Threshold("rel_tol", LOWER, low=0.0, high=WITNESS_ERROR, open_high=True),
        Threshold("abs_tol", LOWER, low=0.0, high=WITNESS_ERROR, open_high=True),
    )
    optional = ()

    runs, also_runs = ("experiments",), ("oracle",)

    @classmethod
    def evaluate(cls, claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        rel_tol, abs_tol = threshold(cls, claim, "rel_tol"), threshold(cls, claim, "abs_tol")
        for exp in claim["experiments"]:
            means, lam, horizon = instance(ctx, exp)
            mu = means.max()
            simulated = float(
                ctx.quantity(
                    f"oracle_payoff:{exp}", lambda: float(ctx.final(exp, "oracle", "payoff")[0])
                )
            )
            brute = _brute_force(ctx, exp)
            scaled = [
                oracle(mu, normalised_horizon(c * horizon * lam, c * lam)).payoff
                for c in (0.1, 10.0)
            ]
            closed = mu * mu * horizon / 4 if (mu * horizon / 2).is_integer() else None
            checks = [
                math.isclose(simulated, brute, rel_tol=rel_tol, abs_tol=abs_tol),
                all(math.isclose(s, simulated, rel_tol=rel_tol) for s in scaled),
                closed is None or math.isclose(simulated, closed, rel_tol=rel_tol),
            ]
            rows.append(
                {
                    "scope": exp,
                    "verdict": (REPRODUCED if all(checks) else NOT_REPRODUCED)
                    if math.isfinite(simulated)
                    else INCONCLUSIVE,
                    "headline": f"P* = {shown(simulated, 6)} (brute force {shown(brute, 6)}"
                    + (f", μ1²T'/4 = {shown(closed, 6)}" if closed is not None else "")
                    + ")",
                    "statistic": (
                        f"oracle payoff at T' = {horizon:g} (12 significant digits): "
                        f"simulated {shown(simulated, 12)}, best over integer N "
                        f"{shown(brute, 12)}, at (0.1λ, 0.1T) and (10λ, 10T) {listed(scaled, 12)}"
                        + (
                            f", closed form {shown(closed, 12)}"
                            if closed is not None
                            else " (μ1T'/2 not an integer: floor or ceil, footnote 3)"
                        )
                    ),
                }
            )
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """The simulated payoff equal to the best over integer N, or ``WITNESS_ERROR`` of it
        (and at least ``WITNESS_ERROR``) above it."""
        return {
            "favourable": derived(
                ctx,
                overrides={
                    f"oracle_payoff:{e}": (lambda v, b=_brute_force(ctx, e): b)
                    for e in claim["experiments"]
                },
            ),
            "unfavourable": derived(
                ctx,
                overrides={
                    f"oracle_payoff:{e}": (lambda v: v + max(abs(v), 1.0) * WITNESS_ERROR)
                    for e in claim["experiments"]
                },
            ),
        }


def _brute_force(ctx: ClaimContext, exp: str) -> float:
    """The best payoff μ1 N − N²/T' over every integer N (Prop. 1, eq. 2)."""
    means, _, horizon = instance(ctx, exp)
    return float(equal_spacing_payoff(means.max(), np.arange(int(horizon) + 2), horizon).max())


class ExactSign(DeclaredCheck):
    evidence = EXACT
    keys = ("experiments", "algorithm", "metric", "sign")
    optional = ()

    runs, reads_sign = ("experiments", "algorithm"), True

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        for exp in claim["experiments"]:
            value = float(ctx.quantity(f"value:{exp}", lambda: _deterministic(claim, ctx, exp)))
            holds = value < 0 if claim["sign"] == "negative" else value > 0
            _, _, horizon = instance(ctx, exp)
            verdict = (
                (REPRODUCED if holds else NOT_REPRODUCED) if math.isfinite(value) else INCONCLUSIVE
            )
            rows.append(
                {
                    "scope": exp,
                    "verdict": verdict,
                    "headline": f"{claim['metric']} at T = {shown(value, 6)} "
                    f"({shown(value / horizon, 6)} T/λ)",
                    "statistic": f"{ctx.label(claim['algorithm'])}: {claim['metric']} at T "
                    f"= {shown(value, 12)}, i.e. {shown(value / horizon, 12)} in units "
                    "of T/λ",
                }
            )
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """The metric on the claimed side of 0 (its own size, at least 1), or on the other."""
        sign = -1.0 if claim["sign"] == "negative" else 1.0
        return {
            side: derived(
                ctx,
                overrides={
                    f"value:{e}": (lambda v, k=sign * (1 if good else -1): k * max(abs(v), 1.0))
                    for e in claim["experiments"]
                },
            )
            for side, good in SIDES
        }


def _deterministic(claim: dict, ctx: ClaimContext, exp: str) -> float:
    values = ctx.final(exp, claim["algorithm"], claim["metric"])
    if np.isnan(values).all():
        return math.nan
    if np.ptp(values) != 0:
        raise ValueError(f"{exp}: {claim['algorithm']} is not deterministic")
    return float(values[0])


class CloseToOracle(DeclaredCheck):
    evidence = STATISTICAL
    keys = ("experiments", "algorithm")
    thresholds = (Threshold("share", HIGHER, low=0.0, high=1.0, open_low=True),)
    optional = ()

    runs, also_runs = ("experiments", "algorithm"), ("oracle",)

    @classmethod
    def evaluate(cls, claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        share = threshold(cls, claim, "share")
        for exp in claim["experiments"]:
            payoff = ctx.final(exp, claim["algorithm"], "payoff")
            target = share * oracle_payoff(ctx, exp)
            test = paired_one_sided(np.full_like(payoff, target), payoff)
            ratio = payoff.mean() / oracle_payoff(ctx, exp)
            rows.append(
                {
                    "scope": exp,
                    "verdict": paired_verdict(test, ctx.alpha),
                    "headline": f"payoff = {shown(ratio, 3)} × the oracle's (needs ≥ {share:g})",
                    "statistic": (
                        f"mean payoff at T {shown(payoff.mean(), 6)} ± "
                        f"{shown(payoff.std(ddof=1) / math.sqrt(payoff.size), 2)} "
                        f"against {share:g} × P* = {shown(target, 6)}; one-sided t-test p = "
                        f"{shown(test['p_claimed'], 2)} (opposite {shown(test['p_opposite'], 2)})"
                    ),
                    "ratio": ratio,
                    "p_claimed": test["p_claimed"],
                    "p_opposite": test["p_opposite"],
                }
            )
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """Every run at the oracle's payoff P* (the most a learner can earn; ± a small spread),
        or at −P*. A share of 1 can then never be shown."""
        return {
            side: with_finals(
                ctx,
                claim["algorithm"],
                "payoff",
                {e: (1.0 if good else -1.0) * oracle_payoff(ctx, e) for e in claim["experiments"]},
            )
            for side, good in SIDES
        }
