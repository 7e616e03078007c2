"""Claim kinds of "Bandits with Censored Consumption of Resources" beyond the generic ones
(core/verdicts/claims.py): the censoring tables of §5.1 and App. F.1, the run-to-run variation of TS
(App. F.1, F.3); the registry of every censored kind. The superiority comparisons (§5.1, F.1,
§5.2) are in claims_gaps.py, the exact and theory kinds (printed truths, Theorem 1 vs
Corollary 14, Proposition 1) in claims_theory.py.

  censoring_near_truth   (statistical) each algorithm's censored proportion over the T rounds is
                         within ``tolerance`` of the exact P(C > τ*) of the optimal pair: two
                         one-sided t-tests over runs (TOST), p = the larger one.
  censoring_above_truth  (statistical) each algorithm's censored proportion exceeds P(C > τ*) by
                         more than ``margin`` ("much higher than the ground truth", §5.1): a
                         one-sided t-test over runs.
  larger_spread          (statistical) the run-to-run standard deviation of R_T of ``algorithm``
                         exceeds that of each rival; paired bootstrap of the log sd ratio.

Every kind has ``witnesses(claim, ctx)`` (core/verdicts/decidability.py): the claim's own traces with the
data it reads replaced by the most favourable and the most unfavourable the setting allows.
"""

from __future__ import annotations

import warnings

import numpy as np

from timebandits.core.sim.seeding import check_seed
from timebandits.core.verdicts.context import check_run, paired_verdict
from timebandits.core.verdicts.decidability import scale, with_runs
from timebandits.core.verdicts.stats import equivalence_test, one_sided_t
from timebandits.core.verdicts.thresholds import HIGHER, LOWER, Threshold, check_keys, threshold
from timebandits.core.verdicts.vocabulary import STATISTICAL

from .claims_censoring import TOP_SHARE, censored_share, truth_of, with_shares
from .claims_gaps import ExceedsThroughout, RelativeGapOrder, SuperiorityGrows
from .claims_printed import HigherLimits, PrintedOptimum, PrintedShares
from .claims_theory import BoundRatio, Coverage, PrintedTruth


class CensoringNearTruth:
    evidence = STATISTICAL
    keys = ("experiments", "algorithms")
    thresholds = (Threshold("tolerance", LOWER, low=0.0, open_low=True),)
    optional = ()

    @classmethod
    def check(cls, claim, paper):
        check_keys(cls, claim)
        check_run(paper, claim["experiments"], claim["algorithms"])

    @classmethod
    def evaluate(cls, claim, ctx):
        rows, tol = [], threshold(cls, claim, "tolerance")
        for exp in claim["experiments"]:
            truth = truth_of(ctx.paper, exp)
            for alg in claim["algorithms"]:
                share = censored_share(ctx.trace(exp, alg))
                test = equivalence_test(share, truth, tol)
                p_near, p_far = test["p_claimed"], test["p_opposite"]
                rows.append({
                    "scope": f"{exp} {ctx.label(alg)}", "verdict": paired_verdict(test, ctx.alpha),
                    "headline": f"{share.mean():.4f} vs truth {truth:.4f} (±{tol:g})",
                    "statistic": (f"censored share {share.mean():.4f} (sd {share.std(ddof=1):.4f} "
                                  f"over {share.size} runs) vs exact P(C > τ*) = {truth:.4f}; "
                                  f"equivalence margin ±{tol:g}: TOST p = {p_near:.2g}, "
                                  f"outside the margin p = {p_far:.2g}"),
                    **test})
        return rows

    @classmethod
    def witnesses(cls, claim, ctx):
        """Every run at the exact truth, or at whichever end of [0, 1] lies farther from it
        (none if even that end is within the tolerance: the claim cannot then be refuted)."""
        tol = threshold(cls, claim, "tolerance")

        def far(truth):
            end = 0.0 if truth > 0.5 else TOP_SHARE
            return end if abs(end - truth) > tol else None
        out = {"favourable": with_shares(ctx, claim, lambda truth: truth),
               "unfavourable": with_shares(ctx, claim, far)}
        return {k: v for k, v in out.items() if v is not None}


