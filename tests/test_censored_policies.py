"""RCUCB and the UCB/TS reductions (paper §3.3, App. E.1) against hand-worked trajectories.

The environment is a pool with one record per arm, so every pull is deterministic:
arm 1 always gives (R, C) = (0.9, 0.4), arm 2 always (0.5, 0.2); grid {0.3, 0.6}; c(x) = x/10;
λ(x) = x/10 up to 0.5 and 10x above, so λ = (0.03, 6). Exact ν: arm 1 (−0.03, 0.86) -- censored
at 0.3 --, arm 2 (0.48, 0.48); ν* = 0.86 at (arm 1, 0.6).
"""

from __future__ import annotations

import numpy as np
import pytest

from timebandits.censored.model import CensoredProblem
from timebandits.censored.policies import RCUCB, THOMPSON, UCB, run_censored

GRID = [0.3, 0.6]
COST = {"slope": 0.1}
PENALTY = {"threshold": 0.5, "below": 0.1, "above": 10.0}


def _problem(records=((0.9, 0.4), (0.5, 0.2))):
    return CensoredProblem.from_records(
        [np.array([r]) for r, _ in records],
        [np.array([c]) for _, c in records],
        GRID,
        COST,
        PENALTY,
    )


def _run(code, horizon, literal=True, alpha=1.0, problem=None, penalty_max=None, seed=7):
    problem = problem if problem is not None else _problem()
    penalty_max = problem.penalty[-1] if penalty_max is None else penalty_max
    checkpoints = np.arange(1, horizon + 1)
    return run_censored(
        code,
        literal,
        alpha,
        penalty_max,
        problem.grid,
        problem.penalty,
        problem.cost_slope,
        problem.nu,
        problem.family_code,
        problem.arm_params,
        problem.pool_values,
        problem.pool_offsets,
        np.uint64(1),
        np.uint64(seed),
        horizon,
        checkpoints,
        True,
        code == RCUCB,
    )


def test_exact_table_of_the_hand_example():
    problem = _problem()
    np.testing.assert_allclose(problem.penalty, [0.03, 6.0])
    np.testing.assert_allclose(problem.nu, [[-0.03, 0.86], [0.48, 0.48]])


def test_rcucb_hand_trajectory():
    """t=1,2: each arm once at τmax. t=3: s = sqrt(2 ln 3) = 1.4823; indices
    (1,0.3) −0.03 + 1.03s = 1.497, (1,0.6) 0.86 + 7s = 11.236, (2,0.3) 0.48 + 1.03s = 2.007,
    (2,0.6) 0.48 + 7s = 10.856 -> (1, 0.6). t=4: s = sqrt(2 ln 4) = 1.6651; (1,0.6) has
    N = N0 = 2: 0.86 + 7s/√2 = 9.102 < (2,0.6) 0.48 + 7s = 12.136 -> (2, 0.6)."""
    regret, censored, reward, gain, plays, above, below = _run(RCUCB, 4)
    np.testing.assert_allclose(regret, [0.0, 0.38, 0.38, 0.76])
    np.testing.assert_allclose(censored, 0.0)
    np.testing.assert_allclose(reward, [0.9, 1.4, 2.3, 2.8])
    np.testing.assert_allclose(gain, [0.86, 1.34, 2.2, 2.68])
    np.testing.assert_allclose(plays[-1], [0, 2, 0, 2])  # (1,0.3), (1,0.6), (2,0.3), (2,0.6)
    assert np.isnan(above[0]) and not np.isnan(above[-1])


def _pool(records, penalty):
    """A pool problem from per-arm lists of (R, C) records (each pull draws one uniformly)."""
    return CensoredProblem.from_records(
        [np.array([r for r, _ in arm]) for arm in records],
        [np.array([c for _, c in arm]) for arm in records],
        GRID,
        COST,
        penalty,
    )


