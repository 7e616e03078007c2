"""Where every output lives, relative to the working directory; shared by the Snakemake rules,
the scripts and the notebooks. ``root`` is "" for the full scale and "<scale>/" otherwise.
Arguments may be Snakemake wildcard patterns such as "{paper}"."""

from __future__ import annotations


def trace_chunk(root, paper, experiment, start, stop) -> str:
    return f"{root}results/traces/{paper}/{experiment}/reps{start}-{stop}.parquet"


def summary(root, paper, experiment) -> str:
    return f"{root}results/summaries/{paper}/{experiment}.parquet"


def bounds(root, paper) -> str:
    return f"{root}results/bounds/{paper}.parquet"


def claims(root, paper) -> str:
    return f"{root}results/claims/{paper}.csv"


def claim_details(root, paper) -> str:
    return f"{root}results/claims/{paper}_details.csv"


def table(root, paper, name) -> str:
    return f"{root}results/tables/{paper}/{name}.csv"


def figure(root, paper, name, ext) -> str:
    return f"{root}figures/{paper}/{name}.{ext}"


def notebook(root, name, ext) -> str:
    return f"{root}results/notebooks/{name}.{ext}"


def log(root, rule, name) -> str:
    return f"{root}logs/{rule}/{name}.log"


def benchmark(root, rule, name) -> str:
    return f"{root}benchmarks/{rule}/{name}.tsv"


def scorecard(root) -> str:
    return f"{root}results/scorecard.csv"
