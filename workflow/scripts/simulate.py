"""Snakemake script: simulate one chunk of repetitions of every algorithm of one experiment."""

import json

from timebandits.core.build.workflow import end_job, log_start_up, logger
from timebandits.core.config import read_paper
from timebandits.core.registry import paper_module
from timebandits.core.sim.simulation import run_chunk
from timebandits.core.sim.traces import trace_contract, write_trace


def main(config, paper_key, experiment, start, stop, output, log_path):
    log = logger(log_path)
    paper = read_paper(paper_key)
    paper_module(paper_key, "simulation")
    log_start_up(log)
    frame = run_chunk(config, paper, experiment, start, stop, log=log)
    write_trace(frame, output, trace_contract(paper, config, experiment, start, stop))
    log(f"wrote {output} ({len(frame)} rows)")


if "snakemake" in globals():
    wc = snakemake.wildcards
    json.loads(snakemake.params.settings)  # noqa: F821  (the rerun trigger; must be valid JSON)
    main(
        snakemake.config,
        wc.paper,
        wc.experiment,
        int(wc.start),
        int(wc.stop),
        snakemake.output[0],
        snakemake.log[0],
    )
    end_job()
