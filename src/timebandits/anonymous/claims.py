"""Claim kinds of "Adaptive Algorithms for Multi-armed Bandit with Composite and Anonymous
Feedback" beyond the generic ones (core/verdicts/claims.py).

  best_in_most    (statistical) ``algorithm`` is best or close to it "in most instances": in each
                  experiment, for every rival, a one-sided test that its ``statistic`` at T (the
                  mean regret: paired t-test; the run-to-run sd: paired bootstrap of the log sd
                  ratio) is below (1 + ``tolerance``) × the rival's. An experiment counts as a
                  win when every rival's test passes, as a loss when some rival is significantly
                  better by more than the tolerance; the claim needs wins in more than half.
                  As in wins_in_settings, a win's tests are at α/m over the m instances (any
                  majority of them may be the wins), a loss's at α/(m·r) over r rivals.
  constant_order  (exact) Remark 1: Theorem 1's constant c*_f (theory.theorem1_constant, summary
                  line) strictly decreases along ``order`` (slower- to faster-growing f) for each
                  α of ``alphas`` and each experiment with finite d1. Equal constants (t1, which
                  does not depend on f, dominating T*) do not reproduce "smaller"; an infinite or
                  undefined constant (d1 = ∞, α ≤ 4) has no order: a supporting row only. The log10 constants of each
                  (experiment, α) go through ``ClaimContext.quantity`` (key :func:`constants_key`).
  lemma1          (statistical) Lemma 1's Monte Carlo: over every run and decision time of the
                  listed ARS-UCB algorithms, the count of arm-decisions whose estimate missed s_i
                  by the radius rad'_i(t) against Σ 2/t³, the count Lemma 1 allows in expectation;
                  a one-sided Poisson test that the misses exceed it. Where the radius is infinite
                  (d1 = ∞ or d2 = ∞: polynomial γ = 2) no estimate can miss it, so the experiment
                  is no evidence: a supporting row, never a deciding one.

and, in claims_more.py, log_growth_each (core's log_growth over several algorithms) and
not_worse_by (a non-inferiority test at T).

Each kind's ``witnesses`` (core/verdicts/decidability.py) builds, from the claim's real inputs, the most
favourable and the most unfavourable data the setting allows, so the claims table can say
whether each verdict was reachable.
"""

from __future__ import annotations

import math

import numpy as np

from timebandits.core.sim.seeding import check_seed
from timebandits.core.verdicts.context import ClaimContext, check_run
from timebandits.core.verdicts.decidability import derived, linear, scale, with_curves
from timebandits.core.verdicts.stats import paired_one_sided
from timebandits.core.verdicts.thresholds import LOWER, Threshold, check_keys, threshold
from timebandits.core.verdicts.vocabulary import (
    EXACT,
    INCONCLUSIVE,
    NOT_REPRODUCED,
    REPRODUCED,
    STATISTICAL,
)

from .claims_more import CLAIM_KINDS as MORE_KINDS
from .model import AnonymousProblem
from .simulation import algorithm_params
from .theory import theorem1_constant

STATISTICS = ("mean", "sd")


def problem_of(paper: dict, experiment: str) -> AnonymousProblem:
    return AnonymousProblem.from_config(paper["experiments"][experiment]["environment"])


