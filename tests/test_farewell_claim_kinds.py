"""Paper 000's §6.2 claim kind ``bound_regime`` (farewell/claims/leading_terms.py: BoundRegime) on
hand-built contexts: its three exact rows on the family τ ≡ d (terms worked out by hand below), its
supporting races (Wait-UCB against UCB-Simplex on hand-written pseudo-regrets, p-values from
scipy.stats.ttest_rel), its decidability witnesses (curves and terms as
core/verdicts/decidability.py documents them) and its config check. Every row is compared in full:
it is what the reader sees."""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import ttest_rel

from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.decidability import SPREAD, decide, derived
from timebandits.core.verdicts.vocabulary import (
    INCONCLUSIVE,
    NOT_REPRODUCED,
    REPRODUCED,
    STATISTICAL,
    SUPPORTS,
)
from timebandits.farewell.claims.leading_terms import BoundRegime

CONFIG = {
    "base_seed": 1,
    "claims": {"alpha": 0.05, "fragile_share": 0.1, "run_factors": [2, 4, 8, 16]},
}
PAIR = ["wait_ucb", "ucb_simplex"]
# K = 1, V = 1 (g_j = F(j)/μ^c_j, μ^c_j = E[min(τ, j)]). By hand:
#   short, P(τ=1) = P(τ=2) = 1/2: μ^c = (1, 3/2), mean 5/4 < Σ 1/μ^c = 1 + 2/3 = 5/3:
#          (WAIT) smaller;
#          g = (1/2, 2/3), Δ = 1/6, D²/Δ = 24: (WAIT) 24·5/4 = 30, (FJ) 24·5/3 = 40.
#   long,  τ ≡ 3: μ^c = (1, 2, 3), mean 2 > 1 + 1/2 + 1/3 = 11/6: (FJ) smaller;
#          g = (0, 0, 1/3), Δ = 1/3, D²/Δ = 27: (WAIT) 54, (FJ) 27·11/6 = 49.5.
#   tie,   τ ≡ 2: μ^c = (1, 2), mean 3/2 = 1 + 1/2: not strictly smaller, so (FJ) is favoured;
#          g = (0, 1/2), Δ = 1/2, D²/Δ = 8: (WAIT) 12, (FJ) 12.
ENVIRONMENTS = {"short": [[0.5, 0.5]], "long": [[0.0, 0.0, 1.0]], "tie": [[0.0, 1.0]]}
PAPER = {
    "experiments": {
        exp: {
            "environment": {"reward_prob": [1.0], "delay_pmf": pmf},
            "algorithms": PAIR + (["budget_ucb"] if exp == "long" else []),
        }
        for exp, pmf in ENVIRONMENTS.items()
    }
}
# Pseudo-regret at T = 10 of four paired runs (at t = 1 every run is at 0).
WAIT = [1.0, 2.0, 3.0, 4.0]  # mean 2.5
SIMPLEX = [3.0, 3.0, 6.0, 5.0]  # mean 4.25: Wait-UCB lower, paired t = 1.75/0.479 = 3.66
SIMPLEX_TIE = [1.5, 1.0, 3.5, 4.5]  # mean 2.625: differences (0.5, −1, 0.5, 0.5), t = 0.33
RUNS = {
    ("short", "wait_ucb"): WAIT,
    ("short", "ucb_simplex"): SIMPLEX,
    ("long", "wait_ucb"): WAIT,
    ("long", "ucb_simplex"): SIMPLEX,
    ("tie", "wait_ucb"): WAIT,
    ("tie", "ucb_simplex"): SIMPLEX_TIE,
}


def trace(final) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "repetition": [0, 1, 2, 3] * 2,
            "t": [1.0] * 4 + [10.0] * 4,
            "pseudo_regret": [0.0] * 4 + list(final),
        }
    )


def context(runs=RUNS) -> ClaimContext:
    traces = {key: trace(final) for key, final in runs.items()}
    # only the traces named above: any other (experiment, algorithm) is a KeyError
    return ClaimContext(paper=PAPER, config=CONFIG, trace_of=lambda e, a: traces[(e, a)])


