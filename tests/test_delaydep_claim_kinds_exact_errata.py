"""Paper 004's errata kinds (delaydep/claims/errata.py: erratum E1–E3 and fact1_printed) on
hand-worked numbers: E1's g values and E2's ratio from eq. (3) and the Sect. 3 example, E3's ratio
from the closed forms of Theorem 3's proof bound and statement (spec §4), and Fact 1 as printed on a
hand-written table of random_instance_checks.fact1_table's columns whose pairs are worked out by
hand. The verdict rules are also driven through ``ClaimContext.quantity`` (the hook the decidability
witnesses use) with chosen values, and the witnesses are evaluated side by side."""

import math
from fractions import Fraction as F

import pandas as pd
import pytest
from test_delaydep_claim_kinds_exact import claim, witness_rows

from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.vocabulary import INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED
from timebandits.delaydep.claims import CLAIM_KINDS
from timebandits.delaydep.claims import errata as claims_errata

CONFIG = {
    "base_seed": 7,
    "claims": {"alpha": 0.05, "fragile_share": 0.1, "run_factors": [2, 4, 8, 16]},
}
PAPER = {"paper": {"key": "delaydep"}, "experiments": {}}
ERRATUM = CLAIM_KINDS["erratum"]


def context(overrides=None) -> ClaimContext:
    def no_trace(experiment, algorithm):
        raise AssertionError("the errata read no trace")

    return ClaimContext(paper=PAPER, config=CONFIG, trace_of=no_trace, overrides=overrides or {})


# ---- E1 -----------------------------------------------------------------------------------------
# k = 3, μ = (1, 2/3, 1/2), d ≡ 2, eq. (3) with τ = m: g(1) = μ_1(1) = 1 − f(1);
# g(2) = (1 − f(2))(1 + 2/3)/2; g(3) = (1 + 2/3 + 1/2)/3 = 13/18 (τ = 3 > d).
#   f(τ) = 2^-τ: g = (1/2, (3/4)(5/6) = 5/8, 13/18): increasing, not g(2) < g(1) < g(3).
#   f ≡ 1/2:     g = (1/2, (1/2)(5/6) = 5/12, 13/18): the printed order.
E1 = claim("erratum", erratum="e1")


def e1_row(g, verdict):
    shown = tuple(round(float(x), 4) for x in g)
    return {
        "scope": "f(τ) = 2^-τ (as printed)",
        "verdict": verdict,
        "headline": f"g = {shown} (printed order g(2) < g(1) < g(3))",
        "statistic": (
            f"g = {tuple(str(x) for x in g)} = {shown}; with the constant f ≡ 1/2 "
            f"g = (0.5, 0.4167, 0.7222), which has the printed order"
        ),
    }


def test_e1_by_hand():
    rows = ERRATUM.evaluate(E1, context())
    assert rows == [e1_row((F(1, 2), F(5, 8), F(13, 18)), NOT_REPRODUCED)]
    assert rows[0]["headline"] == "g = (0.5, 0.625, 0.7222) (printed order g(2) < g(1) < g(3))"


@pytest.mark.parametrize(
    "g, verdict",
    [
        ((F(5, 8), F(1, 2), F(13, 18)), REPRODUCED),  # the printed order, strictly
        ((F(1, 2), F(1, 2), F(13, 18)), NOT_REPRODUCED),  # g(2) = g(1): not "<"
        ((F(1, 2), F(1, 4), F(1, 2)), NOT_REPRODUCED),  # g(1) = g(3): not "<"
    ],
)
def test_e1_order_is_strict(g, verdict):
    rows = ERRATUM.evaluate(E1, context({"erratum e1": lambda real: g}))
    assert rows == [e1_row(g, verdict)]


def test_e1_witnesses_arrange_the_values_whatever_the_context_held():
    """The witnesses set g themselves: the printed arrangement (5/8, 1/2, 13/18) or increasing,
    even where the values the context reads already had the printed order (an override standing
    for another instance)."""
    printed = (F(5, 8), F(1, 2), F(13, 18))
    for base in (context(), context({"erratum e1": lambda real: printed})):
        rows = witness_rows("erratum", E1, base)
        assert rows["favourable"] == [e1_row(printed, REPRODUCED)]
        assert rows["unfavourable"] == [e1_row((F(1, 2), F(5, 8), F(13, 18)), NOT_REPRODUCED)]


