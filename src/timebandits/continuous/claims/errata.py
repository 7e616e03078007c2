"""Continuous claim kind for statements the paper prints that a computation decides, without a
run: two it shows false (scope ``erratum``: "not reproduced" confirms the erratum; spec §5) and
the baselines' rate (scope ``paper``):

  printed_statement  (exact) ``statement`` names the printed statement:
    lemma18_kl   App. E, proof of Lemma 18: D(Ber(x) ‖ Ber(x + β)) ≤ 8β²/ln 2 for β ≤ 1/4. Checked
                 on the grid x = 0.001 … 0.5 (500 points) × β = 0.001 … 0.25 (250 points), with
                 x + β < 1: reproduced if it holds at every point, not reproduced if it fails at
                 one (it does for x ≲ 0.045, where the KL is about β²/(2x(1 − x))).
    eq9_defined  Theorem 9, eq. 9: T^{p1m} = 2K log(c12/8)/(c12 (Δ/2)² μ[1]) "for 0 ≤ p1m ≤ 1",
                 c12 = μ[1]²/μ[2]², on each of ``experiments``' means: reproduced if that value is
                 ≥ 1 (some p1m ≥ 0 solves it at a T' ≥ it), not reproduced if it is ≤ 0 (no real
                 p1m: the bound says nothing), one sub-check per experiment.
    baseline_rate  Sec. 5 and App. P: a baseline's payoff aT(μ[1] − λa) "is positive and increasing
                 for all a ≤ μ[1]/(2λ) achieving maxima at a = μ[1]/(2λ)", on each of
                 ``experiments``: the payoff of aT' plays spread equally over T' (μ[1]N − N²/T',
                 model.equal_spacing_payoff, in normalised units) at a = (k/20)·μ[1]/2,
                 k = 1 … 40 (aT' plays, a real number where aT' is not whole, as the paper's
                 aT): positive and strictly increasing up to k = 20, and largest at k = 20.
Each value is routed through ``ctx.quantity`` so that the witnesses can set it.
"""

from __future__ import annotations

import math

import numpy as np

from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.decidability import derived
from timebandits.core.verdicts.thresholds import check_keys
from timebandits.core.verdicts.vocabulary import EXACT, INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED

from ..model import equal_spacing_payoff
from ..theory import lemma18_holds
from .common import instance, listed, shown

STATEMENTS = ("lemma18_kl", "eq9_defined", "baseline_rate")
X_GRID = np.linspace(0.001, 0.5, 500)
BETA_GRID = np.linspace(0.001, 0.25, 250)


def lemma18_failures() -> tuple[int, float]:
    """(grid points where the inequality fails, the largest x among them; 0 if none)."""
    failing = [x for x in X_GRID for b in BETA_GRID if x + b < 1 and not lemma18_holds(x, b)]
    return len(failing), max(failing, default=0.0)


def eq9_value(means) -> float:
    """Eq. 9's right-hand side 2K log(c12/8)/(c12 (Δ/2)² μ[1]) (natural log)."""
    mu = np.sort(np.asarray(means, dtype=float))[::-1]
    c12 = (mu[0] / mu[1]) ** 2
    return 2 * mu.size * math.log(c12 / 8) / (c12 * ((mu[0] - mu[1]) / 2) ** 2 * mu[0])


RATE_STEPS = 20  # a = (k/RATE_STEPS)·μ[1]/2, k = 1 … 2·RATE_STEPS


def baseline_payoffs(mean: float, horizon: float) -> np.ndarray:
    """The payoff of aT' equally spaced plays over T' at a = (k/20)·μ/2, k = 1 … 40."""
    rates = np.arange(1, 2 * RATE_STEPS + 1) / RATE_STEPS * mean / 2
    return np.array([equal_spacing_payoff(mean, a * horizon, horizon) for a in rates])


