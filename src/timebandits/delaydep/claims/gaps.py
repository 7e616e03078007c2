"""How π_ucb's switches grow with the gaps (Sect. 1 of "Stochastic Bandits with Delay-Dependent
Payoffs"): "A standard bandit strategy like UCB (Auer et al., 2002) … performs a number of
switches growing with the squared inverse of these gaps", the gaps g(r*) − g(m) between the best
ranking policy and the others (Sect. 5, eq. 3).

UCB1 chooses a suboptimal π_m about 2 ln N / Δ_m² times in N decisions (Auer et al. 2002,
Theorem 1 bounds it by 8 ln N / Δ_m² + 1 + π²/3), and each isolated such choice costs two
switches, so at a fixed horizon the switch count scales as X = Σ_{m ≠ r*} Δ_m⁻². The claim kind
``switch_gap_growth`` runs the same learner on instances that differ only in their gaps and
estimates the exponent b of switches ∝ X^b: the least-squares slope of log(mean switches at T)
on log X over the instances, with a percentile bootstrap CI (runs resampled within each
instance). "Growing with the squared inverse" is b = 1; the band [min_slope, max_slope] is the
claim's.

An instance is judged only where UCB1's bound leaves the count uncapped by the horizon: the pulls
its bound allows the suboptimal choices, Σ_m 2m·(8 ln T / Δ_m² + 1 + π²/3) (each choice plays
π_m twice, m pulls a play; ln T ≥ ln N), must be below T. Fewer than two such instances: the
growth cannot be judged (inconclusive). The gaps, X and UCB1's bounds are in theory.py; the
order-bound reading of the same sentence, ``ucb_switch_bound``, is in ucb_switch_bound.py.
"""

from __future__ import annotations

import math

import numpy as np

from timebandits.core.verdicts.context import ClaimContext, check_run, require_keys
from timebandits.core.verdicts.growth import band_verdict
from timebandits.core.verdicts.stats import log_slopes, resampled_means
from timebandits.core.verdicts.thresholds import HIGHER, LOWER, Threshold, check_keys, threshold
from timebandits.core.verdicts.vocabulary import INCONCLUSIVE, REPRODUCED, STATISTICAL, SUPPORTS

from ..model import B2DEPProblem
from ..theory import inverse_square_gaps, policy_gaps, ucb_bound_pulls
from .witnesses import with_metrics

UCB_POLICY = "ucb"


def needed_below(ctx, experiment: str, algorithm: str) -> bool:
    """Whether UCB1's bound leaves ``experiment``'s switch count uncapped by its horizon."""
    horizon = float(ctx.at(experiment, algorithm, "switches").index.max())
    problem = B2DEPProblem.from_config(ctx.paper["experiments"][experiment]["environment"])
    return ucb_bound_pulls(problem, horizon) < horizon


def slope_ci(
    x: np.ndarray, runs: list[np.ndarray], n_boot: int, level: float, seed: int = 0
) -> tuple[float, float, float]:
    """The slope of the mean runs and its percentile bootstrap CI, the runs of each setting
    resampled independently (their instances are independent experiments)."""
    estimate = float(log_slopes(x, [r.mean() for r in runs])[0])
    if min(r.size for r in runs) < 2 or not math.isfinite(estimate):
        return estimate, math.nan, math.nan
    boots = resampled_means(runs, n_boot, np.random.default_rng(seed))
    tail = (1.0 - level) / 2.0
    low, high = np.nanquantile(log_slopes(x, boots), [tail, 1.0 - tail])
    return estimate, float(low), float(high)


