"""Claim kinds of "Bandits with Censored Consumption of Resources" on the numbers and pairs the
paper prints, and on where RCUCB explores (issue 45):

  printed_shares   (statistical) each algorithm's censored proportion over the T rounds is within
                   ``tolerance`` of the share the paper prints for it (tables of §5.1 and
                   App. F.1; ``printed.censoring`` of the paper file, a value or [mean, sd]):
                   two one-sided t-tests over runs (TOST), p = the larger one.
  printed_optimum  (exact) the pair the paper names optimal, arm ``arm`` at limit ``limit``
                   (App. E.2: "arm 1 with resource limit τ = 0.4 corresponds to the optimal
                   arm/resource-limit pair"), against the optimum of eq. (3) on the exact ν table:
                   reproduced if ``arm`` is an optimal arm whose optimal limit lies within
                   ``tolerance`` of ``limit``.
  higher_limits    (statistical) §3.3: "RCUCB's exploration behavior tends to be biased towards
                   higher resource limits". Per run, the mean limit τ of the plays of pairs other
                   than the optimal one(s) up to T (the exploration plays, from the per-pair play
                   counts T_{i,τ}); paired one-sided t-test that ``algorithm``'s exceeds that of
                   each of ``against`` (the UCB reduction, whose index does not share
                   counts across limits) on the same draws.

The quantities they decide on go through ``ctx.quantity`` so that their witnesses
(core/verdicts/decidability.py) can replace them.
"""

from __future__ import annotations

import math

import numpy as np

from timebandits.core.verdicts.context import paired_verdict
from timebandits.core.verdicts.decidability import derived, linear, spread, with_curves
from timebandits.core.verdicts.declared import DeclaredCheck
from timebandits.core.verdicts.stats import equivalence_test, paired_one_sided
from timebandits.core.verdicts.thresholds import LOWER, Threshold, threshold
from timebandits.core.verdicts.vocabulary import EXACT, NOT_REPRODUCED, REPRODUCED, STATISTICAL

from ..analysis import censored_share
from ..model import problem_of
from .censoring import TOP_SHARE


def printed_share(paper: dict, experiment: str, algorithm: str) -> float:
    """The mean censored share the paper prints for ``algorithm`` on ``experiment``."""
    value = paper["printed"]["censoring"][experiment][algorithm]
    return float(value[0] if isinstance(value, (list, tuple)) else value)


class PrintedShares(DeclaredCheck):
    evidence = STATISTICAL
    keys = ("experiments", "algorithms")
    thresholds = (Threshold("tolerance", LOWER, low=0.0, open_low=True),)
    # A sensitivity claim runs other experiments under the paper's: the printed table it is
    # compared with is the one of the paper experiment each stands for.
    optional = ("printed_as",)

    runs = ("experiments", "algorithms")

    @classmethod
    def check(cls, claim, paper):
        super().check(claim, paper)  # keys, thresholds and runs (DeclaredCheck)
        for exp in claim["experiments"]:
            for alg in claim["algorithms"]:
                shown = claim.get("printed_as", {}).get(exp, exp)
                if alg not in paper.get("printed", {}).get("censoring", {}).get(shown, {}):
                    raise ValueError(f"no printed censoring share for {alg} on {shown}")

    @classmethod
    def evaluate(cls, claim, ctx):
        rows, tol = [], threshold(cls, claim, "tolerance")
        for exp in claim["experiments"]:
            for alg in claim["algorithms"]:
                printed = printed_share(ctx.paper, claim.get("printed_as", {}).get(exp, exp), alg)
                share = censored_share(ctx.trace(exp, alg))
                test = equivalence_test(share, printed, tol)
                rows.append(
                    {
                        "scope": f"{exp} {ctx.label(alg)}",
                        "verdict": paired_verdict(test, ctx.alpha),
                        "headline": f"{share.mean():.4f} vs printed {printed:.4f} (±{tol:g})",
                        "statistic": (
                            f"censored share {share.mean():.4f} (sd {share.std(ddof=1):.4f} "
                            f"over {share.size} runs) vs the paper's {printed:.4f}; "
                            f"equivalence margin ±{tol:g}: TOST p = {test['p_claimed']:.2g}, "
                            f"outside the margin p = {test['p_opposite']:.2g}"
                        ),
                        **test,
                    }
                )
        return rows

    @classmethod
    def witnesses(cls, claim, ctx):
        """Every run at the printed share, or at whichever end of [0, 1] lies farther from it
        (no unfavourable witness if even that end is within the tolerance)."""
        tol = threshold(cls, claim, "tolerance")
        out = {}
        for side in ("favourable", "unfavourable"):
            levels = {}
            for exp in claim["experiments"]:
                for alg in claim["algorithms"]:
                    shown = claim.get("printed_as", {}).get(exp, exp)
                    printed = printed_share(ctx.paper, shown, alg)
                    end = 0.0 if printed > 0.5 else TOP_SHARE
                    share = printed if side == "favourable" else end
                    if abs(share - printed) <= tol and side == "unfavourable":
                        levels = None
                        break
                    levels[(exp, alg)] = linear(share * float(ctx.trace(exp, alg)["t"].max()))
                if levels is None:
                    break
            if levels is not None:
                out[side] = with_curves(ctx, "censored", levels)
        return out


