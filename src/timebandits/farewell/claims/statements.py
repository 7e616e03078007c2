"""Claim kinds for the exact statements of "A Farewell to Arms" beside its theorems (issue 45).

  ucb1_collapse   §7.2, §8: Wait-UCB's radius for micro-arm 1 is UCB1's √(2 ln s/N) (α_1 = 0,
                  β_1 = √2, §5), so with one micro-arm (D = 1, τ ≡ 1) its choices are UCB1's;
                  optionally, the named baselines' choices are not (some two-arm state where
                  UCB1 strictly prefers one arm and the baseline strictly the other).
  bound_ratio     §6.2 (DQZL): Ding et al.'s leading term over (WAIT)'s, at least ``min_ratio``,
                  on K = 1 problems (theory.comparison_orders).

Both are exact: each routes the number it decides on through ``ClaimContext.quantity`` so the
decidability witnesses (core/verdicts/decidability.py) can replace it. §7.1's statements on the
minimum gap (stated_gap, gap_feasible) are in minimum_gap.py.
"""

from __future__ import annotations

import math

import numpy as np

from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.decidability import derived
from timebandits.core.verdicts.thresholds import HIGHER, LOWER, Threshold, check_keys, threshold
from timebandits.core.verdicts.vocabulary import EXACT, NOT_REPRODUCED, REPRODUCED

from ..analysis import problem_of
from ..policies import budget_ucb_index, ucb_simplex_index, wait_ucb_constants, wait_ucb_index
from ..theory import comparison_orders, wait_ucb_radius

# Two-arm states (r̄, N) at each ln s of the grid: every N of GRID_N, r̄ = m/N on up to 11 values.
GRID_LOG_S = (math.log(10.0), math.log(1000.0), math.log(1.0e6))
GRID_N = (1, 2, 3, 5, 10, 30, 100)


def _states():
    return [
        (m / n, n) for n in GRID_N for m in sorted({round(x * n) for x in np.linspace(0, 1, 11)})
    ]


def ucb1_index(rbar, n, log_s):
    """UCB1 (Auer et al. 2002): r̄ + √(2 ln s / N)."""
    return rbar + math.sqrt(2.0 * log_s / n)


def _indices(name, params, rbar, n, log_s):
    """The index of one arm with D = 1 (c ≡ 1 in raw and scaled units, λ = 1) under ``name``."""
    if name == "ucb1":
        return ucb1_index(rbar, n, log_s)
    if name == "wait_ucb":
        alpha, beta = wait_ucb_constants(1)
        return wait_ucb_index(rbar, 1.0 / n, alpha[0], beta[0], log_s)
    radius = float(params.get("radius_factor", 2.0))
    if name == "ucb_simplex":
        return ucb_simplex_index(rbar, 1.0, 1.0 / n, radius, log_s)
    if name == "budget_ucb":
        return budget_ucb_index(rbar, 1.0, 1.0, 1.0 / n, radius, 1.0, log_s)
    raise ValueError(f"no D = 1 index for policy {name!r}")


def disagreements(policy: str, params: dict) -> tuple[int, int]:
    """(two-arm states where UCB1 strictly prefers one arm and ``policy`` strictly the other,
    two-arm states compared) over the grid (every pair of states at every ln s)."""
    states = _states()
    found = total = 0
    for log_s in GRID_LOG_S:
        ucb = np.array([ucb1_index(r, n, log_s) for r, n in states])
        other = np.array([_indices(policy, params, r, n, log_s) for r, n in states])
        with np.errstate(invalid="ignore"):
            a = np.sign(ucb[:, None] - ucb[None, :])
            b = np.sign(other[:, None] - other[None, :])
        found += int(np.sum((a * b) < 0))
        total += ucb.size * (ucb.size - 1)
    return found // 2, total // 2


