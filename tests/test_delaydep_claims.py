"""The paper-specific claim kinds and the bound table of paper 004 on real (small) traces, read
back through ClaimContext as the claims script does, and the paper config as the workflow
loads it."""

import copy
from fractions import Fraction

import pandas as pd
import pytest

from timebandits.core.build.preflight import load_paper
from timebandits.core.config import resolve_experiment
from timebandits.core.sim.checkpoints import checkpoint_grid
from timebandits.core.sim.seeding import environment_seed
from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.vocabulary import INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED
from timebandits.delaydep.analysis import bound_table, run_instances
from timebandits.delaydep.claims import CLAIM_KINDS
from timebandits.delaydep.simulation import draw_delays, simulate_repetition
from timebandits.delaydep.theory import switch_bound, theorem3_bound_paper

CONFIG = {
    "base_seed": 7,
    "claims": {
        "alpha": 0.05,
        "bootstrap_samples": 200,
        "fragile_share": 0.1,
        "run_factors": [2, 4, 8, 16],
    },
    "scale": "small",
    "scales": {"small": {"max_horizon": 3000, "max_repetitions": 4, "checkpoints": 30}},
}
EXPERIMENTS = ("fig2", "fig3")


@pytest.fixture(scope="module")
def paper():
    return load_paper("delaydep")


@pytest.fixture(scope="module")
def context(paper):
    """Traces of fig2 and fig3 (T = 3000, 4 runs) for every algorithm, as the workflow writes."""
    frames = {}
    for exp_id in EXPERIMENTS:
        exp = resolve_experiment(paper, exp_id, CONFIG)
        checkpoints = checkpoint_grid(exp["horizon"], exp["checkpoints"])
        for alg in exp["algorithms"]:
            frames_of_runs = []
            for rep in range(exp["repetitions"]):
                seed = environment_seed(CONFIG["base_seed"], "delaydep", exp_id, rep)
                metrics = simulate_repetition(
                    exp, paper["algorithms"][alg], seed, None, checkpoints
                )
                frames_of_runs.append(
                    pd.DataFrame({"repetition": rep, "t": checkpoints, **metrics})
                )
            frames[(exp_id, alg)] = pd.concat(frames_of_runs, ignore_index=True)
    small = copy.deepcopy(paper)
    small["experiments"] = {e: {**small["experiments"][e], "horizon": 3000} for e in EXPERIMENTS}
    return ClaimContext(paper=small, config=CONFIG, trace_of=lambda e, a: frames[(e, a)])


def claim(**fields):
    return {"id": "t", "tested_as": "", "where": "", **fields}


def test_every_claim_of_the_config_is_well_formed(paper):
    for c in paper["claims"]:
        if c["kind"] in CLAIM_KINDS:
            CLAIM_KINDS[c["kind"]].check(c, paper)


def test_run_instances_recover_the_simulated_delays(paper, context):
    trace = context.trace("fig2", "pi_low")
    problems = run_instances(paper, "fig2", trace)
    assert sorted(problems) == [0, 1, 2, 3]
    for rep, problem in problems.items():
        seed = environment_seed(CONFIG["base_seed"], "delaydep", "fig2", rep)
        assert problem.delays.tolist() == draw_delays(
            paper["experiments"]["fig2"]["environment"], seed
        )
    assert len({tuple(p.delays) for p in problems.values()}) > 1  # drawn per run


def test_bound_table_values(context):
    table = bound_table(context.paper, context.trace)
    fig3 = table[(table["experiment"] == "fig3") & (table["algorithm"] == "pi_low")]
    assert set(fig3["bound"]) == {"theorem3", "theorem3-tight", "theorem3-cost1", "switches"}
    paper_bound = fig3[fig3["bound"] == "theorem3"]["bound_value"].unique()
    assert paper_bound.tolist() == [pytest.approx(theorem3_bound_paper(3000, 2, 0.1))]
    cost = fig3[fig3["bound"] == "theorem3-cost1"]["bound_value"].unique()
    assert cost.tolist() == [
        pytest.approx(theorem3_bound_paper(3000, 2, 0.1) + switch_bound(3000, 2))
    ]
    # the empirical regret without switching cost is G(ghost) − Σ expected
    trace = context.trace("fig3", "pi_low")
    final = trace[trace["t"] == 3000]
    row = fig3[(fig3["bound"] == "theorem3") & (fig3["t"] == 3000)].iloc[0]
    assert row["mean"] == pytest.approx((final["ghost"] - final["expected"]).mean())
    assert set(table["algorithm"]) == {"pi_low"}  # Theorem 3 is about π_low only


