"""Paper 000's own claim kinds (farewell/claims/theorem1.py and leading_terms.py) on hand-worked
numbers: Theorem 1 (argmax and |A_j| ≤ j), its printed sign A_j ≥ 0 (erratum E1) and the §6.2
regimes of (WAIT) and (FJ), with their decidability witnesses (core/verdicts/decidability.py)."""

import copy

import numpy as np
import pandas as pd
import pytest

from timebandits.core.build.preflight import load_paper
from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.decidability import decide, derived
from timebandits.core.verdicts.vocabulary import NOT_REPRODUCED, REPRODUCED, STATISTICAL, SUPPORTS
from timebandits.farewell.claims import CLAIM_KINDS
from timebandits.farewell.claims.theorem1 import (
    simulated_as_exact,
    theorem1_witnesses,
    with_exact_rewards,
)

CONFIG = {
    "base_seed": 1,
    "claims": {
        "alpha": 0.05,
        "bootstrap_samples": 200,
        "fragile_share": 0.1,
        "run_factors": [2, 4, 8, 16],
    },
}
T = 2
# K = 1, D = 2, V = 1, P(τ = 1) = P(τ = 2) = 1/2. By hand:
#   j = 1: every epoch waits 1 and pays with probability 1/2: g = 1/2, W(2) = 2·1/2 = 1, A = 0.
#   j = 2: an epoch waits 1 (τ = 1) or 2 (τ = 2) and always pays: g = 1/E[τ] = 2/3. Within T = 2:
#          τ_1 = 1 (prob 1/2) pays 1, then a second epoch fits only if τ_2 = 1 (pays 1 more);
#          τ_1 = 2 pays 1 and ends the budget. W(2) = 1/2·(1 + 1/2) + 1/2·1 = 5/4,
#          A = 5/4 − 2·2/3 = −1/12.
SPLIT = [[0.5, 0.5]]
TIED = [[1.0, 0.0]]  # τ ≡ 1: every j waits 1 and pays 1, g = (1, 1), A = (0, 0)


def rewards_trace(j1, j2) -> pd.DataFrame:
    """Simulated rewards of the constant policies (1,1), (1,2) in two runs: 0 at t = 1, then
    ``j1`` and ``j2`` (one value per run) at t = T = 2 (supporting rows only)."""
    return pd.DataFrame(
        {
            "repetition": [0, 0, 1, 1],
            "t": [1.0, 2.0, 1.0, 2.0],
            "reward_k1_j1": [0.0, j1[0], 0.0, j1[1]],
            "reward_k1_j2": [0.0, j2[0], 0.0, j2[1]],
        }
    )


def context(pmf, trace=None) -> ClaimContext:
    paper = copy.deepcopy(load_paper("farewell"))
    paper["experiments"]["tiny"] = {
        **paper["experiments"]["thm1_fig1b"],
        "horizon": T,
        "repetitions": 2,
        "environment": {"reward_prob": [1.0], "delay_pmf": pmf},
    }
    traces = {
        ("tiny", "constant_policies"): rewards_trace([1.0, 1.0], [1.0, 1.5])
        if trace is None
        else trace
    }
    # only the trace the claim names: any other (experiment, algorithm) is a KeyError
    return ClaimContext(paper=paper, config=CONFIG, trace_of=lambda e, a: traces[(e, a)])


def claim(kind, **fields):
    return {"id": "t", "tested_as": "", "where": "", "kind": kind, **fields}


THEOREM1 = claim("theorem1", experiments=["tiny"])
PRINTED = claim("theorem1_printed_sign", experiments=["tiny"], rounding_tolerance=1e-9)


def deciding(kind, claim_, ctx):
    return [
        r for r in CLAIM_KINDS[kind].evaluate(claim_, ctx) if r.get("role", "decides") == "decides"
    ]


def with_rewards(ctx, rewards):
    """``ctx`` with Theorem 1's exact W(T) of the pairs (1,1), (1,2) replaced by ``rewards``."""
    return derived(
        ctx, overrides={"theorem1 tiny": lambda table: with_exact_rewards(table, rewards)}
    )


def test_theorem1_on_the_hand_worked_problem():
    rows = deciding("theorem1", THEOREM1, context(SPLIT))
    assert [r["verdict"] for r in rows] == [REPRODUCED, REPRODUCED]
    assert rows[0]["headline"] == "argmax W(T) = (1,2), argmax g = (1,2)"
    assert rows[1]["headline"] == "largest |A_j|/j = 0.0417 (needs ≤ 1)"  # (1/12)/2
    assert "[-0.08333, 0]" in rows[1]["statistic"]


