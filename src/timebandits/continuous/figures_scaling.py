"""Theorem 5's scaling figure of "Continuous Time Bandits With Sampling Costs": each learner's
regret at T times μ/(ln T')², Theorem 5's O((ln T')²/μ) at a fixed T'^ε, against T' = T/λ
(claims C8, C8-thm5). House style (core.pages.plotting): 7 in wide, no burned-in title, bars
±1 s.e."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D

from timebandits.core.pages.plotting import algorithm_style, new_figure, runs_note

from .figures_common import _final, _regret_at_horizon, mathtext


def scaled_regret(spec: dict, paper: dict, summary: pd.DataFrame):
    """Theorem 5's scaling (claims C8, C8-thm5 and their sensitivity runs): each learner's regret
    at T times μ/(ln T')², against T' = T/λ on log axes, one colour per learner (the first drawn
    on top, the others with open markers, so that equal values stay visible), one marker per μ,
    ±1 s.e.; the grey band spans from the first learner's smallest value to ``max_spread`` (the
    claims' 3) times it, where all its points must lie for "roughly constant"."""
    limit = float(spec.get("options", {}).get("max_spread", 3.0))
    fig, ax = new_figure("double", 3.2)
    markers = {}
    handles, labels = [], []
    floor = None
    for rank, alg in enumerate(spec["algorithms"]):
        exps, regret, half = _regret_at_horizon(summary, alg)
        horizon = _final(summary, alg, "payoff")["t"].to_numpy()
        env = [paper["experiments"][e]["environment"] for e in exps]
        mu = np.array([e["means"][0] for e in env])
        t_prime = horizon / np.array([float(e["lam"]) for e in env])
        values, errors = regret * mu / np.log(t_prime) ** 2, half * mu / np.log(t_prime) ** 2
        style = algorithm_style(paper, alg)
        for m in sorted(set(mu), reverse=True):
            marker = markers.setdefault(m, "osD^v"[len(markers) % 5])
            rows = np.flatnonzero(mu == m)
            rows = rows[np.argsort(t_prime[rows])]
            ax.errorbar(
                t_prime[rows],
                values[rows],
                yerr=errors[rows],
                color=style["color"],
                linestyle=style["linestyle"],
                linewidth=1.0,
                marker=marker,
                markersize=5 if rank else 4,
                capsize=2,
                zorder=3 - 0.1 * rank,
                markerfacecolor=style["color"] if rank == 0 else "none",
            )
        handles.append(Line2D([], [], color=style["color"], linestyle=style["linestyle"]))
        labels.append(mathtext(paper["algorithms"][alg]["label"]))
        if floor is None and (values > 0).any():
            floor = values[values > 0].min()
    for m, marker in markers.items():
        handles.append(Line2D([], [], color="0.3", linestyle="none", marker=marker))
        labels.append(f"$\\mu$ = {m:g}")
    if floor is not None:
        handles.append(ax.axhspan(floor, limit * floor, color="0.88", zorder=0))
        labels.append(f"a factor {limit:g} above the first learner's smallest value")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(r"normalized horizon $T' = T/\lambda$")
    ax.set_ylabel(r"regret at $T$ $\times\ \mu/(\ln T')^2$")
    fig.legend(
        handles,
        labels,
        loc="outside lower center",
        ncol=2,
        frameon=False,
        title=runs_note(summary, "bars"),
    )
    return fig
