"""The compiled kernel of z-RCUCB (§4.1, Algorithm 1): eq. (13)'s index and argmax over every arm's
grid points, the feedback update (eqs. (8)–(9)) and the extension rule (14), with the grid
refinement of grid_refinement.py. The rules it follows, and the resolved ambiguities, are in
zooming.py's docstring; zooming.run_zrcucb prepares its arrays and reads its result.
"""

from __future__ import annotations

import numpy as np

from timebandits.core.sim.jit import njit
from timebandits.core.sim.rng import uniform

from .grid_refinement import interior_points

_OK = 0
_CAPACITY = 1


@njit(cache=True)
def _penalty(x, threshold, below, above):
    return below * x if x <= threshold else above * x


@njit(cache=True)
def _refresh_arm(
    i,
    tau,
    n_pair,
    n_arm,
    gain,
    exceed,
    size,
    threshold,
    below,
    above,
    two_alpha_l,
    score,
    width,
    arm_best,
    arm_ties,
):
    """Arm i's index (13) and width 𝔠 at each of its points into ``score`` and ``width`` (∞ for an
    empty point), and the largest index of the arm with its number of maximisers. L is fixed for
    a run, so a point's index changes only when its arm is played or its grid extended: the
    selection reads these cached values, the same bits it would compute afresh."""
    best = -np.inf
    ties = 0
    for p in range(size[i]):
        if n_pair[i, p] == 0:
            value = np.inf
            width[i, p] = np.inf
        else:
            lam = _penalty(tau[i, p], threshold, below, above)
            nu_hat = gain[i, p] / n_pair[i, p] - lam * exceed[i, p] / n_arm[i, p]
            conf = np.sqrt(two_alpha_l / n_pair[i, p]) + lam * np.sqrt(two_alpha_l / n_arm[i, p])
            down = tau[i, p - 1] if p > 0 else 0.0
            value = nu_hat + conf + (tau[i, p] - down)
            width[i, p] = conf
        score[i, p] = value
        if value > best:
            best = value
            ties = 1
        elif value == best:
            ties += 1
    arm_best[i] = best
    arm_ties[i] = ties


@njit(cache=True)
def _select(score, size, arm_best, arm_ties, policy_key, t):
    """Eq. (13)'s argmax over every arm's points from the cached indices: (arm, point). Ties go to
    the maximiser of uniform draw t − 1 among all of them, ordered by arm then ascending τ."""
    best = -np.inf
    n_ties = 0
    for i in range(arm_best.size):
        if arm_best[i] > best:
            best = arm_best[i]
            n_ties = arm_ties[i]
        elif arm_best[i] == best:
            n_ties += arm_ties[i]
    pick = int(uniform(policy_key, t - 1) * n_ties) if n_ties > 1 else 0
    for i in range(arm_best.size):
        if arm_best[i] != best:
            continue
        if pick >= arm_ties[i]:
            pick -= arm_ties[i]
            continue
        for p in range(size[i]):
            if score[i, p] == best:
                if pick == 0:
                    return i, p
                pick -= 1
    return -1, -1


@njit(cache=True)
def _zrcucb_kernel(
    rewards,
    consumptions,
    cost_slope,
    threshold,
    below,
    above,
    tau_max,
    alpha,
    m,
    log_level,
    horizon,
    policy_key,
    tau,
    level,
    n_pair,
    n_arm,
    gain,
    exceed,
    exact,
    size,
    played_arm,
    played_tau,
):
    """Runs ``horizon`` rounds, filling the per-arm point arrays (capacity = tau.shape[1]) and the
    played pairs. Returns 0, or 1 if a grid would exceed its capacity."""
    n = rewards.shape[0]
    capacity = tau.shape[1]
    pulls = np.zeros(n, dtype=np.int64)
    flags = np.zeros(capacity, dtype=np.bool_)
    score = np.empty((n, capacity))
    width = np.empty((n, capacity))
    arm_best = np.empty(n)
    arm_ties = np.zeros(n, dtype=np.int64)
    new = np.empty(m - 1)
    two_alpha_l = 2.0 * alpha * log_level
    for i in range(n):
        tau[i, 0] = tau_max
        size[i] = 1
        _refresh_arm(
            i,
            tau,
            n_pair,
            n_arm,
            gain,
            exceed,
            size,
            threshold,
            below,
            above,
            two_alpha_l,
            score,
            width,
            arm_best,
            arm_ties,
        )
    for t in range(1, horizon + 1):
        arm, point = _select(score, size, arm_best, arm_ties, policy_key, t)  # eq. (13)
        # ---- feedback and update of the played arm, eqs. (8)-(9)
        limit = tau[arm, point]
        r = rewards[arm, pulls[arm]]
        c = consumptions[arm, pulls[arm]]
        pulls[arm] += 1
        played_arm[t - 1] = arm
        played_tau[t - 1] = limit
        exact[arm, point] += 1
        for q in range(size[arm]):
            n_arm[arm, q] += 1
            if c > tau[arm, q]:
                exceed[arm, q] += 1
            if q <= point:  # τ_q ≤ τ_t: the play counts for N_{i,τ_q}
                n_pair[arm, q] += 1
                if c <= tau[arm, q]:
                    gain[arm, q] += r - cost_slope * c
        _refresh_arm(
            arm,
            tau,
            n_pair,
            n_arm,
            gain,
            exceed,
            size,
            threshold,
            below,
            above,
            two_alpha_l,
            score,
            width,
            arm_best,
            arm_ties,
        )
        # ---- extension rule, eq. (14), with the pre-round widths
        any_flag = False
        for q in range(size[arm]):
            down = tau[arm, q - 1] if q > 0 else 0.0
            flags[q] = n_pair[arm, q] > 0 and tau[arm, q] - down >= width[arm, q]
            any_flag |= flags[q]
        if not any_flag:
            continue
        for q in range(size[arm] - 1, -1, -1):  # from the top: lower indices stay valid
            if not flags[q]:
                continue
            if size[arm] + m - 1 > capacity:
                return _CAPACITY
            down = tau[arm, q - 1] if q > 0 else 0.0
            interior_points(down, tau[arm, q], m, new)
            for r_ in range(size[arm] - 1, q - 1, -1):  # shift q.. up by m − 1
                s_ = r_ + m - 1
                tau[arm, s_] = tau[arm, r_]
                level[arm, s_] = level[arm, r_]
                n_pair[arm, s_] = n_pair[arm, r_]
                n_arm[arm, s_] = n_arm[arm, r_]
                gain[arm, s_] = gain[arm, r_]
                exceed[arm, s_] = exceed[arm, r_]
                exact[arm, s_] = exact[arm, r_]
            finer = level[arm, q + m - 1] + 1
            level[arm, q + m - 1] = finer
            for k in range(m - 1):
                s_ = q + k
                tau[arm, s_] = new[k]
                level[arm, s_] = finer
                n_pair[arm, s_] = 0
                n_arm[arm, s_] = 0
                gain[arm, s_] = 0.0
                exceed[arm, s_] = 0
                exact[arm, s_] = 0
            size[arm] += m - 1
        _refresh_arm(
            arm,
            tau,
            n_pair,
            n_arm,
            gain,
            exceed,
            size,
            threshold,
            below,
            above,
            two_alpha_l,
            score,
            width,
            arm_best,
            arm_ties,
        )
    return _OK
