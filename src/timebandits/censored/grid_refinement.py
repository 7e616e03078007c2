"""The grid refinement of z-RCUCB (§4.1, Algorithm 1, line 8; Fig. 3): a point τ of an arm's
sorted grid ⊂ (0, τmax] stands for the interval (down(τ), τ], down(τ) the next smaller point
(0 if none), and extending it adds the m − 1 interior points of the equidistant split of that
interval. The compiled kernel (zooming_kernel.py) refines its grids with :func:`interior_points`;
:func:`extend` and :func:`refinement_schematic` give the grids of Fig. 3 with the same step."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from timebandits.core.sim.jit import njit


@njit(cache=True)
def interior_points(down, tau, m, out):
    """The m − 1 interior points down + k·(τ − down)/m, k = 1..m−1, of the equidistant split of
    [down, τ] into m pieces, written to out[0 : m−1]."""
    width = tau - down
    for k in range(1, m):
        out[k - 1] = down + k * width / m


def extend(points, tau, m: int) -> np.ndarray:
    """The grid ``points`` (sorted ascending, in (0, τmax]) extended at its point ``tau``: adds
    the m − 1 interior points of the equidistant split of [down(τ), τ] (§4.1, Fig. 3), down(τ) =
    the next smaller point, 0 if none. Returns a new sorted array."""
    points = np.asarray(points, dtype=float)
    m = int(m)
    if m < 2:
        raise ValueError(f"m must be >= 2, got {m}")
    if points.ndim != 1 or np.any(np.diff(points) <= 0):
        raise ValueError("points must be a strictly increasing 1-d array")
    where = np.flatnonzero(points == tau)
    if where.size != 1:
        raise ValueError(f"tau = {tau!r} is not a point of the grid {points!r}")
    index = int(where[0])
    down = float(points[index - 1]) if index > 0 else 0.0
    new = np.empty(m - 1)
    interior_points(down, float(tau), m, new)
    return np.concatenate([points[:index], new, points[index:]])


class SchematicLevel(NamedTuple):
    points: np.ndarray  # the grid after this step, ascending
    extended_at: tuple  # the points extended to reach it (empty for the initial grid)


def refinement_schematic(m: int = 4, tau_max: float = 1.0) -> list[SchematicLevel]:
    """The three grids of Fig. 3, each computed with ``extend``: the initial {τmax}; the grid
    extended at τmax; that grid extended at τmax/m and 2τmax/m in the same round (for m = 4:
    τmax/4 and τmax/2, adding {1,2,3}/16·τmax and {5,6,7}/16·τmax). The two extensions of the
    last step use disjoint intervals, so applying them one after the other is the same round."""
    top = np.array([float(tau_max)])
    middle = extend(top, tau_max, m)
    first, second = middle[0], middle[1]  # τmax/m and 2τmax/m
    bottom = extend(extend(middle, first, m), second, m)
    return [
        SchematicLevel(top, ()),
        SchematicLevel(middle, (float(tau_max),)),
        SchematicLevel(bottom, (float(first), float(second))),
    ]
