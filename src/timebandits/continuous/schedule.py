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