# ---- E2 -----------------------------------------------------------------------------------------
# Sect. 3: μ = (1, 1/2 − ε), d ≡ 1, f ≡ 1/2. Greedy stays on arm 1 (1/2 ≥ 1/2 − ε) and averages 1/2;
# alternating averages (1 + 1/2 − ε)/2, the best cycle (d ≡ 1: only the last arm matters, a switch
# pair pays 1 + 1/2 − ε, staying pays 1/2 or less). Ratio 1/(3/2 − ε): 5/7 = 0.7143 at ε = 1/10.
# errata.erratum_e2 (which also simulates greedy, tested in test_delaydep_theory.py) is replaced
# by these hand values: the kind is under test here, and the simulation's compile takes seconds.
E2 = claim("erratum", erratum="e2", epsilons=["1/10"])


@pytest.fixture(autouse=True)
def hand_e2(monkeypatch):
    def e2(eps):
        ratio = 1 / (F(3, 2) - F(eps))
        return {
            "ratio_closed_form": ratio,
            "ratio_long_run": float(F(1, 2) / ((F(3, 2) - F(eps)) / 2)),
        }

    monkeypatch.setattr(claims_errata, "erratum_e2", e2)


def test_e2_by_hand():
    (row,) = ERRATUM.evaluate(E2, context())
    assert row == {
        "scope": "ε = 1/10",
        "verdict": NOT_REPRODUCED,
        "headline": "ratio → 0.7143 (printed: at most 2/3)",
        "statistic": (
            "G(greedy)/G(π*) → 1/(3/2 − ε) = 0.7143, printed ≤ 2/3; "
            "simulated long-run ratio against Karp's OPT 0.7143"
        ),
    }


def test_e2_witnesses_put_the_ratio_at_two_thirds_or_one():
    rows = witness_rows("erratum", E2, context())
    assert [(r["verdict"], r["headline"]) for r in rows["favourable"] + rows["unfavourable"]] == [
        (REPRODUCED, "ratio → 0.6667 (printed: at most 2/3)"),
        (NOT_REPRODUCED, "ratio → 1.0000 (printed: at most 2/3)"),
    ]


# ---- E3 -----------------------------------------------------------------------------------------
# k = 1, δ = 1/2. Stage counts (Sect. 6, S = min{j : Σ_{s≤j}(1 + T^(1 − 2^−s)) ≥ T}):
#   T = 16: 5, 14, 26.3 → S = 3;  T = 256: 17, 82, 211, 393 → S = 4;
#   T = 65536: 257, 4354, 20739, 53508, 99850 → S = 5.
# Proof's bound k²S + √T + 4(S − 1)√(kT ln(2kS/δ)); statement k² ln ln T + √(kT(ln(k/δ) + ln ln T)).
E3_HORIZONS, E3_STAGES = [16.0, 256.0, 65536.0], [3, 4, 5]


def proof_bound(T, S):
    return S + math.sqrt(T) + 4 * (S - 1) * math.sqrt(T * math.log(4 * S))


def stated(T):
    return math.log(math.log(T)) + math.sqrt(T * (math.log(2) + math.log(math.log(T))))


RATIOS = [proof_bound(T, S) / stated(T) for T, S in zip(E3_HORIZONS, E3_STAGES)]  # 9.18, 12.8, 16.2


def e3_claim(horizons=2, **fields):
    return claim("erratum", erratum="e3", horizons=E3_HORIZONS[:horizons], k=1, delta=0.5, **fields)


def e3_headline(ratio, first, last, growth="1.5"):
    return (
        f"proof's bound / stated expression = {ratio:.3g} (first {first:.3g}, last {last:.3g}; "
        f"fails above × {growth}, holds if not growing)"
    )


