"""Snakemake script: the verdict of every claim of one paper, with its numbers."""

from timebandits.core.build.workflow import end_job, log_start_up, logger, trace_reader
from timebandits.core.config import read_paper
from timebandits.core.sim.sealed import read_sealed
from timebandits.core.sim.traces import write_atomic
from timebandits.core.verdicts.claims import evaluate_claims
from timebandits.core.verdicts.context import ClaimContext
from timebandits.core.verdicts.kinds import claim_kinds_of


def main(config, root, paper_key, bounds_path, verdicts_path, details_path, log_path):
    log = logger(log_path)
    paper = read_paper(paper_key)
    kinds = claim_kinds_of(paper_key)
    log_start_up(log)
    context = ClaimContext(
        paper=paper,
        config=config,
        trace_of=trace_reader(root, paper, config),
        bounds=read_sealed(bounds_path),
    )
    verdicts, details = evaluate_claims(paper, context, kinds)
    write_atomic(details, details_path)
    write_atomic(verdicts, verdicts_path)
    for row in verdicts.itertuples():
        log(f"{row.claim}: {row.verdict} -- {row.tested_as}")


if "snakemake" in globals():
    main(
        snakemake.config,
        snakemake.params.root,
        snakemake.wildcards.paper,
        snakemake.input.bounds,
        snakemake.output.verdicts,
        snakemake.output.details,
        snakemake.log[0],
    )
    end_job()
