"""Paper 003's claim kinds (the package continuous/claims/) on synthetic traces: each verdict comes
out every way the evidence allows."""

from __future__ import annotations

import copy
import math
import re

import numpy as np
import pandas as pd
import pytest

from timebandits.continuous.claims import CLAIM_KINDS
from timebandits.continuous.model import oracle
from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.vocabulary import INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED

CONFIG = {
    "base_seed": 1,
    "claims": {
        "alpha": 0.05,
        "bootstrap_samples": 400,
        "fragile_share": 0.1,
        "run_factors": [2, 4, 8, 16],
    },
}
HORIZON = 1000.0  # T' (λ = 1)


def _paper(means: dict):
    """experiment -> means; every experiment runs the oracle and the learner ``ours``."""
    return {
        "paper": {"key": "continuous"},
        "algorithms": {
            "oracle": {"label": "oracle", "policy": "oracle"},
            "ours": {
                "label": "ours",
                "policy": "ctsab",
                "params": {"epsilon": 0.2, "kappa": 1.0, "delta": 0.05},
            },
        },
        "experiments": {
            e: {
                "environment": {"means": m, "lam": 1.0},
                "horizon": HORIZON,
                "algorithms": ["oracle", "ours"],
            }
            for e, m in means.items()
        },
    }


def _context(paper, finals: dict):
    frames = {}
    for (exp, alg), metrics in finals.items():
        n = len(next(iter(metrics.values())))
        frames[(exp, alg)] = pd.DataFrame(
            {
                "repetition": np.arange(n),
                "t": np.full(n, 1000),
                **{m: np.asarray(v, float) for m, v in metrics.items()},
            }
        )
    return ClaimContext(
        paper=paper, config=copy.deepcopy(CONFIG), trace_of=lambda exp, alg: frames[(exp, alg)]
    )


def _verdicts(kind, claim, ctx):
    CLAIM_KINDS[kind].check(claim, ctx.paper)
    return {row["verdict"] for row in CLAIM_KINDS[kind].evaluate(claim, ctx)}


def _best(mu):
    return oracle(mu, HORIZON).payoff


@pytest.mark.parametrize(
    "share_of_oracle, expected", [(0.99, REPRODUCED), (0.5, NOT_REPRODUCED), (0.9, INCONCLUSIVE)]
)
def test_close_to_oracle(share_of_oracle, expected):
    rng = np.random.default_rng(0)
    paper = _paper({"e": [0.3]})
    payoff = share_of_oracle * _best(0.3) + rng.normal(0, 0.5, 50)
    ctx = _context(paper, {("e", "ours"): {"payoff": payoff}})
    claim = {"id": "C", "experiments": ["e"], "algorithm": "ours", "share": 0.9}
    assert _verdicts("close_to_oracle", claim, ctx) == {expected}


@pytest.mark.parametrize("power, expected", [(-1.0, REPRODUCED), (-3.0, NOT_REPRODUCED)])
def test_regret_slope(power, expected):
    rng = np.random.default_rng(1)
    mus = {"a": 0.05, "b": 0.1, "c": 0.2, "d": 0.3}
    paper = _paper({e: [m] for e, m in mus.items()})
    finals = {
        (e, "ours"): {"payoff": _best(m) - m**power * (1 + rng.normal(0, 0.02, 50))}
        for e, m in mus.items()
    }
    claim = {"id": "C", "experiments": list(mus), "algorithm": "ours", "low": -1.5, "high": -0.5}
    assert _verdicts("regret_slope", claim, _context(paper, finals)) == {expected}


def test_regret_slope_is_inconclusive_on_a_limit_or_a_nonpositive_regret():
    rng = np.random.default_rng(2)
    mus = {"a": 0.05, "b": 0.3}
    paper = _paper({e: [m] for e, m in mus.items()})
    claim = {"id": "C", "experiments": list(mus), "algorithm": "ours", "low": -1.5, "high": -0.5}
    noisy = {
        (e, "ours"): {"payoff": _best(m) - m**-1.5 * (1 + rng.normal(0, 0.3, 20))}
        for e, m in mus.items()
    }
    assert _verdicts("regret_slope", claim, _context(paper, noisy)) == {INCONCLUSIVE}
    better = {(e, "ours"): {"payoff": np.full(20, _best(m) + 1.0)} for e, m in mus.items()}
    assert _verdicts("regret_slope", claim, _context(paper, better)) == {INCONCLUSIVE}


