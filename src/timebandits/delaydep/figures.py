"""Figures of "Stochastic Bandits with Delay-Dependent Payoffs": the Fig. 1 transition diagram
(its exact edge labels: ``figure1_edges``) and the regret panels of Figs. 2 and 3, in the house
style (core.pages.plotting: 7 in or 3.3 in wide, no burned-in title, ±1 s.e. bands). Every plot
function takes (figure spec, paper config, experiment summary)."""

from __future__ import annotations

import re

import matplotlib.patches as patches
import numpy as np
import pandas as pd

from timebandits.core.pages.plotting import algorithm_style, band, legend_below, new_figure

from .model import B2DEPProblem
from .simulation import problem_of

# A learner whose regret curve spans less than this share of the regret panel's range is drawn
# again in an inset with its own scale (Fig. 3: π_low's regret of a few units against π_ucb's
# hundreds, whose sign claim C2 reads).
ZOOM_SHARE = 0.05
# Text sizes of the Fig. 1 diagram at its printed width (3.3 in): node names and edge labels.
NODE_SIZE = 10
LABEL_SIZE = 7.5


def policy_label(text: str) -> str:
    """A label with the paper's policy names in mathtext: "π_low" → "$\\pi_{\\mathrm{low}}$", so
    that no underscore reaches the reader."""
    return re.sub(r"π_(\w+)", r"$\\pi_{\\mathrm{\1}}$", text)


def regret_panel(spec: dict, paper: dict, summary: pd.DataFrame):
    """Figs. 2 and 3 (Sect. 8), 7 in wide. (a) The paper's curve: cumulative regret against
    π_ghost with the switching cost of ``options.metric`` (regret_cost{c}), on log time as in
    the authors' code. (b) The cumulative number of switches, which the cost multiplies. The
    ``faint`` learners (sensitivity runs, not in the paper) are thin and half-transparent."""
    metric = spec["options"]["metric"]
    cost = metric.removeprefix("regret_cost")
    fig, (regret_ax, switch_ax) = new_figure(
        "double", 3.0, ncols=2, gridspec_kw={"width_ratios": [1.5, 1]}
    )
    labels = paper["algorithms"]
    for alg in spec["algorithms"]:
        rows = summary[summary["algorithm"] == alg]
        style = algorithm_style(paper, alg)
        band(regret_ax, rows, metric, policy_label(labels[alg]["label"]), style)
        band(switch_ax, rows, "switches", policy_label(labels[alg]["label"]), style)
    for alg in spec.get("faint", []):
        rows = summary[summary["algorithm"] == alg]
        name = f"{policy_label(labels[alg]['label'])}, sensitivity run (not in the paper)"
        for ax, shown in ((regret_ax, metric), (switch_ax, "switches")):
            band(ax, rows, shown, name, algorithm_style(paper, alg), faint=True)
    regret_ax.axhline(0.0, color="0.3", linewidth=0.7)
    _zoom_inset(regret_ax, summary, metric, spec["algorithms"], paper)
    for ax in (regret_ax, switch_ax):
        ax.set_xscale("log")
        ax.set_xlabel(r"round $t$ (log scale)")
    regret_ax.set_ylabel(r"regret $R_t$ against $\pi_{\mathrm{ghost}}$")
    regret_ax.set_title(f"(a) regret, switching cost {cost}", loc="left")
    switch_ax.set_yscale("symlog", linthresh=10)
    switch_ax.set_ylim(bottom=0)
    switch_ax.set_ylabel("cumulative switches")
    switch_ax.set_title("(b) switches between ranking policies", loc="left")
    legend_below(fig, regret_ax, summary, columns=2)
    return fig


def _zoom_inset(ax, summary: pd.DataFrame, metric: str, algorithms: list, paper: dict) -> None:
    """The learners of ``algorithms`` whose curve the panel squashes flat (range below
    ZOOM_SHARE of the panel's) again in an inset with their own y scale, placed on the side of
    zero the other curves leave empty."""
    rows = summary[summary["metric"] == metric]
    spans = rows.groupby("algorithm")["mean"].agg(["min", "max"])
    low, high = ax.get_ylim()
    small = [
        a
        for a in algorithms
        if spans.loc[a, "max"] - spans.loc[a, "min"] < ZOOM_SHARE * (high - low)
    ]
    if not small:
        return
    upper = abs(high) > abs(low)  # the big curves rise: the empty space is at the top
    inset = ax.inset_axes([0.11, 0.5 if upper else 0.12, 0.4, 0.36])
    for alg in small:
        band(
            inset,
            rows[rows["algorithm"] == alg],
            metric,
            policy_label(paper["algorithms"][alg]["label"]),
            {**algorithm_style(paper, alg), "marker": None},
        )
    inset.axhline(0.0, color="0.3", linewidth=0.6)
    inset.set_xscale("log")
    inset.set_title(
        ", ".join(policy_label(paper["algorithms"][a]["label"]) for a in small) + ", zoomed",
        fontsize=7,
        pad=2,
    )
    inset.tick_params(labelsize=7, pad=1)


