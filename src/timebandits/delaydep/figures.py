"""Figures of "Stochastic Bandits with Delay-Dependent Payoffs": the Fig. 1 transition diagram
and the regret panels of Figs. 2 and 3. Every function takes (figure spec, paper config,
experiment summary)."""

from __future__ import annotations

import matplotlib.patches as patches
import numpy as np
import pandas as pd
from matplotlib import pyplot as plt

from timebandits.core.plotting import algorithm_style, apply_style, band, legend_and_title

from .simulation import problem_of
from .theory import figure1_edges


def regret_panel(spec: dict, paper: dict, summary: pd.DataFrame):
    """Left: the paper's curve, cumulative regret against π_ghost with the switching cost of
    ``options.metric`` (regret_cost{c}), on log time as in the authors' code. Right: the
    cumulative number of switches, which the cost multiplies."""
    apply_style()
    metric = spec["options"]["metric"]
    cost = metric.removeprefix("regret_cost")
    fig, (regret_ax, switch_ax) = plt.subplots(1, 2, figsize=(10, 3.9),
                                               gridspec_kw={"width_ratios": [1.6, 1]})
    labels = paper["algorithms"]
    for alg in spec["algorithms"]:
        rows = summary[summary["algorithm"] == alg]
        style = algorithm_style(paper, alg)
        band(regret_ax, rows, metric, labels[alg]["label"], style)
        band(switch_ax, rows, "switches", labels[alg]["label"], style)
    for alg in spec.get("faint", []):
        rows = summary[summary["algorithm"] == alg]
        name = f"{labels[alg]['label']} (sensitivity, not in the paper)"
        for ax, shown in ((regret_ax, metric), (switch_ax, "switches")):
            band(ax, rows, shown, name, algorithm_style(paper, alg), faint=True)
    regret_ax.axhline(0.0, color="0.3", linewidth=0.7)
    for ax in (regret_ax, switch_ax):
        ax.set_xscale("log")
        ax.set_xlabel("round t (log scale)")
    regret_ax.set_ylabel(f"regret vs π_ghost, switching cost {cost}")
    regret_ax.set_title(f"R_t = G_t(ghost) − (Σ expected rewards − {cost}·switches)")
    switch_ax.set_yscale("symlog", linthresh=10)
    switch_ax.set_ylim(bottom=0)
    switch_ax.set_ylabel("switches between ranking policies")
    switch_ax.set_title("switches (the cost multiplies these)")
    legend_and_title(fig, regret_ax, spec["title"], summary, columns=2)
    fig.tight_layout()
    return fig


def _node(ax, xy, text):
    ax.add_patch(patches.Circle(xy, 0.42, facecolor="white", edgecolor="black", linewidth=1.2))
    ax.text(*xy, text, ha="center", va="center", fontsize=14)


def _edge(ax, start, end, rad, label, label_xy):
    ax.add_patch(patches.FancyArrowPatch(start, end, connectionstyle=f"arc3,rad={rad}",
                                         arrowstyle="-|>", mutation_scale=14, linewidth=1.1))
    ax.text(*label_xy, label, ha="center", va="center", fontsize=10,
            bbox={"facecolor": "white", "edgecolor": "none", "pad": 1.5})


def transition_diagram(spec: dict, paper: dict, summary: pd.DataFrame):
    """Fig. 1: the two ranking policies π_m and π_n (n > m, ``options``) as nodes; each edge is
    the expected reward of one play given the previous play (caption of Fig. 1), written as in
    the paper and evaluated exactly on the experiment's instance (the summary is not used)."""
    apply_style()
    m, n = int(spec["options"]["m"]), int(spec["options"]["n"])
    problem = problem_of(paper["experiments"][spec["experiment"]]["environment"])
    edges = figure1_edges(problem, m, n)
    fig, ax = plt.subplots(figsize=(8, 4.6))
    left, right = np.array([0.0, 0.0]), np.array([5.0, 0.0])
    _node(ax, left, f"$\\pi_{m}$")
    _node(ax, right, f"$\\pi_{n}$")

    def value(name):
        return f"{float(edges[name]):.4g}"

    _edge(ax, left + [-0.25, 0.35], left + [0.25, 0.35], -3.2,
          f"$\\mu_{{1\\to {m}}}({m})$ = {value('self_m')}", left + [0, 1.75])
    _edge(ax, right + [-0.25, 0.35], right + [0.25, 0.35], -3.2,
          f"$\\mu_{{1\\to {n}}}({n})$ = {value('self_n')}", right + [0, 1.75])
    _edge(ax, left + [0.42, 0.1], right + [-0.42, 0.1], -0.35,
          f"$\\mu_{{1\\to {m}}}({m}) + \\mu_{{{m + 1}\\to {n}}}({m + n})$ = {value('m_to_n')}",
          (2.5, 1.05))
    _edge(ax, right + [-0.42, -0.1], left + [0.42, -0.1], -0.35,
          f"$\\mu_{{1\\to {m}}}({n})$ = {value('n_to_m')}", (2.5, -1.05))
    g_m, g_n = problem.g(m), problem.g(n)
    alternation = problem.alternation_average(m, n)
    ax.text(2.5, -2.0,
            f"per pull: g({m}) = {g_m:.4g}, g({n}) = {g_n:.4g}; strict alternation "
            f"{alternation:.4g} (Fact 1); best policy of any kind OPT = {problem.opt_average:.4g}",
            ha="center", va="center", fontsize=9)
    ax.set_xlim(-2.0, 7.0)
    ax.set_ylim(-2.4, 2.6)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(spec["title"])
    return fig


FIGURE_KINDS = {"regret_panel": regret_panel, "transition_diagram": transition_diagram}
