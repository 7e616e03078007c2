"""Two more claim kinds of "Adaptive Algorithms for Multi-armed Bandit with Composite and
Anonymous Feedback" (the others are in claims.py, which registers these too).

  log_growth_each  (statistical) core's log_growth for each algorithm of ``algorithms``: 4.1's
                   "the cumulative regrets of ARS-UCB are always logarithmic in T" is said of
                   every curve of Figs. 2-4, every α and f tried, not of one. One sub-check per
                   (experiment, algorithm), each core.verdicts.growth.LogGrowth's. Optional ``panels``
                   ({experiment: [algorithms]}) names the curves judged on an experiment where
                   they are not all of ``algorithms`` (the sweep a panel plots).
  not_worse_by     (statistical) 2.2's "doing so does not cause excessive regret compared to
                   UCB": ``algorithm``'s metric at T is below (1 + ``margin``) × ``reference``'s,
                   a paired one-sided t-test per experiment (common random numbers make the
                   pairs). A non-inferiority test: "not excessive" is not "better", so the
                   algorithm may lose by less than the margin.
"""

from __future__ import annotations

import numpy as np

from timebandits.core.verdicts.comparisons import standard_error
from timebandits.core.verdicts.context import ClaimContext, check_run, paired_verdict
from timebandits.core.verdicts.decidability import linear, power, scale, with_curves
from timebandits.core.verdicts.growth import LogGrowth
from timebandits.core.verdicts.stats import paired_one_sided
from timebandits.core.verdicts.thresholds import LOWER, Threshold, check_keys, threshold
from timebandits.core.verdicts.vocabulary import STATISTICAL


class LogGrowthEach:
    """LogGrowth (core/verdicts/growth.py) of every algorithm of ``algorithms`` (or of ``panels``'s list for
    the experiment) on every experiment: reproduced only if every curve's slope CI lies within
    [min_slope, max_slope]."""

    evidence = STATISTICAL
    keys = ("experiments", "algorithms", "metric")
    thresholds = LogGrowth.thresholds
    optional = (*LogGrowth.optional, "panels")

    @classmethod
    def _one(cls, claim, algorithm, experiments):
        one = {k: v for k, v in claim.items() if k not in ("algorithms", "panels")}
        return {**one, "algorithm": algorithm, "experiments": list(experiments)}

    @classmethod
    def curves(cls, claim) -> list[tuple[str, str]]:
        """(experiment, algorithm) of every curve judged, experiment by experiment."""
        panels = claim.get("panels") or {}
        return [(exp, alg) for exp in claim["experiments"]
                for alg in panels.get(exp, claim["algorithms"])]

    @classmethod
    def check(cls, claim, paper):
        check_keys(cls, claim)
        if not claim["algorithms"]:
            raise ValueError("algorithms must name at least one algorithm")
        panels = claim.get("panels") or {}
        if not isinstance(panels, dict):
            raise ValueError(f"panels must map experiments to algorithms, got {panels!r}")
        for exp, algorithms in panels.items():
            if exp not in claim["experiments"] or not isinstance(algorithms, list) \
                    or not set(algorithms) <= set(claim["algorithms"]) or not algorithms:
                raise ValueError(f"panels: {exp!r} must be one of the claim's experiments, with "
                                 f"a non-empty list of its algorithms, got {algorithms!r}")
        for exp, algorithm in cls.curves(claim):
            LogGrowth.check(cls._one(claim, algorithm, [exp]), paper)

    @classmethod
    def evaluate(cls, claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        for exp, algorithm in cls.curves(claim):
            for row in LogGrowth.evaluate(cls._one(claim, algorithm, [exp]), ctx):
                rows.append({**row, "scope": f"{row['scope']} {ctx.label(algorithm)}"})
        return rows

    @classmethod
    def witnesses(cls, claim, ctx):
        """Every curve at the middle of the claimed range of slopes (logarithmic where it
        admits 0), or every one 0.6 above its upper end (as LogGrowth's)."""
        high = threshold(cls, claim, "max_slope")
        low = threshold(cls, claim, "min_slope")
        inside = 0.0 if low <= 0.0 <= high else (max(low, high - 1.0) + high) / 2
        s = scale(ctx, claim["experiments"], claim["algorithms"], claim["metric"])
        return {side: with_curves(ctx, claim["metric"],
                                  {a: power(s, slope) for a in claim["algorithms"]})
                for side, slope in (("favourable", inside), ("unfavourable", high + 0.6))}


class NotWorseBy:
    """metric(algorithm) < (1 + margin) · metric(reference) at T, paired over runs, in every
    experiment (a metric to minimise: a regret)."""

    evidence = STATISTICAL
    keys = ("experiments", "metric", "algorithm", "reference")
    thresholds = (Threshold("margin", LOWER, low=0.0),)
    optional = ()

    @classmethod
    def check(cls, claim, paper):
        check_keys(cls, claim)
        check_run(paper, claim["experiments"], [claim["algorithm"], claim["reference"]])

    @classmethod
    def evaluate(cls, claim, ctx: ClaimContext) -> list[dict]:
        factor = 1.0 + threshold(cls, claim, "margin")
        metric, ours_id, ref_id = claim["metric"], claim["algorithm"], claim["reference"]
        rows = []
        for exp in claim["experiments"]:
            ours, ref = ctx.paired(exp, ours_id, ref_id, metric)
            test = paired_one_sided(ours, factor * ref)
            ratio = (f"{ours.mean() / ref.mean():.3g}" if ref.mean() > 0 else "undefined")
            below = int(np.sum(ours < factor * ref))
            rows.append({
                "scope": f"{exp} {ctx.label(ours_id)} vs {ctx.label(ref_id)}",
                "verdict": paired_verdict(test, ctx.alpha),
                "headline": f"ratio {ratio} (needs < {factor:g}); {below}/{ours.size} runs below",
                "statistic": (f"{metric} at T: {ctx.label(ours_id)} {ours.mean():.4g} ± "
                              f"{standard_error(ours):.2g} vs {ctx.label(ref_id)} "
                              f"{ref.mean():.4g} ± {standard_error(ref):.2g} (mean ± s.e.); "
                              f"ratio of the means {ratio}, needs < {factor:g}; paired t = "
                              f"{test['t']:.2f}, p = {test['p_claimed']:.2g}"),
                "p_claimed": test["p_claimed"], "p_opposite": test["p_opposite"],
            })
        return rows

    @classmethod
    def witnesses(cls, claim, ctx):
        """The algorithm at a third of the reference (favourable), or at 3 (1 + margin) times
        it (unfavourable)."""
        factor = 1.0 + threshold(cls, claim, "margin")
        ours, ref = claim["algorithm"], claim["reference"]
        s = scale(ctx, claim["experiments"], [ours, ref], claim["metric"], headroom=3 * factor)
        return {"favourable": with_curves(ctx, claim["metric"],
                                          {ours: linear(s), ref: linear(3 * s)}),
                "unfavourable": with_curves(ctx, claim["metric"],
                                            {ours: linear(3 * factor * s), ref: linear(s)})}


CLAIM_KINDS = {
    "log_growth_each": LogGrowthEach,
    "not_worse_by": NotWorseBy,
}
