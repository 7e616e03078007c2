"""Standard Thompson sampling on the reduction (``thompson_played``, App. E.1: "strictly
speaking, one would conduct the latter Bernoulli experiment only for deciding on the update of
S_{I_t,τ_t} or F_{I_t,τ_t}"): the kernel against a plain reference that updates only the played
pair, and the one case where it must coincide with the paper's TS (a single limit)."""

from __future__ import annotations

import numpy as np
from test_censored_policies import MILD, MIXED, _pool, _run

from timebandits.censored.policies import POLICY_CODES, THOMPSON, THOMPSON_PLAYED


def _reference(problem, horizon, penalty_max, seed):
    """Beta-Bernoulli TS over the n·K virtual arms in plain Python (one ``beta_block`` per pair
    and round, then one uniform for the played pair's Bernoulli trial of eq. (32)): the plays."""
    from timebandits.censored.samplers import sample_many
    from timebandits.core.sim.beta_blocks import BETA_BLOCK, beta_block
    from timebandits.core.sim.rng import gamma_constants, uniform

    grid, lam, n, K = problem.grid, problem.penalty, problem.n, problem.K
    draws = [list(zip(*sample_many(problem, 1, i, horizon))) for i in range(n)]
    success, failure = np.ones((n, K)), np.ones((n, K))
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
            assert theta.count(max(theta)) == 1
            i, k = divmod(int(np.argmax(theta)), K)
        r, c = draws[i][pulls[i]]
        pulls[i] += 1
        y = r - 0.1 * c if c <= grid[k] else -lam[k]
        if uniform(key, counter) < min(max((y + penalty_max) / (1 + penalty_max), 0.0), 1.0):
            success[i, k] += 1
        else:
            failure[i, k] += 1
        counter += 1
        history.append((i, k))
    return history


def test_the_policy_is_known_by_name():
    assert POLICY_CODES["thompson_played"] == THOMPSON_PLAYED


def test_standard_ts_matches_a_plain_reference():
    problem, horizon = _pool(MIXED, MILD), 400
    plays = _run(THOMPSON_PLAYED, horizon, problem=problem, seed=5)[4]
    kernel = [
        divmod(int(np.flatnonzero(np.diff(plays, axis=0, prepend=0)[t])[0]), 2)
        for t in range(horizon)
    ]
    assert kernel == _reference(problem, horizon, problem.penalty[-1], 5)


def test_standard_ts_differs_from_the_papers_ts_only_through_the_lower_limits():
    problem, horizon = _pool(MIXED, MILD), 400
    paper = _run(THOMPSON, horizon, problem=problem, seed=5)[4]
    standard = _run(THOMPSON_PLAYED, horizon, problem=problem, seed=5)[4]
    # the round-robin is the same; afterwards the extra trials shift the streams apart
    np.testing.assert_array_equal(
        paper[problem.n * problem.K - 1], standard[problem.n * problem.K - 1]
    )
    assert not np.array_equal(paper[-1], standard[-1])
