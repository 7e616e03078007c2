"""Paper 000's exact statement kinds (farewell/claims/statements.py and minimum_gap.py) on
hand-worked cases: UCB1's index against Wait-UCB's with one micro-arm, the (DQZL)/(WAIT) ratio,
the printed gaps and the feasibility of a gap with the optimum at a given micro-arm; each kind's
witnesses reach both verdicts."""

import math

import pytest

from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.decidability import decide
from timebandits.core.verdicts.vocabulary import NOT_REPRODUCED, REPRODUCED
from timebandits.farewell.claims.minimum_gap import GapFeasible, StatedGap, feasible_intervals
from timebandits.farewell.claims.statements import (
    BoundRatio,
    Ucb1Collapse,
    _indices,
    disagreements,
    ucb1_index,
)

CONFIG = {"base_seed": 1, "claims": {"alpha": 0.05, "fragile_share": 0.1, "run_factors": [2, 4]}}
# K = 1, V = 1, P(τ = 1) = P(τ = 2) = 1/2: μ^c = (1, 3/2), g = (1/2, 2/3), Δ = 1/6, μ̄^c = 5/4.
SHORT = {"reward_prob": [1.0], "delay_pmf": [[0.5, 0.5]]}
PAPER = {
    "experiments": {"short": {"environment": SHORT, "algorithms": []}},
    "algorithms": {
        "ucb_simplex": {"policy": "ucb_simplex", "params": {"radius_factor": 2.0}},
        "budget_ucb": {"policy": "budget_ucb", "params": {"radius_factor": 2.0}},
    },
}


def context():
    return ClaimContext(paper=PAPER, config=CONFIG, trace_of=lambda e, a: None)


def test_wait_ucb_with_one_micro_arm_is_ucb1():
    L = math.log(10.0)
    for rbar, n in [(0.0, 1), (0.3, 10), (1.0, 100)]:
        assert _indices("wait_ucb", {}, rbar, n, L) == pytest.approx(
            rbar + math.sqrt(2 * L / n), abs=1e-14
        )
    assert disagreements("wait_ucb", {})[0] == 0


def test_ucb_simplex_chooses_otherwise_than_ucb1_by_hand():
    """ln s = ln 10: arm A (r̄ = 0, N = 10), ε = √(0.2·ln 10) = 0.6786: UCB1 0.679, UCB-Simplex
    0.679/0.321 = 2.11; arm B (r̄ = 0.9, N = 100), ε = 0.2146: UCB1 1.115, UCB-Simplex 1/0.785 =
    1.27. UCB1 prefers B, UCB-Simplex A."""
    L = math.log(10.0)
    eps_a, eps_b = math.sqrt(2 * L / 10), math.sqrt(2 * L / 100)
    assert ucb1_index(0.0, 10, L) == pytest.approx(eps_a)
    assert ucb1_index(0.9, 100, L) == pytest.approx(0.9 + eps_b)
    assert _indices("ucb_simplex", {}, 0.0, 10, L) == pytest.approx(eps_a / (1 - eps_a))
    assert _indices("ucb_simplex", {}, 0.9, 100, L) == pytest.approx(1.0 / (1 - eps_b))
    assert ucb1_index(0.9, 100, L) > ucb1_index(0.0, 10, L)
    assert _indices("ucb_simplex", {}, 0.0, 10, L) > _indices("ucb_simplex", {}, 0.9, 100, L)
    assert disagreements("ucb_simplex", {})[0] > 0
    assert disagreements("budget_ucb", {})[0] > 0


def test_ucb1_collapse_rows_and_witnesses():
    claim = {
        "id": "C12",
        "kind": "ucb1_collapse",
        "against": ["ucb_simplex", "budget_ucb"],
        "rounding_tolerance": 1e-12,
    }
    rows = Ucb1Collapse.evaluate(claim, context())
    assert [r["verdict"] for r in rows] == [REPRODUCED] * 4
    assert rows[1]["headline"].startswith("0 of ")
    out = decide(claim, Ucb1Collapse, context())
    assert out["can_reproduce"] and out["can_refute"]


