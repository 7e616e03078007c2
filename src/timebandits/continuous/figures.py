"""Figures of "Continuous Time Bandits With Sampling Costs": cumulative payoff over time (Figs. 1
and 2; the axes are inferred, the paper's images are lost, spec §4) and CTSAB's regret against μ
(Fig. 3); the λ × κ heat maps of the sensitivity grid are in figures_sensitivity.py, Theorem 5's
scaled regret against T' = T/λ in figures_scaling.py, what they share in figures_common.py.
House style (core.pages.plotting): 7 in wide, no burned-in title (the caption says what is
drawn), bands ±1 s.e."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.ticker import FixedLocator, FuncFormatter, MaxNLocator, NullLocator

from timebandits.core.pages.plotting import algorithm_style, band, log_safe, new_figure, runs_note

from .figures_common import _regret_at_horizon, mathtext
from .figures_scaling import scaled_regret
from .figures_sensitivity import kappa_lambda_heatmap

# The learner gets its own panel when its payoff spans more than this many times the range of
# the exact curves (the oracle and the baselines), which it would otherwise squash flat.
SQUASH = 5.0
# The log axis of the gap to the oracle spans this many decades below its largest value.
GAP_DECADES = 4


def _label(paper: dict, summary: pd.DataFrame, algorithm: str) -> str:
    """The legend entry of an algorithm: its label, and the share of runs whose learning never
    stopped or whose identification was cut at T, where a learner has any."""
    label = mathtext(paper["algorithms"][algorithm]["label"])
    for metric, what in (
        ("failed", "never stopped learning"),
        ("id_cut", "identification cut at T"),
    ):
        rows = summary[(summary["algorithm"] == algorithm) & (summary["metric"] == metric)]
        if not rows.empty:
            label += f"; {rows.sort_values('t')['mean'].iloc[-1]:.0%} {what}"
    return label


def _legend(fig, axes, summary: pd.DataFrame, order: list[str] = (), shown: str = "bands") -> None:
    """One legend below the panels for the curves of every panel, each once: first those named
    in ``order`` (e.g. the figure's list of algorithms), in that order; titled with the runs and
    what their ``shown`` (bands or error bars) span."""
    entries = {}
    for ax in axes:
        for handle, name in zip(*ax.get_legend_handles_labels()):
            entries.setdefault(name, handle)
    names = [n for n in order if n in entries] + [n for n in entries if n not in order]
    fig.legend(
        [entries[n] for n in names],
        names,
        loc="outside lower center",
        ncol=2,
        frameon=False,
        title=runs_note(summary, shown),
    )


def payoff_curves(spec: dict, paper: dict, summary: pd.DataFrame):
    """Figs. 1–2: cumulative payoff Σ (μ − λ/Δt) against time, as the paper plots it (inferred
    axes), and the gap to the oracle's cumulative payoff P*(t) − P(t) on a log axis (at t = T,
    the regret). A learner whose payoff would squash the oracle and the baselines flat gets its
    own panel. Means of the runs with ±1 s.e. bands; the oracle and the baselines are exact.
    The ``faint`` algorithms (runs not in the paper's figure, e.g. the learner under the other
    exploit rule) are drawn thin and half-transparent, beside the learners."""
    payoffs = summary[summary["metric"] == "payoff"]
    oracle = payoffs[payoffs["algorithm"] == "oracle"].set_index("t")["mean"]
    faint = list(spec.get("faint", []))
    drawn = spec["algorithms"] + faint
    rows = {alg: payoffs[payoffs["algorithm"] == alg] for alg in drawn}
    learners = [
        a for a in drawn if a in summary.loc[summary["metric"] == "failed", "algorithm"].unique()
    ]
    exact = [a for a in spec["algorithms"] if a not in learners]
    exact_range = np.ptp(np.concatenate([rows[a]["mean"].to_numpy() for a in exact] + [[0.0]]))
    own_axis = any(
        np.ptp(np.append(rows[a]["mean"].to_numpy(), 0.0)) > SQUASH * exact_range for a in learners
    )
    fig, axes = new_figure("double", 2.7, ncols=3 if own_axis else 2)
    payoff_ax, gap_ax = axes[0], axes[-1]
    labels = [
        mathtext(paper["algorithms"][alg]["label"]) + ", not in the paper"
        if alg in faint
        else _label(paper, summary, alg)
        for alg in drawn
    ]
    for alg, label in zip(drawn, labels):
        style = algorithm_style(paper, alg)
        thin = alg in faint
        target = axes[1] if own_axis and alg in learners else payoff_ax
        band(target, rows[alg], "payoff", label, style, faint=thin)
        if own_axis and alg == "oracle":
            band(axes[1], rows[alg], "payoff", label, style)
        if alg != "oracle":
            gap = oracle.reindex(rows[alg]["t"]).to_numpy() - rows[alg]["mean"].to_numpy()
            band(gap_ax, rows[alg].assign(mean=log_safe(gap)), "payoff", label, style, faint=thin)
    for ax in axes[:-1]:
        ax.set_ylabel("cumulative payoff")
    if own_axis:
        payoff_ax.set_title("(a) the exact policies")
        axes[1].set_title("(b) the learner, own axis")
    else:
        payoff_ax.set_title("(a) as the paper plots it")
    gap_ax.set_yscale("log")
    top = np.nanmax(
        np.concatenate([np.asarray(line.get_ydata(), float) for line in gap_ax.get_lines()])
    )
    if np.isfinite(top):  # else no gap > 0 to draw (e.g. at the smoke scale)
        gap_ax.set_ylim(top / 10**GAP_DECADES, top * 3)
    gap_ax.set_ylabel("oracle's payoff − payoff")
    gap_ax.set_title(f"({'c' if own_axis else 'b'}) gap to the oracle (log axis)")
    for ax in axes:
        ax.set_xlabel("time t (inferred axis)")
        ax.xaxis.set_major_locator(MaxNLocator(3))
        if ax is not gap_ax:
            ax.axhline(0, color="0.6", linewidth=0.6)
    _legend(fig, axes, summary, labels)
    return fig


def regret_vs_mu(spec: dict, paper: dict, summary: pd.DataFrame):
    """Fig. 3: CTSAB's regret P*(T) − P(T) at the horizon against μ (±1 s.e.), and the same on
    log-log axes with the least-squares slope of log regret on log μ (Theorem 7's Ω(1/μ) is
    slope −1; Theorem 5's O((log T')²/μ) too, at fixed T'). A ``faint`` learner (a run not in
    the paper's figure) is drawn thin and half-transparent, without a fitted slope."""
    (learner,) = spec["algorithms"]
    exps, regret, half = _regret_at_horizon(summary, learner)
    mu = pd.Series({e: paper["experiments"][e]["environment"]["means"][0] for e in exps})
    order = np.argsort(mu.to_numpy(), kind="stable")
    regret, half, x = regret[order], half[order], mu.to_numpy()[order]
    fig, (linear_ax, log_ax) = new_figure("double", 2.6, ncols=2)
    style = algorithm_style(paper, learner)
    for ax in (linear_ax, log_ax):
        ax.errorbar(
            x,
            regret,
            yerr=half,
            color=style["color"],
            marker="o",
            markersize=4,
            capsize=3,
            label=mathtext(paper["algorithms"][learner]["label"]),
        )
        for other in spec.get("faint", []):
            faint_exps, faint_regret, faint_half = _regret_at_horizon(summary, other)
            faint_mu = np.array(
                [paper["experiments"][e]["environment"]["means"][0] for e in faint_exps]
            )
            ranked = np.argsort(faint_mu, kind="stable")
            values = faint_regret[ranked] if ax is linear_ax else log_safe(faint_regret[ranked])
            ax.errorbar(
                faint_mu[ranked],
                values,
                yerr=faint_half[ranked],
                color=algorithm_style(paper, other)["color"],
                marker="o",
                markersize=3,
                capsize=2,
                linewidth=0.8,
                alpha=0.5,
                label=mathtext(paper["algorithms"][other]["label"]) + ", not in the paper",
            )
        ax.set_xlabel(r"$\mu$ (mean of the arm)")
        ax.set_ylabel(r"regret $P^*(T) - P(T)$")
    positive = regret > 0
    if positive.sum() >= 2:
        slope, intercept = np.polyfit(np.log(x[positive]), np.log(regret[positive]), 1)
        grid = np.geomspace(x.min(), x.max(), 50)
        log_ax.plot(
            grid,
            np.exp(intercept) * grid**slope,
            color="0.4",
            linestyle="--",
            label=f"fitted slope {slope:.2f} (Theorem 7: −1)".replace("-", "−"),
        )
    log_ax.set_xscale("log")
    log_ax.set_yscale("log")
    log_ax.xaxis.set_major_locator(FixedLocator(x))
    log_ax.xaxis.set_minor_locator(NullLocator())
    log_ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    log_ax.set_title("(b) log-log (a regret ≤ 0 is not drawn)")
    linear_ax.set_title("(a) as the paper plots it")
    _legend(fig, [linear_ax, log_ax], summary, shown="bars")
    return fig


FIGURE_KINDS = {
    "payoff_curves": payoff_curves,
    "regret_vs_mu": regret_vs_mu,
    "kappa_lambda_heatmap": kappa_lambda_heatmap,
    "scaled_regret": scaled_regret,
}
