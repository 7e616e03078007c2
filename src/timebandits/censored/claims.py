"""Claim kinds of "Bandits with Censored Consumption of Resources" beyond the generic ones
(core/claims.py): the censoring tables, the "relative gap" and "variation" comparisons of §5
and App. F, the printed ground truths, and Theorem 1 against Corollary 14.

  censoring_near_truth  (statistical) each algorithm's censored proportion over the T rounds is
                        within ``tolerance`` of the exact P(C > τ*) of the optimal pair: two
                        one-sided t-tests over runs (TOST), p = the larger one.
  relative_gap_order    (statistical) RCUCB's relative advantage 1 − R_T(RCUCB)/R_T(baseline)
                        is larger in the first experiment of each listed pair than in the
                        second; a bootstrap over runs (independent experiments) of the
                        difference, p = the bootstrap share on the wrong side.
  larger_spread         (statistical) the run-to-run standard deviation of R_T of ``algorithm``
                        exceeds that of each rival; bootstrap of the log sd ratio over runs.
  printed_truth         (exact) the exact P(C > τ*) against the 1 − F(τ*) the paper prints,
                        to the printed 4 decimals (|difference| ≤ 0.0005 + 1e-9).
  bound_ratio           (exact) Theorem 1's bound below Corollary 14's at T for α ∈ ``alphas``
                        on each experiment's exact ν table.
  coverage              (statistical) Prop. 1: at each checkpoint t ≥ ``from_t``, the share of
                        (run, pair) whose estimate lies above ν + 𝔠(t; α) is at most the bound
                        2(1 + ln t / ln((α+1)/2)) t^{−2α/(α+1)} (and the same below ν − 𝔠);
                        an exact binomial test where the worst checkpoint exceeds it.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.stats import binom

from timebandits.core.claims import (EXACT, INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED,
                                     STATISTICAL, check_run, paired_verdict,
                                     require_keys)
from timebandits.core.seeding import check_seed
from timebandits.core.stats import equivalence_test

from .model import CensoredProblem
from .theory import corollary14_bound, proposition1_violation_bound, theorem1_bound

PRINTED_TOLERANCE = 0.0005 + 1e-9


def problem_of(paper: dict, experiment: str) -> CensoredProblem:
    return CensoredProblem.from_config(paper["experiments"][experiment]["environment"])


def truth_of(paper: dict, experiment: str) -> float:
    """P(C > τ*) of the optimal pair (the mean over optimal pairs if several are tied)."""
    problem = problem_of(paper, experiment)
    return float(np.mean([problem.censor_prob[i, k] for i, k in problem.optimal_pairs]))


def censored_share(trace) -> np.ndarray:
    """Censored rounds / T per run, ordered by repetition (spec P10: every round counts, the
    initialisation included)."""
    last = trace[trace["t"] == trace["t"].max()].sort_values("repetition")
    return last["censored"].to_numpy(dtype=float) / float(trace["t"].max())


class CensoringNearTruth:
    evidence = STATISTICAL

    @staticmethod
    def check(claim, paper):
        require_keys(claim, "experiments", "algorithms", "tolerance")
        check_run(claim, paper, claim["experiments"], claim["algorithms"])

    @staticmethod
    def evaluate(claim, ctx):
        rows, tol = [], float(claim["tolerance"])
        for exp in claim["experiments"]:
            truth = truth_of(ctx.paper, exp)
            for alg in claim["algorithms"]:
                share = censored_share(ctx.trace(exp, alg))
                test = equivalence_test(share, truth, tol)
                p_near, p_far = test["p_claimed"], test["p_opposite"]
                rows.append({
                    "scope": f"{exp} {ctx.label(alg)}", "verdict": paired_verdict(test, ctx.alpha),
                    "headline": f"{share.mean():.4f} vs truth {truth:.4f} (±{tol:g}), p = {p_near:.2g}",
                    "statistic": (f"censored share {share.mean():.4f} (sd {share.std(ddof=1):.4f} "
                                  f"over {share.size} runs) vs exact P(C > τ*) = {truth:.4f}; "
                                  f"equivalence margin ±{tol:g}: TOST p = {p_near:.2g}, "
                                  f"outside the margin p = {p_far:.2g}"),
                    **test})
        return rows


def _relative_gaps(ctx, experiment, baseline, boot):
    """1 − mean R_T(RCUCB)/mean R_T(baseline), on the runs ``boot`` (paired: same runs)."""
    ours, theirs = ctx.paired(experiment, "rcucb", baseline, "regret")
    return 1.0 - ours[boot].mean(axis=-1) / theirs[boot].mean(axis=-1)


class RelativeGapOrder:
    evidence = STATISTICAL

    @staticmethod
    def check(claim, paper):
        require_keys(claim, "pairs", "baselines")
        for first, second in claim["pairs"]:
            check_run(claim, paper, [first, second], ["rcucb", *claim["baselines"]])

    @staticmethod
    def evaluate(claim, ctx):
        rows = []
        rng = np.random.default_rng(check_seed(ctx.config["base_seed"], "censored", claim["id"]))
        n_boot = int(ctx.config["claims"]["bootstrap_samples"])
        for first, second in claim["pairs"]:
            for baseline in claim["baselines"]:
                runs = [ctx.final(e, "rcucb", "regret").size for e in (first, second)]
                boots = [rng.integers(0, r, size=(n_boot, r)) for r in runs]
                gap_first = _relative_gaps(ctx, first, baseline, slice(None))
                gap_second = _relative_gaps(ctx, second, baseline, slice(None))
                diff = (_relative_gaps(ctx, first, baseline, boots[0])
                        - _relative_gaps(ctx, second, baseline, boots[1]))
                test = {"p_claimed": float(np.mean(diff <= 0.0)),
                        "p_opposite": float(np.mean(diff >= 0.0))}
                low, high = np.quantile(diff, [0.025, 0.975])
                rows.append({
                    "scope": f"{first} > {second} vs {ctx.label(baseline)}",
                    "verdict": paired_verdict(test, ctx.alpha),
                    "headline": f"{gap_first:.3f} vs {gap_second:.3f}, p = {test['p_claimed']:.2g}",
                    "statistic": (f"RCUCB's relative advantage 1 − R_T(RCUCB)/R_T({ctx.label(baseline)}): "
                                  f"{gap_first:.3f} on {first} vs {gap_second:.3f} on {second}; "
                                  f"bootstrap difference 95% CI [{low:.3f}, {high:.3f}], "
                                  f"p = {test['p_claimed']:.2g} ({n_boot} resamples)"),
                    **test})
        return rows


class LargerSpread:
    evidence = STATISTICAL

    @staticmethod
    def check(claim, paper):
        require_keys(claim, "experiments", "algorithm", "rivals", "metric")
        check_run(claim, paper, claim["experiments"], [claim["algorithm"], *claim["rivals"]])

    @staticmethod
    def evaluate(claim, ctx):
        rows = []
        rng = np.random.default_rng(check_seed(ctx.config["base_seed"], "censored", claim["id"]))
        n_boot = int(ctx.config["claims"]["bootstrap_samples"])
        for exp in claim["experiments"]:
            for rival in claim["rivals"]:
                ours, theirs = ctx.paired(exp, claim["algorithm"], rival, claim["metric"])
                idx = rng.integers(0, ours.size, size=(n_boot, ours.size))
                with np.errstate(divide="ignore"):
                    ratio = np.log(ours[idx].std(axis=1, ddof=1)) - np.log(theirs[idx].std(axis=1, ddof=1))
                test = {"p_claimed": float(np.mean(ratio <= 0.0)), "p_opposite": float(np.mean(ratio >= 0.0))}
                sd_ours, sd_theirs = ours.std(ddof=1), theirs.std(ddof=1)
                rows.append({
                    "scope": f"{exp} {ctx.label(claim['algorithm'])} vs {ctx.label(rival)}",
                    "verdict": paired_verdict(test, ctx.alpha),
                    "headline": f"sd {sd_ours:.4g} vs {sd_theirs:.4g}, p = {test['p_claimed']:.2g}",
                    "statistic": (f"run-to-run sd of {claim['metric']} at T: "
                                  f"{ctx.label(claim['algorithm'])} {sd_ours:.4g} vs "
                                  f"{ctx.label(rival)} {sd_theirs:.4g} (ratio {sd_ours / sd_theirs:.3g}); "
                                  f"paired bootstrap of the log ratio, p = {test['p_claimed']:.2g}"),
                    **test})
        return rows


class PrintedTruth:
    evidence = EXACT

    @staticmethod
    def check(claim, paper):
        require_keys(claim, "values")
        for exp in claim["values"]:
            if exp not in paper["experiments"]:
                raise ValueError(f"unknown experiment {exp!r}")

    @staticmethod
    def evaluate(claim, ctx):
        rows = []
        for exp, printed in claim["values"].items():
            problem = problem_of(ctx.paper, exp)
            ours = truth_of(ctx.paper, exp)
            optimal = "; ".join(f"arm {i + 1}, τ = {problem.grid[k]:.4f}" for i, k in problem.optimal_pairs)
            holds = abs(ours - float(printed)) <= PRINTED_TOLERANCE
            rows.append({
                "scope": exp, "verdict": REPRODUCED if holds else NOT_REPRODUCED,
                "headline": f"{ours:.4f} vs printed {float(printed):.4f}",
                "statistic": (f"exact P(C > τ*) = {ours:.6f} at the optimal pair(s) {optimal} "
                              f"(ν* = {problem.nu_star:.6f}); the paper prints {float(printed):.4f}; "
                              f"|difference| = {abs(ours - float(printed)):.2g}")})
        return rows


class BoundRatio:
    evidence = EXACT

    @staticmethod
    def check(claim, paper):
        require_keys(claim, "experiments", "alphas", "horizon")

    @staticmethod
    def evaluate(claim, ctx):
        rows = []
        horizon = float(claim["horizon"])
        for exp in claim["experiments"]:
            problem = problem_of(ctx.paper, exp)
            for alpha in claim["alphas"]:
                thm1 = float(theorem1_bound(problem.nu, problem.penalty, alpha, horizon))
                cor14 = float(corollary14_bound(problem.nu, problem.penalty[-1], alpha, horizon))
                rows.append({
                    "scope": f"{exp} α = {alpha:g}",
                    "verdict": REPRODUCED if thm1 < cor14 else NOT_REPRODUCED,
                    "headline": f"Thm 1 / Cor 14 = {thm1 / cor14:.3g}",
                    "statistic": (f"at T = {horizon:g}: Theorem 1 {thm1:.4g}, Corollary 14 "
                                  f"{cor14:.4g} (ratio {thm1 / cor14:.3g}); K = {problem.K} limits")})
        return rows


class Coverage:
    evidence = STATISTICAL

    @staticmethod
    def check(claim, paper):
        require_keys(claim, "experiments", "algorithms", "from_t")
        check_run(claim, paper, claim["experiments"], claim["algorithms"])

    @staticmethod
    def evaluate(claim, ctx):
        """Reproduced where no checkpoint's violation share exceeds the bound; not reproduced if
        the worst one does so significantly (P(X ≥ v | p = bound) < α); else inconclusive."""
        rows = []
        for exp in claim["experiments"]:
            pairs = problem_of(ctx.paper, exp).nu.size
            for alg in claim["algorithms"]:
                alpha = float(ctx.paper["algorithms"][alg]["params"]["alpha"])
                for side in ("above", "below"):
                    table = ctx.at(exp, alg, f"{side}_conf")
                    table = table[table.index >= float(claim["from_t"])]
                    t = table.index.to_numpy(dtype=float)
                    level = np.minimum(proposition1_violation_bound(alpha, t + 1.0), 1.0)
                    trials = pairs * table.shape[1]
                    violations = table.sum(axis=1).to_numpy()
                    worst = int(np.argmax(violations / trials - level))
                    share, bound = violations[worst] / trials, level[worst]
                    p_exceeds = float(binom.sf(violations[worst] - 1, trials, bound))
                    verdict = (REPRODUCED if share <= bound else
                               NOT_REPRODUCED if p_exceeds < ctx.alpha else INCONCLUSIVE)
                    rows.append({
                        "scope": f"{exp} {ctx.label(alg)} {side}",
                        "verdict": verdict,
                        "headline": f"worst t = {t[worst]:.3g}: {share:.2g} vs bound {bound:.2g}",
                        "statistic": (f"share of (run, pair) whose estimate after round t lies "
                                      f"{side} ν ± 𝔠(t+1; α = {alpha:g}), over {t.size} checkpoints "
                                      f"t ≥ {float(claim['from_t']):g}: largest {np.max(violations / trials):.3g}; "
                                      f"closest to the bound at t = {t[worst]:.3g}: "
                                      f"{int(violations[worst])}/{trials} against Prop. 1's {bound:.3g}; "
                                      f"exact binomial P(X ≥ {int(violations[worst])}) = {p_exceeds:.2g}"),
                        "p_claimed": math.nan, "p_opposite": p_exceeds})
        return rows


CLAIM_KINDS = {
    "bound_ratio": BoundRatio,
    "censoring_near_truth": CensoringNearTruth,
    "coverage": Coverage,
    "larger_spread": LargerSpread,
    "printed_truth": PrintedTruth,
    "relative_gap_order": RelativeGapOrder,
}
