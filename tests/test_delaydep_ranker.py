"""Tests of BanditRanker (Algorithm 2, Sect. 7; ``timebandits.delaydep.ranker``).

The kernels are checked by hand on small cases and against a plain-Python reference written from the
paper/spec (§2.5). The reference shares nothing with the kernels but
``timebandits.core.sim.rng.uniform`` and the documented draw addressing (stationary version: sample
of arm i in round r reads ``uniform(env_key, (r − 1)·k + i)``; B2DEP version: pull of arm i at round
t reads ``uniform(env_key, (t − 1)·k + i)``). It keeps, for every removed arm, the sets K⁺ and K⁻ of
its removal (the paper's lines 9–10) and orders any pair by the record of whichever of the two was
removed first, instead of the kernel's binary tree of position intervals.
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np
import pytest

from timebandits.core.sim.rng import uniform
from timebandits.delaydep.model import B2DEPProblem
from timebandits.delaydep.ranker import (
    RANKER_DONE,
    RANKER_MAX_ROUNDS,
    _ranker_eliminate,
    _ranker_finish,
    bandit_ranker_b2dep_run,
    bandit_ranker_run,
    ranker_epsilon,
)

KEY = np.uint64(0x5EED_0004)

# ------------------------------------------------------------------------------------------------
# plain-Python reference
# ------------------------------------------------------------------------------------------------


def ref_epsilon(r, k, delta):
    return math.sqrt(math.log(2.0 * k * r * (r + 1.0) / delta) / (2.0 * r))


def ref_eliminate(sums, active, r, delta, k):
    """Lines 4–10 on one snapshot: returns [(arm, K⁺, K⁻)] of the arms to remove."""
    mu = {i: sums[i] / r for i in active}
    ordered = sorted(active, key=lambda i: (-mu[i], i))
    eps2 = 2.0 * ref_epsilon(r, k, delta)
    marked = []
    for p, a in enumerate(ordered):
        above, below = ordered[:p], ordered[p + 1 :]
        up = not above or mu[a] + eps2 < min(mu[j] for j in above)
        down = not below or mu[a] - eps2 > max(mu[j] for j in below)
        if up and down:
            marked.append((a, set(above), set(below)))
    return marked


def ref_order(k, records, survivors):
    """Total order from the removal records; a pair is decided by the earlier removal."""

    def compare(a, b):
        ra, rb = records.get(a), records.get(b)
        first = a if rb is None or (ra is not None and ra[0] <= rb[0]) else b
        other = b if first == a else a
        _, above, below = records[first]
        if other in above:
            sign = 1  # other before first
        else:
            assert other in below
            sign = -1
        return sign if first == a else -sign

    arms = sorted(set(records) | set(survivors))
    assert len(arms) == k
    return sorted(arms, key=functools.cmp_to_key(compare))


def ref_stationary(means, delta, key, max_rounds):
    k = len(means)
    active, sums, records = set(range(k)), [0.0] * k, {}
    removed_at, pulls, r, status = [0] * k, 0, 0, RANKER_DONE
    while True:
        if r >= max_rounds:
            status = RANKER_MAX_ROUNDS
            break
        r += 1
        for i in sorted(active):
            sums[i] += 1.0 if uniform(key, (r - 1) * k + i) < means[i] else 0.0
            pulls += 1
        for a, above, below in ref_eliminate(sums, active, r, delta, k):
            records[a] = (r, above, below)
            removed_at[a] = r
        active -= set(records)
        if len(active) <= 1:
            break
    order = ref_order(k, records, active) if status == RANKER_DONE else None
    return order, pulls, r, removed_at, status


def ref_b2dep(table, delays, d0, delta, key, max_rounds):
    """B2DEP version with the kernel's documented grouping (groups of d0 active arms by increasing
    index; the last one padded with removed arms, then arms of earlier groups; each group cycled
    twice by increasing index, the second cycle sampled). Asserts that every sample is a pull at
    τ = d0 > d_i, and also returns how many discarded pulls had 1 ≤ τ ≤ d_i."""
    k = table.shape[0]
    cap = table.shape[1] - 1
    last = [0] * k
    t = 0
    delayed_discarded = 0

    def pull(a):
        nonlocal t
        t += 1
        tau = 0 if last[a] == 0 else t - last[a]
        last[a] = t
        reward = 1.0 if uniform(key, (t - 1) * k + a) < table[a, min(tau, cap)] else 0.0
        return tau, reward

    active, sums, records = set(range(k)), [0.0] * k, {}
    removed_at, r, status, round_pulls = [0] * k, 0, RANKER_DONE, []
    while True:
        if r >= max_rounds:
            status = RANKER_MAX_ROUNDS
            break
        r += 1
        start = t
        members = sorted(active)
        sampled = set()
        for g in range(0, len(members), d0):
            group = members[g : g + d0]
            fill = [i for i in range(k) if i not in active] + members[:g]
            group = sorted(group + [i for i in fill if i not in group][: d0 - len(group)])
            assert len(set(group)) == d0
            for a in group:  # calibration cycle, discarded
                tau, _ = pull(a)
                delayed_discarded += 1 <= tau <= delays[a]
            for a in group:  # sampling cycle
                tau, reward = pull(a)
                assert tau == d0 > delays[a]
                if a in active and a not in sampled:
                    sums[a] += reward
                    sampled.add(a)
        assert sampled == active
        round_pulls.append(t - start)
        for a, above, below in ref_eliminate(sums, active, r, delta, k):
            records[a] = (r, above, below)
            removed_at[a] = r
        active -= set(records)
        if len(active) <= 1:
            break
    order = ref_order(k, records, active) if status == RANKER_DONE else None
    return order, t, r, removed_at, status, round_pulls, delayed_discarded


def active_sizes(removed_at, rounds):
    """|A_r| for r = 1..rounds from removed_at (0 = never removed)."""
    removed_at = np.asarray(removed_at)
    return [int(np.sum((removed_at == 0) | (removed_at >= r))) for r in range(1, rounds + 1)]


# ------------------------------------------------------------------------------------------------
# ε_r
# ------------------------------------------------------------------------------------------------


def test_ranker_epsilon_by_hand():
    # r = 1, k = 2, δ = 0.1: ln(2·2·1·2/0.1) = ln 80, ε = sqrt(ln 80 / 2)
    assert ranker_epsilon(1, 2, 0.1) == pytest.approx(math.sqrt(math.log(80) / 2), rel=1e-14)
    # r = 3, k = 5, δ = 0.05: 2·5·3·4/0.05 = 2400, ε = sqrt(ln 2400 / 6)
    assert ranker_epsilon(3, 5, 0.05) == pytest.approx(math.sqrt(math.log(2400) / 6), rel=1e-14)
    # r = 10⁴, k = 4, δ = 0.1: 2·4·10⁴·10001/0.1 = 8.0008·10⁹
    assert ranker_epsilon(10_000, 4, 0.1) == pytest.approx(
        math.sqrt(math.log(8.0008e9) / 20_000), rel=1e-14
    )
    assert ranker_epsilon(1, 2, 0.1) == pytest.approx(1.480207, abs=1e-6)
    # decreasing in r, for the rounds that matter
    values = [ranker_epsilon(r, 3, 0.1) for r in range(1, 200)]
    assert all(a > b for a, b in itertools.pairwise(values))


# ------------------------------------------------------------------------------------------------
# _ranker_eliminate on hand-made sums
# ------------------------------------------------------------------------------------------------

R = 10_000


def fresh_state(k):
    return {
        "active": np.ones(k, dtype=np.bool_),
        "lo": np.zeros(k, dtype=np.int64),
        "hi": np.full(k, k, dtype=np.int64),
        "position": np.full(k, -1, dtype=np.int64),
        "removed_at": np.zeros(k, dtype=np.int64),
    }


def eliminate(sums, s, r=R, delta=0.1):
    return _ranker_eliminate(
        np.asarray(sums, dtype=np.float64),
        s["active"],
        r,
        delta,
        s["lo"],
        s["hi"],
        s["position"],
        s["removed_at"],
    )


def test_eliminate_all_separated_in_one_snapshot():
    # r = 10⁴, k = 3: 2ε ≈ 0.067; μ̂ = (.9, .5, .1) all separated ⇒ all three removed together
    # (a delete-while-iterating loop would skip the middle arm)
    assert 2 * ranker_epsilon(R, 3, 0.1) < 0.1
    s = fresh_state(3)
    assert eliminate([9000, 5000, 1000], s) == 3
    assert not s["active"].any()
    np.testing.assert_array_equal(s["position"], [0, 1, 2])
    np.testing.assert_array_equal(s["removed_at"], [R, R, R])
    np.testing.assert_array_equal(_ranker_finish(s["active"], s["lo"], s["position"]), [0, 1, 2])


def test_eliminate_keeps_overlapping_pair_and_splits_leaf():
    # μ̂ = (.9, .5, .45, .1), 2ε ≈ 0.0675: .9 (K⁺ empty, .9 − 2ε > .5) and .1 (.1 + 2ε < .45,
    # K⁻ empty) go; .5 and .45 overlap and stay, in the leaf of positions [1, 3)
    s = fresh_state(4)
    assert 0.06 < 2 * ranker_epsilon(R, 4, 0.1) < 0.07
    assert eliminate([9000, 5000, 4500, 1000], s) == 2
    np.testing.assert_array_equal(s["active"], [False, True, True, False])
    assert s["position"][0] == 0 and s["position"][3] == 3
    assert list(s["lo"][[1, 2]]) == [1, 1] and list(s["hi"][[1, 2]]) == [3, 3]
    np.testing.assert_array_equal(s["removed_at"], [R, 0, 0, R])
    # a later round separates the pair: positions 1 and 2 (the larger μ̂ first)
    assert eliminate([0, 4000, 6000, 0], s, r=R + 1) == 2
    np.testing.assert_array_equal(s["position"], [0, 2, 1, 3])
    np.testing.assert_array_equal(s["removed_at"], [R, R + 1, R + 1, R])
    np.testing.assert_array_equal(_ranker_finish(s["active"], s["lo"], s["position"]), [0, 2, 1, 3])


def test_eliminate_is_index_free():
    # the same μ̂ as above on shuffled indices: arm 2 (.9) at position 0, arm 0 (.1) at 3
    s = fresh_state(4)
    assert eliminate([1000, 4500, 9000, 5000], s) == 2
    np.testing.assert_array_equal(s["active"], [False, True, False, True])
    assert s["position"][2] == 0 and s["position"][0] == 3
    assert list(s["lo"][[1, 3]]) == [1, 1] and list(s["hi"][[1, 3]]) == [3, 3]


def test_eliminate_middle_arm_only():
    # μ̂ = (.9, .89, .5, .11, .1): only .5 is separated from both neighbours ⇒ position 2;
    # leaves [0, 2) = {0, 1} and [3, 5) = {3, 4}
    s = fresh_state(5)
    assert eliminate([9000, 8900, 5000, 1100, 1000], s) == 1
    np.testing.assert_array_equal(s["active"], [True, True, False, True, True])
    assert s["position"][2] == 2
    np.testing.assert_array_equal(s["lo"][[0, 1, 3, 4]], [0, 0, 3, 3])
    np.testing.assert_array_equal(s["hi"][[0, 1, 3, 4]], [2, 2, 5, 5])


def test_eliminate_ties_and_strictness():
    # tied μ̂ can never be separated (strict inequalities, ε > 0)
    s = fresh_state(4)
    assert eliminate([9000, 5000, 5000, 1000], s) == 2
    np.testing.assert_array_equal(s["active"], [False, True, True, False])
    # just beyond 2ε ⇒ removed; just inside ⇒ kept
    eps2 = 2 * ranker_epsilon(R, 2, 0.1)
    s = fresh_state(2)
    assert eliminate([0.8 * R, (0.8 - eps2 * (1 + 1e-9)) * R], s) == 2
    s = fresh_state(2)
    assert eliminate([0.8 * R, (0.8 - eps2 * (1 - 1e-9)) * R], s) == 0
    assert s["active"].all() and (s["removed_at"] == 0).all()


def test_eliminate_empty_sides_are_vacuous():
    # a single active arm: K⁺ = K⁻ = ∅ ⇒ removed even at r = 1 (ε ≈ 1.5)
    s = fresh_state(3)
    s["active"][[0, 2]] = False
    s["position"][[0, 2]] = [0, 2]
    s["lo"][:] = [0, 1, 2]
    s["hi"][:] = [1, 2, 3]
    assert eliminate([1, 0, 1], s, r=1) == 1
    assert s["position"][1] == 1 and s["removed_at"][1] == 1
    # two arms at r = 1: ε too wide, nothing removed even for μ̂ = 1 vs 0
    s = fresh_state(2)
    assert eliminate([1, 0], s, r=1) == 0


def test_eliminate_respects_earlier_leaves():
    # arm 0 already placed at position 1 (earlier round): arm 1 in leaf [0, 1), arms 2, 3 in
    # leaf [2, 4). Now μ̂ = (−, .9, .5, .1), all separated: arm 1 → 0, arm 2 → 2, arm 3 → 3
    s = fresh_state(4)
    s["active"][0] = False
    s["position"][0] = 1
    s["lo"][:] = [1, 0, 2, 2]
    s["hi"][:] = [2, 1, 4, 4]
    assert eliminate([0, 9000, 5000, 1000], s) == 3
    np.testing.assert_array_equal(s["position"], [1, 0, 2, 3])
    np.testing.assert_array_equal(_ranker_finish(s["active"], s["lo"], s["position"]), [1, 0, 2, 3])


def test_eliminate_matches_reference_on_random_snapshots():
    rng = np.random.default_rng(11)
    for _ in range(300):
        k = int(rng.integers(1, 8))
        r = int(rng.integers(1, 3000))
        sums = rng.integers(0, r + 1, size=k).astype(np.float64)
        s = fresh_state(k)
        removed = eliminate(sums, s, r=r)
        marked = ref_eliminate(list(sums), set(range(k)), r, 0.1, k)
        assert removed == len(marked)
        assert {int(i) for i in np.flatnonzero(~s["active"])} == {a for a, _, _ in marked}
        for a, above, below in marked:  # the position of a = |K⁺| from a fresh leaf
            assert s["position"][a] == len(above)
            assert s["removed_at"][a] == r


# ------------------------------------------------------------------------------------------------
# bandit_ranker_run (stationary Bernoulli arms)
# ------------------------------------------------------------------------------------------------


def run(means, delta=0.1, key=KEY, max_rounds=10**6):
    return bandit_ranker_run(np.asarray(means, dtype=np.float64), delta, key, max_rounds)


def test_stationary_well_separated_order_and_pulls():
    order, pulls, rounds, removed_at, status = run([0.9, 0.5, 0.1])
    assert status == RANKER_DONE
    np.testing.assert_array_equal(order, [0, 1, 2])
    # pulls = Σ_r |A_r|
    assert pulls == sum(active_sizes(removed_at, rounds))
    assert rounds == max(removed_at) or (removed_at == 0).sum() == 1
    # separating gaps 0.4 needs 4ε_r < 0.4 roughly: a few hundred rounds, not a handful
    assert 50 < rounds < 2000
    # against the reference
    ref = ref_stationary([0.9, 0.5, 0.1], 0.1, KEY, 10**6)
    assert list(order) == ref[0] and (pulls, rounds) == ref[1:3]
    assert list(removed_at) == ref[3] and status == ref[4]


def test_stationary_is_deterministic_given_env_key():
    first = run([0.8, 0.6, 0.4, 0.2], key=np.uint64(123))
    second = run([0.8, 0.6, 0.4, 0.2], key=np.uint64(123))
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
    other = run([0.8, 0.6, 0.4, 0.2], key=np.uint64(124))
    assert (first[1], list(first[3])) != (other[1], list(other[3]))


def test_stationary_shuffled_means():
    order, _, _, _, status = run([0.1, 0.9, 0.5])
    assert status == RANKER_DONE
    np.testing.assert_array_equal(order, [1, 2, 0])
    order, _, _, _, _ = run([0.3, 0.7, 0.1, 0.9, 0.5])
    np.testing.assert_array_equal(order, [3, 1, 4, 0, 2])


@pytest.mark.parametrize("seed", range(8))
def test_stationary_matches_reference(seed):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 7))
    means = rng.permutation(np.linspace(0.05, 0.95, k))
    key = np.uint64(rng.integers(0, 2**63))
    order, pulls, rounds, removed_at, status = run(means, key=key)
    ref = ref_stationary(list(means), 0.1, key, 10**6)
    assert status == ref[4] == RANKER_DONE
    assert list(order) == ref[0]
    assert (pulls, rounds, list(removed_at)) == ref[1:4]
    assert pulls == sum(active_sizes(removed_at, rounds))
    np.testing.assert_array_equal(order, np.argsort(-means))


def test_stationary_max_rounds():
    # 5 rounds: ε_5 ≈ 0.87, nothing can be removed ⇒ no arm placed
    order, pulls, rounds, removed_at, status = run([0.9, 0.5, 0.1], max_rounds=5)
    assert status == RANKER_MAX_ROUNDS
    assert (rounds, pulls) == (5, 15)
    np.testing.assert_array_equal(order, [-1, -1, -1])
    np.testing.assert_array_equal(removed_at, [0, 0, 0])
    # arm 0 pays 1 always, arms 1 and 2 are equal: arm 0 is placed first, the tied pair is not
    order, pulls, rounds, removed_at, status = run([1.0, 0.5, 0.5], max_rounds=3000)
    assert status == RANKER_MAX_ROUNDS and rounds == 3000
    np.testing.assert_array_equal(order, [0, -1, -1])
    assert 0 < removed_at[0] < 3000 and removed_at[1] == removed_at[2] == 0
    assert pulls == removed_at[0] + 2 * 3000
    ref = ref_stationary([1.0, 0.5, 0.5], 0.1, KEY, 3000)
    assert (pulls, rounds, list(removed_at), status) == ref[1:]


def test_stationary_single_arm_and_bad_delta():
    order, pulls, rounds, removed_at, status = run([0.4])
    assert (list(order), pulls, rounds, list(removed_at), status) == ([0], 1, 1, [1], RANKER_DONE)
    for delta in (0.0, 1.0, -0.5):
        with pytest.raises(ValueError):
            run([0.9, 0.1], delta=delta)


# ------------------------------------------------------------------------------------------------
# bandit_ranker_b2dep_run
# ------------------------------------------------------------------------------------------------


def b2dep(problem, d0, key=KEY, max_rounds=10**6, delta=0.1):
    return bandit_ranker_b2dep_run(problem.mean_table(), d0, delta, key, max_rounds)


def test_b2dep_refuses_small_k_and_small_d0():
    fig3 = B2DEPProblem(["1", "13/15"], [2, 2], ["0.3", "0.25"])
    with pytest.raises(ValueError, match="k >= d0"):  # P9: k = 2 < d0 = 3
        b2dep(fig3, 3)
    p = B2DEPProblem([0.9, 0.7, 0.5, 0.3], [1, 2, 1, 1], [0.5, 0.5])
    for d0 in (1, 2):  # d0 ≤ max delay = 2
        with pytest.raises(ValueError, match="d0 must exceed"):
            b2dep(p, d0)
    with pytest.raises(ValueError):
        b2dep(p, 0)
    with pytest.raises(ValueError):
        b2dep(p, 3, delta=1.5)
    assert b2dep(p, 3)[4] == RANKER_DONE  # d0 = 3 > 2 is accepted
    assert b2dep(p, 4)[4] == RANKER_DONE  # k = d0 = 4


def test_b2dep_samples_are_baseline_pulls():
    # f ≡ 1: every pull at 1 ≤ τ ≤ d_i pays 0, so a sample taken at the wrong τ would be visible.
    # k = 5, d0 = 3 > d_i: round groups are [0, 1, 2], [3, 4 | padded]. Arm 0 (mean 1, gap 0.3)
    # is removed long before the others (gaps 0.2); from then on the groups are [1, 2, 3] and
    # [0, 1, 4] (padding: removed arm 0, then arm 1), so arm 1 (d = 2) ends a round at position
    # 1 and starts the next at position 0: its calibration pull has τ = 2 and pays 0. Only the
    # second cycle (τ = 3 > d) may be sampled.
    means = [1.0, 0.5, 0.3, 0.7, 0.1]
    delays = [2, 2, 1, 2, 1]
    # mean_table layout (k, D + 2), D = 2: columns τ = 0, 1, 2, 3 (μ_i(τ) = 0 for 1 ≤ τ ≤ d_i)
    table = np.array(
        [[m, 0.0, 0.0, m] if d == 2 else [m, 0.0, m, m] for m, d in zip(means, delays)]
    )
    d0 = 3
    order, pulls, rounds, removed_at, status = bandit_ranker_b2dep_run(table, d0, 0.1, KEY, 10**6)
    assert status == RANKER_DONE
    np.testing.assert_array_equal(order, [0, 3, 1, 2, 4])
    ref = ref_b2dep(table, delays, d0, 0.1, KEY, 10**6)
    assert list(order) == ref[0]
    assert (pulls, rounds, list(removed_at)) == ref[1:4]
    assert removed_at[0] < min(removed_at[1:])
    assert ref[6] > 100  # discarded pulls at a delayed τ did happen
    # pulls per round = 2·d0·⌈|A_r|/d0⌉
    sizes = active_sizes(removed_at, rounds)
    assert ref[5] == [2 * d0 * math.ceil(n / d0) for n in sizes]
    assert pulls == sum(2 * d0 * math.ceil(n / d0) for n in sizes)


@pytest.mark.parametrize("seed", range(4))
def test_b2dep_matches_reference(seed):
    rng = np.random.default_rng(100 + seed)
    k = int(rng.integers(3, 7))
    means = sorted(np.round(np.linspace(0.1, 0.9, k), 6), reverse=True)
    delays = [int(x) for x in rng.integers(1, 4, size=k)]
    p = B2DEPProblem(means, delays, [0.9, 0.6, 0.3])
    d0 = int(rng.integers(p.max_delay + 1, k + 1)) if k > p.max_delay else None
    if d0 is None:
        pytest.skip("k ≤ max delay")
    key = np.uint64(rng.integers(0, 2**63))
    order, pulls, rounds, removed_at, status = b2dep(p, d0, key=key)
    ref = ref_b2dep(p.mean_table(), delays, d0, 0.1, key, 10**6)
    assert status == ref[4] == RANKER_DONE
    assert list(order) == ref[0] == list(range(k))
    assert (pulls, rounds, list(removed_at)) == ref[1:4]
    sizes = active_sizes(removed_at, rounds)
    assert pulls == sum(2 * d0 * math.ceil(n / d0) for n in sizes)


def test_b2dep_deterministic_and_max_rounds():
    p = B2DEPProblem([0.9, 0.6, 0.3], [1, 1, 2], [0.5, 0.4])
    first, second = b2dep(p, 3), b2dep(p, 3)
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
    order, pulls, rounds, _, status = b2dep(p, 3, max_rounds=4)
    assert status == RANKER_MAX_ROUNDS and rounds == 4
    assert pulls == 4 * 2 * 3
    np.testing.assert_array_equal(order, [-1, -1, -1])
