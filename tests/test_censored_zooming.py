"""Tests of z-RCUCB (timebandits.censored.zooming) and its grid refinement (grid_refinement): the
refinement and Fig. 3's schematic, two hand-worked trajectories with deterministic (R, C) arrays,
a reference that recomputes every index, and invariants on a random run."""

import math

import numpy as np
import pytest

from timebandits.censored.grid_refinement import extend, interior_points, refinement_schematic
from timebandits.censored.zooming import run_zrcucb
from timebandits.core.sim.rng import uniform

KEY = np.uint64(3)  # tie-breaking draws u_0, u_1, u_2, ... = 0.1135, 0.7003, 0.613, 0.0729, 0.2164


def test_tie_draws_used_below():
    draws = [uniform(KEY, c) for c in range(5)]
    assert [int(u * 2) for u in draws] == [0, 1, 1, 0, 0]


# ---- extend and Fig. 3 --------------------------------------------------------------------------


def test_extend_spec_points_m4():
    middle = extend(np.array([1.0]), 1.0, 4)
    assert np.array_equal(middle, [0.25, 0.5, 0.75, 1.0])
    assert np.array_equal(extend(middle, 0.25, 4), [0.0625, 0.125, 0.1875, 0.25, 0.5, 0.75, 1.0])
    assert np.array_equal(extend(middle, 0.5, 4), [0.25, 0.3125, 0.375, 0.4375, 0.5, 0.75, 1.0])
    assert np.allclose(extend(np.array([0.5, 1.0]), 1.0, 3), [0.5, 2 / 3, 5 / 6, 1.0])
    with pytest.raises(ValueError):
        extend(middle, 0.3, 4)
    with pytest.raises(ValueError):
        extend(middle, 1.0, 1)


@pytest.mark.parametrize("tau_max", [1.0, 0.9])
def test_refinement_schematic_matches_fig3(tau_max):
    top, middle, bottom = refinement_schematic(4, tau_max)
    assert np.allclose(top.points, [tau_max]) and top.extended_at == ()
    assert np.allclose(middle.points, np.array([1, 2, 3, 4]) / 4 * tau_max)
    assert middle.extended_at == (tau_max,)
    expected = np.array([1, 2, 3, 4, 5, 6, 7, 8, 12, 16]) / 16 * tau_max
    assert np.allclose(bottom.points, expected)
    assert np.allclose(bottom.extended_at, [tau_max / 4, tau_max / 2])


# ---- hand-worked trajectories -------------------------------------------------------------------


def test_trajectory_two_arms_by_hand():
    """n = 2, m = 2, α = 2, δ = 0.5, T = 6, τmax = 8, λ ≡ 0, c ≡ 0. Arm 0 always (R, C) = (0.9, 3),
    arm 1 always (0.5, 1). L = ln(2·36/0.5) = ln 144; 𝔠 = sqrt(4L/N) = 4.4586 (N=1), 3.1527 (N=2).

    t=1  both τmax = 8 empty (∞): tie, int(u_0·2) = 0 -> (0, 8). Width 8 ≥ 4.4586: extend -> {4, 8}.
    t=2  (0,4) ∞ and (1,8) ∞ tie ((0,8) = 0.9 + 4.4586 + 4): int(u_1·2) = 1 -> (1, 8);
         extend -> {4, 8}.
    t=3  (0,4), (1,4) ∞: int(u_2·2) = 1 -> (1, 4). Arm 1: N_4 = 1, N_8 stays 1, N0_8 = 2.
         Widths 4 < 4.4586: no extension.
    t=4  (0,4) the only ∞ -> (0, 4) (no draw used). No extension (4 < 4.4586).
    t=5  (0,4) = 0.9 + 4.4586 + (4 − 0) and (0,8) = 0.9 + 4.4586 + (8 − 4) tie exactly, above
         arm 1's 0.5 + 4.4586 + 4: int(u_4·2) = 0 -> (0, 4). Now N_4 = 2: 𝔠 = 3.1527 ≤ 4:
         extend at 4 -> {2, 4, 8};
         8 keeps N = 1 (4 < 4.4586, not extended).
    t=6  (0,2) the only ∞ -> (0, 2); C = 3 > 2 censored: ν̂_2 = 0. No extension.
    Output: finest level 2 = {2, 4} of arm 0, both played; ν̂_4 = 0.9 > ν̂_2 = 0 -> (0, 4).
    """
    rewards = np.array([[0.9] * 6, [0.5] * 6])
    consumptions = np.array([[3.0] * 6, [1.0] * 6])
    run = run_zrcucb(rewards, consumptions, 0.0, 1.0, 0.0, 0.0, 8.0, 2.0, 2, 0.5, 6, KEY)
    assert list(run.plays_arm) == [0, 1, 1, 0, 0, 0]
    assert list(run.plays_tau) == [8, 8, 4, 4, 4, 2]
    assert np.array_equal(run.grids[0], [2, 4, 8]) and np.array_equal(run.grids[1], [4, 8])
    assert list(run.levels[0]) == [2, 2, 1] and list(run.levels[1]) == [1, 1]
    assert list(run.grid_sizes) == [3, 2]
    assert list(run.exact_plays[0]) == [1, 2, 1] and list(run.exact_plays[1]) == [1, 1]
    assert list(run.n_pair[0]) == [1, 2, 1] and list(run.n_pair[1]) == [1, 1]
    assert np.allclose(run.estimates[0], [0.0, 0.9, 0.9])
    assert np.allclose(run.estimates[1], [0.5, 0.5])
    assert (run.output_arm, run.output_tau) == (0, 4.0)


