"""Figures of "A Farewell to Arms" in the house style (core.pages.plotting): each Fig. 1/2 panel
(the delay pmf above the cumulative regret, paper 7) and the Theorem 1 check (paper 4). Every
function takes (figure spec, paper config, experiment summary). The facts of a panel's problem
(g*, optimal pairs, minimum gap) are in the notebook's captions, not in the image."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from timebandits.core.pages.plotting import (
    CATEGORY_PALETTE,
    PALETTE,
    algorithm_style,
    band,
    legend_below,
    new_figure,
)

from .analysis import problem_of

# Two mean curves whose largest distance is below this fraction of their panel's range are
# drawn as one cable: the first drawn widest underneath, each later one narrower on top, and
# marked "≈ <first>" in the legend (UCB-Simplex and Budget-UCB often make the same choices).
COINCIDE = 0.02
CABLE_STEP = 1.1
BASE_WIDTH = 1.3


def _pmf_axes(ax, problem) -> None:
    """Panel (a): P(τ_k = d) of each macro-arm, bars side by side (the paper's bar graph)."""
    width = 0.8 / problem.K
    d = np.arange(1, problem.D + 1)
    for k in range(problem.K):
        offset = (k - (problem.K - 1) / 2) * width
        ax.bar(
            d + offset,
            problem.delay_pmf[k],
            width=width,
            color=CATEGORY_PALETTE[k % len(CATEGORY_PALETTE)],
            label=rf"arm {k + 1} ($\nu_{k + 1}$ = {problem.reward_prob[k]:g})",
        )
    ax.set_xticks(d)
    ax.set_xlabel(r"delay $d$ (time units)")
    ax.set_ylabel(r"probability $P(\tau_k = d)$")
    ax.set_title("(a) delay distribution", loc="left")
    if problem.K > 1:
        # Above the bars, level with the panel label, so all panels keep the full width.
        ax.legend(
            loc="lower right",
            bbox_to_anchor=(1.0, 1.0),
            ncol=problem.K,
            frameon=False,
            borderaxespad=0.1,
            handlelength=1.2,
            columnspacing=1.2,
        )


def _curve(summary: pd.DataFrame, algorithm: str, metric: str) -> pd.Series:
    rows = summary[(summary["algorithm"] == algorithm) & (summary["metric"] == metric)]
    return rows.set_index("t")["mean"].sort_index()


def coinciding(
    summary: pd.DataFrame, algorithms: list[str], metrics=("regret", "pseudo_regret")
) -> dict[str, str]:
    """Each algorithm whose mean curves stay within COINCIDE × the panel's range of an earlier
    one's in every metric, mapped to the first of its group (in drawing order)."""
    first: dict[str, str] = {}
    curves = {m: {a: _curve(summary, a, m) for a in algorithms} for m in metrics}
    spans = {
        m: max(float(c.max()) for c in curves[m].values())
        - min(float(c.min()) for c in curves[m].values())
        for m in metrics
    }
    for i, alg in enumerate(algorithms):
        for earlier in algorithms[:i]:
            if earlier not in first and all(
                (curves[m][alg] - curves[m][earlier]).abs().max() <= COINCIDE * spans[m]
                for m in metrics
            ):
                first[alg] = earlier
                break
    return first


def regret_panel(spec: dict, paper: dict, summary: pd.DataFrame):
    """Fig. 1/2 of the paper, one panel: (a) the delay pmf; (b) the paper's realised regret
    R_t = t·g* − Σ r on linear axes; (c) the pseudo-regret R̃_t = Σ N·Δ·μ^c on log time (what
    Theorem 2 bounds; logarithmic growth is a straight line there)."""
    problem = problem_of(paper, spec["experiment"])
    fig, axes = new_figure("double", 4.4, nrows=2, ncols=2, height_ratios=[1, 1.7])
    grid = axes[0, 0].get_gridspec()
    for ax in axes[0]:
        ax.remove()
    _pmf_axes(fig.add_subplot(grid[0, :]), problem)
    linear, logx = axes[1]
    labels = {a: paper["algorithms"][a]["label"] for a in paper["algorithms"]}
    algorithms = list(spec["algorithms"])
    same = coinciding(summary, algorithms)
    depth = {
        a: sum(1 for b in algorithms[algorithms.index(a) + 1 :] if same.get(b, b) == same.get(a, a))
        for a in algorithms
    }
    for alg in algorithms:
        rows = summary[summary["algorithm"] == alg]
        style = algorithm_style(paper, alg)
        label = labels[alg] + (f", ≈ {labels[same[alg]]}" if alg in same else "")
        for ax, metric in ((linear, "regret"), (logx, "pseudo_regret")):
            band(ax, rows, metric, label, style)
            ax.lines[-1].set_linewidth(BASE_WIDTH + CABLE_STEP * depth[alg])
    # Axes are scaled to the figure's own algorithms; a faint curve may leave the frame.
    for ax, metric in ((linear, "regret"), (logx, "pseudo_regret")):
        rows = summary[summary["algorithm"].isin(algorithms) & (summary["metric"] == metric)]
        low, high = (rows["mean"] - rows["se"]).min(), (rows["mean"] + rows["se"]).max()
        pad = 0.08 * (high - low)
        ax.set_ylim(low - pad, high + pad)
    for alg in spec.get("faint", []):
        rows = summary[summary["algorithm"] == alg]
        final = rows[(rows["metric"] == "regret") & (rows["t"] == rows["t"].max())]["mean"].iloc[0]
        off = ", off scale" if final > linear.get_ylim()[1] else ""
        style = algorithm_style(paper, alg)
        band(
            linear,
            rows,
            "regret",
            f"{labels[alg]} (not in the paper's figure; $R_T$ = {final:,.0f}{off})",
            style,
            faint=True,
        )
        band(logx, rows, "pseudo_regret", labels[alg], style, faint=True)
    linear.set_xlabel(r"time $t$ (budget units)")
    linear.set_ylabel(r"regret $R_t = t\,g^* - \sum r$")
    linear.set_title(r"(b) as in the paper: $R_t$, linear time", loc="left")
    logx.set_xscale("log")
    logx.set_xlabel(r"time $t$ (budget units, log scale)")
    logx.set_ylabel(r"pseudo-regret $\tilde{R}_t = \sum N\,\Delta\,\mu^c$")
    logx.set_title(r"(c) pseudo-regret $\tilde{R}_t$ (Thm 2), log time", loc="left")
    legend_below(fig, linear, summary, columns=3)
    return fig


def _pair_ticks(ax, labels: list[str], K: int, D: int) -> None:
    """Tick labels "(k,j)": level up to 16 pairs, upright beyond, every n-th beyond 50, so the
    axis fits 7 in; a thin line between macro-arms."""
    step = max(1, math.ceil(len(labels) / 50))
    ticks = np.arange(0, len(labels), step)
    ax.set_xticks(ticks)
    ax.set_xticklabels(
        [f"({lab[1:].replace('_j', ',')})" for lab in np.asarray(labels)[ticks]],
        rotation=0 if len(labels) <= 16 else 90,
    )
    for k in range(1, K):
        ax.axvline(k * D - 0.5, color="0.55", linewidth=0.6)


def constant_policies(spec: dict, paper: dict, summary: pd.DataFrame):
    """Theorem 1 (paper 4): the simulated reward per time unit of every constant policy (k, j)
    at T, mean ± 1 s.e. over runs, against its exact ratio g_{k,j} = μ^r_{k,j} / μ^c_{k,j}."""
    problem = problem_of(paper, spec["experiment"])
    final = summary[summary["t"] == summary["t"].max()]
    horizon = float(final["t"].iloc[0])
    labels = problem.pair_labels
    values = {
        c: np.array([final.loc[final["metric"] == f"reward_{lab}", c].iloc[0] for lab in labels])
        / horizon
        for c in ("mean", "se")
    }
    runs = int(final["n"].max())
    x = np.arange(len(labels))
    fig, ax = new_figure("double", 2.9)
    exact = ax.bar(
        x,
        problem.ratio.ravel(),
        color="0.8",
        width=0.7,
        label=r"exact ratio $g_{k,j} = \mu^r_{k,j} / \mu^c_{k,j}$",
    )
    simulated = ax.errorbar(
        x,
        values["mean"],
        yerr=values["se"],
        fmt="o",
        color=PALETTE[0],
        markersize=3,
        elinewidth=1.0,
        label=f"simulated reward / T at T = {horizon:,.0f} (mean of {runs:,} runs, ±1 s.e.)",
    )
    best = int(np.argmax(values["mean"]))
    (marked,) = ax.plot(
        x[best],
        values["mean"][best],
        marker="*",
        markersize=11,
        color=PALETTE[3],
        linestyle="none",
        markerfacecolor="none",
        markeredgewidth=1.1,
        label="best simulated policy",
    )
    _pair_ticks(ax, labels, problem.K, problem.D)
    ax.set_xlim(-0.6, len(labels) - 0.4)
    ax.set_xlabel("constant policy (k, j)")
    ax.set_ylabel("reward per time unit")
    # Below the axes, never over the bars; in the order bars, dots, star.
    fig.legend(
        handles=[exact, simulated, marked], loc="outside lower center", ncol=3, frameon=False
    )
    return fig


FIGURE_KINDS = {"regret_panel": regret_panel, "constant_policies": constant_policies}
