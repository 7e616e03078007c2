"""π_low as the authors' code runs it (ORE2 of their Ore.py, policies_authors.py): a trajectory
worked out by hand from its five rules, a plain-Python reading of those rules written the way
their code is (lists, ``list.remove`` inside the loop over the list, ``np.argmax`` over all k
estimates), and properties of the rules; the simulation glue and the config entry."""

import math

import numpy as np
import pytest
from test_delaydep_policies import KEY, Environment, random_problem

from timebandits.core.build.preflight import load_paper
from timebandits.core.sim.rng import uniform
from timebandits.delaydep.model import B2DEPProblem
from timebandits.delaydep.policies import MAX_STAGES
from timebandits.delaydep.policies_authors import authors_schedule, low_authors_run
from timebandits.delaydep.simulation import simulate_repetition

# Deterministic rewards with three distinct policies: μ = (1, 1, 1), d = (1, 2, 2), f ≡ 1, so
# μ_i(τ) = 0 for 1 ≤ τ ≤ d_i and 1 otherwise: g(1) = 0, g(2) = 1/2, g(3) = 1.
THREE = B2DEPProblem(["1", "1", "1"], [1, 2, 2], ["1"])


def run(problem, horizon, delta=0.1, key=KEY):
    lengths, widths = authors_schedule(horizon, problem.k, delta)
    return low_authors_run(problem.mean_table(), lengths, widths, horizon, key)


def reference_ore2(problem, delta, horizon, key):
    """ORE2's decisions as Ore.py writes them (choice, update, _rankElimination, _cb, _Ts with
    shrink = 1, rounding = 5), on the spec's environment. Returns the environment and, per
    decision that incremented r, (round, r, A after the elimination, the k estimates)."""
    env, k = Environment(problem, key), problem.k
    active, blocks = list(range(1, k + 1)), [0] * k
    sums, counts = np.zeros((k, k)), np.zeros((k, k))
    estimates = [0.0] * k
    r, history = 1, []
    while env.t < horizon:
        plays = max(int(int(horizon ** (1 - 2 ** (-r))) / (r * len(active))), 2)
        turns = [blocks[m - 1] for m in active]
        m = active[turns.index(min(turns))]
        blocks[m - 1] += 1
        if env.t != 0 and min(turns) == max(turns):
            r += 1
            if len(active) > 1:
                t_r = int(horizon ** (1 - 2 ** (-r)))
                width = 0.001 * round(
                    math.sqrt(math.log(((t_r + k) * k) / delta) * (k / (2 * t_r))), 5
                )
                for q in active:
                    mean = 0.0
                    for j in range(q):
                        mean = mean + sums[j, q - 1] / counts[j, q - 1]
                    estimates[q - 1] = mean / q
                best = int(np.argmax(estimates))
                for q in active:  # removes from the list it loops over, as Ore.py does
                    if estimates[best] - estimates[q - 1] > width:
                        active.remove(q)
            history.append((env.t, r, list(active), list(estimates)))
        env.play(m, horizon)  # calibration, discarded
        for _ in range(plays):
            for j, reward in enumerate(env.play(m, horizon)):
                sums[j, m - 1] += reward
                counts[j, m - 1] += 1
    return env, history


def test_schedule_by_hand():
    """T = 100, k = 3, δ = 0.1: T'_r = int(100^(1−2^−r)) = 10, 31 (31.6), 56 (56.2), 74 (74.99);
    w_1 = 0.001·round(sqrt(ln(13·3/0.1)·3/20), 5) = 0.001·round(0.946004, 5),
    w_2 = 0.001·round(sqrt(ln(34·30)·3/62), 5) = 0.001·round(0.578968, 5)."""
    lengths, widths = authors_schedule(100, 3, 0.1)
    assert lengths.size == widths.size == MAX_STAGES
    assert lengths[:4].tolist() == [10, 31, 56, 74]
    assert widths[0] == 0.001 * 0.946 and widths[1] == 0.001 * 0.57897
    assert widths[0] == 0.001 * round(math.sqrt(math.log(390) * 0.15), 5)
    assert lengths[-1] == 100  # 1 − 2^−64 rounds to 1


