"""Where a build's time goes: from the record every job writes at the end of its log
(``job record: 4.21 s wall, 3.95 s CPU, 312 MB peak``, ``core.build.workflow.job_record``) and
its start-up line (``start-up: 0.84 s``, written by ``core.build.workflow.log_start_up`` once the
job has imported what it needs), per rule and per paper: the jobs, the sum of their wall times,
the mean per job, and the share of it spent starting up (a job's own interpreter and imports, or
its hand-over to the build's warm job server and the fork) rather than working.

    python benchmarks/build_profile.py                 # after `make` (the full build)
    python benchmarks/build_profile.py --root smoke/   # after `make smoke` or `make test`

A log with no record (a job that was killed, or a build older than the records) is counted and
left out. Timing is reported here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pandas as pd

START_UP = re.compile(r"^start-up: ([0-9.]+) s$", re.MULTILINE)
RECORD = re.compile(
    r"^job record: ([0-9.]+) s wall, ([0-9.]+) s CPU, ([0-9]+) MB peak$", re.MULTILINE
)
# Rules of one job per build; every other job's name starts with its paper.
PAPERLESS = {"scorecard", "front_page"}
COLUMNS = ["rule", "paper", "job", "seconds", "cpu_seconds", "mem_mb", "start_up"]


def job_records(root: str) -> tuple[pd.DataFrame, int]:
    """One row per job log under ``<root>logs`` that ends with its record: rule, paper, job
    name, wall and CPU seconds, peak memory (MB) and start-up seconds; and how many logs had no
    record."""
    rows, unrecorded = [], 0
    base = Path(f"{root}logs")
    for path in sorted(base.glob("*/**/*.log")):
        rule = path.relative_to(base).parts[0]
        name = path.relative_to(base / rule).with_suffix("").as_posix()
        text = path.read_text()
        record, start_up = RECORD.search(text), START_UP.search(text)
        if record is None or start_up is None:
            unrecorded += 1
            continue
        whole_build = rule in PAPERLESS or (rule, name) == ("notebook", "comparison")
        rows.append(
            {
                "rule": rule,
                "paper": "(all)" if whole_build else name.split("/")[0],
                "job": name,
                "seconds": float(record.group(1)),
                "cpu_seconds": float(record.group(2)),
                "mem_mb": float(record.group(3)),
                "start_up": float(start_up.group(1)),
            }
        )
    return pd.DataFrame(rows, columns=COLUMNS), unrecorded


def profile(jobs: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Per group: jobs, sum of wall minutes, mean seconds per job, sum of CPU minutes, and the
    start-up share of the wall time and the mean start-up."""
    table = jobs.groupby(by).agg(
        jobs=("seconds", "size"),
        minutes=("seconds", "sum"),
        mean_s=("seconds", "mean"),
        cpu_minutes=("cpu_seconds", "sum"),
        start_up_mean_s=("start_up", "mean"),
    )
    sums = jobs.groupby(by)[["start_up", "seconds"]].sum()
    table["start_up_share"] = sums["start_up"] / sums["seconds"]
    table[["minutes", "cpu_minutes"]] /= 60
    return table[
        ["jobs", "minutes", "mean_s", "cpu_minutes", "start_up_share", "start_up_mean_s"]
    ].sort_values("minutes", ascending=False)


def show(table: pd.DataFrame, title: str) -> None:
    print(f"\n{title}")
    print(
        table.to_string(
            formatters={
                "minutes": "{:.1f}".format,
                "mean_s": "{:.1f}".format,
                "cpu_minutes": "{:.1f}".format,
                "start_up_share": "{:.0%}".format,
                "start_up_mean_s": "{:.2f}".format,
            }
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default="", help="the build's output root (smoke/ for smoke)")
    args = parser.parse_args()
    jobs, unrecorded = job_records(args.root)
    if jobs.empty:
        print(
            f"build profile: no job records under {args.root or './'}logs yet "
            "(run make, or make smoke and --root smoke/)"
        )
        return
    print(
        f"build profile of {args.root or './'}: {len(jobs)} jobs, "
        f"{jobs['seconds'].sum() / 60:.1f} job-minutes in all "
        f"({jobs['cpu_seconds'].sum() / 60:.1f} CPU-minutes); start-up "
        f"{jobs['start_up'].sum() / 60:.1f} of the job-minutes"
        + (f"; {unrecorded} logs without a record left out" if unrecorded else "")
    )
    show(profile(jobs, ["rule"]), "per rule")
    show(profile(jobs, ["rule", "paper"]), "per rule and paper")


if __name__ == "__main__":
    main()
