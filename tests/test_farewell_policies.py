"""Tests of the compiled F2A kernels (``timebandits.farewell.policies``) against plain-Python
re-implementations written from the spec (§2.0–2.5) and the paper's Algorithm 1.

The reference below shares nothing with the kernel except ``timebandits.core.sim.rng.uniform`` and
the documented addressing of the environment stream: in epoch s, macro-arm k (0-based) has
    u_τ = uniform(env_key, 2((s−1)K + k)),  τ = smallest d with u_τ < F_k(d),
    u_V = uniform(env_key, 2((s−1)K + k) + 1),  V = 1[u_V < ν_k],
and the agent gets r = V·1[τ ≤ j], c = min(τ, j).

With integer checkpoints t = 0, 1, ..., T every completed epoch is visible (c ≥ 1, so at most one
epoch completes per time unit), so the kernel's checkpoint outputs give back its whole trajectory
(pair, r, c) epoch by epoch; ``_kernel_trajectory`` does that.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from timebandits.core.sim.checkpoints import checkpoint_grid
from timebandits.core.sim.rng import uniform
from timebandits.farewell import policies as P
from timebandits.farewell.model import F2AProblem

WAIT, SIMPLEX, BUDGET, BV1, CONST = 0, 1, 2, 3, 4

# ------------------------------------------------------------------------------------------------
# plain-Python reference
# ------------------------------------------------------------------------------------------------


def _alpha(j):
    return 8.0 * (j - 1) / 3.0


def _beta(j):
    return math.sqrt(2.0) * (math.sqrt(j - 1) + 1.0)


def _env_draw(env_key, s, k, K, cdf_row, nu_k):
    draw = 2 * ((s - 1) * K + k)
    u = float(uniform(np.uint64(env_key), draw))
    tau = 1
    while not u < cdf_row[tau - 1]:
        tau += 1
    v = 1.0 if float(uniform(np.uint64(env_key), draw + 1)) < nu_k else 0.0
    return tau, v


def _ref_indices(policy, N, R, C, D, L, params):
    """Index of every pair from the spec's formulas (L = ln(s−1)), computed from scratch."""
    cost_scale, rho, lam = float(params[0]), float(params[1]), float(params[2])
    out = []
    for a in range(len(N)):
        n, j = N[a], a % D + 1
        if policy == WAIT:  # Alg. 1: Rsum/Csum + α_j ln(s−1)/N + β_j sqrt(ln(s−1)/N)
            out.append(R[a] / C[a] + _alpha(j) * L / n + _beta(j) * math.sqrt(L / n))
            continue
        rbar = R[a] / n
        cbar = (C[a] / cost_scale) / n
        e = math.sqrt(rho * L / n)
        if policy == SIMPLEX:  # min(r̄+ε, 1) / max(c̄−ε, 0), x/0 = +inf
            den = max(cbar - e, 0.0)
            out.append(math.inf if den == 0.0 else min(rbar + e, 1.0) / den)
        elif policy == BUDGET:  # r̄/c̄ + E/c̄ + (E/c̄)·min(r̄+E, 1)/max(c̄−E, λ)
            e_c = e / cbar
            out.append(rbar / cbar + e_c + e_c * min(rbar + e, 1.0) / max(cbar - e, lam))
        elif policy == BV1:  # r̄/c̄ + (1+1/λ) e/(λ−e), +inf while e ≥ λ
            out.append(math.inf if e >= lam else rbar / cbar + (1 + 1 / lam) * e / (lam - e))
        else:
            raise AssertionError(policy)
    return out


def _ref_run(policy, params, problem, env_key, horizon, random_ties=False, policy_key=0):
    """Every executed epoch (including the overshooting last one) as dicts."""
    K, D = problem.K, problem.D
    cdf, nu = problem.delay_cdf.tolist(), problem.reward_prob.tolist()
    n_pairs = K * D
    N, R, C = [0] * n_pairs, [0.0] * n_pairs, [0] * n_pairs
    spent, s, epochs = 0, 1, []
    while spent < horizon:  # Alg. 1: while T > 0
        index = None
        if policy == CONST:
            a = int(params[3])
        elif 0 in N:  # UCB = +inf until pulled once; ascending flat order
            a = N.index(0)
        else:
            index = _ref_indices(policy, N, R, C, D, math.log(s - 1), params)
            best = max(index)
            ties = [b for b in range(n_pairs) if index[b] == best]
            a = ties[0]
            if random_ties and len(ties) > 1:
                a = ties[int(float(uniform(np.uint64(policy_key), s - 1)) * len(ties))]
        k, j = divmod(a, D)
        j += 1
        tau, v = _env_draw(env_key, s, k, K, cdf[k], nu[k])
        r = v if tau <= j else 0.0
        c = min(tau, j)
        epochs.append(dict(s=s, a=a, tau=tau, v=v, r=r, c=c, index=index))
        N[a] += 1
        R[a] += r
        C[a] += c
        spent += c
        s += 1
    return epochs


