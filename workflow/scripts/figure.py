"""Snakemake script: render one figure of a paper from its experiment's summary (stacked with
those of the experiments the figure ``also`` reads, each row with its ``experiment``)."""

import pandas as pd

from timebandits.core.config import read_paper
from timebandits.core.sim.jit import forbid_kernels
from timebandits.core.pages.plotting import save_figure
from timebandits.core.registry import paper_module
from timebandits.core.sim.sealed import read_sealed
from timebandits.core.build.workflow import end_job, log_start_up, logger


def main(paper_key, figure_id, summary_paths, pdf, png, log_path):
    log = logger(log_path)
    paper = read_paper(paper_key)
    spec = paper["figures"][figure_id]
    figures = paper_module(paper_key, "figures")
    if spec["kind"] not in getattr(figures, "COMPILED_KINDS", ()):
        forbid_kernels("figure")
    plot = figures.FIGURE_KINDS[spec["kind"]]
    log_start_up(log)
    experiments = [spec["experiment"], *spec.get("also", [])]
    summary = pd.concat([read_sealed(path).assign(experiment=exp)
                         for exp, path in zip(experiments, summary_paths)], ignore_index=True)
    fig = plot(spec, paper, summary)
    save_figure(fig, pdf, png)
    log(f"rendered {figure_id}: {pdf}, {png}")


if "snakemake" in globals():
    main(snakemake.wildcards.paper, snakemake.wildcards.figure,  # noqa: F821
         list(snakemake.input.summaries),  # noqa: F821
         snakemake.output.pdf, snakemake.output.png, snakemake.log[0])  # noqa: F821
    end_job()