@pytest.mark.parametrize(
    "offset_j2, verdict",
    [
        (-2.0, REPRODUCED),  # |A_2| = 2 = j: on the bound
        (-3.0, NOT_REPRODUCED),  # |A_2| = 3 ∈ (j, 2j]: a bound loosened to 2j would pass it
        (2.5, NOT_REPRODUCED),  # positive offsets count too
    ],
)
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


# Two runs at T = 2: (1,1) earns 1 in each, (1,2) earns 1 and 2.2. By hand: (1,1) mean 1, s.e. 0,
# rate 1/2, z = 0 (s.e. 0); (1,2) mean 1.6, sd 1.2/√2, s.e. 0.6, rate 0.8 ± 0.3,
# z = (1.6 − 5/4)/0.6 = 0.583.
SPREAD_TRACE = rewards_trace([1.0, 1.0], [1.0, 2.2])


def supporting(exp, verdict, headline, statistic):
    return {
        "scope": exp,
        "evidence": STATISTICAL,
        "role": SUPPORTS,
        "verdict": verdict,
        "headline": headline,
        "statistic": statistic,
    }


def test_theorem1_rows_in_full():
    rows = CLAIM_KINDS["theorem1"].evaluate(THEOREM1, context(SPLIT, SPREAD_TRACE))
    assert rows == [
        {
            "scope": "tiny argmax",
            "verdict": REPRODUCED,
            "headline": "argmax W(T) = (1,2), argmax g = (1,2)",
            "statistic": "exact W(T = 2) is largest at (1,2) (1.25); argmax g = (1,2) "
            "with g* = 0.66667",
        },
        {
            "scope": "tiny |A_j| ≤ j",
            "verdict": REPRODUCED,
            "headline": "largest |A_j|/j = 0.0417 (needs ≤ 1)",  # (1/12)/2
            "statistic": "exact A_j = W(T) − T·g ranges over [-0.08333, 0]; "
            "largest |A_j|/j = 0.0417",
        },
        supporting(
            "tiny simulated argmax",
            REPRODUCED,
            "best simulated constant policy (1,2)",
            "best simulated constant policy (1,2) at rate 0.80000 ± 0.3; argmax g = (1,2)",
        ),
        supporting(
            "tiny simulation vs exact",
            REPRODUCED,
            "largest |z| = 0.58 (≤ 4)",
            "largest |simulated − exact W(T)| / s.e. = 0.58 at (1,2) (T = 2)",
        ),
    ]


def test_theorem1_rows_with_every_pair_optimal():
    # τ ≡ 1: g = (1, 1), both pairs optimal; W(2) = 2 for both, so the first, (1,1), is the argmax;
    # A = 0. Runs earn 2 each: rate 1 ± 0, z = 0.
    rows = CLAIM_KINDS["theorem1"].evaluate(
        THEOREM1, context(TIED, rewards_trace([2.0, 2.0], [2.0, 2.0]))
    )
    assert rows == [
        {
            "scope": "tiny argmax",
            "verdict": REPRODUCED,
            "headline": "argmax W(T) = (1,1), argmax g = (1,1), (1,2)",
            "statistic": "exact W(T = 2) is largest at (1,1) (2); argmax g = (1,1), (1,2) "
            "with g* = 1.00000",
        },
        {
            "scope": "tiny |A_j| ≤ j",
            "verdict": REPRODUCED,
            "headline": "largest |A_j|/j = 0 (needs ≤ 1)",
            "statistic": "exact A_j = W(T) − T·g ranges over [0, 0]; largest |A_j|/j = 0",
        },
        supporting(
            "tiny simulated argmax",
            REPRODUCED,
            "best simulated constant policy (1,1)",
            "best simulated constant policy (1,1) at rate 1.00000 ± 0; argmax g = (1,1), (1,2)",
        ),
        supporting(
            "tiny simulation vs exact",
            REPRODUCED,
            "largest |z| = 0.00 (≤ 4)",
            "largest |simulated − exact W(T)| / s.e. = 0.00 at (1,1) (T = 2)",
        ),
    ]


def test_theorem1_simulated_best_policy_not_optimal():
    # (1,1) earns 2 in both runs (rate 1 ± 0), (1,2) earns 1 (rate 1/2): the best simulated policy
    # is (1,1), not the argmax (1,2) of g
    rows = CLAIM_KINDS["theorem1"].evaluate(
        THEOREM1, context(SPLIT, rewards_trace([2.0, 2.0], [1.0, 1.0]))
    )
    assert rows[2] == supporting(
        "tiny simulated argmax",
        NOT_REPRODUCED,
        "best simulated constant policy (1,1)",
        "best simulated constant policy (1,1) at rate 1.00000 ± 0; argmax g = (1,2)",
    )
    assert [r["verdict"] for r in rows[:2]] == [REPRODUCED, REPRODUCED]  # exact rows unchanged


