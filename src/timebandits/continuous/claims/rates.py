"""Continuous claim kinds on regret and its theoretical order across experiments: regret_slope
(the log-log slope of regret on μ: Fig. 3, Theorem 7's Ω(1/μ)) and scaled_flat (a quantity
divided by its order, Theorem 5's or Lemma 25's, roughly constant), both judged on a bootstrap
over the runs of each experiment (spec §7; the list in claims/__init__.py)."""

from __future__ import annotations

import math

import numpy as np

from timebandits.core.sim.seeding import check_seed
from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.declared import DeclaredCheck
from timebandits.core.verdicts.growth import band_verdict
from timebandits.core.verdicts.stats import log_slopes, resampled_means
from timebandits.core.verdicts.thresholds import HIGHER, LOWER, Threshold, threshold
from timebandits.core.verdicts.vocabulary import (
    INCONCLUSIVE,
    NOT_REPRODUCED,
    REPRODUCED,
    STATISTICAL,
)

from .common import (
    SIDES,
    horizon_regrets,
    instance,
    listed,
    regret_scale,
    shown,
    with_finals,
    with_regrets,
)


def _resampled_means(claim: dict, ctx: ClaimContext, samples: list[np.ndarray]) -> np.ndarray:
    """Bootstrap over the runs of each experiment (independent): for each of the config's
    ``bootstrap_samples`` resamples, the vector of means (a row), kept when every mean is > 0
    (the statistics built on it take logs or ratios). Each experiment's resamples are drawn at
    once, experiment after experiment."""
    rng = np.random.default_rng(check_seed(ctx.config["base_seed"], "continuous", claim["id"]))
    means = resampled_means(samples, int(ctx.config["claims"]["bootstrap_samples"]), rng)
    return means[(means > 0).all(axis=1)]


def log_slope(claim: dict, ctx: ClaimContext, xs, runs: list, scope: str, noun: str, numbers):
    """The least-squares slope of log mean on log ``xs`` over the experiments' ``runs``, and the
    slopes of the bootstrap resamples (:func:`_resampled_means`): (means, slope, slopes, None),
    or (means, None, None, row) where no slope can be taken, ``row`` the inconclusive sub-check
    that says why (a ``noun`` ≤ 0, or no resample with every one > 0; its statistic
    ``numbers(means)``)."""
    means = np.array([r.mean() for r in runs])

    def undecided(headline: str) -> tuple:
        row = {
            "scope": scope,
            "verdict": INCONCLUSIVE,
            "headline": headline,
            "statistic": numbers(means),
        }
        return means, None, None, row

    if (means <= 0).any():
        return undecided(f"a {noun} ≤ 0: no log-log slope")
    slopes = log_slopes(xs, _resampled_means(claim, ctx, runs))
    if not slopes.size:
        return undecided(f"no resample with every {noun} > 0")
    return means, float(np.polyfit(np.log(xs), np.log(means), 1)[0]), slopes, None


class RegretSlope(DeclaredCheck):
    evidence = STATISTICAL
    keys = ("experiments", "algorithm")
    thresholds = (
        Threshold("low", HIGHER, default=-math.inf),
        Threshold("high", LOWER, low=-math.inf, high=math.inf, open_high=True),
    )
    optional = ()

    runs, also_runs = ("experiments", "algorithm"), ("oracle",)

    @classmethod
    def check(cls, claim, paper):
        super().check(claim, paper)  # keys, thresholds and runs (DeclaredCheck)
        low, high = threshold(cls, claim, "low"), threshold(cls, claim, "high")
        if len(claim["experiments"]) < 2 or not low < high:
            raise ValueError("regret_slope needs at least 2 experiments and low < high")

    @classmethod
    def evaluate(cls, claim, ctx: ClaimContext) -> list[dict]:
        mus = np.array([instance(ctx, e)[0].max() for e in claim["experiments"]])
        regrets = [horizon_regrets(ctx, e, claim["algorithm"]) for e in claim["experiments"]]
        low, high = threshold(cls, claim, "low"), threshold(cls, claim, "high")
        means, slope, slopes, undecided = log_slope(
            claim,
            ctx,
            mus,
            regrets,
            "all μ",
            "mean regret",
            lambda means: f"mean regrets {listed(means)} at μ = {listed(mus)}",
        )
        if undecided:
            return [undecided]
        ci_low, ci_high = np.quantile(slopes, [0.025, 0.975])
        verdict = band_verdict(ci_low, ci_high, low, high)
        needs = f"< {high:g}" if low == -math.inf else f"{low:g} to {high:g}"
        return [
            {
                "scope": "all μ",
                "verdict": verdict,
                "headline": f"slope {shown(slope, 3)} (95% CI {shown(ci_low, 3)} to "
                f"{shown(ci_high, 3)}; needs {needs})",
                "statistic": (
                    f"least-squares slope of log mean regret on log μ over μ = "
                    f"{listed(mus)}: {shown(slope, 4)}; bootstrap over runs "
                    f"({len(slopes)} resamples with every mean > 0): 95% CI "
                    f"{shown(ci_low, 4)} to {shown(ci_high, 4)}; mean regrets {listed(means, 4)}"
                ),
            }
        ]

    @classmethod
    def witnesses(cls, claim, ctx):
        """Mean regrets exactly ∝ μ^s: s in the middle of [low, high] (high − 1 for an open low
        end), or s outside it by the band's width (at least 1)."""
        low, high = threshold(cls, claim, "low"), threshold(cls, claim, "high")
        inside = (low + high) / 2 if math.isfinite(low) else high - 1.0
        outside = high + (high - low if math.isfinite(low) else 1.0)
        mus = {e: instance(ctx, e)[0].max() for e in claim["experiments"]}
        size = regret_scale(ctx, claim["experiments"], claim["algorithm"])
        top = max(mus.values())
        return {
            side: with_regrets(
                ctx,
                claim["algorithm"],
                {e: size * (mu / top) ** (inside if good else outside) for e, mu in mus.items()},
            )
            for side, good in SIDES
        }


