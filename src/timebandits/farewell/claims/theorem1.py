"""Claim kinds of "A Farewell to Arms" on Theorem 1: ``theorem1`` (the constant policy of
largest exact expected reward W(T) is an argmax of g, and |A_j| ≤ j) and its printed sign
``theorem1_printed_sign`` (an erratum). The paper's other kinds are listed in claims/__init__.py.

Both are exact: each routes the Theorem 1 table it decides on through ``ClaimContext.quantity``,
so its decidability witnesses (core/verdicts/decidability.py) replace that table by the most
favourable and the most unfavourable one and run the kind's own check on it."""

from __future__ import annotations

import numpy as np

from timebandits.core.verdicts.context import ClaimContext, require_keys
from timebandits.core.verdicts.decidability import derived
from timebandits.core.verdicts.thresholds import LOWER, Threshold, check_keys, threshold
from timebandits.core.verdicts.vocabulary import (
    EXACT,
    NOT_REPRODUCED,
    REPRODUCED,
    STATISTICAL,
    SUPPORTS,
)

from ..analysis import problem_of, theorem1_table


def _theorem1_tables(claim, ctx: ClaimContext):
    """(experiment, Theorem 1 table) for each experiment of a Theorem 1 claim; the table is the
    quantity a witness may replace (key ``theorem1 <experiment>``)."""
    for exp in claim["experiments"]:
        yield (
            exp,
            ctx.quantity(
                f"theorem1 {exp}",
                lambda exp=exp: theorem1_table(ctx.paper, exp, ctx.trace(exp, "constant_policies")),
            ),
        )


def with_exact_rewards(table, rewards):
    """The Theorem 1 table with exact W(T) replaced by ``rewards`` (per pair) and A_j = W(T) − T·g
    recomputed from them."""
    table = table.copy()
    table["exact_reward"] = np.asarray(rewards, dtype=float)
    table["offset_A"] = table["exact_reward"] - table["horizon"] * table["g"]
    return table


def simulated_as_exact(table):
    """The table with the simulated constant policies (supporting rows) agreeing with exact W(T)."""
    table = table.copy()
    table["simulated_reward"] = table["exact_reward"]
    table["simulated_rate"] = table["exact_reward"] / table["horizon"]
    table["z_simulated_vs_exact"] = 0.0
    return table


def theorem1_witnesses(claim, ctx):
    """Thm 1's exact W(T) replaced, for every pair, by T·g (favourable: A_j = 0 and the argmax of
    W is the argmax of g) or by T·(g_max + g_min − g) (unfavourable: the order of g reversed, so
    the argmax of W is a pair of smallest g and |A_j| = T·|g_max + g_min − 2g| far above j). Where
    every pair is tied in g, no W can pick a wrong pair or a non-zero A: the claim cannot fail.
    The simulated constant policies (supporting rows) agree with the witness's W(T)."""

    def fixed(reverse):
        def replace(table):
            g = table["g"].to_numpy(dtype=float)
            target = g.max() + g.min() - g if reverse else g
            return simulated_as_exact(
                with_exact_rewards(table, table["horizon"].to_numpy(dtype=float) * target)
            )

        return replace

    return {
        side: derived(
            ctx, overrides={f"theorem1 {exp}": fixed(reverse) for exp in claim["experiments"]}
        )
        for side, reverse in (("favourable", False), ("unfavourable", True))
    }


def _check_constant_policies(claim, paper):
    require_keys(claim, "experiments")
    for exp in claim["experiments"]:
        if exp not in paper["experiments"]:
            raise ValueError(f"unknown experiment {exp!r}")
        if "constant_policies" not in paper["experiments"][exp]["algorithms"]:
            raise ValueError(f"experiment {exp!r} does not run constant_policies")