def _ref_at(epochs, t, n_pairs):
    """(reward, L_t, pulls) with L_t = max{n : C_n ≤ t}."""
    cum = np.cumsum([e["c"] for e in epochs])
    L = int(np.searchsorted(cum, t, side="right"))
    reward = sum(e["r"] for e in epochs[:L])
    pulls = np.bincount([e["a"] for e in epochs[:L]], minlength=n_pairs)
    return reward, L, pulls


def _kernel(
    policy,
    params,
    problem,
    env_key,
    horizon,
    checkpoints,
    random_ties=False,
    policy_key=0,
    alpha=None,
    beta=None,
):
    if alpha is None:
        a, b = P.wait_ucb_constants(problem.D)
        alpha, beta = np.tile(a, problem.K), np.tile(b, problem.K)  # one entry per flat pair
    return P.run_f2a(
        policy,
        np.asarray(params, dtype=float),
        random_ties,
        alpha,
        beta,
        problem.delay_cdf,
        problem.reward_prob,
        np.uint64(env_key),
        np.uint64(policy_key),
        horizon,
        np.asarray(checkpoints, dtype=np.int64),
    )


def _kernel_trajectory(out):
    """(pair, r, c) of every completed epoch, from outputs at checkpoints 0, 1, ..., T."""
    reward_at, epochs_at, pulls_at = out
    assert epochs_at[0] == 0
    trajectory, last = [], 0
    for t in range(1, epochs_at.size):
        step = epochs_at[t] - epochs_at[t - 1]
        assert step in (0, 1)
        if step:
            diff = pulls_at[t] - pulls_at[t - 1]
            assert diff.sum() == 1 and diff.min() == 0
            reward = float(reward_at[t] - reward_at[t - 1])
            trajectory.append((int(np.argmax(diff)), reward, t - last))
            last = t
        else:
            assert reward_at[t] == reward_at[t - 1]
            np.testing.assert_array_equal(pulls_at[t], pulls_at[t - 1])
    return trajectory


# problems
K1D2 = F2AProblem([1.0], [[0.5, 0.5]])
K2D3 = F2AProblem([0.6, 0.9], [[0.3, 0.3, 0.4], [0.1, 0.2, 0.7]])
K2D4 = F2AProblem([0.6, 0.9], [[0.2, 0.3, 0.1, 0.4], [0.4, 0.1, 0.3, 0.2]])

# params = [cost_scale, ρ, λ, constant pair]
DEFAULT = {K1D2: [2.0, 2.0, 0.5, 0.0], K2D3: [3.0, 2.0, 1 / 3, 0.0]}  # spec defaults: D, 2, 1/D
FINITE = [1.0, 0.5, 1.0, 0.0]  # raw costs, small radius: indices become finite quickly


# ------------------------------------------------------------------------------------------------
# constants and index functions on hand-computed states
# ------------------------------------------------------------------------------------------------


def test_wait_ucb_constants_by_hand():
    # α_j = 8(j−1)/3: 0, 8/3, 16/3, 8;  β_j = √2(√(j−1)+1): √2, 2√2, √2(√2+1) = 2+√2, √2(√3+1)
    alpha, beta = P.wait_ucb_constants(4)
    np.testing.assert_allclose(alpha, [0.0, 8 / 3, 16 / 3, 8.0], rtol=1e-15)
    np.testing.assert_allclose(
        beta,
        [math.sqrt(2), 2 * math.sqrt(2), 2 + math.sqrt(2), math.sqrt(2) * (math.sqrt(3) + 1)],
        rtol=1e-15,
    )
    # j = 1 is UCB1: radius sqrt(2 ln s / N)
    assert alpha[0] == 0.0 and beta[0] ** 2 == pytest.approx(2.0)


def _state(N, R, C, cost_scale):
    N, R, C = (np.asarray(x, dtype=float) for x in (N, R, C))
    cbar = C / N / cost_scale
    return dict(inv_n=1 / N, ratio=R / C, rbar=R / N, cbar=cbar, inv_c=1 / cbar)


def _over_pairs(index_function, per_pair, *scalars):
    """A scalar index function of ``policies`` applied to every pair of the per-pair arrays."""
    return np.array(
        [
            index_function(*(float(x[a]) for x in per_pair), *scalars)
            for a in range(len(per_pair[0]))
        ]
    )