def _node(ax, xy, text):
    ax.add_patch(patches.Circle(xy, 0.42, facecolor="white", edgecolor="black", linewidth=1.0))
    ax.text(*xy, text, ha="center", va="center", fontsize=NODE_SIZE)


def _edge(ax, start, end, rad, label, label_xy):
    ax.add_patch(
        patches.FancyArrowPatch(
            start,
            end,
            connectionstyle=f"arc3,rad={rad}",
            arrowstyle="-|>",
            mutation_scale=9,
            linewidth=0.9,
            color="black",
        )
    )
    ax.text(
        *label_xy,
        label,
        ha="center",
        va="center",
        fontsize=LABEL_SIZE,
        bbox={"facecolor": "white", "edgecolor": "none", "pad": 1.0},
    )


def figure1_edges(problem: B2DEPProblem, m: int, n: int) -> dict:
    """The four edge labels of Fig. 1 (caption; Supplement §2), exact, for m < n: the expected
    reward of one play of
        self_m = μ_{1→m}(m)   π_m after π_m,     self_n = μ_{1→n}(n)   π_n after π_n,
        n_to_m = μ_{1→m}(n)   π_m after π_n,
        m_to_n = μ_{1→m}(m) + μ_{m+1→n}(m+n)   π_n after π_m, under strict alternation."""
    if not 1 <= m < n <= problem.k:
        raise ValueError(f"figure1_edges needs 1 <= m < n <= k = {problem.k}, got m={m}, n={n}")
    return {
        "self_m": problem.mu_sum_fraction(1, m, m),
        "self_n": problem.mu_sum_fraction(1, n, n),
        "n_to_m": problem.mu_sum_fraction(1, m, n),
        "m_to_n": problem.mu_sum_fraction(1, m, m) + problem.mu_sum_fraction(m + 1, n, m + n),
    }


def transition_diagram(spec: dict, paper: dict, summary: pd.DataFrame):
    """Fig. 1, one column (3.3 in) wide: the two ranking policies π_m and π_n (n > m,
    ``options``) as nodes; each edge is the expected reward of one play given the previous play
    (caption of Fig. 1), written as in the paper and evaluated exactly on the experiment's
    instance (the summary is not used). Below: g(m), g(n), their strict alternation (Fact 1)
    and OPT."""
    m, n = int(spec["options"]["m"]), int(spec["options"]["n"])
    problem = problem_of(paper["experiments"][spec["experiment"]]["environment"])
    edges = figure1_edges(problem, m, n)
    fig, ax = new_figure("single", 2.5)
    left, right = np.array([0.0, 0.0]), np.array([4.0, 0.0])
    _node(ax, left, rf"$\pi_{m}$")
    _node(ax, right, rf"$\pi_{n}$")

    def value(name):
        return f"{float(edges[name]):.4g}"

    _edge(
        ax,
        left + [-0.25, 0.35],
        left + [0.25, 0.35],
        -3.2,
        rf"$\mu_{{1\to {m}}}({m})$ = {value('self_m')}",
        left + [-0.2, 1.6],
    )
    _edge(
        ax,
        right + [-0.25, 0.35],
        right + [0.25, 0.35],
        -3.2,
        rf"$\mu_{{1\to {n}}}({n})$ = {value('self_n')}",
        right + [0.2, 1.6],
    )
    _edge(
        ax,
        left + [0.42, 0.12],
        right + [-0.42, 0.12],
        -0.4,
        rf"$\mu_{{1\to {m}}}({m}) + \mu_{{{m + 1}\to {n}}}({m + n})$" f"\n= {value('m_to_n')}",
        (2.0, 1.2),
    )
    _edge(
        ax,
        right + [-0.42, -0.12],
        left + [0.42, -0.12],
        -0.4,
        rf"$\mu_{{1\to {m}}}({n})$ = {value('n_to_m')}",
        (2.0, -0.95),
    )
    ax.text(
        2.0,
        -1.8,
        f"per pull: $g({m})$ = {problem.g(m):.4g}, $g({n})$ = {problem.g(n):.4g}\n"
        rf"alternating $\pi_{m}$, $\pi_{n}$ (Fact 1): {problem.alternation_average(m, n):.4g}"
        f"\nbest of any policy: OPT = {problem.opt_average:.4g}",
        ha="center",
        va="center",
        fontsize=LABEL_SIZE,
        linespacing=1.4,
    )
    ax.set_xlim(-1.3, 5.3)
    ax.set_ylim(-2.45, 1.85)
    ax.set_aspect("equal")
    ax.axis("off")
    return fig


# Figures whose job runs a compiled kernel (Fig. 1's transition values come from the exact model);
# every other figure job forbids it (workflow/scripts/figure.py).
COMPILED_KINDS = {"transition_diagram"}
FIGURE_KINDS = {"regret_panel": regret_panel, "transition_diagram": transition_diagram}
