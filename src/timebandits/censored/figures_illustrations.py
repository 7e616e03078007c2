"""The illustrations of "Bandits with Censored Consumption of Resources", drawn from the config
alone (no simulation; each takes the figure spec, paper config and experiment summary, and ignores
the summary): Example 1's arms (Fig. 1), their ν curves (eq. 2; Fig. 2) and z-RCUCB's grid
refinement schematic (Fig. 3), in the house style (core.pages.plotting)."""

from __future__ import annotations

import textwrap

import numpy as np
import pandas as pd

from timebandits.core.pages.plotting import CATEGORY_PALETTE, legend_below, new_figure

from .grid_refinement import refinement_schematic
from .model import example1_problem
from .samplers import sample_many

EXAMPLE_DRAWS = 20_000
EXAMPLE_KEY = 20230101


def _penalty(setting: dict) -> dict:
    """The penalty of a figure's setting in config form (without its plotting range)."""
    return {key: setting[key] for key in ("threshold", "below", "above")}


def _arm_name(arm: int, names: list[str], width: int = 20) -> str:
    """ "arm 1: complex model (e.g. deep net)", wrapped for a row label."""
    return textwrap.fill(f"arm {arm + 1}: {names[arm]}", width)


def example_distributions(spec: dict, paper: dict, summary: pd.DataFrame):
    """Fig. 1: reward marginal, consumption marginal and joint law of Example 1's three arms
    (the replicator's truncated-Gaussian proposal, spec §4), from draws of the environment; the
    arms are instances, coloured from the category palette (never an algorithm's colour)."""
    problem = example1_problem(_penalty(spec["options"]["penalties"][0]))
    names = spec["options"]["arm_names"]
    fig, axes = new_figure("double", 5.2, nrows=3, ncols=3, sharex=True)
    bins = np.linspace(0, 1, 41)
    for arm, row in enumerate(axes):
        reward, consumption = sample_many(problem, EXAMPLE_KEY, arm, EXAMPLE_DRAWS)
        colour = CATEGORY_PALETTE[arm]
        row[0].hist(reward, bins=bins, density=True, color=colour, alpha=0.85)
        row[1].hist(consumption, bins=bins, density=True, color=colour, alpha=0.85)
        row[2].hist2d(reward, consumption, bins=[bins, bins], cmap="Greys")
        row[0].set_ylabel(f"{_arm_name(arm, names)}\n\ndensity")
        row[1].set_ylabel("density")
        row[2].set_ylabel("consumption C")
        for ax in row:
            ax.set_xlim(0, 1)
    for ax, title in zip(axes[0], ("(a) reward R", "(b) consumption C", "(c) joint law of (R, C)")):
        ax.set_title(title)
    for ax, xlabel in zip(axes[-1], ("reward R", "consumption C", "reward R")):
        ax.set_xlabel(xlabel)
    return fig


def nu_curves(spec: dict, paper: dict, summary: pd.DataFrame):
    """Fig. 2: ν_{i,τ} against τ for Example 1's arms under each penalty setting (exact)."""
    settings = spec["options"]["penalties"]
    names = spec["options"]["arm_names"]
    fig, axes = new_figure("double", 2.6, ncols=len(settings))
    for panel, (ax, penalty) in enumerate(zip(np.atleast_1d(axes), settings)):
        problem = example1_problem(_penalty(penalty))
        taus = np.linspace(penalty["tau_range"][0], penalty["tau_range"][1], 400)[1:]
        for arm in range(problem.n):
            ax.plot(
                taus,
                problem.nu_at(arm, taus),
                color=CATEGORY_PALETTE[arm],
                label=f"arm {arm + 1}: {names[arm]}",
            )
        ax.axhline(0.0, color="0.3", linewidth=0.7)
        ax.set_xlabel(r"resource limit $\tau$")
        ax.set_ylabel(r"penalized expected gain $\nu_{i,\tau}$")
        ax.set_title(
            f"({'abc'[panel]}) λ(x) = {penalty['below']:g}x for x ≤ "
            f"{penalty['threshold']:g}, {penalty['above']:g}x above"
        )
    legend_below(fig, np.atleast_1d(axes)[0], None, columns=3)
    return fig


def refinement_figure(spec: dict, paper: dict, summary: pd.DataFrame):
    """Fig. 3: z-RCUCB's grid refinement with m = 4, drawn from
    ``grid_refinement.refinement_schematic`` (the split the policy's kernel makes)."""
    levels = refinement_schematic(m=int(spec["options"]["m"]), tau_max=1.0)
    fig, axes = new_figure("double", 0.85 * len(levels) + 0.5, nrows=len(levels), sharex=True)
    for panel, (ax, level) in enumerate(zip(axes, levels)):
        ax.hlines(0, 0, 1, color="black", linewidth=1)
        ax.vlines(level.points, -0.25, 0.25, color=CATEGORY_PALETTE[0], linewidth=2)
        for x in level.points:
            ax.text(x, 0.35, f"{x:.4g}", ha="center", fontsize=7)
        marked = ", ".join(f"{x:g}" for x in level.extended_at)
        where = (
            f" after extending at τ = {marked}"
            if marked
            else r": the initial grid $\{\tau_{\max}\}$"
        )
        count = len(level.points)
        ax.set_title(
            f"({'abc'[panel]}) {count} grid point{'s' if count > 1 else ''}{where}", loc="left"
        )
        ax.set_ylim(-0.5, 0.9)
        ax.set_yticks([])
        ax.grid(False)
        for side in ("left", "right", "top"):
            ax.spines[side].set_visible(False)
    axes[-1].set_xlim(-0.02, 1.04)
    axes[-1].set_xlabel(r"resource limit $\tau$ ($\tau_{\max}$ = 1)")
    return fig
