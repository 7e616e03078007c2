"""Counter-based uniform random numbers for compiled kernels.

``uniform(key, counter)`` is the SplitMix64 output (Steele, Lea & Flood, OOPSLA 2014) at position
``counter`` of the stream whose state starts at ``key``: the state after ``counter + 1`` steps is
``key + (counter + 1) * GAMMA`` and the output is its finaliser. Because a draw is a pure function
of (key, counter), an environment can address "the delay of macro-arm k in epoch s" directly:
every algorithm of a repetition sees exactly the same draw for the same (s, k) -- common random
numbers -- without storing or pre-drawing anything, and the result does not depend on how many
draws other code made before.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_ONE = np.uint64(1)
_TWO_POW_MINUS_53 = 1.0 / 9007199254740992.0


@njit(cache=True)
def splitmix64(key, counter):
    """The SplitMix64 output number ``counter`` (0-based) of the stream seeded with ``key``."""
    z = key + (np.uint64(counter) + _ONE) * _GAMMA
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True)
def uniform(key, counter):
    """A uniform number in [0, 1) with 53 random bits: draw number ``counter`` of stream ``key``."""
    return np.float64(splitmix64(key, counter) >> _S11) * _TWO_POW_MINUS_53