def optimum_distance(problem, arm: int, limit: float) -> float:
    """|τ* − ``limit``| over the optimal pairs of ``arm`` (1-based); ∞ if ``arm`` is not optimal."""
    taus = [float(problem.grid[k]) for i, k in problem.optimal_pairs if i == arm - 1]
    return min(abs(t - limit) for t in taus) if taus else math.inf


class PrintedOptimum(DeclaredCheck):
    evidence = EXACT
    keys = ("experiments", "arm", "limit")
    thresholds = (Threshold("tolerance", LOWER, low=0.0),)
    optional = ()

    runs = ("experiments",)

    @classmethod
    def evaluate(cls, claim, ctx):
        rows, tol = [], threshold(cls, claim, "tolerance")
        arm, limit = int(claim["arm"]), float(claim["limit"])
        for exp in claim["experiments"]:
            problem = problem_of(ctx.paper, exp)
            real = optimum_distance(problem, arm, limit)
            distance = float(ctx.quantity(f"distance {exp}", lambda: real))
            optimal = "; ".join(
                f"arm {i + 1}, τ = {problem.grid[k]:.4f}" for i, k in problem.optimal_pairs
            )
            grid = ", ".join(f"{g:.4g}" for g in problem.grid)
            rows.append(
                {
                    "scope": exp,
                    "verdict": REPRODUCED if distance <= tol else NOT_REPRODUCED,
                    "headline": (
                        f"optimum {optimal}"
                        if len(problem.optimal_pairs) <= 2
                        else f"{len(problem.optimal_pairs)} optimal pairs, none arm {arm}"
                        if math.isinf(real)
                        else f"{len(problem.optimal_pairs)} optimal pairs"
                    )
                    + f" vs printed arm {arm}, τ = {limit:g} (±{tol:g})",
                    "statistic": (
                        f"exact optimum of eq. (3): {optimal} (ν* = {problem.nu_star:.6f}); "
                        f"grid {{{grid}}}; the paper names arm {arm} at τ = {limit:g}: "
                        f"|τ* − {limit:g}| over arm {arm}'s optimal pairs = {distance:.4g} "
                        f"(∞: arm {arm} not optimal), tolerance {tol:g}"
                    ),
                }
            )
        return rows

    @classmethod
    def witnesses(cls, claim, ctx):
        """The printed pair optimal exactly, or its arm optimal 10 tolerances (at least 0.1)
        away from the printed limit."""
        away = max(10.0 * threshold(cls, claim, "tolerance"), 0.1)
        return {
            side: derived(
                ctx,
                overrides={
                    f"distance {exp}": (lambda real, v=value: v) for exp in claim["experiments"]
                },
            )
            for side, value in (("favourable", 0.0), ("unfavourable", away))
        }