@pytest.mark.parametrize(
    "z, verdict",
    [
        (4.0, REPRODUCED),
        (-4.0, REPRODUCED),  # on the bound |z| ≤ 4
        (4.5, NOT_REPRODUCED),
        (-4.5, NOT_REPRODUCED),  # beyond it, either sign (and below 5)
    ],
)
def test_theorem1_simulation_vs_exact_needs_z_within_4(z, verdict):
    ctx = derived(
        context(SPLIT),
        overrides={"theorem1 tiny": lambda table: table.assign(z_simulated_vs_exact=[0.0, z])},
    )
    row = CLAIM_KINDS["theorem1"].evaluate(THEOREM1, ctx)[3]
    assert row == supporting(
        "tiny simulation vs exact",
        verdict,
        f"largest |z| = {abs(z):.2f} (≤ 4)",
        f"largest |simulated − exact W(T)| / s.e. = {abs(z):.2f} at (1,2) (T = 2)",
    )


def test_theorem1_witness_rows():
    # SPLIT, g = (1/2, 2/3), T = 2. Favourable: W = T·g = (1, 4/3), A = (0, 0), simulated rate = g.
    # Unfavourable: W = T·(2/3 + 1/2 − g) = (4/3, 1): argmax (1,1); A = (1/3, −1/3), |A|/j ≤ 1/3;
    # simulated rate W/T = (2/3, 1/2): best (1,1). Simulation agrees with W: z = 0 (first pair).
    # The rate's s.e. stays the real one: 0 for (1,1), 0.3 for (1,2).
    out = theorem1_witnesses(THEOREM1, context(SPLIT, SPREAD_TRACE))
    assert set(out) == {"favourable", "unfavourable"}
    z0 = supporting(
        "tiny simulation vs exact",
        REPRODUCED,
        "largest |z| = 0.00 (≤ 4)",
        "largest |simulated − exact W(T)| / s.e. = 0.00 at (1,1) (T = 2)",
    )
    assert CLAIM_KINDS["theorem1"].evaluate(THEOREM1, out["favourable"]) == [
        {
            "scope": "tiny argmax",
            "verdict": REPRODUCED,
            "headline": "argmax W(T) = (1,2), argmax g = (1,2)",
            "statistic": "exact W(T = 2) is largest at (1,2) (1.33333); argmax g = (1,2) "
            "with g* = 0.66667",
        },
        {
            "scope": "tiny |A_j| ≤ j",
            "verdict": REPRODUCED,
            "headline": "largest |A_j|/j = 0 (needs ≤ 1)",
            "statistic": "exact A_j = W(T) − T·g ranges over [0, 0]; largest |A_j|/j = 0",
        },
        supporting(
            "tiny simulated argmax",
            REPRODUCED,
            "best simulated constant policy (1,2)",
            "best simulated constant policy (1,2) at rate 0.66667 ± 0.3; argmax g = (1,2)",
        ),
        z0,
    ]
    assert CLAIM_KINDS["theorem1"].evaluate(THEOREM1, out["unfavourable"]) == [
        {
            "scope": "tiny argmax",
            "verdict": NOT_REPRODUCED,
            "headline": "argmax W(T) = (1,1), argmax g = (1,2)",
            "statistic": "exact W(T = 2) is largest at (1,1) (1.33333); argmax g = (1,2) "
            "with g* = 0.66667",
        },
        {
            "scope": "tiny |A_j| ≤ j",
            "verdict": REPRODUCED,
            "headline": "largest |A_j|/j = 0.333 (needs ≤ 1)",
            "statistic": "exact A_j = W(T) − T·g ranges over [-0.3333, 0.3333]; "
            "largest |A_j|/j = 0.333",
        },
        supporting(
            "tiny simulated argmax",
            NOT_REPRODUCED,
            "best simulated constant policy (1,1)",
            "best simulated constant policy (1,1) at rate 0.66667 ± 0; argmax g = (1,2)",
        ),
        z0,
    ]
    (row,) = CLAIM_KINDS["theorem1_printed_sign"].evaluate(PRINTED, out["unfavourable"])
    assert (row["verdict"], row["headline"]) == (
        NOT_REPRODUCED,
        "1/2 pairs have A_j < 0 (smallest -0.333)",
    )


