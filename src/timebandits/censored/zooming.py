"""z-RCUCB (§4.1, Algorithm 1, eqs. (13)–(14)): its run and its output pair (Alg. 1 line 9); the
compiled kernel is in zooming_kernel.py, its grid refinement, shared with the Fig. 3 schematic, in
grid_refinement.py. Theory only: no experiment of the paper runs z-RCUCB (spec §2.5).

Each arm i keeps a sorted grid M^(i) ⊂ (0, τmax], initially {τmax}. A point τ represents the
interval (down(τ), τ], down(τ) = the next smaller point of the arm's grid, 0 if none (the printed
down_i(τ) = max{τ̃ ≤ τ} would be τ itself; read as strictly smaller, as Fig. 3's example shows).
With L = ln(n T²/δ) (the confidence level nT²/δ of (13)) and, per grid point τ of arm i,
    N_{i,τ}  plays of arm i with limit ≥ τ,            G_{i,τ} = Σ (R − c(C))·1{C ≤ τ} over those,
    N_{i,0}  plays of arm i,                           E_{i,τ} = Σ 1{C > τ} over those,
    ν̂ = G/N − λ(τ)·E/N_{i,0}   (eqs. (8)–(10)),
    𝔠 = sqrt(2αL/N_{i,τ}) + λ(τ)·sqrt(2αL/N_{i,0})   (RCUCB's width with ln t → L),
round t plays
    argmax_{i, τ ∈ M^(i)} ν̂_{i,τ} + 𝔠_{i,τ} + (τ − down_i(τ))          (13)
(ties: a uniformly drawn maximiser, draw number t − 1 of the policy stream, maximisers ordered by
arm then ascending τ), observes (R, C) if C ≤ τ_t, updates the played arm, and then extends the
played arm's grid at every point τ with
    τ − down(τ) ≥ 𝔠_{I_t,τ}                                                 (14)
(the m − 1 interior points of the equidistant split of [down(τ), τ], ``extend``).

Resolved ambiguities (spec §2.5; record in the config's provenance):
* New points start empty (Alg. 1's initialisation ν̂ = 0, 𝔠 = ∞): all four counters of a point,
  including its own N_{i,0} and E, count only plays made after the point was created. The index
  is +∞ until the point has N_{i,τ} ≥ 1, and an empty point is never extended.
* E uses 1{C > τ} for every play of the arm, also plays with a limit below τ where it is not
  observable: the literal eq. (9) with the latent consumption (spec P1, ``survival = literal``).
* Extension checks (14) once per round for every point the played arm had before the round's
  extensions, with the pre-round widths. Extending τ only adds points inside (down(τ), τ), so it
  changes no other point's width and the result does not depend on the order of the checks;
  the new points are empty (𝔠 = ∞) and could not extend anyway.
* Grid levels: τmax has level 0; extending a point of level l gives it and its m − 1 new points
  level l + 1 (its interval now has width τmax·m^{−(l+1)}, footnote 12 of App. C).
* Output "the pair with the finest grid level" (Alg. 1 line 9; ties unspecified): among the
  points of the largest level over all arms that have N_{i,τ} ≥ 1, the one with the largest ν̂;
  remaining ties to the smaller arm, then the smaller τ. (The last extended point always
  qualifies, so the candidate set is not empty once any extension happened; with no extension,
  the candidates are the arms' τmax.)
* λ(x) = ``penalty_below``·x for x ≤ ``penalty_threshold``, ``penalty_above``·x above (the
  experiments' shape, §5.1); c(x) = ``cost_slope``·x.
* The grids are preallocated with ``max_points`` points per arm; exceeding it raises.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .zooming_kernel import _CAPACITY, _zrcucb_kernel

MAX_POINTS = 4096


class ZoomingRun(NamedTuple):
    output_arm: int  # î (0-based)
    output_tau: float  # τ̂
    grid_sizes: np.ndarray  # (n,) |M_T^(i)|
    plays_arm: np.ndarray  # (horizon,) I_t, 0-based
    plays_tau: np.ndarray  # (horizon,) τ_t
    grids: list  # per arm: the final grid, ascending
    levels: list  # per arm: grid level of each point
    exact_plays: list  # per arm: plays of exactly that point (since its creation)
    n_pair: list  # per arm: N_{i,τ} of each point (since its creation)
    estimates: list  # per arm: ν̂_{i,τ} of each point (0 where N_{i,τ} = 0, Alg. 1)


def run_zrcucb(
    rewards,
    consumptions,
    cost_slope,
    penalty_threshold,
    penalty_below,
    penalty_above,
    tau_max,
    alpha,
    m,
    delta,
    horizon,
    policy_key,
    max_points: int = MAX_POINTS,
) -> ZoomingRun:
    """z-RCUCB (Algorithm 1) for ``horizon`` = T rounds (module docstring for the rules).

    ``rewards[i, j]``, ``consumptions[i, j]``: the (R, C) of the j-th pull of arm i, pre-drawn by
    the caller, shape (n, ≥ horizon). ``policy_key``: the uint64 key of the tie-breaking stream
    (``core.sim.rng.uniform``). Inputs as Alg. 1: α > 1, integer m ≥ 2, δ ∈ (0, 1).
    Returns a ``ZoomingRun`` (first four fields: output_arm, output_tau, grid_sizes, plays_arm).
    """
    rewards = np.ascontiguousarray(rewards, dtype=float)
    consumptions = np.ascontiguousarray(consumptions, dtype=float)
    horizon = int(horizon)
    m = int(m)
    if rewards.ndim != 2 or consumptions.shape != rewards.shape:
        raise ValueError("rewards and consumptions must be (n, pulls) arrays of the same shape")
    if rewards.shape[1] < horizon or horizon < 1:
        raise ValueError(f"need 1 <= horizon <= pre-drawn pulls per arm ({rewards.shape[1]})")
    if not float(alpha) > 1.0:
        raise ValueError(f"alpha must be > 1 (Algorithm 1), got {alpha!r}")
    if m < 2:
        raise ValueError(f"m must be an integer >= 2, got {m}")
    if not 0.0 < float(delta) < 1.0:
        raise ValueError(f"delta must lie in (0, 1), got {delta!r}")
    if not float(tau_max) > 0.0:
        raise ValueError(f"tau_max must be > 0, got {tau_max!r}")
    n = rewards.shape[0]
    log_level = np.log(n * float(horizon) ** 2 / float(delta))
    shape = (n, int(max_points))
    tau = np.zeros(shape)
    level = np.zeros(shape, dtype=np.int64)
    n_pair = np.zeros(shape, dtype=np.int64)
    n_arm = np.zeros(shape, dtype=np.int64)
    gain = np.zeros(shape)
    exceed = np.zeros(shape, dtype=np.int64)
    exact = np.zeros(shape, dtype=np.int64)
    size = np.zeros(n, dtype=np.int64)
    played_arm = np.zeros(horizon, dtype=np.int64)
    played_tau = np.zeros(horizon)
    status = _zrcucb_kernel(
        rewards,
        consumptions,
        float(cost_slope),
        float(penalty_threshold),
        float(penalty_below),
        float(penalty_above),
        float(tau_max),
        float(alpha),
        m,
        float(log_level),
        horizon,
        np.uint64(policy_key),
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
    )
    if status == _CAPACITY:
        raise RuntimeError(f"a z-RCUCB grid exceeded max_points = {max_points} points per arm")

    def per_arm(values):
        return [values[i, : size[i]].copy() for i in range(n)]

    grids = per_arm(tau)
    penalty = [
        np.where(g <= penalty_threshold, penalty_below * g, penalty_above * g) for g in grids
    ]
    estimates = []
    for i in range(n):
        k = size[i]
        with np.errstate(invalid="ignore", divide="ignore"):
            nu_hat = gain[i, :k] / n_pair[i, :k] - penalty[i] * exceed[i, :k] / n_arm[i, :k]
        estimates.append(np.where(n_pair[i, :k] > 0, nu_hat, 0.0))
    levels = per_arm(level)
    arm, point = output_pair(levels, per_arm(n_pair), estimates)
    return ZoomingRun(
        arm,
        float(grids[arm][point]),
        size.copy(),
        played_arm,
        played_tau,
        grids,
        levels,
        per_arm(exact),
        per_arm(n_pair),
        estimates,
    )


def output_pair(levels, n_pair, estimates) -> tuple[int, int]:
    """Alg. 1 line 9 with this module's tie rule: (arm, index in its grid) of the point of the
    finest level (largest level number over all arms) with N_{i,τ} ≥ 1 and the largest ν̂; ties
    to the smaller arm, then the smaller τ."""
    finest = max(int(lv.max()) for lv in levels)
    best = None
    for i, (lv, count, nu_hat) in enumerate(zip(levels, n_pair, estimates)):
        for p in np.flatnonzero((lv == finest) & (count > 0)):
            if best is None or nu_hat[p] > best[0]:
                best = (nu_hat[p], i, int(p))
    if best is None:  # only reachable if no finest-level point was ever played
        raise RuntimeError("no played point at the finest grid level")
    return best[1], best[2]
