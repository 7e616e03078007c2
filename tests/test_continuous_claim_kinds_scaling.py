"""Paper 003's slope claim kinds (continuous/claims/scaling.py): slope_at_most and slope_at_least
of the regret, CTMAB's estimation loss and its estimation time against K, 1/Δ and 1/μ1
(Theorems 8-9, Lemmas 22-23), on hand-built finals at T. Runs of one repeated value make every
bootstrap resample equal, so the 95% interval is the slope itself, worked out by hand; the
estimation payoff is worked out play by play."""

from __future__ import annotations

import copy
import math

import numpy as np
import pandas as pd
import pytest

from timebandits.continuous.claims.scaling import SlopeAtLeast, SlopeAtMost, estimation_payoff
from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.vocabulary import INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED

CONFIG = {
    "base_seed": 1,
    "claims": {
        "alpha": 0.05,
        "bootstrap_samples": 200,
        "fragile_share": 0.1,
        "run_factors": [2, 4, 8, 16],
    },
}
T = 1000.0  # T' = T/λ with λ = 1


def pstar(mu1: float) -> float:
    """Props. 1-2: μ1²T'/4 (μ1T'/2 is an integer for the means used here)."""
    return mu1 * mu1 * T / 4


def context(instances: dict, finals: dict, params: dict | None = None) -> ClaimContext:
    """instances: experiment -> arm means; finals: experiment -> {metric: one value per run} of
    ``ours`` (a CTMAB with ``params``) at its one checkpoint T."""
    paper = {
        "paper": {"key": "continuous"},
        "algorithms": {
            "oracle": {"policy": "oracle"},
            "ours": {"policy": "ctmab", "params": params or {}},
        },
        "experiments": {
            e: {
                "environment": {"means": m, "lam": 1.0},
                "horizon": T,
                "algorithms": ["oracle", "ours"],
            }
            for e, m in instances.items()
        },
    }
    frames = {}
    for exp, metrics in finals.items():
        n = len(next(iter(metrics.values())))
        frames[(exp, "ours")] = pd.DataFrame(
            {
                "repetition": np.arange(n),
                "t": np.full(n, T),
                **{k: np.asarray(v, float) for k, v in metrics.items()},
            }
        )
    return ClaimContext(
        paper=paper, config=copy.deepcopy(CONFIG), trace_of=lambda e, a: frames[(e, a)]
    )


def claim(kind: str, quantity: str, variable: str, experiments, limit: float) -> dict:
    name = "max_slope" if kind == "slope_at_most" else "min_slope"
    return {
        "id": "S",
        "kind": kind,
        "quantity": quantity,
        "variable": variable,
        "experiments": list(experiments),
        "algorithm": "ours",
        name: limit,
    }


GAPS = {"d10": [0.2, 0.1], "d05": [0.2, 0.15]}  # 1/Δ = 10, 20
ARMS = {"k2": [0.2, 0.1], "k4": [0.2, 0.1, 0.09, 0.08]}  # K = 2, 4
MUS = {"m04": [0.4, 0.3], "m02": [0.2, 0.1]}  # 1/μ1 = 2.5, 5


def regrets(instances: dict, values: dict) -> ClaimContext:
    """Each run's payoff at T is P* − the experiment's regret (3 equal runs)."""
    return context(
        instances, {e: {"payoff": [pstar(max(instances[e])) - r] * 3} for e, r in values.items()}
    )


def test_estimation_payoff_by_hand():
    # T' = 1024, ε = 0.1: c = 2, ℓ = ln 1024; κ with κℓc^{2/3} = 2.5: phase 1 (0, 2] plays
    # ⌈2.5⌉ = 3 per arm, 6 in all, 1/3 apart (each costs 3); phase 2 (2, 4] ⌈2.5·2^{2/3}⌉ = 4
    # per arm, 8 in all, 1/4 apart (each costs 4). Arms in turn from arm 1 (μ = 0.5, 0.25).
    kappa = 2.5 / (math.log(1024) * 2 ** (2 / 3))
    means = [0.5, 0.25]
    # phase 1 in full: 3 × (0.5 + 0.25) − 6 × 3 = −15.75
    assert estimation_payoff(means, 1024.0, 0.1, kappa, 2.0) == pytest.approx(-15.75)
    # and 3 plays of phase 2 (arms 1, 2, 1): 1.25 − 12 = −10.75 more
    assert estimation_payoff(means, 1024.0, 0.1, kappa, 2.75) == pytest.approx(-26.5)
    # stopped after the first play: 0.5 − 3
    assert estimation_payoff(means, 1024.0, 0.1, kappa, 1 / 3) == pytest.approx(-2.5)


