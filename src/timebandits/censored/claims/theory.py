"""Exact and theory claims of "Bandits with Censored Consumption of Resources".

  printed_truth  (exact) the exact P(C > τ*) of the optimal pair (the optimum of eq. (3) on
                 the exact ν table) against the 1 − F(τ*) the paper prints: |difference| ≤
                 ``tolerance`` (the paper states none: a config value with its provenance).
  bound_ratio    (exact) Theorem 1's bound below Corollary 14's at T for α ∈ ``alphas`` on each
                 experiment's exact ν table: the ratio Thm 1 / Cor 14 < 1; undefined (a void,
                 infinite bound, α ≤ 1) decides neither way. With ``min_share`` s (§3.3: RCUCB
                 "in general superior"), one deciding row: the ratio is < 1 in at least a share
                 s of the (experiment, α) settings where it is defined; the settings support it.
  coverage       (statistical) Prop. 1: at each checkpoint t ≥ ``from_t``, the share of
                 (run, pair) whose estimate lies above ν + 𝔠(t; α) is at most the bound
                 2(1 + ln t / ln((α+1)/2)) t^{−2α/(α+1)} (and the same below ν − 𝔠); exact
                 binomial tests where a checkpoint exceeds it, Bonferroni over the checkpoints.

The exact kinds route the quantity they decide on through ``ctx.quantity`` so that their
witnesses (core/verdicts/decidability.py) can replace it; an undefined quantity stays undefined.
"""

from __future__ import annotations

import math

import numpy as np

from timebandits.core.verdicts.decidability import derived, with_runs
from timebandits.core.verdicts.declared import DeclaredCheck
from timebandits.core.verdicts.thresholds import HIGHER, LOWER, Threshold, threshold
from timebandits.core.verdicts.vocabulary import (
    EXACT,
    INCONCLUSIVE,
    NOT_REPRODUCED,
    REPRODUCED,
    STATISTICAL,
)

from ..analysis import truth_of
from ..model import problem_of
from ..proposition1 import proposition1_violation_bound
from ..theory import corollary14_bound, theorem1_bound


def _keep_undefined(value):
    """A witness override: ``value`` where the real quantity is finite, else the real one."""
    return lambda real: value if np.isfinite(real) else real


class PrintedTruth(DeclaredCheck):
    evidence = EXACT
    keys = ("values",)
    thresholds = (Threshold("tolerance", LOWER, low=0.0),)
    optional = ()

    runs = ("values",)

    @classmethod
    def evaluate(cls, claim, ctx):
        rows = []
        for exp, printed in claim["values"].items():
            problem = problem_of(ctx.paper, exp)
            ours = float(ctx.quantity(f"truth {exp}", lambda: truth_of(ctx.paper, exp)))
            tol = threshold(cls, claim, "tolerance")
            optimal = "; ".join(
                f"arm {i + 1}, τ = {problem.grid[k]:.4f}" for i, k in problem.optimal_pairs
            )
            diff = abs(ours - float(printed))
            verdict = (
                INCONCLUSIVE
                if not math.isfinite(diff)
                else REPRODUCED
                if diff <= tol
                else NOT_REPRODUCED
            )
            rows.append(
                {
                    "scope": exp,
                    "verdict": verdict,
                    "headline": f"{ours:.4f} vs printed {float(printed):g} (±{tol:.2g})",
                    "statistic": (
                        f"exact P(C > τ*) = {ours:.6f} at the optimal pair(s) {optimal} "
                        f"(ν* = {problem.nu_star:.6f}); the paper prints {float(printed):g}; "
                        f"|difference| = {diff:.2g}, tolerance {tol:.2g}"
                    ),
                }
            )
        return rows

    @classmethod
    def witnesses(cls, claim, ctx):
        """Every exact value at the printed one, or 10 tolerances away from it."""
        out = {}
        for side, away in (("favourable", 0.0), ("unfavourable", 10.0)):
            out[side] = derived(
                ctx,
                overrides={
                    f"truth {exp}": _keep_undefined(
                        float(p) + away * threshold(cls, claim, "tolerance")
                    )
                    for exp, p in claim["values"].items()
                },
            )
        return out


