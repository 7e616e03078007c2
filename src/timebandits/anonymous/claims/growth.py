"""The growth claim kind of "Adaptive Algorithms for Multi-armed Bandit with Composite and
Anonymous Feedback": core's log_growth over several algorithms.

  log_growth_each  (statistical) core's log_growth for each algorithm of ``algorithms``: 4.1's
                   "the cumulative regrets of ARS-UCB are always logarithmic in T" is said of
                   every curve of Figs. 2-4, every α and f tried, not of one. One sub-check per
                   (experiment, algorithm), each core.verdicts.growth.LogGrowth's. Optional
                   ``panels`` ({experiment: [algorithms]}) names the curves judged on an
                   experiment where they are not all of ``algorithms`` (the sweep a panel plots).
"""

from __future__ import annotations

from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.decidability import power, scale, with_curves
from timebandits.core.verdicts.growth import LogGrowth
from timebandits.core.verdicts.thresholds import check_keys, threshold
from timebandits.core.verdicts.vocabulary import STATISTICAL


class LogGrowthEach:
    """LogGrowth (core/verdicts/growth.py) of every algorithm of ``algorithms`` (or of
    ``panels``'s list for the experiment) on every experiment: reproduced only if every curve's
    slope CI lies within [min_slope, max_slope]."""

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
        return [
            (exp, alg)
            for exp in claim["experiments"]
            for alg in panels.get(exp, claim["algorithms"])
        ]

    @classmethod
    def check(cls, claim, paper):
        check_keys(cls, claim)
        if not claim["algorithms"]:
            raise ValueError("algorithms must name at least one algorithm")
        panels = claim.get("panels") or {}
        if not isinstance(panels, dict):
            raise ValueError(f"panels must map experiments to algorithms, got {panels!r}")
        for exp, algorithms in panels.items():
            if (
                exp not in claim["experiments"]
                or not isinstance(algorithms, list)
                or not set(algorithms) <= set(claim["algorithms"])
                or not algorithms
            ):
                raise ValueError(
                    f"panels: {exp!r} must be one of the claim's experiments, with "
                    f"a non-empty list of its algorithms, got {algorithms!r}"
                )
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
        return {
            side: with_curves(
                ctx, claim["metric"], {a: power(s, slope) for a in claim["algorithms"]}
            )
            for side, slope in (("favourable", inside), ("unfavourable", high + 0.6))
        }
