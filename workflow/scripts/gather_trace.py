"""Snakemake script: join the chunk traces of one (experiment, algorithm) into one trace."""

from timebandits.core.traces import concat_traces, write_trace
from timebandits.core.workflow import logger


def main(chunks, output, log_path):
    log = logger(log_path)
    frame = concat_traces(list(chunks))
    write_trace(frame, output)
    log(f"joined {len(chunks)} chunk(s) into {output}: {frame['repetition'].nunique()} repetitions")


if "snakemake" in globals():
    main(snakemake.input, snakemake.output[0], snakemake.log[0])  # noqa: F821
