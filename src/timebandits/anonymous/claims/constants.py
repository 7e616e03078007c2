"""The claim kind of "Adaptive Algorithms for Multi-armed Bandit with Composite and Anonymous
Feedback" on Theorem 1's constant c*_f (Remark 1: a faster-growing f, a smaller constant).

  constant_order  (exact) Remark 1: Theorem 1's constant c*_f (theorem1.theorem1_constant, summary
                  line) strictly decreases along ``order`` (slower- to faster-growing f) for each
                  α of ``alphas`` and each experiment with finite d1. Equal constants (t1, which
                  does not depend on f, dominating T*) do not reproduce "smaller"; an infinite or
                  undefined constant (d1 = ∞, α ≤ 4) has no order: a supporting row only. The
                  log10 constants of each (experiment, α) go through ``ClaimContext.quantity``
                  (key :func:`constants_key`).
"""

from __future__ import annotations

import math

import numpy as np

from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.decidability import derived
from timebandits.core.verdicts.declared import DeclaredCheck
from timebandits.core.verdicts.thresholds import LOWER, Threshold, threshold
from timebandits.core.verdicts.vocabulary import EXACT, INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED

from ..model import problem_of
from ..simulation import algorithm_params
from ..theorem1 import theorem1_constant


def constants_key(experiment: str, alpha: float) -> str:
    """The ``ClaimContext.quantity`` key of the log10 c*_f along a constant_order claim's order."""
    return f"log10 c* {experiment} alpha={float(alpha):g}"


class ConstantOrder(DeclaredCheck):
    evidence = EXACT
    keys = ("experiments", "alphas", "order")
    # in decades, below 1: the witnesses fall by one decade a step
    thresholds = (Threshold("rounding_tolerance", LOWER, low=0.0, high=1.0, open_high=True),)
    optional = ()

    runs = ("experiments",)

    @classmethod
    def check(cls, claim, paper):
        super().check(claim, paper)  # keys, thresholds and runs (DeclaredCheck)
        for alg in claim["order"]:
            if alg not in paper["algorithms"] or paper["algorithms"][alg]["policy"] != "ars_ucb":
                raise ValueError(f"order lists {alg!r}, which is not an ARS-UCB algorithm")

    @classmethod
    def evaluate(cls, claim, ctx: ClaimContext) -> list[dict]:
        sizes = [algorithm_params(ctx.paper["algorithms"][a])["round_size"] for a in claim["order"]]
        rows = []
        for exp in claim["experiments"]:
            problem = problem_of(ctx.paper, exp)
            if not math.isfinite(problem.d1()):
                rows.append(
                    {
                        "scope": exp,
                        "role": "supports",
                        "verdict": INCONCLUSIVE,
                        "headline": "d1 = ∞: c* is infinite for every f",
                        "statistic": "d1 = ∞ (spec P13): Theorem 1's constant is infinite "
                        "for every f, so there is no order to check",
                    }
                )
                continue
            for alpha in claim["alphas"]:
                constants = [
                    theorem1_constant(
                        problem.means,
                        float(alpha),
                        problem.d1(),
                        problem.d2(),
                        s["kind"],
                        s.get("c", 1),
                        s.get("beta", 1),
                    )
                    for s in sizes
                ]
                logs = np.asarray(
                    ctx.quantity(
                        constants_key(exp, alpha),
                        lambda: np.array([c.log10_c_star for c in constants]),
                    ),
                    dtype=float,
                )
                if not np.all(np.isfinite(logs)):
                    rows.append(
                        {
                            "scope": f"{exp} α = {alpha:g}",
                            "role": "supports",
                            "verdict": INCONCLUSIVE,
                            "headline": "c* infinite or undefined for some f: no order",
                            "statistic": "log10 c*_f along the order: "
                            + ", ".join(f"{v:.6g}" for v in logs)
                            + " (an infinite constant has "
                            "no order to check)",
                        }
                    )
                    continue
                steps = np.diff(logs)
                decreasing = bool(np.all(steps < -threshold(cls, claim, "rounding_tolerance")))
                values = ", ".join(f"{ctx.label(a)}: {v:.6g}" for a, v in zip(claim["order"], logs))
                t1 = constants[0].log10_t1
                rows.append(
                    {
                        "scope": f"{exp} α = {alpha:g}",
                        "verdict": REPRODUCED if decreasing else NOT_REPRODUCED,
                        "headline": (
                            f"log10 c* {logs[0]:.4g} → {logs[-1]:.4g}"
                            + (
                                ""
                                if decreasing
                                else f" (not strictly decreasing; log10 t1 = {t1:.4g})"
                            )
                        ),
                        "statistic": (
                            f"log10 c*_f along the order: {values}; log10 t1 = {t1:.6g} "
                            f"(independent of f), log10 t2 = "
                            + ", ".join(f"{c.log10_t2:.4g}" for c in constants)
                        ),
                    }
                )
        if not any(r.get("role") != "supports" for r in rows):
            rows.append(
                {
                    "scope": "all",
                    "verdict": INCONCLUSIVE,
                    "headline": "no (experiment, α) with finite constants",
                    "statistic": "every listed experiment has d1 = ∞ or an infinite or "
                    "undefined c*_f at every α",
                }
            )
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """Constants falling by one decade per step of the order (favourable) or all equal to
        the first (unfavourable), in every (experiment, α); an infinite or undefined constant is
        kept as it is, so an (experiment, α) without a finite order can reach neither verdict."""

        def falling(logs):
            logs = np.asarray(logs, dtype=float)
            return logs if not np.all(np.isfinite(logs)) else logs[0] - np.arange(logs.size)

        def equal(logs):
            logs = np.asarray(logs, dtype=float)
            return logs if not np.all(np.isfinite(logs)) else np.full(logs.size, logs[0])

        keys = [constants_key(e, a) for e in claim["experiments"] for a in claim["alphas"]]
        return {
            side: derived(ctx, overrides={k: fn for k in keys})
            for side, fn in (("favourable", falling), ("unfavourable", equal))
        }
