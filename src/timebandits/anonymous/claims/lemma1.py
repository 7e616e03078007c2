"""The claim kind of "Adaptive Algorithms for Multi-armed Bandit with Composite and Anonymous
Feedback" on Lemma 1, the hidden confidence radius rad'_i(t) of ARS-UCB's estimates.

  lemma1          (statistical) Lemma 1's Monte Carlo: over every run and decision time of the
                  listed ARS-UCB algorithms, the count of arm-decisions whose estimate missed s_i
                  by the radius rad'_i(t) against Σ 2/t³, the count Lemma 1 allows in expectation;
                  a one-sided Poisson test that the misses exceed it. Where the radius is infinite
                  (d1 = ∞ or d2 = ∞: polynomial γ = 2) no estimate can miss it, so the experiment
                  is no evidence: a supporting row, never a deciding one.
"""

from __future__ import annotations

import math

from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.decidability import derived
from timebandits.core.verdicts.declared import DeclaredCheck
from timebandits.core.verdicts.vocabulary import (
    INCONCLUSIVE,
    NOT_REPRODUCED,
    REPRODUCED,
    STATISTICAL,
)

from ..model import problem_of


def infinite_radius(paper: dict, experiment: str) -> bool:
    """Lemma 1's radius rad'_i(t) = √(4 ln t/N_i) + d1 K_i/N_i + √(12 d2 K_i ln t)/N_i is
    infinite after the first round where d1 or d2 is (polynomial γ = 2: d1 = ∞)."""
    problem = problem_of(paper, experiment)
    return not (math.isfinite(problem.d1()) and math.isfinite(problem.d2()))


class Lemma1(DeclaredCheck):
    evidence = STATISTICAL
    keys = ("experiments", "algorithms")
    optional = ()

    runs = ("experiments", "algorithms")

    @classmethod
    def check(cls, claim, paper):
        super().check(claim, paper)  # keys, thresholds and runs (DeclaredCheck)
        for exp in claim["experiments"]:
            if "lemma1" not in paper["experiments"][exp].get("record", []):
                raise ValueError(f"experiment {exp!r} does not record lemma1")

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        for exp in claim["experiments"]:
            if infinite_radius(ctx.paper, exp):
                rows.append(
                    {
                        "scope": exp,
                        "role": "supports",
                        "verdict": INCONCLUSIVE,
                        "headline": "rad' = ∞ (d1 or d2 infinite): can never be missed",
                        "statistic": "Lemma 1's radius is infinite here, so no estimate "
                        "can miss it: no evidence either way",
                    }
                )
                continue
            checks = misses = allowed = 0.0
            largest = 0.0
            for alg in claim["algorithms"]:
                checks += ctx.final(exp, alg, "lemma1_checks").sum()
                misses += ctx.final(exp, alg, "lemma1_misses").sum()
                allowed += ctx.final(exp, alg, "lemma1_bound").sum()
                largest = max(largest, ctx.final(exp, alg, "lemma1_ratio").max())
            if checks == 0:
                rows.append(
                    {
                        "scope": exp,
                        "verdict": INCONCLUSIVE,
                        "headline": "no decision after the initialisation",
                        "statistic": "no arm-decision to check",
                    }
                )
                continue
            from scipy.stats import poisson  # here: a figure job imports this module

            p = float(poisson.sf(misses - 1, allowed))  # 1 when there is no miss
            rows.append(
                {
                    "scope": exp,
                    "verdict": NOT_REPRODUCED if p < ctx.alpha else REPRODUCED,
                    "headline": (
                        f"{misses:.0f} misses in {checks:.3g} checks (allowed "
                        f"{allowed:.3g}); largest |ŝ − s|/rad' = {largest:.3g}"
                    ),
                    "statistic": (
                        f"{misses:.0f} of {checks:.0f} arm-decisions with |ŝ_i − s_i| ≥ "
                        f"rad'_i(t), over every run of {len(claim['algorithms'])} ARS-UCB "
                        f"algorithms; Lemma 1 allows Σ 2/t³ = {allowed:.4g} in expectation; "
                        f"one-sided Poisson p = {p:.2g}; the largest |ŝ − s|/rad' seen is "
                        f"{largest:.3g} (how conservative the radius is)"
                    ),
                    "p_opposite": p,
                }
            )
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """No estimate ever misses its radius (favourable), or every checked arm-decision does
        (unfavourable), keeping the real counts of checks and of allowed misses. Where the radius
        is infinite a miss is impossible, so both witnesses keep 0 misses there."""

        def trace_of(missing):
            def read(exp, alg):
                trace = ctx.trace(exp, alg).copy()
                every = missing and not infinite_radius(ctx.paper, exp)
                trace["lemma1_misses"] = trace["lemma1_checks"] if every else 0.0
                return trace

            return read

        return {
            "favourable": derived(ctx, trace_of=trace_of(False)),
            "unfavourable": derived(ctx, trace_of=trace_of(True)),
        }
