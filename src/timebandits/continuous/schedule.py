"""Play schedules in closed form: n plays spread equally over a window, their expected payoffs
μ − 1/Δt (eq. 1, normalised units) summed into the cumulative payoff at every checkpoint they
pass. Shared by CTSAB and CTMAB."""

from __future__ import annotations

import math

from numba import njit


@njit(cache=True)
def play_window(start, length, plays, mean, last_play, checkpoints, next_cp, paid, payoff):
    """Plays at start + j·length/plays, j = 1..plays, of an arm of mean μ: the first pays for
    its gap from ``last_play``, the others for the spacing. The cumulative payoff at each
    checkpoint inside the window (plays at or before it, to a relative 1e-12) goes into
    ``payoff``, in closed form: O(checkpoints), not O(plays). Returns (payoff after the window,
    next checkpoint index, last play time)."""
    spacing = length / plays
    first = mean - 1.0 / (start + spacing - last_play)
    other = mean - 1.0 / spacing
    end = start + plays * spacing
    while next_cp < checkpoints.size and checkpoints[next_cp] < end * (1.0 - 1e-12):
        done = math.floor((checkpoints[next_cp] * (1.0 + 1e-12) - start) / spacing)
        done = min(max(done, 0), plays)
        payoff[next_cp] = paid + (first + (done - 1) * other if done > 0 else 0.0)
        next_cp += 1
    return paid + first + (plays - 1) * other, next_cp, end


# How an exploit window's real number of plays μ̂L/2 (the paper's N_k, treated as real in the
# proofs of Theorems 5 and 8) becomes an integer.
CARRY, HALF_UP = 0, 1
ROUNDINGS = {"carry": CARRY, "half_up": HALF_UP}


@njit(cache=True)
def exploit_plays(target, carry, rounding):
    """(plays in the window, the remainder carried to the next). ``CARRY``: n = ⌊target + r +
    1/2⌋ with r the remainder of the previous windows, r ← target + r − n ∈ [−1/2, 1/2), so
    the plays of windows 1..J sum to Σ target within 1/2 and keep the rate μ̂/2 however small a
    window is. ``HALF_UP``: n = ⌊target + 1/2⌋ per window (the earlier rule, kept as a
    sensitivity run): in windows with μ̂L/2 ≪ 1 it drifts from the rate by up to 1/2 play per
    window, a regret linear in T'/W."""
    if rounding == HALF_UP:
        return int(math.floor(target + 0.5)), 0.0
    wanted = target + carry
    plays = max(int(math.floor(wanted + 0.5)), 0)
    return plays, wanted - plays
