"""Paper 001's claim kinds on printed numbers and pairs (censored/claims/printed.py) and
``bound_ratio``'s ``min_share`` ("in general superior", §3.3), on tiny hand-worked instances.

Instances (as tests/test_censored_claim_kinds_theory.py): Indep arms, R ~ Beta(1, 1), C ~ Exp(rate),
no cost, so P(C > τ) = e^{−rate·τ} and ν_τ = ½(1 − e^{−rate·τ}) − λ(τ)e^{−rate·τ}:
  quarter  one arm, rate ln 4, τ = 1, λ = 0: P(C > 1) = 1/4 (one pair, optimal)
  twins    two such arms: arms 1 and 2 both optimal at τ = 1
  ladder   one arm, rate ln 2, τ ∈ {1, 2, 3}, λ(x) = 0.1x: ν = 0.2, 0.325, 0.4: optimum τ = 3."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from timebandits.censored.claims import CLAIM_KINDS
from timebandits.censored.claims.printed import exploration_limit, optimum_distance
from timebandits.censored.model import problem_of
from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.decidability import derived
from timebandits.core.verdicts.vocabulary import INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED


def _env(rate, arms=1, grid=(1.0,), slope=0.0):
    return {
        "family": "beta_exponential",
        "beta_a": [1.0] * arms,
        "beta_b": [1.0] * arms,
        "rate": [rate] * arms,
        "grid": list(grid),
        "cost": {"slope": 0.0},
        "penalty": {"threshold": math.inf, "below": slope, "above": slope},
    }


ALGS = ["rcucb", "ucb"]
PAPER = {
    "experiments": {
        "quarter": {"environment": _env(math.log(4.0)), "algorithms": ALGS},
        "twins": {"environment": _env(math.log(4.0), arms=2), "algorithms": ALGS},
        "ladder": {
            "environment": _env(math.log(2.0), grid=(1.0, 2.0, 3.0), slope=0.1),
            "algorithms": ALGS,
            "record": ["pairs"],
        },
    },
    "algorithms": {
        "rcucb": {"label": "RCUCB", "params": {"alpha": 2.0}},
        "ucb": {"label": "UCB", "params": {"alpha": 2.0}},
    },
    "printed": {"censoring": {"quarter": {"rcucb": 0.25, "ucb": [0.5, 0.01]}}},
}
CONFIG = {
    "base_seed": 7,
    "claims": {
        "alpha": 0.05,
        "bootstrap_samples": 400,
        "fragile_share": 0.1,
        "run_factors": [2, 4, 8, 16],
    },
}


def _frame(columns, ts):
    ts = np.asarray(ts, dtype=float)
    n = np.asarray(next(iter(columns.values()))).shape[0]
    return pd.DataFrame(
        {
            "repetition": np.repeat(np.arange(n), ts.size),
            "t": np.tile(ts, n),
            **{
                k: np.asarray(v, dtype=float).reshape(n, ts.size).ravel()
                for k, v in columns.items()
            },
        }
    )


def _ctx(frames=None):
    return ClaimContext(paper=PAPER, config=CONFIG, trace_of=lambda e, a: frames[(e, a)])


def _rows(claim, ctx):
    kind = CLAIM_KINDS[claim["kind"]]
    kind.check(claim, PAPER)
    return kind.evaluate(claim, ctx)


# --------------------------------------------------------------------------- bound_ratio, min_share


def _share_claim(min_share):
    return {
        "id": "X",
        "kind": "bound_ratio",
        "experiments": ["ladder"],
        "alphas": [1.5, 2.0, 3.0],
        "horizon": 1000,
        "min_share": min_share,
    }


@pytest.mark.parametrize(
    "ratios, min_share, expected",
    [
        ((0.5, 2.0, 0.9), 0.5, REPRODUCED),  # 2 of 3 below 1
        ((0.5, 2.0, 1.0), 0.5, NOT_REPRODUCED),  # 1 of 3 (a ratio of 1 is not below)
        ((0.5, 2.0, math.nan), 0.5, REPRODUCED),  # 1 of the 2 defined: exactly one half
        ((0.5, 2.0, 0.9), 0.75, NOT_REPRODUCED),  # 2/3 < 3/4
        ((math.nan,) * 3, 0.5, INCONCLUSIVE),
    ],
)
def test_bound_ratio_share_of_settings(ratios, min_share, expected):
    overrides = {
        f"ratio ladder {a:g}": (lambda real, r=r: r) for a, r in zip((1.5, 2.0, 3.0), ratios)
    }
    rows = _rows(_share_claim(min_share), derived(_ctx(), overrides=overrides))
    assert rows[0]["scope"] == "share of settings" and rows[0]["verdict"] == expected
    assert [r["role"] for r in rows[1:]] == ["supports"] * 3


def test_bound_ratio_without_min_share_decides_every_setting():
    claim = {**_share_claim(0.5)}
    del claim["min_share"]
    rows = _rows(claim, _ctx())
    assert len(rows) == 3 and all("role" not in r for r in rows)


def test_bound_ratio_share_witnesses():
    out = CLAIM_KINDS["bound_ratio"].witnesses(_share_claim(0.5), _ctx())
    assert [_rows(_share_claim(0.5), w)[0]["verdict"] for w in out.values()] == [
        REPRODUCED,
        NOT_REPRODUCED,
    ]


# --------------------------------------------------------------------------- printed_optimum


def test_optimum_distance_by_hand():
    assert optimum_distance(problem_of(PAPER, "ladder"), 1, 2.5) == pytest.approx(0.5)
    assert optimum_distance(problem_of(PAPER, "twins"), 2, 0.9) == pytest.approx(0.1)
    assert optimum_distance(problem_of(PAPER, "ladder"), 2, 3.0) == math.inf  # no arm 2


@pytest.mark.parametrize(
    "arm, limit, expected",
    [
        (1, 3.0, REPRODUCED),
        (1, 2.96, REPRODUCED),
        (1, 2.9, NOT_REPRODUCED),
        (2, 3.0, NOT_REPRODUCED),
    ],
)
def test_printed_optimum(arm, limit, expected):
    claim = {
        "id": "X",
        "kind": "printed_optimum",
        "experiments": ["ladder"],
        "arm": arm,
        "limit": limit,
        "tolerance": 0.05,
    }
    [row] = _rows(claim, _ctx())
    assert row["verdict"] == expected
    assert row["headline"].endswith(f"vs printed arm {arm}, τ = {limit:g} (±0.05)")


def test_printed_optimum_with_tied_arms():
    claim = {
        "id": "X",
        "kind": "printed_optimum",
        "experiments": ["twins"],
        "arm": 2,
        "limit": 1.0,
        "tolerance": 0.0,
    }
    [row] = _rows(claim, _ctx())
    assert (
        row["verdict"] == REPRODUCED and "arm 1, τ = 1.0000; arm 2, τ = 1.0000" in row["statistic"]
    )


def test_printed_optimum_witnesses():
    claim = {
        "id": "X",
        "kind": "printed_optimum",
        "experiments": ["ladder"],
        "arm": 2,
        "limit": 0.4,
        "tolerance": 0.05,
    }
    out = CLAIM_KINDS["printed_optimum"].witnesses(claim, _ctx())
    assert [_rows(claim, w)[0]["verdict"] for w in out.values()] == [REPRODUCED, NOT_REPRODUCED]


# --------------------------------------------------------------------------- printed_shares


def _shares(mean, runs=20, horizon=100.0):
    counts = mean * horizon + np.linspace(-0.1, 0.1, runs)
    return _frame({"censored": np.stack([counts / 10, counts], axis=1)}, [horizon / 10, horizon])


def test_printed_shares_rows():
    claim = {
        "id": "X",
        "kind": "printed_shares",
        "experiments": ["quarter"],
        "algorithms": ["rcucb", "ucb"],
        "tolerance": 0.01,
    }
    frames = {("quarter", "rcucb"): _shares(0.25), ("quarter", "ucb"): _shares(0.25)}
    rows = _rows(claim, _ctx(frames))
    # RCUCB at its printed 0.25; UCB 0.25 against a printed mean 0.5 ([mean, sd] in the file)
    assert [r["verdict"] for r in rows] == [REPRODUCED, NOT_REPRODUCED]
    assert rows[1]["headline"] == "0.2500 vs printed 0.5000 (±0.01)"


def test_printed_shares_needs_a_printed_value():
    claim = {
        "id": "X",
        "kind": "printed_shares",
        "experiments": ["twins"],
        "algorithms": ["rcucb"],
        "tolerance": 0.01,
    }
    with pytest.raises(ValueError, match="no printed censoring share"):
        CLAIM_KINDS["printed_shares"].check(claim, PAPER)


def test_printed_shares_witnesses():
    claim = {
        "id": "X",
        "kind": "printed_shares",
        "experiments": ["quarter"],
        "algorithms": ["rcucb", "ucb"],
        "tolerance": 0.05,
    }
    frames = {("quarter", a): _shares(0.3) for a in ("rcucb", "ucb")}
    out = CLAIM_KINDS["printed_shares"].witnesses(claim, _ctx(frames))
    verdicts = {side: {r["verdict"] for r in _rows(claim, w)} for side, w in out.items()}
    assert verdicts == {"favourable": {REPRODUCED}, "unfavourable": {NOT_REPRODUCED}}


# --------------------------------------------------------------------------- higher_limits


def _plays(l1, l2, l3):
    """Ladder plays at T per run: (1, τ=1), (1, τ=2) non-optimal, (1, τ=3) optimal."""
    return _frame({"plays_a1_l1": l1, "plays_a1_l2": l2, "plays_a1_l3": l3}, [100.0])


def test_exploration_limit_by_hand():
    # run 1: 1 play at τ = 1, 3 at τ = 2 -> (1 + 6)/4 = 1.75; run 2: 3 and 1 -> 5/4; the 96
    # optimal plays at τ = 3 do not count
    trace = _plays([1, 3], [3, 1], [96, 96])
    np.testing.assert_allclose(exploration_limit(trace, problem_of(PAPER, "ladder")), [1.75, 1.25])


def _limits_frames(high_first):
    runs = 10
    high = _plays(np.full(runs, 1), np.arange(3, 3 + runs), np.full(runs, 90))
    low = _plays(np.arange(3, 3 + runs), np.full(runs, 1), np.full(runs, 90))
    return {
        ("ladder", "rcucb"): high if high_first else low,
        ("ladder", "ucb"): low if high_first else high,
    }


@pytest.mark.parametrize("high_first, expected", [(True, REPRODUCED), (False, NOT_REPRODUCED)])
def test_higher_limits(high_first, expected):
    claim = {
        "id": "X",
        "kind": "higher_limits",
        "experiments": ["ladder"],
        "algorithm": "rcucb",
        "against": ["ucb"],
    }
    [row] = _rows(claim, _ctx(_limits_frames(high_first)))
    assert row["verdict"] == expected


def test_higher_limits_needs_pair_records_and_has_both_witnesses():
    claim = {
        "id": "X",
        "kind": "higher_limits",
        "experiments": ["quarter"],
        "algorithm": "rcucb",
        "against": ["ucb"],
    }
    with pytest.raises(ValueError, match="records no per-pair plays"):
        CLAIM_KINDS["higher_limits"].check(claim, PAPER)
    claim["experiments"] = ["ladder"]
    out = CLAIM_KINDS["higher_limits"].witnesses(claim, _ctx(_limits_frames(True)))
    assert [_rows(claim, w)[0]["verdict"] for w in out.values()] == [REPRODUCED, NOT_REPRODUCED]
