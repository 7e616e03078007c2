"""Which module runs each paper's experiments. Explicit, not built by import side effects.

A paper's ``simulation`` module provides:
  ``POLICIES``                      the policy names its algorithms may use;
  ``validate_environment(env)``     raises ValueError on a bad environment;
  ``validate_algorithm(alg)``       raises ValueError on bad params for a known policy;
  ``simulate_repetition(experiment, algorithm, env_seed, policy_seed, checkpoints)``
                                    -> {metric name: array over checkpoints} for one repetition.
Its ``claims`` module may add claim kinds (``CLAIM_KINDS``), its ``figures`` module plots
(``FIGURE_KINDS``) and its ``theory`` module the bounds.
"""

from __future__ import annotations

import importlib
from types import ModuleType

PAPER_PACKAGES = {
    "farewell": "timebandits.farewell",
}


def paper_module(key: str, part: str) -> ModuleType:
    """The module ``part`` (simulation, figures, claims, theory, report) of paper ``key``."""
    if key not in PAPER_PACKAGES:
        raise KeyError(f"unknown paper {key!r}; known papers: {sorted(PAPER_PACKAGES)}")
    return importlib.import_module(f"{PAPER_PACKAGES[key]}.{part}")
