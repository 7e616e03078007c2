"""Figures of "Bandits with Censored Consumption of Resources" drawn from runs: the regret panels
(Figs. 4, 6–9), the AmesHousing reward panel (Fig. 5) and the extra z-RCUCB experiment's simple
regret (Theorem 2), in the house style (core.pages.plotting): 7 in wide, no burned-in title (the
caption gives it), legend below, ±1 s.e. bands. Every function takes (figure spec, paper config,
experiment summary). The illustrations, Figs. 1–3, which use no simulation, are in
figures_illustrations; ``FIGURE_KINDS`` names every kind."""

from __future__ import annotations

import numpy as np
import pandas as pd

from timebandits.core.pages.plotting import (
    algorithm_style,
    band,
    legend_below,
    log_safe,
    mark_zeros,
    new_figure,
)

from .analysis import theorem2_curve, theorem2_parameters
from .figures_illustrations import example_distributions, nu_curves, refinement_figure
from .simulation import algorithm_params
from .theorem2 import theorem2_rate

# Grey shades of reference lines (bounds, rates, optima): never an algorithm's colour.
BOUND_GREY, RATE_GREY = "0.15", "0.5"
# Fig. 5's difference panel: linear within ±100 (rewards), logarithmic beyond.
DIFFERENCE_LINEAR = 100.0
REGRET_LABEL = r"regret $\sum_{s \leq t}\,(\nu^* - \nu_{I_s,\tau_s})$"


def _with_censored_share(summary: pd.DataFrame) -> pd.DataFrame:
    """The summary plus metric ``share``: censored rounds so far / t (mean and s.e.)."""
    shares = summary[summary["metric"] == "censored"].assign(
        mean=lambda f: f["mean"] / f["t"], se=lambda f: f["se"] / f["t"], metric="share"
    )
    return pd.concat([summary, shares], ignore_index=True)


def _drawing_order(spec: dict, paper: dict) -> list[tuple[str, bool]]:
    """(algorithm, faint) in legend order: each algorithm of the figure followed by the faint
    sensitivity runs of the same policy, so that a legend of one column per policy puts every
    variant under its algorithm."""
    faint = list(spec.get("faint", []))
    order = []
    for alg in spec["algorithms"]:
        order.append((alg, False))
        policy = paper["algorithms"][alg]["policy"]
        for variant in [f for f in faint if paper["algorithms"][f]["policy"] == policy]:
            order.append((variant, True))
            faint.remove(variant)
    return order + [(alg, True) for alg in faint]


def _legend_columns(spec: dict) -> int:
    """Three columns, or two for six algorithms without faint runs (one column per policy of the
    theory figures: RCUCB's three α, then UCB's)."""
    return 2 if len(spec["algorithms"]) > 3 and not spec.get("faint") else 3


def _draw_panels(
    spec: dict,
    paper: dict,
    summary: pd.DataFrame,
    axes: dict,
    share_title: str = "(b) share of censored rounds",
) -> None:
    """Draw ``metric`` (mean ± 1 s.e.) of every algorithm of the figure on ``axes[metric]`` (the
    faint sensitivity runs thin and light), the running censored share on ``axes["share"]``
    (titled ``share_title``), and the legend under the panels."""
    data = _with_censored_share(summary)
    for alg, faint in _drawing_order(spec, paper):
        name = paper["algorithms"][alg]["label"] + (", sensitivity" if faint else "")
        rows = data[data["algorithm"] == alg]
        for metric, ax in axes.items():
            band(ax, rows, metric, name, algorithm_style(paper, alg), faint=faint)
    share_ax = axes["share"]
    share_ax.set_xscale("log")
    share_ax.set_xlabel("round t (log scale)")
    share_ax.set_ylabel("censored rounds so far / t")
    share_ax.set_ylim(0, 1)
    share_ax.set_title(share_title)
    first = next(iter(axes.values()))
    legend_below(first.figure, first, summary, columns=_legend_columns(spec))


