"""What a claim kind works with (DESIGN.md, "Claims and bounds"): :class:`ClaimContext`, the
paper, the workflow config and the traces a claim may look at, and the checks and small tests
every kind uses (its keys, its runs, a paired test's verdict, an exact binomial test).

A claim kind has ``evidence`` (what decides its claims: a statistical test over runs, an exact
computation, or nothing: not checkable), ``check(claim, paper)`` (raises ValueError on a
malformed claim, run when the workflow loads; most kinds declare it as data, with
core/verdicts/declared.py's ``DeclaredCheck``) and ``evaluate(claim, context) -> list of
sub-check rows``. A sub-check row is a dict with at least ``scope`` (e.g. the experiment),
``verdict``, ``headline`` (the number that decides it, one short line) and ``statistic`` (every
number); optionally ``evidence`` and ``role``. Statistical rows carry ``p_claimed`` and
``p_opposite`` where they come from a p-value (core/verdicts/combine.py uses them for multiplicity).
The generic kinds are in core/verdicts/comparisons.py, core/verdicts/signs.py,
core/verdicts/growth.py and core/verdicts/kinds.py; a paper adds its own in its ``claims`` module
(``CLAIM_KINDS``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pandas as pd

from timebandits.core.sim.traces import checkpoint_table
from timebandits.core.verdicts.vocabulary import INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED


@dataclass
class ClaimContext:
    """What a claim may look at: the paper config, the workflow config and the traces."""

    paper: dict
    config: dict
    trace_of: Callable[
        [str, str], pd.DataFrame
    ]  # (experiment, algorithm) -> its trace (core/workflow.trace_reader)
    bounds: pd.DataFrame | None = None  # the paper's bound table (core/verdicts/bounds.py), if any
    _cache: dict = field(default_factory=dict)
    # A decidability witness's replacements of computed quantities (core/verdicts/decidability.py):
    # key -> function of the real value.
    overrides: dict = field(default_factory=dict)

    def memo(self, key: tuple, compute: Callable[[], object]):
        """``compute()``, made once per context for ``key``: a statistic of its traces that a
        claim's re-evaluations at other thresholds (core/verdicts/firmness.py) read again unchanged,
        such as a bootstrap. ``key`` must name everything the value depends on besides the
        traces."""
        key = ("memo", *key)
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    def quantity(self, key: str, compute: Callable[[], object]):
        """A quantity an exact claim decides on, ``compute()``, unless a witness replaces it."""
        value = compute()
        return self.overrides[key](value) if key in self.overrides else value

    def trace(self, experiment: str, algorithm: str) -> pd.DataFrame:
        key = (experiment, algorithm)
        if key not in self._cache:
            self._cache[key] = self.trace_of(experiment, algorithm)
        return self._cache[key]

    def last(self, experiment: str, algorithm: str) -> pd.DataFrame:
        """The trace's rows at its last checkpoint (the horizon), by repetition."""
        key = ("last", experiment, algorithm)
        if key not in self._cache:
            trace = self.trace(experiment, algorithm)
            self._cache[key] = trace[trace["t"] == trace["t"].max()].sort_values("repetition")
        return self._cache[key]

    def final(self, experiment: str, algorithm: str, metric: str) -> np.ndarray:
        """The metric at the last checkpoint (the horizon), one value per repetition."""
        return self.last(experiment, algorithm)[metric].to_numpy(dtype=float)

    def paired(self, experiment: str, first: str, second: str, metric: str):
        """The metric at the horizon for two algorithms, paired by repetition (same runs and
        same horizon required: the pairing is what common random numbers are for)."""
        a, b = self.last(experiment, first), self.last(experiment, second)
        if a["t"].iloc[0] != b["t"].iloc[0] or not np.array_equal(
            a["repetition"].to_numpy(), b["repetition"].to_numpy()
        ):
            raise ValueError(
                f"{experiment}: {first} and {second} were not run on the same "
                f"repetitions and horizon; rebuild their traces"
            )
        return self.final(experiment, first, metric), self.final(experiment, second, metric)

    def at(self, experiment: str, algorithm: str, metric: str) -> pd.DataFrame:
        """The metric as a (checkpoint x repetition) table (made once per context; read-only, as
        every cached table here)."""
        key = ("at", experiment, algorithm, metric)
        if key not in self._cache:
            self._cache[key] = checkpoint_table(self.trace(experiment, algorithm), metric)
        return self._cache[key]

    def metric_range(self, experiment: str, algorithm: str, metric: str) -> tuple[float, float]:
        """The least and the largest mean value ``metric`` can take at the horizon T (the last
        checkpoint of ``algorithm``'s trace) on the experiment's instance, by any policy (the
        paper's ``analysis.metric_range(paper, experiment, metric, T)``, exact from the model: the
        oracle's payoff, T·Δ_max, max_i G_i(T), …); (−∞, ∞) where it gives none. Decidability
        witnesses stay inside it (core/verdicts/decidability.py)."""
        key = ("range", experiment, algorithm, metric)
        if key not in self._cache:
            from timebandits.core.registry import PAPER_PACKAGES, paper_module

            paper_key = self.paper.get("paper", {}).get("key")
            hook = (
                getattr(paper_module(paper_key, "analysis"), "metric_range", None)
                if paper_key in PAPER_PACKAGES
                else None
            )
            found = None
            if hook is not None and "environment" in self.paper["experiments"][experiment]:
                horizon = float(self.trace(experiment, algorithm)["t"].max())
                found = hook(self.paper, experiment, metric, horizon)
            self._cache[key] = found or (-math.inf, math.inf)
        return self._cache[key]

    @property
    def alpha(self) -> float:
        return float(self.config["claims"]["alpha"])

    def label(self, algorithm: str) -> str:
        return self.paper["algorithms"][algorithm]["label"]