@pytest.mark.parametrize(
    "second, expected", [(200.0, REPRODUCED), (50.0, NOT_REPRODUCED), (100.0, INCONCLUSIVE)]
)
def test_regret_grows(second, expected):
    rng = np.random.default_rng(3)
    paper = _paper({"a": [0.3], "b": [0.3]})
    finals = {
        ("a", "ours"): {"payoff": _best(0.3) - 100 - rng.normal(0, 5, 50)},
        ("b", "ours"): {"payoff": _best(0.3) - second - rng.normal(0, 5, 50)},
    }
    claim = {"id": "C", "experiments": ["a", "b"], "algorithm": "ours"}
    assert _verdicts("regret_grows", claim, _context(paper, finals)) == {expected}


@pytest.mark.parametrize(
    "wide_sd, expected", [(20.0, REPRODUCED), (1.0, NOT_REPRODUCED), (5.0, INCONCLUSIVE)]
)
def test_spread_larger(wide_sd, expected):
    rng = np.random.default_rng(4)
    paper = _paper({"wide": [0.05], "narrow": [0.3]})
    finals = {
        ("wide", "ours"): {"payoff": rng.normal(0, wide_sd, 50)},
        ("narrow", "ours"): {"payoff": rng.normal(0, 5, 50)},
    }
    claim = {"id": "C", "larger": "wide", "smaller": ["narrow"], "algorithm": "ours"}
    assert _verdicts("spread_larger", claim, _context(paper, finals)) == {expected}


@pytest.mark.parametrize("misses, expected", [(0, INCONCLUSIVE), (10, NOT_REPRODUCED)])
def test_run_frequency_lemma15(misses, expected):
    """50 runs cannot show a rate ≥ 95% (0.95^50 = 0.077), so all-good is inconclusive; 10 misses
    refute it."""
    paper = _paper({"e": [0.3]})
    estimate = np.full(50, 0.3)
    estimate[:misses] = 0.7  # |μ̂ − μ| = 0.4 ≥ μ
    ctx = _context(paper, {("e", "ours"): {"stop_estimate": estimate}})
    claim = {
        "id": "C",
        "experiments": ["e"],
        "algorithm": "ours",
        "event": "lemma15",
        "level": 0.95,
    }
    assert _verdicts("run_frequency", claim, ctx) == {expected}


def test_run_frequency_can_reproduce_a_modest_level():
    paper = _paper({"e": [0.3]})
    ctx = _context(paper, {("e", "ours"): {"stop_estimate": np.full(200, 0.3)}})
    claim = {"id": "C", "experiments": ["e"], "algorithm": "ours", "event": "lemma15", "level": 0.9}
    assert _verdicts("run_frequency", claim, ctx) == {REPRODUCED}


@pytest.mark.parametrize("outlier, expected", [(1.2, REPRODUCED), (10.0, NOT_REPRODUCED)])
def test_scaled_flat_regret(outlier, expected):
    rng = np.random.default_rng(5)
    mus = {"a": 0.1, "b": 0.2, "c": 0.3}
    paper = _paper({e: [m] for e, m in mus.items()})
    scale = {"a": 1.0, "b": 1.0, "c": outlier}
    log2 = np.log(HORIZON) ** 2
    finals = {
        (e, "ours"): {"payoff": _best(m) - scale[e] * log2 / m * (1 + rng.normal(0, 0.02, 50))}
        for e, m in mus.items()
    }
    claim = {
        "id": "C",
        "experiments": list(mus),
        "algorithm": "ours",
        "quantity": "regret",
        "max_spread": 3.0,
    }
    assert _verdicts("scaled_flat", claim, _context(paper, finals)) == {expected}


