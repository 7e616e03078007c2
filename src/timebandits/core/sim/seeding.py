"""Seeds derived from stable identifiers (DESIGN.md, "Seeds").

Repetition ``r`` of an experiment draws its environment randomness from
``(base seed, paper, experiment, r)`` -- the same for every algorithm, so algorithms are compared
under common random numbers -- and its policy randomness from
``(base seed, paper, experiment, algorithm, r)``; a numerical check outside the experiments
draws from ``(base seed, paper, check name)``. Identifiers are hashed with ``zlib.crc32``
(never Python's salted ``hash()``) and combined with :class:`numpy.random.SeedSequence`, so the
same config gives the same bits on any machine and in any job order.
"""

from __future__ import annotations

import zlib

import numpy as np

_ENVIRONMENT_STREAM = 0
_POLICY_STREAM = 1
_CHECK_STREAM = 2


def stable_id(name: str) -> int:
    """A 32-bit integer that depends only on the text of ``name``.

    >>> stable_id("farewell")
    2095578565
    """
    return zlib.crc32(name.encode("utf-8"))


def _seed_sequence(base_seed: int, stream: int, names: tuple[str, ...], repetition: int):
    entropy = [int(base_seed), stream, *(stable_id(n) for n in names), int(repetition)]
    return np.random.SeedSequence(entropy)


def environment_seed(base_seed: int, paper: str, experiment: str, repetition: int):
    """SeedSequence of the environment randomness of one repetition (shared by all algorithms)."""
    return _seed_sequence(base_seed, _ENVIRONMENT_STREAM, (paper, experiment), repetition)


def policy_seed(base_seed: int, paper: str, experiment: str, algorithm: str, repetition: int):
    """SeedSequence of the policy randomness (e.g. random tie-breaking) of one algorithm's run."""
    return _seed_sequence(base_seed, _POLICY_STREAM, (paper, experiment, algorithm), repetition)


def check_seed(base_seed: int, paper: str, check: str):
    """SeedSequence of a numerical check outside the simulated experiments (e.g. a theorem
    checked on random instances), named by ``check`` (a claim id)."""
    return _seed_sequence(base_seed, _CHECK_STREAM, (paper, check), 0)


def key64(seed: np.random.SeedSequence) -> np.uint64:
    """A 64-bit key for the counter-based generator of :mod:`timebandits.core.sim.rng`."""
    return np.uint64(seed.generate_state(1, dtype=np.uint64)[0])
