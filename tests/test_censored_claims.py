"""Paper 001's claim kinds (censored/claims*.py) on hand-made traces: each kind reaches the
verdicts the evidence allows, its witnesses (core/decidability.py) reach both sides where the
setting allows, and a side the setting rules out is flagged."""

from __future__ import annotations

import copy

import numpy as np
import pandas as pd
import pytest

from timebandits.censored.claims import CLAIM_KINDS, truth_of
from timebandits.censored.claims_gaps import ranks
from timebandits.core.claims import (INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED, ClaimContext,
                                     combine)
from timebandits.core.config import load_paper
from timebandits.core.decidability import decide

CONFIG = {"base_seed": 7, "claims": {"alpha": 0.05, "bootstrap_samples": 400}}
T = 1000
TS = np.array([1, 10, 100, 500, T])


@pytest.fixture(scope="module")
def paper():
    return load_paper("censored")


def _frame(finals, ts=TS):
    """A trace whose metric rises linearly to ``finals[r]`` at T in repetition r; a dict of
    metric -> finals gives several metrics, a 2-d array (reps × checkpoints) a whole curve."""
    metrics = finals if isinstance(finals, dict) else {"regret": finals}
    rows = []
    for name, values in metrics.items():
        values = np.asarray(values, dtype=float)
        curve = values if values.ndim == 2 else values[:, None] * ts[None, :] / ts[-1]
        rows.append(pd.DataFrame({"repetition": np.repeat(np.arange(curve.shape[0]), ts.size),
                                  "t": np.tile(ts, curve.shape[0]), name: curve.ravel()}))
    out = rows[0]
    for extra in rows[1:]:
        out = out.merge(extra, on=["repetition", "t"])
    return out


def _ctx(paper, frames):
    return ClaimContext(paper=paper, config=copy.deepcopy(CONFIG),
                        trace_of=lambda exp, alg: frames[(exp, alg)])


def _verdict(paper, claim, ctx):
    kind = CLAIM_KINDS[claim["kind"]]
    kind.check(claim, paper)
    return combine(kind.evaluate(claim, ctx), kind.evidence, ctx.alpha)[0]


def _sides(claim, ctx):
    out = decide(claim, CLAIM_KINDS[claim["kind"]], ctx)
    return out["can_reproduce"], out["can_refute"]


def _noise(n=30, seed=0, sd=1.0):
    return np.random.default_rng(seed).normal(0.0, sd, n)


# --------------------------------------------------------------------------- censoring vs truth

def _censoring(paper, shares, exp="fig4_indep", algs=("rcucb",)):
    return _ctx(paper, {(exp, a): _frame({"censored": np.asarray(shares) * T}) for a in algs})


@pytest.mark.parametrize("offset, expected", [(0.0, REPRODUCED), (0.2, NOT_REPRODUCED),
                                              (0.05, INCONCLUSIVE)])
def test_censoring_near_truth(paper, offset, expected):
    truth = truth_of(paper, "fig4_indep")
    ctx = _censoring(paper, truth + offset + _noise(sd=0.01))
    claim = {"id": "X", "kind": "censoring_near_truth", "experiments": ["fig4_indep"],
             "algorithms": ["rcucb"], "tolerance": 0.05}
    assert _verdict(paper, claim, ctx) == expected
    assert _sides(claim, ctx) == (True, True)


def test_censoring_near_truth_cannot_be_refuted_with_a_tolerance_spanning_zero_to_one(paper):
    ctx = _censoring(paper, truth_of(paper, "fig4_indep") + _noise(sd=0.01))
    claim = {"id": "X", "kind": "censoring_near_truth", "experiments": ["fig4_indep"],
             "algorithms": ["rcucb"], "tolerance": 0.6}
    assert _sides(claim, ctx) == (True, False)
    assert "cannot be refuted" in decide(claim, CLAIM_KINDS[claim["kind"]], ctx)["decidability"]


