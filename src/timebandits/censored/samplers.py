"""The compiled sampler of the censored-resources environment (model.py; families.py).

Draws for common random numbers come from ``sample_pull``, a compiled pure function of
(key, arm, pull) built on ``timebandits.core.sim.rng``: the j-th uniform of pull p of arm i is
``uniform(splitmix64(key, i), p·2^20 + j)``, so no two (arm, pull, attempt) share a counter.
"""

from __future__ import annotations

import math

import numpy as np

from timebandits.core.sim.jit import njit
from timebandits.core.sim.rng import beta, splitmix64, uniform

from .families import BETA_EXPONENTIAL, GAUSSIAN_JOINT, POOL
from .model import CensoredProblem

# Counter layout of sample_pull: pull p uses counters p·2^20 + j, j = 0 .. 2^20 − 1.
UNIFORMS_PER_PULL = 1 << 20


@njit(cache=True)
def sample_pull(family, arm_params, pool_values, pool_offsets, key, arm, pull):
    """(R, C) of the `pull`-th pull (0-based) of arm `arm`: a pure function of (key, arm, pull)."""
    arm_key = splitmix64(np.uint64(key), arm)
    base = np.uint64(pull) * np.uint64(UNIFORMS_PER_PULL)
    if family == POOL:
        start, count = pool_offsets[arm], pool_offsets[arm + 1] - pool_offsets[arm]
        row = start + min(int(uniform(arm_key, base) * count), count - 1)
        return pool_values[row, 0], pool_values[row, 1]
    if family == BETA_EXPONENTIAL:
        consumption = -math.log1p(-uniform(arm_key, base)) / arm_params[arm, 2]
        reward, _ = beta(arm_params[arm, 0], arm_params[arm, 1], arm_key, base + np.uint64(1))
        return reward, consumption
    c_upper = 1.0 if family == GAUSSIAN_JOINT else np.inf
    mu_r, mu_c, sd = arm_params[arm, 0], arm_params[arm, 1], arm_params[arm, 2]
    rho, rho_bar = arm_params[arm, 3], arm_params[arm, 4]
    j = 0
    while j + 1 < UNIFORMS_PER_PULL:  # rejection: a N(μ, Σ) pair until it lies in the region
        z1, z2 = _box_muller(
            uniform(arm_key, base + np.uint64(j)), uniform(arm_key, base + np.uint64(j + 1))
        )
        j += 2
        reward = mu_r + sd * z1
        consumption = mu_c + sd * (rho * z1 + rho_bar * z2)
        if 0.0 <= reward <= 1.0 and 0.0 <= consumption <= c_upper:
            return reward, consumption
    raise RuntimeError("sample_pull: rejection sampling ran out of counters")


@njit(cache=True)
def _box_muller(u1, u2):
    """Two independent standard normals from two uniforms in [0, 1)."""
    radius = math.sqrt(-2.0 * math.log1p(-u1))
    return radius * math.cos(2.0 * math.pi * u2), radius * math.sin(2.0 * math.pi * u2)


@njit(cache=True)
def _sample_many(family, arm_params, pool_values, pool_offsets, key, arm, pulls):
    rewards = np.empty(pulls.size)
    consumptions = np.empty(pulls.size)
    for t in range(pulls.size):
        rewards[t], consumptions[t] = sample_pull(
            family, arm_params, pool_values, pool_offsets, key, arm, pulls[t]
        )
    return rewards, consumptions


def sample_many(problem: CensoredProblem, key, arm: int, pulls) -> tuple[np.ndarray, np.ndarray]:
    """(R, C) arrays of the given pulls of ``arm`` (an array of 0-based pull indices, or a count
    meaning pulls 0..count−1) under ``key``: the same draws ``sample_pull`` gives one by one."""
    pulls = np.arange(pulls) if np.ndim(pulls) == 0 else np.asarray(pulls)
    return _sample_many(
        problem.family_code,
        problem.arm_params,
        problem.pool_values,
        problem.pool_offsets,
        np.uint64(key),
        int(arm),
        pulls.astype(np.int64),
    )
