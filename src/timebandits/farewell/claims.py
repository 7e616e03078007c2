"""Claim kinds specific to "A Farewell to Arms" (the generic ones are in core/claims.py)."""

from __future__ import annotations

from timebandits.core.claims import NOT_REPRODUCED, REPRODUCED, ClaimContext, paired_verdict
from timebandits.core.stats import paired_one_sided

from .analysis import comparison_orders, problem_of, theorem1_table


class Theorem1:
    """Thm 1: the best constant policy maximises E[r]/E[c], and its expected reward is T·g + A_j
    with A_j ∈ [0, j] as printed. Sub-checks: (1) the simulated best constant policy is an exact
    argmax of g; (2) simulation agrees with the exact renewal value W(T) (|z| ≤ 4 for every pair);
    (3) |A_j| ≤ j exactly; (4) A_j ≥ 0, the printed sign. Neither sign holds in general: Wald's
    identity on the stopping time L + 1 gives A_j ∈ [g_j − ν_k, j·g_j] (see the theory tests)."""

    @staticmethod
    def check(claim, paper):
        for exp in claim.get("experiments", []):
            if "constant_policies" not in paper["experiments"][exp]["algorithms"]:
                raise ValueError(f"experiment {exp!r} does not run constant_policies")

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        for exp in claim["experiments"]:
            table = theorem1_table(ctx.paper, exp, ctx.trace(exp, "constant_policies"))
            problem = problem_of(ctx.paper, exp)
            best = table.loc[table["simulated_rate"].idxmax()]
            optimal = {f"({k},{j})" for k, j in problem.optimal_pairs}
            rows.append({
                "scope": f"{exp} argmax", "verdict": REPRODUCED if best["pair"] in optimal else NOT_REPRODUCED,
                "statistic": (f"best simulated constant policy {best['pair']} at rate "
                              f"{best['simulated_rate']:.5f} ± {best['rate_se']:.1g}; argmax g = "
                              f"{', '.join(sorted(optimal))} with g* = {problem.g_star:.5f}")})
            worst_z = table.loc[table["z_simulated_vs_exact"].abs().idxmax()]
            rows.append({
                "scope": f"{exp} simulation vs exact", "verdict":
                    REPRODUCED if abs(worst_z["z_simulated_vs_exact"]) <= 4 else NOT_REPRODUCED,
                "statistic": (f"largest |simulated − exact W(T)| / s.e. = "
                              f"{abs(worst_z['z_simulated_vs_exact']):.2f} at {worst_z['pair']} "
                              f"(T = {int(worst_z['horizon'])})")})
            bounded = (table["offset_A"].abs() <= table["j"]).all()
            rows.append({
                "scope": f"{exp} |A_j| <= j", "verdict": REPRODUCED if bounded else NOT_REPRODUCED,
                "statistic": (f"exact A_j ranges over [{table['offset_A'].min():.4g}, "
                              f"{table['offset_A'].max():.4g}]; largest |A_j|/j = "
                              f"{(table['offset_A'].abs() / table['j']).max():.3g}")})
            nonnegative = (table["offset_A"] >= -1e-9).all()
            rows.append({
                "scope": f"{exp} A_j >= 0 as printed",
                "verdict": REPRODUCED if nonnegative else NOT_REPRODUCED,
                "statistic": (f"{int((table['offset_A'] < -1e-9).sum())}/{len(table)} pairs have "
                              f"A_j < 0 (smallest {table['offset_A'].min():.4g}); Wald on L + 1 gives "
                              f"A_j ∈ [g_j − ν_k, j·g_j]")})
        return rows


class BoundRegime:
    """§6.2: (WAIT) ∝ μ̄^c is the smaller leading term when waiting times are short, (FJ) ∝
    Σ_j 1/μ^c_j when they are long. Per experiment: which term is smaller, and whether the
    algorithm with the smaller term (Wait-UCB vs UCB-Simplex) has the smaller pseudo-regret at T
    (paired test)."""

    @staticmethod
    def check(claim, paper):
        for exp in claim["experiments"]:
            run = paper["experiments"][exp]["algorithms"]
            if not {"wait_ucb", "ucb_simplex"} <= set(run):
                raise ValueError(f"experiment {exp!r} must run wait_ucb and ucb_simplex")

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        for exp in claim["experiments"]:
            orders = comparison_orders(problem_of(ctx.paper, exp))
            wait, fj = ctx.paired(exp, "wait_ucb", "ucb_simplex", "pseudo_regret")
            if orders["wait"] < orders["fj"]:
                favoured, test = "Wait-UCB", paired_one_sided(wait, fj)
            else:
                favoured, test = "UCB-Simplex", paired_one_sided(fj, wait)
            rows.append({
                "scope": exp, "verdict": paired_verdict(test, ctx.alpha),
                "statistic": (f"mean waiting time avg {orders['mean_cost']:.3g} vs Σ 1/μ^c "
                              f"{orders['sum_inverse_cost']:.3g}: (WAIT) {orders['wait']:.3g} vs "
                              f"(FJ) {orders['fj']:.3g} favours {favoured}; pseudo-regret at T "
                              f"Wait-UCB {wait.mean():.4g} vs UCB-Simplex {fj.mean():.4g}, p = "
                              f"{test['p_claimed']:.2g}")})
        return rows


CLAIM_KINDS = {"theorem1": Theorem1, "bound_regime": BoundRegime}
