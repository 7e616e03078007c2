"""Paper 003's exact claim kinds and close_to_oracle (continuous/claims/oracle.py), the
run_frequency events (continuous/claims/frequency.py) and the shared helpers
(continuous/claims/common.py) on tiny hand-built traces: every verdict each kind can give, and the
whole row a reader sees, with the expected numbers derived by hand from Props. 1–2 (P* = μ1 N*
− N*²/T'), Lemma 13 (i* ≤ ⌈p*/ε⌉ + 1), exact binomial sums and scipy's one-sample t-test."""

from __future__ import annotations

import copy
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from timebandits.continuous.claims import CLAIM_KINDS
from timebandits.continuous.claims.common import listed, regret_scale, shown, with_finals
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


def _paper(experiments: dict, epsilon=0.2):
    """experiment -> (means, T, λ); every experiment runs the oracle and the learner ``ours``."""
    return {
        "paper": {"key": "continuous"},
        "algorithms": {
            "oracle": {"label": "oracle", "policy": "oracle"},
            "ours": {
                "label": "ours",
                "policy": "ctsab",
                "params": {"epsilon": epsilon, "kappa": 1.0, "delta": 0.05},
            },
        },
        "experiments": {
            e: {
                "environment": {"means": m, "lam": lam},
                "horizon": horizon,
                "algorithms": ["oracle", "ours"],
            }
            for e, (m, horizon, lam) in experiments.items()
        },
    }


def _context(paper, finals: dict, reps=None):
    """Traces with one checkpoint: (experiment, algorithm) -> {metric: value per run}."""
    frames = {}
    for (exp, alg), metrics in finals.items():
        n = len(next(iter(metrics.values())))
        frames[(exp, alg)] = pd.DataFrame(
            {
                "repetition": np.arange(n) if reps is None else np.asarray(reps),
                "t": np.full(n, 7),
                **{m: np.asarray(v, float) for m, v in metrics.items()},
            }
        )
    return ClaimContext(
        paper=paper, config=copy.deepcopy(CONFIG), trace_of=lambda exp, alg: frames[(exp, alg)]
    )


def _rows(kind, claim, ctx):
    CLAIM_KINDS[kind].check({"kind": kind, **claim}, ctx.paper)
    return CLAIM_KINDS[kind].evaluate(claim, ctx)


def _same(row: dict, expected: dict) -> bool:
    """The whole row: the same keys, texts equal, numbers equal to 9 significant digits."""
    return set(row) == set(expected) and all(
        row[k] == pytest.approx(v, rel=1e-9) if isinstance(v, float) else row[k] == v
        for k, v in expected.items()
    )


def _witness_rows(kind, claim, ctx):
    return {
        side: CLAIM_KINDS[kind].evaluate(claim, w)
        for side, w in CLAIM_KINDS[kind].witnesses(claim, ctx).items()
    }


# --- oracle_exact --------------------------------------------------------------------------------
# "int": μ = 302/1001, T = 2002, λ = 2 → T' = 1001, μT'/2 = 151 (an integer, μT'/3 is not), so
#   P* = μ·151 − 151²/1001 = 151²/1001 = 22801/1001 = 22.778221778221… = μ²T'/4.
# "frac": μ = 1/4, T = 2004, λ = 2 → T' = 1002, μT'/2 = 125.25 (μT'·2 = 501 is an integer):
#   N = 125 gives 31.25 − 15625/1002 = 15.656187624750…, N = 126 gives 31.5 − 15876/1002 =
#   15.6556886…, so P* = 15.656187624750… (footnote 3).
# "tiny": μ = 0.9, T' = 3: N = 1 gives 0.9 − 1/3 = 0.5667, N = 2 gives 1.8 − 4/3 = 0.4667.
# λ ≠ 1 so that the rescaled horizons (0.1λ, 0.1T) and (10λ, 10T) must divide T by λ.
ORACLE_CASES = {
    "int": ([302 / 1001], 2002.0, 2.0),
    "frac": ([0.25, 0.1], 2004.0, 2.0),
    "tiny": ([0.9], 3.0, 1.0),
}
P_INT, P_FRAC, P_TINY = 22801 / 1001, 31.25 - 15625 / 1002, 0.9 - 1 / 3
# the config's assumed tolerances (continuous.yaml, C1)
TOLERANCES = {"rel_tol": 1e-12, "abs_tol": 1e-9}


