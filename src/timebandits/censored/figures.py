"""Figures of "Bandits with Censored Consumption of Resources": Example 1's arms (Fig. 1), their
ν curves (Fig. 2), the z-RCUCB refinement schematic (Fig. 3), the regret panels (Figs. 4,
6–9) and the AmesHousing reward panel (Fig. 5). Every function takes (figure spec, paper config, experiment summary); Figs. 1–3 use no
simulation and ignore the summary."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib import pyplot as plt

from timebandits.core.plotting import PALETTE, algorithm_style, apply_style, band, legend_and_title

from .analysis import theorem2_curve, theorem2_parameters
from .model import example1_problem, sample_many
from .simulation import algorithm_params
from .theory import theorem2_rate
from .zooming import refinement_schematic

EXAMPLE_DRAWS = 20_000
EXAMPLE_KEY = 20230101


def _with_censored_share(summary: pd.DataFrame) -> pd.DataFrame:
    """The summary plus metric ``share``: censored rounds so far / t (mean and s.e.)."""
    shares = summary[summary["metric"] == "censored"].assign(
        mean=lambda f: f["mean"] / f["t"], se=lambda f: f["se"] / f["t"], metric="share")
    return pd.concat([summary, shares], ignore_index=True)


def _draw_panels(spec: dict, paper: dict, summary: pd.DataFrame, axes: dict) -> None:
    """Draw ``metric`` (mean ± 1 s.e.) of every algorithm of the figure on ``axes[metric]``, the
    running censored share on ``axes["share"]``, and the legend and title under and over them."""
    labels = paper["algorithms"]
    data = _with_censored_share(summary)
    for alg in spec["algorithms"] + spec.get("faint", []):
        faint = alg in spec.get("faint", [])
        name = labels[alg]["label"] + (" (sensitivity)" if faint else "")
        rows = data[data["algorithm"] == alg]
        for metric, ax in axes.items():
            band(ax, rows, metric, name, algorithm_style(paper, alg), faint=faint)
    share_ax = axes["share"]
    share_ax.set_xscale("log")
    share_ax.set_xlabel("round t (log scale)")
    share_ax.set_ylabel("share of censored rounds so far")
    share_ax.set_ylim(0, 1)
    share_ax.set_title("censored rounds / t")
    first = next(iter(axes.values()))
    fig = first.figure
    legend_and_title(fig, first, spec["title"], summary, columns=3)


def regret_panel(spec: dict, paper: dict, summary: pd.DataFrame):
    """Figs. 4, 6–9. Left: the paper's plot, cumulative pseudo-regret against the round (mean ±
    1 s.e.). Right: the running share of censored rounds, the quantity of the censoring tables."""
    apply_style()
    fig, (regret_ax, share_ax) = plt.subplots(1, 2, figsize=(10, 3.9),
                                              gridspec_kw={"width_ratios": [1.6, 1]})
    _draw_panels(spec, paper, summary, {"regret": regret_ax, "share": share_ax})
    regret_ax.set_xlabel("round t")
    regret_ax.set_ylabel("cumulative regret Σ (ν* − ν_{I_s, τ_s})")
    regret_ax.ticklabel_format(axis="x", style="sci", scilimits=(0, 0))
    regret_ax.set_title("as in the paper: pseudo-regret with the exact ν table")
    fig.tight_layout()
    return fig


def reward_panel(spec: dict, paper: dict, summary: pd.DataFrame):
    """Fig. 5 (§5.2), both readings of its "cumulative reward" (spec §5). Left: the realised
    reward Σ R_s·1{C_s ≤ τ_s} (the literal reading; 0 in a censored round). Middle: the
    penalised gain Σ y_{τ_s} of eq. (1). Right: the running share of censored rounds."""
    apply_style()
    fig, (reward_ax, gain_ax, share_ax) = plt.subplots(
        1, 3, figsize=(13, 3.9), gridspec_kw={"width_ratios": [1.3, 1.3, 1]})
    _draw_panels(spec, paper, summary, {"reward": reward_ax, "gain": gain_ax, "share": share_ax})
    for ax in (reward_ax, gain_ax):
        ax.set_xlabel("round t")
        ax.ticklabel_format(axis="x", style="sci", scilimits=(0, 0))
    reward_ax.set_ylabel("cumulative reward Σ R_s 1{C_s ≤ τ_s}")
    reward_ax.set_title("Fig. 5 as printed: realised reward")
    gain_ax.set_ylabel("cumulative penalised gain Σ y_{τ_s}")
    gain_ax.set_title("other reading: penalised gain (eq. 1)")
    fig.tight_layout()
    return fig


def simple_regret_panel(spec: dict, paper: dict, summary: pd.DataFrame):
    """The extra z-RCUCB experiment (not in the paper). Left: simple regret L_T of the output of
    a run of horizon T against T (log T; symmetric-log L_T, since L_T = 0 happens), with Theorem 2's bound and its rate
    (ln(T²/δ)/T)^{1/(d+2)} drawn through the first mean as a slope guide. Right: the output limit
    τ̂ against the continuous optimum τ*."""
    apply_style()
    fig, (regret_ax, tau_ax) = plt.subplots(1, 2, figsize=(10, 3.9),
                                            gridspec_kw={"width_ratios": [1.4, 1]})
    constants = theorem2_parameters(paper, spec["experiment"])
    _, _, tau_star = constants["problem"].continuous_optimum()
    for alg in spec["algorithms"]:
        rows = summary[summary["algorithm"] == alg]
        style = algorithm_style(paper, alg)
        label = paper["algorithms"][alg]["label"]
        band(regret_ax, rows, "simple_regret", label, style)
        band(tau_ax, rows, "output_tau", label, style)
        t = np.sort(rows.loc[rows["metric"] == "simple_regret", "t"].to_numpy(dtype=float))
        bound = theorem2_curve(paper, spec["experiment"], alg, t, constants)
        regret_ax.plot(t, bound, color="0.2", linestyle="--", linewidth=1.2,
                       label=f"Theorem 2 bound (d = {constants['d']:g}, C = {constants['C']:.3g})")
        first = rows[(rows["metric"] == "simple_regret") & (rows["t"] == t[0])]["mean"].iloc[0]
        rate = theorem2_rate(t, algorithm_params(paper["algorithms"][alg])["delta"], constants["d"])
        if first > 0:
            regret_ax.plot(t, rate * first / rate[0], color=PALETTE[-1], linestyle=":",
                           linewidth=1.2, label="Theorem 2 rate, through the first mean")
    regret_ax.set_xscale("log")
    # Symmetric-log: a run whose output is the optimum has simple regret exactly 0.
    regret_ax.set_yscale("symlog", linthresh=1e-2)
    regret_ax.set_ylim(bottom=0)
    regret_ax.set_xlabel("horizon T (log scale)")
    regret_ax.set_ylabel("simple regret sup ν − ν(output)\n(linear below 0.01, log above)")
    regret_ax.set_title("z-RCUCB output after T rounds")
    tau_ax.axhline(tau_star, color="0.4", linewidth=1.0, label=f"τ* = {tau_star:.3g}")
    tau_ax.set_xscale("log")
    tau_ax.set_xlabel("horizon T (log scale)")
    tau_ax.set_ylabel("output limit τ̂")
    tau_ax.set_title("output limit")
    tau_ax.legend(loc="lower right", fontsize=8)
    legend_and_title(fig, regret_ax, spec["title"], summary, columns=3)
    fig.tight_layout()
    return fig


def _penalty(setting: dict) -> dict:
    """The penalty of a figure's setting in config form (without its plotting range)."""
    return {key: setting[key] for key in ("threshold", "below", "above")}