def test_trajectory_literal_survival_and_double_extension_by_hand():
    """One arm, m = 2, α = 2, δ = 0.5, T = 3, τmax = 8, λ(x) = 0.01x, c ≡ 0, R = 0.9,
    C = 3, 9, 5. L = ln(9/0.5) = ln 18; s = sqrt(4L) = 3.4002.

    t=1  (8) -> C = 3 observed. 𝔠_8 = s(1 + 0.08) = 3.672 ≤ 8: extend -> {4, 8}.
    t=2  (4) ∞ -> C = 9 censored. Point 4: N = 1, E = 1. Point 8: N0 = 2 and, by the literal eq. (9)
         with the latent C, E = 1{9 > 8} = 1 although the play at limit 4 could not observe it.
         𝔠_4 = s(1 + 0.04) = 3.536 ≤ 4 and 𝔠_8 = s + 0.08·s/√2 = 3.593 ≤ 4:
         both extend -> {2, 4, 6, 8}.
    t=3  (2), (6) ∞: int(u_2·2) = 1 -> (6); C = 5 observed at 6.
         ν̂_2 = 0 − 0.02·1/1, ν̂_4 = 0 − 0.04·2/2, ν̂_6 = 0.9, ν̂_8 = 0.9 − 0.08·1/3.
    Output: all four points have level 2 and N ≥ 1; the largest ν̂ is at 6.
    """
    rewards = np.full((1, 3), 0.9)
    consumptions = np.array([[3.0, 9.0, 5.0]])
    run = run_zrcucb(rewards, consumptions, 0.0, 100.0, 0.01, 0.01, 8.0, 2.0, 2, 0.5, 3, KEY)
    assert list(run.plays_tau) == [8, 4, 6]
    assert np.array_equal(run.grids[0], [2, 4, 6, 8])
    assert list(run.levels[0]) == [2, 2, 2, 2]
    assert list(run.n_pair[0]) == [1, 2, 1, 1]
    assert np.allclose(run.estimates[0], [-0.02, -0.04, 0.9, 0.9 - 0.08 / 3])
    assert (run.output_arm, run.output_tau) == (0, 6.0)


def _reference_plays(
    rewards, consumptions, cost, threshold, below, above, tau_max, alpha, m, delta, horizon, key
):
    """Algorithm 1 as the module docstring words it, every index recomputed every round (the
    kernel caches them): the (arm, τ) played in each round."""
    n = rewards.shape[0]
    level = math.log(n * float(horizon) ** 2 / delta)
    grids = [[{"tau": tau_max, "n": 0, "n0": 0, "g": 0.0, "e": 0}] for _ in range(n)]
    pulls = [0] * n

    def width(p):
        lam = below * p["tau"] if p["tau"] <= threshold else above * p["tau"]
        return lam, (
            np.sqrt(2 * alpha * level / p["n"]) + lam * np.sqrt(2 * alpha * level / p["n0"])
        )

    def index(grid, q):
        p = grid[q]
        if p["n"] == 0:
            return np.inf
        lam, conf = width(p)
        down = grid[q - 1]["tau"] if q > 0 else 0.0
        return p["g"] / p["n"] - lam * p["e"] / p["n0"] + conf + (p["tau"] - down)

    plays = []
    for t in range(1, horizon + 1):
        values = [(index(g, q), i, q) for i, g in enumerate(grids) for q in range(len(g))]
        best = max(v for v, _, _ in values)
        tied = [(i, q) for v, i, q in values if v == best]
        arm, point = tied[int(uniform(key, t - 1) * len(tied)) if len(tied) > 1 else 0]
        grid = grids[arm]
        plays.append((arm, grid[point]["tau"]))
        r, c = rewards[arm, pulls[arm]], consumptions[arm, pulls[arm]]
        pulls[arm] += 1
        for q, p in enumerate(grid):
            p["n0"] += 1
            p["e"] += c > p["tau"]
            if q <= point:
                p["n"] += 1
                p["g"] += r - cost * c if c <= p["tau"] else 0.0
        split = [
            q
            for q, p in enumerate(grid)
            if p["n"] > 0 and p["tau"] - (grid[q - 1]["tau"] if q > 0 else 0.0) >= width(p)[1]
        ]
        for q in reversed(split):
            down = grid[q - 1]["tau"] if q > 0 else 0.0
            new = np.empty(m - 1)
            interior_points(down, grid[q]["tau"], m, new)
            grid[q:q] = [{"tau": x, "n": 0, "n0": 0, "g": 0.0, "e": 0} for x in new]
    return plays


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_trajectory_matches_a_reference_that_recomputes_every_index(seed):
    # rewards and consumptions on a coarse lattice, so that exact ties of (13) occur
    rng = np.random.default_rng(seed)
    n, horizon, m = 3, 400, 2 + seed % 2
    rewards = rng.integers(0, 3, (n, horizon)) / 2.0
    consumptions = rng.integers(0, 5, (n, horizon)) / 4.0
    args = (
        rewards,
        consumptions,
        0.1,
        0.5,
        0.02,
        0.05,
        1.0,
        1.5,
        m,
        0.1,
        horizon,
        np.uint64(seed + 11),
    )
    run = run_zrcucb(*args)
    assert list(zip(run.plays_arm.tolist(), run.plays_tau.tolist())) == _reference_plays(*args)


