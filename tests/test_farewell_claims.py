"""Paper 000's own claim kinds (farewell/claims.py) on hand-worked numbers: Theorem 1 (argmax
and |A_j| ≤ j), its printed sign A_j ≥ 0 (erratum E1) and the §6.2 regimes of (WAIT) and (FJ),
with their decidability witnesses (core/decidability.py)."""

import copy

import numpy as np
import pandas as pd
import pytest

from timebandits.core.claims import NOT_REPRODUCED, REPRODUCED, ClaimContext
from timebandits.core.config import load_paper
from timebandits.core.decidability import decide, derived
from timebandits.farewell.claims import CLAIM_KINDS, with_exact_rewards

CONFIG = {"base_seed": 1, "claims": {"alpha": 0.05, "bootstrap_samples": 200}}
T = 2
# K = 1, D = 2, V = 1, P(τ = 1) = P(τ = 2) = 1/2. By hand:
#   j = 1: every epoch waits 1 and pays with probability 1/2: g = 1/2, W(2) = 2·1/2 = 1, A = 0.
#   j = 2: an epoch waits 1 (τ = 1) or 2 (τ = 2) and always pays: g = 1/E[τ] = 2/3. Within T = 2:
#          τ_1 = 1 (prob 1/2) pays 1, then a second epoch fits only if τ_2 = 1 (pays 1 more);
#          τ_1 = 2 pays 1 and ends the budget. W(2) = 1/2·(1 + 1/2) + 1/2·1 = 5/4,
#          A = 5/4 − 2·2/3 = −1/12.
SPLIT = [[0.5, 0.5]]
TIED = [[1.0, 0.0]]  # τ ≡ 1: every j waits 1 and pays 1, g = (1, 1), A = (0, 0)


def context(pmf) -> ClaimContext:
    paper = copy.deepcopy(load_paper("farewell"))
    paper["experiments"]["tiny"] = {**paper["experiments"]["thm1_fig1b"], "horizon": T,
                                    "repetitions": 2,
                                    "environment": {"reward_prob": [1.0], "delay_pmf": pmf}}
    # simulated rewards of two runs at t = 1, 2 (supporting rows only)
    trace = pd.DataFrame({"repetition": [0, 0, 1, 1], "t": [1.0, 2.0, 1.0, 2.0],
                          "reward_k1_j1": [1.0, 1.0, 0.0, 1.0], "reward_k1_j2": [1.0, 1.0, 1.0, 1.5]})
    return ClaimContext(paper=paper, config=CONFIG, trace_of=lambda e, a: trace)


def claim(kind, **fields):
    return {"id": "t", "text": "", "where": "", "kind": kind, **fields}


THEOREM1 = claim("theorem1", experiments=["tiny"])
PRINTED = claim("theorem1_printed_sign", experiments=["tiny"])


def deciding(kind, claim_, ctx):
    return [r for r in CLAIM_KINDS[kind].evaluate(claim_, ctx) if r.get("role", "decides") == "decides"]


def with_rewards(ctx, rewards):
    """``ctx`` with Theorem 1's exact W(T) of the pairs (1,1), (1,2) replaced by ``rewards``."""
    return derived(ctx, overrides={"theorem1 tiny": lambda table: with_exact_rewards(table, rewards)})


def test_theorem1_on_the_hand_worked_problem():
    rows = deciding("theorem1", THEOREM1, context(SPLIT))
    assert [r["verdict"] for r in rows] == [REPRODUCED, REPRODUCED]
    assert rows[0]["headline"] == "argmax W(T) = (1,2), argmax g = (1,2)"
    assert rows[1]["headline"] == "largest |A_j|/j = 0.0417 (needs ≤ 1)"  # (1/12)/2
    assert "[-0.08333, 0]" in rows[1]["statistic"]


@pytest.mark.parametrize("offset_j2, verdict", [
    (-2.0, REPRODUCED),       # |A_2| = 2 = j: on the bound
    (-3.0, NOT_REPRODUCED),   # |A_2| = 3 ∈ (j, 2j]: a bound loosened to 2j would pass it
    (2.5, NOT_REPRODUCED),    # positive offsets count too
])
def test_theorem1_offset_bound_is_j(offset_j2, verdict):
    rewards = [1.0, T * 2 / 3 + offset_j2]
    # keep (1,2) the argmax of W so that only the offset decides
    rows = deciding("theorem1", THEOREM1, with_rewards(context(SPLIT), rewards))
    assert rows[1]["verdict"] == verdict
    assert rows[1]["headline"] == f"largest |A_j|/j = {abs(offset_j2) / 2:.3g} (needs ≤ 1)"


