"""Continuous claim kinds on how a quantity scales with K, Δ or μ1 (Theorems 8-9, Lemmas 22-23):

  slope_at_most   (statistical) the least-squares slope of log(mean quantity) on log x across
                  ``experiments`` is at most ``max_slope``: an O(x^a) bound read as "grows no faster
                  than x^a" (a = the bound's exponent; max_slope = a + an assumed tolerance).
  slope_at_least  (statistical) the slope is at least ``min_slope``: an Ω(x^a) bound read as "grows
                  at least as fast as x^a".

Both are judged on a bootstrap 95% interval of the slope over the runs of each experiment:
reproduced when the whole interval is on the claimed side, not reproduced when it is wholly on
the other, else inconclusive. ``variable`` names x: ``arms`` (K), ``inverse_gap`` (1/Δ, Δ = μ1 − μ2)
or ``inverse_mu`` (1/μ1). ``quantity``:

  regret            P*(T) − P(T) at T (Theorem 8: O(Kμ1 (log T')²/Δ²); Theorem 9: Ω(Kμ1/Δ²)).
  estimation_loss   −P_L, minus CTMAB's payoff over its estimation period (Lemma 23: P_L ≥
                    −O(K² log² T'/μ1)). The estimation schedule does not adapt until it stops
                    (Alg. 2: phase i plays each arm ⌈κ ln T' c^{2i/3}⌉ times, round robin, equally
                    spaced over (c^{i−1}, c^i]), so P_L is exact given t_Es: the sum over the plays
                    up to t_Es of μ[k] − 1/Δt, where Δt is the phase's spacing (each phase's first
                    play is one spacing after the previous phase's last, at its end).
  estimation_time   t_Es, when the estimation period ends (Lemma 22: by time O(T'^{p*}) =
                    O(1/μ1³), p* of eq. 6 at μ = μ1).
"""

from __future__ import annotations

import math

import numpy as np

from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.declared import DeclaredCheck
from timebandits.core.verdicts.thresholds import HIGHER, LOWER, Threshold, threshold
from timebandits.core.verdicts.vocabulary import (
    INCONCLUSIVE,
    NOT_REPRODUCED,
    REPRODUCED,
    STATISTICAL,
)

from ..schedule import learning_phase
from ..simulation import algorithm_params, learner_epsilon
from .common import SIDES, horizon_regrets, instance, listed, shown, with_finals, with_regrets
from .rates import log_slope

QUANTITIES = ("regret", "estimation_loss", "estimation_time")
VARIABLES = ("arms", "inverse_gap", "inverse_mu")


def estimation_payoff(means, horizon: float, epsilon: float, kappa: float, t_es: float) -> float:
    """CTMAB's payoff over its estimation period (0, t_Es] (Alg. 2 (a), in normalised units):
    phases (c^{i−1}, c^i] (phase 1 from 0), c = T'^ε, with K⌈κ ln T' c^{2i/3}⌉ plays spread
    equally, arms in turn from arm 1; each play earns μ[k] − 1/spacing."""
    means = np.asarray(means, dtype=float)
    c, ell = horizon**epsilon, math.log(horizon)
    paid, start, phase = 0.0, 0.0, 1
    while start < t_es * (1 - 1e-12):
        end, per_arm = learning_phase(c, ell, kappa, phase)
        plays = means.size * per_arm
        spacing = (end - start) / plays
        done = min(plays, int(math.floor((min(t_es, end) - start) / spacing * (1 + 1e-9))))
        full, rest = divmod(done, means.size)
        paid += full * means.sum() + means[:rest].sum() - done / spacing
        start, phase = end, phase + 1
    return paid


def _variable(ctx: ClaimContext, claim: dict, exp: str) -> float:
    means = np.sort(instance(ctx, exp)[0])[::-1]
    if claim["variable"] == "arms":
        return float(means.size)
    if claim["variable"] == "inverse_gap":
        return 1.0 / (means[0] - means[1])
    return 1.0 / means[0]


def _values(claim: dict, ctx: ClaimContext, exp: str) -> np.ndarray:
    """The quantity per run (runs whose estimation never stopped are left out of the estimation
    quantities: they have no t_Es). A witness may set the column ``estimation_loss`` itself."""
    algorithm, quantity = claim["algorithm"], claim["quantity"]
    if quantity == "regret":
        return horizon_regrets(ctx, exp, algorithm)
    if quantity in ctx.last(exp, algorithm).columns:
        return ctx.final(exp, algorithm, quantity)
    means, lam, horizon = instance(ctx, exp)
    stopped = ctx.final(exp, algorithm, "i_star") >= 1
    t_es = ctx.final(exp, algorithm, "stop_time")[stopped] / lam
    if quantity == "estimation_time":
        return t_es
    params = algorithm_params(ctx.paper["algorithms"][algorithm])
    epsilon = learner_epsilon(params, horizon)
    return np.array([-estimation_payoff(means, horizon, epsilon, params["kappa"], t) for t in t_es])


