"""Figures of "A Farewell to Arms": each Fig. 1/2 panel (delay pmf above cumulative regret) and
the Theorem 1 check. Every function takes (figure spec, paper config, experiment summary)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib import pyplot as plt

from timebandits.core.plotting import PALETTE, algorithm_style, apply_style, band, legend_and_title

from .analysis import problem_of

# Macro-arms in colours that no algorithm uses, so a bar is never mistaken for a curve.
MACRO_ARM_COLOURS = plt.get_cmap("Set2").colors


def _pmf_axes(ax, problem) -> None:
    width = 0.8 / problem.K
    d = np.arange(1, problem.D + 1)
    for k in range(problem.K):
        offset = (k - (problem.K - 1) / 2) * width
        ax.bar(d + offset, problem.delay_pmf[k], width=width, color=MACRO_ARM_COLOURS[k % 8],
               label=f"macro-arm {k + 1} (ν = {problem.reward_prob[k]:g})")
    ax.set_xticks(d)
    ax.set_xlabel("delay τ (time units)")
    ax.set_ylabel("P(τ_k = d)")
    optimal = ", ".join(f"({k},{j})" for k, j in problem.optimal_pairs)
    ax.set_title(f"delay pmf — g* = {problem.g_star:.4f} at (k, j) = {optimal}; "
                 f"minimum gap Δ = {problem.min_gap:.4f}")
    if problem.K > 1:
        ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))


def regret_panel(spec: dict, paper: dict, summary: pd.DataFrame):
    """Top: the delay pmf. Bottom left: the paper's R_t on linear axes. Bottom right: the
    pseudo-regret R̃_t on log time (logarithmic growth is a straight line there)."""
    apply_style()
    problem = problem_of(paper, spec["experiment"])
    fig = plt.figure(figsize=(10, 6.2))
    grid = fig.add_gridspec(2, 2, height_ratios=[1, 1.6], hspace=0.38, wspace=0.22)
    _pmf_axes(fig.add_subplot(grid[0, :]), problem)
    linear, logx = fig.add_subplot(grid[1, 0]), fig.add_subplot(grid[1, 1])
    labels = paper["algorithms"]
    for alg in spec["algorithms"]:
        rows = summary[summary["algorithm"] == alg]
        style = algorithm_style(paper, alg)
        band(linear, rows, "regret", labels[alg]["label"], style)
        band(logx, rows, "pseudo_regret", labels[alg]["label"], style)
    # Axes are scaled to the figure's own algorithms; a faint curve may leave the frame.
    for ax, metric in ((linear, "regret"), (logx, "pseudo_regret")):
        rows = summary[summary["algorithm"].isin(spec["algorithms"]) & (summary["metric"] == metric)]
        low, high = (rows["mean"] - rows["se"]).min(), (rows["mean"] + rows["se"]).max()
        pad = 0.08 * (high - low)
        ax.set_ylim(low - pad, high + pad)
    for alg in spec.get("faint", []):
        rows = summary[summary["algorithm"] == alg]
        final = rows[(rows["metric"] == "regret") & (rows["t"] == rows["t"].max())]["mean"].iloc[0]
        off = " — off scale" if final > linear.get_ylim()[1] else ""
        style = algorithm_style(paper, alg)
        band(linear, rows, "regret", f"{labels[alg]['label']} (not in the paper's figure; "
             f"R_T = {final:,.0f}{off})", style, faint=True)
        band(logx, rows, "pseudo_regret", labels[alg]["label"], style, faint=True)
    linear.set_xlabel("time t (budget units)")
    linear.set_ylabel("cumulative regret R_t = t·g* − Σ r")
    linear.ticklabel_format(axis="x", style="sci", scilimits=(0, 0))
    linear.set_title("as in the paper: realised regret, linear time")
    logx.set_xscale("log")
    logx.set_xlabel("time t (budget units, log scale)")
    logx.set_ylabel("pseudo-regret R̃_t = Σ N·Δ·μ^c")
    logx.set_title("pseudo-regret (what Thm 2 bounds), log time")
    legend_and_title(fig, linear, spec["title"], summary, columns=4, anchor=0.035)
    return fig


def constant_policies(spec: dict, paper: dict, summary: pd.DataFrame):
    """Simulated reward per time unit of every constant policy at T against its exact g."""
    apply_style()
    problem = problem_of(paper, spec["experiment"])
    final = summary[summary["t"] == summary["t"].max()]
    horizon = float(final["t"].iloc[0])
    labels = problem.pair_labels
    rate = np.array([final.loc[final["metric"] == f"reward_{lab}", "mean"].iloc[0] for lab in labels]) / horizon
    se = np.array([final.loc[final["metric"] == f"reward_{lab}", "se"].iloc[0] for lab in labels]) / horizon
    x = np.arange(len(labels))
    fig, ax = plt.subplots(figsize=(max(6, 0.45 * len(labels)), 3.6))
    exact = ax.bar(x, problem.ratio.ravel(), color="0.8",
                   label=r"exact ratio $g_{k,j} = \mu^r_{k,j} / \mu^c_{k,j}$")
    simulated = ax.errorbar(x, rate, yerr=2 * se, fmt="o", color=PALETTE[0], markersize=3,
                            label=f"simulated reward / T at T = {horizon:,.0f} (±2 s.e.)")
    best = int(np.argmax(rate))
    (marked,) = ax.plot(x[best], rate[best], marker="*", markersize=13, color=PALETTE[3],
                        linestyle="none", markerfacecolor="none", markeredgewidth=1.2,
                        label="best simulated policy")
    ax.set_xticks(x)
    ax.set_xticklabels([f"({lab[1:].replace('_j', ',')})" for lab in labels], rotation=90)
    ax.set_xlabel("constant policy (k, j)")
    ax.set_ylabel("reward per time unit")
    ax.set_title(spec["title"])
    # Beside the axes, never over the bars.
    ax.legend(handles=[exact, simulated, marked], loc="upper left", bbox_to_anchor=(1.01, 1.0),
              frameon=False)
    return fig


FIGURE_KINDS = {"regret_panel": regret_panel, "constant_policies": constant_policies}
