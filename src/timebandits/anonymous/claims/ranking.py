"""Claim kinds of "Adaptive Algorithms for Multi-armed Bandit with Composite and Anonymous
Feedback" that rank an algorithm against its rivals by the regret at T.

  best_in_most    (statistical) ``algorithm`` is best or close to it "in most instances": in each
                  experiment, for every rival, a one-sided test that its ``statistic`` at T (the
                  mean regret: paired t-test; the run-to-run sd: paired bootstrap of the log sd
                  ratio) is below (1 + ``tolerance``) × the rival's. An experiment counts as a
                  win when every rival's test passes, as a loss when some rival is significantly
                  better by more than the tolerance; the claim needs wins in more than half.
                  As in wins_in_settings, a win's tests are at α/m over the m instances (any
                  majority of them may be the wins), a loss's at α/(m·r) over r rivals.
  not_worse_by    (statistical) 2.2's "doing so does not cause excessive regret compared to
                  UCB": ``algorithm``'s metric at T is below (1 + ``margin``) × ``reference``'s,
                  a paired one-sided t-test per experiment (common random numbers make the
                  pairs). A non-inferiority test: "not excessive" is not "better", so the
                  algorithm may lose by less than the margin.
"""

from __future__ import annotations

import numpy as np

from timebandits.core.sim.seeding import check_seed
from timebandits.core.verdicts.comparisons import standard_error
from timebandits.core.verdicts.context import ClaimContext, paired_verdict
from timebandits.core.verdicts.decidability import linear, scale, with_curves
from timebandits.core.verdicts.declared import DeclaredCheck
from timebandits.core.verdicts.stats import paired_one_sided
from timebandits.core.verdicts.thresholds import LOWER, Threshold, threshold
from timebandits.core.verdicts.vocabulary import (
    INCONCLUSIVE,
    NOT_REPRODUCED,
    REPRODUCED,
    STATISTICAL,
)

STATISTICS = ("mean", "sd")