def _reference_rcucb(problem, horizon, literal, alpha=1.0):
    """RCUCB written out from eqs. (8)–(12) in plain Python (sharing only the environment's
    draws with the kernel): the plays (arm, limit index) of ``horizon`` rounds."""
    from timebandits.censored.samplers import sample_many

    grid, lam, n, K = problem.grid, problem.penalty, problem.n, problem.K
    draws = [list(zip(*sample_many(problem, 1, i, horizon))) for i in range(n)]
    history = []  # (arm, limit index, R, C) of every play
    for t in range(1, horizon + 1):
        if t <= n:
            i, k = t - 1, K - 1
        else:
            best = None
            for arm in range(n):
                plays = [(kk, r, c) for a, kk, r, c in history if a == arm]
                for limit in range(K):
                    above = [(kk, r, c) for kk, r, c in plays if kk >= limit]  # limit >= τ_k
                    gain = sum(r - 0.1 * c for _, r, c in above if c <= grid[limit]) / len(above)
                    survivors = plays if literal else above
                    exceed = sum(c > grid[limit] for _, _, c in survivors)
                    bonus = np.sqrt(2 * alpha * np.log(t) / len(above)) + lam[limit] * np.sqrt(
                        2 * alpha * np.log(t) / len(survivors)
                    )
                    index = gain - lam[limit] * exceed / len(survivors) + bonus
                    if best is None or index > best[0]:
                        best = (index, arm, limit)
            _, i, k = best
        r, c = draws[i][sum(a == i for a, *_ in history)]
        history.append((i, k, r, c))
    return [(i, k) for i, k, _, _ in history]


# Arm 1 consumes 0.2 or 0.8 (censored at 0.3 half the time, and above 0.6 then too), arm 2 0.45;
# λ = (0.03, 0.6), a milder jump, so RCUCB leaves τmax within a few hundred rounds.
MIXED = (((0.9, 0.2), (0.9, 0.8)), ((0.3, 0.45),))
MILD = {"threshold": 0.5, "below": 0.1, "above": 1.0}


@pytest.mark.parametrize("literal", [True, False])
def test_rcucb_matches_a_plain_reference_with_either_survival_estimate(literal):
    """After a censored play at 0.3 the literal eq. (9) still counts its latent C at τ = 0.6
    (and the play in N_{i,0} of the width); the observable estimate does not. The kernel must
    follow the reference round by round in both modes."""
    problem, horizon = _pool(MIXED, MILD), 300
    plays = _run(RCUCB, horizon, literal=literal, problem=problem)[4]
    kernel = [
        divmod(int(np.flatnonzero(np.diff(plays, axis=0, prepend=0)[t])[0]), 2)
        for t in range(horizon)
    ]
    assert kernel == _reference_rcucb(problem, horizon, literal)


def test_literal_and_observable_survival_make_different_choices():
    problem = _pool(MIXED, MILD)
    assert _reference_rcucb(problem, 300, True) != _reference_rcucb(problem, 300, False)


def test_ucb_hand_trajectory():
    """Round-robin t=1..4: (1,0.3) censored y = −0.03, (1,0.6) 0.86, (2,0.3) 0.48, (2,0.6) 0.48;
    ν̃ = (y + 6)/7 = 0.852857, 0.98, 0.925714, 0.925714. t=5: equal widths -> (1,0.6).
    t=6: (1,0.6) 0.98 + sqrt(ln 6/4) = 1.6493 < (2,·) 0.925714 + sqrt(ln 6/2) = 1.8723:
    a tie between (2,0.3) and (2,0.6), regret 0.38 either way."""
    regret, censored, reward, gain, plays, _, _ = _run(UCB, 6)
    np.testing.assert_allclose(regret, [0.89, 0.89, 1.27, 1.65, 1.65, 2.03])
    np.testing.assert_allclose(censored, [1, 1, 1, 1, 1, 1])
    np.testing.assert_allclose(plays[-1].reshape(2, 2).sum(axis=1), [3, 3])
    np.testing.assert_allclose(plays[-1][:2], [1, 2])


def test_ucb_breaks_ties_uniformly():
    """Round 6 of the hand trajectory ties (2,0.3) and (2,0.6): over policy seeds each wins
    about half the time."""
    wins = sum(_run(UCB, 6, seed=s)[4][-1][2] == 2 for s in range(400))
    assert 150 < wins < 250