QUANTITIES = ("regret", "identification_time")


def _scaled_runs(claim: dict, ctx: ClaimContext, exp: str) -> tuple[np.ndarray, float, str]:
    """(per-run values, the scale that divides out their order, what they are)."""
    means, lam, horizon = instance(ctx, exp)
    if claim["quantity"] == "regret":
        return (
            horizon_regrets(ctx, exp, claim["algorithm"]),
            means.max() / math.log(horizon) ** 2,
            "regret at T × μ/(ln T')²",
        )
    ordered = np.sort(means)[::-1]
    finished = (ctx.final(exp, claim["algorithm"], "i_star") >= 1) & (
        ctx.final(exp, claim["algorithm"], "id_cut") == 0
    )
    t_id = ctx.final(exp, claim["algorithm"], "id_time")[finished] / lam
    scale = ordered[0] * (ordered[0] - ordered[1]) ** 2 / (means.size * math.log(horizon**2))
    return t_id, scale, "t_Id × μ1Δ²/(K ln T'²)"


class ScaledFlat(DeclaredCheck):
    evidence = STATISTICAL
    keys = ("experiments", "algorithm", "quantity")
    thresholds = (Threshold("max_spread", LOWER, low=1.0, open_low=True),)
    optional = ()

    runs, also_runs = ("experiments", "algorithm"), ("oracle",)
    choices = {"quantity": QUANTITIES}

    @classmethod
    def check(cls, claim, paper):
        super().check(claim, paper)  # keys, thresholds, runs and choices (DeclaredCheck)
        for exp in claim["experiments"]:
            if (
                claim["quantity"] == "identification_time"
                and len(paper["experiments"][exp]["environment"]["means"]) < 2
            ):
                raise ValueError(
                    f"identification_time needs two arms or more; experiment "
                    f"{exp!r} has one (its gap μ1 − μ2 is undefined)"
                )

    @classmethod
    def evaluate(cls, claim, ctx: ClaimContext) -> list[dict]:
        runs = [_scaled_runs(claim, ctx, exp) for exp in claim["experiments"]]
        what = runs[0][2]
        limit = threshold(cls, claim, "max_spread")
        empty = [e for e, (values, _, _) in zip(claim["experiments"], runs) if values.size == 0]
        if empty:
            return [
                {
                    "scope": "all",
                    "verdict": INCONCLUSIVE,
                    "headline": f"no run to judge in {', '.join(empty)}",
                    "statistic": what,
                }
            ]
        scaled = np.array([values.mean() * scale for values, scale, _ in runs])
        if (scaled <= 0).any():
            return [
                {
                    "scope": "all",
                    "verdict": INCONCLUSIVE,
                    "headline": "a mean ≤ 0",
                    "statistic": f"{what} = {listed(scaled)}",
                }
            ]
        resampled = _resampled_means(claim, ctx, [values * scale for values, scale, _ in runs])
        spreads = resampled.max(axis=1) / resampled.min(axis=1)
        low, high = np.quantile(spreads, [0.025, 0.975])
        spread = scaled.max() / scaled.min()
        verdict = REPRODUCED if high <= limit else NOT_REPRODUCED if low > limit else INCONCLUSIVE
        return [
            {
                "scope": "all",
                "verdict": verdict,
                "headline": f"largest/smallest {what} = {shown(spread, 3)} (95% CI {shown(low, 3)}–"
                f"{shown(high, 3)}; needs ≤ {limit:g})",
                "statistic": (
                    f"{what} per experiment: "
                    + ", ".join(f"{e} {shown(v, 4)}" for e, v in zip(claim["experiments"], scaled))
                    + f"; spread {shown(spread, 4)}, bootstrap 95% CI {shown(low, 4)} to "
                    f"{shown(high, 4)}"
                ),
            }
        ]

    @classmethod
    def witnesses(cls, claim, ctx):
        """The scaled quantity equal in every experiment, or 4 × ``max_spread`` larger in the
        first: the regret (payoff = P* − regret) or t_Id (judged on the runs that really
        finished) set to level / scale."""
        limit = threshold(cls, claim, "max_spread")
        exps = claim["experiments"]
        scales = {e: _scaled_runs(claim, ctx, e)[1] for e in exps}
        size = regret_scale(ctx, exps, claim["algorithm"]) if claim["quantity"] == "regret" else 1.0
        out = {}
        for side, good in SIDES:
            levels = {
                e: size / scales[e] * (1.0 if good or j else 4.0 * limit)
                for j, e in enumerate(exps)
            }
            if claim["quantity"] == "regret":
                out[side] = with_regrets(ctx, claim["algorithm"], levels)
            else:  # id_time is a raw time: t_Id × λ
                out[side] = with_finals(
                    ctx,
                    claim["algorithm"],
                    "id_time",
                    levels,
                    of=lambda e, v: v * instance(ctx, e)[1],
                )
        return out
