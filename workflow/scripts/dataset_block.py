"""Snakemake script: one block of a generated data set (workflow/rules/datasets.smk).

The paper's dataset module (``params.settings["module"]``) provides
``generate_block(spec, block, n_blocks, seed, log) -> DataFrame``; the frame (with its
``attrs``, which describe the block's run) is written as Parquet."""

import importlib
import json

from timebandits.core.atomic import atomic_output
from timebandits.core.build.workflow import end_job, log_start_up, logger
from timebandits.core.pages.provenance import code_revision


def main(settings: dict, block: int, output: str, log_path: str) -> None:
    log = logger(log_path)
    module = importlib.import_module(settings["module"])
    log_start_up(log)
    log(f"{settings['module']}: block {block} of {settings['blocks']} at scale {settings['scale']}")
    frame = module.generate_block(
        settings["params"], block, settings["blocks"], settings["base_seed"], log
    )
    frame.attrs.setdefault("block", {})["code"] = code_revision()
    with atomic_output(output) as tmp:
        frame.to_parquet(tmp, index=False)
    log(f"wrote {output} ({len(frame)} rows)")


if "snakemake" in globals():
    main(
        json.loads(snakemake.params.settings),
        int(snakemake.wildcards.block),
        snakemake.output[0],
        snakemake.log[0],
    )
    end_job()