def test_thompson_update_only_limits_up_to_the_played_one():
    """In the round-robin every pair is played once; a play at 0.6 also updates the posterior
    at 0.3 (App. E.1). With deterministic, well-separated pairs TS settles on the optimum."""
    regret, censored, _, _, plays, _, _ = _run(THOMPSON, 4000)
    assert plays[-1][1] > 3500  # (arm 1, 0.6)
    assert regret[-1] < 0.2 * 4000


def test_thompson_is_reproducible_and_seed_dependent():
    a = _run(THOMPSON, 500, seed=3)[4][-1]
    b = _run(THOMPSON, 500, seed=3)[4][-1]
    c = _run(THOMPSON, 500, seed=4)[4][-1]
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


def _reference_thompson(problem, horizon, penalty_max, seed):
    """The TS reduction of App. E.1 in plain Python (sharing the environment's draws and the
    policy stream's layout with the kernel: one ``beta_block`` per pair and round, then one
    uniform per Bernoulli trial): the plays (arm, limit index) of ``horizon`` rounds."""
    from timebandits.censored.samplers import sample_many
    from timebandits.core.sim.beta_blocks import BETA_BLOCK, beta_block
    from timebandits.core.sim.rng import gamma_constants, uniform

    grid, lam, n, K = problem.grid, problem.penalty, problem.n, problem.K
    draws = [list(zip(*sample_many(problem, 1, i, horizon))) for i in range(n)]
    success = np.ones((n, K))
    failure = np.ones((n, K))
    key, counter, pulls, history = np.uint64(seed), 0, [0] * n, []
    for t in range(1, horizon + 1):
        if t <= n * K:
            i, k = divmod(t - 1, K)
        else:
            theta = [
                beta_block(
                    *gamma_constants(success[p // K, p % K]),
                    *gamma_constants(failure[p // K, p % K]),
                    key,
                    counter + p * BETA_BLOCK,
                )
                for p in range(n * K)
            ]
            counter += n * K * BETA_BLOCK
            assert theta.count(max(theta)) == 1  # no tie to break
            i, k = divmod(int(np.argmax(theta)), K)
        r, c = draws[i][pulls[i]]
        pulls[i] += 1
        for limit in range(k + 1):
            y = r - 0.1 * c if c <= grid[limit] else -lam[limit]
            chance = min(max((y + penalty_max) / (1 + penalty_max), 0.0), 1.0)
            if uniform(key, counter) < chance:
                success[i, limit] += 1
            else:
                failure[i, limit] += 1
            counter += 1
        history.append((i, k))
    return history


def test_thompson_matches_a_plain_reference():
    """On the random pool problem the kernel's TS (with its batched Beta draws) makes the same
    choice as the reference in every round."""
    problem, horizon = _pool(MIXED, MILD), 400
    plays = _run(THOMPSON, horizon, problem=problem, seed=5)[4]
    kernel = [
        divmod(int(np.flatnonzero(np.diff(plays, axis=0, prepend=0)[t])[0]), 2)
        for t in range(horizon)
    ]
    assert kernel == _reference_thompson(problem, horizon, problem.penalty[-1], 5)


@pytest.mark.parametrize("code", [RCUCB, UCB, THOMPSON])
def test_decomposition_identities_hold_exactly(code):
    """Eq. (6): R_t = Σ Δ_{i,τ} T_{i,τ}(t) at every checkpoint, on a random (PosCorr-like) run."""
    problem = CensoredProblem.from_config(
        {
            "family": "truncated_gaussian",
            "truncation": "joint",
            "means": [[0.6, 0.45], [0.5, 0.5]],
            "variance": 0.2,
            "correlation_x": [0.2, 0.6],
            "grid": {"rule": "inner", "size": 4, "upper": 1.0},
            "cost": COST,
            "penalty": PENALTY,
        }
    )
    regret, _, _, _, plays, _, _ = _run(code, 3000, problem=problem)
    np.testing.assert_allclose(regret, plays @ problem.gaps.ravel(), rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(plays.sum(axis=1), np.arange(1, 3001))
