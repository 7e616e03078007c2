"""Claim kinds for the concentration lemmas and the convergence remark of "A Farewell to Arms".

ratio_concentration  (statistical) Lemma 1 (§5) or Lemma 3 (§6.1) by Monte Carlo on the pairs
                     (k, j) of the configured problems: X = r = V·1[τ ≤ j] ∈ [0, 1],
                     Y = c = min(τ, j) ∈ [1, B = j]. n i.i.d. copies are drawn as multinomial
                     counts over the (V, τ) outcomes of macro-arm k (so one draw serves every j),
                     ``repetitions`` times per cell, with a fixed seed.
                     Lemma 1: a miss is |X̂/Ŷ − E[X]/E[Y]| > the printed radius at δ
                     (theory.ratio_deviation_radius); allowed probability δ.
                     Lemma 3: at the smallest epoch it allows, s = ⌈l⌉ (l of the lemma, with
                     T the experiment's horizon), and N = n ≤ s pulls, a miss is
                     |g − ĝ| ≥ ε = α_j ln s/n + β_j √(ln s/n); allowed probability 4 s⁻⁴.
                     Only cells whose radius is below the largest deviation possible,
                     max(g, 1 − g), are judged. Per experiment, each cell's one-sided exact
                     binomial test of "misses more often than allowed", Bonferroni over cells.
converges_later      (statistical) §7.2 "takes longer for UCB-Simplex to converge": the increase
                     of ``metric`` over the last ``window`` decades before T is larger for
                     ``slower`` than for ``faster`` (paired one-sided test over runs).
"""

from __future__ import annotations

import math
import zlib
from functools import lru_cache

import numpy as np

from timebandits.core.verdicts.context import ClaimContext, paired_verdict
from timebandits.core.verdicts.decidability import derived, linear, scale, with_curves
from timebandits.core.verdicts.declared import DeclaredCheck
from timebandits.core.verdicts.stats import paired_one_sided
from timebandits.core.verdicts.thresholds import LOWER, Threshold, check_keys, threshold
from timebandits.core.verdicts.vocabulary import (
    INCONCLUSIVE,
    NOT_REPRODUCED,
    REPRODUCED,
    STATISTICAL,
)

from ..analysis import problem_of
from ..model import F2AProblem
from ..theory import _log_factor, ratio_deviation_radius, wait_ucb_radius


def _counts(pmf: tuple, nu: float, n: int, reps: int, seed: int) -> np.ndarray:
    """``reps`` multinomial draws of n outcomes: columns τ = 1..D with V = 1, then with V = 0."""
    p = np.concatenate([np.asarray(pmf) * nu, np.asarray(pmf) * (1.0 - nu)])
    rng = np.random.default_rng(seed)
    return rng.multinomial(n, p / p.sum(), size=reps)


def sample_ratios(problem: F2AProblem, k: int, n: int, reps: int, seed: int) -> np.ndarray:
    """(reps x D) ratio estimates X̂/Ŷ of every pair (k, j) (0-based k) from n copies each."""
    D = problem.D
    counts = _counts(tuple(problem.delay_pmf[k]), float(problem.reward_prob[k]), n, reps, seed)
    rewarded, tau = counts[:, :D], counts[:, :D] + counts[:, D:]
    d = np.arange(1, D + 1)
    x = np.cumsum(rewarded, axis=1)  # Σ X over the copies, per j
    y = tau @ np.minimum(d[:, None], d[None, :])  # Σ min(τ, j), per j
    return x / y