def regime(max_delay, experiments=()):
    return {
        "id": "C10",
        "tested_as": "",
        "where": "",
        "kind": "bound_regime",
        "max_delay": max_delay,
        "experiments": list(experiments),
    }


def row(scope, verdict, headline, statistic):
    return {"scope": scope, "verdict": verdict, "headline": headline, "statistic": statistic}


def race(exp, verdict, favoured, wait, fj, p, orders):
    """The supporting race row, ``orders`` the hand-worked "μ̄^c … favours …" part."""
    return {
        "scope": f"{exp} race",
        "evidence": STATISTICAL,
        "role": SUPPORTS,
        "verdict": verdict,
        "headline": f"{favoured} lower pseudo-regret at T",
        "statistic": f"{orders} favours {favoured}; pseudo-regret at T: Wait-UCB {wait} vs "
        f"UCB-Simplex {fj}, paired p = {p:.2g}",
    }


def p_lower(lower, higher):
    """One-sided paired p-value of H1: E[lower] < E[higher] (scipy)."""
    return float(ttest_rel(lower, higher, alternative="less").pvalue)


ORDERS = {
    "short": "μ̄^c 1.25 vs Σ 1/μ^c 1.67: (WAIT) 30 vs (FJ) 40",
    "long": "μ̄^c 2 vs Σ 1/μ^c 1.83: (WAIT) 54 vs (FJ) 49.5",
    "tie": "μ̄^c 1.5 vs Σ 1/μ^c 1.5: (WAIT) 12 vs (FJ) 12",
}
# D = 3, τ ≡ d: waits μ^c_j = min(j, d). d = 1: (1, 1, 1), mean 1 vs Σ 1/μ = 3: (WAIT);
# d = 2: (1, 2, 2), 5/3 vs 2: (WAIT); d = 3: (1, 2, 3), 2 vs 11/6: (FJ). One switch.
FAMILY_3 = [
    row(
        "τ ≡ 1 (shortest waits)",
        REPRODUCED,
        "μ̄^c = 1 vs Σ 1/μ^c = 3: (WAIT) smaller",
        "D = 3, τ ≡ 1: (WAIT) ∝ 1, (FJ) ∝ 3",
    ),
    row(
        "τ ≡ 3 (longest waits)",
        REPRODUCED,
        "μ̄^c = 2 vs Σ 1/μ^c = 1.83: (FJ) smaller",
        "D = 3, τ ≡ 3: (WAIT) ∝ 2, (FJ) ∝ 1.833",
    ),
    row(
        "τ ≡ d, d = 1..3",
        REPRODUCED,
        "the smaller term switches 1 time(s): WAIT WAIT FJ",
        "μ̄^c vs Σ 1/μ^c per d: d=1: 1 vs 3, d=2: 1.67 vs 2, d=3: 2 vs 1.83",
    ),
]


def test_bound_regime_rows_in_full():
    assert BoundRegime.evaluate(regime(3), context()) == FAMILY_3


def test_bound_regime_rows_with_a_tie_at_the_longest_wait():
    # D = 2: d = 1: (1, 1), mean 1 vs 2: (WAIT); d = 2: (1, 2), 3/2 vs 3/2: a tie, not (WAIT)
    assert BoundRegime.evaluate(regime(2), context()) == [
        row(
            "τ ≡ 1 (shortest waits)",
            REPRODUCED,
            "μ̄^c = 1 vs Σ 1/μ^c = 2: (WAIT) smaller",
            "D = 2, τ ≡ 1: (WAIT) ∝ 1, (FJ) ∝ 2",
        ),
        row(
            "τ ≡ 2 (longest waits)",
            REPRODUCED,
            "μ̄^c = 1.5 vs Σ 1/μ^c = 1.5: (FJ) smaller",
            "D = 2, τ ≡ 2: (WAIT) ∝ 1.5, (FJ) ∝ 1.5",
        ),
        row(
            "τ ≡ d, d = 1..2",
            REPRODUCED,
            "the smaller term switches 1 time(s): WAIT FJ",
            "μ̄^c vs Σ 1/μ^c per d: d=1: 1 vs 2, d=2: 1.5 vs 1.5",
        ),
    ]