def test_theorem1_argmax_of_w_must_be_an_argmax_of_g():
    # W(1,1) = 1.3 > W(1,2) = 1.25: the best constant policy would not maximise g = E[r]/E[c]
    # (A_1 = 0.3 ≤ 1, so the offset check alone still passes)
    rows = deciding("theorem1", THEOREM1, with_rewards(context(SPLIT), [1.3, 1.25]))
    assert [r["verdict"] for r in rows] == [NOT_REPRODUCED, REPRODUCED]
    assert rows[0]["headline"] == "argmax W(T) = (1,1), argmax g = (1,2)"


def test_printed_sign_fails_on_the_hand_worked_problem():
    (row,) = CLAIM_KINDS["theorem1_printed_sign"].evaluate(PRINTED, context(SPLIT))
    assert row["verdict"] == NOT_REPRODUCED  # A_2 = −1/12 < 0
    assert row["headline"] == "1/2 pairs have A_j < 0 (smallest -0.0833)"
    (row,) = CLAIM_KINDS["theorem1_printed_sign"].evaluate(
        PRINTED, with_rewards(context(SPLIT), [1.0, 4 / 3 + 0.5]))
    assert row["verdict"] == REPRODUCED  # A = (0, 1/2): the printed [0, j] holds


@pytest.mark.parametrize("kind", ["theorem1", "theorem1_printed_sign"])
def test_theorem1_witnesses_reach_both_verdicts(kind):
    out = decide(claim(kind, experiments=["tiny"]), CLAIM_KINDS[kind], context(SPLIT))
    assert (out["can_reproduce"], out["can_refute"]) == (True, True)


@pytest.mark.parametrize("kind", ["theorem1", "theorem1_printed_sign"])
def test_theorem1_with_every_pair_tied_cannot_fail(kind):
    # τ ≡ 1: every W(T) = T·g whatever the order, so no wrong argmax and no offset
    out = decide(claim(kind, experiments=["tiny"]), CLAIM_KINDS[kind], context(TIED))
    assert (out["can_reproduce"], out["can_refute"]) == (True, False)
    assert "cannot be refuted as configured" in out["decidability"]


def test_bound_regime_by_hand():
    # D = 3, τ ≡ d: waits μ^c_j = min(j, d).
    #   d = 1: (1, 1, 1), mean 1 < Σ 1/μ = 3: (WAIT)
    #   d = 2: (1, 2, 2), mean 5/3 < 1 + 1/2 + 1/2 = 2: (WAIT)
    #   d = 3: (1, 2, 3), mean 2 > 11/6: (FJ). One switch.
    rows = CLAIM_KINDS["bound_regime"].evaluate(claim("bound_regime", max_delay=3, experiments=[]),
                                                context(SPLIT))
    assert [r["verdict"] for r in rows] == [REPRODUCED] * 3
    assert rows[2]["headline"] == "the smaller term switches 1 time(s): WAIT WAIT FJ"
    # D = 2, τ ≡ 2: (1, 2), mean 3/2 = Σ 1/μ = 3/2: a tie, so (WAIT) is not the smaller one
    rows = CLAIM_KINDS["bound_regime"].evaluate(claim("bound_regime", max_delay=2, experiments=[]),
                                                context(SPLIT))
    assert rows[2]["headline"] == "the smaller term switches 1 time(s): WAIT FJ"


def test_bound_regime_fails_if_the_regimes_are_the_wrong_way_round():
    swapped = derived(context(SPLIT), overrides={"bound_regime terms": lambda terms: [
        {"mean_cost": o["sum_inverse_cost"], "sum_inverse_cost": o["mean_cost"]} for o in terms]})
    rows = CLAIM_KINDS["bound_regime"].evaluate(claim("bound_regime", max_delay=3, experiments=[]),
                                                swapped)
    assert [r["verdict"] for r in rows] == [NOT_REPRODUCED, NOT_REPRODUCED, REPRODUCED]
    out = decide(claim("bound_regime", max_delay=3, experiments=[]), CLAIM_KINDS["bound_regime"],
                 context(SPLIT))
    assert (out["can_reproduce"], out["can_refute"]) == (True, True)


def test_every_claim_of_the_config_is_well_formed():
    paper = load_paper("farewell")
    for c in paper["claims"]:
        if c["kind"] in CLAIM_KINDS:
            CLAIM_KINDS[c["kind"]].check(c, paper)
    assert {c["id"]: c["scope"] for c in paper["claims"]}["E1"] == "erratum"
    assert np.isclose(T * 2 / 3 - 1 / 12, 5 / 4)  # the hand-worked W(2) of j = 2
