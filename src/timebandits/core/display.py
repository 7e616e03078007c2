"""What the notebooks show, as one-line calls: figures, tables, verdicts, bound comparisons."""

from __future__ import annotations

import io

import pandas as pd
from IPython.display import Image, Markdown, display
from matplotlib import pyplot as plt

from . import paths
from .plotting import PALETTE, apply_style

VERDICT_COLOURS = {"reproduced": "#d8f0d8", "not reproduced": "#f6d5d5", "inconclusive": "#f5ecc8"}

# A reader of a notebook needs every provenance reason and every run, not pandas' abbreviations.
pd.set_option("display.max_colwidth", None)
pd.set_option("display.max_rows", 500)
pd.set_option("display.max_columns", 60)


def show_matplotlib(fig) -> None:
    """Display a figure as a PNG (the Agg backend that core.plotting selects has no inline
    display of its own) and close it."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", bbox_inches="tight")
    plt.close(fig)
    display(Image(data=buffer.getvalue()))


def show_figure(root: str, paper: str, figure: dict, figure_id: str) -> None:
    display(Markdown(f"**{figure['title']}** (`{paths.figure(root, paper, figure_id, 'pdf')}`)  \n"
                     f"{figure['caption']}"))
    display(Image(filename=paths.figure(root, paper, figure_id, "png")))


def _colour_verdicts(frame: pd.DataFrame):
    return frame.style.apply(
        lambda col: [f"background-color: {VERDICT_COLOURS.get(v, '')}" for v in col],
        subset=["verdict"]).hide(axis="index")


def verdicts(root: str, paper: str):
    """The verdict of every claim, coloured, with its evidence."""
    frame = pd.read_csv(paths.claims(root, paper))
    counts = frame["verdict"].value_counts().to_dict()
    display(Markdown("**Verdicts:** " + ", ".join(f"{n} {v}" for v, n in counts.items())))
    return _colour_verdicts(frame[["claim", "where", "text", "verdict", "evidence"]])


def verdict_details(root: str, paper: str):
    return _colour_verdicts(pd.read_csv(paths.claim_details(root, paper))[["claim", "scope", "verdict", "statistic"]])


def table(root: str, paper: str, name: str) -> pd.DataFrame:
    return pd.read_csv(paths.table(root, paper, name))


def plot_bound(table: pd.DataFrame, experiment: str, bound: str, title: str = ""):
    """Log-log: each empirical mean curve of ``experiment`` compared with ``bound`` (a name or a
    prefix, e.g. all ``lemma2_*`` pairs), with the bound's vacuous region shaded, and the ratio
    mean / bound below."""
    apply_style()
    rows = table[(table["experiment"] == experiment) & table["bound"].str.startswith(bound)]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7.5, 5.2), sharex=True,
                                      gridspec_kw={"height_ratios": [2, 1]})
    for i, ((name, metric), group) in enumerate(rows.groupby(["bound", "metric"], sort=True)):
        color = PALETTE[i % 10]
        g = group.sort_values("t")
        top.plot(g["t"], g["mean"], color=color, label=f"mean {metric}")
        top.plot(g["t"], g["bound_value"], color=color, linestyle="--", linewidth=0.9,
                 label=f"{name} bound" if rows["bound"].nunique() > 1 or i == 0 else None)
        bottom.plot(g["t"], g["ratio"], color=color)
        vac = g[g["vacuous"]]
        if not vac.empty and i == 0:
            top.axvspan(g["t"].min(), vac["t"].max(), color="0.9", zorder=0,
                        label="bound vacuous (≥ trivial bound)")
    top.set_xscale("log")
    top.set_yscale("log")
    top.set_ylabel("value (log)")
    top.set_title(title or f"{experiment}: empirical mean vs {bound}")
    if rows["metric"].nunique() <= 6:
        top.legend(fontsize=7, loc="upper left")
    bottom.set_yscale("log")
    bottom.axhline(1.0, color="k", linewidth=0.8)
    bottom.set_ylabel("mean / bound")
    bottom.set_xlabel("t (log scale)")
    show_matplotlib(fig)


def bound_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per (experiment, bound family, metric): the largest ratio, where it occurs, checkpoints
    where the mean or any run exceeds the bound, and the share of vacuous checkpoints."""
    table = table.assign(family=table["bound"].str.split("_").str[0])
    rows = []
    for (exp, family, metric), g in table.groupby(["experiment", "family", "metric"], sort=False):
        if family != "theorem2" and metric.startswith("pulls"):
            metric = "pulls (every suboptimal pair)"
        worst = g.loc[g["ratio"].idxmax()]
        rows.append({"experiment": exp, "bound": family, "metric": metric,
                     "max mean/bound": worst["ratio"], "at t": worst["t"],
                     "checkpoints mean > bound": int((g["mean"] > g["bound_value"]).sum()),
                     "checkpoints any run > bound": int((g["runs_exceeding"] > 0).sum()),
                     "share vacuous": float(g["vacuous"].mean())})
    out = pd.DataFrame(rows)
    return (out.groupby(["experiment", "bound", "metric"], sort=False)
               .agg({"max mean/bound": "max", "at t": "first", "checkpoints mean > bound": "sum",
                     "checkpoints any run > bound": "sum", "share vacuous": "mean"})
               .reset_index())
