"""The run-judged claim kinds of paper 004 (delaydep/claims/low_policy.py: stops_exploring,
theorem3, switch_bound; claims/ranking.py: theorem4) on tiny hand-built traces and tables: every
verdict each kind can give, the whole row a reader sees, and the witnesses of decidability. Expected
numbers come from the paper's formulas (Sect. 6: T_s = T^(1−2^−s), C_s = sqrt(k/(2T_s)·ln(2kS/δ)),
the Theorem 3 bound k²S + √T + 4(S−1)·sqrt(kT·ln(2kS/δ))) and from exact binomial tails worked by
hand.

The instance throughout: k = 2, μ = (1, 1/2), f(τ) = 1/2 for every τ ≥ 1 (eq. 1:
μ_i(τ) = μ_i(1 − f(τ)) while τ ≤ d_i), and π_low with δ = 1/2, so 1 − δ = 50% and five runs out
of five give the exact binomial p = 0.5⁵ = 1/32 < α = 0.05. By eq. 3, g(1) = μ_1(1),
g(2) = (μ_1(2) + μ_2(2))/2:
  d = (1, 1): g(1) = 1/2, g(2) = (1 + 1/2)/2 = 3/4, gap Δ = 1/4, r* = 2;
  d = (1, 2): g(1) = 1/2, g(2) = (1 + 1/4)/2 = 5/8, Δ = 1/8;
  d = (2, 1): g(1) = 1/2, g(2) = (1/2 + 1/2)/2 = 1/2, Δ = 0 (tied).
"""

import math

import numpy as np
import pandas as pd
import pytest

from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.decidability import decide
from timebandits.core.verdicts.vocabulary import INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED
from timebandits.delaydep.claims import CLAIM_KINDS, ranking
from timebandits.delaydep.claims.witnesses import with_metrics
from timebandits.delaydep.theory import theorem3_bound_paper

CONFIG = {
    "base_seed": 7,
    "claims": {"alpha": 0.05, "fragile_share": 0.1, "run_factors": [2, 4, 8, 16]},
}
ENVIRONMENT = {
    "means": ["1", "1/2"],
    "f": {"kind": "table", "values": ["1/2"]},
    "switch_costs": [1],
}
LOW = {"algorithm": "pi_low"}

# T = 10^4, k = 2: T_s = 100, 1000, 3162.3, 5623.4, 7498.9; Σ(k + T_s) = 102, 1104, 4268.3,
# 9893.7, 17394.6, first ≥ T at s = 5, so S = 5 and ln(2kS/δ) = ln(2·2·5/0.5) = ln 40.
# Theorem 3: 2²·5 + √10⁴ + 4·4·sqrt(2·10⁴·ln 40) = 120 + 16·271.62 = 4465.9.
BOUND_1E4 = 20 + 100 + 16 * math.sqrt(2 * 1e4 * math.log(40))


def claim(**fields):
    return {"id": "t", "tested_as": "", "where": "", **fields}


def trace(times, **columns) -> pd.DataFrame:
    """One row per (repetition, checkpoint); each column a list over runs of a value per
    checkpoint (or one value for all of them)."""
    runs = len(next(iter(columns.values())))
    data = {
        "repetition": np.repeat(np.arange(runs), len(times)),
        "t": np.tile(np.asarray(times, dtype=float), runs),
    }
    for name, per_run in columns.items():
        data[name] = np.concatenate(
            [np.broadcast_to(np.asarray(v, dtype=float), (len(times),)) for v in per_run]
        )
    return pd.DataFrame(data)


def delays(*pairs) -> dict:
    return {"delay_1": [d[0] for d in pairs], "delay_2": [d[1] for d in pairs]}


def context(experiments: dict) -> ClaimContext:
    """``{name: (delays as configured, trace)}``: π_low and π_ucb both read the trace."""
    paper = {
        "paper": {"key": "delaydep"},
        "algorithms": {
            "pi_low": {"policy": "low", "label": "π_low", "params": {"delta": 0.5}},
            "pi_ucb": {"policy": "ucb", "label": "π_ucb"},
        },
        "experiments": {
            name: {
                "environment": {**ENVIRONMENT, "delays": configured},
                "algorithms": ["pi_low", "pi_ucb"],
            }
            for name, (configured, _) in experiments.items()
        },
    }
    return ClaimContext(paper=paper, config=CONFIG, trace_of=lambda e, a: experiments[e][1].copy())


