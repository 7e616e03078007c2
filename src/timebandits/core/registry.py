"""Which package holds each paper. Explicit, not built by import side effects.

A paper package provides these modules (the rules, scripts and notebooks reach them through
:func:`paper_module`):
  simulation  ``POLICIES``; ``validate_environment(env)`` and ``validate_algorithm(alg)``
              (raise ValueError); ``simulate_repetition(experiment, algorithm, env_seed,
              policy_seed, checkpoints)`` -> {metric: array over checkpoints}; optionally
              ``environment_files(env)``: data files the traces are made from (rerun inputs),
              and ``validate_run(env, alg)``: raise ValueError if the algorithm cannot run on
              that environment (checked for every pair an experiment names)
  claims      a package: ``CLAIM_KINDS`` in its ``__init__``, the paper-specific kinds in modules
              by concept (the generic kinds are core/verdicts/kinds.py's)
  analysis    ``bound_table(paper, trace_of)``: rows in the core/verdicts/bounds.py format;
              ``METRICS``: the metrics of its traces a claim or a figure may name ({…} a number in a
              family, e.g. ``regret_cost{c}``); optionally ``BOUND_WORDS``: {kind of bound: word}
              for a kind no run can exceed (an O(·) drawn with constant 1), shown instead of a
              verdict
  figures     ``FIGURE_KINDS``: plot functions (figure spec, paper, summary) -> Figure, a dict
              literal (core/build/config_checks.py reads its keys from the source)
  report      ``TABLES`` and ``table(name, paper, config, trace_of)``; ``comparison_section(root,
              config, paper, bounds)`` for the comparison notebook
"""

from __future__ import annotations

import importlib
from types import ModuleType

PAPER_PACKAGES = {
    "farewell": "timebandits.farewell",
    "censored": "timebandits.censored",
    "delaydep": "timebandits.delaydep",
    "anonymous": "timebandits.anonymous",
    "continuous": "timebandits.continuous",
}


def paper_module(key: str, part: str) -> ModuleType:
    """The module ``part`` (simulation, figures, claims, theory, report) of paper ``key``."""
    if key not in PAPER_PACKAGES:
        raise KeyError(f"unknown paper {key!r}; known papers: {sorted(PAPER_PACKAGES)}")
    return importlib.import_module(f"{PAPER_PACKAGES[key]}.{part}")
