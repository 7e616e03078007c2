"""The regret decompositions (6) and (11) of "Multi-Armed Bandits with Censored Consumption of
Resources": the regret from the plays T_{i,τ} of each pair, or from the plays N_{i,τ} of each arm
with limit ≥ τ (the symbols of theory.py; the grid is the last axis, ascending).
"""

from __future__ import annotations

import numpy as np


def regret_from_counts(gaps_, counts):
    """Eq. (6): R = Σ_{i,τ} Δ_{i,τ}·T_{i,τ}(T+1) over the last two axes (leading axes broadcast,
    e.g. runs or checkpoints)."""
    return np.sum(np.asarray(gaps_, dtype=float) * np.asarray(counts, dtype=float), axis=(-2, -1))


def exact_counts_from_cumulative(N) -> np.ndarray:
    """T_{i,τ} = N_{i,τ} − N_{i,up(τ)} for τ < τmax and T_{i,τmax} = N_{i,τmax} (below eq. (11));
    the grid is the last axis, ascending."""
    N = np.asarray(N)
    counts = N.copy()
    counts[..., :-1] = N[..., :-1] - N[..., 1:]
    return counts


def cumulative_from_exact_counts(counts) -> np.ndarray:
    """N_{i,τ} = Σ_{τ' ≥ τ} T_{i,τ'} (plays of arm i with limit ≥ τ): the inverse of
    ``exact_counts_from_cumulative`` (reverse cumulative sum over the last axis)."""
    counts = np.asarray(counts)
    return np.flip(np.cumsum(np.flip(counts, axis=-1), axis=-1), axis=-1)


def regret_from_cumulative(gaps_, N):
    """Eq. (11): R = Σ_{i, τ≠τmax} Δ_{i,τ}(N_{i,τ} − N_{i,up(τ)}) + Σ_i Δ_{i,τmax}·N_{i,τmax}."""
    gaps_ = np.asarray(gaps_, dtype=float)
    N = np.asarray(N, dtype=float)
    return np.sum(gaps_[..., :-1] * (N[..., :-1] - N[..., 1:]), axis=(-2, -1)) + np.sum(
        gaps_[..., -1] * N[..., -1], axis=-1
    )
