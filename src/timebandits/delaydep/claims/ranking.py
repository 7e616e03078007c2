"""BanditRanker's claim kind of "Stochastic Bandits with Delay-Dependent Payoffs" (theorem4:
Theorem 4, Algorithm 2, Sect. 7), judged on the runs of ``ranker_checks.ranker_table``."""

from __future__ import annotations

from timebandits.core.verdicts.context import ClaimContext, fraction_test
from timebandits.core.verdicts.thresholds import check_keys
from timebandits.core.verdicts.vocabulary import NOT_REPRODUCED, STATISTICAL

from ..model import B2DEPProblem
from ..ranker_checks import ranker_table
from .witnesses import sides


class Theorem4:
    """BanditRanker (Algorithm 2) returns the true order with probability ≥ 1 − δ (exact binomial
    test on the runs) within the proof's pull count Σ N_i (every run), on stationary Bernoulli
    arms and once on a B2DEP instance."""

    evidence = STATISTICAL
    keys = ("delta", "runs", "instances")
    optional = ("b2dep",)  # a B2DEP instance to rank once: ranker_table

    @classmethod
    def check(cls, claim, paper):
        check_keys(cls, claim)
        if "b2dep" in claim:
            missing = {"means", "delays", "f", "d0"} - set(claim["b2dep"])
            if missing:
                raise ValueError(f"b2dep needs keys {sorted(missing)}")
            B2DEPProblem.from_config(claim["b2dep"])

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        delta = float(claim["delta"])
        table = ctx.quantity(
            "theorem4 table", lambda: ranker_table(claim, ctx.config, ctx.paper["paper"]["key"])
        )
        rows = []
        for row in table.itertuples():
            correct = int(round(row.fraction_correct * row.runs))
            test = fraction_test(correct, row.runs, 1 - delta, ctx.alpha)
            verdict = test["verdict"] if row.max_within_bound else NOT_REPRODUCED
            rows.append(
                {
                    "scope": f"{row.instance} μ = {tuple(round(m, 3) for m in row.means)}",
                    "verdict": verdict,
                    "headline": f"correct order in {correct}/{row.runs} runs (needs ≥ "
                    f"{1 - delta:.0%}); max pulls {row.max_pulls:.3g} ≤ bound "
                    f"{row.pull_bound:.3g}: {'yes' if row.max_within_bound else 'no'}",
                    "statistic": (
                        f"correct order in {correct}/{row.runs} runs, binomial p = "
                        f"{test['p_claimed']:.2g} against {1 - delta:.0%}; pulls mean "
                        f"{row.mean_pulls:.4g}, max {row.max_pulls:.4g} vs bound "
                        f"{row.pull_bound:.4g} (order term Σ Δ⁻² ln(1/(δΔ)) = "
                        f"{row.order_term:.4g})"
                    ),
                    "p_claimed": test["p_claimed"],
                    "p_opposite": test["p_opposite"] if row.max_within_bound else 0.0,
                }
            )
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """Every run returns the true order within the proof's pull count, or none does and
        the most pulls exceed it."""

        def runs(correct: bool):
            def replace(table):
                table = table.copy()
                table["fraction_correct"] = 1.0 if correct else 0.0
                table["max_within_bound"] = correct
                return table

            return replace

        return sides({"theorem4 table": runs(True)}, {"theorem4 table": runs(False)}, ctx)