@lru_cache(maxsize=64)
def _cells(
    lemma: int, key: tuple, sizes: tuple, deltas: tuple, horizon: float, reps: int, seed: int
) -> tuple:
    """Every judged cell of one problem: (label, misses, reps, allowed probability)."""
    reward_prob, pmf = key
    problem = F2AProblem(list(reward_prob), [list(row) for row in pmf])
    g, mu = problem.ratio, problem.mean_cost
    widest = np.maximum(g, 1.0 - g)
    factor = _log_factor(problem).reshape(problem.K, problem.D)
    cells = []
    for k in range(problem.K):
        for n in sizes:
            hat = sample_ratios(problem, k, int(n), reps, seed + 7919 * k + int(n))
            for j in range(1, problem.D + 1):
                miss_size = np.abs(hat[:, j - 1] - g[k, j - 1])
                if lemma == 1:
                    for delta in deltas:
                        radius = float(ratio_deviation_radius(n, j, delta, mu[k, j - 1]))
                        if radius < widest[k, j - 1]:
                            cells.append(
                                (
                                    f"(k{k + 1}, j{j}) n={n} δ={delta:g}",
                                    int(np.sum(miss_size > radius)),
                                    reps,
                                    float(delta),
                                )
                            )
                    continue
                if not np.isfinite(factor[k, j - 1]):
                    continue  # Lemma 3's l needs Δ > 0
                s = math.ceil(math.log(horizon) * factor[k, j - 1])
                if n > s:
                    continue
                eps = float(wait_ucb_radius(s, n, j))
                if eps < widest[k, j - 1]:
                    cells.append(
                        (
                            f"(k{k + 1}, j{j}) s={s} n={n}",
                            int(np.sum(miss_size >= eps)),
                            reps,
                            min(1.0, 4.0 * float(s) ** -4),
                        )
                    )
    return tuple(cells)


class RatioConcentration:
    evidence = STATISTICAL
    reads_traces = False  # its own Monte Carlo: more runs of the experiments would not tell
    keys = ("experiments", "lemma", "sizes", "repetitions")
    optional = ("deltas",)
    thresholds = ()

    @classmethod
    def check(cls, claim, paper):
        check_keys(cls, claim)
        if int(claim["lemma"]) not in (1, 3):
            raise ValueError("lemma must be 1 or 3")
        if int(claim["lemma"]) == 1 and not claim.get("deltas"):
            raise ValueError("Lemma 1 needs deltas")
        for exp in claim["experiments"]:
            if exp not in paper["experiments"]:
                raise ValueError(f"unknown experiment {exp!r}")

    @staticmethod
    def cells(claim, ctx: ClaimContext, exp: str) -> tuple:
        problem = problem_of(ctx.paper, exp)
        key = (
            tuple(problem.reward_prob.tolist()),
            tuple(tuple(r) for r in problem.delay_pmf.tolist()),
        )
        seed = zlib.crc32(f"{claim['id']} {exp}".encode())
        lemma = int(claim["lemma"])
        return ctx.quantity(
            f"lemma{lemma} {exp}",
            lambda: _cells(
                lemma,
                key,
                tuple(int(n) for n in claim["sizes"]),
                tuple(float(d) for d in claim.get("deltas", ())),
                float(ctx.paper["experiments"][exp]["horizon"]),
                int(claim["repetitions"]),
                seed,
            ),
        )

    @classmethod
    def evaluate(cls, claim, ctx: ClaimContext) -> list[dict]:
        from scipy.stats import binom  # here: a figure job imports this module

        rows = []
        for exp in claim["experiments"]:
            cells = cls.cells(claim, ctx, exp)
            if not cells:
                rows.append(
                    {
                        "scope": exp,
                        "verdict": INCONCLUSIVE,
                        "headline": "no cell where the radius can be missed",
                        "statistic": "every radius is at least the largest possible deviation",
                    }
                )
                continue
            p = [float(binom.sf(m - 1, r, a)) if m else 1.0 for _, m, r, a in cells]
            worst = int(np.argmin(p))
            label, misses, reps, allowed = cells[worst]
            p_adj = min(1.0, p[worst] * len(cells))
            total = sum(c[1] for c in cells)
            expected = sum(c[2] * c[3] for c in cells)
            rows.append(
                {
                    "scope": exp,
                    "verdict": NOT_REPRODUCED if p_adj < ctx.alpha else REPRODUCED,
                    "headline": f"{total} misses ({expected:.3g} allowed) over {len(cells)} cells; "
                    f"worst {label}: {misses}/{reps} (allowed rate {allowed:.3g})",
                    "statistic": (
                        f"Lemma {claim['lemma']}: {len(cells)} judged cells of {reps} samples "
                        f"each, {total} misses in all ({expected:.4g} allowed); worst cell "
                        f"{label}: {misses} of {reps} "
                        f"(allowed probability {allowed:.3g}), binomial p = {p[worst]:.2g}, "
                        f"Bonferroni over the cells {p_adj:.2g}"
                    ),
                    **({"p_opposite": p_adj} if p_adj < ctx.alpha else {}),
                }
            )
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """No sample ever misses its radius (favourable), or every one does (unfavourable)."""

        def fixed(every):
            return lambda cells: tuple((lab, r if every else 0, r, a) for lab, _, r, a in cells)

        return {
            side: derived(
                ctx,
                overrides={
                    f"lemma{int(claim['lemma'])} {exp}": fixed(every)
                    for exp in claim["experiments"]
                },
            )
            for side, every in (("favourable", False), ("unfavourable", True))
        }


