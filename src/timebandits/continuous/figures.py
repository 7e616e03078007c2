"""Figures of "Continuous Time Bandits With Sampling Costs": cumulative payoff over time (Figs. 1
and 2; the axes are inferred, the paper's images are lost, spec §4), CTSAB's regret against μ
(Fig. 3), the λ × κ heat maps of the sensitivity grid and Theorem 5's scaled regret against
T' = T/λ. House style (core.pages.plotting): 7 in wide, no burned-in title (the caption says
what is drawn), bands ±1 s.e."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
from matplotlib.colors import ListedColormap
from matplotlib.lines import Line2D
from matplotlib.ticker import FixedLocator, FuncFormatter, MaxNLocator, NullLocator

from timebandits.core.pages.plotting import (
    DIVERGING,
    algorithm_style,
    band,
    colormap,
    heatmap,
    log_safe,
    new_figure,
    runs_note,
)
from timebandits.core.pages.ticks import power_of_ten

from .simulation import algorithm_params

# The learner gets its own panel when its payoff spans more than this many times the range of
# the exact curves (the oracle and the baselines), which it would otherwise squash flat.
SQUASH = 5.0
# The log axis of the gap to the oracle spans this many decades below its largest value.
GAP_DECADES = 4
MATH = {"λ": r"\lambda", "κ": r"\kappa", "μ": r"\mu", "ε": r"\varepsilon", "δ": r"\delta"}


def mathtext(text: str) -> str:
    """Greek letters and T' of a label as mathtext (``CTSAB (κ = 1)`` → ``CTSAB ($\\kappa$ =
    1)``), so that a figure sets them as the captions' formulas."""
    text = text.replace("T'^ε", r"$T'^{\varepsilon}$")
    return re.sub(
        r"\$[^$]*\$|[λκμεδ]|T'",
        lambda m: m.group() if m.group().startswith("$") else f"${MATH.get(m.group(), m.group())}$",
        text,
    )


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


def _final(summary: pd.DataFrame, algorithm: str, metric: str) -> pd.DataFrame:
    """One row per experiment: the algorithm's ``metric`` at each experiment's horizon."""
    rows = summary[(summary["algorithm"] == algorithm) & (summary["metric"] == metric)]
    return rows.loc[rows.groupby("experiment")["t"].idxmax()].set_index("experiment")


def _regret_at_horizon(summary: pd.DataFrame, algorithm: str):
    """(experiments, mean regret P*(T) − P(T) at each one's horizon, its standard error)."""
    learned = _final(summary, algorithm, "payoff")
    oracle = _final(summary, "oracle", "payoff")
    return (
        learned.index,
        (oracle.loc[learned.index, "mean"] - learned["mean"]).to_numpy(),
        learned["se"].to_numpy(),
    )


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


def scaled_regret(spec: dict, paper: dict, summary: pd.DataFrame):
    """Theorem 5's scaling (claims C8, C8-thm5 and their sensitivity runs): each learner's regret
    at T times μ/(ln T')², against T' = T/λ on log axes, one colour per learner (the first drawn
    on top, the others with open markers, so that equal values stay visible), one marker per μ,
    ±1 s.e.; the grey band spans from the first learner's smallest value to ``max_spread`` (the
    claims' 3) times it, where all its points must lie for "roughly constant"."""
    limit = float(spec.get("options", {}).get("max_spread", 3.0))
    fig, ax = new_figure("double", 3.2)
    markers = {}
    handles, labels = [], []
    floor = None
    for rank, alg in enumerate(spec["algorithms"]):
        exps, regret, half = _regret_at_horizon(summary, alg)
        horizon = _final(summary, alg, "payoff")["t"].to_numpy()
        env = [paper["experiments"][e]["environment"] for e in exps]
        mu = np.array([e["means"][0] for e in env])
        t_prime = horizon / np.array([float(e["lam"]) for e in env])
        values, errors = regret * mu / np.log(t_prime) ** 2, half * mu / np.log(t_prime) ** 2
        style = algorithm_style(paper, alg)
        for m in sorted(set(mu), reverse=True):
            marker = markers.setdefault(m, "osD^v"[len(markers) % 5])
            rows = np.flatnonzero(mu == m)
            rows = rows[np.argsort(t_prime[rows])]
            ax.errorbar(
                t_prime[rows],
                values[rows],
                yerr=errors[rows],
                color=style["color"],
                linestyle=style["linestyle"],
                linewidth=1.0,
                marker=marker,
                markersize=5 if rank else 4,
                capsize=2,
                zorder=3 - 0.1 * rank,
                markerfacecolor=style["color"] if rank == 0 else "none",
            )
        handles.append(Line2D([], [], color=style["color"], linestyle=style["linestyle"]))
        labels.append(mathtext(paper["algorithms"][alg]["label"]))
        if floor is None and (values > 0).any():
            floor = values[values > 0].min()
    for m, marker in markers.items():
        handles.append(Line2D([], [], color="0.3", linestyle="none", marker=marker))
        labels.append(f"$\\mu$ = {m:g}")
    if floor is not None:
        handles.append(ax.axhspan(floor, limit * floor, color="0.88", zorder=0))
        labels.append(f"a factor {limit:g} above the first learner's smallest value")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(r"normalized horizon $T' = T/\lambda$")
    ax.set_ylabel(r"regret at $T$ $\times\ \mu/(\ln T')^2$")
    fig.legend(
        handles,
        labels,
        loc="outside lower center",
        ncol=2,
        frameon=False,
        title=runs_note(summary, "bars"),
    )
    return fig


FIGURE_KINDS = {
    "payoff_curves": payoff_curves,
    "regret_vs_mu": regret_vs_mu,
    "kappa_lambda_heatmap": kappa_lambda_heatmap,
    "scaled_regret": scaled_regret,
}
