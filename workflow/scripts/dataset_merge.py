"""Snakemake script: join the blocks of a generated data set into one gzip-compressed CSV and
its provenance JSON (workflow/rules/datasets.smk).

The paper's dataset module provides ``merge_blocks(frames, spec, provenance) -> (frame,
provenance)``; this script adds what it knows (paper, dataset, scale, seed, blocks, the code
revision) before, and the written file's sha256 after. The CSV is gzip-compressed with a fixed
header (mtime 0, no file name), so the same table always gives the same bytes and checksum."""

import gzip
import hashlib
import importlib
import io
import json
from pathlib import Path

import pandas as pd

from timebandits.core.atomic import atomic_output
from timebandits.core.build.workflow import end_job, log_start_up, logger
from timebandits.core.pages.provenance import code_revision


def gzip_csv_bytes(frame: pd.DataFrame) -> bytes:
    text = frame.to_csv(index=False, lineterminator="\n").encode("utf-8")
    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0, compresslevel=9) as handle:
        handle.write(text)
    return buffer.getvalue()


def main(
    settings: dict, blocks: list[str], output: str, provenance_path: str, log_path: str
) -> None:
    log = logger(log_path)
    module = importlib.import_module(settings["module"])
    log_start_up(log)
    frames = [pd.read_parquet(path) for path in blocks]
    provenance = {
        "paper": settings["paper"],
        "dataset": settings["dataset"],
        "scale": settings["scale"],
        "base_seed": settings["base_seed"],
        "n_blocks": settings["blocks"],
        "generated_by": {
            "module": settings["module"],
            "scripts": ["workflow/scripts/dataset_block.py", "workflow/scripts/dataset_merge.py"],
            "rules": "workflow/rules/datasets.smk",
            **code_revision(),
        },
    }
    frame, provenance = module.merge_blocks(frames, settings["params"], provenance)
    data = gzip_csv_bytes(frame)
    provenance["file"] = {
        "path": output,
        "sha256": hashlib.sha256(data).hexdigest(),
        "rows": int(len(frame)),
        "columns": list(frame.columns),
        "format": "CSV, gzip (mtime 0)",
    }
    with atomic_output(output) as tmp:
        Path(tmp).write_bytes(data)
    with atomic_output(provenance_path) as tmp:
        Path(tmp).write_text(json.dumps(provenance, indent=2, default=str) + "\n")
    log(
        f"wrote {output} ({len(frame)} rows, sha256 {provenance['file']['sha256']}) and "
        f"{provenance_path}"
    )


if "snakemake" in globals():
    main(
        json.loads(snakemake.params.settings),
        list(snakemake.input.blocks),
        snakemake.output.table,
        snakemake.output.provenance,
        snakemake.log[0],
    )
    end_job()
