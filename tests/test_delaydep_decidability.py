"""Decidability of paper 004's claim kinds (core/verdicts/decidability.py): each kind's witnesses
reach both verdicts where the setting allows it, and a setting that cannot decide a claim (too few
runs for a frequency, a vacuous bound, no run the horizon can judge, an undefined quantity) is
flagged. The traces have the configured shape only, every metric 0, as before any run: the witnesses
must build what the claim reads from the config (seeds, instances, schedule)."""

import copy

import numpy as np
import pandas as pd

from timebandits.core.build.preflight import load_paper
from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.decidability import decide
from timebandits.delaydep.claims import CLAIM_KINDS
from timebandits.delaydep.theory import theorem3_bound_paper

CONFIG = {
    "base_seed": 7,
    "claims": {
        "alpha": 0.05,
        "bootstrap_samples": 200,
        "fragile_share": 0.1,
        "run_factors": [2, 4, 8, 16],
    },
}
COLUMNS = ("n_active", "stage", "switches", "ghost", "expected", "hoeffding_ok", "optimum_active")
# Fig. 2's instance with one fixed delay vector (picked by hand from {1..6}): gap 0.027, above
# 4·C_4 = 0.010 of its schedule at T = 10^7, so every run can be judged.
FIG2_FIXED = [3, 1, 5, 2, 6, 4, 1]


def context(experiments: dict) -> ClaimContext:
    """A paper-004 context whose experiments are ``{name: (environment of, horizon, runs)}``, with
    traces of the configured shape (20 checkpoints, every metric 0)."""
    paper = copy.deepcopy(load_paper("delaydep"))
    frames = {}
    for name, (base, horizon, runs, delays) in experiments.items():
        environment = copy.deepcopy(paper["experiments"][base]["environment"])
        if delays is not None:
            environment["delays"] = delays
        paper["experiments"][name] = {
            **paper["experiments"][base],
            "environment": environment,
            "horizon": horizon,
            "repetitions": runs,
        }
        t = np.unique(np.geomspace(1, horizon, 20).astype(int)).astype(float)
        k = len(environment["means"])
        frame = pd.DataFrame(
            {
                "repetition": np.repeat(np.arange(runs), t.size),
                "t": np.tile(t, runs),
                **{c: 0.0 for c in COLUMNS},
                **{f"delay_{i + 1}": 0 for i in range(k)},
            }
        )
        for alg in paper["experiments"][name]["algorithms"]:
            frames[(name, alg)] = frame
    return ClaimContext(paper=paper, config=CONFIG, trace_of=lambda e, a: frames[(e, a)])


def claim(**fields):
    return {"id": "t", "tested_as": "", "where": "", **fields}


def reach(kind: str, ctx, **fields) -> tuple[bool, bool, str]:
    out = decide(claim(kind=kind, **fields), CLAIM_KINDS[kind], ctx)
    return out["can_reproduce"], out["can_refute"], out["decidability"]


def test_stops_exploring_needs_runs_the_horizon_can_judge():
    ctx = context(
        {
            "many": ("fig2", 1e7, 40, FIG2_FIXED),
            "few": ("fig2", 1e7, 5, FIG2_FIXED),
            "tied": ("fig3", 1e7, 40, None),
        }
    )
    low = {"algorithm": "pi_low"}
    assert reach("stops_exploring", ctx, experiments=["many"], **low)[:2] == (True, True)
    # 5/5 runs give p = 0.9^5 = 0.59 against a frequency >= 90%: cannot pass, can fail
    can_pass, can_fail, why = reach("stops_exploring", ctx, experiments=["few"], **low)
    assert (can_pass, can_fail) == (False, True) and "cannot be reproduced as configured" in why
    # Fig. 3's policies are tied (gap 0): no run's gap exceeds 4·C_s, nothing is judged
    can_pass, can_fail, why = reach("stops_exploring", ctx, experiments=["tied"], **low)
    assert (can_pass, can_fail) == (False, False) and "cannot be refuted" in why


def test_theorem3_is_undecidable_where_its_bound_is_vacuous():
    # Fig. 3 (k = 2): the bound is below G_T(ghost) ≈ 0.7 T at T = 10^5, not at T = 10^3
    assert theorem3_bound_paper(1e5, 2, 0.1) < 0.7e5 and theorem3_bound_paper(1e3, 2, 0.1) > 1e3
    ctx = context({"long": ("fig3", 1e5, 30, None), "short": ("fig3", 1e3, 30, None)})
    low = {"algorithm": "pi_low"}
    assert reach("theorem3", ctx, experiments=["long"], **low)[:2] == (True, True)
    assert reach("theorem3", ctx, experiments=["short"], **low)[0] is False
    # 20 runs cannot show a frequency >= 90% (0.9^20 = 0.12)
    ctx = context({"long": ("fig3", 1e5, 20, None)})
    assert reach("theorem3", ctx, experiments=["long"], **low)[:2] == (False, True)


def test_switch_bound_reaches_both_even_on_few_runs():
    ctx = context({"few": ("fig2", 1e4, 3, None)})
    assert reach("switch_bound", ctx, experiments=["few"], algorithm="pi_low")[:2] == (True, True)


def test_theorem4_needs_enough_ranker_runs():
    fields = {"delta": 0.1, "instances": [["7/10", "1/2"]]}
    ctx = context({})
    assert reach("theorem4", ctx, runs=30, **fields)[:2] == (True, True)  # 0.9^30 = 0.042
    assert reach("theorem4", ctx, runs=20, **fields)[:2] == (False, True)


def test_exact_kinds_reach_both_verdicts():
    ctx = context({"fig2": ("fig2", 1e3, 2, None)})
    cases = {
        "mean_gap": {"experiment": "fig2", "stated": 0.1, "tolerance": 0.05},
        "stage_count": {"k": 7, "horizons": [1e3, 1e20]},
        "theorem2": {"instances": 20, "k_max": 4, "d_max": 3, "proxy_experiments": ["fig2"]},
        "fact1": {"instances": 20, "k_max": 4, "d_max": 3, "experiment": "fig3"},
        "fact1_printed": {"id": "C13", "instances": 2000, "k_max": 4, "d_max": 3},
        "erratum": {"erratum": "e1"},
    }
    for kind, fields in cases.items():
        assert reach(kind, ctx, **fields)[:2] == (True, True), kind
    for fields in (
        {"erratum": "e2", "epsilons": ["1/10"]},
        {"erratum": "e3", "horizons": [1e3, 1e40], "k": 7, "delta": 0.1},
    ):
        assert reach("erratum", ctx, **fields)[:2] == (True, True), fields


def test_exact_kinds_flag_what_cannot_be_decided():
    ctx = context({"fig2": ("fig2", 1e3, 2, None)})
    # a tolerance covering every possible mean gap in [0, 1] cannot fail
    assert reach("mean_gap", ctx, experiment="fig2", stated=0.1, tolerance=1.0)[:2] == (True, False)
    # too few random instances to have two optimal tied policies: Fact 1 as printed undefined
    can_pass, can_fail, why = reach("fact1_printed", ctx, instances=3, k_max=4, d_max=3)
    assert (can_pass, can_fail) == (False, False)
    assert "no random instance has two optimal ranking policies" in why
