"""Snakemake script: the scorecard, every paper's claims counted by evidence and verdict, as
CSV and as a page (the table the report shows)."""

from pathlib import Path

from timebandits.core.atomic import atomic_output
from timebandits.core.build.workflow import end_job, log_start_up, logger
from timebandits.core.config import read_paper
from timebandits.core.pages.render import render
from timebandits.core.pages.verdict_tables import SCORECARD_NOTE, scorecard_table
from timebandits.core.sim.jit import forbid_kernels
from timebandits.core.sim.traces import write_atomic
from timebandits.core.verdicts.scorecard import read_claims, scorecard


def main(papers, claims_paths, output, page, log_path, configs=None):
    """``configs``: each paper's config ({key: paper}), read from config/papers by default; every
    claims table is checked against it (core/scorecard.read_claims) before it is counted."""
    forbid_kernels("scorecard")
    log = logger(log_path)
    log_start_up(log)
    configs = configs or {key: read_paper(key) for key in papers}
    table = scorecard(
        {
            key: read_claims(path, configs[key])
            for key, path in zip(papers, claims_paths, strict=True)
        }
    )
    write_atomic(table, output)
    with atomic_output(Path(page)) as tmp:
        Path(tmp).write_text(
            render("scorecard.html.j2", note=SCORECARD_NOTE, table=scorecard_table(table).to_html())
        )
    for row in table.itertuples():
        log(
            f"{row.paper} ({row.scope}): {row.claims} claims; tests {row.reproduced} reproduced, "
            f"{row.not_reproduced} not reproduced, {row.inconclusive} inconclusive; exact "
            f"{row.exact_holds} of {row.exact} hold; {row.not_checkable} not checkable; "
            f"{row.undecidable} cannot reach both verdicts as configured"
        )
    log(f"wrote {output}, {page}")


if "snakemake" in globals():
    main(
        snakemake.params.papers,
        snakemake.input.claims,
        snakemake.output.csv,
        snakemake.output.page,
        snakemake.log[0],
    )
    end_job()