def _oracle_ctx(case, payoffs):
    paper = _paper({case: ORACLE_CASES[case]})
    return _context(paper, {(case, "oracle"): {"payoff": payoffs}})


@pytest.mark.parametrize("case, best", [("int", P_INT), ("frac", P_FRAC), ("tiny", P_TINY)])
def test_oracle_exact_reproduced_on_the_optimum_and_only_the_first_run_is_read(case, best):
    rows = _rows(
        "oracle_exact",
        {"id": "C", "experiments": [case], **TOLERANCES},
        _oracle_ctx(case, [best, best + 1.0]),
    )
    assert [r["verdict"] for r in rows] == [REPRODUCED]


@pytest.mark.parametrize(
    "case, simulated, expected",
    [
        ("int", P_INT - 0.5, NOT_REPRODUCED),
        ("frac", P_FRAC + 1.0, NOT_REPRODUCED),
        # 5e-10 off (3e-11 relative) is within the brute-force check's abs_tol of 1e-9, but not
        # equal to 12 significant digits to the rescaled optima (rel_tol 1e-12)
        ("frac", P_FRAC + 5e-10, NOT_REPRODUCED),
        ("tiny", 0.5, NOT_REPRODUCED),
        ("int", math.nan, INCONCLUSIVE),
    ],
)
def test_oracle_exact_off_the_optimum(case, simulated, expected):
    rows = _rows(
        "oracle_exact",
        {"id": "C", "experiments": [case], **TOLERANCES},
        _oracle_ctx(case, [simulated]),
    )
    assert [r["verdict"] for r in rows] == [expected]


@pytest.mark.parametrize(
    "tolerances, expected",
    [
        ({"rel_tol": 1e-12, "abs_tol": 1e-9}, NOT_REPRODUCED),
        ({"rel_tol": 1e-10, "abs_tol": 1e-9}, REPRODUCED),
    ],
)
def test_oracle_exact_decides_with_the_claims_own_tolerances(tolerances, expected):
    """5e-10 off the "frac" optimum is 3e-11 relative: equal under a configured rel_tol of
    1e-10, not under 1e-12 (the config's)."""
    rows = _rows(
        "oracle_exact",
        {"id": "C", "experiments": ["frac"], **tolerances},
        _oracle_ctx("frac", [P_FRAC + 5e-10]),
    )
    assert [r["verdict"] for r in rows] == [expected]


def test_oracle_exact_rows_as_the_reader_sees_them():
    ctx = _context(
        _paper({"int": ORACLE_CASES["int"], "frac": ORACLE_CASES["frac"]}),
        {("int", "oracle"): {"payoff": [P_INT]}, ("frac", "oracle"): {"payoff": [1.0]}},
    )
    rows = _rows("oracle_exact", {"id": "C", "experiments": ["int", "frac"], **TOLERANCES}, ctx)
    # 22801/1001 = 22.77822177822177… to 6, 12 significant digits: 22.7782, 22.7782217782
    assert rows[0] == {
        "scope": "int",
        "verdict": REPRODUCED,
        "headline": "P* = 22.7782 (brute force 22.7782, μ1²T'/4 = 22.7782)",
        "statistic": "oracle payoff at T' = 1001 (12 significant digits): simulated 22.7782217782, "
        "best over integer N 22.7782217782, at (0.1λ, 0.1T) and (10λ, 10T) "
        "[22.7782217782, 22.7782217782], closed form 22.7782217782",
    }
    # 15.65618762475049… to 6 and 12 digits: 15.6562, 15.6561876248; no closed form
    assert rows[1] == {
        "scope": "frac",
        "verdict": NOT_REPRODUCED,
        "headline": "P* = 1 (brute force 15.6562)",
        "statistic": "oracle payoff at T' = 1002 (12 significant digits): simulated 1, best over "
        "integer N 15.6561876248, at (0.1λ, 0.1T) and (10λ, 10T) [15.6561876248, "
        "15.6561876248] (μ1T'/2 not an integer: floor or ceil, footnote 3)",
    }