def exploration_limit(trace, problem) -> np.ndarray:
    """Per run (ordered by repetition), the mean limit τ of the plays of every pair that is not
    optimal, counted up to the trace's horizon; NaN for a run that never explored."""
    last = trace[trace["t"] == trace["t"].max()].sort_values("repetition")
    optimal = set(problem.optimal_pairs)
    plays = np.zeros(len(last))
    weighted = np.zeros(len(last))
    for i in range(problem.n):
        for k in range(problem.K):
            if (i, k) in optimal:
                continue
            count = last[f"plays_a{i + 1}_l{k + 1}"]  # simulation.pair_label.to_numpy(dtype=float)
            plays += count
            weighted += count * float(problem.grid[k])
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(plays > 0, weighted / plays, np.nan)


class HigherLimits(DeclaredCheck):
    evidence = STATISTICAL
    keys = ("experiments", "algorithm", "against")
    optional = ()

    runs = ("experiments", "algorithm", "against")

    @classmethod
    def check(cls, claim, paper):
        super().check(claim, paper)  # keys, thresholds and runs (DeclaredCheck)
        for exp in claim["experiments"]:
            if "pairs" not in paper["experiments"][exp].get("record", []):
                raise ValueError(f"{exp} records no per-pair plays (record: [pairs])")

    @staticmethod
    def _limits(claim, ctx, exp, alg):
        problem = problem_of(ctx.paper, exp)
        return np.asarray(
            ctx.quantity(
                f"limit {exp} {alg}", lambda: exploration_limit(ctx.trace(exp, alg), problem)
            ),
            dtype=float,
        )

    @classmethod
    def evaluate(cls, claim, ctx):
        rows, alg = [], claim["algorithm"]
        for exp in claim["experiments"]:
            mine = cls._limits(claim, ctx, exp, alg)
            for other in claim["against"]:
                theirs = cls._limits(claim, ctx, exp, other)
                test = paired_one_sided(theirs, mine)
                rows.append(
                    {
                        "scope": f"{exp} {ctx.label(alg)} vs {ctx.label(other)}",
                        "verdict": paired_verdict(test, ctx.alpha),
                        "headline": (
                            f"mean exploring limit {np.nanmean(mine):.3f} vs "
                            f"{np.nanmean(theirs):.3f}, {int(np.sum(mine > theirs))}/"
                            f"{mine.size} runs higher"
                        ),
                        "statistic": (
                            f"mean limit τ of the plays of non-optimal pairs up to T: "
                            f"{ctx.label(alg)} {np.nanmean(mine):.4f}, {ctx.label(other)} "
                            f"{np.nanmean(theirs):.4f} over {mine.size} paired runs; "
                            f"{int(np.sum(mine > theirs))}/{mine.size} runs higher; paired "
                            f"t = {test['t']:.3g}, p = {test['p_claimed']:.2g}, the other "
                            f"way p = {test['p_opposite']:.2g}"
                        ),
                        **test,
                    }
                )
        return rows

    @classmethod
    def witnesses(cls, claim, ctx):
        """The algorithm exploring at the largest limit and the others at the smallest (spread
        over runs), or the other way round."""
        out = {}
        for side in ("favourable", "unfavourable"):
            overrides = {}
            for exp in claim["experiments"]:
                grid = problem_of(ctx.paper, exp).grid
                top, bottom = float(grid[-1]), float(grid[0])
                for alg in (claim["algorithm"], *claim["against"]):
                    high = (alg == claim["algorithm"]) == (side == "favourable")
                    level = top if high else bottom
                    overrides[f"limit {exp} {alg}"] = lambda real, v=level: (
                        v * (1.0 - 0.5 * (spread(len(real)) - 1.0))
                    )
            out[side] = derived(ctx, overrides=overrides)
        return out
