"""Claim kind ``family_ratio``: how much smaller (WAIT)'s leading term can be than (FJ)'s (§1, §6.2).

The two leading terms share the factor D²/Δ (§6.2): (WAIT) ∝ μ̄^c, the average mean waiting time,
(FJ) ∝ Σ_j 1/μ^c_j. Their ratio (FJ)/(WAIT) = Σ_j (1/μ^c_j) / μ̄^c does not involve Δ. Both
factors lie in [1, D] (§6.2), so the ratio is at most D, reached when every mean waiting time
is 1. Exact, on the family τ ≡ d, d = 1..``max_delay`` (K = 1, V = 1, μ^c_j = min(j, d), as
``bound_regime``): the claim holds if the largest ratio over the family is at least
``max_delay`` × (1 − ``rounding_tolerance``).
"""

from __future__ import annotations

import numpy as np

from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.decidability import derived
from timebandits.core.verdicts.thresholds import LOWER, Threshold, check_keys, threshold
from timebandits.core.verdicts.vocabulary import EXACT, NOT_REPRODUCED, REPRODUCED

from ..model import F2AProblem
from ..theory import comparison_orders


def family_ratios(D: int) -> list[float]:
    """(FJ)/(WAIT) = Σ_j 1/μ^c_j / μ̄^c on τ ≡ d for d = 1..D."""

    ratios = []
    for d in range(1, D + 1):
        orders = comparison_orders(constant_delay_problem(d, D))
        ratios.append(orders["sum_inverse_cost"] / orders["mean_cost"])
    return ratios



def constant_delay_problem(delay: int, D: int) -> F2AProblem:
    """K = 1, V = 1 and a deterministic delay τ ≡ ``delay`` on [D]: mean waiting times
    μ^c_j = min(j, delay), which grow with ``delay``."""
    pmf = np.zeros(D)
    pmf[delay - 1] = 1.0
    return F2AProblem.from_config({"reward_prob": [1.0], "delay_pmf": [pmf.tolist()]})


class FamilyRatio:
    evidence = EXACT
    keys = ("max_delay",)
    optional = ()
    thresholds = (Threshold("rounding_tolerance", LOWER, low=0.0),)

    @classmethod
    def check(cls, claim, paper):
        check_keys(cls, claim)
        if int(claim["max_delay"]) < 2:
            raise ValueError("max_delay must be >= 2")

    @classmethod
    def evaluate(cls, claim, ctx: ClaimContext) -> list[dict]:
        D = int(claim["max_delay"])
        need = D * (1.0 - threshold(cls, claim, "rounding_tolerance"))
        ratios = ctx.quantity("family ratios", lambda: family_ratios(D))
        best = max(range(D), key=lambda i: ratios[i])
        listed = ", ".join(f"d={d}: {r:.3g}" for d, r in enumerate(ratios, start=1))
        return [{"scope": f"τ ≡ d, d = 1..{D}",
                 "verdict": REPRODUCED if ratios[best] >= need else NOT_REPRODUCED,
                 "headline": f"largest (FJ)/(WAIT) = {ratios[best]:.4g} at τ ≡ {best + 1} (D = {D})",
                 "statistic": f"(FJ)/(WAIT) = Σ 1/μ^c / μ̄^c per d: {listed}; needs ≥ D = {D}"}]

    @staticmethod
    def witnesses(claim, ctx):
        """Every ratio D (favourable) or D/2 (unfavourable)."""
        D = int(claim["max_delay"])
        return {side: derived(ctx, overrides={"family ratios": (lambda _, v=value: [v] * D)})
                for side, value in (("favourable", float(D)), ("unfavourable", D / 2.0))}