def test_oracle_exact_witnesses():
    """Favourable: the simulated payoff put on the brute-force optimum (whatever was simulated);
    unfavourable: the simulated payoff v moved up by max(|v|, 1)·10⁻⁶."""
    ctx = _oracle_ctx("int", [3.0])
    rows = _witness_rows("oracle_exact", {"id": "C", "experiments": ["int"], **TOLERANCES}, ctx)
    assert set(rows) == {"favourable", "unfavourable"}
    assert [r["verdict"] for r in rows["favourable"]] == [REPRODUCED]
    assert rows["favourable"][0]["headline"].startswith("P* = 22.7782 (")
    assert [r["verdict"] for r in rows["unfavourable"]] == [NOT_REPRODUCED]
    # 3 + 3·1e-6 = 3.000003 to 12 digits
    assert "simulated 3.000003," in rows["unfavourable"][0]["statistic"]
    tiny = _witness_rows(
        "oracle_exact",
        {"id": "C", "experiments": ["tiny"], **TOLERANCES},
        _oracle_ctx("tiny", [0.0]),
    )
    # at 0 the step is the floor 1e-6 (above abs_tol): 0 + 1e-6, not 1e-6 × 0
    assert "simulated 1e-6," in tiny["unfavourable"][0]["statistic"]


# --- exact_sign ----------------------------------------------------------------------------------
SIGN_PAPER = _paper({"e": ([0.25], 1000.0, 1.0)})


def _sign(value, sign, runs=1):
    claim = {"id": "C", "experiments": ["e"], "algorithm": "ours", "metric": "payoff", "sign": sign}
    return claim, _context(SIGN_PAPER, {("e", "ours"): {"payoff": np.full(runs, value)}})


@pytest.mark.parametrize(
    "value, sign, expected",
    [
        (-0.5, "negative", REPRODUCED),
        (0.0, "negative", NOT_REPRODUCED),  # 0 is not negative
        (0.5, "negative", NOT_REPRODUCED),
        (0.5, "positive", REPRODUCED),
        (0.0, "positive", NOT_REPRODUCED),
        (-2.0, "positive", NOT_REPRODUCED),
        (math.nan, "negative", INCONCLUSIVE),
    ],
)
def test_exact_sign_verdicts(value, sign, expected):
    claim, ctx = _sign(value, sign)  # one run is enough for a deterministic policy
    assert [r["verdict"] for r in _rows("exact_sign", claim, ctx)] == [expected]


def test_exact_sign_row_as_the_reader_sees_it():
    # T' = 1000: −1234.5678901234 is −1.2345678901234 T/λ; 6 digits −1,234.57 and −1.23457,
    # 12 digits −1,234.56789012 and −1.23456789012
    claim, ctx = _sign(-1234.5678901234, "negative", runs=3)
    assert _rows("exact_sign", claim, ctx) == [
        {
            "scope": "e",
            "verdict": REPRODUCED,
            "headline": "payoff at T = -1,234.57 (-1.23457 T/λ)",
            "statistic": "ours: payoff at T = -1,234.56789012, i.e. -1.23456789012 in units of T/λ",
        }
    ]


def test_exact_sign_refuses_a_policy_that_is_not_deterministic():
    claim = {
        "id": "C",
        "experiments": ["e"],
        "algorithm": "ours",
        "metric": "payoff",
        "sign": "negative",
    }
    ctx = _context(SIGN_PAPER, {("e", "ours"): {"payoff": [-1.0, -2.0]}})
    with pytest.raises(ValueError, match="^e: ours is not deterministic$"):
        _rows("exact_sign", claim, ctx)


