"""Snakemake script: execute a notebook source (jupytext percent format) into .ipynb and .html."""

from timebandits.core.build.workflow import end_job, log_start_up, logger
from timebandits.core.config import read_paper
from timebandits.core.pages.notebooks import execute_notebook


def main(source, root, config, software, ipynb, html, log_path):
    log = logger(log_path)
    log_start_up(log)
    titles = {key: read_paper(key)["paper"]["title"] for key in config["papers"]}
    execute_notebook(
        source,
        ipynb,
        html,
        parameters={"ROOT": root, "CONFIG": dict(config)},
        software=software,
        titles=titles,
    )
    log(f"executed {source} -> {ipynb}, {html}")


if "snakemake" in globals():
    main(
        snakemake.input.source,
        snakemake.params.root,
        snakemake.config,
        snakemake.params.software,
        snakemake.output.ipynb,
        snakemake.output.html,
        snakemake.log[0],
    )
    end_job()