def test_theorem3_and_switch_bound_claims(context):
    rows = CLAIM_KINDS["theorem3"].evaluate(
        claim(experiments=["fig2", "fig3"], algorithm="pi_low"), context
    )
    # At T = 3000 the bound (k²S + √T + ...) exceeds G_T(ghost) <= T: vacuous, so no run can
    # support it, however many are within it. That follows from T, k and δ alone: the row is
    # shown but does not decide, and the claim has nothing to decide on.
    assert all(r.get("role") == "supports" for r in rows)
    vacuous = [r for r in rows if "vacuous" in r["headline"]]
    assert [r["verdict"] for r in vacuous] == [INCONCLUSIVE, INCONCLUSIVE]
    assert "runs within the bound at T 4/4" in vacuous[0]["statistic"]
    # the other supporting rows: the bound at every t, event (5), r* kept, per experiment; 4
    # runs cannot show a frequency >= 90% (0.9^4 = 0.66), so none is reproduced
    others = [r for r in rows if "vacuous" not in r["headline"]]
    assert len(others) == 6
    assert {r["verdict"] for r in others} <= {INCONCLUSIVE, NOT_REPRODUCED}
    assert bound_is_informative_later()
    rows = CLAIM_KINDS["switch_bound"].evaluate(
        claim(experiments=["fig3"], algorithm="pi_low"), context
    )
    assert rows[0]["verdict"] == REPRODUCED
    assert f"kS = {switch_bound(3000, 2)}" in rows[0]["statistic"]


def bound_is_informative_later():
    """The same bound is below T (the trivial bound's order) from some horizon on: the vacuous
    verdict above is a property of T = 3000, not of the check (Fig. 2, k = 7, δ = 0.1)."""
    return theorem3_bound_paper(10**12, 7, 0.1) < 10**12


def test_stops_exploring_judges_only_runs_whose_gap_allows_it(context):
    """Fig. 3's policies are exactly tied (gap 0), so no run's gap exceeds 4·C_s: π_low cannot be
    required to eliminate one, and the verdict is inconclusive although every run ends with both
    policies active."""
    (row,) = CLAIM_KINDS["stops_exploring"].evaluate(
        claim(experiments=["fig3"], algorithm="pi_low"), context
    )
    assert (context.final("fig3", "pi_low", "n_active") == 2).all()
    assert row["verdict"] == INCONCLUSIVE
    assert "0/4 runs end with |A_s| = 1" in row["statistic"]
    assert "in 0 runs" in row["statistic"]


def test_stage_count_claim(context):
    rows = CLAIM_KINDS["stage_count"].evaluate(claim(k=7, horizons=[1e3, 1e20]), context)
    assert [r["verdict"] for r in rows] == [REPRODUCED, REPRODUCED]
    # T = 10^20: log2 log2 T = log2(66.4) = 6.05, so the closed form is 8
    assert "⌈log2 log2 T⌉ + 1 = 8" in rows[1]["headline"]


def test_fact1_claim_on_fig3(context):
    rows = CLAIM_KINDS["fact1"].evaluate(
        claim(id="C13", kind="fact1", instances=20, k_max=4, d_max=3, experiment="fig3"), context
    )
    assert [r["verdict"] for r in rows] == [REPRODUCED, REPRODUCED, REPRODUCED]
    # the random instances support the Fact; Fig. 3's instance, where the paper uses it, decides
    assert [r.get("role", "decides") for r in rows] == ["supports", "supports", "decides"]
    assert rows[1]["evidence"] == "statistical test"
    assert "139/180" in rows[2]["statistic"]  # (3/4 + 7/10 + 13/15)/3
    # 139/180 − 7/10 = 13/180 = 0.0722
    assert "alternation − g(1) = 0.0722 > 0" in rows[2]["headline"]