@pytest.mark.parametrize(
    "value, sign, favourable, unfavourable",
    [
        (-1234.5, "negative", "-1,234.5", "1,234.5"),  # the metric's own size
        (0.5, "negative", "-1", "1"),  # at least 1
        (-0.5, "positive", "1", "-1"),
    ],
)
def test_exact_sign_witnesses(value, sign, favourable, unfavourable):
    claim, ctx = _sign(value, sign)
    rows = _witness_rows("exact_sign", claim, ctx)
    assert set(rows) == {"favourable", "unfavourable"}
    assert rows["favourable"][0]["verdict"] == REPRODUCED
    assert rows["favourable"][0]["headline"].startswith(f"payoff at T = {favourable} (")
    assert rows["unfavourable"][0]["verdict"] == NOT_REPRODUCED
    assert rows["unfavourable"][0]["headline"].startswith(f"payoff at T = {unfavourable} (")


# --- check(): keys and ranges, with the messages a config author reads ---------------------------
CHECK_PAPER = _paper({"e": ([0.3], 1000.0, 1.0)})
FULL = {
    "oracle_exact": {"experiments": ["e"], **TOLERANCES},
    "exact_sign": {
        "experiments": ["e"],
        "algorithm": "ours",
        "metric": "payoff",
        "sign": "negative",
    },
    "close_to_oracle": {"experiments": ["e"], "algorithm": "ours", "share": 0.9},
    "run_frequency": {"experiments": ["e"], "algorithm": "ours", "event": "lemma15", "level": 0.9},
}


@pytest.mark.parametrize("kind, key", [(k, key) for k, c in FULL.items() for key in c])
def test_check_names_a_missing_key(kind, key):
    claim = {"kind": kind, **{k: v for k, v in FULL[kind].items() if k != key}}
    with pytest.raises(ValueError, match=rf"claim kind '{kind}' needs keys \['{key}'\]"):
        CLAIM_KINDS[kind].check(claim, CHECK_PAPER)


@pytest.mark.parametrize(
    "kind, key, value, message",
    [
        ("close_to_oracle", "share", 0, r"share must lie in \(0, 1\], got 0$"),
        ("close_to_oracle", "share", 1.5, r"share must lie in \(0, 1\], got 1.5$"),
        ("run_frequency", "level", 0, r"level must lie in \(0, 1\), got 0$"),
        ("run_frequency", "level", 1, r"level must lie in \(0, 1\), got 1$"),
        ("run_frequency", "level", 1.5, r"level must lie in \(0, 1\), got 1.5$"),
        ("oracle_exact", "rel_tol", 1e-6, r"rel_tol must lie in \[0, 1e-06\), got 1e-06$"),
        ("oracle_exact", "abs_tol", -1e-9, r"abs_tol must lie in \[0, 1e-06\), got -1e-09$"),
        (
            "run_frequency",
            "event",
            "lemma99",
            r"event must be one of \('lemma13', 'lemma15', 'lemma22', 'identified'\), "
            r"got 'lemma99'$",
        ),
    ],
)
def test_check_rejects_a_value_out_of_range(kind, key, value, message):
    claim = {"kind": kind, **FULL[kind], key: value}
    with pytest.raises(ValueError, match=message):
        CLAIM_KINDS[kind].check(claim, CHECK_PAPER)


def test_check_accepts_the_edges_of_the_ranges():
    CLAIM_KINDS["close_to_oracle"].check({**FULL["close_to_oracle"], "share": 1}, CHECK_PAPER)
    for level in (0.001, 0.999):
        CLAIM_KINDS["run_frequency"].check({**FULL["run_frequency"], "level": level}, CHECK_PAPER)


# --- close_to_oracle -----------------------------------------------------------------------------
# μ = 0.3, T' = 1001: N* = 150 (μT'/2 = 150.15), P* = 45 − 22500/1001 = 22.5224775…
P_CLOSE = 45 - 22500 / 1001


def _g(x, digits):
    """The text of a number below 1,000 and above 10⁻⁴: ``digits`` significant digits."""
    return f"{x:.{digits}g}"