def test_index_functions_state_a():
    # N = [4, 2], Rsum = [2, 1], Csum = [6, 5], cost_scale 10, ρ = 2, λ = 0.1, s−1 = 6,
    # L = ln 6 = 1.791759469. Pairs are (1,1) and (1,2) (K = 1, D = 2).
    st = _state([4, 2], [2, 1], [6, 5], 10.0)
    L = math.log(6)
    # Wait-UCB: a=0 (j=1): ĝ = 2/6 = .333333; L/N = .447940; √ = .669283; β·√ = √2·.669283 = .946509
    #           -> 1.279843
    #           a=1 (j=2): ĝ = 1/5 = .2; L/N = .895880; α·L/N = 8/3·.895880 = 2.389013;
    #           β·√ = 2√2·.946509 = 2.677132 -> 5.266145
    out = _over_pairs(
        P.wait_ucb_index,
        (
            st["ratio"],
            st["inv_n"],
            np.array([0.0, 8 / 3]),
            np.array([math.sqrt(2), 2 * math.sqrt(2)]),
        ),
        L,
    )
    np.testing.assert_allclose(out, [1.279842570, 5.266145024], rtol=1e-8)
    # r̄ = [.5, .5], c̄ = [6/40, 5/20] = [.15, .25]; ε = sqrt(2L/N) = [.946509, 1.338566]
    # UCB-Simplex: c̄ − ε < 0 for both -> +inf, +inf
    out = _over_pairs(P.ucb_simplex_index, (st["rbar"], st["cbar"], st["inv_n"]), 2.0, L)
    assert np.all(np.isinf(out)) and np.all(out > 0)
    # Budget-UCB: a=0: r̄/c̄ = 3.333333, E/c̄ = .946509/.15 = 6.310062, min(r̄+E,1) = 1,
    #             max(c̄−E, λ) = .1 -> 6.310062·1/.1 = 63.100616; total 72.744011
    #             a=1: 2 + 5.354265 + 53.542648 = 60.896913
    out = _over_pairs(
        P.budget_ucb_index, (st["rbar"], st["cbar"], st["inv_c"], st["inv_n"]), 2.0, 0.1, L
    )
    np.testing.assert_allclose(out, [72.744010670, 60.896912758], rtol=1e-8)
    # UCB-BV1: e = ε ≥ λ = .1 for both -> +inf
    out = _over_pairs(P.ucb_bv1_index, (st["rbar"], st["inv_c"], st["inv_n"]), 2.0, 0.1, L)
    assert np.all(np.isposinf(out))


def test_index_functions_state_b_finite():
    # N = [100, 50], Rsum = [50, 20], Csum = [150, 125], cost_scale 10, s−1 = 100,
    # L = ln 100 = 4.605170186; r̄ = [.5, .4], c̄ = [.15, .25]
    st = _state([100, 50], [50, 20], [150, 125], 10.0)
    L = math.log(100)
    # Wait-UCB: a=0: 1/3 + √2·sqrt(.0460517 = L/100) = .333333 + √2·.214597 = .333333 + .303485
    #           = .636819;  a=1: .16 + 8/3·.0921034 + 2√2·.303485 = .16 + .245609 + .858386
    #           = 1.263995
    out = _over_pairs(
        P.wait_ucb_index,
        (
            st["ratio"],
            st["inv_n"],
            np.array([0.0, 8 / 3]),
            np.array([math.sqrt(2), 2 * math.sqrt(2)]),
        ),
        L,
    )
    np.testing.assert_allclose(out, [0.636818759, 1.263995487], rtol=1e-8)
    # ρ = 0.25: ε = sqrt(.25 L / N) = [sqrt(.0115129) = .107298, sqrt(.0230259) = .151743]
    # UCB-Simplex: a=0: .607298/(.15 − .107298 = .042702) = 14.221877
    #              a=1: .551743/(.25 − .151743 = .098257) = 5.615285
    out = _over_pairs(P.ucb_simplex_index, (st["rbar"], st["cbar"], st["inv_n"]), 0.25, L)
    np.testing.assert_allclose(out, [14.221876881, 5.615285435], rtol=1e-8)
    # Budget-UCB, λ = .05: a=0: 3.333333 + .715322 + .715322·.607298/max(.042702, .05 = λ)
    #                          = 3.333333 + .715322 + 8.688277 = 12.736932
    #                      a=1: 1.6 + .606971 + .606971·.551743/.098257 = 5.615285
    # (with neither the cap nor the floor binding, Budget-UCB's index simplifies to
    #  (r̄+E)/c̄ · (1 + E/(c̄−E)) = (r̄+E)/(c̄−E), i.e. UCB-Simplex's value: a=1 shows it.)
    out = _over_pairs(
        P.budget_ucb_index, (st["rbar"], st["cbar"], st["inv_c"], st["inv_n"]), 0.25, 0.05, L
    )
    np.testing.assert_allclose(out, [12.736932158, 5.615285435], rtol=1e-8)
    # UCB-BV1, λ = .2: a=0: 3.333333 + (1+5)·.107298/(.2 − .107298) = 3.333333 + 6.944747
    #                     = 10.278080;  a=1: 1.6 + 6·.151743/.048257 = 1.6 + 18.866711 = 20.466711
    out = _over_pairs(P.ucb_bv1_index, (st["rbar"], st["inv_c"], st["inv_n"]), 0.25, 0.2, L)
    np.testing.assert_allclose(out, [10.278079945, 20.466710772], rtol=1e-8)