def evaluate(kind, ctx, **fields):
    return CLAIM_KINDS[kind].evaluate(claim(kind=kind, **fields), ctx)


# ---- check -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"algorithm": "pi_low"}, r"needs keys \['experiments'\]"),
        ({"experiments": ["main"]}, r"needs keys \['algorithm'\]"),
        ({"experiments": ["nope"], "algorithm": "pi_low"}, "unknown experiment 'nope'"),
        (
            {"experiments": ["main"], "algorithm": "pi_ucb"},
            "experiment 'main' does not run 'pi_ucb' as pi_low",
        ),
    ],
)
@pytest.mark.parametrize("kind", ["stops_exploring", "theorem3", "switch_bound"])
def test_low_claims_name_what_is_wrong(kind, fields, message):
    paper = context({"main": ([1, 1], trace([1], stage=[1]))}).paper
    with pytest.raises(ValueError, match=message):
        CLAIM_KINDS[kind].check(claim(kind=kind, **fields), paper)


@pytest.mark.parametrize("missing", ["delta", "runs", "instances"])
def test_theorem4_check_names_a_missing_key(missing):
    fields = {"delta": 0.1, "runs": 2, "instances": [["1", "0"]]}
    del fields[missing]
    with pytest.raises(ValueError, match=rf"needs keys \['{missing}'\]"):
        CLAIM_KINDS["theorem4"].check(claim(kind="theorem4", **fields), {})


# ---- stops_exploring -------------------------------------------------------------------------

T6 = (1.0, 1e3, 1e6)  # checkpoints; T = 10^6: T_s = 10^(6(1 − 2^−s)), S = 5 (Σ(2 + T_s) = 1002,
# 32626.8, 210456.7, 632155.2, 1281538.8), C_s = sqrt(ln 40 / T_s): 4·C_1 = 0.243 < 1/4 < 5·C_1
# = 0.304, 4·C_2 = 0.043 < 1/8 < 4·C_1.


def low_run(pair, stage, active):
    """A run with delays ``pair`` that ends at ``stage`` with ``active`` policies (stage 1, both
    active, at the earlier checkpoints)."""
    return pair, [1, 1, stage], [2, 2, active]


def stops_trace(*runs):
    pairs, stages, actives = zip(*runs)
    return trace(T6, stage=list(stages), n_active=list(actives), **delays(*pairs))


def test_stops_exploring_rows():
    """Three experiments: none judged, five judged and eliminating, one judged and not."""
    judged = stops_trace(
        low_run((1, 1), 2, 1),  # Δ = 1/4 > 4·C_1 (completed stage 1): judged
        low_run((1, 2), 3, 1),  # Δ = 1/8 > 4·C_2: judged
        low_run((1, 2), 5, 1),  # Δ = 1/8 > 4·C_4: judged
        low_run((2, 1), 5, 1),  # Δ = 0: never judged (single, but not counted as judged)
        low_run((1, 1), 1, 2),  # no stage completed: C = ∞, not judged
        low_run((1, 1), 5, 1),  # judged
        low_run((1, 1), 4, 1),
    )  # judged
    ctx = context(
        {
            "none": ([2, 1], stops_trace(low_run((2, 1), 5, 1), low_run((2, 1), 5, 2))),
            "judged": ({"uniform": [1, 2]}, judged),
            "one": ({"uniform": [1, 2]}, stops_trace(low_run((1, 1), 5, 2), low_run((2, 1), 5, 1))),
        }
    )
    rows = evaluate("stops_exploring", ctx, experiments=["none", "judged", "one"], **LOW)
    counts = (
        "{} runs end with |A_s| = 1 at T = 1e+06; the gap exceeds 4·C_s of the last "
        "completed stage in {} runs, of which {} end with one policy"
    )
    assert rows == [
        {
            "scope": "none",
            "verdict": INCONCLUSIVE,
            "headline": "no run's gap exceeds 4·C_s at this horizon",
            "statistic": counts.format("1/2", 0, 0)
            + ": the horizon guarantees elimination in no run",
        },
        # 5 of 5 judged runs single: P(X ≥ 5 | p = 1/2) = 1/32 = 0.031 < α
        {
            "scope": "judged",
            "verdict": REPRODUCED,
            "headline": "5/5 runs whose gap allows it end with one policy (needs ≥ 50%)",
            "statistic": counts.format("6/7", 5, 5) + "; binomial p = 0.031 against 50%",
            "p_claimed": pytest.approx(1 / 32),
            "p_opposite": pytest.approx(1.0),
        },
        # 0 of 1: P(X ≥ 0) = 1, P(X ≤ 0) = 1/2: neither below α
        {
            "scope": "one",
            "verdict": INCONCLUSIVE,
            "headline": "0/1 runs whose gap allows it end with one policy (needs ≥ 50%)",
            "statistic": counts.format("1/2", 1, 0) + "; binomial p = 1 against 50%",
            "p_claimed": pytest.approx(1.0),
            "p_opposite": pytest.approx(0.5),
        },
    ]