def test_close_to_oracle_row_as_the_reader_sees_it():
    """Three runs at 0.92, 0.95 and 0.97 of P*: mean 0.94667 P*, sd 0.025166 P*, against
    0.9 P*: t = 0.04667/(0.025166/√3) = 3.21 on 2 df, one-sided p ≈ 0.042 (scipy below)."""
    factors = np.array([0.92, 0.95, 0.97])
    payoff = factors * P_CLOSE
    ctx = _context(_paper({"e": ([0.3, 0.2], 1001.0, 1.0)}), {("e", "ours"): {"payoff": payoff}})
    claim = {"id": "C", "experiments": ["e"], "algorithm": "ours", "share": 0.9}
    mean, se = 2.84 / 3 * P_CLOSE, np.std(factors, ddof=1) / math.sqrt(3) * P_CLOSE
    target = 0.9 * P_CLOSE
    p = stats.ttest_1samp(payoff, target, alternative="greater").pvalue
    assert 0.03 < p < 0.05 and 0.3 < se < 0.35  # hand values above
    [row] = _rows("close_to_oracle", claim, ctx)
    assert _same(
        row,
        {
            "scope": "e",
            "verdict": REPRODUCED,
            "headline": "payoff = 0.947 × the oracle's (needs ≥ 0.9)",
            "statistic": f"mean payoff at T {_g(mean, 6)} ± {_g(se, 2)} against 0.9 × P* = "
            f"{_g(target, 6)}; one-sided t-test p = {_g(p, 2)} (opposite {_g(1 - p, 2)})",
            "ratio": 2.84 / 3,
            "p_claimed": p,
            "p_opposite": 1 - p,
        },
    )


def test_close_to_oracle_witnesses_put_every_run_at_plus_or_minus_the_oracle():
    ctx = _context(
        _paper({"e": ([0.3], 1001.0, 1.0)}), {("e", "ours"): {"payoff": [10.0, 11.0, 12.0]}}
    )
    claim = {"id": "C", "experiments": ["e"], "algorithm": "ours", "share": 0.9}
    rows = _witness_rows("close_to_oracle", claim, ctx)
    # runs at P*·(0.99, 1, 1.01) (mean exactly P*), or at −P*·(0.99, 1, 1.01)
    assert rows["favourable"][0]["verdict"] == REPRODUCED
    assert rows["favourable"][0]["ratio"] == pytest.approx(1.0)
    assert rows["unfavourable"][0]["verdict"] == NOT_REPRODUCED
    assert rows["unfavourable"][0]["ratio"] == pytest.approx(-1.0)


# --- run_frequency -------------------------------------------------------------------------------
def _frequency(event, finals, level=0.6, means=(0.75,), epsilon=0.2, experiments=("e",)):
    paper = _paper({e: (list(means), 1000.0, 1.0) for e in experiments}, epsilon=epsilon)
    ctx = _context(paper, {(e, "ours"): finals for e in experiments})
    claim = {
        "id": "C",
        "experiments": list(experiments),
        "algorithm": "ours",
        "event": event,
        "level": level,
    }
    return _rows("run_frequency", claim, ctx)


def test_run_frequency_lemma22_row_as_the_reader_sees_it():
    """μ1 = 0.75: (2/3)μ1 = 0.5 and 2μ1 = 1.5 are inside; 0.4999 and 1.5001 are not; a run whose
    estimation never stopped (NaN) is not judged. 3 of 5 at level 0.6:
    P(X ≥ 3) = 10·0.6³·0.4² + 5·0.6⁴·0.4 + 0.6⁵ = 0.3456 + 0.2592 + 0.07776 = 0.68256,
    P(X ≤ 3) = 1 − 0.2592 − 0.07776 = 0.66304: inconclusive."""
    estimate = [0.5, 0.4999, 1.5, 1.5001, 0.75, np.nan]
    what = "(2/3)μ1 ≤ μ̂[1] ≤ 2μ1"
    [row] = _frequency("lemma22", {"stop_estimate": estimate}, means=(0.75, 0.5))
    assert _same(
        row,
        {
            "scope": "e",
            "verdict": INCONCLUSIVE,
            "headline": f"3/5 runs with {what} (needs ≥ 0.6)",
            "statistic": f"{what} in 3 of 5 judged runs (1 not judged); exact binomial p = 0.68 "
            "for a rate above 0.6, 0.66 for one below",
            "p_claimed": 0.68256,
            "p_opposite": 0.66304,
        },
    )