class SwitchGapGrowth:
    """π_ucb's switches at T grow as (Σ_m Δ_m⁻²)^b with b in [min_slope, max_slope] over
    ``experiments``, fixed instances that differ in their gaps (module docstring): reproduced if
    b's bootstrap CI lies inside the band, not reproduced if it lies outside, else inconclusive.
    One deciding row; one supporting row per instance (its gaps, X, switches and regime)."""

    evidence = STATISTICAL
    keys = ("experiments", "algorithm")
    thresholds = (Threshold("min_slope", HIGHER), Threshold("max_slope", LOWER))
    optional = ()

    @classmethod
    def check(cls, claim, paper):
        check_keys(cls, claim)
        require_keys(claim, "experiments", "algorithm")
        if not threshold(cls, claim, "min_slope") < threshold(cls, claim, "max_slope"):
            raise ValueError("min_slope must be below max_slope")
        if len(claim["experiments"]) < 2:
            raise ValueError("switch_gap_growth needs at least two experiments")
        if paper["algorithms"][claim["algorithm"]]["policy"] != UCB_POLICY:
            raise ValueError(f"{claim['algorithm']!r} does not run π_ucb")
        check_run(paper, claim["experiments"], [claim["algorithm"]])
        for exp in claim["experiments"]:
            environment = paper["experiments"][exp]["environment"]
            if not isinstance(environment["delays"], list):
                raise ValueError(f"experiment {exp!r}: needs fixed delays (one instance)")
            if not math.isfinite(inverse_square_gaps(B2DEPProblem.from_config(environment))):
                raise ValueError(f"experiment {exp!r}: some ranking policy ties the best")

    @classmethod
    def evaluate(cls, claim, ctx: ClaimContext) -> list[dict]:
        low_t, high_t = threshold(cls, claim, "min_slope"), threshold(cls, claim, "max_slope")
        alg, rows, judged = claim["algorithm"], [], []
        for exp in claim["experiments"]:
            problem = B2DEPProblem.from_config(ctx.paper["experiments"][exp]["environment"])
            x = inverse_square_gaps(problem)
            switches = np.asarray(ctx.final(exp, alg, "switches"), dtype=float)
            horizon = float(ctx.at(exp, alg, "switches").index.max())
            needed = ucb_bound_pulls(problem, horizon)
            regime = needed < horizon
            if regime:
                judged.append((x, switches))
            gap_text = ", ".join(f"{float(d):.3g}" for d in policy_gaps(problem))
            rows.append(
                {
                    "scope": exp,
                    "role": SUPPORTS,
                    "verdict": REPRODUCED if regime else INCONCLUSIVE,
                    "headline": f"Δ = {gap_text}: switches {switches.mean():.4g} at T = "
                    f"{horizon:g}, × Σ Δ⁻² = {switches.mean() / x:.3g}"
                    + ("" if regime else " (not judged: UCB1's bound reaches T)"),
                    "statistic": (
                        f"gaps {gap_text}, Σ Δ⁻² = {x:.4g}; mean switches {switches.mean():.4g} "
                        f"over {switches.size} runs; UCB1's bound on the suboptimal choices' "
                        f"pulls {needed:.4g} {'<' if regime else '≥'} T = {horizon:g}: "
                        f"{'judged' if regime else 'capped by the horizon, not judged'}"
                    ),
                }
            )
        band = f"{low_t:.3g} to {high_t:.3g}"
        if len(judged) < 2:
            rows.append(
                {
                    "scope": "slope",
                    "verdict": INCONCLUSIVE,
                    "headline": f"{len(judged)} instance(s) where UCB1's bound stays below T",
                    "statistic": f"the growth needs two instances whose switch count the "
                    f"horizon does not cap; {len(judged)} here",
                }
            )
            return rows
        x = np.array([j[0] for j in judged])
        est, low, high = slope_ci(
            x,
            [j[1] for j in judged],
            int(ctx.config["claims"]["bootstrap_samples"]),
            1.0 - ctx.alpha,
        )
        if not math.isfinite(est):
            verdict, headline = INCONCLUSIVE, "no switches in some instance: slope undefined"
        else:
            verdict = band_verdict(low, high, low_t, high_t)
            headline = f"switches ∝ (Σ Δ⁻²)^{est:.2f} (CI {low:.2f} to {high:.2f}; needs {band})"
        pulls = [
            np.asarray(ctx.final(e, alg, "suboptimal_pulls"), dtype=float)
            for e in claim["experiments"]
            if needed_below(ctx, e, alg)
        ]
        p_est, p_low, p_high = slope_ci(
            x, pulls, int(ctx.config["claims"]["bootstrap_samples"]), 1.0 - ctx.alpha
        )
        rows.append(
            {
                "scope": "suboptimal pulls",
                "role": SUPPORTS,
                "verdict": band_verdict(p_low, p_high, low_t, high_t),
                "headline": f"suboptimal pulls ∝ (Σ Δ⁻²)^{p_est:.2f} (CI {p_low:.2f} to "
                f"{p_high:.2f})",
                "statistic": (
                    f"the same fit on the pulls of suboptimal policies at T (not the claim: "
                    f"UCB1's own count, which each switch leaves or enters): slope "
                    f"{p_est:.3g}, CI {p_low:.3g} to {p_high:.3g}"
                ),
            }
        )
        rows.append(
            {
                "scope": "slope",
                "verdict": verdict,
                "headline": headline,
                "statistic": (
                    f"log-log least-squares slope of mean switches at T on Σ Δ⁻² over "
                    f"{len(judged)} instances (Σ Δ⁻² = {', '.join(f'{v:.4g}' for v in x)}): "
                    f"{est:.3g}, {1 - ctx.alpha:.0%} bootstrap CI {low:.3g} to {high:.3g}; "
                    f"the squared inverse gives 1, the inverse 0.5; needs {band}"
                ),
                "slope": est,
                "ci_low": low,
                "ci_high": high,
            }
        )
        return rows

    @classmethod
    def witnesses(cls, claim, ctx):
        """Switches at T proportional to Σ Δ⁻² (slope 1, or the band's middle if it excludes 1),
        or the same in every instance (slope 0); sized so the largest is a tenth of T, rising
        linearly in t, with a 1% spread over runs (core/verdicts/decidability.py)."""

        low_t, high_t = threshold(cls, claim, "min_slope"), threshold(cls, claim, "max_slope")
        inside = 1.0 if low_t <= 1.0 <= high_t else (low_t + high_t) / 2
        xs = {
            e: inverse_square_gaps(
                B2DEPProblem.from_config(ctx.paper["experiments"][e]["environment"])
            )
            for e in claim["experiments"]
        }
        top = max(xs.values())

        def curve(slope: float):
            def value(experiment, trace):
                t = trace["t"].to_numpy(dtype=float)
                reps = trace["repetition"].to_numpy()
                z = np.linspace(-1.0, 1.0, reps.max() + 1)[reps] if reps.max() > 0 else 0.0
                final = 0.1 * t.max() * (xs[experiment] / top) ** slope
                return final * (t / t.max()) * (1.0 + 0.01 * z)

            return value

        return {
            "favourable": with_metrics(ctx, claim, {"switches": curve(inside)}),
            "unfavourable": with_metrics(ctx, claim, {"switches": curve(0.0)}),
        }
