"""Figures of "Continuous Time Bandits With Sampling Costs": cumulative payoff over time (Figs. 1
and 2; the axes are inferred, the paper's images are lost, spec §4), CTSAB's regret against μ
(Fig. 3) and the λ × κ heat maps of the sensitivity grid."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib import pyplot as plt

from timebandits.core.plotting import algorithm_style, apply_style, band, legend_and_title

from .simulation import algorithm_params

Z95 = 1.959963984540054  # the 95% normal quantile of the bands (spec §4: mean ± 1.96 sd/√n)


def _setting(paper: dict, experiment: str) -> str:
    environment = paper["experiments"][experiment]["environment"]
    return f"λ = {environment['lam']:g}, T' = T/λ = {paper['experiments'][experiment]['horizon'] / environment['lam']:.3g}"


def payoff_curves(spec: dict, paper: dict, summary: pd.DataFrame):
    """Figs. 1–2. Left: cumulative payoff Σ (μ − λ/Δt) against time, as the paper plots it
    (inferred axes); right: the gap to the oracle's cumulative payoff, P*(t) − P(t). Means of the
    runs with 95% bands; the oracle and the baselines are exact (no band)."""
    apply_style()
    fig, (payoff_ax, gap_ax) = plt.subplots(1, 2, figsize=(10, 3.9))
    payoffs = summary[summary["metric"] == "payoff"]
    oracle = payoffs[payoffs["algorithm"] == "oracle"].set_index("t")["mean"]
    for alg in spec["algorithms"]:
        style = algorithm_style(paper, alg)
        label = paper["algorithms"][alg]["label"]
        for metric, what in (("failed", "never stopped learning"),
                             ("id_cut", "identification cut at T")):
            rows = summary[(summary["algorithm"] == alg) & (summary["metric"] == metric)]
            if not rows.empty:
                label += f"; {rows.sort_values('t')['mean'].iloc[-1]:.0%} {what}"
        rows = payoffs[payoffs["algorithm"] == alg]
        band(payoff_ax, rows, "payoff", label, style, width=Z95)
        gap = rows.assign(mean=oracle.reindex(rows["t"]).to_numpy() - rows["mean"].to_numpy())
        band(gap_ax, gap, "payoff", label, style, width=Z95)
    payoff_ax.set_xlabel("time t (inferred axis)")
    payoff_ax.set_ylabel("cumulative payoff: reward − λ·Σ 1/Δt")
    payoff_ax.set_title(f"as the paper plots it ({_setting(paper, spec['experiment'])})")
    gap_ax.set_xlabel("time t")
    gap_ax.set_ylabel("oracle's payoff − payoff so far")
    gap_ax.set_title("gap to the oracle (the regret at t = T)")
    for ax in (payoff_ax, gap_ax):
        ax.axhline(0, color="0.6", linewidth=0.6)
        ax.ticklabel_format(axis="x", style="sci", scilimits=(0, 0))
    legend_and_title(fig, payoff_ax, spec["title"], summary, columns=2, bands="95% bands")
    fig.tight_layout()
    return fig


def _final(summary: pd.DataFrame, algorithm: str, metric: str) -> pd.DataFrame:
    """One row per experiment: the algorithm's ``metric`` at each experiment's horizon."""
    rows = summary[(summary["algorithm"] == algorithm) & (summary["metric"] == metric)]
    return rows.loc[rows.groupby("experiment")["t"].idxmax()].set_index("experiment")


def regret_vs_mu(spec: dict, paper: dict, summary: pd.DataFrame):
    """Fig. 3: CTSAB's regret P*(T) − P(T) at the horizon against μ (95% intervals), and the same
    on log-log axes with the least-squares slope of log regret on log μ (Theorem 7's Ω(1/μ) is
    slope −1; Theorem 5's O((log T')²/μ) too, at fixed T')."""
    apply_style()
    (learner,) = spec["algorithms"]
    learned = _final(summary, learner, "payoff")
    oracle = _final(summary, "oracle", "payoff")
    mu = pd.Series({e: paper["experiments"][e]["environment"]["means"][0] for e in learned.index})
    order = mu.sort_values().index
    regret = (oracle.loc[order, "mean"] - learned.loc[order, "mean"]).to_numpy()
    half = Z95 * learned.loc[order, "se"].to_numpy()
    x = mu[order].to_numpy()
    fig, (linear_ax, log_ax) = plt.subplots(1, 2, figsize=(10, 3.9))
    style = algorithm_style(paper, learner)
    for ax in (linear_ax, log_ax):
        ax.errorbar(x, regret, yerr=half, color=style["color"], marker="o", capsize=3,
                    label=paper["algorithms"][learner]["label"])
        ax.set_xlabel("μ (mean of the arm)")
        ax.set_ylabel("regret P*(T) − P(T)")
    positive = regret > 0
    if positive.sum() >= 2:
        slope, intercept = np.polyfit(np.log(x[positive]), np.log(regret[positive]), 1)
        grid = np.geomspace(x.min(), x.max(), 50)
        log_ax.plot(grid, np.exp(intercept) * grid ** slope, color="0.4", linestyle="--",
                    label=f"fitted slope {slope:.2f} (Theorem 7: −1)")
    log_ax.set_xscale("log")
    log_ax.set_yscale("log")
    log_ax.set_title("log-log (regret ≤ 0 is not drawn)")
    linear_ax.set_title(f"as the paper plots it ({_setting(paper, spec['experiment'])})")
    legend_and_title(fig, log_ax, spec["title"], summary, columns=2, bands="95% intervals")
    fig.tight_layout()
    return fig


