"""Exact claim kinds of "Stochastic Bandits with Delay-Dependent Payoffs": the printed mean gap of
Sect. 8 and the stage count behind the O(k ln ln T) switch bound (Sect. 1 and 6). Theorem 2
(Sect. 5) and Fact 1 (Sect. 8) are in exact_theorems.py, the errata in errata.py.

Each routes the quantity it decides on through ``ClaimContext.quantity`` (key ``<kind> ...``), so
its decidability witnesses (core/verdicts/decidability.py) replace it by the most favourable and
the most unfavourable value the setting allows and run the kind's own check on them."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from timebandits.core.verdicts.declared import DeclaredCheck
from timebandits.core.verdicts.thresholds import LOWER, Threshold, check_keys, threshold
from timebandits.core.verdicts.vocabulary import EXACT, NOT_REPRODUCED, REPRODUCED

from ..analysis import run_instances
from ..model import B2DEPProblem
from ..theory import stage_count, stage_count_closed_form
from ..uniform_delays import uniform_delay_statistics
from .witnesses import sides


@lru_cache(maxsize=4)
def _uniform_delay_statistics(environment_key):
    means, f_values, high = environment_key
    return uniform_delay_statistics(list(means), list(f_values), d_max=high)


class MeanGap:
    """Sect. 8 prints the gap between the best and the second best ranking policy as "0.1 on
    average" in the Fig. 2 experiments: the printed value against the exact mean over every
    delay vector of Fig. 2's uniform delays (each equally likely), within ``tolerance`` (half a
    unit in the printed digit: what any value that prints as the stated one may differ by)."""

    evidence = EXACT
    keys = ("experiment", "stated")
    thresholds = (Threshold("tolerance", LOWER, low=0.0, open_low=True),)
    optional = ()

    @classmethod
    def check(cls, claim, paper):
        check_keys(cls, claim)
        if claim["experiment"] not in paper["experiments"]:
            raise ValueError(f"unknown experiment {claim['experiment']!r}")
        delays = paper["experiments"][claim["experiment"]]["environment"]["delays"]
        if not isinstance(delays, dict) or delays["uniform"][0] != 1:
            raise ValueError(
                "mean_gap enumerates every delay vector: it needs an experiment "
                "with delays {uniform: [1, d_max]}"
            )

    @classmethod
    def evaluate(cls, claim, ctx) -> list[dict]:
        exp = ctx.paper["experiments"][claim["experiment"]]
        environment = exp["environment"]
        high = environment["delays"]["uniform"][1]
        problem = B2DEPProblem.from_config(environment, delays=[high] * len(environment["means"]))
        stats = _uniform_delay_statistics(
            (tuple(problem.means_exact), tuple(problem.f_exact), high)
        )
        mean_gap = float(ctx.quantity("mean_gap", lambda: stats["mean_gap"]))
        runs = run_instances(
            ctx.paper, claim["experiment"], ctx.trace(claim["experiment"], exp["algorithms"][0])
        )
        run_gaps = np.array([p.best_gap() for p in runs.values()])
        stated, tolerance = float(claim["stated"]), threshold(cls, claim, "tolerance")
        close = abs(mean_gap - stated) < tolerance
        return [
            {
                "scope": f"all {stats['n_vectors']} delay vectors",
                "verdict": REPRODUCED if close else NOT_REPRODUCED,
                "headline": f"exact mean gap {mean_gap:.4f} (printed {stated:g}, needs within ± "
                f"{tolerance:g})",
                "statistic": (
                    f"exact mean gap {mean_gap:.4f} (printed {stated:g} ± "
                    f"{tolerance:g}); median {stats['median_gap']:.4f}, minimum "
                    f"{float(stats['min_gap']):.3g} ({stats['n_ties']} exact ties), maximum "
                    f"{stats['max_gap']:.4f}; the {run_gaps.size} runs of "
                    f"{claim['experiment']} drew gaps with mean {run_gaps.mean():.4f}"
                ),
                "mean_gap": mean_gap,
            }
        ]

    @staticmethod
    def witnesses(claim, ctx):
        """The exact mean gap at the printed value, or at the end of its range [0, 1] (rewards
        are in [0, 1]) farther from it."""
        stated = float(claim["stated"])
        return sides(
            {"mean_gap": lambda _: stated},
            {"mean_gap": lambda _: 0.0 if stated > 0.5 else 1.0},
            ctx,
        )


class StageCount(DeclaredCheck):
    """The stage count S of π_low for horizon T (|A_s| = k) is at most ⌈log2 log2 T⌉ + 1 (spec
    §4: T_s ≥ T/2 once s ≥ log2 log2 T), so kS = O(k ln ln T) (Sect. 1 and 6). Exact, over
    ``horizons``."""

    evidence = EXACT
    keys = ("horizons", "k")
    optional = ()

    @staticmethod
    def evaluate(claim, ctx) -> list[dict]:
        k = int(claim["k"])
        horizons = [float(h) for h in claim["horizons"]]
        counts = ctx.quantity("stage_count", lambda: [stage_count(h, k) for h in horizons])
        rows = []
        for horizon, stages in zip(horizons, counts):
            closed = stage_count_closed_form(horizon)
            rows.append(
                {
                    "scope": f"T = {horizon:g}",
                    "verdict": REPRODUCED if stages <= closed else NOT_REPRODUCED,
                    "headline": f"S = {stages} {'≤' if stages <= closed else '>'} "
                    f"⌈log2 log2 T⌉ + 1 = {closed}",
                    "statistic": f"k = {k}, T = {horizon:g}: S = {stages}, "
                    f"⌈log2 log2 T⌉ + 1 = {closed}, kS = {k * stages}",
                }
            )
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """One stage at every horizon, or T stages (each stage plays at least once)."""
        horizons = [float(h) for h in claim["horizons"]]
        return sides(
            {"stage_count": lambda real: [1] * len(real)},
            {"stage_count": lambda real: [int(h) for h in horizons]},
            ctx,
        )
