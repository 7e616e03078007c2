"""Snakemake script: per-checkpoint statistics of every algorithm of one experiment."""

import pandas as pd

from timebandits.core.build.workflow import end_job, log_start_up, logger, trace_reader
from timebandits.core.config import read_paper
from timebandits.core.sim.jit import forbid_kernels
from timebandits.core.sim.traces import write_atomic
from timebandits.core.verdicts.stats import summarise_trace


def main(config, root, paper_key, experiment, output, log_path):
    forbid_kernels("summarise")
    log = logger(log_path)
    paper = read_paper(paper_key)
    log_start_up(log)
    trace_of = trace_reader(root, paper, config)
    frames = []
    for algorithm in paper["experiments"][experiment]["algorithms"]:
        summary = summarise_trace(trace_of(experiment, algorithm))
        summary.insert(0, "algorithm", algorithm)
        frames.append(summary)
    write_atomic(pd.concat(frames, ignore_index=True), output)
    log(f"summarised {len(frames)} algorithm(s) of {experiment} into {output}")


if "snakemake" in globals():
    main(
        snakemake.config,
        snakemake.params.root,
        snakemake.wildcards.paper,
        snakemake.wildcards.experiment,
        snakemake.output[0],
        snakemake.log[0],
    )
    end_job()