def bound_ratio(problem, alpha: float, horizon: float) -> tuple[float, float, float]:
    """(Theorem 1's bound, Corollary 14's, their ratio); the ratio is NaN unless both bounds are
    finite and Corollary 14's is positive."""
    thm1 = float(theorem1_bound(problem.nu, problem.penalty, alpha, horizon))
    cor14 = float(corollary14_bound(problem.nu, problem.penalty[-1], alpha, horizon))
    defined = math.isfinite(thm1) and math.isfinite(cor14) and cor14 > 0
    return thm1, cor14, thm1 / cor14 if defined else math.nan


def share_row(rows: list[dict], min_share: float) -> dict:
    """The deciding row of ``bound_ratio`` with ``min_share``: reproduced if the settings whose
    rows are reproduced (ratio < 1) make at least ``min_share`` of those decided either way;
    inconclusive if none is decided."""
    decided = [r for r in rows if r["verdict"] != INCONCLUSIVE]
    below = sum(r["verdict"] == REPRODUCED for r in decided)
    if not decided:
        return {
            "scope": "share of settings",
            "verdict": INCONCLUSIVE,
            "headline": "no setting has a defined ratio",
            "statistic": "every ratio undefined",
        }
    share = below / len(decided)
    above = [r["scope"] for r in decided if r["verdict"] != REPRODUCED]
    return {
        "scope": "share of settings",
        "verdict": REPRODUCED if share >= min_share else NOT_REPRODUCED,
        "headline": f"Thm 1 < Cor 14 in {below}/{len(decided)} settings (needs ≥ {min_share:g})",
        "statistic": (
            f"ratio Thm 1 / Cor 14 below 1 in {below} of {len(decided)} settings "
            f"with a defined ratio (share {share:.3f}, needs ≥ {min_share:g}); "
            f"not below 1: {', '.join(above) or 'none'}"
        ),
    }


class BoundRatio(DeclaredCheck):
    evidence = EXACT
    keys = ("experiments", "alphas", "horizon")
    # the share of settings that must have the ratio below 1: 1 (every one) unless given
    thresholds = (Threshold("min_share", HIGHER, default=1.0, low=0.0, high=1.0, open_low=True),)
    optional = ()

    @staticmethod
    def evaluate(claim, ctx):
        rows = []
        horizon = float(claim["horizon"])
        for exp in claim["experiments"]:
            problem = problem_of(ctx.paper, exp)
            for alpha in claim["alphas"]:
                thm1, cor14, real = bound_ratio(problem, alpha, horizon)
                ratio = float(ctx.quantity(f"ratio {exp} {alpha:g}", lambda: real))
                verdict = (
                    INCONCLUSIVE
                    if not math.isfinite(ratio)
                    else REPRODUCED
                    if ratio < 1.0
                    else NOT_REPRODUCED
                )
                rows.append(
                    {
                        "scope": f"{exp} α = {alpha:g}",
                        "verdict": verdict,
                        "headline": f"Thm 1 / Cor 14 = {ratio:.3g}",
                        "statistic": (
                            f"at T = {horizon:g}: Theorem 1 {thm1:.4g}, Corollary 14 "
                            f"{cor14:.4g} (ratio {ratio:.3g}; a void bound leaves it "
                            f"undefined); K = {problem.K} limits"
                        ),
                    }
                )
        if "min_share" not in claim:
            return rows
        return [share_row(rows, threshold(BoundRatio, claim, "min_share"))] + [
            {**row, "role": "supports"} for row in rows
        ]

    @staticmethod
    def witnesses(claim, ctx):
        """Every ratio at 1/2, or at 2 (where it is defined)."""
        keys = [
            f"ratio {exp} {alpha:g}" for exp in claim["experiments"] for alpha in claim["alphas"]
        ]
        return {
            side: derived(ctx, overrides={k: _keep_undefined(value) for k in keys})
            for side, value in (("favourable", 0.5), ("unfavourable", 2.0))
        }


