"""The run-to-run variation claim of "Bandits with Censored Consumption of Resources" (App. F.1,
F.3: Thompson sampling's regret varies more from run to run).

  larger_spread  (statistical) the run-to-run standard deviation of R_T of ``algorithm`` exceeds
                 that of each rival; paired bootstrap of the log sd ratio.
"""

from __future__ import annotations

import warnings

import numpy as np

from timebandits.core.sim.seeding import check_seed
from timebandits.core.verdicts.context import paired_verdict
from timebandits.core.verdicts.decidability import scale, with_runs
from timebandits.core.verdicts.declared import DeclaredCheck
from timebandits.core.verdicts.vocabulary import STATISTICAL


class LargerSpread(DeclaredCheck):
    evidence = STATISTICAL
    keys = ("experiments", "algorithm", "rivals", "metric")
    optional = ()

    runs = ("experiments", "algorithm", "rivals")

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
                    ratio = np.log(ours[idx].std(axis=1, ddof=1)) - np.log(
                        theirs[idx].std(axis=1, ddof=1)
                    )
                    sd_ours, sd_theirs = ours.std(ddof=1), theirs.std(ddof=1)
                    shown = sd_ours / sd_theirs
                test = {
                    "p_claimed": float(np.mean(~(ratio > 0.0))),
                    "p_opposite": float(np.mean(~(ratio < 0.0))),
                }
                rows.append(
                    {
                        "scope": f"{exp} {ctx.label(claim['algorithm'])} vs {ctx.label(rival)}",
                        "verdict": paired_verdict(test, ctx.alpha),
                        "headline": f"sd {sd_ours:.4g} vs {sd_theirs:.4g}",
                        "statistic": (
                            f"run-to-run sd of {claim['metric']} at T: "
                            f"{ctx.label(claim['algorithm'])} {sd_ours:.4g} vs "
                            f"{ctx.label(rival)} {sd_theirs:.4g} (ratio {shown:.3g}); "
                            f"paired bootstrap of the log ratio, p = {test['p_claimed']:.2g}"
                        ),
                        **test,
                    }
                )
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """The same mean curve for all; ``algorithm`` spread ±50% over runs and the rivals ±5%
        (favourable), or the reverse."""
        s = scale(
            ctx,
            claim["experiments"],
            [claim["algorithm"], *claim["rivals"]],
            claim["metric"],
            headroom=1.5,
        )

        def curve(width):
            return lambda t, z: s * t / t.max() * (1.0 + width * z)

        out = {}
        for side, (wide, narrow) in (("favourable", (0.5, 0.05)), ("unfavourable", (0.05, 0.5))):
            out[side] = with_runs(
                ctx,
                claim["metric"],
                {claim["algorithm"]: curve(wide), **{r: curve(narrow) for r in claim["rivals"]}},
            )
        return out