class CensoringAboveTruth:
    evidence = STATISTICAL
    keys = ("experiments", "algorithms")
    thresholds = (Threshold("margin", HIGHER, low=0.0),)
    optional = ()

    @classmethod
    def check(cls, claim, paper):
        check_keys(cls, claim)
        check_run(paper, claim["experiments"], claim["algorithms"])

    @classmethod
    def evaluate(cls, claim, ctx):
        rows, margin = [], threshold(cls, claim, "margin")
        for exp in claim["experiments"]:
            truth = truth_of(ctx.paper, exp)
            for alg in claim["algorithms"]:
                share = censored_share(ctx.trace(exp, alg))
                test = {"p_claimed": one_sided_t(share, truth + margin, below=False),
                        "p_opposite": one_sided_t(share, truth + margin, below=True)}
                rows.append({
                    "scope": f"{exp} {ctx.label(alg)}", "verdict": paired_verdict(test, ctx.alpha),
                    "headline": (f"{share.mean():.4f} vs truth {truth:.4f} (needs > truth + "
                                 f"{margin:g})"),
                    "statistic": (f"censored share {share.mean():.4f} (sd {share.std(ddof=1):.4f} "
                                  f"over {share.size} runs) vs exact P(C > τ*) = {truth:.4f} + "
                                  f"margin {margin:g}: one-sided t-test p = {test['p_claimed']:.2g}, "
                                  f"below it p = {test['p_opposite']:.2g}"),
                    **test})
        return rows

    @classmethod
    def witnesses(cls, claim, ctx):
        """Every run censoring (almost) every round, or censoring at exactly the truth."""
        margin = threshold(cls, claim, "margin")
        out = {"favourable": with_shares(
                   ctx, claim, lambda truth: TOP_SHARE if TOP_SHARE > truth + margin else None),
               "unfavourable": with_shares(ctx, claim, lambda truth: truth)}
        return {k: v for k, v in out.items() if v is not None}


class LargerSpread:
    evidence = STATISTICAL
    keys = ("experiments", "algorithm", "rivals", "metric")
    optional = ()

    @classmethod
    def check(cls, claim, paper):
        check_keys(cls, claim)
        check_run(paper, claim["experiments"], [claim["algorithm"], *claim["rivals"]])

    @staticmethod
    def evaluate(claim, ctx):
        """An undefined sd (fewer than 2 runs) or ratio (both sds 0) supports neither side."""
        rows = []
        rng = np.random.default_rng(check_seed(ctx.config["base_seed"], "censored", claim["id"]))
        n_boot = int(ctx.config["claims"]["bootstrap_samples"])
        for exp in claim["experiments"]:
            for rival in claim["rivals"]:
                ours, theirs = ctx.paired(exp, claim["algorithm"], rival, claim["metric"])
                idx = rng.integers(0, ours.size, size=(n_boot, ours.size))
                # log 0, 0/0 and one run's sd are undefined values here, not warnings
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", RuntimeWarning)
                    ratio = (np.log(ours[idx].std(axis=1, ddof=1))
                             - np.log(theirs[idx].std(axis=1, ddof=1)))
                    sd_ours, sd_theirs = ours.std(ddof=1), theirs.std(ddof=1)
                    shown = sd_ours / sd_theirs
                test = {"p_claimed": float(np.mean(~(ratio > 0.0))),
                        "p_opposite": float(np.mean(~(ratio < 0.0)))}
                rows.append({
                    "scope": f"{exp} {ctx.label(claim['algorithm'])} vs {ctx.label(rival)}",
                    "verdict": paired_verdict(test, ctx.alpha),
                    "headline": f"sd {sd_ours:.4g} vs {sd_theirs:.4g}",
                    "statistic": (f"run-to-run sd of {claim['metric']} at T: "
                                  f"{ctx.label(claim['algorithm'])} {sd_ours:.4g} vs "
                                  f"{ctx.label(rival)} {sd_theirs:.4g} (ratio {shown:.3g}); "
                                  f"paired bootstrap of the log ratio, p = {test['p_claimed']:.2g}"),
                    **test})
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """The same mean curve for all; ``algorithm`` spread ±50% over runs and the rivals ±5%
        (favourable), or the reverse."""
        s = scale(ctx, claim["experiments"], [claim["algorithm"], *claim["rivals"]], claim["metric"],
                  headroom=1.5)

        def curve(width):
            return lambda t, z: s * t / t.max() * (1.0 + width * z)
        out = {}
        for side, (wide, narrow) in (("favourable", (0.5, 0.05)), ("unfavourable", (0.05, 0.5))):
            out[side] = with_runs(ctx, claim["metric"], {claim["algorithm"]: curve(wide),
                                                         **{r: curve(narrow) for r in claim["rivals"]}})
        return out


CLAIM_KINDS = {"bound_ratio": BoundRatio, "censoring_above_truth": CensoringAboveTruth,
            "censoring_near_truth": CensoringNearTruth, "coverage": Coverage,
            "exceeds_throughout": ExceedsThroughout, "higher_limits": HigherLimits,
            "larger_spread": LargerSpread, "printed_optimum": PrintedOptimum,
            "printed_shares": PrintedShares,
            "printed_truth": PrintedTruth, "relative_gap_order": RelativeGapOrder,
            "superiority_grows": SuperiorityGrows}