def _resampled_spreads(x: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """The sample sd of each bootstrap resample ``x[idx[b]]``."""
    return x[idx].std(axis=1, ddof=1)


def _spread_draws(claim, ctx: ClaimContext, n_boot: int) -> dict:
    """For each (experiment, rival) of a best_in_most claim on the sd, in the order the claim
    tests them: the sds of the resamples of its two paired bootstraps (ours' and the rival's
    under the first resampling, the rival's and ours under the second), drawn from the claim's
    own stream. They do not depend on the tolerance, so they are made once per context and the
    claim's re-evaluations at other tolerances (core/verdicts/firmness.py) read them again."""
    def draw():
        rng = np.random.default_rng(check_seed(ctx.config["base_seed"], "anonymous", claim["id"]))
        out = {}
        for exp in claim["experiments"]:
            for rival in claim["rivals"]:
                ours, theirs = ctx.paired(exp, claim["algorithm"], rival, "regret")
                first = rng.integers(0, ours.size, size=(n_boot, ours.size))
                second = rng.integers(0, ours.size, size=(n_boot, ours.size))
                out[exp, rival] = (_resampled_spreads(ours, first), _resampled_spreads(theirs, first),
                                   _resampled_spreads(theirs, second), _resampled_spreads(ours, second))
        return out
    return ctx.memo(("spread_draws", claim["id"], n_boot), draw)


def _spread_test(spreads: tuple, scale: float) -> dict:
    """Paired bootstrap over runs of log sd(first) − log sd(second), from the two arrays of
    resampled sds: p_claimed = the share of resamples with it ≥ 0, p_opposite = the share with
    it ≤ 0, among the resamples where both sds are positive relative to ``scale``, the largest
    |value| (one that repeats a single run has no spread to compare: with 3 runs it is 1 in 9,
    and rounding then gave a random sign)."""
    valid = (spreads[0] > 1e-12 * scale) & (spreads[1] > 1e-12 * scale)
    if not valid.any():
        return {"p_claimed": float("nan"), "p_opposite": float("nan")}
    log_ratio = np.log(spreads[0][valid]) - np.log(spreads[1][valid])
    return {"p_claimed": float(np.mean(log_ratio >= 0.0)),
            "p_opposite": float(np.mean(log_ratio <= 0.0))}


class BestInMost:
    evidence = STATISTICAL
    keys = ("experiments", "algorithm", "rivals", "statistic")
    thresholds = (Threshold("tolerance", LOWER, low=0.0),)
    optional = ()

    @classmethod
    def check(cls, claim, paper):
        check_keys(cls, claim)
        check_run(paper, claim["experiments"], [claim["algorithm"], *claim["rivals"]])
        if claim["statistic"] not in STATISTICS:
            raise ValueError(f"statistic must be one of {STATISTICS}, got {claim['statistic']!r}")

    @classmethod
    def evaluate(cls, claim, ctx: ClaimContext) -> list[dict]:
        ratio = 1.0 + threshold(cls, claim, "tolerance")
        n = len(claim["experiments"])
        need = n // 2 + 1
        win_level = ctx.alpha if need >= n else ctx.alpha / n
        loss_level = ctx.alpha / (n * len(claim["rivals"]))
        ours_id = claim["algorithm"]
        n_boot = int(ctx.config["claims"]["bootstrap_samples"])
        spreads = _spread_draws(claim, ctx, n_boot) if claim["statistic"] == "sd" else {}
        rows, wins, losses = [], [], []
        for exp in claim["experiments"]:
            verdicts, worst = [], None
            for rival in claim["rivals"]:
                ours, theirs = ctx.paired(exp, ours_id, rival, "regret")
                if claim["statistic"] == "mean":
                    test = paired_one_sided(ours, ratio * theirs)
                    value, other = ours.mean(), theirs.mean()
                    # the opposite claim, "the rival is better by more than the tolerance"
                    opposite = paired_one_sided(ratio * theirs, ours)["p_claimed"]
                else:
                    ours_1, theirs_1, theirs_2, ours_2 = spreads[exp, rival]
                    scale = np.maximum(np.abs(ours).max(), np.abs(ratio * theirs).max())
                    test = _spread_test((ours_1, ratio * theirs_1), scale)
                    value, other = ours.std(ddof=1), theirs.std(ddof=1)
                    opposite = _spread_test((ratio * theirs_2, ours_2), scale)["p_claimed"]
                verdict = (REPRODUCED if test["p_claimed"] < win_level
                           else NOT_REPRODUCED if opposite < loss_level else INCONCLUSIVE)
                verdicts.append(verdict)
                if worst is None or value / other > worst[1]:
                    worst = (rival, value / other, test["p_claimed"])
            won = all(v == REPRODUCED for v in verdicts)
            lost = any(v == NOT_REPRODUCED for v in verdicts)
            (wins if won else losses if lost else []).append(exp)
            outcome = "best or within the tolerance" if won else (
                "a rival is better by more than the tolerance" if lost else "undecided")
            rows.append({
                "scope": exp, "role": "supports",
                "verdict": REPRODUCED if won else NOT_REPRODUCED if lost else INCONCLUSIVE,
                "headline": (f"{outcome}; largest {claim['statistic']} ratio "
                             f"{worst[1]:.3g} (vs {ctx.label(worst[0])})"),
                "statistic": (f"{claim['statistic']} of the regret at T, {ctx.label(ours_id)} over "
                              f"each rival; the largest is {worst[1]:.3g} against "
                              f"{ctx.label(worst[0])} (test of < {ratio:g}: p = {worst[2]:.2g})"),
            })
        undecided = n - len(wins) - len(losses)
        verdict = (REPRODUCED if len(wins) >= need
                   else NOT_REPRODUCED if len(wins) + undecided < need else INCONCLUSIVE)
        best = "best" if ratio == 1 else f"best or within {ratio - 1:.0%}"
        rows.insert(0, {
            "scope": "all instances", "verdict": verdict,
            "headline": f"{best} in {len(wins)}/{n} instances, needs {need}",
            "statistic": (f"{ctx.label(ours_id)}'s {claim['statistic']} regret at T below "
                          f"{ratio:g} × every rival's (one-sided tests at "
                          + (f"α = {win_level:.2g}" if need >= n else f"α/{n} = {win_level:.2g}")
                          + f") in {len(wins)}/{n} instances ({', '.join(wins) or 'none'}); a rival "
                          f"significantly better by more (at {loss_level:.2g}) in "
                          f"{', '.join(losses) or 'none'}; needs more than half"),
        })
        return rows

    @classmethod
    def witnesses(cls, claim, ctx):
        """Every rival's regret at 3 × ours (favourable: ours smaller in mean and in sd in every
        instance), or ours at 3 (1 + tolerance) × every rival's (unfavourable)."""
        ours, rivals = claim["algorithm"], claim["rivals"]
        worse = 3.0 * (1.0 + threshold(cls, claim, "tolerance"))
        s = scale(ctx, claim["experiments"], [ours, *rivals], "regret", headroom=worse)
        return {"favourable": with_curves(ctx, "regret", {ours: linear(s),
                                                           **{r: linear(3.0 * s) for r in rivals}}),
                "unfavourable": with_curves(ctx, "regret", {ours: linear(worse * s),
                                                             **{r: linear(s) for r in rivals}})}


def constants_key(experiment: str, alpha: float) -> str:
    """The ``ClaimContext.quantity`` key of the log10 c*_f along a constant_order claim's order."""
    return f"log10 c* {experiment} alpha={float(alpha):g}"


class ConstantOrder:
    evidence = EXACT
    keys = ("experiments", "alphas", "order")
    # in decades, below 1: the witnesses fall by one decade a step
    thresholds = (Threshold("rounding_tolerance", LOWER, low=0.0, high=1.0, open_high=True),)
    optional = ()

    @classmethod
    def check(cls, claim, paper):
        check_keys(cls, claim)
        check_run(paper, claim["experiments"], [])
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
                rows.append({"scope": exp, "role": "supports", "verdict": INCONCLUSIVE,
                             "headline": "d1 = ∞: c* is infinite for every f",
                             "statistic": "d1 = ∞ (spec P13): Theorem 1's constant is infinite "
                                          "for every f, so there is no order to check"})
                continue
            for alpha in claim["alphas"]:
                constants = [theorem1_constant(problem.means, float(alpha), problem.d1(),
                                               problem.d2(), s["kind"], s.get("c", 1),
                                               s.get("beta", 1)) for s in sizes]
                logs = np.asarray(ctx.quantity(constants_key(exp, alpha), lambda: np.array(
                    [c.log10_c_star for c in constants])), dtype=float)
                if not np.all(np.isfinite(logs)):
                    rows.append({"scope": f"{exp} α = {alpha:g}", "role": "supports",
                                 "verdict": INCONCLUSIVE,
                                 "headline": "c* infinite or undefined for some f: no order",
                                 "statistic": "log10 c*_f along the order: " + ", ".join(
                                     f"{v:.6g}" for v in logs) + " (an infinite constant has "
                                     "no order to check)"})
                    continue
                steps = np.diff(logs)
                decreasing = bool(np.all(steps < -threshold(cls, claim, "rounding_tolerance")))
                values = ", ".join(f"{ctx.label(a)}: {v:.6g}" for a, v in zip(claim["order"], logs))
                t1 = constants[0].log10_t1
                rows.append({
                    "scope": f"{exp} α = {alpha:g}",
                    "verdict": REPRODUCED if decreasing else NOT_REPRODUCED,
                    "headline": (f"log10 c* {logs[0]:.4g} → {logs[-1]:.4g}"
                                 + ("" if decreasing else
                                    f" (not strictly decreasing; log10 t1 = {t1:.4g})")),
                    "statistic": (f"log10 c*_f along the order: {values}; log10 t1 = {t1:.6g} "
                                  f"(independent of f), log10 t2 = "
                                  + ", ".join(f"{c.log10_t2:.4g}" for c in constants)),
                })
        if not any(r.get("role") != "supports" for r in rows):
            rows.append({"scope": "all", "verdict": INCONCLUSIVE,
                         "headline": "no (experiment, α) with finite constants",
                         "statistic": "every listed experiment has d1 = ∞ or an infinite or "
                                      "undefined c*_f at every α"})
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
        return {side: derived(ctx, overrides={k: fn for k in keys})
                for side, fn in (("favourable", falling), ("unfavourable", equal))}


def infinite_radius(paper: dict, experiment: str) -> bool:
    """Lemma 1's radius rad'_i(t) = √(4 ln t/N_i) + d1 K_i/N_i + √(12 d2 K_i ln t)/N_i is
    infinite after the first round where d1 or d2 is (polynomial γ = 2: d1 = ∞)."""
    problem = problem_of(paper, experiment)
    return not (math.isfinite(problem.d1()) and math.isfinite(problem.d2()))


class Lemma1:
    evidence = STATISTICAL
    keys = ("experiments", "algorithms")
    optional = ()

    @classmethod
    def check(cls, claim, paper):
        check_keys(cls, claim)
        check_run(paper, claim["experiments"], claim["algorithms"])
        for exp in claim["experiments"]:
            if "lemma1" not in paper["experiments"][exp].get("record", []):
                raise ValueError(f"experiment {exp!r} does not record lemma1")

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        for exp in claim["experiments"]:
            if infinite_radius(ctx.paper, exp):
                rows.append({"scope": exp, "role": "supports", "verdict": INCONCLUSIVE,
                             "headline": "rad' = ∞ (d1 or d2 infinite): can never be missed",
                             "statistic": "Lemma 1's radius is infinite here, so no estimate "
                                          "can miss it: no evidence either way"})
                continue
            checks = misses = allowed = 0.0
            largest = 0.0
            for alg in claim["algorithms"]:
                checks += ctx.final(exp, alg, "lemma1_checks").sum()
                misses += ctx.final(exp, alg, "lemma1_misses").sum()
                allowed += ctx.final(exp, alg, "lemma1_bound").sum()
                largest = max(largest, ctx.final(exp, alg, "lemma1_ratio").max())
            if checks == 0:
                rows.append({"scope": exp, "verdict": INCONCLUSIVE,
                             "headline": "no decision after the initialisation",
                             "statistic": "no arm-decision to check"})
                continue
            from scipy.stats import poisson  # here: a figure job imports this module

            p = float(poisson.sf(misses - 1, allowed))  # 1 when there is no miss
            rows.append({
                "scope": exp,
                "verdict": NOT_REPRODUCED if p < ctx.alpha else REPRODUCED,
                "headline": (f"{misses:.0f} misses in {checks:.3g} checks (allowed "
                             f"{allowed:.3g}); largest |ŝ − s|/rad' = {largest:.3g}"),
                "statistic": (f"{misses:.0f} of {checks:.0f} arm-decisions with |ŝ_i − s_i| ≥ "
                              f"rad'_i(t), over every run of {len(claim['algorithms'])} ARS-UCB "
                              f"algorithms; Lemma 1 allows Σ 2/t³ = {allowed:.4g} in expectation; "
                              f"one-sided Poisson p = {p:.2g}; the largest |ŝ − s|/rad' seen is "
                              f"{largest:.3g} (how conservative the radius is)"),
                "p_opposite": p,
            })
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
        return {"favourable": derived(ctx, trace_of=trace_of(False)),
                "unfavourable": derived(ctx, trace_of=trace_of(True))}


CLAIM_KINDS = {
    "best_in_most": BestInMost,
    "constant_order": ConstantOrder,
    "lemma1": Lemma1,
    **MORE_KINDS,  # log_growth_each, not_worse_by (claims_more.py)
}
