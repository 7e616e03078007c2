"""The pool of the Fig. 5 environment of paper 001 (§5.2) as the bandit environment reads it
(``family: pool``): the checked pool file, its records per configuration and their units. The
pool itself is generated offline by pool.py.

* **Units** [spec §5 point 4]: the pool stores raw seconds; :func:`load_pool_records` expresses
  consumption as a fraction of the largest calibration time (``time_unit: calibration_max``,
  the default, so c(x)=x stays in [0,1]) or in seconds (``time_unit: seconds``).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pandas as pd

# The hyper-parameter columns of a configuration (paper §5.2; pool_design.configuration_grid).
HYPERPARAMETERS = ("num_trees", "mtry", "min_node_size", "sample_fraction")
POOL_COLUMNS = [
    "config",
    "record",
    *HYPERPARAMETERS,
    "n_estimators",
    "reward",
    "fit_seconds",
    "fit_cpu_seconds",
    "rmse",
    "target_range",
    "job_seconds",
]


def file_sha256(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


# --- the environment (family: pool) -----------------------------------------------------------

TIME_UNITS = ("calibration_max", "seconds")


def validate_pool_environment(environment: dict, check_file: bool = True) -> None:
    """Check the pool keys (``pool``, ``time_unit``) of a ``family: pool`` environment (the model
    checks the others); every ValueError starts with the sub-key it is about (the caller prefixes
    "<config file>: key experiments.<id>.environment"). With ``check_file`` the pool file must
    exist and match its sha256."""
    if environment.get("family") != "pool":
        raise ValueError(f"family: {environment.get('family')!r} is not 'pool'")
    pool = environment.get("pool")
    if not isinstance(pool, dict) or set(pool) != {"path", "sha256"}:
        raise ValueError(
            f"pool: expected a mapping with exactly the keys path and sha256, got {pool!r}"
        )
    if not isinstance(pool["path"], str) or not pool["path"]:
        raise ValueError(f"pool.path: {pool['path']!r} is not a file path")
    sha = pool["sha256"]
    if (
        not isinstance(sha, str)
        or len(sha) != 64
        or any(ch not in "0123456789abcdef" for ch in sha)
    ):
        raise ValueError(f"pool.sha256: {sha!r} is not a 64-digit lowercase hex sha256")
    unit = environment.get("time_unit", "calibration_max")
    if unit not in TIME_UNITS:
        raise ValueError(f"time_unit: {unit!r} is not one of {list(TIME_UNITS)}")
    if check_file:
        path = Path(pool["path"])
        if not path.is_file():
            raise ValueError(
                f"pool.path: {pool['path']} not found (the committed pool; "
                f"regenerate it with the 'dataset' rule, see data/censored/README.md)"
            )
        actual = file_sha256(path)
        if actual != sha:
            raise ValueError(f"pool.sha256: {pool['path']} has sha256 {actual}, expected {sha}")


def read_pool(environment: dict) -> pd.DataFrame:
    """The checked pool table of a ``family: pool`` environment."""
    validate_pool_environment(environment)
    pool = pd.read_csv(environment["pool"]["path"])
    missing = set(POOL_COLUMNS) - set(pool.columns)
    if missing:
        raise ValueError(
            f"pool.path: {environment['pool']['path']} lacks columns {sorted(missing)}"
        )
    return pool.sort_values(["config", "record"], ignore_index=True)


def load_pool_records(environment: dict) -> tuple[list[np.ndarray], list[np.ndarray], np.ndarray]:
    """(rewards, consumptions, calibration) of a ``family: pool`` environment: per configuration
    (in config order) the rewards and consumptions of its records 0..K-1, and the calibration
    consumption (record 0) of every configuration. Consumptions are in ``time_unit``:
    ``calibration_max`` (default) divides seconds by the largest calibration time, so the
    calibration array has maximum 1; ``seconds`` keeps them raw."""
    pool = read_pool(environment)
    unit = environment.get("time_unit", "calibration_max")
    calibration = pool.loc[pool["record"] == 0].set_index("config")["fit_seconds"]
    configs = np.sort(pool["config"].unique())
    if not calibration.index.equals(pd.Index(configs)):
        raise ValueError(
            f"pool.path: {environment['pool']['path']}: some configurations lack "
            f"record 0 (the calibration pass)"
        )
    scale = float(calibration.max()) if unit == "calibration_max" else 1.0
    rewards, consumptions = [], []
    for _, group in pool.groupby("config", sort=True):
        rewards.append(group["reward"].to_numpy(dtype=float))
        consumptions.append(group["fit_seconds"].to_numpy(dtype=float) / scale)
    return rewards, consumptions, calibration.loc[configs].to_numpy(dtype=float) / scale


def pool_arms(environment: dict) -> pd.DataFrame:
    """The hyper-parameters of the pool's configurations, in the order of
    :func:`load_pool_records` (for labels)."""
    pool = read_pool(environment)
    return pool.drop_duplicates("config")[["config", *HYPERPARAMETERS]].reset_index(drop=True)
