"""Paper 002's claim kinds, tables and figures helpers: verdicts on synthetic traces that come out
every way the evidence allows, Theorem 1's constants, and the instances table's exact values."""

from __future__ import annotations

import copy
import dataclasses
import functools
import math

import numpy as np
import pandas as pd
import pytest

from timebandits.anonymous.claims import constants as constants_claims
from timebandits.anonymous.claims.constants import ConstantOrder, constants_key
from timebandits.anonymous.claims.lemma1 import Lemma1
from timebandits.anonymous.claims.ranking import BestInMost
from timebandits.anonymous.figures_schematic import round_of
from timebandits.anonymous.report import instances_table
from timebandits.core.config import read_paper
from timebandits.core.verdicts.claims import evaluate_claims
from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.decidability import decide
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


@functools.lru_cache(maxsize=1)
def _real_experiments():
    """The real paper's experiments, read once (the tests only read them; test_anonymous_config
    checks the file)."""
    return read_paper("anonymous")["experiments"]


def _paper(experiments, algorithms, claims=(), environments=None):
    """A paper whose experiments are the real U{10..30} instance (Lemma 1's radius finite), or
    those of ``environments`` (experiment -> the real experiment whose environment it takes)."""
    real = _real_experiments()
    environments = environments or {}
    return {
        "paper": {"key": "anonymous"},
        "algorithms": {a: {"label": a, "policy": "ars_ucb"} for a in algorithms},
        "experiments": {
            e: {
                "algorithms": list(algorithms),
                "record": ["lemma1"],
                "environment": real[environments.get(e, "delay_10_30")]["environment"],
            }
            for e in experiments
        },
        "claims": list(claims),
    }


@pytest.fixture
def context(tmp_path):
    def build(paper, finals: dict):
        """finals: (experiment, algorithm) -> {metric: values per repetition at T}."""
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

    return build


def _best_claim(statistic="mean", experiments=("e1", "e2", "e3")):
    return {
        "id": "C3",
        "kind": "best_in_most",
        "where": "",
        "tested_as": "",
        "scope": "paper",
        "algorithm": "ours",
        "rivals": ["r1", "r2"],
        "experiments": list(experiments),
        "statistic": statistic,
        "tolerance": 0.1,
    }


@pytest.mark.parametrize(
    "ours_scale, expected", [(1.0, REPRODUCED), (1.5, NOT_REPRODUCED), (1.1, INCONCLUSIVE)]
)
def test_best_in_most_on_the_mean_comes_out_every_way(context, ours_scale, expected):
    """Rivals' regret ≈ 100 in three instances; ours = scale × 100 (+ small noise). Scale 1: ours
    is clearly within 10% everywhere; 1.5: 50% worse everywhere; 1.1: exactly at the margin, so
    neither test can decide."""
    rng = np.random.default_rng(0)
    claim = _best_claim()
    paper = _paper(claim["experiments"], ["ours", "r1", "r2"], [claim])
    finals = {}
    for exp in claim["experiments"]:
        base = 100 + rng.normal(0, 5, 40)
        finals[(exp, "r1")] = {"regret": base}
        finals[(exp, "r2")] = {"regret": base + 3}
        finals[(exp, "ours")] = {"regret": ours_scale * base + rng.normal(0, 0.5, 40)}
    rows = BestInMost.evaluate(claim, context(paper, finals))
    assert rows[0]["verdict"] == expected
    assert len(rows) == 1 + len(claim["experiments"])


def test_best_in_most_on_the_spread(context):
    """Ours has a fifth of the rivals' sd in 2 of 3 instances and five times it in the third:
    reproduced (2 > 3/2); with the spreads swapped in two instances, not reproduced."""
    rng = np.random.default_rng(1)
    claim = _best_claim("sd")
    paper = _paper(claim["experiments"], ["ours", "r1", "r2"], [claim])

    def finals(narrow):
        out = {}
        for exp in claim["experiments"]:
            for alg in ("r1", "r2"):
                out[(exp, alg)] = {"regret": 100 + rng.normal(0, 10, 60)}
            out[(exp, "ours")] = {"regret": 100 + rng.normal(0, 2 if exp in narrow else 50, 60)}
        return out

    assert (
        BestInMost.evaluate(claim, context(paper, finals({"e1", "e2"})))[0]["verdict"] == REPRODUCED
    )
    assert (
        BestInMost.evaluate(claim, context(paper, finals({"e1"})))[0]["verdict"] == NOT_REPRODUCED
    )