def require_keys(claim: dict, *keys: str) -> None:
    """Raise ValueError naming the keys a claim of its kind needs but lacks."""
    missing = [k for k in keys if k not in claim]
    if missing:
        raise ValueError(f"claim kind {claim['kind']!r} needs keys {missing}")


def check_direction(claim: dict) -> None:
    """Raise ValueError unless the claim's optional ``direction`` (which way is better) is
    'lower' (the default) or 'higher'."""
    if claim.get("direction", "lower") not in ("lower", "higher"):
        raise ValueError(f"direction must be 'lower' or 'higher', got {claim['direction']!r}")


def check_sign(claim: dict) -> None:
    """Raise ValueError unless the claim's ``sign`` is 'negative' or 'positive'."""
    if claim["sign"] not in ("negative", "positive"):
        raise ValueError(f"sign must be 'negative' or 'positive', got {claim['sign']!r}")


def check_run(paper: dict, experiments, algorithms) -> None:
    """Raise ValueError if an experiment is unknown or does not run one of the algorithms."""
    for exp in experiments:
        if exp not in paper["experiments"]:
            raise ValueError(f"unknown experiment {exp!r}")
        for alg in algorithms:
            if alg not in paper["experiments"][exp]["algorithms"]:
                raise ValueError(f"algorithm {alg!r} is not run in experiment {exp!r}")


def paired_verdict(test: dict, alpha: float) -> str:
    if test["p_claimed"] < alpha:
        return REPRODUCED
    if test["p_opposite"] < alpha:
        return NOT_REPRODUCED
    return INCONCLUSIVE


def fraction_test(successes: int, n: int, level: float, alpha: float) -> dict:
    """Exact one-sided binomial tests that an event holds with probability ≥ ``level``:
    ``p_claimed`` = P(X ≥ successes | p = level) (small: the event is more frequent than level),
    ``p_opposite`` = P(X ≤ successes | p = level) (small: it is rarer). With ``verdict``."""
    from scipy.stats import binom  # here: a figure job imports this module, not scipy

    p_claimed = float(binom.sf(successes - 1, n, level)) if n else math.nan
    p_opposite = float(binom.cdf(successes, n, level)) if n else math.nan
    return {
        "p_claimed": p_claimed,
        "p_opposite": p_opposite,
        "verdict": paired_verdict({"p_claimed": p_claimed, "p_opposite": p_opposite}, alpha),
    }