def test_stops_exploring_refuted_when_judged_runs_keep_both_policies():
    runs = [low_run((1, 1), 5, 2)] * 5  # all judged, none single: P(X ≤ 0 | 1/2) = 1/32
    (row,) = evaluate(
        "stops_exploring", context({"e": ([1, 1], stops_trace(*runs))}), experiments=["e"], **LOW
    )
    assert (row["verdict"], row["p_opposite"]) == (NOT_REPRODUCED, pytest.approx(1 / 32))
    assert row["headline"] == "0/5 runs whose gap allows it end with one policy (needs ≥ 50%)"


def test_stops_exploring_witnesses():
    """Before any run (stage 1, delays 0 in the trace): the witnesses complete every stage but
    the last (S = 5) on the configured delays (1, 1), Δ = 1/4 > 4·C_4, so all five runs are
    judged; one policy left in each, or both."""
    base = trace(T6, stage=[1] * 5, n_active=[1] * 5, **delays(*[(0, 0)] * 5))
    ctx = context({"e": ([1, 1], base), "other": ([1, 1], base)})
    low = claim(kind="stops_exploring", experiments=["e"], **LOW)
    witnesses = CLAIM_KINDS["stops_exploring"].witnesses(low, ctx)
    assert sorted(witnesses) == ["favourable", "unfavourable"]
    good = CLAIM_KINDS["stops_exploring"].evaluate(low, witnesses["favourable"])
    bad = CLAIM_KINDS["stops_exploring"].evaluate(low, witnesses["unfavourable"])
    assert [good[0]["verdict"], bad[0]["verdict"]] == [REPRODUCED, NOT_REPRODUCED]
    assert good[0]["headline"].startswith("5/5 runs whose gap allows it")
    assert bad[0]["statistic"].startswith(
        "0/5 runs end with |A_s| = 1 at T = 1e+06; the gap "
        "exceeds 4·C_s of the last completed stage in 5 runs"
    )
    # only the claim's algorithm in the claim's experiments is replaced
    unfavourable = witnesses["unfavourable"]
    assert (unfavourable.trace("other", "pi_low")["n_active"] == 1).all()
    assert (unfavourable.trace("e", "pi_ucb")["n_active"] == 1).all()
    assert (unfavourable.trace("e", "pi_low")["n_active"] == 2).all()
    assert decide(low, CLAIM_KINDS["stops_exploring"], ctx)["can_refute"]


def test_with_metrics_replaces_only_the_claims_traces():
    base = trace((1.0, 2.0), switches=[3, 4], **delays((1, 1), (1, 1)))
    ctx = context({"e": ([1, 1], base), "f": ([1, 1], base)})
    witness = with_metrics(
        ctx, claim(experiments=["e"], **LOW), {"switches": lambda e, t: t["t"] * 0}
    )
    assert witness.trace("e", "pi_low")["switches"].tolist() == [0, 0, 0, 0]
    assert witness.trace("f", "pi_low")["switches"].tolist() == [3, 3, 4, 4]
    assert witness.trace("e", "pi_ucb")["switches"].tolist() == [3, 3, 4, 4]