@pytest.mark.parametrize("misses, verdict", [(0, REPRODUCED), (1, REPRODUCED), (5, NOT_REPRODUCED)])
def test_lemma1_poisson_check(context, misses, verdict):
    """Allowed Σ 2/t³ = 0.3 in total: 0 or 1 miss is consistent with it (P(Poisson(0.3) ≥ 1) =
    0.26), 5 misses are not (P ≈ 1.6e-5)."""
    claim = {
        "id": "C9",
        "kind": "lemma1",
        "where": "",
        "tested_as": "",
        "scope": "paper",
        "experiments": ["e"],
        "algorithms": ["ours"],
    }
    paper = _paper(["e"], ["ours"], [claim])
    ctx = context(
        paper,
        {
            ("e", "ours"): {
                "lemma1_checks": [100, 100, 100],
                "lemma1_misses": [misses, 0, 0],
                "lemma1_bound": [0.1, 0.1, 0.1],
                "lemma1_ratio": [0.2, 0.3, 0.1],
            }
        },
    )
    summary, _ = evaluate_claims(paper, ctx, {"lemma1": Lemma1})
    assert summary["verdict"].iloc[0] == verdict


def test_constant_order_is_exact_and_sees_ties():
    """U{10..30} at α = 9: t2 dominates T* for f = k (log10 t2 = 9775), but from f = k² on
    t1 = exp((4·18/(3 − 2))²) (log10 t1 = 5184/ln 10 = 2251.4), which does not depend on f,
    does: c*_f stops decreasing, so "faster f, smaller constant" is not reproduced. Polynomial
    γ = 2 (d1 = ∞) has no order to check."""
    paper = read_paper("anonymous")  # read only: test_anonymous_config checks the file
    claim = next(c for c in paper["claims"] if c["kind"] == "constant_order")
    claim = {**claim, "experiments": ["delay_10_30", "polynomial_2"], "alphas": [9.0]}
    ctx = ClaimContext(paper=paper, config=copy.deepcopy(CONFIG), trace_of=None)
    rows = ConstantOrder.evaluate(claim, ctx)
    verdicts = {r["scope"]: r["verdict"] for r in rows}
    assert verdicts["polynomial_2"] == INCONCLUSIVE
    assert verdicts["delay_10_30 α = 9"] == NOT_REPRODUCED
    assert "log10 t1 = 2251.38" in rows[0]["statistic"]


def test_instances_table_is_exact():
    """One row per paper instance, with the spec's Table T1 quantities from the closed forms."""
    table = instances_table(read_paper("anonymous")).set_index("instance")
    assert len(table) == 12
    assert table.loc["delay_10_30", ["mean_offset", "d1"]].tolist() == [20.0, 18.0]
    assert table.loc["linear_increasing_100", "d1"] == pytest.approx(0.9 * 67)
    assert table.loc["discounted_09", "mean_offset"] == pytest.approx(10.0)
    assert math.isinf(table.loc["polynomial_2", "d1"]) and math.isinf(
        table.loc["polynomial_2", "mean_offset"]
    )
    assert table.loc["polynomial_2", "d2"] == pytest.approx(0.3332, abs=5e-5)
    assert table.loc["delay_10_30", "log_coefficient_alpha4"] == pytest.approx(869.7, abs=0.05)


def test_round_of_splits_an_arm_s_runs_into_its_rounds():
    """Arm 0 plays rounds of 1, 2, 3 slots; its 2nd and 3rd rounds follow each other."""
    plays = np.array([-1, 0, 1, 0, 0, 0, 0, 0, 1, 1])
    sizes = np.array([1, 2, 3, 4])
    assert round_of(plays, sizes, 0, 1) == (1, 1)
    assert round_of(plays, sizes, 0, 2) == (3, 4)
    assert round_of(plays, sizes, 0, 3) == (5, 7)
    with pytest.raises(ValueError, match="no complete round 4"):
        round_of(plays, sizes, 0, 4)