def _baseline_row(ctx: ClaimContext, exp: str) -> dict:
    means, _, horizon = instance(ctx, exp)
    mu = float(means.max())
    payoffs = np.asarray(
        ctx.quantity(f"baseline_rate:{exp}", lambda: baseline_payoffs(mu, horizon))
    )
    rising = payoffs[:RATE_STEPS]
    holds = bool(
        (rising > 0).all()
        and (np.diff(rising) > 0).all()
        and int(np.argmax(payoffs)) == RATE_STEPS - 1
    )
    return {
        "scope": exp,
        "verdict": REPRODUCED if holds else NOT_REPRODUCED,
        "headline": (
            f"largest at a = {shown((int(np.argmax(payoffs)) + 1) / RATE_STEPS * mu / 2, 4)}"
            f" (μ1/2 = {shown(mu / 2, 4)}), payoff {shown(payoffs.max(), 6)}"
        ),
        "statistic": (
            f"payoff of aT' equally spaced plays at a = (k/20)·μ1/2, k = 1 … 40, T' = "
            f"{horizon:g}: smallest up to μ1/2 {shown(rising.min(), 6)}, increasing "
            f"{bool((np.diff(rising) > 0).all())}, largest at k = {int(np.argmax(payoffs)) + 1}"
        ),
    }


class PrintedStatement:
    evidence = EXACT
    keys = ("statement",)
    optional = ("experiments",)

    @classmethod
    def check(cls, claim, paper):
        check_keys(cls, claim)
        if claim["statement"] not in STATEMENTS:
            raise ValueError(f"statement must be one of {STATEMENTS}, got {claim['statement']!r}")
        if claim["statement"] != "lemma18_kl":
            if not claim.get("experiments"):
                raise ValueError(
                    f"{claim['statement']} needs experiments (the instances it is evaluated on)"
                )
            for exp in claim["experiments"]:
                if (
                    claim["statement"] == "eq9_defined"
                    and len(paper["experiments"][exp]["environment"]["means"]) < 2
                ):
                    raise ValueError(f"eq9_defined needs two arms or more; {exp!r} has one")

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        if claim["statement"] == "lemma18_kl":
            count, largest = ctx.quantity("lemma18_failures", lemma18_failures)
            return [
                {
                    "scope": "x × β grid",
                    "verdict": NOT_REPRODUCED if count else REPRODUCED,
                    "headline": (
                        f"fails at {count} grid points, all with x ≤ {largest:.3f}"
                        if count
                        else "holds at every grid point"
                    ),
                    "statistic": (
                        f"D(Ber(x) ‖ Ber(x + β)) ≤ 8β²/ln 2 on x = 0.001 … 0.5 (500) × "
                        f"β = 0.001 … 0.25 (250), x + β < 1: {count} failures"
                    ),
                }
            ]
        if claim["statement"] == "baseline_rate":
            return [_baseline_row(ctx, exp) for exp in claim["experiments"]]
        rows = []
        for exp in claim["experiments"]:
            means = instance(ctx, exp)[0]
            value = float(ctx.quantity(f"eq9:{exp}", lambda m=means: eq9_value(m)))
            verdict = REPRODUCED if value >= 1 else NOT_REPRODUCED if value <= 0 else INCONCLUSIVE
            rows.append(
                {
                    "scope": exp,
                    "verdict": verdict,
                    "headline": f"T^p1m = {shown(value, 4)}",
                    "statistic": (
                        f"eq. 9 at μ = {listed(means)}: 2K log(c12/8)/(c12 (Δ/2)² μ[1]) = "
                        f"{shown(value, 6)} (needs ≥ 1 for a p1m in [0, 1] at some T')"
                    ),
                }
            )
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """The printed statement true (no failing grid point; eq. 9's value 100; the baselines'
        payoffs as computed, which rise to k = 20 and fall after it) or false (one failing point at
        x = 0.001; eq. 9's value −1; the payoffs in reverse order, falling to k = 20)."""
        if claim["statement"] == "lemma18_kl":
            return {
                "favourable": derived(ctx, overrides={"lemma18_failures": lambda v: (0, 0.0)}),
                "unfavourable": derived(ctx, overrides={"lemma18_failures": lambda v: (1, 0.001)}),
            }
        if claim["statement"] == "baseline_rate":
            keys = [f"baseline_rate:{e}" for e in claim["experiments"]]
            return {
                "favourable": derived(ctx, overrides={k: (lambda v: v) for k in keys}),
                "unfavourable": derived(ctx, overrides={k: (lambda v: v[::-1]) for k in keys}),
            }
        keys = [f"eq9:{e}" for e in claim["experiments"]]
        return {
            "favourable": derived(ctx, overrides={k: (lambda v: 100.0) for k in keys}),
            "unfavourable": derived(ctx, overrides={k: (lambda v: -1.0) for k in keys}),
        }