def test_bound_ratio_by_hand():
    """D = 2, Δ = 1/6, g* = 2/3, μ̄^c = 5/4: (WAIT) = 4·6·5/4 = 30, (DQZL) = (16 + 8·6 + 4·36)·2/3
    = 138.67, ratio 4.622."""
    claim = {
        "id": "C13",
        "kind": "bound_ratio",
        "experiments": ["short"],
        "numerator": "dqzl",
        "denominator": "wait",
        "min_ratio": 2.0,
    }
    [row] = BoundRatio.evaluate(claim, context())
    assert row["verdict"] == REPRODUCED
    assert row["headline"] == "(DQZL) / (WAIT) = 4.62 (needs ≥ 2)"
    assert (
        BoundRatio.evaluate({**claim, "min_ratio": 5.0}, context())[0]["verdict"] == NOT_REPRODUCED
    )
    out = decide(claim, BoundRatio, context())
    assert out["can_reproduce"] and out["can_refute"]


@pytest.mark.parametrize(
    "printed, verdict", [(0.166, REPRODUCED), (0.167, REPRODUCED), (0.168, NOT_REPRODUCED)]
)
def test_stated_gap_to_the_printed_digit(printed, verdict):
    claim = {
        "id": "C15",
        "kind": "stated_gap",
        "gaps": {"short": printed},
        "optimum": {"short": 2},
        "rounding_tolerance": 0.001,
    }
    rows = StatedGap.evaluate(claim, context())
    assert [r["verdict"] for r in rows] == [verdict, REPRODUCED]
    assert (
        StatedGap.evaluate({**claim, "optimum": {"short": 1}}, context())[1]["verdict"]
        == NOT_REPRODUCED
    )
    out = decide(claim, StatedGap, context())
    assert out["can_reproduce"] and out["can_refute"]


def test_feasible_gap_by_hand():
    """D = 2, V = 1: g_1 = p_1, g_2 = 1/(2 − p_1). With the optimum at 2 the gap 1/(2 − p_1) − p_1
    is largest at p_1 = 0: 1/2. With the optimum at 1 the gap p_1 − 1/(2 − p_1) is never
    positive."""
    assert feasible_intervals(2, (2,), 0.45, 0.01)
    assert (2, 0.5) in feasible_intervals(2, (2,), 0.45, 0.01)
    assert feasible_intervals(2, (2,), 0.55, 0.01) == ()
    assert feasible_intervals(2, (1,), 0.02, 0.01) == ()


def test_gap_feasible_rows_and_witnesses():
    claim = {
        "id": "E2",
        "kind": "gap_feasible",
        "max_delay": 2,
        "positions": [2],
        "gap": 0.55,
        "grid_step": 0.01,
    }
    [row] = GapFeasible.evaluate(claim, context())
    assert row["verdict"] == NOT_REPRODUCED
    assert GapFeasible.evaluate({**claim, "gap": 0.45}, context())[0]["verdict"] == REPRODUCED
    out = decide(claim, GapFeasible, context())
    assert out["can_reproduce"] and out["can_refute"]


def test_no_interior_optimum_on_ten_delays_reaches_the_printed_gap():
    """§7.1's Fig. 1b as printed (erratum E2): no pmf on [10] has an interior optimum and gap
    0.1235; the interior gaps stay below 0.08, while j* = 1 reaches 0.124 (fig1b_alt)."""
    interior = tuple(range(2, 10))
    assert feasible_intervals(10, interior, 0.1235, 0.02) == ()
    assert feasible_intervals(10, interior, 0.08, 0.01) == ()
    assert feasible_intervals(10, (1,), 0.1235, 0.02)


def test_family_ratio_by_hand():
    """D = 3, τ ≡ d: μ^c = (1, 1, 1), (1, 2, 2), (1, 2, 3): Σ 1/μ^c / μ̄^c = 3/1 = 3,
    2/(5/3) = 1.2, (11/6)/2 = 0.917. The largest is D = 3, at τ ≡ 1."""
    from timebandits.farewell.claims.leading_terms import FamilyRatio, family_ratios

    assert family_ratios(3) == pytest.approx([3.0, 1.2, 11.0 / 12.0])
    claim = {"id": "C19", "kind": "family_ratio", "max_delay": 3, "rounding_tolerance": 1e-9}
    [row] = FamilyRatio.evaluate(claim, context())
    assert row["verdict"] == REPRODUCED
    assert row["headline"] == "largest (FJ)/(WAIT) = 3 at τ ≡ 1 (D = 3)"
    out = decide(claim, FamilyRatio, context())
    assert out["can_reproduce"] and out["can_refute"]