def test_simulated_as_exact_and_with_exact_rewards():
    table = pd.DataFrame(
        {
            "horizon": [2, 2],
            "g": [0.5, 0.75],
            "exact_reward": [1.0, 1.25],
            "offset_A": [0.0, -0.25],
            "simulated_reward": [9.0, 9.0],
            "simulated_rate": [9.0, 9.0],
            "z_simulated_vs_exact": [3.0, -3.0],
        }
    )
    out = simulated_as_exact(table)
    assert out["simulated_reward"].tolist() == [1.0, 1.25]  # = exact W(T)
    assert out["simulated_rate"].tolist() == [0.5, 0.625]  # W(T)/T
    assert out["z_simulated_vs_exact"].tolist() == [0.0, 0.0]
    assert table["simulated_reward"].tolist() == [9.0, 9.0]  # the input is left alone
    out = with_exact_rewards(table, [2, 1])  # integer W(T): still a float column
    assert out["exact_reward"].dtype == np.float64
    assert out["offset_A"].tolist() == [1.0, -0.5]  # A = W − T·g = (2 − 1, 1 − 1.5)
    assert table["exact_reward"].tolist() == [1.0, 1.25]


def test_printed_sign_counts_offsets_within_the_claims_tolerance_as_zero():
    """The hand-worked A_j = −1/3 is negative under the config's 1e-9, zero under a tolerance of
    1/2; a claim without one is refused before any evaluation."""
    (row,) = CLAIM_KINDS["theorem1_printed_sign"].evaluate(
        {**PRINTED, "rounding_tolerance": 0.5}, context(SPLIT)
    )
    assert row["verdict"] == REPRODUCED
    paper = context(SPLIT).paper
    with pytest.raises(ValueError, match=r"needs keys \['rounding_tolerance'\]"):
        CLAIM_KINDS["theorem1_printed_sign"].check(
            claim("theorem1_printed_sign", experiments=["tiny"]), paper
        )


def test_printed_sign_fails_on_the_hand_worked_problem():
    (row,) = CLAIM_KINDS["theorem1_printed_sign"].evaluate(PRINTED, context(SPLIT))
    assert row["verdict"] == NOT_REPRODUCED  # A_2 = −1/12 < 0
    assert row["headline"] == "1/2 pairs have A_j < 0 (smallest -0.0833)"
    (row,) = CLAIM_KINDS["theorem1_printed_sign"].evaluate(
        PRINTED, with_rewards(context(SPLIT), [1.0, 4 / 3 + 0.5])
    )
    assert row["verdict"] == REPRODUCED  # A = (0, 1/2): the printed [0, j] holds


def test_printed_sign_row_in_full():
    # A = (0, −1/12): one negative offset of two
    assert CLAIM_KINDS["theorem1_printed_sign"].evaluate(PRINTED, context(SPLIT)) == [
        {
            "scope": "tiny",
            "verdict": NOT_REPRODUCED,
            "headline": "1/2 pairs have A_j < 0 (smallest -0.0833)",
            "statistic": "1/2 pairs have A_j < 0 (smallest -0.08333); Wald on L + 1 gives A_j ∈ "
            "[g_j − ν_k, j·g_j]",
        }
    ]


@pytest.mark.parametrize(
    "offset, verdict, negatives",
    [
        (-1e-9, REPRODUCED, 0),  # at the rounding tolerance: not a negative offset
        (-2e-9, NOT_REPRODUCED, 1),  # beyond it
    ],
)
def test_printed_sign_tolerance(offset, verdict, negatives):
    ctx = derived(
        context(SPLIT), overrides={"theorem1 tiny": lambda t: t.assign(offset_A=[0.0, offset])}
    )
    (row,) = CLAIM_KINDS["theorem1_printed_sign"].evaluate(PRINTED, ctx)
    assert (row["verdict"], row["headline"]) == (
        verdict,
        f"{negatives}/2 pairs have A_j < 0 (smallest {offset:.3g})",
    )


def test_theorem1_tied_decidability_names_both_witnesses():
    # τ ≡ 1: both witnesses give W = (2, 2), the argmax (1,1) is optimal and A = 0
    out = decide(THEOREM1, CLAIM_KINDS["theorem1"], context(TIED))
    why = "tiny argmax: argmax W(T) = (1,1), argmax g = (1,1), (1,2) (2 of 2 sub-checks reproduced)"
    assert out["decidability"] == (
        f"cannot be refuted as configured: favourable witness: "
        f"reproduced ({why}); unfavourable witness: reproduced ({why})"
    )


