"""What the figures of "Continuous Time Bandits With Sampling Costs" share: labels set in
mathtext (Greek letters and T', as the captions write them) and the summary read at each
experiment's horizon (an algorithm's metric there; the regret P*(T) − P(T) of Fig. 3 and of
Theorem 5's scaling)."""

from __future__ import annotations

import re

import pandas as pd

MATH = {"λ": r"\lambda", "κ": r"\kappa", "μ": r"\mu", "ε": r"\varepsilon", "δ": r"\delta"}


def mathtext(text: str) -> str:
    """Greek letters and T' of a label as mathtext (``CTSAB (κ = 1)`` → ``CTSAB ($\\kappa$ =
    1)``), so that a figure sets them as the captions' formulas."""
    text = text.replace("T'^ε", r"$T'^{\varepsilon}$")
    return re.sub(
        r"\$[^$]*\$|[λκμεδ]|T'",
        lambda m: m.group() if m.group().startswith("$") else f"${MATH.get(m.group(), m.group())}$",
        text,
    )


def _final(summary: pd.DataFrame, algorithm: str, metric: str) -> pd.DataFrame:
    """One row per experiment: the algorithm's ``metric`` at each experiment's horizon."""
    rows = summary[(summary["algorithm"] == algorithm) & (summary["metric"] == metric)]
    return rows.loc[rows.groupby("experiment")["t"].idxmax()].set_index("experiment")


def _regret_at_horizon(summary: pd.DataFrame, algorithm: str):
    """(experiments, mean regret P*(T) − P(T) at each one's horizon, its standard error)."""
    learned = _final(summary, algorithm, "payoff")
    oracle = _final(summary, "oracle", "payoff")
    return (
        learned.index,
        (oracle.loc[learned.index, "mean"] - learned["mean"]).to_numpy(),
        learned["se"].to_numpy(),
    )