class Theorem1:
    """Thm 1 as an exact computation: the constant policy with the largest exact expected reward
    W(T) (renewal recursion) is an argmax of g = E[r]/E[c], and W(T) = T·g + A_j with |A_j| ≤ j,
    for every pair. Supporting rows (tests over the simulated constant policies): the simulated
    best policy, and simulation against W(T) (|z| ≤ 4 for every pair). The printed sign A_j ≥ 0
    is the erratum kind ``theorem1_printed_sign``."""

    evidence = EXACT
    keys = ("experiments",)
    optional = ()
    check = staticmethod(_check_constant_policies)
    witnesses = staticmethod(theorem1_witnesses)

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        for exp, table in _theorem1_tables(claim, ctx):
            problem = problem_of(ctx.paper, exp)
            optimal = {f"({k},{j})" for k, j in problem.optimal_pairs}
            best_exact = table.loc[table["exact_reward"].idxmax()]
            rows.append(
                {
                    "scope": f"{exp} argmax",
                    "verdict": REPRODUCED if best_exact["pair"] in optimal else NOT_REPRODUCED,
                    "headline": f"argmax W(T) = {best_exact['pair']}, argmax g = "
                    f"{', '.join(sorted(optimal))}",
                    "statistic": (
                        f"exact W(T = {int(best_exact['horizon'])}) is largest at "
                        f"{best_exact['pair']} ({best_exact['exact_reward']:.6g}); argmax g = "
                        f"{', '.join(sorted(optimal))} with g* = {problem.g_star:.5f}"
                    ),
                }
            )
            ratio = (table["offset_A"].abs() / table["j"]).max()
            rows.append(
                {
                    "scope": f"{exp} |A_j| ≤ j",
                    "verdict": REPRODUCED if ratio <= 1 else NOT_REPRODUCED,
                    "headline": f"largest |A_j|/j = {ratio:.3g} (needs ≤ 1)",
                    "statistic": (
                        f"exact A_j = W(T) − T·g ranges over [{table['offset_A'].min():.4g}, "
                        f"{table['offset_A'].max():.4g}]; largest |A_j|/j = {ratio:.3g}"
                    ),
                }
            )
            best = table.loc[table["simulated_rate"].idxmax()]
            rows.append(
                {
                    "scope": f"{exp} simulated argmax",
                    "evidence": STATISTICAL,
                    "role": SUPPORTS,
                    "verdict": REPRODUCED if best["pair"] in optimal else NOT_REPRODUCED,
                    "headline": f"best simulated constant policy {best['pair']}",
                    "statistic": (
                        f"best simulated constant policy {best['pair']} at rate "
                        f"{best['simulated_rate']:.5f} ± {best['rate_se']:.1g}; argmax g = "
                        f"{', '.join(sorted(optimal))}"
                    ),
                }
            )
            worst_z = table.loc[table["z_simulated_vs_exact"].abs().idxmax()]
            rows.append(
                {
                    "scope": f"{exp} simulation vs exact",
                    "evidence": STATISTICAL,
                    "role": SUPPORTS,
                    "verdict": REPRODUCED
                    if abs(worst_z["z_simulated_vs_exact"]) <= 4
                    else NOT_REPRODUCED,
                    "headline": f"largest |z| = {abs(worst_z['z_simulated_vs_exact']):.2f} (≤ 4)",
                    "statistic": (
                        f"largest |simulated − exact W(T)| / s.e. = "
                        f"{abs(worst_z['z_simulated_vs_exact']):.2f} at {worst_z['pair']} "
                        f"(T = {int(worst_z['horizon'])})"
                    ),
                }
            )
        return rows


class Theorem1PrintedSign:
    """Erratum of Thm 1 as printed: A_j ∈ [0, j], i.e. A_j ≥ 0 for every pair. Exact. Neither
    sign holds in general: Wald's identity on the stopping time L + 1 gives A_j ∈ [g_j − ν_k,
    j·g_j] (see the theory tests)."""

    evidence = EXACT
    witnesses = staticmethod(theorem1_witnesses)
    keys = ("experiments",)
    thresholds = (Threshold("rounding_tolerance", LOWER, low=0.0),)
    optional = ()

    @classmethod
    def check(cls, claim, paper):
        _check_constant_policies(claim, paper)
        check_keys(cls, claim)

    @classmethod
    def evaluate(cls, claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        for exp, table in _theorem1_tables(claim, ctx):
            negative = table["offset_A"] < -threshold(cls, claim, "rounding_tolerance")
            rows.append(
                {
                    "scope": exp,
                    "verdict": NOT_REPRODUCED if negative.any() else REPRODUCED,
                    "headline": f"{int(negative.sum())}/{len(table)} pairs have A_j < 0 (smallest "
                    f"{table['offset_A'].min():.3g})",
                    "statistic": (
                        f"{int(negative.sum())}/{len(table)} pairs have A_j < 0 (smallest "
                        f"{table['offset_A'].min():.4g}); Wald on L + 1 gives A_j ∈ "
                        f"[g_j − ν_k, j·g_j]"
                    ),
                }
            )
        return rows
