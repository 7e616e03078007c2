"""Claim kinds for §7.1 of "A Farewell to Arms": the minimum gap of its configured problems and
which gaps a delay pmf can have at all (issue 45).

  stated_gap      §7.1: a configured problem's minimum gap is the printed one (to its printed
                  digits), its optimum where the text puts it.
  gap_feasible    §7.1: whether ANY delay pmf on [D] (V = 1) with its unique optimal micro-arm
                  in ``positions`` has minimum gap ≥ ``gap``: linear feasibility problems over
                  a grid of g* (:func:`feasible_intervals`).

Both are exact: each routes the number it decides on through ``ClaimContext.quantity`` so the
decidability witnesses (core/verdicts/decidability.py) can replace it. The other exact
statements (§6.2, §7.2, §8) are in statements.py.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.decidability import derived
from timebandits.core.verdicts.thresholds import LOWER, Threshold, check_keys, threshold
from timebandits.core.verdicts.vocabulary import EXACT, NOT_REPRODUCED, REPRODUCED

from ..analysis import problem_of


class StatedGap:
    evidence = EXACT
    keys = ("gaps",)
    optional = ("optimum",)
    thresholds = (Threshold("rounding_tolerance", LOWER, low=0.0, open_low=True),)

    @classmethod
    def check(cls, claim, paper):
        check_keys(cls, claim)
        for exp in [*claim["gaps"], *claim.get("optimum", {})]:
            if exp not in paper["experiments"]:
                raise ValueError(f"unknown experiment {exp!r}")

    @classmethod
    def evaluate(cls, claim, ctx: ClaimContext) -> list[dict]:
        tol = threshold(cls, claim, "rounding_tolerance")
        rows = []
        for exp, printed in claim["gaps"].items():
            problem = problem_of(ctx.paper, exp)
            gap = ctx.quantity(f"gap {exp}", lambda p=problem: p.min_gap)
            rows.append(
                {
                    "scope": f"{exp} gap",
                    "verdict": REPRODUCED if abs(gap - printed) < tol else NOT_REPRODUCED,
                    "headline": f"minimum gap {gap:.4g} vs printed {printed:g}",
                    "statistic": f"{exp}: g* = {problem.g_star:.5g}, minimum gap {gap:.5g}; "
                    f"printed {printed:g} (|difference| < {tol:g} needed)",
                }
            )
        for exp, j in claim.get("optimum", {}).items():
            problem = problem_of(ctx.paper, exp)
            optimal = ctx.quantity(
                f"optimum {exp}", lambda p=problem: sorted(j for _, j in p.optimal_pairs)
            )
            rows.append(
                {
                    "scope": f"{exp} optimum",
                    "verdict": REPRODUCED if optimal == [int(j)] else NOT_REPRODUCED,
                    "headline": f"optimal micro-arm(s) {optimal} (stated {j})",
                    "statistic": f"{exp}: argmax_j g_j = {optimal}; the text says j* = {j}",
                }
            )
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """Every gap and optimum as printed (favourable), or every gap 1 off and the optimum one
        micro-arm over (unfavourable)."""

        def fixed(shift):
            out = {
                f"gap {exp}": (lambda _, v=float(g) + shift: v) for exp, g in claim["gaps"].items()
            }
            out.update(
                {
                    f"optimum {exp}": (lambda _, v=[int(j) + int(shift)]: v)
                    for exp, j in claim.get("optimum", {}).items()
                }
            )
            return out

        return {
            side: derived(ctx, overrides=fixed(shift))
            for side, shift in (("favourable", 0.0), ("unfavourable", 1.0))
        }


@lru_cache(maxsize=32)
def feasible_intervals(D: int, positions: tuple, gap: float, step: float) -> tuple:
    """The (j*, γ_low) for which some delay pmf p on [D] (V = 1, g_j = F(j)/μ^c_j) has
    g_{j*} ≥ γ_low and g_j ≤ γ_low + step − ``gap`` for every j ≠ j*: each a linear feasibility
    problem, since F(j) − γ·μ^c_j is linear in p (F(j) = Σ_{d≤j} p_d, μ^c_j = Σ_d min(d, j)·p_d).
    Every pmf with its optimum at j* and minimum gap ≥ ``gap`` has g* in some interval
    [γ_low, γ_low + step] of the grid and so makes that problem feasible: an empty result proves
    that no pmf with its optimum in ``positions`` reaches ``gap``."""
    from scipy.optimize import linprog  # here: a figure job imports this module

    d = np.arange(1, D + 1)
    cdf = (d[None, :] <= d[:, None]).astype(float)  # row j: F(j)
    wait = np.minimum(d[None, :], d[:, None]).astype(float)  # row j: μ^c_j
    found = []
    for j_star in positions:
        others = [j - 1 for j in d if j != j_star]
        for low in np.arange(0.0, 1.0, step):
            high = low + step - gap
            if high < 0:
                continue
            a_ub = np.vstack(
                [-(cdf[j_star - 1] - low * wait[j_star - 1]), cdf[others] - high * wait[others]]
            )
            res = linprog(
                np.zeros(D),
                A_ub=a_ub,
                b_ub=np.zeros(len(a_ub)),
                A_eq=np.ones((1, D)),
                b_eq=[1.0],
                bounds=(0, 1),
                method="highs",
            )
            if res.status == 0:
                found.append((int(j_star), round(float(low), 6)))
    return tuple(found)


class GapFeasible:
    evidence = EXACT
    keys = ("max_delay", "positions", "gap")
    optional = ()
    thresholds = (Threshold("grid_step", LOWER, low=0.0, open_low=True),)

    @classmethod
    def check(cls, claim, paper):
        check_keys(cls, claim)
        D = int(claim["max_delay"])
        if not claim["positions"] or any(not 1 <= int(j) <= D for j in claim["positions"]):
            raise ValueError(f"positions must lie in 1..{D}")

    @classmethod
    def evaluate(cls, claim, ctx: ClaimContext) -> list[dict]:
        D, gap = int(claim["max_delay"]), float(claim["gap"])
        step = threshold(cls, claim, "grid_step")
        positions = tuple(int(j) for j in claim["positions"])
        found = ctx.quantity("gap feasible", lambda: feasible_intervals(D, positions, gap, step))
        where = ", ".join(f"j* = {j}, g* ∈ [{lo:g}, {lo + step:g}]" for j, lo in found[:5])
        return [
            {
                "scope": f"D = {D}, j* ∈ {list(positions)}",
                "verdict": REPRODUCED if found else NOT_REPRODUCED,
                "headline": (
                    f"a pmf with gap ≥ {gap - step:g} exists ({where})"
                    if found
                    else f"no pmf has its optimum there with gap ≥ {gap:g}"
                ),
                "statistic": (
                    f"linear feasibility over g* ∈ [0, 1] in steps of {step:g}: "
                    f"{len(found)} feasible (j*, g*) cells{': ' + where if found else ''}; "
                    f"empty proves no delay pmf on [{D}] with V = 1 and a unique optimum "
                    f"at j* ∈ {list(positions)} has minimum gap ≥ {gap:g}"
                ),
            }
        ]

    @staticmethod
    def witnesses(claim, ctx):
        """One feasible cell (favourable) or none (unfavourable)."""
        first = (int(claim["positions"][0]), 0.0)
        return {
            side: derived(ctx, overrides={"gap feasible": (lambda _, v=value: v)})
            for side, value in (("favourable", (first,)), ("unfavourable", ()))
        }