# ---- theorem3 --------------------------------------------------------------------------------

T4 = (1000.0, 9000.0, 10000.0)
GHOST = [750.0, 6750.0, 7500.0]  # G_t = 3t/4 (d = (1, 1): π_2 earns 1 + 1/2 every two rounds)


def theorem3_trace(regrets, hoeffding, optimum, ghost=GHOST):
    return trace(
        T4,
        ghost=[ghost] * len(regrets),
        expected=[[g - r for g, r in zip(ghost, run)] for run in regrets],
        hoeffding_ok=hoeffding,
        optimum_active=optimum,
        **delays(*[(1, 1)] * len(regrets)),
    )


def support(scope, flags, p_claimed, p_opposite, verdict=INCONCLUSIVE):
    return {
        "scope": scope,
        "role": "supports",
        "verdict": verdict,
        "headline": f"{flags} runs",
        "statistic": f"{scope.split(' ', 1)[1]} in {flags} runs; binomial p = {p_claimed:.2g} "
        f"against 50%",
        "p_claimed": pytest.approx(p_claimed),
        "p_opposite": pytest.approx(p_opposite),
    }


def test_theorem3_rows():
    bound = theorem3_bound_paper(1e4, 2, 0.5)  # the code's float, for the exact ties below
    assert bound == pytest.approx(BOUND_1E4)
    main = theorem3_trace(
        [
            [0, 0, 0],
            [100, 900, 1000],
            [100, 2000, bound],  # R(T) = B exactly: within (≤)
            [200, 4800, 5000],  # above B at T
            [100, bound + 100, bound - 100],
        ],  # within at T, above B at t = 9000
        hoeffding=[[0, 0, 1]] * 4 + [[0, 0, 0]],
        optimum=[1, 1, 1, [1, 0, 1], 1],
    )
    # the trivial bound G_T(ghost) set at B exactly: vacuous (≥)
    vacuous = theorem3_trace([[0, 0, 0]] * 2, [1, 1], [1, 1], ghost=[750.0, 6750.0, bound])
    ctx = context({"main": ([1, 1], main), "vacuous": ([1, 1], vacuous)})
    rows = evaluate("theorem3", ctx, experiments=["main", "vacuous"], **LOW)
    mean = (0 + 1000 + bound + 5000 + bound - 100) / 5
    assert rows == [
        # 4/5 within at T: P(X ≥ 4 | 1/2) = 6/32 = 0.19, P(X ≤ 4) = 31/32
        {
            "scope": "main",
            "verdict": INCONCLUSIVE,
            "headline": "4/5 runs within the bound at T (needs ≥ 50%)",
            "statistic": f"T = 10000: bound {bound:.4g} vs trivial G_T(ghost) 7500; mean R(T) "
            f"{mean:.4g}, max 5000; runs within the bound at T 4/5; binomial p = 0.19",
            "p_claimed": pytest.approx(6 / 32),
            "p_opposite": pytest.approx(31 / 32),
            "max_ratio": pytest.approx(5000 / bound),
        },
        # max over t ≤ B in runs 0, 1, 2 (run 2 at B exactly): P(X ≥ 3) = 16/32, P(X ≤ 3) = 26/32
        support("main bound at every t", "3/5", 16 / 32, 26 / 32),
        support("main event (5)", "4/5", 6 / 32, 31 / 32),
        support("main r* never eliminated", "4/5", 6 / 32, 31 / 32),
        {
            "scope": "vacuous",
            "verdict": INCONCLUSIVE,
            "role": "supports",
            "headline": "bound 4.47e+03 vacuous (≥ G_T(ghost) = 4.47e+03)",
            "statistic": f"T = 10000: bound {bound:.4g} vs trivial G_T(ghost) {bound:.4g}; "
            "mean R(T) 0, max 0; runs within the bound at T 2/2; the bound is vacuous at this "
            "horizon, so no run can support or refute it: not deciding",
        },
        # 2/2: P(X ≥ 2) = 1/4, P(X ≤ 2) = 1
        support("vacuous bound at every t", "2/2", 0.25, 1.0),
        support("vacuous event (5)", "2/2", 0.25, 1.0),
        support("vacuous r* never eliminated", "2/2", 0.25, 1.0),
    ]