@pytest.mark.parametrize("limit, verdict", [(2.5, REPRODUCED), (1.5, NOT_REPRODUCED)])
def test_regret_slope_on_inverse_gap_at_most(limit, verdict):
    # regret 1 at 1/Δ = 10 and 4 at 1/Δ = 20: slope ln 4/ln 2 = 2
    ctx = regrets(GAPS, {"d10": 1.0, "d05": 4.0})
    c = claim("slope_at_most", "regret", "inverse_gap", GAPS, limit)
    [row] = SlopeAtMost.evaluate(c, ctx)
    assert row["verdict"] == verdict
    assert row["headline"].startswith("slope 2 (95% CI 2 to 2")


@pytest.mark.parametrize("limit, verdict", [(0.5, REPRODUCED), (1.5, NOT_REPRODUCED)])
def test_regret_slope_on_arms_at_least(limit, verdict):
    # regret 2 at K = 2, 4 at K = 4: slope 1
    ctx = regrets(ARMS, {"k2": 2.0, "k4": 4.0})
    [row] = SlopeAtLeast.evaluate(claim("slope_at_least", "regret", "arms", ARMS, limit), ctx)
    assert row["verdict"] == verdict


def test_estimation_time_slope_on_inverse_mu():
    # t_Es 1 at 1/μ1 = 2.5 and 8 at 1/μ1 = 5: slope ln 8/ln 2 = 3; a run that never stopped
    # (i* = 0) has no t_Es and is left out
    ctx = context(
        MUS,
        {
            "m04": {"i_star": [2, 2, 0], "stop_time": [1, 1, 1000]},
            "m02": {"i_star": [3, 3, 3], "stop_time": [8, 8, 8]},
        },
    )
    [row] = SlopeAtMost.evaluate(
        claim("slope_at_most", "estimation_time", "inverse_mu", MUS, 3.5), ctx
    )
    assert row["verdict"] == REPRODUCED
    assert "slope 3 (95% CI 3 to 3" in row["headline"]
    [row] = SlopeAtMost.evaluate(
        claim("slope_at_most", "estimation_time", "inverse_mu", MUS, 2.5), ctx
    )
    assert row["verdict"] == NOT_REPRODUCED


def test_estimation_loss_from_the_stop_time():
    # T' = 1000, ε = ln 2/ln 1000 (c = 2): the loss is −estimation_payoff at each t_Es
    params = {"epsilon": {"phase_base": 2.0}, "kappa": 1.0}
    ctx = context(
        ARMS,
        {"k2": {"i_star": [1], "stop_time": [2.0]}, "k4": {"i_star": [1], "stop_time": [2.0]}},
        params,
    )
    eps = math.log(2.0) / math.log(T)
    loss = {e: -estimation_payoff(ARMS[e], T, eps, 1.0, 2.0) for e in ARMS}
    # phase 1 plays ⌈ln 1000 · 2^{2/3}⌉ = ⌈10.96⌉ = 11 per arm over (0, 2]: K = 2: 22 plays at
    # cost 11 each, earning 11 × 0.3; K = 4: 44 plays at cost 22, earning 11 × 0.47
    assert loss["k2"] == pytest.approx(22 * 11 - 11 * 0.3)
    assert loss["k4"] == pytest.approx(44 * 22 - 11 * 0.47)
    slope = math.log(loss["k4"] / loss["k2"]) / math.log(2)
    [row] = SlopeAtMost.evaluate(claim("slope_at_most", "estimation_loss", "arms", ARMS, 2.5), ctx)
    assert row["verdict"] == REPRODUCED and f"slope {slope:.3g}" in row["headline"]


def test_a_mean_at_or_below_zero_is_inconclusive():
    ctx = regrets(GAPS, {"d10": -1.0, "d05": 4.0})
    [row] = SlopeAtMost.evaluate(claim("slope_at_most", "regret", "inverse_gap", GAPS, 2.5), ctx)
    assert row["verdict"] == INCONCLUSIVE


@pytest.mark.parametrize(
    "kind, cls, quantity, variable, instances",
    [
        ("slope_at_most", SlopeAtMost, "regret", "inverse_gap", GAPS),
        ("slope_at_least", SlopeAtLeast, "regret", "arms", ARMS),
        ("slope_at_most", SlopeAtMost, "estimation_time", "inverse_mu", MUS),
        ("slope_at_most", SlopeAtMost, "estimation_loss", "arms", ARMS),
    ],
)
def test_witnesses_reach_both_verdicts(kind, cls, quantity, variable, instances):
    finals = {
        e: {"payoff": [0.0] * 4, "i_star": [1] * 4, "stop_time": [1.0] * 4} for e in instances
    }
    ctx = context(instances, finals, {"epsilon": {"phase_base": 2.0}})
    c = claim(kind, quantity, variable, instances, 2.0)
    sides = cls.witnesses(c, ctx)
    assert cls.evaluate(c, sides["favourable"])[0]["verdict"] == REPRODUCED
    assert cls.evaluate(c, sides["unfavourable"])[0]["verdict"] == NOT_REPRODUCED


