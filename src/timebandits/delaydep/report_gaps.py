"""The table behind claims C16 and C16-bound (Sect. 1: UCB's switches "growing with the squared
inverse of these gaps"): π_ucb on instances that differ only in their gaps, one row per
instance, and the notebook's log-log figure of it (claims/gaps.py and claims/ucb_switch_bound.py
have the tests)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .model import B2DEPProblem
from .theory import inverse_square_gaps, policy_gaps, ucb_bound_pulls, ucb_switch_bound

GAP_KINDS = ("switch_gap_growth",)


def ucb_gap_table(paper: dict, trace_of) -> pd.DataFrame:
    """Per experiment of a ``switch_gap_growth`` claim: the gaps, Σ Δ⁻², the means over runs of
    π_ucb's switches and suboptimal pulls at T, switches × (Σ Δ⁻²)⁻¹ (constant if they scale as
    Σ Δ⁻²), twice UCB1's bound (C16-bound) and whether the horizon leaves the count uncapped."""
    rows = []
    for claim in paper["claims"]:
        if claim["kind"] not in GAP_KINDS:
            continue
        for exp in claim["experiments"]:
            problem = B2DEPProblem.from_config(paper["experiments"][exp]["environment"])
            trace = trace_of(exp, claim["algorithm"])
            final = trace[trace["t"] == trace["t"].max()]
            horizon = float(trace["t"].max())
            x = inverse_square_gaps(problem)
            rows.append(
                {
                    "claim": claim["id"],
                    "experiment": exp,
                    "algorithm": claim["algorithm"],
                    "μ₂": str(paper["experiments"][exp]["environment"]["means"][1]),
                    "gaps": ", ".join(f"{float(d):.4g}" for d in policy_gaps(problem)),
                    "Σ Δ⁻²": x,
                    "T": horizon,
                    "runs": int(final["repetition"].nunique()),
                    "switches": float(final["switches"].mean()),
                    "suboptimal pulls": float(final["suboptimal_pulls"].mean()),
                    "switches / Σ Δ⁻²": float(final["switches"].mean()) / x,
                    "2 × UCB1 bound": ucb_switch_bound(problem, horizon),
                    "judged": bool(ucb_bound_pulls(problem, horizon) < horizon),
                }
            )
    return pd.DataFrame(rows)


def ucb_gap_figure(table: pd.DataFrame):
    """Mean switches and suboptimal pulls of π_ucb against Σ Δ⁻², log-log, with the slopes 1
    (the squared inverse) and 1/2 (the inverse) through the smallest Σ Δ⁻²."""
    from timebandits.core.pages.plotting import PALETTE, new_figure

    fig, ax = new_figure("single", 2.8)
    x = table["Σ Δ⁻²"].to_numpy(dtype=float)
    for i, (column, marker) in enumerate((("switches", "o"), ("suboptimal pulls", "s"))):
        y = table[column].to_numpy(dtype=float)
        ax.loglog(
            x, y, marker=marker, color=PALETTE[i], label=rf"$\pi_{{\mathrm{{ucb}}}}$ {column}"
        )
        first = np.argmin(x)
        for slope, style in ((1.0, ":"), (0.5, "--")):
            ax.loglog(x, y[first] * (x / x[first]) ** slope, style, color="grey", linewidth=0.8)
    ax.set_xlabel("Σ Δ⁻² (squared inverse gaps)")
    ax.set_ylabel("mean over runs at T")
    ax.set_title("grey: slopes 1 (dotted), 1/2 (dashed)")
    ax.legend()
    return fig