# ---- constant_order on a zero-delay instance, by hand ------------------------------------------
# Two arms, z ≡ 0: d1 = s1·E[z] = 0 and d2 = 0, so t1 = exp(0) = 1, N(d2) = 0 and
# t2 = exp(0) + N·F(k0) = 1 + 2F(k0) = T*; c*_f = 2T* + 8N + N·F(k0) = 18 + 6F(k0).
# k0 = the last k with F(k) < f(k+1) (condition (ii)): f = k: F(1) = 1 < 2, F(2) = 3 = f(3): k0 = 1,
# F = 1, c* = 24, t2 = 3; f = 2k: k0 = 1, F = 2, c* = 30, t2 = 5; f = k²: F(3) = 14 < 16,
# F(4) = 30 ≥ 25: k0 = 3, c* = 102, t2 = 29; f = k³: F(4) = 100 < 125, F(5) = 225 ≥ 216: k0 = 4,
# c* = 618, t2 = 201; f = 2^k: F(k) = f(k+1), k0 = 0, c* = 18, t2 = 1. Without delay a faster f
# gives a larger c* (F(k0) grows), except 2^k.
ZERO_C_STAR = {"f_k3": 618, "f_k2": 102, "f_2k": 30, "f_k": 24, "f_exp": 18}
ZERO_T2 = {"f_k3": 201, "f_k2": 29, "f_2k": 5, "f_k": 3, "f_exp": 1}
SIZES = {
    "f_k": {"kind": "power"},  # c and beta default to 1: f = k
    "f_2k": {"kind": "power", "c": 2},  # beta defaults to 1: f = 2k
    "f_k2": {"kind": "power", "beta": 2},  # c defaults to 1
    "f_k3": {"kind": "power", "c": 1, "beta": 3},
    "f_exp": {"kind": "exponential", "c": 0},
}
LABEL = {"f_k": "k", "f_2k": "2k", "f_k2": "k²", "f_k3": "k³", "f_exp": "2^k"}
DECREASING = ["f_k3", "f_k2", "f_2k", "f_k", "f_exp"]
PAPER_ORDER = ["f_k", "f_k2", "f_k3", "f_exp"]


def _zero_delay_paper():
    real = _real_experiments()
    return {
        "paper": {"key": "anonymous"},
        "algorithms": {
            a: {
                "label": LABEL[a],
                "policy": "ars_ucb",
                "params": {"alpha": 4.0, "round_size": size},
            }
            for a, size in SIZES.items()
        },
        "experiments": {
            "zero": {
                "algorithms": [],
                "environment": {
                    "means": [0.9, 0.1],
                    "kernel": {"kind": "delay", "low": 0, "high": 0},
                },
            },
            "poly2": {"algorithms": [], "environment": real["polynomial_2"]["environment"]},
        },
        "claims": [],
    }


def _order_claim(order, experiments=("zero",), alphas=(9.0,)):
    return {
        "id": "C4b",
        "kind": "constant_order",
        "where": "",
        "tested_as": "",
        "scope": "paper",
        "experiments": list(experiments),
        "alphas": list(alphas),
        "order": list(order),
        "rounding_tolerance": 1e-9,
    }


def _zero_ctx(**overrides):
    return ClaimContext(
        paper=_zero_delay_paper(), config=copy.deepcopy(CONFIG), trace_of=None, overrides=overrides
    )


def _order_row(order, verdict, tail=""):
    logs = [math.log10(ZERO_C_STAR[a]) for a in order]
    return {
        "scope": "zero α = 9",
        "verdict": verdict,
        "headline": f"log10 c* {logs[0]:.4g} → {logs[-1]:.4g}{tail}",
        "statistic": (
            "log10 c*_f along the order: "
            + ", ".join(f"{LABEL[a]}: {v:.6g}" for a, v in zip(order, logs))
            + "; log10 t1 = 0 (independent of f), log10 t2 = "
            + ", ".join(f"{math.log10(ZERO_T2[a]):.4g}" for a in order)
        ),
    }


INFINITE_D1 = {
    "scope": "poly2",
    "role": "supports",
    "verdict": INCONCLUSIVE,
    "headline": "d1 = ∞: c* is infinite for every f",
    "statistic": "d1 = ∞ (spec P13): Theorem 1's constant is infinite for every f, so "
    "there is no order to check",
}
ALPHA4 = {
    "scope": "zero α = 4",
    "role": "supports",
    "verdict": INCONCLUSIVE,
    "headline": "c* infinite or undefined for some f: no order",
    "statistic": "log10 c*_f along the order: inf, inf, inf, inf (an infinite constant has "
    "no order to check)",
}  # α ≤ 4: √α − 2 ≤ 0, t1 undefined for every f