def test_theorem3_witnesses_reach_both_verdicts():
    """G_t(ghost) is rebuilt exactly from the instance (3t/4, above B = 4466 at T = 10^4): regret
    0 in every run (5/5, p = 1/32) or G_t itself (0/5 within, P(X ≤ 0) = 1/32), the proof's
    events in every run or in none."""
    base = trace(
        T4,
        ghost=[0] * 5,
        expected=[0] * 5,
        hoeffding_ok=[0.5] * 5,
        optimum_active=[0.5] * 5,
        **delays(*[(0, 0)] * 5),
    )
    ctx = context({"e": ([1, 1], base)})
    low = claim(kind="theorem3", experiments=["e"], **LOW)
    witnesses = CLAIM_KINDS["theorem3"].witnesses(low, ctx)
    assert sorted(witnesses) == ["favourable", "unfavourable"]
    good = CLAIM_KINDS["theorem3"].evaluate(low, witnesses["favourable"])
    bad = CLAIM_KINDS["theorem3"].evaluate(low, witnesses["unfavourable"])
    assert witnesses["favourable"].trace("e", "pi_low")["ghost"].tolist()[:3] == GHOST
    assert [r["verdict"] for r in good] == [REPRODUCED] * 4
    assert [r["verdict"] for r in bad] == [NOT_REPRODUCED] * 4
    assert [r["headline"] for r in good[1:]] == ["5/5 runs"] * 3
    assert [r["headline"] for r in bad[1:]] == ["0/5 runs"] * 3
    assert "mean R(T) 7500, max 7500" in bad[0]["statistic"]
    assert decide(low, CLAIM_KINDS["theorem3"], ctx)["can_reproduce"]


# ---- switch_bound ----------------------------------------------------------------------------


def test_switch_bound_rows_and_witnesses():
    """T = 10^4, k = 2, S = 5: at most kS = 10 switches in every run."""
    at_bound = trace(T4, switches=[[4, 9, 10], [1, 3, 3], [0, 0, 0]])  # 10 = kS: within
    over = trace(T4, switches=[[4, 10, 11], [1, 4, 4], [0, 0, 0]])  # 11 > kS at T only
    ctx = context({"at_bound": ([1, 1], at_bound), "over": ([1, 1], over)})
    rows = evaluate("switch_bound", ctx, experiments=["at_bound", "over"], **LOW)
    assert rows == [
        {
            "scope": "at_bound",
            "verdict": REPRODUCED,
            "headline": "max switches 10 ≤ kS = 10 in 3/3 runs",
            "statistic": "T = 10000: switches mean 4.33, max 10 ≤ kS = 10 in 3/3 runs",
        },  # 13/3
        {
            "scope": "over",
            "verdict": NOT_REPRODUCED,
            "headline": "max switches 11 ≤ kS = 10 in 2/3 runs",
            "statistic": "T = 10000: switches mean 5, max 11 ≤ kS = 10 in 2/3 runs",
        },  # 15/3
    ]
    low = claim(kind="switch_bound", experiments=["over"], **LOW)
    witnesses = CLAIM_KINDS["switch_bound"].witnesses(low, ctx)
    assert sorted(witnesses) == ["favourable", "unfavourable"]
    (good,) = CLAIM_KINDS["switch_bound"].evaluate(low, witnesses["favourable"])
    (bad,) = CLAIM_KINDS["switch_bound"].evaluate(low, witnesses["unfavourable"])
    assert (good["verdict"], good["headline"]) == (
        REPRODUCED,
        "max switches 0 ≤ kS = 10 in 3/3 runs",
    )
    # a switch at every pull after the first: T − 1 = 9999
    assert (bad["verdict"], bad["headline"]) == (
        NOT_REPRODUCED,
        "max switches 9999 ≤ kS = 10 in 0/3 runs",
    )


