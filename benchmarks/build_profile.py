"""Where a build's time goes: from Snakemake's benchmark record of every job
(``benchmarks/<rule>/<name>.tsv``, its wall time ``s``) and the job's log (``start-up: 0.84 s``,
written by ``core.workflow.log_start_up`` once the job has imported what it needs), per rule and
per paper: the jobs, the sum of their wall times, the mean per job, and the share of it spent
starting up (the interpreter, Snakemake's preamble, the imports) rather than working.

    python benchmarks/build_profile.py                 # after `make` (the full build)
    python benchmarks/build_profile.py --root smoke/   # after `make smoke` or `make test`

A job whose log has no start-up line (a build older than this report) counts as unknown and is
left out of the share, which says over how many jobs it was measured. Timing is reported here,
never asserted in tests.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pandas as pd

START_UP = re.compile(r"^start-up: ([0-9.]+) s$", re.MULTILINE)
# Rules of one job per build; every other record's name starts with its paper.
PAPERLESS = {"scorecard", "front_page"}


def job_records(root: str) -> pd.DataFrame:
    """One row per benchmark record under ``<root>benchmarks``: rule, paper, job name, wall
    seconds and the start-up seconds from its log (NaN if the log has none)."""
    rows = []
    base = Path(f"{root}benchmarks")
    for path in sorted(base.glob("*/**/*.tsv")):
        rule = path.relative_to(base).parts[0]
        name = path.relative_to(base / rule).with_suffix("").as_posix()
        seconds = float(pd.read_csv(path, sep="\t")["s"].iloc[0])
        log = Path(f"{root}logs/{rule}/{name}.log")
        found = START_UP.search(log.read_text()) if log.is_file() else None
        whole_build = rule in PAPERLESS or (rule, name) == ("notebook", "comparison")
        paper = "(all)" if whole_build else name.split("/")[0]
        rows.append({"rule": rule, "paper": paper, "job": name, "seconds": seconds,
                     "start_up": float(found.group(1)) if found else float("nan")})
    return pd.DataFrame(rows, columns=["rule", "paper", "job", "seconds", "start_up"])


def profile(jobs: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Per group: jobs, sum of wall minutes, mean seconds per job, start-up share of the wall
    time of the jobs whose start-up is known, and how many those are."""
    known = jobs.dropna(subset=["start_up"])
    table = jobs.groupby(by).agg(jobs=("seconds", "size"), minutes=("seconds", "sum"),
                                 mean_s=("seconds", "mean"))
    table["minutes"] /= 60
    sums = known.groupby(by)[["start_up", "seconds"]].sum()
    table["start_up_share"] = (sums["start_up"] / sums["seconds"]).reindex(table.index)
    table["start_up_mean_s"] = known.groupby(by)["start_up"].mean().reindex(table.index)
    table["measured"] = known.groupby(by).size().reindex(table.index).fillna(0).astype(int)
    return table.sort_values("minutes", ascending=False)


def show(table: pd.DataFrame, title: str) -> None:
    print(f"\n{title}")
    print(table.to_string(formatters={"minutes": "{:.1f}".format, "mean_s": "{:.1f}".format,
                                      "start_up_share": "{:.0%}".format,
                                      "start_up_mean_s": "{:.2f}".format}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default="", help="the build's output root (smoke/ for smoke)")
    args = parser.parse_args()
    jobs = job_records(args.root)
    if jobs.empty:
        print(f"build profile: no benchmark records under {args.root or './'}benchmarks yet "
              "(run make, or make smoke and --root smoke/)")
        return
    known = jobs.dropna(subset=["start_up"])
    print(f"build profile of {args.root or './'}: {len(jobs)} jobs, "
          f"{jobs['seconds'].sum() / 60:.1f} job-minutes in all; start-up "
          f"{known['start_up'].sum() / 60:.1f} of the {known['seconds'].sum() / 60:.1f} "
          f"job-minutes of the {len(known)} jobs that logged it")
    show(profile(jobs, ["rule"]), "per rule")
    show(profile(jobs, ["rule", "paper"]), "per rule and paper")


if __name__ == "__main__":
    main()