@pytest.mark.parametrize("payoff, expected", [(-1.0, REPRODUCED), (2.0, NOT_REPRODUCED)])
def test_exact_sign(payoff, expected):
    paper = _paper({"e": [0.05]})
    ctx = _context(paper, {("e", "ours"): {"payoff": np.full(3, payoff)}})
    claim = {
        "id": "C",
        "experiments": ["e"],
        "algorithm": "ours",
        "metric": "payoff",
        "sign": "negative",
    }
    assert _verdicts("exact_sign", claim, ctx) == {expected}


# the config's assumed tolerances of oracle_exact (continuous.yaml, C1)
ORACLE_TOLERANCES = {"rel_tol": 1e-12, "abs_tol": 1e-9}
ORACLE_CLAIM = {"id": "C", "experiments": ["e"], **ORACLE_TOLERANCES}


@pytest.mark.parametrize("simulated, expected", [(None, REPRODUCED), (10.0, NOT_REPRODUCED)])
def test_oracle_exact(simulated, expected):
    paper = _paper({"e": [0.3]})
    value = _best(0.3) if simulated is None else simulated
    ctx = _context(paper, {("e", "oracle"): {"payoff": np.full(2, value)}})
    assert _verdicts("oracle_exact", ORACLE_CLAIM, ctx) == {expected}


# --- decidability (core/verdicts/decidability.py): each kind's witnesses reach both verdicts in a
# normal setting, and a claim that as configured cannot pass (or fail) is caught ---


def _decide(kind, claim, ctx):
    from timebandits.core.verdicts.decidability import decide

    CLAIM_KINDS[kind].check(claim, ctx.paper)
    out = decide(claim, CLAIM_KINDS[kind], ctx)
    return out["can_reproduce"], out["can_refute"]


def _learner(mus: dict, n=50, seed=7, regret=lambda mu: 1.0 / mu):
    rng = np.random.default_rng(seed)
    paper = _paper({e: [m] for e, m in mus.items()})
    finals = {
        (e, "ours"): {"payoff": _best(m) - regret(m) * (1 + rng.normal(0, 0.1, n))}
        for e, m in mus.items()
    }
    finals.update({(e, "oracle"): {"payoff": np.full(n, _best(m))} for e, m in mus.items()})
    return paper, _context(paper, finals)


MUS = {"a": 0.3, "b": 0.15, "c": 0.05}


@pytest.mark.parametrize(
    "kind, claim",
    [
        ("close_to_oracle", {"experiments": list(MUS), "algorithm": "ours", "share": 0.9}),
        (
            "regret_slope",
            {"experiments": list(MUS), "algorithm": "ours", "low": -1.5, "high": -0.5},
        ),
        (
            "regret_slope",
            {"experiments": list(MUS), "algorithm": "ours", "low": -math.inf, "high": 0.0},
        ),
        ("regret_grows", {"experiments": list(MUS), "algorithm": "ours"}),
        ("spread_larger", {"larger": "c", "smaller": ["a", "b"], "algorithm": "ours"}),
        (
            "spread_larger",
            {"larger": "c", "smaller": ["a", "b"], "algorithm": "ours", "relative": True},
        ),
        (
            "scaled_flat",
            {
                "experiments": list(MUS),
                "algorithm": "ours",
                "quantity": "regret",
                "max_spread": 3.0,
            },
        ),
    ],
)
def test_witnesses_reach_both_verdicts(kind, claim):
    _, ctx = _learner(MUS)
    assert _decide(kind, {"id": "C", **claim}, ctx) == (True, True)


def test_exact_kinds_route_their_quantity_and_reach_both_verdicts():
    paper = _paper({"e": [0.3]})
    ctx = _context(
        paper,
        {
            ("e", "oracle"): {"payoff": np.full(2, _best(0.3))},
            ("e", "ours"): {"payoff": np.full(2, -1.0)},
        },
    )
    assert _decide("oracle_exact", ORACLE_CLAIM, ctx) == (True, True)
    claim = {
        "id": "C",
        "experiments": ["e"],
        "algorithm": "ours",
        "metric": "payoff",
        "sign": "negative",
    }
    assert _decide("exact_sign", claim, ctx) == (True, True)


