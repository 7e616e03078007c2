"""Claim kinds of "Bandits with Censored Consumption of Resources" on the censoring tables of
§5.1 and App. F.1: the runs' share of censored rounds against the exact P(C > τ*) of the optimal
pair (analysis.truth_of, analysis.censored_share), and a witness that sets the runs' share
(core/verdicts/decidability.py).

  censoring_near_truth   (statistical) each algorithm's censored proportion over the T rounds is
                         within ``tolerance`` of the exact P(C > τ*) of the optimal pair: two
                         one-sided t-tests over runs (TOST), p = the larger one.
  censoring_above_truth  (statistical) each algorithm's censored proportion exceeds P(C > τ*) by
                         more than ``margin`` ("much higher than the ground truth", §5.1): a
                         one-sided t-test over runs.
"""

from __future__ import annotations

from timebandits.core.verdicts.context import paired_verdict
from timebandits.core.verdicts.decidability import SPREAD, linear, with_curves
from timebandits.core.verdicts.declared import DeclaredCheck
from timebandits.core.verdicts.stats import equivalence_test, one_sided_t
from timebandits.core.verdicts.thresholds import HIGHER, LOWER, Threshold, threshold
from timebandits.core.verdicts.vocabulary import STATISTICAL

from ..analysis import censored_share, truth_of


def with_shares(ctx, claim, share_of) -> object:
    """A witness whose censored proportion at T is ``share_of(truth)`` for every algorithm of
    every experiment (spread ±1% over runs), or None where ``share_of`` gives None."""
    levels = {}
    for exp in claim["experiments"]:
        share = share_of(truth_of(ctx.paper, exp))
        if share is None:
            return None
        for alg in claim["algorithms"]:
            horizon = float(ctx.trace(exp, alg)["t"].max())
            levels[(exp, alg)] = linear(share * horizon)
    return with_curves(ctx, "censored", levels)


# The largest share a witness can give every run: its spread must keep each run's share ≤ 1.
TOP_SHARE = 1.0 / (1.0 + SPREAD)


class CensoredShareKind(DeclaredCheck):
    """What both kinds share: each algorithm's censored share over the runs of each experiment,
    against the exact P(C > τ*) of the optimal pair, judged by the kind's ``judge`` with its one
    threshold: a sub-check row per (experiment, algorithm)."""

    evidence = STATISTICAL
    keys = ("experiments", "algorithms")
    optional = ()

    runs = ("experiments", "algorithms")

    @classmethod
    def evaluate(cls, claim, ctx):
        rows, value = [], threshold(cls, claim, cls.thresholds[0].name)
        for exp in claim["experiments"]:
            truth = truth_of(ctx.paper, exp)
            for alg in claim["algorithms"]:
                share = censored_share(ctx.trace(exp, alg))
                test, headline, statistic = cls.judge(share, truth, value)
                rows.append(
                    {
                        "scope": f"{exp} {ctx.label(alg)}",
                        "verdict": paired_verdict(test, ctx.alpha),
                        "headline": headline,
                        "statistic": statistic,
                        **test,
                    }
                )
        return rows


class CensoringNearTruth(CensoredShareKind):
    thresholds = (Threshold("tolerance", LOWER, low=0.0, open_low=True),)

    @staticmethod
    def judge(share, truth, tol):
        """TOST of the share against truth ± ``tol``."""
        test = equivalence_test(share, truth, tol)
        p_near, p_far = test["p_claimed"], test["p_opposite"]
        return (
            test,
            f"{share.mean():.4f} vs truth {truth:.4f} (±{tol:g})",
            (
                f"censored share {share.mean():.4f} (sd {share.std(ddof=1):.4f} "
                f"over {share.size} runs) vs exact P(C > τ*) = {truth:.4f}; "
                f"equivalence margin ±{tol:g}: TOST p = {p_near:.2g}, "
                f"outside the margin p = {p_far:.2g}"
            ),
        )

    @classmethod
    def witnesses(cls, claim, ctx):
        """Every run at the exact truth, or at whichever end of [0, 1] lies farther from it
        (none if even that end is within the tolerance: the claim cannot then be refuted)."""
        tol = threshold(cls, claim, "tolerance")

        def far(truth):
            end = 0.0 if truth > 0.5 else TOP_SHARE
            return end if abs(end - truth) > tol else None

        out = {
            "favourable": with_shares(ctx, claim, lambda truth: truth),
            "unfavourable": with_shares(ctx, claim, far),
        }
        return {k: v for k, v in out.items() if v is not None}


class CensoringAboveTruth(CensoredShareKind):
    thresholds = (Threshold("margin", HIGHER, low=0.0),)

    @staticmethod
    def judge(share, truth, margin):
        """One-sided t-test of the share above truth + ``margin``."""
        test = {
            "p_claimed": one_sided_t(share, truth + margin, below=False),
            "p_opposite": one_sided_t(share, truth + margin, below=True),
        }
        return (
            test,
            f"{share.mean():.4f} vs truth {truth:.4f} (needs > truth + {margin:g})",
            (
                f"censored share {share.mean():.4f} (sd {share.std(ddof=1):.4f} "
                f"over {share.size} runs) vs exact P(C > τ*) = {truth:.4f} + "
                f"margin {margin:g}: one-sided t-test p = {test['p_claimed']:.2g}, "
                f"below it p = {test['p_opposite']:.2g}"
            ),
        )

    @classmethod
    def witnesses(cls, claim, ctx):
        """Every run censoring (almost) every round, or censoring at exactly the truth."""
        margin = threshold(cls, claim, "margin")
        out = {
            "favourable": with_shares(
                ctx, claim, lambda truth: TOP_SHARE if TOP_SHARE > truth + margin else None
            ),
            "unfavourable": with_shares(ctx, claim, lambda truth: truth),
        }
        return {k: v for k, v in out.items() if v is not None}
