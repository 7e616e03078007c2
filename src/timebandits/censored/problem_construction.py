"""The two ways to build a censored-resources instance (paper §2; model.py's CensoredProblem,
whose base class this is): from a paper-config environment (the families' keys, parsed by
environment_config.py) and from records, the ``pool`` family of Fig. 5 (§5.2), whose law of an arm
is the uniform distribution over its records.
"""

from __future__ import annotations

from typing import Self

import numpy as np

from .environment_config import (
    COMMON_KEYS,
    COMMON_OPTIONAL,
    FAMILY_KEYS,
    beta_exponential_params,
    check_keys,
    cost_from_config,
    gaussian_params,
    grid_from_config,
    number,
    penalty_from_config,
)
from .families import BETA_EXPONENTIAL, N_PARAMS, POOL


class ProblemConstructors:
    """``from_config`` and ``from_records``: each returns an instance of the class it is called on
    (CensoredProblem), built from its fields."""

    @classmethod
    def from_config(cls, environment: dict) -> Self:
        """Build from a paper-config environment (keys ``family``, ``grid``, ``cost``,
        ``penalty`` and the family's keys; model.py's docstring). Raises ValueError whose message
        starts with the offending key."""
        if not isinstance(environment, dict):
            raise ValueError(f"environment: expected a mapping, got {environment!r}")
        family = environment.get("family")
        if family not in FAMILY_KEYS:
            raise ValueError(
                f"family: unknown family {family!r} (expected truncated_gaussian, "
                f"beta_exponential or pool)"
            )
        required, optional = FAMILY_KEYS[family]
        check_keys(environment, "", COMMON_KEYS + required, optional + COMMON_OPTIONAL)
        if "near_optimality_d" in environment and not (
            number(environment["near_optimality_d"], "near_optimality_d") >= 0
        ):
            raise ValueError(
                f"near_optimality_d: must be >= 0, got {environment['near_optimality_d']!r}"
            )
        if family == "pool":
            # only the pool needs pandas and the data file
            from .pool_records import load_pool_records

            rewards, consumptions, calibration = load_pool_records(environment)
            return cls.from_records(
                rewards,
                consumptions,
                environment["grid"],
                environment["cost"],
                environment["penalty"],
                calibration=calibration,
            )
        if family == "truncated_gaussian":
            code, params = gaussian_params(environment)
        else:
            code, params = BETA_EXPONENTIAL, beta_exponential_params(environment)
        threshold, below, above = penalty_from_config(environment["penalty"])
        return cls(
            code,
            params,
            grid_from_config(environment["grid"]),
            cost_from_config(environment["cost"]),
            threshold,
            below,
            above,
        )

    @classmethod
    def from_records(cls, rewards, consumptions, grid, cost, penalty, calibration=None) -> Self:
        """The ``pool`` family: arm i's law is the uniform distribution over its records
        (``rewards[i][j]``, ``consumptions[i][j]``). ``grid``, ``cost`` and ``penalty`` take the
        config forms (``grid`` also a plain array; the ``iqr`` rule needs ``calibration``)."""
        if len(rewards) != len(consumptions) or not len(rewards):
            raise ValueError(
                f"records: need one reward and one consumption array per arm, got "
                f"{len(rewards)} and {len(consumptions)}"
            )
        blocks = []
        for i, (r, c) in enumerate(zip(rewards, consumptions)):
            r, c = np.asarray(r, dtype=float).ravel(), np.asarray(c, dtype=float).ravel()
            if r.size != c.size or r.size == 0:
                raise ValueError(
                    f"records: arm {i + 1} needs equally many (>= 1) rewards and "
                    f"consumptions, got {r.size} and {c.size}"
                )
            if not (np.all(np.isfinite(r)) and np.all(np.isfinite(c)) and np.all(c >= 0)):
                raise ValueError(
                    f"records: arm {i + 1} has non-finite values or a negative consumption"
                )
            blocks.append(np.column_stack([r, c]))
        offsets = np.concatenate([[0], np.cumsum([b.shape[0] for b in blocks])])
        threshold, below, above = penalty_from_config(penalty)
        return cls(
            POOL,
            np.zeros((len(blocks), N_PARAMS)),
            grid_from_config(grid, calibration),
            cost_from_config(cost),
            threshold,
            below,
            above,
            np.concatenate(blocks),
            offsets,
        )