def test_hand_worked_trajectory():
    """THREE, T = 100, δ = 0.1 (widths ≈ 10⁻³, below every gap here). Rule by rule:
    decision 1 (t = 0): π_1, max(⌊10/(1·3)⌋, 2) = 3 plays after the calibration play (item 2):
    rounds 1–4; no elimination at t = 0. Decision 2: π_2, 3 + 1 plays, rounds 5–12; decision 3:
    π_3, rounds 13–24. Decision 4 (t = 24): every policy has had one block, so the block is
    fixed first, π_1 with 3 + 1 plays of stage 1 (rounds 25–28), then r = 2 and the elimination
    (item 4): ĝ = (0, 1/2, 1) (item 3: the observed plays only), m̂ = π_3; π_1 is removed
    (gap 1 > w_2), which makes the scan skip π_2 (item 5: it survives a gap of 1/2); π_3 stays.
    Decision 5 (t = 28): π_2 and π_3 have one block each, so again: the block π_2 with
    ⌊31/(2·2)⌋ = 7 plays + 1 (rounds 29–44), r = 3, π_2 removed (gap 1/2), π_3 skipped.
    Decision 6 (t = 44): A = {3}: π_3 with ⌊56/(3·1)⌋ = 18 plays + 1, cut at T = 100; r = 4."""
    expected, realised, policy, decisions, r, start, n_active, active, estimates = run(THREE, 100)
    assert policy.tolist() == [1] * 4 + [2] * 8 + [3] * 12 + [1] * 4 + [2] * 16 + [3] * 56
    assert decisions == 6 and r == 4
    assert start[:4].tolist() == [0, 24, 28, 44]
    assert n_active[:4].tolist() == [3, 2, 1, 1]
    assert active[1].tolist() == [False, True, True]  # π_2 escapes by the skip
    assert active[2].tolist() == active[3].tolist() == [False, False, True]
    assert np.isnan(estimates[0]).all()
    assert estimates[1].tolist() == estimates[2].tolist() == [0.0, 0.5, 1.0]
    hand = (
        [1, 0, 0, 0]  # π_1: arm 1 first at τ = 0, then τ = 1
        + [0, 1]
        + [1, 0] * 3  # π_2: arm 1 at τ = 1 (calibration), arm 2 first; τ = 2
        + [1, 0, 1]
        + [1] * 9  # π_3: arms 1, 2 at τ = 2, arm 3 first; τ = 3
        + [1, 0, 0, 0]  # π_1 again: arm 1 at τ = 3, then τ = 1
        + [0, 1]
        + [1, 0] * 7  # π_2: arm 1 at τ = 1, arm 2 at τ = 7; τ = 2
        + [1, 0, 1]
        + [1] * 53
    )  # π_3: arm 2 at τ = 2 (calibration); τ = 3
    assert expected.tolist() == realised.tolist() == hand


@pytest.mark.parametrize("horizon", [1, 3, 10, 99, 1000, 4321])
def test_matches_reference_implementation(horizon):
    rng = np.random.default_rng(100 + horizon)
    for k in (1, 2, 3, 5, 7):
        problem = random_problem(rng, k)
        out = run(problem, horizon)
        env, history = reference_ore2(problem, 0.1, horizon, KEY)
        assert out[0].size == horizon  # truncated at exactly T
        np.testing.assert_allclose(out[0], env.expected, rtol=0, atol=1e-15)
        assert out[1].tolist() == env.realised
        assert out[2].tolist() == env.policy
        assert out[4] == 1 + len(history)
        for t, r, active, estimates in history:
            assert out[5][r - 1] == t
            assert np.flatnonzero(out[7][r - 1]).tolist() == [m - 1 for m in active]
            if k > 1:  # the same floating-point sums, in the same order
                assert out[8][r - 1].tolist() == estimates


