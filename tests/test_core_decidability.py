"""core/verdicts/decidability.py: every generic claim kind, as configured, can reach "reproduced"
and "not reproduced" where its inputs allow, and the three ways a claim cannot are caught: a bound
above the largest value its metric can take (cannot fail), too few runs for a frequency at a level
(cannot pass), a regime the window never reaches (neither)."""

import math

import numpy as np
import pandas as pd
import pytest

from timebandits.core.build.preflight import load_paper
from timebandits.core.verdicts.bounds import compare_to_bound
from timebandits.core.verdicts.claims import evaluate_claims
from timebandits.core.verdicts.context import ClaimContext, fraction_test
from timebandits.core.verdicts.decidability import (
    SPREAD,
    bound_witness,
    decide,
    derived,
    linear,
    power,
    spread,
    with_curves,
    with_runs,
)
from timebandits.core.verdicts.kinds import GENERIC_KINDS, claim_kinds_of
from timebandits.core.verdicts.vocabulary import INCONCLUSIVE, STATISTICAL

CONFIG = {
    "claims": {
        "alpha": 0.05,
        "bootstrap_samples": 300,
        "fragile_share": 0.1,
        "run_factors": [2, 4, 8, 16],
    }
}
T = np.array([1.0, 10.0, 100.0, 1000.0, 10000.0])


def trace(values_by_rep: np.ndarray, column="m") -> pd.DataFrame:
    """A (repetition x checkpoint) array as a trace on the checkpoints T."""
    reps, ts = np.meshgrid(np.arange(values_by_rep.shape[0]), T, indexing="ij")
    return pd.DataFrame(
        {"repetition": reps.ravel(), "t": ts.ravel(), column: values_by_rep.ravel().astype(float)}
    )


def context(n=10, algorithms=("a", "b"), bounds=None, claims=()):
    paper = {
        "paper": {"key": "x"},
        "claims": list(claims),
        "algorithms": {a: {"label": a.upper()} for a in algorithms},
        "experiments": {"e": {"algorithms": list(algorithms)}},
    }
    rng = np.random.default_rng(1)
    traces = {("e", a): trace(np.cumsum(rng.random((n, T.size)), axis=1)) for a in algorithms}
    return ClaimContext(
        paper=paper, config=CONFIG, trace_of=lambda e, a: traces[(e, a)], bounds=bounds
    )


def reach(kind_name, claim, ctx):
    out = decide(claim, GENERIC_KINDS[kind_name], ctx)
    return out["can_reproduce"], out["can_refute"]


def test_spread_has_mean_one_and_a_small_range():
    factors = spread(7)
    assert factors.mean() == pytest.approx(1.0)
    assert factors.min() == pytest.approx(1 - SPREAD) and factors.max() == pytest.approx(1 + SPREAD)
    assert spread(1).tolist() == [1.0]


@pytest.mark.parametrize("ratio", [0.5, 1.0, 3.0, 10.0])
def test_power_curves_grow_with_their_slope(ratio):
    # slope p: each decade's increase is 10^p times the one before
    level = power(2.0, math.log10(ratio))
    values = level(T)
    assert values[-1] == pytest.approx(2.0)
    increments = np.diff(values[1:])  # over [10, 100], [100, 1000], [1000, 10000]
    assert np.all(increments > 0)
    assert increments[2] / increments[1] == pytest.approx(ratio, rel=1e-9)


def test_with_curves_replaces_only_the_named_traces():
    ctx = context(n=4)
    witness = with_curves(ctx, "m", {"a": linear(8.0)})
    a = witness.trace("e", "a").pivot(index="t", columns="repetition", values="m")
    assert a.loc[10000.0].tolist() == pytest.approx((8.0 * spread(4)).tolist())
    assert a.loc[1000.0].tolist() == pytest.approx((0.8 * spread(4)).tolist())
    assert witness.trace("e", "b").equals(ctx.trace("e", "b"))
    assert ctx.trace("e", "a")["m"].max() < 8.0  # the real context is untouched


@pytest.mark.parametrize(
    "kind, claim",
    [
        (
            "better_at_horizon",
            {"experiments": ["e"], "metric": "m", "better": ["a"], "worse": ["b"]},
        ),
        (
            "better_at_horizon",
            {
                "experiments": ["e"],
                "metric": "m",
                "better": ["a"],
                "worse": ["b"],
                "min_ratio": 2.0,
                "direction": "higher",
            },
        ),
        (
            "close_at_horizon",
            {"experiments": ["e"], "metric": "m", "pair": ["a", "b"], "tolerance": 0.05},
        ),
        ("log_growth", {"experiments": ["e"], "algorithm": "a", "metric": "m", "max_slope": 0.3}),
        (
            "log_growth",
            {
                "experiments": ["e"],
                "algorithm": "a",
                "metric": "m",
                "min_slope": 0.8,
                "max_slope": 1.2,
            },
        ),
        (
            "wins_in_settings",
            {
                "experiments": ["e"],
                "algorithm": "a",
                "against": ["b"],
                "metric": "m",
                "min_settings": 1,
            },
        ),
        (
            "sign_at_horizon",
            {"experiments": ["e"], "algorithms": ["a", "b"], "metric": "m", "sign": "negative"},
        ),
    ],
)
def test_generic_kinds_reach_both_verdicts_with_enough_runs(kind, claim):
    assert reach(kind, {"id": "c", "kind": kind, **claim}, context()) == (True, True)