def test_constant_order_by_hand_without_delay():
    rows = ConstantOrder.evaluate(_order_claim(DECREASING), _zero_ctx())
    assert rows == [_order_row(DECREASING, REPRODUCED)]  # 618 > 102 > 30 > 24 > 18
    rows = ConstantOrder.evaluate(_order_claim(PAPER_ORDER), _zero_ctx())
    assert rows == [
        _order_row(
            PAPER_ORDER,
            NOT_REPRODUCED,  # 24 < 102: rises
            " (not strictly decreasing; log10 t1 = 0)",
        )
    ]
    assert rows[0]["headline"] == "log10 c* 1.38 → 1.255 (not strictly decreasing; log10 t1 = 0)"


def test_constant_order_steps_must_exceed_the_claims_tolerance():
    """30 → 24 falls by log10(30/24) = 0.097 decades: a decrease under the config's 1e-9, a tie
    under a tolerance of 0.1 decades; a claim without a tolerance is refused."""
    claim = {**_order_claim(DECREASING), "rounding_tolerance": 0.1}
    (row,) = ConstantOrder.evaluate(claim, _zero_ctx())
    assert row["verdict"] == NOT_REPRODUCED
    bare = {k: v for k, v in _order_claim(DECREASING).items() if k != "rounding_tolerance"}
    with pytest.raises(ValueError, match=r"needs keys \['rounding_tolerance'\]"):
        ConstantOrder.check(bare, _zero_delay_paper())


def test_constant_order_rows_without_an_order():
    """d1 = ∞ (polynomial γ = 2) and α = 4 give supporting rows only; the zero-delay α = 9 row,
    after both, still decides. With no finite constant anywhere, an inconclusive row says so."""
    rows = ConstantOrder.evaluate(
        _order_claim(PAPER_ORDER, ["poly2", "zero"], [4.0, 9.0]), _zero_ctx()
    )
    assert rows == [
        INFINITE_D1,
        ALPHA4,
        _order_row(PAPER_ORDER, NOT_REPRODUCED, " (not strictly decreasing; log10 t1 = 0)"),
    ]
    rows = ConstantOrder.evaluate(_order_claim(PAPER_ORDER, ["poly2", "zero"], [4.0]), _zero_ctx())
    assert rows == [
        INFINITE_D1,
        ALPHA4,
        {
            "scope": "all",
            "verdict": INCONCLUSIVE,
            "headline": "no (experiment, α) with finite constants",
            "statistic": "every listed experiment has d1 = ∞ or an infinite or undefined c*_f at "
            "every α",
        },
    ]


@pytest.mark.parametrize("fall, verdict", [(1e-9, NOT_REPRODUCED), (2e-9, REPRODUCED)])
def test_constant_order_treats_a_rounding_step_as_equal(fall, verdict):
    """Steps of log10 c* must fall by more than 1e-9 (rounding of log10 c* ~ 1e3 is ~1e-13)."""
    ctx = _zero_ctx(**{constants_key("zero", 9.0): lambda logs: np.array([0.0, -fall])})
    (row,) = ConstantOrder.evaluate(_order_claim(["f_k", "f_k2"]), ctx)
    assert row["verdict"] == verdict


def test_constant_order_witnesses():
    """Favourable: log10 c* falling one decade per step from the first (1.38 → −1.62);
    unfavourable: all at the first. A real order that already falls can still be refuted; d1 = ∞
    can reach neither verdict."""
    c = _order_claim(PAPER_ORDER)
    witnesses = ConstantOrder.witnesses(c, _zero_ctx())
    assert set(witnesses) == {"favourable", "unfavourable"}
    (good,) = ConstantOrder.evaluate(c, witnesses["favourable"])
    (bad,) = ConstantOrder.evaluate(c, witnesses["unfavourable"])
    first = math.log10(24)
    assert (good["verdict"], good["headline"]) == (
        REPRODUCED,
        f"log10 c* {first:.4g} → {first - 3:.4g}",
    )
    assert (bad["verdict"], bad["headline"]) == (
        NOT_REPRODUCED,
        f"log10 c* {first:.4g} → {first:.4g} (not strictly decreasing; log10 t1 = 0)",
    )
    out = decide(_order_claim(DECREASING), ConstantOrder, _zero_ctx())
    assert (out["can_reproduce"], out["can_refute"]) == (True, True)
    out = decide(_order_claim(PAPER_ORDER, ["poly2"]), ConstantOrder, _zero_ctx())
    assert (out["can_reproduce"], out["can_refute"]) == (False, False)


