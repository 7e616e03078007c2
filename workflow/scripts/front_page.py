"""Snakemake script: the front page, results/index.html (core/pages/frontpage.py)."""

from pathlib import Path

from timebandits.core.atomic import atomic_output
from timebandits.core.build.workflow import end_job, log_start_up, logger
from timebandits.core.config import read_paper
from timebandits.core.pages.frontpage import front_page
from timebandits.core.sim.jit import forbid_kernels


def main(root, papers, software, output, log_path):
    forbid_kernels("front page")
    log = logger(log_path)
    log_start_up(log)
    html = front_page(root, {key: read_paper(key) for key in papers}, software)
    with atomic_output(Path(output)) as tmp:
        Path(tmp).write_text(html)
    log(f"wrote {output} ({len(html):,} bytes)")


if "snakemake" in globals():
    main(
        snakemake.params.root,
        snakemake.params.papers,
        snakemake.params.software,
        snakemake.output[0],
        snakemake.log[0],
    )
    end_job()