@pytest.mark.parametrize(
    "terms, verdicts, pattern",
    [
        (
            [(1, 2), (2, 1), (1, 2)],
            [REPRODUCED, NOT_REPRODUCED, NOT_REPRODUCED],
            "2 time(s): WAIT FJ WAIT",
        ),
        (
            [(2, 1), (2, 1), (2, 1)],
            [NOT_REPRODUCED, REPRODUCED, NOT_REPRODUCED],
            "0 time(s): FJ FJ FJ",
        ),
        (
            [(1, 2), (1, 2), (1, 2)],
            [REPRODUCED, NOT_REPRODUCED, NOT_REPRODUCED],
            "0 time(s): WAIT WAIT WAIT",
        ),
    ],
)
def test_bound_regime_needs_one_switch_the_right_way(terms, verdicts, pattern):
    """Terms per d replaced by hand: μ̄^c < Σ 1/μ^c means (WAIT) is the smaller."""
    ctx = derived(
        context(),
        overrides={
            "bound_regime terms": lambda _: [
                {"mean_cost": float(m), "sum_inverse_cost": float(s)} for m, s in terms
            ]
        },
    )
    rows = BoundRegime.evaluate(regime(3), ctx)
    assert [r["verdict"] for r in rows] == verdicts
    assert rows[2]["headline"] == f"the smaller term switches {pattern}"
    assert rows[2]["statistic"] == "μ̄^c vs Σ 1/μ^c per d: " + ", ".join(
        f"d={d}: {m} vs {s}" for d, (m, s) in enumerate(terms, start=1)
    )


def test_bound_regime_races():
    """short: (WAIT) smaller, Wait-UCB favoured and lower (p ≈ 0.018 < α): reproduced.
    long: (FJ) smaller, UCB-Simplex favoured but higher (opposite p ≈ 0.018): not reproduced.
    tie: UCB-Simplex favoured, slightly higher (p ≈ 0.62, opposite ≈ 0.38): inconclusive."""
    rows = BoundRegime.evaluate(regime(3, ["short", "long", "tie"]), context())
    assert rows[:3] == FAMILY_3  # the races only support
    p_short, p_long, p_tie = (
        p_lower(WAIT, SIMPLEX),
        p_lower(SIMPLEX, WAIT),
        p_lower(SIMPLEX_TIE, WAIT),
    )
    assert p_short < 0.05 and 1 - p_long < 0.05 and 0.05 < p_tie < 0.95
    assert rows[3:] == [
        race("short", REPRODUCED, "Wait-UCB", "2.5", "4.25", p_short, ORDERS["short"]),
        race("long", NOT_REPRODUCED, "UCB-Simplex", "2.5", "4.25", p_long, ORDERS["long"]),
        race("tie", INCONCLUSIVE, "UCB-Simplex", "2.5", "2.625", p_tie, ORDERS["tie"]),
    ]