@pytest.mark.parametrize("seed", range(4))
def test_rules_hold_on_random_instances(seed):
    """Properties of the rules, on random instances with Bernoulli rewards: blocks are one
    calibration play plus max(⌊T'_r/(r|A|)⌋, 2) plays (item 2); the first k blocks are
    π_1..π_k and block k + 1 is π_1 again at stage 1's length (item 4); every elimination's
    estimates are the means over all observed plays so far (item 3); no two policies adjacent in
    A are removed by one elimination, and a survivor whose gap exceeds the width follows a
    removed policy (item 5); A is never empty."""
    rng = np.random.default_rng(seed)
    k, horizon = 2 + seed, 20_000
    problem = random_problem(rng, k)
    lengths, widths = authors_schedule(horizon, k, 0.1)
    expected, realised, policy, decisions, r, start, n_active, active, estimates = low_authors_run(
        problem.mean_table(), lengths, widths, horizon, KEY
    )
    bounds = np.flatnonzero(np.diff(policy, prepend=0) != 0)
    first = [int(policy[b]) for b in bounds[: k + 1]]
    assert first == [*range(1, k + 1), 1]
    block_1 = max(lengths[0] // k, 2) + 1  # plays of π_1 in stage 1
    assert bounds[1] == block_1 and bounds[k + 1] - bounds[k] >= block_1
    assert np.all(n_active[:r] >= 1) and np.all(np.diff(n_active[:r]) <= 0)
    for s in range(1, r):  # the decision that opened stage s + 1, at round start[s]
        done = policy[: start[s]]
        before = np.flatnonzero(active[s - 1]) + 1
        if before.size == 1:
            continue
        for m in before:  # pooled: every observed play of π_m before this decision
            rewards, mask = realised[: start[s]].astype(float), done == m
            runs = np.flatnonzero(np.diff(mask.astype(int), prepend=0) == 1)
            calibration = np.zeros(start[s], dtype=bool)
            for b in runs:
                calibration[b : b + m] = True
            assert estimates[s, m - 1] == pytest.approx(rewards[mask & ~calibration].mean())
        removed = [i for i, m in enumerate(before) if not active[s, m - 1]]
        assert all(b - a > 1 for a, b in zip(removed, removed[1:]))
        assert len(removed) < before.size
        gaps = np.nanmax(estimates[s]) - estimates[s]
        for i, m in enumerate(before):
            if active[s, m - 1] and gaps[m - 1] > widths[s]:
                assert i > 0 and not active[s, before[i - 1] - 1]


def test_block_lengths_follow_the_stage_counter():
    """Every block of π_m has m·(1 + n) pulls, n = max(⌊T'_r/(r|A|)⌋, 2) with r and |A| as they
    were before the block's decision; blocks of the same policy in a row are one label run."""
    horizon = 50_000
    problem = B2DEPProblem(["1", "13/15"], [2, 2], ["3/10", "1/4"])  # Fig. 3
    env, history = reference_ore2(problem, 0.1, horizon, KEY)
    out = run(problem, horizon)
    assert out[2].tolist() == env.policy
    lengths, _ = authors_schedule(horizon, 2, 0.1)
    # the first two blocks: π_1 then π_2 with max(⌊223/2⌋, 2) = 111 observed plays each
    assert lengths[0] == 223
    assert out[2][:112].tolist() == [1] * 112 and out[2][112:336].tolist() == [2] * 224


def test_common_random_numbers():
    """The rewards are the environment's draws: pull of arm i at round t pays
    1{uniform(key, (t − 1)k + i) < μ_i(τ)}, as for π_low and π_ucb."""
    problem = random_problem(np.random.default_rng(3), 4)
    expected, realised, policy, *_ = run(problem, 3000)
    t = 0
    while t < policy.size:
        m = int(policy[t])
        for arm in range(min(m, policy.size - t)):
            assert realised[t] == (uniform(KEY, t * problem.k + arm) < expected[t])
            t += 1


def test_rejects_bad_input():
    with pytest.raises(ValueError, match="delta"):
        authors_schedule(100, 2, 1.5)
    with pytest.raises(ValueError, match="horizon"):
        authors_schedule(0, 2, 0.1)


def test_simulation_glue_and_config():
    environment = {
        "means": ["1", "1", "1"],
        "delays": [1, 2, 2],
        "f": {"kind": "table", "values": ["1"]},
        "switch_costs": [1, 0],
    }
    checkpoints = np.array([1, 24, 25, 28, 29, 44, 45, 100])
    out = simulate_repetition(
        {"environment": environment, "horizon": 100},
        {"policy": "low_authors", "params": {"delta": 0.1}},
        np.random.SeedSequence(1),
        None,
        checkpoints,
    )
    assert out["stage"].tolist() == [1, 1, 2, 2, 3, 3, 4, 4]  # as decided before round t
    assert out["n_active"].tolist() == [3, 3, 2, 2, 1, 1, 1, 1]
    assert out["optimum_active"].tolist() == [1] * 8
    assert out["switches"].tolist() == [0, 2, 3, 3, 4, 4, 5, 5]  # rounds 5, 13, 25, 29, 45
    assert out["expected"][-1] == 80  # the hand trajectory above
    paper = load_paper("delaydep")
    algorithm = paper["algorithms"]["pi_low_authors"]
    assert algorithm["policy"] == "low_authors" and algorithm["params"]["delta"] == 0.1
    provenance = algorithm["provenance"]
    for item in (
        "elimination_width",
        "plays_per_policy",
        "pooled_estimates",
        "deferred_elimination",
        "elimination_scan",
        "reward_draw",
    ):
        assert item in provenance
    for exp in ("fig2", "fig3", "fig2_many", "fig3_many"):
        assert "pi_low_authors" in paper["experiments"][exp]["algorithms"]
    out = simulate_repetition(
        {"environment": environment, "horizon": 100},
        {"policy": "low_authors"},
        np.random.SeedSequence(1),
        None,
        checkpoints,
    )
    assert out["n_active"][-1] == 1  # δ defaults to 0.1