def test_config_checks():
    ctx = regrets(GAPS, {"d10": 1.0, "d05": 4.0})
    paper = ctx.paper
    good = claim("slope_at_most", "regret", "inverse_gap", GAPS, 2.5)
    SlopeAtMost.check(good, paper)
    with pytest.raises(ValueError, match="quantity"):
        SlopeAtMost.check({**good, "quantity": "payoff"}, paper)
    with pytest.raises(ValueError, match="variable"):
        SlopeAtMost.check({**good, "variable": "gap"}, paper)
    with pytest.raises(ValueError, match="two values"):
        SlopeAtMost.check({**good, "variable": "arms"}, paper)
    one_arm = copy.deepcopy(paper)
    one_arm["experiments"]["d10"]["environment"]["means"] = [0.2]
    with pytest.raises(ValueError, match="two arms"):
        SlopeAtMost.check(good, one_arm)
    with pytest.raises(ValueError, match="max_slope"):
        SlopeAtMost.check({k: v for k, v in good.items() if k != "max_slope"}, paper)


# --- printed_statement (claims/errata.py) ---

from timebandits.continuous.claims.errata import PrintedStatement, eq9_value, lemma18_failures  # noqa: E402


def test_eq9_by_hand():
    # μ = (0.4, 0.1): c12 = 16, Δ/2 = 0.15: 2·2·ln 2/(16 · 0.0225 · 0.4) = 4 ln 2/0.144
    assert eq9_value([0.4, 0.1]) == pytest.approx(4 * math.log(2) / 0.144)
    # μ = (0.3, 0.2): c12 = 2.25 < 8: 4 ln(2.25/8)/(2.25 · 0.0025 · 0.3) < 0
    assert eq9_value([0.3, 0.2]) == pytest.approx(4 * math.log(2.25 / 8) / (2.25 * 0.0025 * 0.3))


def test_lemma18_fails_only_for_small_x():
    # at x = 0.01, β = 0.01: D = 0.01 ln(1/2) + 0.99 ln(0.99/0.98) ≈ 0.00312 > 8e-4/ln 2 ≈ 0.00115
    from timebandits.continuous.theory import lemma18_holds

    assert not lemma18_holds(0.01, 0.01)
    assert lemma18_holds(0.3, 0.1)
    count, largest = lemma18_failures()
    assert count > 0 and 0.04 < largest < 0.05


def test_printed_statement_verdicts_and_witnesses():
    ctx = regrets({"good": [0.4, 0.1], "bad": [0.3, 0.2]}, {"good": 1.0, "bad": 1.0})
    c = {
        "id": "E",
        "kind": "printed_statement",
        "statement": "eq9_defined",
        "experiments": ["good", "bad"],
    }
    PrintedStatement.check(c, ctx.paper)
    rows = PrintedStatement.evaluate(c, ctx)
    assert [r["verdict"] for r in rows] == [REPRODUCED, NOT_REPRODUCED]
    for claim in (c, {"id": "L", "kind": "printed_statement", "statement": "lemma18_kl"}):
        sides = PrintedStatement.witnesses(claim, ctx)
        assert {r["verdict"] for r in PrintedStatement.evaluate(claim, sides["favourable"])} == {
            REPRODUCED
        }
        assert {r["verdict"] for r in PrintedStatement.evaluate(claim, sides["unfavourable"])} == {
            NOT_REPRODUCED
        }
    with pytest.raises(ValueError, match="statement"):
        PrintedStatement.check({**c, "statement": "eq10"}, ctx.paper)
    with pytest.raises(ValueError, match="experiments"):
        PrintedStatement.check(
            {"id": "E", "kind": "printed_statement", "statement": "eq9_defined"}, ctx.paper
        )


def test_baseline_rate_by_hand():
    from timebandits.continuous.claims.errata import baseline_payoffs

    # μ = 0.2, T' = 1000: a = k/200, N = 5k plays, payoff 0.2·5k − 25k²/1000 = k − k²/40:
    # increasing to k = 20 (payoff 10 = μ²T'/4), falling after
    payoffs = baseline_payoffs(0.2, T)
    k = np.arange(1, 41)
    assert payoffs == pytest.approx(k - k * k / 40)
    ctx = regrets({"one": [0.2, 0.1]}, {"one": 1.0})
    c = {
        "id": "B",
        "kind": "printed_statement",
        "statement": "baseline_rate",
        "experiments": ["one"],
    }
    PrintedStatement.check(c, ctx.paper)
    [row] = PrintedStatement.evaluate(c, ctx)
    assert row["verdict"] == REPRODUCED and row["headline"].startswith("largest at a = 0.1 ")
    sides = PrintedStatement.witnesses(c, ctx)
    assert PrintedStatement.evaluate(c, sides["favourable"])[0]["verdict"] == REPRODUCED
    assert PrintedStatement.evaluate(c, sides["unfavourable"])[0]["verdict"] == NOT_REPRODUCED
