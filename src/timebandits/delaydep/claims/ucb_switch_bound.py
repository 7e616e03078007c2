"""π_ucb's switches against UCB1's bound (Sect. 1 of "Stochastic Bandits with Delay-Dependent
Payoffs": "A standard bandit strategy like UCB (Auer et al., 2002) … performs a number of switches
growing with the squared inverse of these gaps", read as an order bound). The claim kind
``ucb_switch_bound`` sets π_ucb's mean switches at T against 2·Σ_m (8 ln T / Δ_m² + 1 + π²/3)
(every switch enters or leaves a suboptimal choice, whose expected count UCB1's bound caps: Auer
et al. 2002, Theorem 1), Δ_m = g(r*) − g(m) the gaps of Sect. 5, eq. 3. How the switches grow
with the gaps is gaps.py's ``switch_gap_growth``; the gaps and UCB1's bounds are in theory.py.
"""

from __future__ import annotations

import numpy as np

from timebandits.core.verdicts.context import ClaimContext, paired_verdict
from timebandits.core.verdicts.stats import one_sided_t
from timebandits.core.verdicts.vocabulary import INCONCLUSIVE, STATISTICAL

from ..model import B2DEPProblem
from ..theory import ucb_switch_bound
from .gaps import SwitchGapGrowth
from .witnesses import with_metrics


class UcbSwitchBound:
    """The order-bound reading of Sect. 1: π_ucb's mean switches at T lie below
    :func:`ucb_switch_bound`, a quantity growing as Σ Δ⁻² (one-sided t-test over runs per
    experiment). A bound not below T, the most switches a run can make, is vacuous: that row is
    inconclusive."""

    evidence = STATISTICAL
    keys = ("experiments", "algorithm")
    optional = ()

    @classmethod
    def check(cls, claim, paper):
        SwitchGapGrowth.check({**claim, "min_slope": 0.0, "max_slope": 1.0}, paper)

    @staticmethod
    def evaluate(claim, ctx: ClaimContext) -> list[dict]:
        rows = []
        for exp in claim["experiments"]:
            problem = B2DEPProblem.from_config(ctx.paper["experiments"][exp]["environment"])
            switches = np.asarray(ctx.final(exp, claim["algorithm"], "switches"), dtype=float)
            horizon = float(ctx.at(exp, claim["algorithm"], "switches").index.max())
            bound = ucb_switch_bound(problem, horizon)
            numbers = (
                f"T = {horizon:g}: mean switches {switches.mean():.4g} (max "
                f"{switches.max():.4g}) vs 2 Σ (8 ln T/Δ² + 1 + π²/3) = {bound:.4g}"
            )
            if bound >= horizon:
                rows.append(
                    {
                        "scope": exp,
                        "verdict": INCONCLUSIVE,
                        "headline": f"bound {bound:.3g} vacuous (≥ T)",
                        "statistic": f"{numbers}; the bound is not below T: not judged",
                    }
                )
                continue
            p_claimed = one_sided_t(switches, bound, below=True)
            p_opposite = one_sided_t(switches, bound, below=False)
            verdict = paired_verdict({"p_claimed": p_claimed, "p_opposite": p_opposite}, ctx.alpha)
            rows.append(
                {
                    "scope": exp,
                    "verdict": verdict,
                    "headline": f"switches {switches.mean():.4g} vs bound {bound:.4g}",
                    "statistic": f"{numbers}; one-sided t-test p = {p_claimed:.2g}",
                    "p_claimed": p_claimed,
                    "p_opposite": p_opposite,
                }
            )
        return rows

    @staticmethod
    def witnesses(claim, ctx):
        """Switches at half the bound, or halfway between the bound and T (linear in t, 1%
        spread over runs)."""

        def curve(favourable: bool):
            def value(experiment, trace):
                t = trace["t"].to_numpy(dtype=float)
                reps = trace["repetition"].to_numpy()
                z = np.linspace(-1.0, 1.0, reps.max() + 1)[reps] if reps.max() > 0 else 0.0
                problem = B2DEPProblem.from_config(
                    ctx.paper["experiments"][experiment]["environment"]
                )
                bound = ucb_switch_bound(problem, t.max())
                final = bound / 2 if favourable else (bound + t.max()) / 2
                return final * (t / t.max()) * (1.0 + 0.01 * z)

            return value

        return {
            "favourable": with_metrics(ctx, claim, {"switches": curve(True)}),
            "unfavourable": with_metrics(ctx, claim, {"switches": curve(False)}),
        }