# what each kind needs besides its experiments
KEYS = {"theorem1": {}, "theorem1_printed_sign": {"rounding_tolerance": 1e-9}}


@pytest.mark.parametrize("kind", ["theorem1", "theorem1_printed_sign"])
def test_constant_policy_claims_are_checked(kind):
    paper = load_paper("farewell")
    check = CLAIM_KINDS[kind].check
    with pytest.raises(ValueError, match=r"needs keys \['experiments'\]"):
        check(claim(kind, **KEYS[kind]), paper)
    with pytest.raises(ValueError, match="unknown experiment 'nope'"):
        check(claim(kind, **KEYS[kind], experiments=["thm1_fig1b", "nope"]), paper)
    with pytest.raises(ValueError, match="experiment 'fig1a' does not run constant_policies"):
        check(claim(kind, **KEYS[kind], experiments=["fig1a"]), paper)
    # as configured: fine
    check(claim(kind, **KEYS[kind], experiments=["thm1_fig1b", "thm1_fig2c"]), paper)


@pytest.mark.parametrize("kind", ["theorem1", "theorem1_printed_sign"])
def test_theorem1_witnesses_reach_both_verdicts(kind):
    out = decide(claim(kind, **KEYS[kind], experiments=["tiny"]), CLAIM_KINDS[kind], context(SPLIT))
    assert (out["can_reproduce"], out["can_refute"]) == (True, True)


@pytest.mark.parametrize("kind", ["theorem1", "theorem1_printed_sign"])
def test_theorem1_with_every_pair_tied_cannot_fail(kind):
    # τ ≡ 1: every W(T) = T·g whatever the order, so no wrong argmax and no offset
    out = decide(claim(kind, **KEYS[kind], experiments=["tiny"]), CLAIM_KINDS[kind], context(TIED))
    assert (out["can_reproduce"], out["can_refute"]) == (True, False)
    assert "cannot be refuted as configured" in out["decidability"]


def test_bound_regime_by_hand():
    # D = 3, τ ≡ d: waits μ^c_j = min(j, d).
    #   d = 1: (1, 1, 1), mean 1 < Σ 1/μ = 3: (WAIT)
    #   d = 2: (1, 2, 2), mean 5/3 < 1 + 1/2 + 1/2 = 2: (WAIT)
    #   d = 3: (1, 2, 3), mean 2 > 11/6: (FJ). One switch.
    rows = CLAIM_KINDS["bound_regime"].evaluate(
        claim("bound_regime", max_delay=3, experiments=[]), context(SPLIT)
    )
    assert [r["verdict"] for r in rows] == [REPRODUCED] * 3
    assert rows[2]["headline"] == "the smaller term switches 1 time(s): WAIT WAIT FJ"
    # D = 2, τ ≡ 2: (1, 2), mean 3/2 = Σ 1/μ = 3/2: a tie, so (WAIT) is not the smaller one
    rows = CLAIM_KINDS["bound_regime"].evaluate(
        claim("bound_regime", max_delay=2, experiments=[]), context(SPLIT)
    )
    assert rows[2]["headline"] == "the smaller term switches 1 time(s): WAIT FJ"


def test_bound_regime_fails_if_the_regimes_are_the_wrong_way_round():
    swapped = derived(
        context(SPLIT),
        overrides={
            "bound_regime terms": lambda terms: [
                {"mean_cost": o["sum_inverse_cost"], "sum_inverse_cost": o["mean_cost"]}
                for o in terms
            ]
        },
    )
    rows = CLAIM_KINDS["bound_regime"].evaluate(
        claim("bound_regime", max_delay=3, experiments=[]), swapped
    )
    assert [r["verdict"] for r in rows] == [NOT_REPRODUCED, NOT_REPRODUCED, REPRODUCED]
    out = decide(
        claim("bound_regime", max_delay=3, experiments=[]),
        CLAIM_KINDS["bound_regime"],
        context(SPLIT),
    )
    assert (out["can_reproduce"], out["can_refute"]) == (True, True)


def test_every_claim_of_the_config_is_well_formed():
    paper = load_paper("farewell")
    for c in paper["claims"]:
        if c["kind"] in CLAIM_KINDS:
            CLAIM_KINDS[c["kind"]].check(c, paper)
    assert {c["id"]: c["scope"] for c in paper["claims"]}["E1"] == "erratum"
    assert np.isclose(T * 2 / 3 - 1 / 12, 5 / 4)  # the hand-worked W(2) of j = 2