def _resampled_spreads(x: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """The sample sd of each bootstrap resample ``x[idx[b]]``."""
    return x[idx].std(axis=1, ddof=1)


def _spread_draws(claim, ctx: ClaimContext, n_boot: int) -> dict:
    """For each (experiment, rival) of a best_in_most claim on the sd, in the order the claim
    tests them: the sds of the resamples of its two paired bootstraps (ours' and the rival's
    under the first resampling, the rival's and ours under the second), drawn from the claim's
    own stream. They do not depend on the tolerance, so they are made once per context and the
    claim's re-evaluations at other tolerances (core/verdicts/firmness.py) read them again."""

    def draw():
        rng = np.random.default_rng(check_seed(ctx.config["base_seed"], "anonymous", claim["id"]))
        out = {}
        for exp in claim["experiments"]:
            for rival in claim["rivals"]:
                ours, theirs = ctx.paired(exp, claim["algorithm"], rival, "regret")
                first = rng.integers(0, ours.size, size=(n_boot, ours.size))
                second = rng.integers(0, ours.size, size=(n_boot, ours.size))
                out[exp, rival] = (
                    _resampled_spreads(ours, first),
                    _resampled_spreads(theirs, first),
                    _resampled_spreads(theirs, second),
                    _resampled_spreads(ours, second),
                )
        return out

    return ctx.memo(("spread_draws", claim["id"], n_boot), draw)


def _spread_test(spreads: tuple, scale: float) -> dict:
    """Paired bootstrap over runs of log sd(first) − log sd(second), from the two arrays of
    resampled sds: p_claimed = the share of resamples with it ≥ 0, p_opposite = the share with
    it ≤ 0, among the resamples where both sds are positive relative to ``scale``, the largest
    |value| (one that repeats a single run has no spread to compare: with 3 runs it is 1 in 9,
    and rounding then gave a random sign)."""
    valid = (spreads[0] > 1e-12 * scale) & (spreads[1] > 1e-12 * scale)
    if not valid.any():
        return {"p_claimed": float("nan"), "p_opposite": float("nan")}
    log_ratio = np.log(spreads[0][valid]) - np.log(spreads[1][valid])
    return {
        "p_claimed": float(np.mean(log_ratio >= 0.0)),
        "p_opposite": float(np.mean(log_ratio <= 0.0)),
    }


class BestInMost(DeclaredCheck):
    evidence = STATISTICAL
    keys = ("experiments", "algorithm", "rivals", "statistic")
    thresholds = (Threshold("tolerance", LOWER, low=0.0),)
    optional = ()

    runs, choices = ("experiments", "algorithm", "rivals"), {"statistic": STATISTICS}

    @classmethod
    def evaluate(cls, claim, ctx: ClaimContext) -> list[dict]:
        ratio = 1.0 + threshold(cls, claim, "tolerance")
        n = len(claim["experiments"])
        need = n // 2 + 1
        win_level = ctx.alpha if need >= n else ctx.alpha / n
        loss_level = ctx.alpha / (n * len(claim["rivals"]))
        ours_id = claim["algorithm"]
        n_boot = int(ctx.config["claims"]["bootstrap_samples"])
        spreads = _spread_draws(claim, ctx, n_boot) if claim["statistic"] == "sd" else {}
        rows, wins, losses = [], [], []
        for exp in claim["experiments"]:
            verdicts, worst = [], None
            for rival in claim["rivals"]:
                ours, theirs = ctx.paired(exp, ours_id, rival, "regret")
                if claim["statistic"] == "mean":
                    test = paired_one_sided(ours, ratio * theirs)
                    value, other = ours.mean(), theirs.mean()
                    # the opposite claim, "the rival is better by more than the tolerance"
                    opposite = paired_one_sided(ratio * theirs, ours)["p_claimed"]
                else:
                    ours_1, theirs_1, theirs_2, ours_2 = spreads[exp, rival]
                    scale = np.maximum(np.abs(ours).max(), np.abs(ratio * theirs).max())
                    test = _spread_test((ours_1, ratio * theirs_1), scale)
                    value, other = ours.std(ddof=1), theirs.std(ddof=1)
                    opposite = _spread_test((ratio * theirs_2, ours_2), scale)["p_claimed"]
                verdict = (
                    REPRODUCED
                    if test["p_claimed"] < win_level
                    else NOT_REPRODUCED
                    if opposite < loss_level
                    else INCONCLUSIVE
                )
                verdicts.append(verdict)
                if worst is None or value / other > worst[1]:
                    worst = (rival, value / other, test["p_claimed"])
            won = all(v == REPRODUCED for v in verdicts)
            lost = any(v == NOT_REPRODUCED for v in verdicts)
            (wins if won else losses if lost else []).append(exp)
            outcome = (
                "best or within the tolerance"
                if won
                else ("a rival is better by more than the tolerance" if lost else "undecided")
            )
            rows.append(
                {
                    "scope": exp,
                    "role": "supports",
                    "verdict": REPRODUCED if won else NOT_REPRODUCED if lost else INCONCLUSIVE,
                    "headline": (
                        f"{outcome}; largest {claim['statistic']} ratio "
                        f"{worst[1]:.3g} (vs {ctx.label(worst[0])})"
                    ),
                    "statistic": (
                        f"{claim['statistic']} of the regret at T, {ctx.label(ours_id)} over "
                        f"each rival; the largest is {worst[1]:.3g} against "
                        f"{ctx.label(worst[0])} (test of < {ratio:g}: p = {worst[2]:.2g})"
                    ),
                }
            )
        undecided = n - len(wins) - len(losses)
        verdict = (
            REPRODUCED
            if len(wins) >= need
            else NOT_REPRODUCED
            if len(wins) + undecided < need
            else INCONCLUSIVE
        )
        best = "best" if ratio == 1 else f"best or within {ratio - 1:.0%}"
        rows.insert(
            0,
            {
                "scope": "all instances",
                "verdict": verdict,
                "headline": f"{best} in {len(wins)}/{n} instances, needs {need}",
                "statistic": (
                    f"{ctx.label(ours_id)}'s {claim['statistic']} regret at T below "
                    f"{ratio:g} × every rival's (one-sided tests at "
                    + (f"α = {win_level:.2g}" if need >= n else f"α/{n} = {win_level:.2g}")
                    + f") in {len(wins)}/{n} instances ({', '.join(wins) or 'none'}); a rival "
                    f"significantly better by more (at {loss_level:.2g}) in "
                    f"{', '.join(losses) or 'none'}; needs more than half"
                ),
            },
        )
        return rows

    @classmethod
    def witnesses(cls, claim, ctx):
        """Every rival's regret at 3 × ours (favourable: ours smaller in mean and in sd in every
        instance), or ours at 3 (1 + tolerance) × every rival's (unfavourable)."""
        ours, rivals = claim["algorithm"], claim["rivals"]
        worse = 3.0 * (1.0 + threshold(cls, claim, "tolerance"))
        s = scale(ctx, claim["experiments"], [ours, *rivals], "regret", headroom=worse)
        return {
            "favourable": with_curves(
                ctx, "regret", {ours: linear(s), **{r: linear(3.0 * s) for r in rivals}}
            ),
            "unfavourable": with_curves(
                ctx, "regret", {ours: linear(worse * s), **{r: linear(s) for r in rivals}}
            ),
        }


class NotWorseBy(DeclaredCheck):
    """metric(algorithm) < (1 + margin) · metric(reference) at T, paired over runs, in every
    experiment (a metric to minimise: a regret)."""

    evidence = STATISTICAL
    keys = ("experiments", "metric", "algorithm", "reference")
    thresholds = (Threshold("margin", LOWER, low=0.0),)
    optional = ()

    runs = ("experiments", "algorithm", "reference")

    @classmethod
    def evaluate(cls, claim, ctx: ClaimContext) -> list[dict]:
        factor = 1.0 + threshold(cls, claim, "margin")
        metric, ours_id, ref_id = claim["metric"], claim["algorithm"], claim["reference"]
        rows = []
        for exp in claim["experiments"]:
            ours, ref = ctx.paired(exp, ours_id, ref_id, metric)
            test = paired_one_sided(ours, factor * ref)
            ratio = f"{ours.mean() / ref.mean():.3g}" if ref.mean() > 0 else "undefined"
            below = int(np.sum(ours < factor * ref))
            rows.append(
                {
                    "scope": f"{exp} {ctx.label(ours_id)} vs {ctx.label(ref_id)}",
                    "verdict": paired_verdict(test, ctx.alpha),
                    "headline": f"ratio {ratio} (needs < {factor:g}); {below}/{ours.size} runs "
                    "below",
                    "statistic": (
                        f"{metric} at T: {ctx.label(ours_id)} {ours.mean():.4g} ± "
                        f"{standard_error(ours):.2g} vs {ctx.label(ref_id)} "
                        f"{ref.mean():.4g} ± {standard_error(ref):.2g} (mean ± s.e.); "
                        f"ratio of the means {ratio}, needs < {factor:g}; paired t = "
                        f"{test['t']:.2f}, p = {test['p_claimed']:.2g}"
                    ),
                    "p_claimed": test["p_claimed"],
                    "p_opposite": test["p_opposite"],
                }
            )
        return rows

    @classmethod
    def witnesses(cls, claim, ctx):
        """The algorithm at a third of the reference (favourable), or at 3 (1 + margin) times
        it (unfavourable)."""
        factor = 1.0 + threshold(cls, claim, "margin")
        ours, ref = claim["algorithm"], claim["reference"]
        s = scale(ctx, claim["experiments"], [ours, ref], claim["metric"], headroom=3 * factor)
        return {
            "favourable": with_curves(ctx, claim["metric"], {ours: linear(s), ref: linear(3 * s)}),
            "unfavourable": with_curves(
                ctx, claim["metric"], {ours: linear(3 * factor * s), ref: linear(s)}
            ),
        }