@pytest.mark.parametrize(
    "runs, level, expected",
    [
        (100, 0.95, (False, True)),  # 50 runs stopped: 50/50 gives p = 0.95^50 = 0.077 > α
        (118, 0.95, (True, True)),  # 59 stopped: 0.95^59 = 0.048 < α
        (200, 0.95, (True, True)),
        (10, 0.85, (False, True)),  # 5 stopped: 0.85^5 = 0.44
    ],
)
def test_run_frequency_cannot_pass_with_too_few_runs(runs, level, expected):
    paper = _paper({"e": [0.3]})
    estimate = np.full(runs, 0.3)
    estimate[: runs // 2] = np.nan  # runs that never stopped: no witness may judge them
    ctx = _context(paper, {("e", "ours"): {"stop_estimate": estimate}})
    claim = {
        "id": "C",
        "experiments": ["e"],
        "algorithm": "ours",
        "event": "lemma15",
        "level": level,
    }
    assert _decide("run_frequency", claim, ctx) == expected


def test_a_share_of_the_whole_oracle_payoff_cannot_be_shown():
    # no learner earns more than P*: "at least 100% of the oracle" can never be reproduced
    _, ctx = _learner(MUS)
    claim = {"id": "C", "experiments": list(MUS), "algorithm": "ours", "share": 1.0}
    assert _decide("close_to_oracle", claim, ctx) == (False, True)


def test_undefined_quantities_reach_neither_side():
    # one run: no sd, no standard error, so neither verdict is reachable
    _, ctx = _learner(MUS, n=1)
    for kind, claim in [
        ("spread_larger", {"larger": "c", "smaller": ["a"], "algorithm": "ours"}),
        ("close_to_oracle", {"experiments": ["a"], "algorithm": "ours", "share": 0.9}),
    ]:
        assert _decide(kind, {"id": "C", **claim}, ctx) == (False, False)
    # no identification finished: t_Id is undefined in every experiment
    paper = _paper({"a": [0.3, 0.2], "b": [0.15, 0.1]})
    zeros = np.zeros(20)
    finals = {
        (e, "ours"): {"payoff": zeros, "i_star": zeros, "id_cut": zeros + 1, "id_time": zeros + 5}
        for e in ("a", "b")
    }
    claim = {
        "id": "C",
        "experiments": ["a", "b"],
        "algorithm": "ours",
        "quantity": "identification_time",
        "max_spread": 3.0,
    }
    assert _decide("scaled_flat", claim, _context(paper, finals)) == (False, False)


def test_two_zero_spreads_are_not_a_larger_spread():
    paper = _paper({"wide": [0.05], "narrow": [0.3]})
    ctx = _context(
        paper,
        {("wide", "ours"): {"payoff": np.zeros(20)}, ("narrow", "ours"): {"payoff": np.zeros(20)}},
    )
    claim = {"id": "C", "larger": "wide", "smaller": ["narrow"], "algorithm": "ours"}
    assert _verdicts("spread_larger", claim, ctx) == {INCONCLUSIVE}


def test_an_undefined_sign_is_inconclusive():
    paper = _paper({"e": [0.05]})
    ctx = _context(paper, {("e", "ours"): {"payoff": np.full(3, np.nan)}})
    claim = {
        "id": "C",
        "experiments": ["e"],
        "algorithm": "ours",
        "metric": "payoff",
        "sign": "positive",
    }
    assert _verdicts("exact_sign", claim, ctx) == {INCONCLUSIVE}


@pytest.mark.parametrize("relative, expected", [(False, NOT_REPRODUCED), (True, REPRODUCED)])
def test_spread_relative_to_the_panel_scale(relative, expected):
    # sd 2 at μ = 0.05 (P* = 0.625 at T' = 1000) against sd 5 at μ = 0.3 (P* = 22.5): smaller in
    # absolute terms, far larger relative to the oracle's payoff
    rng = np.random.default_rng(9)
    paper = _paper({"wide": [0.05], "narrow": [0.3]})
    ctx = _context(
        paper,
        {
            ("wide", "ours"): {"payoff": rng.normal(0, 2, 50)},
            ("narrow", "ours"): {"payoff": rng.normal(0, 5, 50)},
        },
    )
    claim = {
        "id": "C",
        "larger": "wide",
        "smaller": ["narrow"],
        "algorithm": "ours",
        "relative": relative,
    }
    assert _verdicts("spread_larger", claim, ctx) == {expected}


def test_claims_use_the_horizon_of_the_scale_being_built():
    # a smoke build caps T: the oracle simulated at the capped horizon is the exact optimum there
    paper = _paper({"e": [0.3]})
    paper["experiments"]["e"]["repetitions"] = 2
    ctx = _context(paper, {("e", "oracle"): {"payoff": np.full(2, oracle(0.3, 400.0).payoff)}})
    ctx.config.update(
        {
            "scale": "smoke",
            "scales": {"smoke": {"max_horizon": 400, "max_repetitions": 2, "checkpoints": 10}},
        }
    )
    assert _verdicts("oracle_exact", ORACLE_CLAIM, ctx) == {REPRODUCED}
    ctx.config["scales"]["smoke"]["max_horizon"] = None  # the full T' = 1000: not the optimum
    assert _verdicts("oracle_exact", ORACLE_CLAIM, ctx) == {NOT_REPRODUCED}


def test_claim_texts_print_numbers_not_numpy_reprs():
    """A claim's headline and statistic are read in the notebook: numbers formatted, never
    ``np.float64(1837.4999999999995)`` (issue 23)."""
    mus = {"a": 0.35, "b": 0.15, "c": 0.05}
    paper, ctx = _learner(mus)
    paper["algorithms"]["ours"]["label"] = "ours"
    claims = [
        ("oracle_exact", {"experiments": list(mus), **ORACLE_TOLERANCES}),
        (
            "exact_sign",
            {"experiments": ["a"], "algorithm": "oracle", "metric": "payoff", "sign": "positive"},
        ),
        ("close_to_oracle", {"experiments": list(mus), "algorithm": "ours", "share": 0.9}),
        (
            "regret_slope",
            {"experiments": list(mus), "algorithm": "ours", "low": -1.5, "high": -0.5},
        ),
        ("regret_grows", {"experiments": list(mus), "algorithm": "ours"}),
        ("spread_larger", {"larger": "c", "smaller": ["a", "b"], "algorithm": "ours"}),
        (
            "scaled_flat",
            {
                "experiments": list(mus),
                "algorithm": "ours",
                "quantity": "regret",
                "max_spread": 3.0,
            },
        ),
    ]
    for kind, claim in claims:
        for row in CLAIM_KINDS[kind].evaluate({"id": "C", **claim}, ctx):
            for text in (row["headline"], row["statistic"]):
                assert "np." not in text and "float64" not in text, (kind, text)
                assert not re.search(r"\d\.\d{13,}", text), (kind, text)
    # the degenerate branches (a mean regret ≤ 0) list their numbers too
    better = {(e, "ours"): {"payoff": np.full(5, _best(m) + 1.0)} for e, m in mus.items()}
    for kind, claim in claims[3:4] + claims[6:]:
        for row in CLAIM_KINDS[kind].evaluate({"id": "C", **claim}, _context(paper, better)):
            assert "np." not in row["statistic"] and "float64" not in row["statistic"]


@pytest.mark.parametrize(
    "value, digits, text",
    [
        (1837.4999999999995, 12, "1,837.5"),
        (-1690.2, 3, "-1,690"),
        (63610.4, 4, "63,610"),
        (1350000.0, 6, "1,350,000"),
        (5.5e-48, 2, "5.5e-48"),
        (1.2e-05, 2, "1.2e-5"),
        (-0.8218, 3, "-0.822"),
        (37.50000000000001, 6, "37.5"),
        (math.nan, 4, "nan"),
    ],
)
def test_numbers_in_claim_texts(value, digits, text):
    from timebandits.continuous.claims.common import shown

    assert shown(np.float64(value), digits) == text