class _ScalingSlope(DeclaredCheck):
    evidence = STATISTICAL
    keys = ("experiments", "algorithm", "quantity", "variable")
    optional = ()
    limit = ""  # the threshold's name

    runs, also_runs = ("experiments", "algorithm"), ("oracle",)
    choices = {"quantity": QUANTITIES, "variable": VARIABLES}

    @classmethod
    def check(cls, claim, paper):
        super().check(claim, paper)  # keys, thresholds, runs and choices (DeclaredCheck)
        xs = []
        for exp in claim["experiments"]:
            means = paper["experiments"][exp]["environment"]["means"]
            if claim["variable"] == "inverse_gap" and len(means) < 2:
                raise ValueError(f"inverse_gap needs two arms or more; {exp!r} has one")
            if (
                claim["quantity"] != "regret"
                and paper["algorithms"][claim["algorithm"]]["policy"] != "ctmab"
            ):
                raise ValueError(f"{claim['quantity']} is CTMAB's estimation period")
            means = sorted(means, reverse=True)
            xs.append(
                len(means)
                if claim["variable"] == "arms"
                else 1 / (means[0] - means[1])
                if claim["variable"] == "inverse_gap"
                else 1 / means[0]
            )
        if len(set(xs)) < 2:
            raise ValueError(
                f"{claim['kind']} needs experiments at two values of {claim['variable']} or more"
            )

    @classmethod
    def passes(cls, value: float, limit: float) -> bool:
        raise NotImplementedError

    @classmethod
    def evaluate(cls, claim, ctx: ClaimContext) -> list[dict]:
        xs = np.array([_variable(ctx, claim, e) for e in claim["experiments"]])
        runs = [_values(claim, ctx, e) for e in claim["experiments"]]
        limit = threshold(cls, claim, cls.limit)
        sign = "≤" if cls.limit == "max_slope" else "≥"
        where = f"{claim['quantity']} against {claim['variable']} = {listed(xs, 4)}"
        if any(r.size == 0 for r in runs):
            return [
                {
                    "scope": "all",
                    "verdict": INCONCLUSIVE,
                    "headline": "an experiment with no run to judge",
                    "statistic": where,
                }
            ]
        means, slope, slopes, undecided = log_slope(
            claim, ctx, xs, runs, "all", "mean", lambda means: f"{where}: means {listed(means)}"
        )
        if undecided:
            return [undecided]
        low, high = np.quantile(slopes, [0.025, 0.975])
        verdict = (
            REPRODUCED
            if cls.passes(low, limit) and cls.passes(high, limit)
            else NOT_REPRODUCED
            if not cls.passes(low, limit) and not cls.passes(high, limit)
            else INCONCLUSIVE
        )
        return [
            {
                "scope": "all",
                "verdict": verdict,
                "headline": f"slope {shown(slope, 3)} (95% CI {shown(low, 3)} to {shown(high, 3)}; "
                f"needs {sign} {limit:g})",
                "statistic": (
                    f"least-squares slope of log mean {where}: {shown(slope, 4)}; "
                    f"bootstrap over runs ({len(slopes)} resamples): 95% CI {shown(low, 4)} "
                    f"to {shown(high, 4)}; means {listed(means, 4)}"
                ),
            }
        ]

    @classmethod
    def witnesses(cls, claim, ctx):
        """The quantity exactly ∝ x^s in every run (± the small spread), s one unit inside or
        outside the limit: the regret through the payoff, t_Es through the raw stop time, the
        estimation loss in its own column."""
        limit = threshold(cls, claim, cls.limit)
        step = -1.0 if cls.limit == "max_slope" else 1.0
        xs = {e: _variable(ctx, claim, e) for e in claim["experiments"]}
        top = max(xs.values())
        out = {}
        for side, good in SIDES:
            power = limit + (step if good else -step)
            levels = {e: 100.0 * (x / top) ** power for e, x in xs.items()}
            quantity, algorithm = claim["quantity"], claim["algorithm"]
            if quantity == "regret":
                out[side] = with_regrets(ctx, algorithm, levels)
            elif quantity == "estimation_time":
                out[side] = with_finals(
                    ctx, algorithm, "stop_time", levels, of=lambda e, t: t * instance(ctx, e)[1]
                )
            else:
                out[side] = with_finals(ctx, algorithm, quantity, levels)
        return out


class SlopeAtMost(_ScalingSlope):
    thresholds = (Threshold("max_slope", LOWER),)
    limit = "max_slope"

    @classmethod
    def passes(cls, value, limit):
        return value <= limit


class SlopeAtLeast(_ScalingSlope):
    thresholds = (Threshold("min_slope", HIGHER),)
    limit = "min_slope"

    @classmethod
    def passes(cls, value, limit):
        return value >= limit
