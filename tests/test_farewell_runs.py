"""Tests of the runs of ``timebandits.farewell.policies.run_f2a``: epochs in which the last chosen
pair provably stays the only maximiser and no other index is computed (``_window``).

They rest on one property, checked here directly: every index is non-decreasing in L = ln(s − 1)
for fixed statistics, as computed in floating point. The kernel must then choose exactly as an
index computation over every pair in every epoch does: long games are compared epoch by epoch
with the plain-Python reference of ``test_farewell_policies`` (which computes every index, every
epoch), with windows long enough (s/2^WINDOW_SHIFT epochs) for long runs to occur.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from test_farewell_policies import (
    BUDGET,
    BV1,
    DEFAULT,
    FINITE,
    K1D2,
    K2D3,
    SIMPLEX,
    WAIT,
    _kernel,
    _ref_at,
    _ref_run,
)

from timebandits.core.sim.checkpoints import checkpoint_grid
from timebandits.farewell import policies as P


def _random_states(rng, size):
    n = rng.integers(1, 10**6, size=size).astype(float)
    c = n * rng.uniform(1.0, 10.0, size=size)
    r = np.floor(n * rng.uniform(0.0, 1.0, size=size))
    return n, r, c


@pytest.mark.parametrize("cost_scale,rho,lam", [(10.0, 2.0, 0.1), (1.0, 1.0, 1.0), (5.0, 0.5, 0.2)])
def test_indices_non_decreasing_in_log_s(cost_scale, rho, lam):
    rng = np.random.default_rng(2020)
    n, r, c = _random_states(rng, 3000)
    alpha, beta = P.wait_ucb_constants(10)
    logs = np.log(np.sort(rng.integers(2, 10**8, size=40)).astype(float))
    for i in range(n.size):
        inv_n = 1.0 / n[i]
        rbar, cbar = r[i] * inv_n, c[i] * inv_n / cost_scale
        inv_c = 1.0 / cbar
        j = i % 10
        values = [
            (
                P.wait_ucb_index(r[i] / c[i], inv_n, alpha[j], beta[j], L),
                P.ucb_simplex_index(rbar, cbar, inv_n, rho, L),
                P.budget_ucb_index(rbar, cbar, inv_c, inv_n, rho, lam, L),
                P.ucb_bv1_index(rbar, inv_c, inv_n, rho, lam, L),
            )
            for L in logs
        ]
        values = np.array(values)
        assert np.all(values[1:] >= values[:-1])  # +inf only ever follows +inf
        # also between neighbouring integers, where ln(s − 1) changes least
        s = int(rng.integers(10**6, 10**8))
        low, high = math.log(s - 1.0), math.log(float(s))
        assert low < high
        assert P.wait_ucb_index(r[i] / c[i], inv_n, alpha[j], beta[j], low) <= P.wait_ucb_index(
            r[i] / c[i], inv_n, alpha[j], beta[j], high
        )
        assert P.budget_ucb_index(rbar, cbar, inv_c, inv_n, rho, lam, low) <= P.budget_ucb_index(
            rbar, cbar, inv_c, inv_n, rho, lam, high
        )


def test_log_of_consecutive_integers_increases():
    # the monotonicity of the computed ln(s − 1) in s, which the bounds use, up to beyond any
    # number of epochs a run reaches (T = 10^7 time units, c ≥ 1)
    s = np.unique(np.concatenate([np.arange(2, 5000), np.geomspace(5000, 2e8, 3000).astype(int)]))
    for x in s:
        assert math.log(x - 1.0) < math.log(float(x))


@pytest.mark.parametrize(
    "policy,problem,params",
    [
        (WAIT, K2D3, DEFAULT[K2D3]),
        (SIMPLEX, K2D3, DEFAULT[K2D3]),
        (BUDGET, K1D2, FINITE),
        (BUDGET, K2D3, DEFAULT[K2D3]),
        (BV1, K2D3, FINITE),
        (WAIT, K1D2, DEFAULT[K1D2]),
    ],
)
def test_long_games_match_reference(policy, problem, params):
    # s reaches tens of thousands, so windows span up to 2^(log2 s − WINDOW_SHIFT) epochs
    T = 60_000
    cps = checkpoint_grid(T, 80)
    out = _kernel(policy, params, problem, 31, T, cps)
    ref = _ref_run(policy, params, problem, 31, T)
    assert len(ref) >= 2 ** (P.WINDOW_SHIFT + 2)  # long enough for windows of several epochs
    for i, t in enumerate(cps):
        reward, L, pulls = _ref_at(ref, t, problem.K * problem.D)
        assert out[0][i] == reward and out[1][i] == L
        np.testing.assert_array_equal(out[2][i], pulls)


def test_long_game_random_ties_match_reference():
    # UCB-Simplex with scaled costs has many +inf ties early on and near-ties later
    T = 30_000
    cps = checkpoint_grid(T, 60)
    out = _kernel(SIMPLEX, DEFAULT[K2D3], K2D3, 12, T, cps, True, 5)
    ref = _ref_run(SIMPLEX, DEFAULT[K2D3], K2D3, 12, T, random_ties=True, policy_key=5)
    for i, t in enumerate(cps):
        reward, L, pulls = _ref_at(ref, t, 6)
        assert out[0][i] == reward and out[1][i] == L
        np.testing.assert_array_equal(out[2][i], pulls)