def test_errata_verdicts(context):
    cases = {
        "e1": {},
        "e2": {"epsilons": ["1/10"]},
        "e3": {"horizons": [1e3, 1e40], "k": 7, "delta": 0.1},
    }
    for which, fields in cases.items():
        rows = CLAIM_KINDS["erratum"].evaluate(claim(erratum=which, **fields), context)
        assert {r["verdict"] for r in rows} == {NOT_REPRODUCED}, which
    assert (
        "→ 1/(3/2 − ε) = 0.7143, printed ≤ 2/3"
        in CLAIM_KINDS["erratum"].evaluate(claim(erratum="e2", epsilons=["1/10"]), context)[0][
            "statistic"
        ]
    )  # 1/(3/2 − 1/10) = 5/7
    # E3's ratio must grow by half over the horizons to refute the statement, and not grow at all
    # to support it; over one decade it grows a little, so no verdict
    rows = CLAIM_KINDS["erratum"].evaluate(
        claim(erratum="e3", horizons=[1e5, 1e6], k=7, delta=0.1), context
    )
    assert {r["verdict"] for r in rows} == {INCONCLUSIVE}
    assert rows[0]["ratio"] < rows[1]["ratio"] < 1.5 * rows[0]["ratio"]


def test_erratum_and_ranker_claims_name_missing_parameters(paper):
    with pytest.raises(ValueError, match="epsilons"):
        CLAIM_KINDS["erratum"].check(claim(kind="erratum", erratum="e2"), paper)
    with pytest.raises(ValueError, match="d0"):
        CLAIM_KINDS["theorem4"].check(
            claim(
                kind="theorem4",
                delta=0.1,
                runs=2,
                instances=[],
                b2dep={"means": ["1"], "delays": [1], "f": {"kind": "table", "values": ["1"]}},
            ),
            paper,
        )


def test_theorem2_claim_reports_the_counterexample(context):
    rows = CLAIM_KINDS["theorem2"].evaluate(
        claim(
            id="C11", kind="theorem2", instances=50, k_max=4, d_max=3, proxy_experiments=["fig2"]
        ),
        context,
    )
    assert rows[1]["verdict"] == NOT_REPRODUCED  # the exact counterexample
    assert rows[2]["verdict"] in (REPRODUCED, INCONCLUSIVE)  # a proxy can only certify
    assert "/4" in rows[2]["statistic"]


def test_a_claims_random_instances_are_drawn_once_and_shared_by_instances_of():
    """The random-instance table is memoised by what names its seed (base seed, paper, claim):
    asking again, or from a claim that reads another's instances (``instances_of``), reuses it.
    A SeedSequence key (identity-hashed) missed every time and recomputed the table."""
    from timebandits.delaydep.random_instance_checks import _random_table, random_instance_table

    claim = {"id": "Cx", "kind": "fact1", "instances": 5, "k_max": 3, "d_max": 2}
    config = {"base_seed": 11}
    _random_table.cache_clear()
    first = random_instance_table(claim, config, "delaydep")
    again = random_instance_table({**claim}, {**config}, "delaydep")
    shared = random_instance_table(
        {**claim, "id": "E", "kind": "fact1_printed", "instances_of": "Cx"}, config, "delaydep"
    )
    assert again is first and shared is first
    assert _random_table.cache_info().misses == 1
    other = random_instance_table({**claim, "id": "Cy"}, config, "delaydep")  # its own seed
    assert other is not first and _random_table.cache_info().misses == 2


# ---- the claims' instance tables on hand-built tables (no simulation) -------------------------


def fact1_table(identity, nonnegative, tied, difference, simulated, instances):
    return pd.DataFrame(
        {
            "instance": instances,
            "identity_holds": identity,
            "nonnegative": nonnegative,
            "tied": tied,
            "difference": difference,
            "simulated_matches": simulated,
        }
    )


def fact1_expected(verdicts, scope, valid, tied, strict, simulated):
    return [
        {
            "scope": scope,
            "evidence": "exact computation",
            "role": "supports",
            "verdict": verdicts[0],
            "headline": f"identity and A ≥ W exact on {valid} pairs",
            "statistic": (
                "alternation − (m g(m) + n g(n))/(m+n) = [μ_(m+1→n)(m+n) − "
                f"μ_(m+1→n)(n)]/(m+n) ≥ 0 exactly on {valid}; tied pairs: {tied}, "
                f"alternation strictly higher on {strict} (equality when every d_j < n "
                "for j in m+1..n)"
            ),
        },
        {
            "scope": f"{scope}: simulation",
            "evidence": "statistical test",
            "role": "supports",
            "verdict": verdicts[1],
            "headline": f"simulated alternation matches on {simulated}",
            "statistic": (
                "every steady-state cycle of a simulated strict alternation averages "
                f"the exact value on {simulated} pairs"
            ),
        },
    ]


