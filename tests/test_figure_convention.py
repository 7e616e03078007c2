"""One convention for every figure of every paper, checked on one figure of each kind drawn from
a synthetic summary with large numbers (regret in the hundreds of thousands, horizons of up to
10⁷) and saved as the workflow saves it (core.pages.figure_files.save_figure): no offset text,
no tick label of more than four digits, every axis label with a word (maths only where it
helps), no raw notation (``π_low``, ``a_{k,1}``, ``5e-05``) outside mathtext."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from matplotlib.text import Text

from timebandits.core.build.preflight import load_paper
from timebandits.core.pages.figure_files import save_figure
from timebandits.core.registry import paper_module

PAPERS = ("farewell", "censored", "anonymous", "continuous", "delaydep")
# Every metric a figure of any paper reads.
METRICS = (
    "regret",
    "pseudo_regret",
    "censored",
    "reward",
    "gain",
    "simple_regret",
    "output_tau",
    "payoff",
    "failed",
    "id_cut",
    "stop_time",
    "switches",
    "regret_cost0",
    "regret_cost1",
)
RAW = re.compile(r"\w_\w|_\{|\^\{|\\[a-zA-Z]+|\+-|<=|>=|\de[-+]?\d")


def _figures():
    """(paper, figure id) of the first figure of each kind drawn from a summary (not the
    schematics, which draw no run, nor the label games, which read a data set)."""
    for key in PAPERS:
        paper = load_paper(key)
        module = paper_module(key, "figures")
        seen = set(getattr(module, "COMPILED_KINDS", ())) | {
            "label_game_regret",
            "constant_policies",
        }
        for figure_id, spec in paper["figures"].items():
            if spec["kind"] not in seen:
                seen.add(spec["kind"])
                yield key, figure_id


def synthetic_summary(paper: dict, spec: dict) -> pd.DataFrame:
    """Every metric of every algorithm of ``spec`` (and the oracle), for each experiment it
    reads, growing like √t to hundreds of thousands at the experiment's horizon (the oracle's
    payoff above every other; twice as large in each experiment as in the one before)."""
    frames = []
    for j, experiment in enumerate([spec["experiment"], *spec.get("also", [])]):
        horizon = float(paper["experiments"][experiment]["horizon"])
        t = np.unique(np.geomspace(1, horizon, 40).round())
        algorithms = [*spec["algorithms"], *spec.get("faint", [])]
        for i, alg in enumerate(dict.fromkeys(algorithms + ["oracle"])):
            scale = 300.0 * 2**j * (20 if alg == "oracle" else 1 + i) * np.sqrt(t)
            for metric in METRICS:
                share = metric in ("failed", "id_cut", "output_tau")
                mean = 0.1 * (1 + i) * np.ones_like(t) if share else scale
                if metric == "stop_time":
                    mean = t / 2
                frames.append(
                    pd.DataFrame(
                        {
                            "algorithm": alg,
                            "metric": metric,
                            "t": t,
                            "n": 50,
                            "mean": mean,
                            "se": 0.02 * mean,
                            "experiment": experiment,
                        }
                    )
                )
    return pd.concat(frames, ignore_index=True)


def _outside_mathtext(text: str) -> str:
    return re.sub(r"\$[^$]*\$", "", text)


def _digits(label: str) -> int:
    """Digits of a tick label, leading zeros of a decimal not counted (0.0025: 2)."""
    return sum(c.isdigit() for c in label.lstrip("−-0."))


def convention_problems(fig) -> list[str]:
    """What in a saved figure breaks the house convention (an empty list when nothing does)."""
    problems = []
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            if axis.get_offset_text().get_text():
                problems.append(f"offset {axis.get_offset_text().get_text()!r}")
            low, high = sorted(axis.get_view_interval())
            slack = 1e-9 * (high - low)
            ticks = [
                *zip(axis.get_majorticklocs(), axis.get_majorticklabels()),
                *zip(axis.get_minorticklocs(), axis.get_minorticklabels()),
            ]
            for loc, label in ticks:
                if low - slack <= loc <= high + slack and _digits(label.get_text()) > 4:
                    problems.append(f"tick label {label.get_text()!r}")
            name = axis.get_label().get_text()
            if name and not re.search(r"[^\W\d_]{3,}", _outside_mathtext(name)):
                problems.append(f"axis label without a word {name!r}")
    for text in fig.findobj(Text):
        if RAW.search(_outside_mathtext(text.get_text())):
            problems.append(f"raw notation {text.get_text()!r}")
    return problems


@pytest.mark.parametrize(("key", "figure_id"), list(_figures()))
def test_every_kind_of_figure_follows_the_convention(key, figure_id, tmp_path):
    paper = load_paper(key)
    spec = paper["figures"][figure_id]
    plot = paper_module(key, "figures").FIGURE_KINDS[spec["kind"]]
    fig = plot(spec, paper, synthetic_summary(paper, spec))
    save_figure(fig, tmp_path / "f.pdf", tmp_path / "f.png")
    assert convention_problems(fig) == []


def test_the_check_finds_what_breaks_the_convention(tmp_path):
    """The check itself: an offset, a long tick label, a label of maths only, raw notation."""
    from matplotlib.ticker import FixedFormatter, FixedLocator, ScalarFormatter

    from timebandits.core.pages.plotting import new_figure

    fig, ax = new_figure("single")
    ax.plot([1e6, 1e6 + 10], [0, 1], label="π_low")
    ax.xaxis.set_major_formatter(ScalarFormatter(useOffset=True))
    ax.yaxis.set_major_locator(FixedLocator([0.5]))
    ax.yaxis.set_major_formatter(FixedFormatter(["250000"]))
    ax.set_ylabel(r"$R_t$")
    ax.legend()
    fig.canvas.draw()
    problems = convention_problems(fig)
    assert any(p.startswith("offset") for p in problems)
    assert "tick label '250000'" in problems
    assert "axis label without a word '$R_t$'" in problems
    assert "raw notation 'π_low'" in problems