@pytest.mark.parametrize(
    "kind, claim",
    [
        (
            "better_at_horizon",
            {"experiments": ["e"], "metric": "m", "better": ["a"], "worse": ["b"]},
        ),
        (
            "sign_at_horizon",
            {"experiments": ["e"], "algorithms": ["a"], "metric": "m", "sign": "positive"},
        ),
    ],
)
def test_one_run_can_reach_neither_verdict(kind, claim):
    # A t-test over one run has no standard error: no p-value, no verdict either way.
    assert reach(kind, {"id": "c", "kind": kind, **claim}, context(n=1)) == (False, False)


def test_growth_claim_whose_regime_starts_after_the_horizon_can_reach_neither():
    claim = {
        "id": "c",
        "kind": "log_growth",
        "experiments": ["e"],
        "algorithm": "a",
        "metric": "m",
        "max_slope": 0.3,
        "regime": {"from_t": 1e6},
    }
    out = decide(claim, GENERIC_KINDS["log_growth"], context())
    assert (out["can_reproduce"], out["can_refute"]) == (False, False)
    assert "regime not reached" in out["decidability"]


def bound_table(bound, trivial, n=10):
    """A bound table of curve m of algorithm a in e against ``bound`` with trivial bound."""
    values = pd.DataFrame(np.outer(T, np.ones(n)) * 0.1, index=pd.Index(T, name="t"))
    return compare_to_bound(
        values,
        np.asarray(bound, float),
        np.asarray(trivial, float),
        experiment="e",
        algorithm="a",
        bound_name="thm",
        metric="m",
    )


BELOW = {
    "id": "c",
    "kind": "below_bound",
    "experiments": ["e"],
    "algorithm": "a",
    "bounds": ["thm"],
}


def test_bound_below_the_trivial_bound_somewhere_can_reach_both():
    ctx = context(bounds=bound_table(bound=0.5 * T, trivial=T))
    assert reach("below_bound", BELOW, ctx) == (True, True)


def test_bound_above_the_largest_value_of_its_metric_cannot_fail():
    # The anonymous C8-s defect: the bound lies above max_i G_i(t), the most regret any learner
    # can have, at every checkpoint. No curve can exceed it; the claim is never reproduced.
    largest = 0.3 * T
    ctx = context(
        bounds=bound_table(bound=0.5 * T, trivial=largest),
        claims=[{**BELOW, "scope": "paper", "where": "", "tested_as": ""}],
    )
    assert reach("below_bound", BELOW, ctx) == (False, False)
    summary, _ = evaluate_claims(ctx.paper, ctx, GENERIC_KINDS)
    assert summary.loc[0, "verdict"] == INCONCLUSIVE
    assert "cannot be refuted as configured" in summary.loc[0, "decidability"]


def test_bound_witness_puts_curves_at_zero_or_at_the_trivial_bound():
    table = bound_table(bound=0.5 * T, trivial=np.r_[T[:-1], math.inf])
    low, high = bound_witness(table, True), bound_witness(table, False)
    assert (low["mean"] == 0).all() and (low["runs_exceeding"] == 0).all()
    assert high["mean"].tolist() == [1.0, 10.0, 100.0, 1000.0, 0.0]  # an infinite maximum: no value
    assert high["runs_exceeding"].tolist() == [10, 10, 10, 10, 0]


class Frequency:
    """A kind in the shape of "an event holds with probability ≥ level": an exact binomial test
    on the per-run event column ``hit`` at the horizon."""

    evidence = STATISTICAL

    @staticmethod
    def evaluate(claim, ctx):
        hits = ctx.final("e", "a", "hit") > 0.5
        test = fraction_test(int(hits.sum()), hits.size, claim["level"], ctx.alpha)
        return [{"scope": "e", "headline": f"{hits.sum()}/{hits.size}", "statistic": "", **test}]

    @staticmethod
    def witnesses(claim, ctx):
        return {
            "favourable": with_curves(ctx, "hit", {"a": linear(1.0)}),
            "unfavourable": with_curves(ctx, "hit", {"a": linear(0.0)}),
        }


@pytest.mark.parametrize("runs, can_pass", [(50, False), (58, False), (59, True), (100, True)])
def test_frequency_at_level_095_needs_59_runs_to_pass(runs, can_pass):
    # 50/50 at level 0.95 gives p = 0.95^50 = 0.077 > 0.05: the claim cannot pass.
    rng = np.random.default_rng(0)
    hits = trace(np.repeat((rng.random((runs, 1)) < 0.9).astype(float), T.size, axis=1), "hit")
    ctx = ClaimContext(paper={"paper": {"key": "x"}}, config=CONFIG, trace_of=lambda e, a: hits)
    out = decide({"id": "f", "level": 0.95}, Frequency, ctx)
    assert (out["can_reproduce"], out["can_refute"]) == (can_pass, True)
    if not can_pass:
        assert "cannot be reproduced as configured" in out["decidability"]
        assert 0.95**runs > 0.05