def test_run_frequency_lemma15_bounds_and_undefined_runs():
    """μ = 1/4: |μ̂ − μ| < μ holds for 0.3 and 0.26, not at 0.5 or 0 (= μ away), the NaN run is
    not judged. 2 of 4 at level 0.5: P(X ≥ 2) = 11/16 = 0.6875, P(X ≤ 2) = 0.6875."""
    rows = _frequency(
        "lemma15", {"stop_estimate": [0.3, 0.5, 0.0, 0.26, np.nan]}, level=0.5, means=(0.25,)
    )
    [row] = rows
    assert _same(
        row,
        {
            "scope": "e",
            "verdict": INCONCLUSIVE,
            "headline": "2/4 runs with |μ̂ − μ| < μ (needs ≥ 0.5)",
            "statistic": "|μ̂ − μ| < μ in 2 of 4 judged runs (1 not judged); exact binomial "
            "p = 0.69 for a rate above 0.5, 0.69 for one below",
            "p_claimed": 0.6875,
            "p_opposite": 0.6875,
        },
    )


@pytest.mark.parametrize(
    "epsilon, bound",
    [
        (0.2, 5),  # p* = 3 ln 4/ln 1000 = log10 4 = 0.60206; ⌈0.60206/0.2⌉ + 1 = 5
        ({"phase_base": 3}, 5),  # ε = ln 3/ln T': p*/ε = 3 ln 4/ln 3 = 3.786; ⌈3.786⌉ + 1 = 5
        (0.1, 8),
    ],
)  # ⌈6.0206⌉ + 1 = 8
def test_run_frequency_lemma13(epsilon, bound):
    """1 ≤ i* ≤ bound: a run that never stopped (i* = 0) fails, i* = 1 and i* = bound hold,
    bound + 1 fails. 2 of 4 at level 0.1: P(X ≥ 2) = 1 − 0.9⁴ − 4·0.1·0.9³ = 0.0523,
    P(X ≤ 2) = 1 − 4·0.1³·0.9 − 0.1⁴ = 0.9963."""
    rows = _frequency(
        "lemma13", {"i_star": [0, 1, bound, bound + 1]}, level=0.1, means=(0.25,), epsilon=epsilon
    )
    what = f"1 ≤ i* ≤ ⌈p*/ε⌉ + 1 = {bound}"
    [row] = rows
    assert _same(
        row,
        {
            "scope": "e",
            "verdict": INCONCLUSIVE,
            "headline": f"2/4 runs with {what} (needs ≥ 0.1)",
            "statistic": f"{what} in 2 of 4 judged runs (0 not judged); exact binomial p = 0.052 "
            "for a rate above 0.1, 1 for one below",
            "p_claimed": 0.0523,
            "p_opposite": 0.9963,
        },
    )


def test_run_frequency_identified_judges_the_finished_runs():
    """Finished = i* ≥ 1 and no identification cut: runs 2, 4, 5; arm 1 returned in 2 of them.
    2 of 3 at level 0.4: P(X ≥ 2) = 3·0.4²·0.6 + 0.4³ = 0.352, P(X ≤ 2) = 1 − 0.064 = 0.936."""
    finals = {"i_star": [0, 1, 2, 1, 3], "id_cut": [0, 0, 1, 0, 0], "identified": [1, 1, 1, 0, 1]}
    what = "LUCB1 returns arm 1 (runs whose identification finished before T)"
    [row] = _frequency("identified", finals, level=0.4)
    assert _same(
        row,
        {
            "scope": "e",
            "verdict": INCONCLUSIVE,
            "headline": f"2/3 runs with {what} (needs ≥ 0.4)",
            "statistic": f"{what} in 2 of 3 judged runs (2 not judged); exact binomial p = 0.35 "
            "for a rate above 0.4, 0.94 for one below",
            "p_claimed": 0.352,
            "p_opposite": 0.936,
        },
    )