@pytest.mark.parametrize("offset, expected", [(0.2, REPRODUCED), (0.0, NOT_REPRODUCED)])
def test_censoring_above_truth(paper, offset, expected):
    truth = truth_of(paper, "fig4_indep")
    ctx = _censoring(paper, truth + offset + _noise(sd=0.01), algs=("ucb", "thompson"))
    claim = {"id": "X", "kind": "censoring_above_truth", "experiments": ["fig4_indep"],
             "algorithms": ["ucb", "thompson"], "margin": 0.05}
    assert _verdict(paper, claim, ctx) == expected
    assert _sides(claim, ctx) == (True, True)


def test_censoring_above_truth_cannot_be_reproduced_beyond_a_share_of_one(paper):
    ctx = _censoring(paper, 0.9 + _noise(sd=0.01), algs=("ucb",))
    claim = {"id": "X", "kind": "censoring_above_truth", "experiments": ["fig4_indep"],
             "algorithms": ["ucb"], "margin": 0.6}  # truth 0.44 + 0.6 > 1
    assert _sides(claim, ctx) == (False, True)


# --------------------------------------------------------------------------- larger spread

@pytest.mark.parametrize("sd_ts, expected", [(30.0, REPRODUCED), (1.0, NOT_REPRODUCED)])
def test_larger_spread(paper, sd_ts, expected):
    base = _noise(seed=1, sd=5.0)
    frames = {("fig9_low_censoring", "thompson"): _frame(500 + sd_ts / 5.0 * base),
              ("fig9_low_censoring", "rcucb"): _frame(300 + _noise(seed=2, sd=5.0))}
    claim = {"id": "X", "kind": "larger_spread", "experiments": ["fig9_low_censoring"],
             "algorithm": "thompson", "rivals": ["rcucb"], "metric": "regret"}
    ctx = _ctx(paper, frames)
    assert _verdict(paper, claim, ctx) == expected
    assert _sides(claim, ctx) == (True, True)


def test_larger_spread_undefined_when_both_spreads_are_zero(paper):
    flat = _frame(np.full(10, 5.0))
    frames = {("fig9_low_censoring", "thompson"): flat, ("fig9_low_censoring", "rcucb"): flat}
    claim = {"id": "X", "kind": "larger_spread", "experiments": ["fig9_low_censoring"],
             "algorithm": "thompson", "rivals": ["rcucb"], "metric": "regret"}
    assert _verdict(paper, claim, _ctx(paper, frames)) == INCONCLUSIVE


def test_larger_spread_one_run_decides_nothing(paper):
    one = _frame(np.array([5.0]))
    frames = {("fig9_low_censoring", "thompson"): one, ("fig9_low_censoring", "rcucb"): one}
    claim = {"id": "X", "kind": "larger_spread", "experiments": ["fig9_low_censoring"],
             "algorithm": "thompson", "rivals": ["rcucb"], "metric": "regret"}
    assert _sides(claim, _ctx(paper, frames)) == (False, False)


# --------------------------------------------------------------------------- gaps and superiority

PAIRS = [["fig4_poscorr", "fig6_poscorr"], ["fig7_poscorr", "fig4_poscorr"]]


def _gap_frames(advantages, n=40):
    """RCUCB's regret 100 (± noise) and the baseline's 100/(1 − a) on each experiment."""
    frames = {}
    for i, (exp, a) in enumerate(advantages.items()):
        ours = 100 + _noise(n, seed=i, sd=2.0)
        frames[(exp, "rcucb")] = _frame(ours)
        frames[(exp, "thompson")] = _frame(ours / (1 - a) + _noise(n, seed=10 + i, sd=2.0))
    return frames