@pytest.mark.parametrize("growth, verdict", [(None, INCONCLUSIVE), (1.3, NOT_REPRODUCED)])
def test_e3_by_hand(growth, verdict):
    """From 9.18 at T = 16 to 12.8 at T = 256 the ratio grows by 1.39: more than 1.3, less than
    the default 1.5."""
    fields = {} if growth is None else {"growth_factor": growth}
    rows = ERRATUM.evaluate(e3_claim(**fields), context())
    shown = "1.5" if growth is None else f"{growth:g}"
    assert rows[0] == {
        "scope": "k = 1, δ = 0.5, T = 16",
        "verdict": verdict,
        "headline": e3_headline(RATIOS[0], RATIOS[0], RATIOS[1], shown),
        "statistic": (
            f"S = 3; proof's bound {proof_bound(16, 3):.4g} / statement's expression "
            f"{stated(16):.4g} = {RATIOS[0]:.3g} ({RATIOS[0] / 2:.3g} per stage beyond "
            f"the first)"
        ),
        "ratio": pytest.approx(RATIOS[0]),
    }
    assert [(r["scope"], r["verdict"]) for r in rows[1:]] == [("k = 1, δ = 0.5, T = 256", verdict)]
    assert rows[1]["statistic"].startswith(f"S = 4; proof's bound {proof_bound(256, 4):.4g} / ")


@pytest.mark.parametrize(
    "ratios, verdict",
    [
        ([1.0, 1.0, 1.0], REPRODUCED),  # not growing
        ([1.0, 1.1, 0.9], REPRODUCED),  # last below first
        ([1.0, 1.2, 1.6], NOT_REPRODUCED),  # grew by more than 1.5
        ([1.0, 1.2, 1.5], INCONCLUSIVE),  # by exactly 1.5: not "more than"
        ([1.0, 2.0, 1.2], INCONCLUSIVE),  # first to last decides, not the middle
        ([1.0, 0.9, 1.2], INCONCLUSIVE),
    ],
)
def test_e3_compares_the_first_and_the_last_ratio(ratios, verdict):
    rows = ERRATUM.evaluate(e3_claim(3), context({"erratum e3": lambda real: ratios}))
    assert [r["verdict"] for r in rows] == [verdict] * 3
    assert [r["headline"] for r in rows] == [e3_headline(r, ratios[0], ratios[-1]) for r in ratios]


def test_e3_witnesses_hold_the_first_ratio_or_grow_it_linearly():
    rows = witness_rows("erratum", e3_claim(3), context())
    r0 = RATIOS[0]
    assert [(r["verdict"], r["headline"]) for r in rows["favourable"]] == [
        (REPRODUCED, e3_headline(r0, r0, r0))
    ] * 3
    assert [(r["verdict"], r["headline"]) for r in rows["unfavourable"]] == [
        (NOT_REPRODUCED, e3_headline(r0 * i, r0, 3 * r0)) for i in (1, 2, 3)
    ]


def test_erratum_check_names_what_is_wrong():
    ERRATUM.check(e3_claim(2), PAPER)  # two horizons suffice
    ERRATUM.check(E1, PAPER)
    with pytest.raises(ValueError, match=r"needs keys \['erratum'\]"):
        ERRATUM.check(claim("erratum"), PAPER)
    with pytest.raises(ValueError, match="^erratum must be e1, e2 or e3, got 'e9'$"):
        ERRATUM.check(claim("erratum", erratum="e9"), PAPER)
    with pytest.raises(ValueError, match=r"needs keys \['horizons', 'k', 'delta'\]"):
        ERRATUM.check(claim("erratum", erratum="e3"), PAPER)
    with pytest.raises(ValueError, match="^e3 compares the ratio over at least two horizons$"):
        ERRATUM.check(e3_claim(1), PAPER)


# ---- fact1_printed ------------------------------------------------------------------------------


def pairs_table(rows):
    """A table of random_instance_checks.fact1_table's columns from (instance, m, n, g(m), g(n),
    A − W) rows."""
    table = pd.DataFrame(rows, columns=["instance", "m", "n", "g_m", "g_n", "difference"])
    table["tied"] = table["g_m"] == table["g_n"]
    return table


