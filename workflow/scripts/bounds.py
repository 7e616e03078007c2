"""Snakemake script: a paper's empirical curves against its theoretical bounds."""

from timebandits.core.build.workflow import end_job, log_start_up, logger, trace_reader
from timebandits.core.config import read_paper
from timebandits.core.registry import paper_module
from timebandits.core.sim.traces import write_atomic


def main(config, root, paper_key, output, log_path):
    log = logger(log_path)
    paper = read_paper(paper_key)
    analysis = paper_module(paper_key, "analysis")
    log_start_up(log)
    table = analysis.bound_table(paper, trace_reader(root, paper, config))
    write_atomic(table, output)
    log(f"wrote {len(table)} bound rows to {output}")


if "snakemake" in globals():
    main(
        snakemake.config,
        snakemake.params.root,
        snakemake.wildcards.paper,
        snakemake.output[0],
        snakemake.log[0],
    )
    end_job()