def test_bound_regime_witnesses():
    """Favourable: terms d vs D + 1 − d = (1, 3), (2, 2), (3, 1): WAIT FJ FJ. Unfavourable: the real
    terms swapped: (3, 1), (2, 5/3), (11/6, 2): FJ FJ WAIT. Races: s = the largest mean
    pseudo-regret at T = 4.25; the favoured algorithm at s, the other at 3s = 12.75 (favourable) or
    the other way round, each run r times 1 + SPREAD·z_r, z evenly spread on [−1, 1]."""
    claim = regime(3, ["short", "long", "tie"])
    out = BoundRegime.witnesses(claim, context())
    assert set(out) == {"favourable", "unfavourable"}
    f = 1 + SPREAD * np.linspace(-1, 1, 4)
    low, high = 4.25 * f, 12.75 * f
    p_won, p_lost = p_lower(low, high), p_lower(high, low)
    assert p_won < 1e-6 and p_lost > 1 - 1e-6

    def races(won):
        verdict = REPRODUCED if won else NOT_REPRODUCED
        p = p_won if won else p_lost
        favoured, other = ("4.25", "12.75") if won else ("12.75", "4.25")
        return [
            race("short", verdict, "Wait-UCB", favoured, other, p, ORDERS["short"]),
            race("long", verdict, "UCB-Simplex", other, favoured, p, ORDERS["long"]),
            race("tie", verdict, "UCB-Simplex", other, favoured, p, ORDERS["tie"]),
        ]

    assert BoundRegime.evaluate(claim, out["favourable"]) == [
        row(
            "τ ≡ 1 (shortest waits)",
            REPRODUCED,
            "μ̄^c = 1 vs Σ 1/μ^c = 3: (WAIT) smaller",
            "D = 3, τ ≡ 1: (WAIT) ∝ 1, (FJ) ∝ 3",
        ),
        row(
            "τ ≡ 3 (longest waits)",
            REPRODUCED,
            "μ̄^c = 3 vs Σ 1/μ^c = 1: (FJ) smaller",
            "D = 3, τ ≡ 3: (WAIT) ∝ 3, (FJ) ∝ 1",
        ),
        row(
            "τ ≡ d, d = 1..3",
            REPRODUCED,
            "the smaller term switches 1 time(s): WAIT FJ FJ",
            "μ̄^c vs Σ 1/μ^c per d: d=1: 1 vs 3, d=2: 2 vs 2, d=3: 3 vs 1",
        ),
    ] + races(True)
    assert BoundRegime.evaluate(claim, out["unfavourable"]) == [
        row(
            "τ ≡ 1 (shortest waits)",
            NOT_REPRODUCED,
            "μ̄^c = 3 vs Σ 1/μ^c = 1: (FJ) smaller",
            "D = 3, τ ≡ 1: (WAIT) ∝ 3, (FJ) ∝ 1",
        ),
        row(
            "τ ≡ 3 (longest waits)",
            NOT_REPRODUCED,
            "μ̄^c = 1.83 vs Σ 1/μ^c = 2: (WAIT) smaller",
            "D = 3, τ ≡ 3: (WAIT) ∝ 1.833, (FJ) ∝ 2",
        ),
        row(
            "τ ≡ d, d = 1..3",
            REPRODUCED,
            "the smaller term switches 1 time(s): FJ FJ WAIT",
            "μ̄^c vs Σ 1/μ^c per d: d=1: 3 vs 1, d=2: 2 vs 1.67, d=3: 1.83 vs 2",
        ),
    ] + races(False)
    decided = decide(claim, BoundRegime, context())
    assert (decided["can_reproduce"], decided["can_refute"], decided["decidability"]) == (
        True,
        True,
        "",
    )


def test_bound_regime_check():
    BoundRegime.check(regime(2, ["short", "long"]), PAPER)  # max_delay 2 is the smallest allowed
    with pytest.raises(ValueError, match=r"needs keys \['experiments'\]"):
        BoundRegime.check({"kind": "bound_regime", "max_delay": 3}, PAPER)
    with pytest.raises(ValueError, match=r"needs keys \['max_delay'\]"):
        BoundRegime.check({"kind": "bound_regime", "experiments": ["short"]}, PAPER)
    with pytest.raises(ValueError, match=r"^max_delay must be >= 2$"):
        BoundRegime.check(regime(1, ["short"]), PAPER)
    with pytest.raises(ValueError, match="unknown experiment 'nope'"):
        BoundRegime.check(regime(3, ["short", "nope"]), PAPER)
    paper = {"experiments": {"solo": {**PAPER["experiments"]["short"], "algorithms": ["wait_ucb"]}}}
    with pytest.raises(ValueError, match="experiment 'solo' must run wait_ucb and ucb_simplex"):
        BoundRegime.check(regime(3, ["solo"]), paper)