def window_increase(
    ctx: ClaimContext, exp: str, alg: str, metric: str, decades: float
) -> np.ndarray:
    """Per repetition, the increase of ``metric`` from the checkpoint nearest T·10^−decades to T."""
    table = ctx.at(exp, alg, metric)
    ts = table.index.to_numpy(dtype=float)
    start = ts[np.argmin(np.abs(ts - ts.max() * 10.0**-decades))]
    return (table.loc[ts.max()] - table.loc[start]).to_numpy(dtype=float)


class ConvergesLater(DeclaredCheck):
    evidence = STATISTICAL
    keys = ("experiments", "slower", "faster", "metric")
    optional = ()
    thresholds = (Threshold("window", LOWER, low=0.0, open_low=True),)

    runs = ("experiments", "slower", "faster")

    @classmethod
    def evaluate(cls, claim, ctx: ClaimContext) -> list[dict]:
        decades, metric = threshold(cls, claim, "window"), claim["metric"]
        rows = []
        for exp in claim["experiments"]:
            fast = window_increase(ctx, exp, claim["faster"], metric, decades)
            slow = window_increase(ctx, exp, claim["slower"], metric, decades)
            test = paired_one_sided(fast, slow)
            rows.append(
                {
                    "scope": exp,
                    "verdict": paired_verdict(test, ctx.alpha),
                    "headline": f"{ctx.label(claim['slower'])} adds {slow.mean():.4g} vs "
                    f"{ctx.label(claim['faster'])} {fast.mean():.4g} over the last "
                    f"{decades:g} decade(s)",
                    "statistic": (
                        f"increase of {metric} over [T·10^−{decades:g}, T]: "
                        f"{claim['slower']} {slow.mean():.4g}, {claim['faster']} "
                        f"{fast.mean():.4g}; paired p = {test['p_claimed']:.2g} "
                        f"(opposite {test['p_opposite']:.2g})"
                    ),
                    "p_claimed": test["p_claimed"],
                    "p_opposite": test["p_opposite"],
                }
            )
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """The slower algorithm's curve rising three times as fast as the faster's over the
        whole run (favourable), or a third as fast (unfavourable)."""
        algs = [claim["slower"], claim["faster"]]
        s = scale(ctx, claim["experiments"], algs, claim["metric"], headroom=3)

        def curves(slow_factor, fast_factor):
            return with_curves(
                ctx,
                claim["metric"],
                {
                    **{(e, claim["slower"]): linear(slow_factor * s) for e in claim["experiments"]},
                    **{(e, claim["faster"]): linear(fast_factor * s) for e in claim["experiments"]},
                },
            )

        return {"favourable": curves(3, 1), "unfavourable": curves(1, 3)}