def kappa_lambda_heatmap(spec: dict, paper: dict, summary: pd.DataFrame):
    """The sensitivity grid for one arm: CTSAB's regret relative to the oracle's payoff,
    (P* − P)/P* at T (left), and the share of runs whose learning never stopped (right), for each
    λ (rows; T' = T/λ) and κ (columns)."""
    apply_style()
    lams, kappas = [], []
    regret, failed = {}, {}
    for alg in spec["algorithms"]:
        kappa = float(algorithm_params(paper["algorithms"][alg])["kappa"])
        kappas.append(kappa)
        payoff = _final(summary, alg, "payoff")
        oracle = _final(summary, "oracle", "payoff")
        failure = _final(summary, alg, "failed")
        for exp in payoff.index:
            lam = float(paper["experiments"][exp]["environment"]["lam"])
            lams.append(lam)
            regret[lam, kappa] = (oracle.loc[exp, "mean"] - payoff.loc[exp, "mean"]) / oracle.loc[exp, "mean"]
            failed[lam, kappa] = failure.loc[exp, "mean"]
    lams, kappas = sorted(set(lams), reverse=True), sorted(set(kappas))
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.9))
    for ax, values, name, cmap, limits in (
            (axes[0], regret, "regret / oracle payoff at T", "Reds", (0.0, 1.0)),
            (axes[1], failed, "share of runs that never stopped learning", "Greys", (0.0, 1.0))):
        grid = np.array([[values[lam, kappa] for kappa in kappas] for lam in lams])
        image = ax.imshow(np.clip(grid, *limits), cmap=cmap, vmin=limits[0], vmax=limits[1],
                          aspect="auto")
        for i in range(len(lams)):
            for j in range(len(kappas)):
                ax.text(j, i, f"{grid[i, j]:.2g}", ha="center", va="center", fontsize=8,
                        color="black" if grid[i, j] < 0.6 * limits[1] else "white")
        ax.set_xticks(range(len(kappas)), [f"{k:g}" for k in kappas])
        ax.set_yticks(range(len(lams)), [f"{lam:g}" for lam in lams])
        ax.set_xlabel("κ")
        ax.set_ylabel("λ (T' = T/λ)")
        ax.set_title(name + (" (colour capped at 1: above 1, a negative payoff)"
                             if name.startswith("regret") else ""))
        ax.grid(False)
        fig.colorbar(image, ax=ax, shrink=0.85)
    fig.suptitle(f"{spec['title']}  (mean of {int(summary['n'].max())} runs)", fontsize=10)
    fig.tight_layout()
    return fig


FIGURE_KINDS = {"payoff_curves": payoff_curves, "regret_vs_mu": regret_vs_mu,
                "kappa_lambda_heatmap": kappa_lambda_heatmap}
