"""Claim kinds of "A Farewell to Arms" on the two leading terms of §6.2, (WAIT) and (FJ), on the
family τ ≡ d, d = 1..D (:func:`constant_delay_problem`): ``family_ratio``, how much smaller
(WAIT)'s leading term can be than (FJ)'s (§1, §6.2), and ``bound_regime``, which of the two is
smaller for short and for long waits (§6.2; :class:`BoundRegime`).

``family_ratio``: the two leading terms share the factor D²/Δ (§6.2): (WAIT) ∝ μ̄^c, the
average mean waiting time, (FJ) ∝ Σ_j 1/μ^c_j. Their ratio (FJ)/(WAIT) = Σ_j (1/μ^c_j) / μ̄^c
does not involve Δ. Both factors lie in [1, D] (§6.2), so the ratio is at most D, reached when
every mean waiting time is 1. Exact, on the family τ ≡ d, d = 1..``max_delay`` (K = 1, V = 1,
μ^c_j = min(j, d), as ``bound_regime``): the claim holds if the largest ratio over the family
is at least ``max_delay`` × (1 − ``rounding_tolerance``).
"""

from __future__ import annotations

import numpy as np

from timebandits.core.verdicts.context import ClaimContext, paired_verdict
from timebandits.core.verdicts.decidability import derived, linear, scale, with_curves
from timebandits.core.verdicts.stats import paired_one_sided
from timebandits.core.verdicts.thresholds import LOWER, Threshold, check_keys, threshold
from timebandits.core.verdicts.vocabulary import (
    EXACT,
    NOT_REPRODUCED,
    REPRODUCED,
    STATISTICAL,
    SUPPORTS,
)

from ..analysis import problem_of
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
        return [
            {
                "scope": f"τ ≡ d, d = 1..{D}",
                "verdict": REPRODUCED if ratios[best] >= need else NOT_REPRODUCED,
                "headline": f"largest (FJ)/(WAIT) = {ratios[best]:.4g} at τ ≡ {best + 1} (D = {D})",
                "statistic": f"(FJ)/(WAIT) = Σ 1/μ^c / μ̄^c per d: {listed}; needs ≥ D = {D}",
            }
        ]

    @staticmethod
    def witnesses(claim, ctx):
        """Every ratio D (favourable) or D/2 (unfavourable)."""
        D = int(claim["max_delay"])
        return {
            side: derived(ctx, overrides={"family ratios": (lambda _, v=value: [v] * D)})
            for side, value in (("favourable", float(D)), ("unfavourable", D / 2.0))
        }


def _wait_is_smaller(problem: F2AProblem) -> tuple[bool, dict]:
    """Whether (WAIT)'s leading term is below (FJ)'s: μ̄^c < Σ_j 1/μ^c_j, their common factor
    D²/Δ cancelled (so ties of every pair, Δ undefined, are fine)."""
    orders = comparison_orders(problem)
    return orders["mean_cost"] < orders["sum_inverse_cost"], orders


def races(claim, ctx, favourable: bool):
    """``ctx`` with the supporting races of a ``bound_regime`` claim won (favourable) or lost by
    the algorithm each experiment's smaller term favours: its pseudo-regret curve a third of the
    other's."""
    s = scale(ctx, claim["experiments"], ["wait_ucb", "ucb_simplex"], "pseudo_regret", headroom=3)
    levels = {}
    for exp in claim["experiments"]:
        wait_smaller, _ = _wait_is_smaller(problem_of(ctx.paper, exp))
        favoured, other = (
            ("wait_ucb", "ucb_simplex") if wait_smaller else ("ucb_simplex", "wait_ucb")
        )
        levels[(exp, favoured)] = linear(s if favourable else 3 * s)
        levels[(exp, other)] = linear(3 * s if favourable else s)
    return with_curves(ctx, "pseudo_regret", levels)