def example_distributions(spec: dict, paper: dict, summary: pd.DataFrame):
    """Fig. 1: reward marginal, consumption marginal and joint law of Example 1's three arms
    (the replicator's truncated-Gaussian proposal, spec §4), from draws of the environment."""
    apply_style()
    problem = example1_problem(_penalty(spec["options"]["penalties"][0]))
    names = spec["options"]["arm_names"]
    fig, axes = plt.subplots(3, 3, figsize=(9, 7.5))
    bins = np.linspace(0, 1, 41)
    for arm, row in enumerate(axes):
        reward, consumption = sample_many(problem, EXAMPLE_KEY, arm, EXAMPLE_DRAWS)
        colour = PALETTE[arm]
        row[0].hist(reward, bins=bins, density=True, color=colour, alpha=0.8)
        row[1].hist(consumption, bins=bins, density=True, color=colour, alpha=0.8)
        row[2].hist2d(reward, consumption, bins=[bins, bins], cmap="Greys")
        row[0].set_ylabel(f"arm {arm + 1}: {names[arm]}\ndensity")
        row[2].set_ylabel("consumption C")
        for ax in row:
            ax.set_xlim(0, 1)
    for ax, title, xlabel in zip(axes[0], ("reward R", "consumption C", "joint law of (R, C)"),
                                 ("reward R", "consumption C", "reward R")):
        ax.set_title(title)
    for ax, xlabel in zip(axes[-1], ("reward R", "consumption C", "reward R")):
        ax.set_xlabel(xlabel)
    fig.suptitle(f"{spec['title']}  ({EXAMPLE_DRAWS:,} draws per arm)", fontsize=10)
    fig.tight_layout()
    return fig