def test_constant_order_witnesses_keep_a_partly_infinite_order(monkeypatch):
    """Were c* infinite for one f only (2^k here, by a stand-in), neither witness may invent an
    order: the (experiment, α) stays without a deciding row."""
    real = constants_claims.theorem1_constant

    def stand_in(means, alpha, d1, d2, kind, c, beta):
        out = real(means, alpha, d1, d2, kind, c, beta)
        return dataclasses.replace(out, log10_c_star=math.inf) if kind == "exponential" else out

    monkeypatch.setattr(constants_claims, "theorem1_constant", stand_in)
    out = decide(_order_claim(PAPER_ORDER), ConstantOrder, _zero_ctx())
    assert (out["can_reproduce"], out["can_refute"]) == (False, False)


@pytest.mark.parametrize("missing", ["experiments", "alphas", "order"])
def test_constant_order_check_names_a_missing_key(missing):
    c = {k: v for k, v in _order_claim(PAPER_ORDER).items() if k != missing}
    with pytest.raises(ValueError, match=rf"needs keys \['{missing}'\]"):
        ConstantOrder.check(c, _zero_delay_paper())


@pytest.mark.parametrize("alg", ["odaaf", "unknown"])
def test_constant_order_check_wants_ars_ucb_algorithms(alg):
    paper = _zero_delay_paper()
    paper["algorithms"]["odaaf"] = {"label": "ODAAF", "policy": "odaaf"}
    ConstantOrder.check(_order_claim(PAPER_ORDER), paper)
    with pytest.raises(ValueError, match=f"order lists '{alg}', which is not an ARS-UCB algorithm"):
        ConstantOrder.check(_order_claim([*PAPER_ORDER, alg]), paper)


# ---- lemma1: every row, by hand -----------------------------------------------------------------
LEMMA1 = {
    "id": "C9",
    "kind": "lemma1",
    "where": "",
    "tested_as": "",
    "scope": "paper",
    "experiments": ["e"],
    "algorithms": ["a", "b"],
}


def _lemma1_finals(checks, misses, bound, ratio):
    return {
        "lemma1_checks": checks,
        "lemma1_misses": misses,
        "lemma1_bound": bound,
        "lemma1_ratio": ratio,
    }


def _lemma1_row(scope, misses, checks, allowed, largest, p, verdict):
    return {
        "scope": scope,
        "verdict": verdict,
        "headline": (
            f"{misses} misses in {checks} checks (allowed {allowed}); "
            f"largest |ŝ − s|/rad' = {largest}"
        ),
        "statistic": (
            f"{misses} of {checks} arm-decisions with |ŝ_i − s_i| ≥ rad'_i(t), over "
            f"every run of 2 ARS-UCB algorithms; Lemma 1 allows Σ 2/t³ = {allowed} in "
            f"expectation; one-sided Poisson p = {p}; the largest |ŝ − s|/rad' seen is "
            f"{largest} (how conservative the radius is)"
        ),
    }


@pytest.mark.parametrize(
    "misses_a, p, verdict",
    [
        (1, 1 - math.exp(-0.3), REPRODUCED),  # P(Poisson(0.3) ≥ 1) = 1 − e^−0.3 = 0.26
        (0, 1.0, REPRODUCED),  # no miss: p = 1
        (5, 1 - sum(math.exp(-0.3) * 0.3**k / math.factorial(k) for k in range(5)), NOT_REPRODUCED),
    ],
)
def test_lemma1_sums_every_run_of_every_algorithm(context, misses_a, p, verdict):
    """a: 100 + 100 checks, b: 50 + 30; allowed 0.1 + 0.05 per algorithm (0.3 in all); every
    |ŝ − s|/rad' below 1, the largest 0.5 (a's second run)."""
    paper = _paper(["e"], ["a", "b"], [LEMMA1])
    ctx = context(
        paper,
        {
            ("e", "a"): _lemma1_finals([100, 100], [misses_a, 0], [0.1, 0.05], [0.2, 0.5]),
            ("e", "b"): _lemma1_finals([50, 30], [0, 0], [0.1, 0.05], [0.4, 0.1]),
        },
    )
    (row,) = Lemma1.evaluate(LEMMA1, ctx)
    assert row.pop("p_opposite") == pytest.approx(p, rel=1e-9)
    assert row == _lemma1_row("e", misses_a, 280, "0.3", "0.5", f"{p:.2g}", verdict)