@pytest.mark.parametrize("advantages, order, grows", [
    # RCUCB ahead and further ahead with more limits: both kinds hold
    ({"fig6_poscorr": 0.1, "fig4_poscorr": 0.3, "fig7_poscorr": 0.5}, REPRODUCED, REPRODUCED),
    # RCUCB behind everywhere, by less with more limits (censored C6 on the full build): the gaps
    # are ordered, but there is no superiority to grow
    ({"fig6_poscorr": -0.6, "fig4_poscorr": -0.4, "fig7_poscorr": -0.2}, REPRODUCED, NOT_REPRODUCED),
    # RCUCB ahead, by less with more limits
    ({"fig6_poscorr": 0.5, "fig4_poscorr": 0.3, "fig7_poscorr": 0.1}, NOT_REPRODUCED, NOT_REPRODUCED),
])
def test_gap_order_against_superiority(paper, advantages, order, grows):
    ctx = _ctx(paper, _gap_frames(advantages))
    for kind, expected in (("relative_gap_order", order), ("superiority_grows", grows)):
        claim = {"id": "X", "kind": kind, "pairs": PAIRS, "baselines": ["thompson"]}
        assert _verdict(paper, claim, ctx) == expected, kind
        assert _sides(claim, ctx) == (True, True), kind


def test_superiority_witnesses_follow_the_claimed_order(paper):
    assert ranks(PAIRS) == {"fig6_poscorr": 0, "fig4_poscorr": 1, "fig7_poscorr": 2}
    assert ranks([["a", "c"], ["b", "c"]]) == {"a": 1, "b": 1, "c": 0}
    with pytest.raises(ValueError, match="cyclic"):
        ranks([["a", "b"], ["b", "a"]])


def test_gap_undefined_where_neither_has_regret(paper):
    # 1 − 0/0: no relative advantage to order (a baseline at 0 against RCUCB above 0 is −∞,
    # which is an order: RCUCB infinitely behind)
    frames = _gap_frames({"fig6_poscorr": 0.1, "fig4_poscorr": 0.3, "fig7_poscorr": 0.5})
    frames[("fig4_poscorr", "thompson")] = frames[("fig4_poscorr", "rcucb")] = _frame(np.zeros(40))
    claim = {"id": "X", "kind": "relative_gap_order", "pairs": PAIRS[:1], "baselines": ["thompson"]}
    assert _verdict(paper, claim, _ctx(paper, frames)) == INCONCLUSIVE


# --------------------------------------------------------------------------- exceeds throughout

def _curves(paper, ours, theirs):
    return _ctx(paper, {("fig5_ames", "rcucb"): _frame({"reward": ours}),
                        ("fig5_ames", "ucb"): _frame({"reward": theirs})})


def test_exceeds_throughout(paper):
    claim = {"id": "X", "kind": "exceeds_throughout", "experiments": ["fig5_ames"],
             "metric": "reward", "better": ["rcucb"], "worse": ["ucb"], "direction": "higher"}
    n = 10
    rng = np.random.default_rng(3)
    base = TS[None, :] * (0.5 + 0.01 * rng.normal(size=(n, TS.size)))
    above = base * 1.5
    ctx = _curves(paper, above, base)
    assert _verdict(paper, claim, ctx) == REPRODUCED
    assert _sides(claim, ctx) == (True, True)
    # below at the first checkpoints, above at the horizon: a test at T alone would pass
    crossing = above.copy()
    crossing[:, :2] = base[:, :2] * 0.5
    assert _verdict(paper, claim, _curves(paper, crossing, base)) == NOT_REPRODUCED
    # equal at the first checkpoint in every run: not shown to exceed there
    tied = above.copy()
    tied[:, 0] = base[:, 0]
    assert _verdict(paper, claim, _curves(paper, tied, base)) == INCONCLUSIVE
    # from_t skips the tie
    assert _verdict(paper, {**claim, "from_t": 5}, _curves(paper, tied, base)) == REPRODUCED


# --------------------------------------------------------------------------- exact kinds

def test_printed_truth(paper):
    ctx = _ctx(paper, {})
    exact = truth_of(paper, "fig4_indep")
    claim = {"id": "X", "kind": "printed_truth", "values": {"fig4_indep": round(exact, 4)},
             "tolerance": 0.0005}
    assert _verdict(paper, claim, ctx) == REPRODUCED
    assert _sides(claim, ctx) == (True, True)
    wrong = {**claim, "values": {"fig4_indep": round(exact + 0.01, 4)}}
    assert _verdict(paper, wrong, ctx) == NOT_REPRODUCED
    assert _sides(wrong, ctx) == (True, True)