# ---- theorem4 --------------------------------------------------------------------------------


def ranker_row(instance, means, fraction, within, max_pulls):
    return {
        "instance": instance,
        "means": means,
        "runs": 5,
        "fraction_correct": fraction,
        "mean_pulls": 32.4,
        "max_pulls": max_pulls,
        "pull_bound": 178,
        "max_within_bound": within,
        "order_term": math.log(2),
    }


@pytest.fixture
def ranker_stub(monkeypatch):
    """BanditRanker's table replaced by a hand-built one (the simulation is tested elsewhere)."""
    table = pd.DataFrame(
        [
            ranker_row("stationary 0", (2 / 3, 1 / 3), 1.0, True, 40),
            ranker_row("stationary 1", (0.9, 0.1), 1.0, False, 200),
            ranker_row("stationary 2", (0.7, 0.5), 0.6, True, 40),
            ranker_row("b2dep", (1.0, 0.0), 0.0, True, 40),
        ]
    )
    monkeypatch.setattr(ranking, "ranker_table", lambda claim, config, key: table)
    return claim(kind="theorem4", delta=0.5, runs=5, instances=[])


def theorem4_row(scope, correct, p, verdict, pulls, yes, p_claimed, p_opposite):
    return {
        "scope": scope,
        "verdict": verdict,
        "headline": f"correct order in {correct}/5 runs (needs ≥ 50%); max pulls "
        f"{pulls} ≤ bound 178: {yes}",
        "statistic": f"correct order in {correct}/5 runs, binomial p = {p} against 50%; pulls "
        f"mean 32.4, max {pulls} vs bound 178 (order term Σ Δ⁻² ln(1/(δΔ)) = 0.6931)",
        "p_claimed": pytest.approx(p_claimed),
        "p_opposite": pytest.approx(p_opposite),
    }


def test_theorem4_rows(ranker_stub):
    rows = CLAIM_KINDS["theorem4"].evaluate(ranker_stub, context({}))
    assert rows == [
        # 5/5: P(X ≥ 5 | 1/2) = 1/32
        theorem4_row(
            "stationary 0 μ = (0.667, 0.333)", 5, "0.031", REPRODUCED, 40, "yes", 1 / 32, 1.0
        ),
        # every run correct, but the most pulls exceed the proof's count: refuted, p_opposite 0
        theorem4_row(
            "stationary 1 μ = (0.9, 0.1)", 5, "0.031", NOT_REPRODUCED, 200, "no", 1 / 32, 0.0
        ),
        # 3/5: P(X ≥ 3) = 16/32, P(X ≤ 3) = 26/32
        theorem4_row(
            "stationary 2 μ = (0.7, 0.5)", 3, "0.5", INCONCLUSIVE, 40, "yes", 0.5, 26 / 32
        ),
        # 0/5: P(X ≤ 0) = 1/32
        theorem4_row("b2dep μ = (1.0, 0.0)", 0, "1", NOT_REPRODUCED, 40, "yes", 1.0, 1 / 32),
    ]


def test_theorem4_witnesses(ranker_stub):
    ctx = context({})
    witnesses = CLAIM_KINDS["theorem4"].witnesses(ranker_stub, ctx)
    assert sorted(witnesses) == ["favourable", "unfavourable"]
    good = CLAIM_KINDS["theorem4"].evaluate(ranker_stub, witnesses["favourable"])
    bad = CLAIM_KINDS["theorem4"].evaluate(ranker_stub, witnesses["unfavourable"])
    assert [r["verdict"] for r in good] == [REPRODUCED] * 4
    assert {r["headline"].split(" (")[0] for r in good} == {"correct order in 5/5 runs"}
    assert [r["verdict"] for r in bad] == [NOT_REPRODUCED] * 4
    assert {r["headline"].split(" (")[0] for r in bad} == {"correct order in 0/5 runs"}
    assert all(r["headline"].endswith(": no") for r in bad)
    assert decide(ranker_stub, CLAIM_KINDS["theorem4"], ctx) == {
        "can_reproduce": True,
        "can_refute": True,
        "decidability": "",
    }