def test_lemma1_rejects_only_below_alpha(context):
    """At p = α exactly the Poisson test does not reject (p < α rejects, as paired_verdict)."""
    paper = _paper(["e"], ["a"], [LEMMA1])
    ctx = context(paper, {("e", "a"): _lemma1_finals([100], [1], [0.3], [0.5])})
    from scipy.stats import poisson

    ctx.config["claims"]["alpha"] = float(poisson.sf(0, 0.3))
    (row,) = Lemma1.evaluate({**LEMMA1, "algorithms": ["a"]}, ctx)
    assert row["verdict"] == REPRODUCED
    ctx.config["claims"]["alpha"] = float(poisson.sf(0, 0.3)) * (1 + 1e-9)
    (row,) = Lemma1.evaluate({**LEMMA1, "algorithms": ["a"]}, ctx)
    assert row["verdict"] == NOT_REPRODUCED


def test_lemma1_rows_without_evidence(context):
    """An infinite radius (polynomial γ = 2) and an experiment with no arm-decision give
    inconclusive rows; the experiment listed after them is still checked."""
    claim = {**LEMMA1, "experiments": ["poly2", "none", "e"]}
    paper = _paper(claim["experiments"], ["a", "b"], [claim], {"poly2": "polynomial_2"})
    empty = _lemma1_finals([0, 0], [0, 0], [0.0, 0.0], [0.0, 0.0])
    one = _lemma1_finals([1, 0], [0, 0], [0.0, 0.0], [0.0, 0.0])
    ctx = context(
        paper,
        {
            (e, a): (one if (e, a) == ("e", "a") else empty)
            for e in claim["experiments"]
            for a in ("a", "b")
        },
    )
    rows = Lemma1.evaluate(claim, ctx)
    assert rows[0] == {
        "scope": "poly2",
        "role": "supports",
        "verdict": INCONCLUSIVE,
        "headline": "rad' = ∞ (d1 or d2 infinite): can never be missed",
        "statistic": "Lemma 1's radius is infinite here, so no estimate can miss "
        "it: no evidence either way",
    }
    assert rows[1] == {
        "scope": "none",
        "verdict": INCONCLUSIVE,
        "headline": "no decision after the initialisation",
        "statistic": "no arm-decision to check",
    }
    # one check, no miss, nothing allowed: p = 1
    assert rows[2]["verdict"] == REPRODUCED and rows[2]["headline"].startswith(
        "0 misses in 1 checks"
    )
    assert len(rows) == 3


def test_lemma1_witnesses(context):
    """With every real check a miss, the favourable witness still has none (can reproduce) and the
    unfavourable every one (can refute); where the radius is infinite, neither."""
    paper = _paper(["e"], ["a"], [LEMMA1])
    ctx = context(paper, {("e", "a"): _lemma1_finals([100], [100], [0.3], [2.0])})
    c = {**LEMMA1, "algorithms": ["a"]}
    assert set(Lemma1.witnesses(c, ctx)) == {"favourable", "unfavourable"}
    out = decide(c, Lemma1, ctx)
    assert (out["can_reproduce"], out["can_refute"]) == (True, True)
    paper = _paper(["p"], ["a"], [LEMMA1], {"p": "polynomial_2"})
    ctx = context(paper, {("p", "a"): _lemma1_finals([100], [0], [0.3], [0.5])})
    out = decide({**c, "experiments": ["p"]}, Lemma1, ctx)
    assert (out["can_reproduce"], out["can_refute"]) == (False, False)


@pytest.mark.parametrize("missing", ["experiments", "algorithms"])
def test_lemma1_check_names_a_missing_key(missing):
    paper = _paper(["e"], ["a", "b"])
    Lemma1.check(LEMMA1, paper)
    with pytest.raises(ValueError, match=rf"needs keys \['{missing}'\]"):
        Lemma1.check({k: v for k, v in LEMMA1.items() if k != missing}, paper)


def test_lemma1_check_wants_the_lemma1_record():
    paper = _paper(["e"], ["a", "b"])
    del paper["experiments"]["e"]["record"]
    with pytest.raises(ValueError, match="experiment 'e' does not record lemma1"):
        Lemma1.check(LEMMA1, paper)
