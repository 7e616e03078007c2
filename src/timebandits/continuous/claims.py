"""Claim kinds of "Continuous Time Bandits With Sampling Costs" beyond the generic ones
(core/verdicts/claims.py); spec §7.

  oracle_exact     (exact) Props. 1–2 and Remark 3 for each experiment: the oracle's payoff at T
                   equals the best μ1 N − N²/T' over every integer N (brute force), equals
                   μ1²T'/4 when μ1T'/2 is an integer, and is the same at (cλ, cT) for c = 0.1, 10.
  exact_sign       (exact) a deterministic policy's (oracle, baseline) metric at T is negative or
                   positive, for each experiment.
  close_to_oracle  (statistical) the learner's mean payoff at T is at least ``share`` × the
                   oracle's: one-sided t-test over runs, for each experiment.
  regret_slope     (statistical) the least-squares slope of log(mean regret at T) on log μ across
                   ``experiments`` (one arm each) lies in [``low``, ``high``]: a bootstrap over the
                   runs of each experiment gives its 95% interval; inconclusive where it straddles
                   a limit or a mean regret is ≤ 0.
  regret_grows     (statistical) the learner's regret at T increases along ``experiments``: a
                   one-sided Welch test between consecutive experiments (independent runs).
  spread_larger    (statistical) the run-to-run sd of the learner's payoff at T is larger in
                   ``larger`` than in each of ``smaller`` (wider confidence bands): a bootstrap
                   over the (independent) runs of the log sd ratio.
  scaled_flat      (statistical) a quantity divided by its theoretical order is roughly the same
                   in every experiment: the ratio of the largest to the smallest mean across
                   ``experiments`` is at most ``max_spread``, judged on a bootstrap 95% interval
                   over the runs. ``quantity``: ``regret`` (at T, × μ/(ln T')²: Theorem 5's
                   O((ln T')²/μ) at a fixed T'^ε, spec §7.8) or ``identification_time`` (t_Id ×
                   μ1Δ²/(K ln T'²): Lemma 25's order, on the runs whose LUCB1 finished).
  run_frequency    (statistical) a per-run event holds with probability ≥ ``level`` (exact
                   binomial test, core.verdicts.context.fraction_test), for each experiment. Events:
                   ``lemma13`` i* ≤ ⌈p*/ε⌉ + 1 (a run that never stops fails it); ``lemma15``
                   |μ̂ − μ1| < μ1 when learning stops; ``lemma22`` (2/3)μ1 ≤ μ̂[1] ≤ 2μ1 when
                   estimation stops; ``identified`` LUCB1 returned arm 1 (judged on the runs
                   whose identification finished before T; the others are counted apart).
  slope_at_most, slope_at_least  (statistical) the log-log slope of a quantity (regret, CTMAB's
                   estimation loss or time) on K, 1/Δ or 1/μ1 is at most / at least a limit
                   (claims_scaling.py: Theorems 8-9, Lemmas 22-23).
  printed_statement  (exact) a statement the paper prints, computed: Lemma 18's KL inequality,
                   eq. 9's T^{p1m} (claims_errata.py; the errata claims).
"""

from __future__ import annotations

import math

import numpy as np

from timebandits.core.verdicts.context import ClaimContext, check_run, check_sign, paired_verdict
from timebandits.core.verdicts.decidability import derived
from timebandits.core.verdicts.stats import paired_one_sided
from timebandits.core.verdicts.thresholds import HIGHER, LOWER, Threshold, check_keys, threshold
from timebandits.core.verdicts.vocabulary import (
    EXACT,
    INCONCLUSIVE,
    NOT_REPRODUCED,
    REPRODUCED,
    STATISTICAL,
)

from .claims_common import SIDES, instance, listed, oracle_payoff, shown, with_finals
from .claims_errata import PrintedStatement
from .claims_frequency import RunFrequency
from .claims_rates import RegretGrows, RegretSlope, ScaledFlat, SpreadLarger
from .claims_scaling import SlopeAtLeast, SlopeAtMost
from .model import equal_spacing_payoff, normalised_horizon, oracle