def test_index_functions_match_reference_on_random_states():
    rng = np.random.default_rng(5)
    K, D = 2, 4
    N = rng.integers(1, 60, size=K * D)
    C = np.array([rng.integers(n, n * (a % D + 1) + 1) for a, n in enumerate(N)])
    R = np.array([rng.integers(0, n + 1) for n in N]).astype(float)
    for cost_scale, rho, lam in [(4.0, 2.0, 0.25), (1.0, 0.3, 1.0), (4.0, 0.05, 0.2)]:
        st = _state(N, R, C, cost_scale)
        L = math.log(150)
        params = [cost_scale, rho, lam, 0]
        alpha, beta = P.wait_ucb_constants(D)
        out = _over_pairs(
            P.wait_ucb_index, (st["ratio"], st["inv_n"], np.tile(alpha, K), np.tile(beta, K)), L
        )
        np.testing.assert_allclose(out, _ref_indices(WAIT, N, R, C, D, L, params), rtol=1e-12)
        out = _over_pairs(P.ucb_simplex_index, (st["rbar"], st["cbar"], st["inv_n"]), rho, L)
        np.testing.assert_allclose(out, _ref_indices(SIMPLEX, N, R, C, D, L, params), rtol=1e-12)
        out = _over_pairs(
            P.budget_ucb_index, (st["rbar"], st["cbar"], st["inv_c"], st["inv_n"]), rho, lam, L
        )
        np.testing.assert_allclose(out, _ref_indices(BUDGET, N, R, C, D, L, params), rtol=1e-12)
        out = _over_pairs(P.ucb_bv1_index, (st["rbar"], st["inv_c"], st["inv_n"]), rho, lam, L)
        np.testing.assert_allclose(out, _ref_indices(BV1, N, R, C, D, L, params), rtol=1e-12)


# ------------------------------------------------------------------------------------------------
# Wait-UCB by hand: K = 1, D = 2, ν = 1, pmf [.5, .5] (F = [.5, 1]), env_key 2020, T = 8
# ------------------------------------------------------------------------------------------------


def test_wait_ucb_first_six_epochs_by_hand():
    key = np.uint64(2020)
    # environment draws (K = 1: epoch s uses counters 2(s−1) for τ and 2(s−1)+1 for V)
    u = {c: uniform(key, c) for c in (0, 1, 2, 3, 4, 6, 8, 10)}
    np.testing.assert_allclose(
        [u[0], u[1], u[2], u[3], u[4], u[6], u[8], u[10]],
        [
            0.844026256,
            0.667211376,
            0.377775078,
            0.301666025,
            0.039049459,
            0.638082186,
            0.893759670,
            0.131697333,
        ],
        atol=1e-8,
    )
    # ν = 1 so V = 1 in every epoch (u_V < 1 always).
    # s=1 init j=1: u=.8440 ≥ .5 -> τ=2 > j -> r=0, c=1.        N=[1,0] R=[0,0] C=[1,0]  C_1=1
    # s=2 init j=2: u=.3778 < .5 -> τ=1      -> r=1, c=1.        N=[1,1] R=[0,1] C=[1,1]  C_2=2
    # s=3: L = ln 2 = .693147
    #      U_1 = 0/1 + 0 + √2·√.693147 = 1.177410
    #      U_2 = 1/1 + 8/3·.693147 + 2√2·√.693147 = 1 + 1.848392 + 2.354820 = 5.203213  -> j=2
    #      u=.0390 -> τ=1 -> r=1, c=1.                          N=[1,2] R=[0,2] C=[1,2]  C_3=3
    # s=4: L = ln 3 = 1.098612
    #      U_1 = √2·√1.098612 = 1.482304
    #      U_2 = 2/2 + 8/3·.549306 + 2√2·√.549306 = 1 + 1.464816 + 2.096295 = 4.561111   -> j=2
    #      u=.6381 -> τ=2 ≤ 2 -> r=1, c=2.                       N=[1,3] R=[0,3] C=[1,4]  C_4=5
    # s=5: L = ln 4 = 1.386294
    #      U_1 = √2·√1.386294 = 1.665109
    #      U_2 = 3/4 + 8/3·.462098 + 2√2·√.462098 = .75 + 1.232262 + 1.922702 = 3.904964 -> j=2
    #      u=.8938 -> τ=2 -> r=1, c=2.                          N=[1,4] R=[0,4] C=[1,6]  C_5=7
    # s=6: L = ln 5 = 1.609438
    #      U_1 = √2·√1.609438 = 1.794123
    #      U_2 = 4/6 + 8/3·.402359 + 2√2·√.402359 = .666667 + 1.072959 + 1.794123 = 3.533748
    #      -> j=2; u=.1317 -> τ=1 -> r=1, c=1.                  N=[1,5] R=[0,5] C=[1,7]  C_6=8
    # spent = 8 = T: the loop stops after exactly six epochs (no overshoot).
    hand_indices = {
        3: [1.177410023, 5.203212527],
        4: [1.482303807, 4.561110533],
        5: [1.665109222, 3.904964170],
        6: [1.794122578, 3.533747853],
    }
    hand = [(0, 0.0, 1), (1, 1.0, 1), (1, 1.0, 1), (1, 1.0, 2), (1, 1.0, 2), (1, 1.0, 1)]

    # the reference reproduces the hand calculation
    ref = _ref_run(WAIT, DEFAULT[K1D2], K1D2, 2020, 8)
    assert [(e["a"], e["r"], e["c"]) for e in ref] == hand
    assert [e["tau"] for e in ref] == [2, 1, 1, 2, 2, 1]
    for e in ref[2:]:
        np.testing.assert_allclose(e["index"], hand_indices[e["s"]], rtol=1e-8)

    # the kernel's index function on the hand states
    states = {
        3: ([1, 1], [0, 1], [1, 1]),
        4: ([1, 2], [0, 2], [1, 2]),
        5: ([1, 3], [0, 3], [1, 4]),
        6: ([1, 4], [0, 4], [1, 6]),
    }
    for s, (N, R, C) in states.items():
        st = _state(N, R, C, 2.0)
        out = _over_pairs(
            P.wait_ucb_index, (st["ratio"], st["inv_n"], *P.wait_ucb_constants(2)), math.log(s - 1)
        )
        np.testing.assert_allclose(out, hand_indices[s], rtol=1e-8)

    # the kernel at every integer checkpoint 0..8
    out = _kernel(WAIT, DEFAULT[K1D2], K1D2, 2020, 8, np.arange(9))
    reward_at, epochs_at, pulls_at = out
    # epochs end at C = 1, 2, 3, 5, 7, 8
    assert epochs_at.tolist() == [0, 1, 2, 3, 3, 4, 4, 5, 6]
    assert reward_at.tolist() == [0, 0, 1, 2, 2, 3, 3, 4, 5]
    assert pulls_at[-1].tolist() == [1, 5]
    assert pulls_at[2].tolist() == [1, 1]
    assert _kernel_trajectory(out) == hand