class Coverage(DeclaredCheck):
    evidence = STATISTICAL
    keys = ("experiments", "algorithms", "from_t")
    optional = ()

    runs = ("experiments", "algorithms")

    @staticmethod
    def evaluate(claim, ctx):
        """Reproduced where no checkpoint's violation share exceeds the bound; not reproduced if
        one does so significantly: the smallest P(X ≥ v | p = bound) over the checkpoints, times
        their number (Bonferroni: the checkpoint is picked from all of them), is below α; else
        inconclusive. Checkpoints whose counts are undefined (RCUCB's warm-up) are left out."""
        rows = []
        for exp in claim["experiments"]:
            pairs = problem_of(ctx.paper, exp).nu.size
            for alg in claim["algorithms"]:
                alpha = float(ctx.paper["algorithms"][alg]["params"]["alpha"])
                for side in ("above", "below"):
                    table = ctx.at(exp, alg, f"{side}_conf")
                    # before RCUCB's warm-up ends the counts are undefined (NaN): no evidence
                    table = table[
                        (table.index >= float(claim["from_t"])) & table.notna().all(axis=1)
                    ]
                    if table.empty:
                        reason = f"no checkpoint t ≥ {float(claim['from_t']):g} with defined counts"
                        rows.append(
                            {
                                "scope": f"{exp} {ctx.label(alg)} {side}",
                                "verdict": INCONCLUSIVE,
                                "headline": reason,
                                "statistic": reason,
                                "p_claimed": math.nan,
                                "p_opposite": math.nan,
                            }
                        )
                        continue
                    t = table.index.to_numpy(dtype=float)
                    level = np.minimum(proposition1_violation_bound(alpha, t + 1.0), 1.0)
                    trials = pairs * table.shape[1]
                    violations = table.sum(axis=1).to_numpy()
                    from scipy.stats import binom

                    p_each = binom.sf(violations - 1, trials, level)
                    exceeded = bool(np.any(violations / trials > level))
                    worst = int(
                        np.argmin(p_each) if exceeded else np.argmax(violations / trials - level)
                    )
                    share, bound = violations[worst] / trials, level[worst]
                    p_exceeds = float(min(1.0, p_each[worst] * t.size))
                    verdict = (
                        REPRODUCED
                        if not exceeded
                        else NOT_REPRODUCED
                        if p_exceeds < ctx.alpha
                        else INCONCLUSIVE
                    )
                    rows.append(
                        {
                            "scope": f"{exp} {ctx.label(alg)} {side}",
                            "verdict": verdict,
                            "headline": f"worst t = {t[worst]:.3g}: {share:.2g} vs bound "
                            f"{bound:.2g}",
                            "statistic": (
                                f"share of (run, pair) whose estimate after round t lies "
                                f"{side} ν ± 𝔠(t+1; α = {alpha:g}), over {t.size} checkpoints "
                                f"t ≥ {float(claim['from_t']):g}: largest "
                                f"{np.max(violations / trials):.3g}; "
                                f"{'most significant' if exceeded else 'closest to the bound'} "
                                f"at t = {t[worst]:.3g}: {int(violations[worst])}/{trials} "
                                f"against Prop. 1's {bound:.3g}; exact binomial "
                                f"P(X ≥ {int(violations[worst])}) = {p_each[worst]:.2g}, "
                                f"× {t.size} checkpoints = {p_exceeds:.2g}"
                            ),
                            "p_claimed": math.nan,
                            "p_opposite": p_exceeds,
                        }
                    )
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """No (run, pair) outside its interval at any checkpoint, or every one outside (which
        a bound of 1 at every checked checkpoint would allow: then it cannot be refuted)."""
        out = {}
        for side, every in (("favourable", False), ("unfavourable", True)):
            witness = ctx
            for exp in claim["experiments"]:
                pairs = problem_of(ctx.paper, exp).nu.size
                for metric in ("above_conf", "below_conf"):
                    witness = with_runs(
                        witness,
                        metric,
                        {
                            (exp, alg): (lambda t, z, n=pairs * every: np.full_like(t, float(n)))
                            for alg in claim["algorithms"]
                        },
                    )
            out[side] = witness
        return out