# The unfavourable witness of oracle_exact puts the simulated payoff this far (relative, and at
# least this much absolute) off the best over integer N; the tolerances must stay below it.
WITNESS_ERROR = 1e-6


class OracleExact:
    """Decides on the oracle's simulated payoff, routed through ``ctx.quantity`` so that the
    witnesses can put it on the brute-force optimum (favourable) or off it (unfavourable)."""

    evidence = EXACT
    keys = ("experiments",)
    # below the unfavourable witness's error, which must be outside them
    thresholds = (Threshold("rel_tol", LOWER, low=0.0, high=WITNESS_ERROR, open_high=True),
                  Threshold("abs_tol", LOWER, low=0.0, high=WITNESS_ERROR, open_high=True))
    optional = ()

    @classmethod
    def check(cls, claim, paper):
        check_keys(cls, claim)
        check_run(paper, claim["experiments"], ["oracle"])

    @classmethod
    def evaluate(cls, claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        rel_tol, abs_tol = threshold(cls, claim, "rel_tol"), threshold(cls, claim, "abs_tol")
        for exp in claim["experiments"]:
            means, lam, horizon = instance(ctx, exp)
            mu = means.max()
            simulated = float(ctx.quantity(f"oracle_payoff:{exp}",
                                           lambda: float(ctx.final(exp, "oracle", "payoff")[0])))
            brute = _brute_force(ctx, exp)
            scaled = [oracle(mu, normalised_horizon(c * horizon * lam, c * lam)).payoff
                      for c in (0.1, 10.0)]
            closed = mu * mu * horizon / 4 if (mu * horizon / 2).is_integer() else None
            checks = [math.isclose(simulated, brute, rel_tol=rel_tol, abs_tol=abs_tol),
                      all(math.isclose(s, simulated, rel_tol=rel_tol) for s in scaled),
                      closed is None or math.isclose(simulated, closed, rel_tol=rel_tol)]
            rows.append({
                "scope": exp, "verdict": (REPRODUCED if all(checks) else NOT_REPRODUCED)
                if math.isfinite(simulated) else INCONCLUSIVE,
                "headline": f"P* = {shown(simulated, 6)} (brute force {shown(brute, 6)}"
                            + (f", μ1²T'/4 = {shown(closed, 6)}" if closed is not None else "") + ")",
                "statistic": (f"oracle payoff at T' = {horizon:g} (12 significant digits): "
                              f"simulated {shown(simulated, 12)}, best over integer N {shown(brute, 12)}, at "
                              f"(0.1λ, 0.1T) and (10λ, 10T) {listed(scaled, 12)}"
                              + (f", closed form {shown(closed, 12)}" if closed is not None else
                                 " (μ1T'/2 not an integer: floor or ceil, footnote 3)")),
            })
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """The simulated payoff equal to the best over integer N, or ``WITNESS_ERROR`` of it
        (and at least ``WITNESS_ERROR``) above it."""
        return {"favourable": derived(ctx, overrides={
                    f"oracle_payoff:{e}": (lambda v, b=_brute_force(ctx, e): b)
                    for e in claim["experiments"]}),
                "unfavourable": derived(ctx, overrides={
                    f"oracle_payoff:{e}": (lambda v: v + max(abs(v), 1.0) * WITNESS_ERROR)
                    for e in claim["experiments"]})}


def _brute_force(ctx: ClaimContext, exp: str) -> float:
    """The best payoff μ1 N − N²/T' over every integer N (Prop. 1, eq. 2)."""
    means, _, horizon = instance(ctx, exp)
    return float(equal_spacing_payoff(means.max(), np.arange(int(horizon) + 2), horizon).max())


class ExactSign:
    evidence = EXACT
    keys = ("experiments", "algorithm", "metric", "sign")
    optional = ()

    @classmethod
    def check(cls, claim, paper):
        check_keys(cls, claim)
        check_sign(claim)
        check_run(paper, claim["experiments"], [claim["algorithm"]])

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        for exp in claim["experiments"]:
            value = float(ctx.quantity(f"value:{exp}", lambda: _deterministic(claim, ctx, exp)))
            holds = value < 0 if claim["sign"] == "negative" else value > 0
            _, _, horizon = instance(ctx, exp)
            verdict = (REPRODUCED if holds else NOT_REPRODUCED) if math.isfinite(value) else INCONCLUSIVE
            rows.append({"scope": exp, "verdict": verdict,
                         "headline": f"{claim['metric']} at T = {shown(value, 6)} ({shown(value / horizon, 6)} T/λ)",
                         "statistic": f"{ctx.label(claim['algorithm'])}: {claim['metric']} at T "
                                      f"= {shown(value, 12)}, i.e. {shown(value / horizon, 12)} in units "
                                      "of T/λ"})
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """The metric on the claimed side of 0 (its own size, at least 1), or on the other."""
        sign = -1.0 if claim["sign"] == "negative" else 1.0
        return {side: derived(ctx, overrides={
                    f"value:{e}": (lambda v, k=sign * (1 if good else -1): k * max(abs(v), 1.0))
                    for e in claim["experiments"]})
                for side, good in SIDES}


def _deterministic(claim: dict, ctx: ClaimContext, exp: str) -> float:
    values = ctx.final(exp, claim["algorithm"], claim["metric"])
    if np.isnan(values).all():
        return math.nan
    if np.ptp(values) != 0:
        raise ValueError(f"{exp}: {claim['algorithm']} is not deterministic")
    return float(values[0])


class CloseToOracle:
    evidence = STATISTICAL
    keys = ("experiments", "algorithm")
    thresholds = (Threshold("share", HIGHER, low=0.0, high=1.0, open_low=True),)
    optional = ()

    @classmethod
    def check(cls, claim, paper):
        check_keys(cls, claim)
        check_run(paper, claim["experiments"], [claim["algorithm"], "oracle"])

    @classmethod
    def evaluate(cls, claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        share = threshold(cls, claim, "share")
        for exp in claim["experiments"]:
            payoff = ctx.final(exp, claim["algorithm"], "payoff")
            target = share * oracle_payoff(ctx, exp)
            test = paired_one_sided(np.full_like(payoff, target), payoff)
            ratio = payoff.mean() / oracle_payoff(ctx, exp)
            rows.append({
                "scope": exp, "verdict": paired_verdict(test, ctx.alpha),
                "headline": f"payoff = {shown(ratio, 3)} × the oracle's (needs ≥ {share:g})",
                "statistic": (f"mean payoff at T {shown(payoff.mean(), 6)} ± {shown(payoff.std(ddof=1) / math.sqrt(payoff.size), 2)} "
                              f"against {share:g} × P* = {shown(target, 6)}; one-sided t-test p = "
                              f"{shown(test['p_claimed'], 2)} (opposite {shown(test['p_opposite'], 2)})"),
                "ratio": ratio, "p_claimed": test["p_claimed"], "p_opposite": test["p_opposite"],
            })
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """Every run at the oracle's payoff P* (the most a learner can earn; ± a small spread),
        or at −P*. A share of 1 can then never be shown."""
        return {side: with_finals(ctx, claim["algorithm"], "payoff",
                                   {e: (1.0 if good else -1.0) * oracle_payoff(ctx, e)
                                    for e in claim["experiments"]})
                for side, good in SIDES}


CLAIM_KINDS = {"oracle_exact": OracleExact, "exact_sign": ExactSign,
               "close_to_oracle": CloseToOracle, "regret_slope": RegretSlope,
               "regret_grows": RegretGrows, "spread_larger": SpreadLarger,
               "scaled_flat": ScaledFlat,
               "run_frequency": RunFrequency, "slope_at_most": SlopeAtMost,
               "slope_at_least": SlopeAtLeast, "printed_statement": PrintedStatement}