def test_wait_ucb_overshoot_by_hand():
    # K=1, D=3, ν=1, τ ≡ 3 (pmf [0,0,1]): r = 1[j = 3], c = min(3, j) = j; T = 10
    # s=1..3 init: j=1 (r0,c1), j=2 (r0,c2), j=3 (r1,c3): C = 1, 3, 6
    #   N=[1,1,1] R=[0,0,1] C=[1,2,3]
    # s=4, L = ln 3 = 1.098612, √L = 1.048147:
    #   U_1 = √2·1.048147 = 1.482304
    #   U_2 = 0 + 8/3·1.098612 + 2√2·1.048147 = 2.929632 + 2.964607 = 5.894239
    #   U_3 = 1/3 + 16/3·1.098612 + (2+√2)·1.048147 = .333333 + 5.859264 + 3.578599 = 9.771196
    #   -> j=3: r=1, c=3, C_4 = 9.    N=[1,1,2] R=[0,0,2] C=[1,2,6]
    # s=5, L = ln 4 = 1.386294:
    #   U_1 = √2·√1.386294 = 1.665109
    #   U_2 = 8/3·1.386294 + 2√2·1.177410 = 3.696785 + 3.330218 = 7.027003
    #   U_3 = 2/6 + 16/3·.693147 + (2+√2)·.832555 = .333333 + 3.696785 + 2.842519 = 6.872637
    #   -> j=2: r=0, c=2, C_5 = 11 > T = 10: this epoch is played (spent 9 < 10) but overshoots.
    p = F2AProblem([1.0], [[0.0, 0.0, 1.0]])
    ref = _ref_run(WAIT, [3.0, 2.0, 1 / 3, 0], p, 7, 10)
    assert [(e["a"], e["r"], e["c"]) for e in ref] == [
        (0, 0, 1),
        (1, 0, 2),
        (2, 1, 3),
        (2, 1, 3),
        (1, 0, 2),
    ]
    np.testing.assert_allclose(ref[3]["index"], [1.482303807, 5.894238, 9.771196], rtol=1e-6)
    np.testing.assert_allclose(ref[4]["index"], [1.665109222, 7.027003, 6.872637], rtol=1e-6)
    reward_at, epochs_at, pulls_at = _kernel(WAIT, [3.0, 2.0, 1 / 3, 0], p, 7, 10, np.arange(11))
    # L_t for t = 0..10 with C = 1, 3, 6, 9 (and 11, excluded)
    assert epochs_at.tolist() == [0, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4]
    assert reward_at.tolist() == [0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2]
    assert pulls_at[10].tolist() == [1, 1, 2]  # the overshooting pull of j=2 is not counted
    # with T = 11 the fifth epoch ends exactly on the budget and is counted
    reward_at, epochs_at, pulls_at = _kernel(WAIT, [3.0, 2.0, 1 / 3, 0], p, 7, 11, [10, 11])
    assert epochs_at.tolist() == [4, 5]
    assert pulls_at[1].tolist() == [1, 2, 2]


