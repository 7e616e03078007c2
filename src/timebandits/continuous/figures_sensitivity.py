"""The sensitivity grid's figure of "Continuous Time Bandits With Sampling Costs" (Algorithm 1,
CTSAB, one arm, over λ and κ; the paper gives neither for Fig. 2): λ × κ heat maps of the regret
relative to the oracle's payoff and of the share of T spent learning, T' = T/λ. House style
(core.pages.plotting): 7 in wide, no burned-in title."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.colors import ListedColormap
from matplotlib.ticker import FixedLocator

from timebandits.core.pages.plotting import DIVERGING, colormap, heatmap, new_figure
from timebandits.core.pages.ticks import power_of_ten

from .figures_common import _final
from .simulation import algorithm_params


def _grids(spec: dict, paper: dict, summary: pd.DataFrame):
    """(λ values, κ values, regret/P*, share of T spent learning, share of runs that never
    stopped), the grids as λ × κ arrays. A run that never stops learns for all of T."""
    cells = {}
    for alg in spec["algorithms"]:
        kappa = float(algorithm_params(paper["algorithms"][alg])["kappa"])
        payoff, oracle = _final(summary, alg, "payoff"), _final(summary, "oracle", "payoff")
        failed, stop = _final(summary, alg, "failed"), _final(summary, alg, "stop_time")
        for exp in payoff.index:
            lam = float(paper["experiments"][exp]["environment"]["lam"])
            best = oracle.loc[exp, "mean"]
            never = failed.loc[exp, "mean"]
            cells[lam, kappa] = (
                (best - payoff.loc[exp, "mean"]) / best,
                stop.loc[exp, "mean"] / stop.loc[exp, "t"] + never,
                never,
            )
    lams = sorted({lam for lam, _ in cells}, reverse=True)
    kappas = sorted({kappa for _, kappa in cells})
    grid = np.array([[cells[lam, kappa] for kappa in kappas] for lam in lams])
    return lams, kappas, grid[..., 0], grid[..., 1], grid[..., 2]


def _cell(value: float, digits: int = 2) -> str:
    """A heat map cell's number: 1,600, 22, 2.1, 0.016, 0.004, 5×10⁻⁵ (as the log axes write
    it, below 0.001)."""
    if abs(value) >= 10:
        return f"{value:,.0f}"
    if 0 < abs(value) < 1e-3:
        return power_of_ten(float(f"{value:.{digits}g}"))
    return f"{value:.{digits}g}"


def _log_colourbar(ax, values: np.ndarray) -> None:
    """A colour bar of log10 values labelled with the values as the log axes write them (10⁻², 10⁻¹,
    10⁰, 10¹)."""
    bar = ax.collections[0].colorbar
    low, high = np.floor(np.nanmin(values)), np.ceil(np.nanmax(values))
    ticks = np.arange(low, high + 1)
    bar.ax.yaxis.set_major_locator(FixedLocator(ticks))
    bar.ax.set_yticklabels([power_of_ten(10.0**k) for k in ticks])


def kappa_lambda_heatmap(spec: dict, paper: dict, summary: pd.DataFrame):
    """The sensitivity grid for one arm, each λ (rows; T' = T/λ) and κ (columns): (a) CTSAB's
    regret relative to the oracle's payoff, (P* − P)/P* at T, on a log colour scale centred on
    1 (the regret of never playing: above 1, a negative payoff); (b) when learning stopped, τ/T
    (a run that never stops counts as 1, and the share of such runs is written in its cell).
    Whether runs never stop is shown in (b) rather than on a panel of its own, which would be
    all zeros for μ = 0.3 and 0.15 (every run stops there)."""
    lams, kappas, regret, learning, never = _grids(spec, paper, summary)
    fig, axes = new_figure("double", 2.5, ncols=2)
    floor = 1e-4  # a regret ratio at or below 0 (the oracle matched) is coloured as 10⁻⁴
    options = {
        "xticklabels": [f"{k:g}" for k in kappas],
        "yticklabels": [f"{lam:g}" for lam in lams],
        "fmt": "",
        "annot_kws": {"fontsize": 7},
        "linewidths": 0.5,
        "linecolor": "white",
    }
    ratio = np.log10(np.clip(regret, floor, None))
    heatmap(
        ratio,
        ax=axes[0],
        cmap=DIVERGING,
        center=0.0,
        annot=np.vectorize(_cell)(regret),
        cbar_kws={"label": "regret / oracle payoff (log scale)"},
        **options,
    )
    _log_colourbar(axes[0], ratio)
    blues = colormap(DIVERGING)
    blues = ListedColormap(blues(np.linspace(0.5, 0.0, 256)))
    shown = np.log10(np.clip(learning, 1e-8, 1.0))
    notes = np.vectorize(
        lambda v, n: (
            "never\nstopped" if n == 1 else _cell(v, 1) + (f"\n{n:.0%} never" if n > 0 else "")
        )
    )(learning, never)
    heatmap(
        shown,
        ax=axes[1],
        cmap=blues,
        annot=notes,
        cbar_kws={"label": r"$\tau/T$ (log scale)"},
        **options,
    )
    _log_colourbar(axes[1], shown)
    axes[0].set_title("(a) regret at T relative to the oracle's payoff")
    axes[1].set_title(r"(b) share of $T$ spent learning, $\tau/T$")
    for ax in axes:
        ax.set_xlabel(r"play-count factor $\kappa$")
        ax.set_ylabel(r"sampling cost $\lambda$  ($T' = T/\lambda$)")
        ax.tick_params(axis="y", rotation=0)
    return fig