def test_fact1_rows_count_what_holds_on_a_hand_built_table():
    """Three pairs of two instances. A pair is exact only if the identity holds *and* its right
    side is ≥ 0 (pair 1 only: 1/3); of the two tied pairs one has A − W = 1/10 > 0 (1/2 strictly
    higher; A − W = 0 is equality); two of three simulations match."""
    from timebandits.delaydep.claims.exact_theorems import fact1_rows

    table = fact1_table(
        [True, True, False],
        [True, False, True],
        [True, True, False],
        [Fraction(1, 10), Fraction(0), Fraction(1, 2)],
        [True, True, False],
        [0, 0, 1],
    )
    assert fact1_rows(table) == fact1_expected(
        [NOT_REPRODUCED, NOT_REPRODUCED],
        "2 random instances, 3 pairs m < n",
        "1/3",
        2,
        "1/2",
        "2/3",
    )
    table = fact1_table(
        [True] * 2, [True] * 2, [True, False], [Fraction(0), Fraction(1, 3)], [True] * 2, [0, 0]
    )
    assert fact1_rows(table) == fact1_expected(
        [REPRODUCED, REPRODUCED], "1 random instances, 2 pairs m < n", "2/2", 1, "0/1", "2/2"
    )


def test_ranker_table_names_an_unreadable_mean():
    from timebandits.delaydep.ranker_checks import ranker_table

    with pytest.raises(ValueError, match=r"^instances: cannot read 'x'"):
        ranker_table(
            {"id": "R", "delta": 0.5, "runs": 1, "instances": [["1", "x"]]},
            {"base_seed": 1},
            "delaydep",
        )


def test_ranker_table_runs_the_b2dep_instance_a_claim_names():
    """One stationary instance and the B2DEP one (max d_i = 1 < d_0 = 2 ≤ k = 2, spec P9): the
    table has a row for each, the B2DEP row with its delays and d_0."""
    from timebandits.delaydep.ranker_checks import ranker_table

    claim = {
        "id": "R",
        "delta": 0.5,
        "runs": 1,
        "instances": [["1", "0"]],
        "b2dep": {
            "means": ["1", "0"],
            "delays": [1, 1],
            "f": {"kind": "table", "values": ["1/2"]},
            "d0": 2,
        },
    }
    table = ranker_table(claim, {"base_seed": 1}, "delaydep")
    assert table["instance"].tolist() == ["stationary 0", "b2dep"]
    assert table.iloc[1][["means", "delays", "d0"]].tolist() == [(1.0, 0.0), (1, 1), 2]
    assert ranker_table(dict(claim), {"base_seed": 1}, "delaydep") is table  # memoised


def test_frozen_config_hashes_by_content():
    """Equal mappings (in any key order) hash equal; different ones differ, so distinct B2DEP
    instances do not share one cache bucket."""
    from timebandits.delaydep.ranker_checks import _Frozen

    a = _Frozen({"means": ["1", "0"], "d0": 2})
    assert hash(a) == hash(_Frozen({"d0": 2, "means": ["1", "0"]}))
    assert hash(a) != hash(_Frozen({"means": ["1", "0"], "d0": 3}))


def test_c7_sensitivity_claims_repeat_its_growth_test(paper):
    """C7's candidate causes (the authors' index, the pulls clock, a longer horizon) are tested
    with C7's own kind, metric and slopes, each saying what it varies."""
    from timebandits.core.verdicts.kinds import claim_kinds_of

    kinds = claim_kinds_of("delaydep")
    claims = {c["id"]: c for c in paper["claims"]}
    children = [c for c in paper["claims"] if c.get("parent") == "C7"]
    assert [c["id"] for c in children] == ["C7-authors", "C7-pulls", "C7-T1e6"]
    for child in children:
        assert child["scope"] == "extension" and child["tests"] == "setting" and child["varies"]
        for key in ("kind", "metric", "max_slope", "min_slope"):
            assert child[key] == claims["C7"][key], (child["id"], key)
        kinds[child["kind"]].check(child, paper)