class Ucb1Collapse:
    evidence = EXACT
    keys = ()
    optional = ("against",)
    thresholds = (Threshold("rounding_tolerance", LOWER, low=0.0),)

    @classmethod
    def check(cls, claim, paper):
        check_keys(cls, claim)
        for name in claim.get("against", []):
            if paper["algorithms"][name]["policy"] not in ("ucb_simplex", "budget_ucb"):
                raise ValueError(f"{name}: ucb1_collapse compares UCB-Simplex or Budget-UCB only")

    @classmethod
    def evaluate(cls, claim, ctx: ClaimContext) -> list[dict]:
        tol = threshold(cls, claim, "rounding_tolerance")
        s = np.array([2.0, 10.0, 1.0e3, 1.0e7])[:, None]
        n = np.array([1.0, 7.0, 100.0, 1.0e5])[None, :]
        gap = ctx.quantity(
            "ucb1 radius",
            lambda: float(
                np.max(
                    np.abs(
                        wait_ucb_radius(s, n, np.ones_like(s * n, dtype=int))
                        - np.sqrt(2.0 * np.log(s) / n)
                    )
                )
            ),
        )
        rows = [
            {
                "scope": "a_{k,1}(s) vs √(2 ln s/N)",
                "verdict": REPRODUCED if gap <= tol else NOT_REPRODUCED,
                "headline": f"largest |a_k,1 − √(2 ln s/N)| = {gap:.3g}",
                "statistic": f"α_1 = 0, β_1 = √2 (§5); over s ∈ {{2, 10, 10³, 10⁷}}, N ∈ "
                f"{{1, 7, 100, 10⁵}}: largest difference {gap:.3g} (≤ {tol:g})",
            }
        ]
        for name in ["wait_ucb", *claim.get("against", [])]:
            alg = ctx.paper["algorithms"][name] if name != "wait_ucb" else {"policy": "wait_ucb"}
            found, total = ctx.quantity(
                f"ucb1 choices {name}",
                lambda alg=alg: disagreements(alg["policy"], alg.get("params", {})),
            )
            same = found == 0
            wanted = same if name == "wait_ucb" else not same
            rows.append(
                {
                    "scope": f"D = 1: {name} vs UCB1",
                    "verdict": REPRODUCED if wanted else NOT_REPRODUCED,
                    "headline": f"{found} of {total} two-arm states choose differently",
                    "statistic": (
                        f"{name} with one micro-arm (c ≡ 1): in {found} of {total} two-arm "
                        f"states (r̄ = m/N, N ∈ {GRID_N}, ln s of s ∈ {{10, 10³, 10⁶}}) UCB1 "
                        f"strictly prefers one arm and {name} strictly the other "
                        + (
                            "(equal to UCB1 needs 0)"
                            if name == "wait_ucb"
                            else "(not UCB1 needs > 0)"
                        )
                    ),
                }
            )
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """The radius equal to UCB1's and every choice as the claim says (favourable), or the
        radius off by 1 and every choice the other way (unfavourable)."""
        names = ["wait_ucb", *claim.get("against", [])]

        def fixed(good):
            out = {"ucb1 radius": lambda _: 0.0 if good else 1.0}
            for name in names:
                same = (name == "wait_ucb") == good
                out[f"ucb1 choices {name}"] = lambda v, same=same: (0 if same else 1, v[1])
            return out

        return {
            side: derived(ctx, overrides=fixed(good))
            for side, good in (("favourable", True), ("unfavourable", False))
        }


def _check_single_macro_arm(claim, paper):
    for exp in claim["experiments"]:
        if exp not in paper["experiments"]:
            raise ValueError(f"unknown experiment {exp!r}")
        if len(paper["experiments"][exp]["environment"]["reward_prob"]) != 1:
            raise ValueError(f"experiment {exp!r}: the §6.2 comparison is for K = 1")


class BoundRatio:
    evidence = EXACT
    keys = ("experiments", "numerator", "denominator")
    optional = ()
    thresholds = (Threshold("min_ratio", HIGHER, low=1.0),)
    TERMS = ("wait", "dqzl", "fj")

    @classmethod
    def check(cls, claim, paper):
        check_keys(cls, claim)
        _check_single_macro_arm(claim, paper)
        if {claim["numerator"], claim["denominator"]} - set(cls.TERMS):
            raise ValueError(f"numerator and denominator must be among {cls.TERMS}")

    @classmethod
    def evaluate(cls, claim, ctx: ClaimContext) -> list[dict]:
        top, bottom, need = (
            claim["numerator"],
            claim["denominator"],
            threshold(cls, claim, "min_ratio"),
        )
        rows = []
        for exp in claim["experiments"]:
            problem = problem_of(ctx.paper, exp)
            orders = comparison_orders(problem)
            ratio = ctx.quantity(f"bound ratio {exp}", lambda o=orders: o[top] / o[bottom])
            j_star = problem.optimal_pairs[0][1]
            rows.append(
                {
                    "scope": exp,
                    "verdict": REPRODUCED if ratio >= need else NOT_REPRODUCED,
                    "headline": f"({top.upper()}) / ({bottom.upper()}) = {ratio:.3g} (needs ≥ "
                    f"{need:g})",
                    "statistic": (
                        f"D = {problem.D}, Δ = {orders['min_gap']:.4g}, g* = {problem.g_star:.4g}, "
                        f"j* = {j_star} with μ^c_j* = {problem.mean_cost[0, j_star - 1]:.3g}, "
                        f"μ̄^c = {orders['mean_cost']:.3g}: (WAIT) {orders['wait']:.4g}, "
                        f"(DQZL) {orders['dqzl']:.4g}, (FJ) {orders['fj']:.4g} per ln T"
                    ),
                }
            )
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """Every ratio at min_ratio (favourable) or at half of it (unfavourable)."""
        need = threshold(BoundRatio, claim, "min_ratio")
        return {
            side: derived(
                ctx,
                overrides={
                    f"bound ratio {exp}": (lambda _, v=value: v) for exp in claim["experiments"]
                },
            )
            for side, value in (("favourable", need), ("unfavourable", need / 2))
        }
