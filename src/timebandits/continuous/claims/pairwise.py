"""Continuous claim kinds that compare experiments pair by pair, a one-sided test each:
regret_grows (consecutive experiments, Welch) and spread_larger (``larger`` against each of
``smaller``, a bootstrap of the log sd ratio) (spec §7; the list in claims/__init__.py)."""

from __future__ import annotations

import math

import numpy as np

from timebandits.core.sim.seeding import check_seed
from timebandits.core.verdicts.context import ClaimContext, check_run, paired_verdict
from timebandits.core.verdicts.decidability import SPREAD, scale, with_runs
from timebandits.core.verdicts.declared import DeclaredCheck
from timebandits.core.verdicts.thresholds import check_keys
from timebandits.core.verdicts.vocabulary import STATISTICAL

from .common import SIDES, horizon_regrets, oracle_payoff, regret_scale, shown, with_regrets


class RegretGrows(DeclaredCheck):
    evidence = STATISTICAL
    keys = ("experiments", "algorithm")
    optional = ()

    runs, also_runs = ("experiments", "algorithm"), ("oracle",)

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        from scipy.stats import ttest_ind  # at first use: parsing the Snakefile, which checks
        # every claim's kind, need not load scipy.stats (0.9 s)

        rows = []
        exps = claim["experiments"]
        for first, second in zip(exps, exps[1:]):
            a, b = (
                horizon_regrets(ctx, first, claim["algorithm"]),
                horizon_regrets(ctx, second, claim["algorithm"]),
            )
            p_claimed = float(ttest_ind(b, a, equal_var=False, alternative="greater").pvalue)
            p_opposite = float(ttest_ind(b, a, equal_var=False, alternative="less").pvalue)
            test = {"p_claimed": p_claimed, "p_opposite": p_opposite}
            rows.append(
                {
                    "scope": f"{first} → {second}",
                    "verdict": paired_verdict(test, ctx.alpha),
                    "headline": f"regret {shown(a.mean(), 4)} → {shown(b.mean(), 4)}",
                    "statistic": (
                        f"mean regret at T {shown(a.mean(), 6)} ± "
                        f"{shown(a.std(ddof=1) / math.sqrt(a.size), 2)} "
                        f"then {shown(b.mean(), 6)} ± "
                        f"{shown(b.std(ddof=1) / math.sqrt(b.size), 2)}; "
                        f"one-sided Welch p = {shown(p_claimed, 2)} (opposite "
                        f"{shown(p_opposite, 2)})"
                    ),
                    **test,
                }
            )
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """Regret tripling from each experiment to the next, or falling to a third."""
        size = regret_scale(ctx, claim["experiments"], claim["algorithm"])
        return {
            side: with_regrets(
                ctx,
                claim["algorithm"],
                {
                    e: size * (3.0 if good else 1 / 3) ** j
                    for j, e in enumerate(claim["experiments"])
                },
            )
            for side, good in SIDES
        }


class SpreadLarger:
    """With ``relative: true`` the sd is divided by the oracle's payoff P* of its experiment:
    how wide the band looks on a panel whose axis spans 0 to P*."""

    evidence = STATISTICAL
    keys = ("larger", "smaller", "algorithm")
    optional = ("relative",)

    @classmethod
    def check(cls, claim, paper):
        check_keys(cls, claim)
        check_run(paper, [claim["larger"], *claim["smaller"]], [claim["algorithm"]])
        if not isinstance(claim.get("relative", False), bool):
            raise ValueError(f"relative must be true or false, got {claim['relative']!r}")

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        rng = np.random.default_rng(check_seed(ctx.config["base_seed"], "continuous", claim["id"]))
        n_boot = int(ctx.config["claims"]["bootstrap_samples"])
        relative = claim.get("relative", False)

        def payoffs(exp):
            values = ctx.final(exp, claim["algorithm"], "payoff")
            return values / oracle_payoff(ctx, exp) if relative else values

        wide = payoffs(claim["larger"])
        rows = []
        what = "sd of the payoff at T / P*" if relative else "run-to-run sd of the payoff at T"
        for other in claim["smaller"]:
            narrow = payoffs(other)
            resampled_wide = wide[rng.integers(0, wide.size, (n_boot, wide.size))].std(
                axis=1, ddof=1
            )
            resampled_narrow = narrow[rng.integers(0, narrow.size, (n_boot, narrow.size))].std(
                axis=1, ddof=1
            )
            with np.errstate(divide="ignore", invalid="ignore"):
                log_ratio = np.log(resampled_wide) - np.log(resampled_narrow)
            # an undefined ratio (both sds 0, or fewer than 2 runs) supports neither side
            test = {
                "p_claimed": float(np.mean(~(log_ratio > 0))),
                "p_opposite": float(np.mean(~(log_ratio < 0))),
            }
            sd_wide, sd_narrow = wide.std(ddof=1), narrow.std(ddof=1)
            rows.append(
                {
                    "scope": f"{claim['larger']} vs {other}",
                    "verdict": paired_verdict(test, ctx.alpha),
                    "headline": f"sd {shown(sd_wide, 4)} against {shown(sd_narrow, 4)}",
                    "statistic": (
                        f"{what}: {shown(sd_wide, 6)} ({claim['larger']}) "
                        f"against {shown(sd_narrow, 6)} ({other}); bootstrap of the log ratio: "
                        f"p = {shown(test['p_claimed'], 2)} (opposite "
                        f"{shown(test['p_opposite'], 2)})"
                    ),
                    **test,
                }
            )
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """Payoffs with a 10 times wider spread over runs (±10% against ±1%) in ``larger`` than
        in each of ``smaller``, or 10 times narrower, around a mean every learner can have: the
        same size everywhere, or P*/1.1 in each experiment if the claim is relative to P* (the
        widest run then earns P*, the most a learner's mean can be)."""
        exps, algorithm = [claim["larger"], *claim["smaller"]], claim["algorithm"]
        wide = 10 * SPREAD
        if claim.get("relative", False):
            base = {e: oracle_payoff(ctx, e) / (1 + wide) for e in exps}
        else:
            size = scale(ctx, exps, [algorithm], "payoff", headroom=(1 + wide) / (1 + SPREAD))
            base = dict.fromkeys(exps, size)

        def payoffs(level, width):
            return lambda t, z: level * t / t.max() * (1 + width * z)

        return {
            side: with_runs(
                ctx,
                "payoff",
                {
                    (e, algorithm): payoffs(
                        base[e], wide if (e == claim["larger"]) == good else SPREAD
                    )
                    for e in exps
                },
                keep_undefined=False,
            )
            for side, good in SIDES
        }
