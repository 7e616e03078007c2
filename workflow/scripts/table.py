"""Snakemake script: one of a paper's tables (results/tables/<paper>/<table>.csv)."""

from timebandits.core.build.workflow import end_job, log_start_up, logger, trace_reader
from timebandits.core.config import read_paper
from timebandits.core.registry import paper_module
from timebandits.core.sim.traces import write_atomic


def main(config, root, paper_key, table, output, log_path):
    log = logger(log_path)
    paper = read_paper(paper_key)
    report = paper_module(paper_key, "report")
    log_start_up(log)
    frame = report.table(table, paper, config, trace_reader(root, paper, config))
    write_atomic(frame, output)
    log(f"wrote table {table} ({len(frame)} rows) to {output}")


if "snakemake" in globals():
    wc = snakemake.wildcards
    main(
        snakemake.config,
        snakemake.params.root,
        wc.paper,
        wc.table,
        snakemake.output[0],
        snakemake.log[0],
    )
    end_job()
