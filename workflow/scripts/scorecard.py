"""Snakemake script: the scorecard, every paper's claims counted by evidence and verdict."""

import pandas as pd

from timebandits.core.scorecard import scorecard
from timebandits.core.traces import write_atomic
from timebandits.core.workflow import logger


def main(papers, claims_paths, output, log_path):
    log = logger(log_path)
    table = scorecard({key: pd.read_csv(path) for key, path in zip(papers, claims_paths, strict=True)})
    write_atomic(table, output)
    for row in table.itertuples():
        log(f"{row.paper} ({row.scope}): {row.claims} claims; tests {row.reproduced} reproduced, "
            f"{row.not_reproduced} not reproduced, {row.inconclusive} inconclusive; exact "
            f"{row.exact_holds} of {row.exact} hold; {row.not_checkable} not checkable; "
            f"{row.undecidable} cannot reach both verdicts as configured")
    log(f"wrote {output}")


if "snakemake" in globals():
    main(snakemake.params.papers, snakemake.input.claims, snakemake.output[0],  # noqa: F821
         snakemake.log[0])  # noqa: F821
