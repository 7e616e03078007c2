"""Snakemake script: per-checkpoint statistics of every algorithm of one experiment."""

import pandas as pd

from timebandits.core.stats import summarise_trace
from timebandits.core.traces import write_atomic
from timebandits.core.workflow import logger


def main(traces, algorithms, output, log_path):
    log = logger(log_path)
    frames = []
    for algorithm, path in zip(algorithms, traces):
        summary = summarise_trace(pd.read_parquet(path))
        summary.insert(0, "algorithm", algorithm)
        frames.append(summary)
    write_atomic(pd.concat(frames, ignore_index=True), output)
    log(f"summarised {len(traces)} trace(s) into {output}")


if "snakemake" in globals():
    main(list(snakemake.input), snakemake.params.algorithms, snakemake.output[0],  # noqa: F821
         snakemake.log[0])  # noqa: F821