def test_printed_truth_undefined_value_decides_nothing(paper, monkeypatch):
    import timebandits.censored.claims_theory as theory_claims
    monkeypatch.setattr(theory_claims, "truth_of", lambda paper, exp: float("nan"))
    ctx = _ctx(paper, {})
    claim = {"id": "X", "kind": "printed_truth", "values": {"fig4_indep": 0.4404}, "tolerance": 0.0005}
    assert _verdict(paper, claim, ctx) == INCONCLUSIVE
    assert _sides(claim, ctx) == (False, False)


def test_bound_ratio(paper):
    ctx = _ctx(paper, {})
    claim = {"id": "X", "kind": "bound_ratio", "experiments": ["fig4_indep"], "alphas": [2.0],
             "horizon": 100000}
    assert _verdict(paper, claim, ctx) in (REPRODUCED, NOT_REPRODUCED)
    assert _sides(claim, ctx) == (True, True)
    void = {**claim, "alphas": [1.0]}  # both bounds are void (+inf) at α ≤ 1
    assert _verdict(paper, void, ctx) == INCONCLUSIVE
    assert _sides(void, ctx) == (False, False)


# --------------------------------------------------------------------------- coverage

@pytest.mark.parametrize("violations, expected", [(0, REPRODUCED), (30, NOT_REPRODUCED)])
def test_coverage(paper, violations, expected):
    ts = np.array([1000, 5000, 10000])
    counts = np.full((20, ts.size), float(violations))
    frame = _frame({"above_conf": counts, "below_conf": np.zeros_like(counts)}, ts=ts)
    ctx = _ctx(paper, {("coverage_indep", "rcucb_alpha2"): frame})
    claim = {"id": "X", "kind": "coverage", "experiments": ["coverage_indep"],
             "algorithms": ["rcucb_alpha2"], "from_t": 1000}
    assert _verdict(paper, claim, ctx) == expected
    assert _sides(claim, ctx) == (True, True)


def test_coverage_cannot_be_refuted_where_the_bound_is_void(paper):
    ts = np.array([1, 2, 3])  # Prop. 1's bound ≥ 1 at t ≤ 4 for α = 2
    frame = _frame({"above_conf": np.zeros((20, 3)), "below_conf": np.zeros((20, 3))}, ts=ts)
    ctx = _ctx(paper, {("coverage_indep", "rcucb_alpha2"): frame})
    claim = {"id": "X", "kind": "coverage", "experiments": ["coverage_indep"],
             "algorithms": ["rcucb_alpha2"], "from_t": 1}
    assert _sides(claim, ctx) == (True, False)


def test_coverage_undefined_counts_are_no_evidence(paper):
    ts = np.array([1000, 5000])
    frame = _frame({"above_conf": np.full((20, 2), np.nan), "below_conf": np.full((20, 2), np.nan)}, ts=ts)
    ctx = _ctx(paper, {("coverage_indep", "rcucb_alpha2"): frame})
    claim = {"id": "X", "kind": "coverage", "experiments": ["coverage_indep"],
             "algorithms": ["rcucb_alpha2"], "from_t": 1}
    assert _verdict(paper, claim, ctx) == INCONCLUSIVE
    assert _sides(claim, ctx) == (False, False)


# --------------------------------------------------------------------------- the configured claims

def test_every_configured_claim_checks(paper):
    kinds = {c["kind"] for c in paper["claims"]}
    assert kinds - set(CLAIM_KINDS) <= {"better_at_horizon", "close_at_horizon", "below_bound"}
    for claim in paper["claims"]:
        if claim["kind"] in CLAIM_KINDS:
            CLAIM_KINDS[claim["kind"]].check(claim, paper)
        assert claim["scope"] in ("paper", "extension", "erratum")