# A − W = [μ_(m+1→n)(m+n) − μ_(m+1→n)(n)]/(m+n) (Supplement §2), by hand:
#   0: Fig. 3, μ = (1, 13/15), d = (2, 2), f = (3/10, 1/4): g = (7/10, 7/10), A − W = 13/180.
#   1: μ = (1, 2/3), d = (1, 2), f ≡ 1/4: g(1) = 3/4, g(2) = (1 + (2/3)(3/4))/2 = 3/4;
#      A = (1 + 3/4 + 2/3)/3 = 29/36, A − W = 29/36 − 3/4 = 1/18.
#   2: μ = (1, 1/2), d = (1, 1), f ≡ 1/4: g = (3/4, 3/4), A − W = 0 (d_2 = 1 < 2).
#   3: μ = (1, 1/4, 1/4), d ≡ 1, f ≡ 1/2: g = (1/2, 5/8, 1/2); the tied pair (1, 3) is below
#      max g = 5/8, so not optimal; every A − W is 0 (d ≡ 1).
FIG3 = (0, 1, 2, F(7, 10), F(7, 10), F(13, 180))
STRICT = (1, 1, 2, F(3, 4), F(3, 4), F(1, 18))
EQUAL = (2, 1, 2, F(3, 4), F(3, 4), F(0))
NOT_OPTIMAL = [
    (3, 1, 2, F(1, 2), F(5, 8), F(0)),
    (3, 1, 3, F(1, 2), F(1, 2), F(0)),
    (3, 2, 3, F(5, 8), F(1, 2), F(0)),
]
PRINTED = claim("fact1_printed", instances=4, k_max=4, d_max=3)
IDENTITY = "(the identity's [μ_(m+1→n)(m+n) − μ_(m+1→n)(n)]/(m+n) vanishes)"


def printed_context(monkeypatch, rows):
    monkeypatch.setattr(
        claims_errata, "random_instance_table", lambda c, config, key: pairs_table(rows)
    )
    return context()


def printed_row(instances, strict, pairs, verdict):
    return {
        "scope": f"{instances} random instances, {pairs} optimal tied pairs",
        "verdict": verdict,
        "headline": f"alternation strictly higher on {strict}/{pairs} optimal tied pairs",
        "statistic": (
            f"alternation − g(m) over the {pairs} pairs m < n with g(m) = g(n) = "
            f"max g: > 0 on {strict}/{pairs}, = 0 on {pairs - strict} {IDENTITY}"
        ),
    }


def test_fact1_printed_fails_on_an_equality_case(monkeypatch):
    ctx = printed_context(monkeypatch, [FIG3, STRICT, EQUAL, *NOT_OPTIMAL])
    assert CLAIM_KINDS["fact1_printed"].evaluate(PRINTED, ctx) == [
        printed_row(4, 2, 3, NOT_REPRODUCED)
    ]


def test_fact1_printed_holds_when_every_optimal_tie_is_strict(monkeypatch):
    ctx = printed_context(monkeypatch, [FIG3, STRICT, *NOT_OPTIMAL])
    assert CLAIM_KINDS["fact1_printed"].evaluate(PRINTED, ctx) == [printed_row(3, 2, 2, REPRODUCED)]


def test_fact1_printed_without_an_optimal_tie_is_inconclusive_on_every_witness(monkeypatch):
    ctx = printed_context(monkeypatch, NOT_OPTIMAL)
    empty = {
        "scope": "1 random instances, 0 optimal tied pairs",
        "verdict": INCONCLUSIVE,
        "headline": "no random instance has two optimal ranking policies",
        "statistic": "no pair to judge the Fact on",
    }
    assert CLAIM_KINDS["fact1_printed"].evaluate(PRINTED, ctx) == [empty]
    assert witness_rows("fact1_printed", PRINTED, ctx) == {
        "favourable": [empty],
        "unfavourable": [empty],
    }


def test_fact1_printed_witnesses_make_every_gain_positive_or_zero(monkeypatch):
    ctx = printed_context(monkeypatch, [FIG3, STRICT, EQUAL, *NOT_OPTIMAL])
    rows = witness_rows("fact1_printed", PRINTED, ctx)
    assert rows == {
        "favourable": [printed_row(4, 3, 3, REPRODUCED)],
        "unfavourable": [printed_row(4, 0, 3, NOT_REPRODUCED)],
    }


def test_fact1_printed_check_names_each_missing_key():
    full = claim("fact1_printed", instances=4, k_max=4, d_max=3)
    CLAIM_KINDS["fact1_printed"].check(full, PAPER)
    for key in ("instances", "k_max", "d_max"):
        with pytest.raises(ValueError, match=rf"needs keys \['{key}'\]"):
            CLAIM_KINDS["fact1_printed"].check({k: v for k, v in full.items() if k != key}, PAPER)