def regret_panel(spec: dict, paper: dict, summary: pd.DataFrame):
    """Figs. 4, 6–9. (a) The paper's plot: cumulative pseudo-regret against the round with the
    exact ν table. (b) The running share of censored rounds, the quantity of the censoring
    tables."""
    fig, (regret_ax, share_ax) = new_figure(
        "double", 2.7, ncols=2, gridspec_kw={"width_ratios": [1.5, 1]}
    )
    regret_ax.set_xlabel("round t")
    regret_ax.set_ylabel(REGRET_LABEL)
    regret_ax.set_title("(a) cumulative pseudo-regret")
    _draw_panels(spec, paper, summary, {"regret": regret_ax, "share": share_ax})
    return fig


def paired_difference(summary: pd.DataFrame, metric: str, ours: str, theirs: str) -> pd.DataFrame:
    """The difference ``ours`` − ``theirs`` of the mean curves of ``metric``, as summary rows
    (metric ``difference``) whose ``se`` is that of a difference of two means, √(s.e.² + s.e.²),
    the runs taken as independent (a summary holds no per-run pairs); checkpoints of both only."""

    def curve(alg):
        rows = summary[(summary["algorithm"] == alg) & (summary["metric"] == metric)]
        return rows.set_index("t")[["mean", "se", "n"]]

    a, b = curve(ours), curve(theirs)
    t = a.index.intersection(b.index).sort_values()
    a, b = a.loc[t], b.loc[t]
    return pd.DataFrame(
        {
            "metric": "difference",
            "t": t.to_numpy(),
            "mean": (a["mean"] - b["mean"]).to_numpy(),
            "se": np.hypot(a["se"], b["se"]).to_numpy(),
            "n": np.minimum(a["n"], b["n"]).to_numpy(),
        }
    )


