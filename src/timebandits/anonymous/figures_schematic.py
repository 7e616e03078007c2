"""Fig. 1 of "Adaptive Algorithms for Multi-armed Bandit with Composite and Anonymous Feedback"
(Wang, Wang & Huang, AAAI 2021): the schematic of one round's observed against true reward, from
a real simulated round of ARS-UCB (Algorithm 1), drawn by :func:`round_schematic`, which takes
(figure spec, paper config, experiment summary) and ignores the summary; :func:`round_of` finds
an arm's round in a run's plays.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from timebandits.core.pages.plotting import CATEGORY_PALETTE, legend_below, new_figure

from .environment import pull
from .policies import run_ars_ucb
from .simulation import algorithm_params, round_size_table
from .spread_kernel import DELAY
from .stochastic_instance import stochastic_instance

# The environment key of Fig. 1's run (any fixed key: the figure shows one real run).
SCHEMATIC_KEY = 20210202


def round_of(plays: np.ndarray, sizes: np.ndarray, arm: int, round_index: int) -> tuple[int, int]:
    """First and last slot of ``arm``'s round number ``round_index`` (1-based) in the play
    sequence ``plays`` (plays[t] = arm of slot t), splitting each run of the arm's slots into
    its successive round sizes f(k) (two rounds of an arm can follow each other)."""
    played = 0  # the arm's rounds completed before the current slot
    t, horizon = 1, plays.size - 1
    while t <= horizon:
        if plays[t] != arm:
            t += 1
            continue
        length = int(sizes[played])
        if played + 1 == round_index:
            if t + length - 1 > horizon:
                break
            return t, t + length - 1
        played += 1
        t += length
    raise ValueError(f"arm {arm + 1} plays no complete round {round_index} in {horizon} slots")


def round_schematic(spec: dict, paper: dict, summary: pd.DataFrame):
    """Fig. 1: a round's observed against its true reward, from a real run of ARS-UCB (the
    experiment's α = 4, f = k² algorithm and kernel, Bernoulli totals, environment key
    SCHEMATIC_KEY). The learner credits the round with what it observes in the round's slots:
    earlier rounds' reward falling due then (the first "triangle"), plus the part of its own
    reward that falls due before it ends; the rest of its own reward falls due later and is
    credited to the next round (the second "triangle")."""
    horizon = 2000
    environment = paper["experiments"][spec["experiment"]]["environment"]
    problem, cumulative, d1, d2 = stochastic_instance(
        json.dumps(environment, sort_keys=True), horizon
    )
    kernel = problem.kernel
    if kernel.code == DELAY or not np.isfinite(kernel.support):
        raise ValueError(
            f"figure {spec['title']!r} needs a finite fixed spread, not a {kernel.kind} kernel"
        )
    params = algorithm_params(paper["algorithms"]["ars_ucb"])
    arm, round_index = int(spec["options"]["arm"]), int(spec["options"]["round"])
    sizes = round_size_table(params["round_size"], horizon)
    _, _, plays = run_ars_ucb(
        problem.means,
        float(params["alpha"]),
        sizes,
        d1,
        d2,
        kernel.code,
        cumulative,
        int(min(kernel.window_reach, horizon)),
        0,
        0,
        np.uint64(SCHEMATIC_KEY),
        horizon,
        np.array([horizon]),
    )
    first, last = round_of(plays, sizes, arm, round_index)
    reach = int(kernel.support)
    totals = np.zeros(horizon + 1)
    delays = np.zeros(horizon + 1, np.int64)
    for u in range(1, last + 1):
        pull(
            problem.means[plays[u]], u, np.uint64(SCHEMATIC_KEY), kernel.code, 0, 0, totals, delays
        )
    weights = kernel.weights(reach + 1)
    slots = np.arange(first, last + reach + 1)
    earlier = np.array(
        [sum(totals[u] * weights[s - u] for u in range(max(1, s - reach), first)) for s in slots]
    )
    own = np.array(
        [
            sum(
                totals[u] * weights[s - u] for u in range(first, min(s, last) + 1) if s - u <= reach
            )
            for s in slots
        ]
    )
    inside = slots <= last
    fig, ax = new_figure("double", 2.7)
    earlier_colour, own_colour = CATEGORY_PALETTE[1], CATEGORY_PALETTE[0]
    ax.bar(
        slots[inside],
        earlier[inside],
        width=0.85,
        color=earlier_colour,
        label="observed: reward of earlier rounds (other arms)",
    )
    ax.bar(
        slots[inside],
        own[inside],
        bottom=earlier[inside],
        width=0.85,
        color=own_colour,
        label="observed: this round's own reward",
    )
    ax.bar(
        slots[~inside],
        own[~inside],
        width=0.85,
        color="white",
        edgecolor=own_colour,
        hatch="////",
        linewidth=0.6,
        label="this round's reward falling due after it (credited to the next round)",
    )
    ax.axvspan(first - 0.5, last + 0.5, color="0.93", zorder=0)
    top = float(np.max(earlier + own))
    ax.set_ylim(0, 1.25 * top)
    observed = earlier[inside].sum() + own[inside].sum()
    true = totals[first : last + 1].sum()
    ax.text(
        0.5,
        0.98,
        f"arm {arm + 1}, round {round_index} (shaded): slots {first}–{last}; "
        f"observed in the round {observed:.2f}, its true total {true:.0f}",
        transform=ax.transAxes,
        ha="center",
        va="top",
    )
    ax.set_xlabel("time slot $t$")
    ax.set_ylabel("reward falling due in slot $t$")
    legend_below(fig, ax, None, columns=2)
    return fig