# ------------------------------------------------------------------------------------------------
# kernel == reference, epoch by epoch
# ------------------------------------------------------------------------------------------------

CASES = [(WAIT, K1D2, DEFAULT[K1D2]), (WAIT, K2D3, DEFAULT[K2D3])]
for _policy in (SIMPLEX, BUDGET, BV1):
    CASES += [
        (_policy, K1D2, DEFAULT[K1D2]),
        (_policy, K2D3, DEFAULT[K2D3]),
        (_policy, K1D2, FINITE),
        (_policy, K2D3, FINITE),
    ]
CASES += [(CONST, K2D3, [1.0, 1.0, 1.0, 4.0]), (CONST, K1D2, [1.0, 1.0, 1.0, 0.0])]


@pytest.mark.parametrize("policy,problem,params", CASES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kernel_matches_reference_every_epoch(policy, problem, params, seed):
    T = 200
    out = _kernel(policy, params, problem, seed, T, np.arange(T + 1))
    ref = _ref_run(policy, params, problem, seed, T)
    traj = _kernel_trajectory(out)
    expected = [(e["a"], e["r"], e["c"]) for e in ref]
    overshoot = sum(e["c"] for e in ref) > T
    assert len(traj) == len(ref) - overshoot
    assert traj == expected[: len(traj)]
    if policy != CONST:  # initialisation: each pair once, ascending flat index
        n_pairs = problem.K * problem.D
        assert [a for a, _, _ in traj[:n_pairs]] == list(range(n_pairs))
    # every checkpoint output equals the reference's (reward, L_t, pulls)
    for t in (0, 1, 7, 50, 199, 200):
        reward, L, pulls = _ref_at(ref, t, problem.K * problem.D)
        assert out[0][t] == reward and out[1][t] == L
        np.testing.assert_array_equal(out[2][t], pulls)
    if params is FINITE and policy != CONST:
        # make sure the index formula (not only the +inf rules) decided most epochs
        finite = [e for e in ref if e["index"] is not None and math.isfinite(max(e["index"]))]
        assert len(finite) > len(ref) // 2


def test_wait_ucb_long_run_matches_reference_sparse_checkpoints():
    T = 3000
    cps = checkpoint_grid(T, 40)
    assert cps[-1] == T and np.all(np.diff(cps) > 0)
    out = _kernel(WAIT, DEFAULT[K2D3], K2D3, 99, T, cps)
    ref = _ref_run(WAIT, DEFAULT[K2D3], K2D3, 99, T)
    for i, t in enumerate(cps):
        reward, L, pulls = _ref_at(ref, t, 6)
        assert out[0][i] == reward and out[1][i] == L
        np.testing.assert_array_equal(out[2][i], pulls)


# ------------------------------------------------------------------------------------------------
# checkpoint semantics
# ------------------------------------------------------------------------------------------------


def test_checkpoints_constant_policy_deterministic_delay():
    # τ ≡ 3, constant pair j = 3: c ≡ 3, r ≡ 1. T = 10: epochs end at C = 3, 6, 9, 12; the 4th
    # is played (9 < 10) but overshoots, so L_10 = 3 and the reward at t = 10 is 3.
    p = F2AProblem([1.0], [[0.0, 0.0, 1.0]])
    cps = [0, 1, 2, 3, 5, 6, 8, 9, 10]
    reward_at, epochs_at, pulls_at = _kernel(CONST, [1, 1, 1, 2], p, 0, 10, cps)
    assert epochs_at.tolist() == [0, 0, 0, 1, 1, 2, 2, 3, 3]
    assert reward_at.tolist() == [0, 0, 0, 1, 1, 2, 2, 3, 3]
    assert pulls_at[:, 2].tolist() == [0, 0, 0, 1, 1, 2, 2, 3, 3]
    assert np.all(pulls_at[:, :2] == 0)
    # T = 9: the budget is used exactly; L_9 = 3
    _, epochs_at, _ = _kernel(CONST, [1, 1, 1, 2], p, 0, 9, [9])
    assert epochs_at.tolist() == [3]


@pytest.mark.parametrize("policy", [WAIT, SIMPLEX, BUDGET, BV1])
def test_overshooting_epoch_excluded_at_horizon(policy):
    # find seeds whose last executed epoch overshoots T and check L_T = (epochs played) − 1
    T, found = 150, 0
    for seed in range(40):
        ref = _ref_run(policy, DEFAULT[K2D3], K2D3, seed, T)
        if sum(e["c"] for e in ref) == T:
            continue
        found += 1
        reward_at, epochs_at, pulls_at = _kernel(policy, DEFAULT[K2D3], K2D3, seed, T, [T])
        assert epochs_at[0] == len(ref) - 1
        assert reward_at[0] == sum(e["r"] for e in ref[:-1])
        assert pulls_at[0].sum() == len(ref) - 1
        if found == 3:
            break
    assert found == 3


# ------------------------------------------------------------------------------------------------
# common random numbers
# ------------------------------------------------------------------------------------------------


def test_constant_policies_on_one_macro_arm_see_the_same_delays():
    # With V and τ addressed by (s, k), the constant policy (k, D) reveals τ_{k,s} (c = τ since
    # τ ≤ D) and V_{k,s} (r = V); every (k, j) must then see c = min(τ_{k,s}, j) and
    # r = V_{k,s}·1[τ_{k,s} ≤ j] in its own epoch s.
    p = K2D4
    T = 300
    for k in range(p.K):
        full = _kernel_trajectory(
            _kernel(CONST, [1, 1, 1, k * p.D + p.D - 1], p, 11, 4 * T, np.arange(4 * T + 1))
        )
        taus = [c for _, _, c in full]
        vs = [r for _, r, _ in full]
        assert len(full) >= T  # horizon 4T and every epoch lasts at most D = 4
        # against the reference environment directly
        for s in range(1, 51):
            tau, v = _env_draw(11, s, k, p.K, p.delay_cdf[k].tolist(), p.reward_prob[k])
            assert (taus[s - 1], vs[s - 1]) == (tau, v)
        for j in range(1, p.D):
            traj = _kernel_trajectory(
                _kernel(CONST, [1, 1, 1, k * p.D + j - 1], p, 11, T, np.arange(T + 1))
            )
            assert all(a == k * p.D + j - 1 for a, _, _ in traj)
            n = len(traj)
            assert [c for _, _, c in traj] == [min(t, j) for t in taus[:n]]
            assert [r for _, r, _ in traj] == [v * (t <= j) for t, v in zip(taus[:n], vs[:n])]
        # reward count of j = D equals Σ V_{k,s} over the first L_T epochs
        reward_at, epochs_at, _ = _kernel(CONST, [1, 1, 1, k * p.D + p.D - 1], p, 11, T, [T])
        assert reward_at[0] == sum(vs[: epochs_at[0]])


def test_learning_policies_meet_the_same_draws_as_constant_policies():
    # Wait-UCB's epoch s on pair (k, j) gets c = min(τ_{k,s}, j), r = V_{k,s}·1[τ_{k,s} ≤ j] with
    # (τ_{k,s}, V_{k,s}) read off the constant policy (k, D) of the same env key.
    p, T, key = K2D3, 300, 5
    revealed = []
    for k in range(p.K):
        traj = _kernel_trajectory(
            _kernel(CONST, [1, 1, 1, k * p.D + p.D - 1], p, key, p.D * T, np.arange(p.D * T + 1))
        )
        revealed.append([(c, r) for _, r, c in traj])
    for policy in (WAIT, BUDGET):
        traj = _kernel_trajectory(_kernel(policy, DEFAULT[p], p, key, T, np.arange(T + 1)))
        assert len(traj) > 100
        for s, (a, r, c) in enumerate(traj, start=1):
            k, j = divmod(a, p.D)
            tau, v = revealed[k][s - 1]
            assert c == min(tau, j + 1) and r == v * (tau <= j + 1)


def test_constant_policy_monte_carlo_matches_closed_forms():
    # per-epoch reward ≈ μ^r and per-epoch time ≈ μ^c for every pair (within 4 SE + edge effect)
    p, T = K2D3, 20_000
    d = np.arange(1, p.D + 1)
    for a in range(p.K * p.D):
        k, j0 = divmod(a, p.D)
        j = j0 + 1
        reward_at, epochs_at, _ = _kernel(CONST, [1, 1, 1, a], p, 1000 + a, T, [T])
        L = epochs_at[0]
        mu_r, mu_c = p.mean_reward[k, j0], p.mean_cost[k, j0]
        var_c = np.sum(np.minimum(d, j) ** 2 * p.delay_pmf[k]) - mu_c**2
        assert abs(reward_at[0] / L - mu_r) <= 4 * math.sqrt(mu_r * (1 - mu_r) / L)
        # C_L ∈ (T − j, T], so T/L is the mean consumption up to j/L
        assert abs(T / L - mu_c) <= 4 * math.sqrt(var_c / L) + j / L + 1e-12
        # Thm 1 (C9): the reward of the constant policy is T·g ± O(j). Monte Carlo slack: about
        # T/μ^c epochs, reward sd sqrt(L·μ^r(1−μ^r)), plus g times the sd of the time used.
        g = p.ratio[k, j0]
        slack = 4 * math.sqrt(T / mu_c * mu_r * (1 - mu_r)) + 4 * g * math.sqrt(T / mu_c * var_c)
        assert abs(reward_at[0] - T * g) <= j + slack


# ------------------------------------------------------------------------------------------------
# ties and determinism
# ------------------------------------------------------------------------------------------------

ALL_TIES = F2AProblem([1.0, 1.0, 1.0], [[1.0], [1.0], [1.0]])  # K=3, D=1: r ≡ c ≡ 1
# raw costs (c̄ = 1) and ρ = .05 keep every baseline index finite from s = 4 on
# (ε = sqrt(.05·ln 3) = .234 < c̄ = λ = 1); with +inf indices the least-pulled pairs would not
# be the only maximisers.
TIE_PARAMS = (1.0, 0.05, 1.0, 0.0)


def _choices(policy, problem, T, random_ties, policy_key, params=TIE_PARAMS, env=3):
    return [
        a
        for a, _, _ in _kernel_trajectory(
            _kernel(
                policy, list(params), problem, env, T, np.arange(T + 1), random_ties, policy_key
            )
        )
    ]


@pytest.mark.parametrize("policy", [WAIT, SIMPLEX, BUDGET, BV1])
def test_first_maximiser_default_is_round_robin_on_identical_arms(policy):
    # every pair has ĝ = 1, r̄ = c̄ = 1 and the same constants; the (finite) index only depends
    # on N and is decreasing in N, so the maximisers are the least-pulled pairs and the first of
    # them wins: a_s = (s − 1) mod 3.
    assert _choices(policy, ALL_TIES, 60, False, 0) == [s % 3 for s in range(60)]


@pytest.mark.parametrize("policy", [WAIT, SIMPLEX, BUDGET, BV1])
def test_random_ties_reproducible_and_only_maximisers(policy):
    T = 60
    a1 = _choices(policy, ALL_TIES, T, True, 17)
    assert a1 == _choices(policy, ALL_TIES, T, True, 17)  # same policy key -> same choices
    # only maximisers: each block of 3 epochs after the first is a permutation of {0, 1, 2}
    # (the least-pulled pairs are exactly the maximisers)
    for b in range(0, T, 3):
        assert sorted(a1[b : b + 3]) == [0, 1, 2]
    assert a1[:3] == [0, 1, 2]  # initialisation is not randomised
    assert a1 != [s % 3 for s in range(T)]  # random ties actually do something
    a2 = _choices(policy, ALL_TIES, T, True, 18)
    assert a2 != a1  # another policy key gives other choices
    # the documented draw: pick = int(uniform(policy_key, s − 1)·#ties), the pick-th maximiser
    ref = _ref_run(policy, TIE_PARAMS, ALL_TIES, 3, T, random_ties=True, policy_key=17)
    assert [e["a"] for e in ref] == a1
    # the first pair of a 3-way tie is not always pair 0 (all three come up)
    assert set(a1[3::3]) == {0, 1, 2}


@pytest.mark.parametrize(
    "policy,problem,params",
    [(WAIT, K2D3, DEFAULT[K2D3]), (SIMPLEX, K2D3, DEFAULT[K2D3]), (BUDGET, K1D2, FINITE)],
)
def test_random_ties_match_reference_on_ordinary_problems(policy, problem, params):
    # UCB-Simplex's default config has many +inf ties; random ties pick among them
    T = 200
    for pkey in (1, 2):
        traj = _kernel_trajectory(
            _kernel(policy, params, problem, 8, T, np.arange(T + 1), True, pkey)
        )
        ref = _ref_run(policy, params, problem, 8, T, random_ties=True, policy_key=pkey)
        assert traj == [(e["a"], e["r"], e["c"]) for e in ref][: len(traj)]


def test_random_ties_change_ucb_simplex_choices():
    T = 200
    first = _choices(SIMPLEX, K2D3, T, False, 0, params=DEFAULT[K2D3], env=8)
    rand = _choices(SIMPLEX, K2D3, T, True, 1, params=DEFAULT[K2D3], env=8)
    assert first != rand


@pytest.mark.parametrize(
    "policy,params",
    [
        (WAIT, DEFAULT[K2D3]),
        (SIMPLEX, DEFAULT[K2D3]),
        (BUDGET, DEFAULT[K2D3]),
        (BV1, FINITE),
        (CONST, [1, 1, 1, 3]),
    ],
)
def test_determinism(policy, params):
    cps = checkpoint_grid(2000, 30)
    a = _kernel(policy, params, K2D3, 123, 2000, cps, True, 9)
    b = _kernel(policy, params, K2D3, 123, 2000, cps, True, 9)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    c = _kernel(policy, params, K2D3, 124, 2000, cps, True, 9)
    assert not np.array_equal(a[0], c[0])  # another environment key gives another game


def test_run_f2a_rejects_per_micro_arm_constants():
    # α, β must have one entry per flat pair (K·D); untiled length-D arrays are refused.
    alpha, beta = P.wait_ucb_constants(K2D3.D)  # length D = 3, K = 2
    with pytest.raises(ValueError, match="one entry per"):
        _kernel(WAIT, DEFAULT[K2D3], K2D3, 1, 1000, [100, 1000], alpha=alpha, beta=beta)
