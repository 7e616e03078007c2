"""Figures of "Adaptive Algorithms for Multi-armed Bandit with Composite and Anonymous Feedback":
the schematic of one round's observed against true reward (Fig. 1, figures_schematic.py), the
regret panels of Figs. 2–4 (an α or an f sweep with its baseline) and the label-stream games of
Fig. 5 (ARS-EXP3 against CLW). Every function takes (figure spec, paper config, experiment
summary); Fig. 1 ignores the summary."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.ticker import MaxNLocator

from timebandits.core.pages.plotting import band, legend_below, new_figure, series_style

from .figures_schematic import round_schematic
from .label_game_config import game_labels
from .model import problem_of
from .simulation import LABEL_GAME_POLICIES, algorithm_params
from .theory import lai_robbins_constant, theorem2_bound

# The parameter every ARS-UCB curve of a sweep shares (the config's panel mapping, option
# ``sweep``; spec §3): an α sweep keeps f = k², an f sweep keeps α = 4.
SWEEPS = {"alpha": "round_size", "f": "alpha"}


def _two_panels():
    """Figs. 2–5's frame at double-column width: left, the paper's linear axes; right, log t
    (the wider left panel is the paper's plot)."""
    return new_figure("double", 3.1, ncols=2, gridspec_kw={"width_ratios": [1.25, 1]})


def _first_panel(spec: dict) -> str:
    """The left panel's label: the paper's view in a paper figure, linear axes in an extra."""
    return "(a) as in the paper" if spec["group"] == "paper" else "(a) linear axes"


def _linear_time(ax) -> None:
    """A linear time axis with five ticks (labelled 250k, 500k, … by core.pages.ticks)."""
    ax.xaxis.set_major_locator(MaxNLocator(5))
    ax.set_xlabel("time slot $t$")


def sweep_styles(paper: dict, spec: dict) -> dict:
    """The style of each curve of a Figs. 2–4 panel. The ARS-UCB variants and the two baselines
    (nine algorithms; one drawn in no figure, as the UCB runs of claim C10, takes no colour)
    keep one dark colour each in every panel; an option of the baseline (a ``faint`` curve:
    ODAAF-V, ODAAF-B, generalized ODAAF told the mean offset) is drawn in its baseline's colour
    with a dash pattern of its own, so that, thin and half-transparent, it still reads as a
    variant of that baseline."""
    options = {a for figure in paper["figures"].values() for a in figure.get("faint", [])}
    drawn = {a for figure in paper["figures"].values() for a in figure["algorithms"]}
    main = [
        a
        for a, alg in paper["algorithms"].items()
        if alg["policy"] not in LABEL_GAME_POLICIES and a not in options and a in drawn
    ]
    styles = {a: series_style(main.index(a), len(main)) for a in spec["algorithms"]}
    baseline = [a for a in spec["algorithms"] if paper["algorithms"][a]["policy"] != "ars_ucb"]
    for i, alg in enumerate(spec.get("faint", [])):
        colour = styles[baseline[0]]["color"] if baseline else "0.4"
        styles[alg] = {**series_style(len(main) + i), "color": colour}
    return styles


def regret_sweep(spec: dict, paper: dict, summary: pd.DataFrame):
    """Figs. 2–4: mean cumulative pseudo-regret ± 1 s.e. of the sweep's ARS-UCB runs and the
    baseline (options, ``faint``, thin and half-transparent). (a) as the paper plots it (linear
    t); (b) against log t on ARS-UCB's scale (a baseline above leaves through the top), where
    logarithmic growth is a straight line, with the Lai–Robbins line (Σ Δ_i/kl(s_i, s_1)) ln t
    dotted."""
    fixed = SWEEPS[spec["options"]["sweep"]]
    sweep = [a for a in spec["algorithms"] if paper["algorithms"][a]["policy"] == "ars_ucb"]
    if len({str(algorithm_params(paper["algorithms"][a])[fixed]) for a in sweep}) > 1:
        raise ValueError(
            f"figure {spec['title']!r}: its ARS-UCB curves must share {fixed} "
            f"(sweep {spec['options']['sweep']!r})"
        )
    fig, (linear_ax, log_ax) = _two_panels()
    labels = paper["algorithms"]
    styles = sweep_styles(paper, spec)
    top, off = _off_scale(spec, summary)
    for alg in spec["algorithms"] + spec.get("faint", []):
        faint = alg in spec.get("faint", [])
        label = labels[alg]["label"] + (
            f" (option; ↑ {off[alg]:,.0f} at T)" if alg in off else " (option)" if faint else ""
        )
        rows = summary[summary["algorithm"] == alg]
        for ax in (linear_ax, log_ax):
            band(ax, rows, "regret", label, styles[alg], faint=faint)
    t = np.sort(summary.loc[summary["metric"] == "regret", "t"].unique().astype(float))
    lai_robbins = lai_robbins_constant(problem_of(paper, spec["experiment"]).means)
    log_ax.plot(
        t,
        lai_robbins * np.log(t),
        color="0.3",
        linestyle=":",
        linewidth=1.2,
        label=rf"Lai–Robbins line ${lai_robbins:.3g}\,\ln t$",
    )
    _linear_time(linear_ax)
    linear_ax.set_title(_first_panel(spec), loc="left")
    log_ax.set_xscale("log")
    log_ax.set_xlabel("time slot $t$ (log scale)")
    log_ax.set_title("(b) against log $t$, on ARS-UCB's scale", loc="left")
    for ax in (linear_ax, log_ax):
        ax.set_ylabel("cumulative pseudo-regret")
    linear_ax.set_ylim(0, top if off else None)
    # (b) on ARS-UCB's own scale: a baseline far above no longer flattens its curves.
    regret = summary[(summary["metric"] == "regret") & summary["algorithm"].isin(sweep)]
    log_ax.set_ylim(0, 1.08 * float((regret["mean"] + regret["se"]).max()))
    legend_below(fig, log_ax, summary, columns=3)
    return fig


def _off_scale(spec: dict, summary: pd.DataFrame) -> tuple[float, dict]:
    """The top of a Figs. 2–4 panel's regret axis: that of the paper's curves, so that an option
    (a ``faint`` curve, not in the paper's figure) far above them does not squash them flat; and
    each option that leaves the panel, with its mean regret at T (its legend entry says so)."""
    regret = summary[summary["metric"] == "regret"]
    high = regret["mean"] + regret["se"]
    paper_top = float(high[regret["algorithm"].isin(spec["algorithms"])].max())
    off = {}
    for alg in spec.get("faint", []):
        rows = regret[regret["algorithm"] == alg].sort_values("t")
        if not rows.empty and float((rows["mean"] + rows["se"]).max()) > 1.15 * paper_top:
            off[alg] = float(rows["mean"].iloc[-1])
    return 1.08 * paper_top, off


def label_game_regret(spec: dict, paper: dict, summary: pd.DataFrame):
    """Fig. 5: mean cumulative regret max_i G_i(t) − gain(t) ± 1 s.e. of ARS-EXP3 and CLW on a
    label stream. (a) as the paper plots it; (b) log-log, with Theorem 2's bound
    3 g(K)√(N K ln N) + 2dK + g(K+1) for ARS-EXP3 at each t (dashed; theory.theorem2_bound)
    and the slopes 2/3 and 1 through the last point of ARS-EXP3's curve (dotted)."""
    experiment = paper["experiments"][spec["experiment"]]
    environment = experiment["environment"]
    stream, _ = game_labels(environment, int(summary["t"].max()))
    fig, (linear_ax, log_ax) = _two_panels()
    labels = paper["algorithms"]
    # Fig. 5's algorithms never share a panel with Figs. 2-4's: their own palette, so that
    # ARS-EXP3 and CLW do not get two shades of the same colour of the paper's long list.
    players = [a for a, alg in labels.items() if alg["policy"] in LABEL_GAME_POLICIES]
    for alg in spec["algorithms"]:
        rows = summary[summary["algorithm"] == alg]
        style = series_style(players.index(alg), len(players))
        # The curves swing within each week: markers spaced along t, not along the path.
        steps = max(1, rows["t"].nunique() // 6)
        band(
            linear_ax,
            rows,
            "regret",
            labels[alg]["label"],
            {**style, "markevery": (players.index(alg) * steps // len(players), steps)},
        )
        band(log_ax, rows, "regret", labels[alg]["label"], style)
    exp3 = [a for a in spec["algorithms"] if labels[a]["policy"] == "ars_exp3"]
    if exp3:
        t = np.sort(summary.loc[summary["metric"] == "regret", "t"].unique().astype(float))
        t = t[t >= 10]
        beta = float(algorithm_params(labels[exp3[0]])["beta"])
        d = environment["delays"]["d"]
        log_ax.plot(
            t,
            theorem2_bound(t, stream.n_arms, d, beta),
            color="0.3",
            linestyle="--",
            linewidth=1.2,
            label=f"Theorem 2's bound ($N = {stream.n_arms}$, $d = {d}$)",
        )
        rows = summary[(summary["algorithm"] == exp3[0]) & (summary["metric"] == "regret")]
        last = rows.sort_values("t").iloc[-1]
        for slope, style, name in ((2 / 3, ":", "2/3"), (1.0, "-.", "1")):
            log_ax.plot(
                t,
                last["mean"] * (t / last["t"]) ** slope,
                color="0.55",
                linestyle=style,
                linewidth=1.0,
                label=f"slope ${name}$",
            )
    _linear_time(linear_ax)
    linear_ax.set_title(
        f"{_first_panel(spec)}; {stream.n_arms} arms, best label "
        f"{stream.best_share:.1%} of the stream",
        loc="left",
    )
    log_ax.set_xscale("log")
    log_ax.set_yscale("log")
    log_ax.set_xlabel("time slot $t$ (log scale)")
    log_ax.set_title("(b) log-log: slope = growth exponent", loc="left")
    linear_ax.set_ylabel(r"regret $\mathrm{max}_i\,G_i(t) - \mathrm{gain}(t)$")
    log_ax.set_ylabel("regret (log scale)")
    legend_below(fig, log_ax, summary, columns=4)
    return fig


# Figures drawn from a simulation of their own (a round of ARS-UCB), so their job runs a compiled
# kernel; every other figure job forbids it (workflow/scripts/figure.py).
COMPILED_KINDS = {"round_schematic"}
FIGURE_KINDS = {
    "regret_sweep": regret_sweep,
    "round_schematic": round_schematic,
    "label_game_regret": label_game_regret,
}
