"""Snakemake script: render one figure of a paper from its experiment's summary (stacked with
those of the experiments the figure ``also`` reads, each row with its ``experiment``), and its
front-page thumbnail from the same drawing."""

import pandas as pd

from timebandits.core.build.workflow import end_job, log_start_up, logger
from timebandits.core.config import read_paper
from timebandits.core.pages.figure_files import save_figure
from timebandits.core.pages.thumbnails import save_thumbnail
from timebandits.core.registry import paper_module
from timebandits.core.sim.jit import forbid_kernels
from timebandits.core.sim.sealed import read_sealed


def main(paper_key, figure_id, summary_paths, pdf, png, thumbnail, log_path):
    log = logger(log_path)
    paper = read_paper(paper_key)
    spec = paper["figures"][figure_id]
    figures = paper_module(paper_key, "figures")
    if spec["kind"] not in getattr(figures, "COMPILED_KINDS", ()):
        forbid_kernels("figure")
    plot = figures.FIGURE_KINDS[spec["kind"]]
    log_start_up(log)
    experiments = [spec["experiment"], *spec.get("also", [])]
    summary = pd.concat(
        [read_sealed(path).assign(experiment=exp) for exp, path in zip(experiments, summary_paths)],
        ignore_index=True,
    )
    fig = plot(spec, paper, summary)
    canvas = fig.canvas  # the Agg canvas it is drawn on: closing the figure detaches it
    save_figure(fig, pdf, png)
    save_thumbnail(fig, canvas, thumbnail)
    log(f"rendered {figure_id}: {pdf}, {png}, {thumbnail}")


if "snakemake" in globals():
    main(
        snakemake.wildcards.paper,
        snakemake.wildcards.figure,
        list(snakemake.input.summaries),
        snakemake.output.pdf,
        snakemake.output.png,
        snakemake.output.thumbnail,
        snakemake.log[0],
    )
    end_job()