def test_run_frequency_without_a_judged_run_and_with_one():
    """No run finished in "a": an inconclusive row, and "b" is still judged. One finished run
    that returned arm 1 at level 0.01: P(X ≥ 1) = 0.01 < α: reproduced; one that did not:
    P(X ≤ 0) = 0.99, inconclusive; at level 0.99, P(X ≤ 0) = 0.01: not reproduced."""
    what = "LUCB1 returns arm 1 (runs whose identification finished before T)"
    none = {"i_star": [0, 0], "id_cut": [0, 0], "identified": [1, 1]}
    one = {"i_star": [0, 2], "id_cut": [0, 0], "identified": [1, 1]}
    paper = _paper({"a": ([0.75], 1000.0, 1.0), "b": ([0.75], 1000.0, 1.0)})
    ctx = _context(paper, {("a", "ours"): none, ("b", "ours"): one})
    claim = {
        "id": "C",
        "experiments": ["a", "b"],
        "algorithm": "ours",
        "event": "identified",
        "level": 0.01,
    }
    rows = _rows("run_frequency", claim, ctx)
    assert rows[0] == {
        "scope": "a",
        "verdict": INCONCLUSIVE,
        "headline": "no run reached the event",
        "statistic": what,
    }
    assert [r["scope"] for r in rows] == ["a", "b"] and rows[1]["verdict"] == REPRODUCED
    missed = {**one, "identified": [1, 0]}
    assert _frequency("identified", missed, level=0.01)[0]["verdict"] == INCONCLUSIVE
    assert _frequency("identified", missed, level=0.99)[0]["verdict"] == NOT_REPRODUCED


# --- claims/common.py: number texts, witness traces, the regret scale -----------------------------
@pytest.mark.parametrize(
    "value, digits, text",
    [
        (1000.0, 4, "1,000"),
        (999.5, 4, "999.5"),
        (1000.0, 6, "1,000"),  # 1,000.00 → 1,000
        (1e15, 4, "1e15"),
        (-2.5e15, 3, "-2.5e15"),
        (1.23456789, None, "1.235"),
    ],
)  # default 4 digits
def test_shown_at_the_edges(value, digits, text):
    assert (shown(value) if digits is None else shown(value, digits)) == text


def test_listed():
    assert listed([1350.0, 337.5, 37.5]) == "[1,350, 337.5, 37.5]"
    assert listed([1.23456789, 2.0]) == "[1.23457, 2]"  # 6 digits by default
    assert listed([1.23456789], 3) == "[1.23]"


def test_with_finals_replaces_only_the_named_traces():
    paper = _paper({"a": ([0.25], 1000.0, 1.0), "b": ([0.25], 1000.0, 1.0)})
    real = {"payoff": [1.0, 2.0, 3.0]}
    ctx = _context(paper, {(e, a): real for e in "ab" for a in ("ours", "oracle")}, reps=[4, 9, 11])
    witness = with_finals(ctx, "ours", "payoff", {"a": 10.0})
    # spread(3) = 1 + 0.01·(−1, 0, 1), by sorted repetition
    assert np.allclose(witness.final("a", "ours", "payoff"), [9.9, 10.0, 10.1], rtol=0, atol=1e-12)
    assert np.array_equal(witness.final("b", "ours", "payoff"), [1.0, 2.0, 3.0])
    assert np.array_equal(witness.final("a", "oracle", "payoff"), [1.0, 2.0, 3.0])


@pytest.mark.parametrize(
    "regrets, scale",
    [
        ({"a": 0.5, "b": -0.25}, 0.5),
        ({"a": 0.5, "b": 2.0}, 2.0),
        ({"a": 0.25, "b": 0.0}, 0.25),
        ({"a": 0.0, "b": 0.0}, 1.0),
        ({"a": math.nan, "b": 0.0}, 1.0),
        ({"a": math.inf, "b": 0.5}, 0.5),
    ],
)
def test_regret_scale(regrets, scale):
    """The largest |mean regret at T|, 1 where none is positive and finite; P* = 15.625 at
    μ = 1/4, T' = 1000 (N* = 125: 31.25 − 15.625)."""
    paper = _paper({e: ([0.25], 1000.0, 1.0) for e in regrets})
    ctx = _context(
        paper, {(e, "ours"): {"payoff": [15.625 - r, 15.625 - r]} for e, r in regrets.items()}
    )
    assert regret_scale(ctx, list(regrets), "ours") == scale
