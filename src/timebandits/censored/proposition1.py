"""Proposition 1 of the paper (Bengs & Hüllermeier, "Multi-Armed Bandits with Censored
Consumption of Resources", §3.2) and the confidence width 𝔠 it is stated with (RCUCB's index (12)
is ν̂ + 𝔠), as plain numpy functions; the symbols of theory.py.
"""

from __future__ import annotations

import math

import numpy as np

from .theory import scalar_or_array


def confidence_width(alpha, t, n_pair, n_arm, lam):
    """𝔠_{i,τ}(t; α) = sqrt(2α ln t / N_{i,τ}(t)) + λ(τ)·sqrt(2α ln t / N_{i,0}(t)).

    The unnumbered display between eq. (10) and Proposition 1 (§3.2); RCUCB's index (12) is
    ν̂ + 𝔠. +inf where a count is 0. Broadcasts over all arguments; z-RCUCB passes t = nT²/δ (13).
    """
    log_t = np.log(np.asarray(t, dtype=float))
    with np.errstate(divide="ignore"):
        gain = np.sqrt(2.0 * alpha * log_t / np.asarray(n_pair, dtype=float))
        penalty = np.asarray(lam, dtype=float) * np.sqrt(
            2.0 * alpha * log_t / np.asarray(n_arm, dtype=float)
        )
    return gain + penalty


def proposition1_violation_bound(alpha, t):
    """Proposition 1:
        P(ν̂_{i,τ}(t) − ν_{i,τ} > 𝔠_{i,τ}(t; α)) ≤ 2(1 + ln t/ln((α+1)/2))·t^{−2α/(α+1)}.

    One side; the same value bounds the lower deviation. For one pair and one round t; the value
    exceeds 1 (says nothing) for small t. +inf for α ≤ 1 (``theory.VOID_REASON``). Broadcasts
    over t.
    """
    t = np.asarray(t, dtype=float)
    if float(alpha) <= 1.0:
        return scalar_or_array(np.full(t.shape, math.inf), t)
    value = (
        2.0
        * (1.0 + np.log(t) / math.log((alpha + 1.0) / 2.0))
        * t ** (-2.0 * alpha / (alpha + 1.0))
    )
    return scalar_or_array(value, t)