# ---- invariants ---------------------------------------------------------------------------------


def _random_run(key=12345, horizon=4000, m=3, max_points=4096):
    rng = np.random.default_rng(5)
    n = 3
    rewards = rng.random((n, horizon))
    consumptions = rng.random((n, horizon)) * 0.6 + 0.15 * np.arange(n)[:, None]
    return run_zrcucb(
        rewards,
        consumptions,
        0.1,
        0.5,
        0.02,
        0.05,
        1.0,
        1.5,
        m,
        0.1,
        horizon,
        np.uint64(key),
        max_points=max_points,
    ), horizon


def test_invariants_on_a_random_run():
    run, horizon = _random_run()
    assert run.grid_sizes.max() > 1  # some refinement happened
    m = 3
    for i, grid in enumerate(run.grids):
        assert np.all(np.diff(grid) > 0) and grid[0] > 0 and grid[-1] == 1.0
        widths = np.diff(np.concatenate([[0.0], grid]))
        assert np.allclose(widths, float(m) ** -run.levels[i].astype(float))
        assert (grid.size - 1) % (m - 1) == 0
        assert np.all(np.isin(run.plays_tau[run.plays_arm == i], grid))
        # N_{i,τ} counts only plays since creation; τmax exists from the start
        assert run.n_pair[i][-1] == np.count_nonzero((run.plays_arm == i) & (run.plays_tau == 1.0))
        assert run.exact_plays[i].sum() == np.count_nonzero(run.plays_arm == i)
    assert sum(p.sum() for p in run.exact_plays) == horizon
    assert run.plays_arm.size == run.plays_tau.size == horizon
    assert run.output_tau in run.grids[run.output_arm]
    finest = max(lv.max() for lv in run.levels)
    out = np.flatnonzero(run.grids[run.output_arm] == run.output_tau)[0]
    assert run.levels[run.output_arm][out] == finest


def test_determinism_and_capacity():
    first, _ = _random_run(key=99, horizon=1500)
    second, _ = _random_run(key=99, horizon=1500)
    assert np.array_equal(first.plays_tau, second.plays_tau)
    assert np.array_equal(first.plays_arm, second.plays_arm)
    with pytest.raises(RuntimeError):
        _random_run(max_points=2)  # the default run extends at least once (m − 1 = 2 points)


def test_argument_checks():
    rewards = np.zeros((2, 5))
    with pytest.raises(ValueError):
        run_zrcucb(rewards, rewards, 0, 0.5, 0, 0, 1.0, 1.0, 2, 0.1, 5, KEY)  # α must be > 1
    with pytest.raises(ValueError):
        run_zrcucb(rewards, rewards, 0, 0.5, 0, 0, 1.0, 2.0, 2, 0.1, 6, KEY)  # too few pulls
    with pytest.raises(ValueError):
        run_zrcucb(rewards, rewards, 0, 0.5, 0, 0, 1.0, 2.0, 1, 0.1, 5, KEY)  # m ≥ 2
    assert math.isfinite(
        run_zrcucb(rewards, rewards, 0, 0.5, 0, 0, 1.0, 2.0, 2, 0.1, 5, KEY).output_tau
    )