class BoundRegime:
    """§6.2 as the paper states it, from the two leading terms: (WAIT) ∝ μ̄^c (the average mean
    waiting time) is smaller when waiting times are short, (FJ) ∝ Σ_j 1/μ^c_j when they are long.
    Exact, on the family τ ≡ d, d = 1..D (the common factor D²/Δ cancels): the claim holds if
    (WAIT) is smaller for the shortest waits, (FJ) for the longest, with a single switch between.
    Supporting rows, per configured experiment: which term is smaller there, and the race of the
    algorithm it favours (Wait-UCB or UCB-Simplex) against the other (paired test of
    pseudo-regret at T)."""

    evidence = EXACT
    keys = ("experiments", "max_delay")
    optional = ()

    @classmethod
    def check(cls, claim, paper):
        check_keys(cls, claim)
        if int(claim["max_delay"]) < 2:
            raise ValueError("max_delay must be >= 2")
        for exp in claim["experiments"]:
            if exp not in paper["experiments"]:
                raise ValueError(f"unknown experiment {exp!r}")
            if not {"wait_ucb", "ucb_simplex"} <= set(paper["experiments"][exp]["algorithms"]):
                raise ValueError(f"experiment {exp!r} must run wait_ucb and ucb_simplex")

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        D = int(claim["max_delay"])
        terms = ctx.quantity(
            "bound_regime terms",
            lambda: [
                {
                    key: comparison_orders(constant_delay_problem(d, D))[key]
                    for key in ("mean_cost", "sum_inverse_cost")
                }
                for d in range(1, D + 1)
            ],
        )
        family = [(o["mean_cost"] < o["sum_inverse_cost"], o) for o in terms]
        smaller = ["WAIT" if wait else "FJ" for wait, _ in family]
        switches = sum(a != b for a, b in zip(smaller, smaller[1:]))
        terms = ", ".join(
            f"d={d}: {o['mean_cost']:.3g} vs {o['sum_inverse_cost']:.3g}"
            for d, (_, o) in enumerate(family, start=1)
        )
        rows = [
            {
                "scope": "τ ≡ 1 (shortest waits)",
                "verdict": REPRODUCED if smaller[0] == "WAIT" else NOT_REPRODUCED,
                "headline": f"μ̄^c = {family[0][1]['mean_cost']:.3g} vs Σ 1/μ^c = "
                f"{family[0][1]['sum_inverse_cost']:.3g}: ({smaller[0]}) smaller",
                "statistic": f"D = {D}, τ ≡ 1: (WAIT) ∝ {family[0][1]['mean_cost']:.4g}, (FJ) ∝ "
                f"{family[0][1]['sum_inverse_cost']:.4g}",
            },
            {
                "scope": f"τ ≡ {D} (longest waits)",
                "verdict": REPRODUCED if smaller[-1] == "FJ" else NOT_REPRODUCED,
                "headline": f"μ̄^c = {family[-1][1]['mean_cost']:.3g} vs Σ 1/μ^c = "
                f"{family[-1][1]['sum_inverse_cost']:.3g}: ({smaller[-1]}) smaller",
                "statistic": f"D = {D}, τ ≡ {D}: (WAIT) ∝ {family[-1][1]['mean_cost']:.4g}, (FJ) ∝ "
                f"{family[-1][1]['sum_inverse_cost']:.4g}",
            },
            {
                "scope": f"τ ≡ d, d = 1..{D}",
                "verdict": REPRODUCED if switches == 1 else NOT_REPRODUCED,
                "headline": f"the smaller term switches {switches} time(s): {' '.join(smaller)}",
                "statistic": f"μ̄^c vs Σ 1/μ^c per d: {terms}",
            },
        ]
        for exp in claim["experiments"]:
            wait_smaller, orders = _wait_is_smaller(problem_of(ctx.paper, exp))
            favoured = "Wait-UCB" if wait_smaller else "UCB-Simplex"
            wait, fj = ctx.paired(exp, "wait_ucb", "ucb_simplex", "pseudo_regret")
            test = paired_one_sided(wait, fj) if wait_smaller else paired_one_sided(fj, wait)
            rows.append(
                {
                    "scope": f"{exp} race",
                    "evidence": STATISTICAL,
                    "role": SUPPORTS,
                    "verdict": paired_verdict(test, ctx.alpha),
                    "headline": f"{favoured} lower pseudo-regret at T",
                    "statistic": (
                        f"μ̄^c {orders['mean_cost']:.3g} vs Σ 1/μ^c "
                        f"{orders['sum_inverse_cost']:.3g}: (WAIT) {orders['wait']:.3g} vs "
                        f"(FJ) {orders['fj']:.3g} favours {favoured}; pseudo-regret at T: "
                        f"Wait-UCB {wait.mean():.4g} vs UCB-Simplex {fj.mean():.4g}, "
                        f"paired p = {test['p_claimed']:.2g}"
                    ),
                }
            )
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """The two terms per d replaced by μ̄^c = d and Σ 1/μ^c = D + 1 − d, each over its range
        [1, D] (favourable: (WAIT) smaller for short waits, (FJ) for long, one switch), or the
        real terms swapped (unfavourable: the regimes the wrong way round)."""
        D = int(claim["max_delay"])
        ideal = [
            {"mean_cost": float(d), "sum_inverse_cost": float(D + 1 - d)} for d in range(1, D + 1)
        ]
        swap = lambda terms: [
            {"mean_cost": o["sum_inverse_cost"], "sum_inverse_cost": o["mean_cost"]}  # noqa: E731
            for o in terms
        ]
        return {
            "favourable": derived(
                races(claim, ctx, True), overrides={"bound_regime terms": lambda _: ideal}
            ),
            "unfavourable": derived(
                races(claim, ctx, False), overrides={"bound_regime terms": swap}
            ),
        }