def _difference_panel(
    ax, spec: dict, paper: dict, summary: pd.DataFrame, metric: str, better: str
) -> None:
    """``better`` − each other algorithm of the figure on ``metric``, against log t, with a line
    at 0: where a curve dips below it, ``better`` is behind that algorithm."""
    name = paper["algorithms"][better]["label"]
    low, high = 0.0, 0.0
    for alg in spec["algorithms"]:
        if alg == better:
            continue
        rows = paired_difference(summary, metric, better, alg)
        band(
            ax,
            rows,
            "difference",
            f"{name} − {paper['algorithms'][alg]['label']}",
            algorithm_style(paper, alg),
        )
        low = min(low, float((rows["mean"] - rows["se"]).min()))
        high = max(high, float((rows["mean"] + rows["se"]).max()))
    ax.axhline(0.0, color=BOUND_GREY, linewidth=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("round t (log scale)")
    # symmetric-log: the early dips (hundreds) and the lead at T (thousands) both readable
    ax.set_yscale("symlog", linthresh=DIFFERENCE_LINEAR)
    ax.set_ylim(min(low * 2.0, -DIFFERENCE_LINEAR), max(high * 2.0, DIFFERENCE_LINEAR))
    ax.legend(loc="upper left", frameon=False)


def reward_panel(spec: dict, paper: dict, summary: pd.DataFrame):
    """Fig. 5 (§5.2), both readings of its "cumulative reward" (spec §5). (a) The realised
    reward Σ R_s·1{C_s ≤ τ_s} (the literal reading; 0 in a censored round). (b) RCUCB's realised
    reward minus each baseline's against log t: the rounds where it is behind (claim C9's
    "throughout") are too early and too small to see in (a). (c) The penalised gain Σ y_{τ_s}
    of eq. (1). (d) The running share of censored rounds."""
    fig, axes = new_figure("double", 4.6, nrows=2, ncols=2)
    (reward_ax, difference_ax), (gain_ax, share_ax) = axes
    for ax in (reward_ax, gain_ax):
        ax.set_xlabel("round t")
    reward_ax.set_ylabel(r"realised reward $\sum_{s \leq t} R_s\, 1\{C_s \leq \tau_s\}$")
    reward_ax.set_title("(a) realised reward (as printed)")
    gain_ax.set_ylabel(r"penalized gain $\sum_{s \leq t} y_{\tau_s}$")
    gain_ax.set_title("(c) penalized gain, eq. (1)")
    _draw_panels(
        spec,
        paper,
        summary,
        {"reward": reward_ax, "gain": gain_ax, "share": share_ax},
        share_title="(d) share of censored rounds",
    )
    _difference_panel(difference_ax, spec, paper, summary, "reward", "rcucb")
    difference_ax.set_ylabel("difference of realised rewards\n(linear below 100, log above)")
    difference_ax.set_title("(b) RCUCB minus each baseline, realised reward")
    return fig


def simple_regret_panel(spec: dict, paper: dict, summary: pd.DataFrame):
    """The extra z-RCUCB experiment (not in the paper). (a) Simple regret L_T of the output of a
    run of horizon T against T (log-log), with Theorem 2's bound and its rate
    (ln(T²/δ)/T)^{1/(d+2)} drawn through the first mean as a slope guide; a horizon where every
    run's output is optimal (mean 0, no place on a log axis) is marked at the axis's foot.
    (b) The output limit τ̂ against the continuous optimum τ*."""
    fig, (regret_ax, tau_ax) = new_figure(
        "double", 2.7, ncols=2, gridspec_kw={"width_ratios": [1.4, 1]}
    )
    constants = theorem2_parameters(paper, spec["experiment"])
    _, _, tau_star = constants["problem"].continuous_optimum()
    regret_ax.set_yscale("log")  # before the bands: a lower edge at 0 reaches the axis's foot
    for alg in spec["algorithms"]:
        rows = summary[summary["algorithm"] == alg]
        style = algorithm_style(paper, alg)
        label = paper["algorithms"][alg]["label"]
        regret = rows[rows["metric"] == "simple_regret"].sort_values("t")
        band(regret_ax, regret.assign(mean=log_safe(regret["mean"])), "simple_regret", label, style)
        mark_zeros(
            regret_ax,
            regret["t"],
            regret["mean"],
            style["color"],
            f"{label}: simple regret 0 in every run",
        )
        band(tau_ax, rows, "output_tau", label, style)
        t = regret["t"].to_numpy(dtype=float)
        bound = theorem2_curve(paper, spec["experiment"], alg, t, constants)
        regret_ax.plot(
            t,
            bound,
            color=BOUND_GREY,
            linestyle="--",
            linewidth=1.2,
            label=f"Theorem 2 bound (d = {constants['d']:g}, C = {constants['C']:.3g})",
        )
        first = regret["mean"].iloc[0]
        rate = theorem2_rate(t, algorithm_params(paper["algorithms"][alg])["delta"], constants["d"])
        if first > 0:
            regret_ax.plot(
                t,
                rate * first / rate[0],
                color=RATE_GREY,
                linestyle=":",
                linewidth=1.2,
                label="Theorem 2 rate, through the first mean",
            )
    regret_ax.set_xscale("log")
    regret_ax.set_xlabel("horizon T (log scale)")
    regret_ax.set_ylabel("simple regret\nsup ν − ν(output) (log scale)")
    regret_ax.set_title("(a) simple regret of the output")
    tau_ax.axhline(
        tau_star,
        color=BOUND_GREY,
        linewidth=1.0,
        linestyle="--",
        label=rf"$\tau^*$ = {tau_star:.3g}",
    )
    tau_ax.set_xscale("log")
    tau_ax.set_xlabel("horizon T (log scale)")
    tau_ax.set_ylabel(r"output limit $\hat{\tau}$")
    tau_ax.set_title(r"(b) output limit $\hat{\tau}$")
    tau_ax.legend(handles=tau_ax.get_lines()[-1:], loc="center left", frameon=False)
    legend_below(fig, regret_ax, summary, columns=2)
    return fig


# Figures whose job runs a compiled kernel (draws of Example 1's arms; z-RCUCB's grid refinement);
# every other figure job forbids it (workflow/scripts/figure.py).
COMPILED_KINDS = {"example_distributions", "refinement"}
FIGURE_KINDS = {
    "example_distributions": example_distributions,
    "nu_curves": nu_curves,
    "refinement": refinement_figure,
    "regret_panel": regret_panel,
    "reward_panel": reward_panel,
    "simple_regret_panel": simple_regret_panel,
}