def test_exact_quantities_can_be_replaced_by_a_witness():
    ctx = context()
    assert ctx.quantity("gap", lambda: 0.25) == 0.25
    witness = derived(ctx, overrides={"gap": lambda real: -real})
    assert witness.quantity("gap", lambda: 0.25) == -0.25
    assert ctx.quantity("gap", lambda: 0.25) == 0.25


def test_one_sided_reason_from_the_config_is_shown():
    claim = {**BELOW, "one_sided": "the bound is above the game's largest regret"}
    ctx = context(bounds=bound_table(bound=0.5 * T, trivial=0.3 * T))
    out = decide(claim, GENERIC_KINDS["below_bound"], ctx)
    assert out["decidability"].endswith(
        "Why (config): the bound is above the game's largest regret"
    )


@pytest.mark.parametrize("key", ["farewell", "censored", "anonymous", "continuous", "delaydep"])
def test_every_claim_kind_of_every_paper_has_witnesses(key):
    kinds = claim_kinds_of(key)
    used = {claim["kind"] for claim in load_paper(key)["claims"]}
    missing = sorted(k for k in used if not hasattr(kinds[k], "witnesses"))
    assert not missing, f"{key}: claim kinds without witnesses: {missing}"


def test_supporting_rows_do_not_count_in_decidability():
    # Only deciding rows make a verdict (evaluate_claims); a supporting row that never decides
    # must not make the claim look undecidable.
    class WithSupport(Frequency):
        @staticmethod
        def evaluate(claim, ctx):
            return [
                *Frequency.evaluate(claim, ctx),
                {
                    "scope": "aside",
                    "verdict": INCONCLUSIVE,
                    "headline": "",
                    "statistic": "",
                    "role": "supports",
                },
            ]

    hits = trace(np.ones((100, T.size)), "hit")
    ctx = ClaimContext(paper={"paper": {"key": "x"}}, config=CONFIG, trace_of=lambda e, a: hits)
    out = decide({"id": "f", "level": 0.95}, WithSupport, ctx)
    assert (out["can_reproduce"], out["can_refute"]) == (True, True)


def test_wins_in_some_settings_corrects_for_the_choice_of_settings():
    # Two settings, one needed: a win needs p < α/2. Per-run differences chosen so that the
    # one-sided p lies between α/2 and α in setting e (f is the mirror image, a loss).
    from timebandits.core.verdicts.comparisons import WinsInSettings

    n = 10
    noise = np.array([2.2, -1.5, 1.9, -0.8, 1.4, 0.3, -1.1, 2.5, -0.6, 1.2])
    diff = noise - noise.mean() + 0.95  # one-sided p = 0.036
    base = np.linspace(10, 20, n)
    frames = {
        ("e", "a"): trace(np.outer(base, np.ones(T.size))),
        ("e", "b"): trace(np.outer(base + diff, np.ones(T.size))),
    }
    paper = {
        "paper": {"key": "x"},
        "algorithms": {"a": {"label": "A"}, "b": {"label": "B"}},
        "experiments": {"e": {"algorithms": ["a", "b"]}, "f": {"algorithms": ["a", "b"]}},
    }
    frames[("f", "a")], frames[("f", "b")] = frames[("e", "b")], frames[("e", "a")]
    ctx = ClaimContext(paper=paper, config=CONFIG, trace_of=lambda e, a: frames[(e, a)])
    from timebandits.core.verdicts.stats import paired_one_sided

    p = paired_one_sided(base, base + diff)["p_claimed"]
    assert 0.025 < p < 0.05
    claim = {
        "experiments": ["e", "f"],
        "algorithm": "a",
        "against": ["b"],
        "metric": "m",
        "min_settings": 1,
    }
    row = WinsInSettings.evaluate(claim, ctx)[0]
    assert row["verdict"] == INCONCLUSIVE and "wins in 0/2" in row["headline"]
    assert WinsInSettings.evaluate({**claim, "experiments": ["e"]}, ctx)[0]["headline"].startswith(
        "wins in 1/1"
    )


def test_with_runs_keeps_what_is_undefined_in_the_real_trace():
    ctx = context(n=3)
    real = ctx.trace("e", "a").copy()
    real.loc[real["t"] == 1.0, "m"] = np.nan  # e.g. no estimate before warm-up
    ctx = ClaimContext(
        paper=ctx.paper, config=CONFIG, trace_of=lambda e, a: real if a == "a" else ctx.trace(e, a)
    )
    witness = with_runs(ctx, "m", {"a": lambda t, z: 5.0 + z})
    table = witness.trace("e", "a").pivot(index="t", columns="repetition", values="m")
    assert table.loc[1.0].isna().all()
    assert table.loc[10000.0].tolist() == [4.0, 5.0, 6.0]
    replaced = with_curves(ctx, "m", {"a": linear(2.0)}).trace("e", "a")
    assert not replaced["m"].isna().any()  # with_curves replaces everything