def nu_curves(spec: dict, paper: dict, summary: pd.DataFrame):
    """Fig. 2: ν_{i,τ} against τ for Example 1's arms under each penalty setting (exact)."""
    apply_style()
    settings = spec["options"]["penalties"]
    names = spec["options"]["arm_names"]
    fig, axes = plt.subplots(1, len(settings), figsize=(5 * len(settings), 3.6))
    for ax, penalty in zip(np.atleast_1d(axes), settings):
        problem = example1_problem(_penalty(penalty))
        taus = np.linspace(penalty["tau_range"][0], penalty["tau_range"][1], 400)[1:]
        for arm in range(problem.n):
            ax.plot(taus, problem.nu_at(arm, taus), color=PALETTE[arm],
                    label=f"arm {arm + 1}: {names[arm]}")
        ax.axhline(0.0, color="0.3", linewidth=0.7)
        ax.set_xlabel("resource limit τ")
        ax.set_ylabel("penalized expected gain ν_{i,τ}")
        ax.set_title(f"λ(x) = x/10 for x ≤ {penalty['threshold']:g}, "
                     f"{penalty['above']:g}x above")
        ax.legend(frameon=False)
    fig.suptitle(spec["title"], fontsize=10)
    fig.tight_layout()
    return fig


def refinement_figure(spec: dict, paper: dict, summary: pd.DataFrame):
    """Fig. 3: z-RCUCB's grid refinement with m = 4, drawn from ``zooming.refinement_schematic``
    (the same ``extend`` the policy calls)."""
    apply_style()
    levels = refinement_schematic(m=int(spec["options"]["m"]), tau_max=1.0)
    fig, axes = plt.subplots(len(levels), 1, figsize=(8, 1.1 * len(levels) + 0.6), sharex=True)
    for ax, level in zip(axes, levels):
        ax.hlines(0, 0, 1, color="black", linewidth=1)
        ax.vlines(level.points, -0.25, 0.25, color=PALETTE[0], linewidth=2)
        for x in level.points:
            ax.text(x, 0.35, f"{x:.4g}", ha="center", fontsize=7)
        marked = ", ".join(f"{x:g}" for x in level.extended_at)
        ax.set_title(f"{len(level.points)} grid point(s)"
                     + (f" after extending at τ = {marked}" if marked else ": the initial grid {τmax}"),
                     fontsize=8)
        ax.set_ylim(-0.5, 0.8)
        ax.set_yticks([])
        ax.grid(False)
        ax.spines["left"].set_visible(False)
    axes[-1].set_xlabel("resource limit τ (τmax = 1)")
    fig.suptitle(spec["title"], fontsize=10)
    fig.tight_layout()
    return fig


FIGURE_KINDS = {"example_distributions": example_distributions, "nu_curves": nu_curves,
                "refinement": refinement_figure, "regret_panel": regret_panel,
                "reward_panel": reward_panel, "simple_regret_panel": simple_regret_panel}
