"""The continuous claim kind run_frequency: a per-run event of a lemma holds with probability
≥ level (spec §7; the list in claims/__init__.py)."""

from __future__ import annotations

import numpy as np

from timebandits.core.verdicts.context import ClaimContext, fraction_test
from timebandits.core.verdicts.decidability import derived
from timebandits.core.verdicts.declared import DeclaredCheck
from timebandits.core.verdicts.thresholds import HIGHER, Threshold, threshold
from timebandits.core.verdicts.vocabulary import INCONCLUSIVE, STATISTICAL

from ..simulation import algorithm_params, learner_epsilon
from ..theory import lemma13_i_star_bound
from .common import SIDES, instance, shown

EVENTS = ("lemma13", "lemma15", "lemma22", "identified")


def _event(claim: dict, ctx: ClaimContext, exp: str) -> tuple[np.ndarray, str]:
    """Per run: does the event hold (NaN: not judged), and what was judged."""
    algorithm = claim["algorithm"]
    means, _, horizon = instance(ctx, exp)
    mu = means.max()
    event = claim["event"]
    if event == "lemma13":
        epsilon = learner_epsilon(algorithm_params(ctx.paper["algorithms"][algorithm]), horizon)
        bound = lemma13_i_star_bound(mu, horizon, epsilon)
        i_star = ctx.final(exp, algorithm, "i_star")
        return ((i_star >= 1) & (i_star <= bound)).astype(float), f"1 ≤ i* ≤ ⌈p*/ε⌉ + 1 = {bound}"
    if event == "identified":
        finished = (ctx.final(exp, algorithm, "i_star") >= 1) & (
            ctx.final(exp, algorithm, "id_cut") == 0
        )
        return (
            np.where(finished, ctx.final(exp, algorithm, "identified"), np.nan),
            "LUCB1 returns arm 1 (runs whose identification finished before T)",
        )
    estimate = ctx.final(exp, algorithm, "stop_estimate")
    if event == "lemma15":
        return np.where(np.isnan(estimate), np.nan, np.abs(estimate - mu) < mu), "|μ̂ − μ| < μ"
    inside = (estimate >= 2 * mu / 3) & (estimate <= 2 * mu)
    return np.where(np.isnan(estimate), np.nan, inside), "(2/3)μ1 ≤ μ̂[1] ≤ 2μ1"


class RunFrequency(DeclaredCheck):
    evidence = STATISTICAL
    keys = ("experiments", "algorithm", "event")
    thresholds = (Threshold("level", HIGHER, low=0.0, high=1.0, open_low=True, open_high=True),)
    optional = ()

    runs, choices = ("experiments", "algorithm"), {"event": EVENTS}

    @classmethod
    def evaluate(cls, claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        level = threshold(cls, claim, "level")
        for exp in claim["experiments"]:
            holds, what = _event(claim, ctx, exp)
            holds = np.asarray(ctx.quantity(f"event:{exp}", lambda: holds), dtype=float)
            judged = holds[~np.isnan(holds)]
            successes, n = int(judged.sum()), int(judged.size)
            if n == 0:
                rows.append(
                    {
                        "scope": exp,
                        "verdict": INCONCLUSIVE,
                        "headline": "no run reached the event",
                        "statistic": what,
                    }
                )
                continue
            test = fraction_test(successes, n, level, ctx.alpha)
            rows.append(
                {
                    "scope": exp,
                    "verdict": test["verdict"],
                    "headline": f"{successes}/{n} runs with {what} (needs ≥ {level:.3g})",
                    "statistic": (
                        f"{what} in {successes} of {n} judged runs ({holds.size - n} not "
                        f"judged); exact binomial p = {shown(test['p_claimed'], 2)} for a rate "
                        f"above {level:.3g}, {shown(test['p_opposite'], 2)} for one below"
                    ),
                    "p_claimed": test["p_claimed"],
                    "p_opposite": test["p_opposite"],
                }
            )
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """The event in every run that reached it, or in none: a run the real data leave
        undecided stays undecided, so the witness never counts more runs than reached the
        event. With n runs at level q, all n give p = qⁿ: "reproduced" needs qⁿ < α (59 runs
        at 0.95)."""
        return {
            side: derived(
                ctx,
                overrides={
                    f"event:{e}": (lambda h, v=float(good): np.where(np.isnan(h), np.nan, v))
                    for e in claim["experiments"]
                },
            )
            for side, good in SIDES
        }
