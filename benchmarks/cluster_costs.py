"""What the jobs of a build cost, from the record each job writes at the end of its log
(``logs/<rule>/...log``, read by ``build_profile.job_records``): the numbers from which a job's
cluster runtime and memory are estimated (``core/build/resources.py``).

- Simulate jobs, per paper: ``ns_per_step``, the upper envelope over the paper's jobs of
  (seconds - start_up_seconds) / steps with steps = horizon x repetitions x algorithms, and the
  peak resident memory; configured in the paper's own file, ``cluster_cost`` in
  ``config/papers/<key>.yaml``.
- Jobs after the simulation, per rule: the longest wall time and the peak memory; configured in
  ``cluster.analysis_costs`` of ``config/config.yaml``.

It prints both next to the configured values, then every job that took longer, or more memory,
than it asks a cluster for: on a cluster that job would be killed, and the cost it names (file
and key) must be raised (exit status 1).

    python benchmarks/cluster_costs.py             # after `make` (the full build)
    python benchmarks/cluster_costs.py --root smoke/   # after `make smoke`

A local build forks its jobs from a warm job server (core/build/job_server.py), so its jobs start in
about 0.2 s where a cluster job takes about a second to import its stack: for analysis jobs'
wall times as a cluster would see them, build with ``TIMEBANDITS_JOB_SERVER=off``.

Timing is reported here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import re
import sys

import pandas as pd
from build_profile import job_records

from timebandits.core.build import resources
from timebandits.core.build.preflight import load_paper
from timebandits.core.config import load_yaml, resolve_experiment

# The jobs after the simulation, by the folder of their logs (both notebook rules log under
# notebook/).
ANALYSIS_FOLDERS = (
    "summarise",
    "bounds",
    "claims",
    "table",
    "figure",
    "scorecard",
    "front_page",
    "notebook",
)


def simulate_jobs(jobs: pd.DataFrame, papers: dict, config: dict) -> pd.DataFrame:
    rows = []
    for job in jobs[jobs["rule"] == "simulate"].itertuples():
        paper_key, experiment, chunk = job.job.split("/")
        if paper_key not in papers or experiment not in papers[paper_key]["experiments"]:
            continue  # a record of an experiment no longer configured
        start, stop = map(int, re.findall(r"\d+", chunk))
        exp = resolve_experiment(papers[paper_key], experiment, config)
        steps = resources.simulation_steps(exp["horizon"], stop - start, len(exp["algorithms"]))
        rows.append(
            {
                "paper": paper_key,
                "experiment": experiment,
                "job": f"{experiment}/{chunk}",
                "steps": steps,
                "seconds": job.seconds,
                "mem_mb": job.mem_mb,
            }
        )
    return pd.DataFrame(rows)


def analysis_jobs(jobs: pd.DataFrame) -> pd.DataFrame:
    analysis = jobs[jobs["rule"].isin(ANALYSIS_FOLDERS)].copy()
    notebooks = analysis["rule"] == "notebook"
    analysis.loc[notebooks, "rule"] = analysis.loc[notebooks, "job"].map(
        lambda name: "comparison_notebook" if name == "comparison" else "paper_notebook"
    )
    return analysis[["rule", "job", "seconds", "mem_mb"]]


def exceeded(job, asks: dict) -> list[str]:
    """What ``job`` used beyond what it asks a cluster for: "seconds", "mem_mb", both or none."""
    return [
        what
        for what, over in (
            ("seconds", job.seconds > 60 * asks["runtime"]),
            ("mem_mb", job.mem_mb > asks["mem_mb"]),
        )
        if over
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--root", default="", help="'' for the full build, 'smoke/' for a smoke build"
    )
    args = parser.parse_args()
    config = load_yaml("config/config.yaml")
    if args.root:
        config["scale"] = args.root.rstrip("/")
    cluster = config["cluster"]
    papers = {key: load_paper(key) for key in config["papers"]}
    jobs, _ = job_records(args.root)
    sims, analysis = simulate_jobs(jobs, papers, config), analysis_jobs(jobs)
    if sims.empty:
        print(f"no job records under {args.root}logs/simulate: build first (`make`)")
        return
    over = []

    sims["ns_per_step"] = (
        (sims["seconds"] - cluster["start_up_seconds"]).clip(lower=0) / sims["steps"] * 1e9
    )
    print(
        f"simulate jobs (start_up_seconds = {cluster['start_up_seconds']}); ns/step is the upper "
        "envelope of (seconds - start_up_seconds) / steps"
    )
    print(
        f"(configured: each paper's cluster_cost in config/papers/<key>.yaml; a job asks "
        f"runtime_safety = "
        f"{cluster['runtime_safety']} x its runtime and memory_safety = "
        f"{cluster['memory_safety']} x its memory)"
    )
    print(
        f"{'paper or experiment':28} {'jobs':>5} {'longest s':>9} {'ns/step':>8} "
        f"{'configured':>10} {'peak MB':>8} {'configured':>10}"
    )
    for paper_key, jobs in sims.groupby("paper"):
        configured = papers[paper_key]["cluster_cost"]
        own = configured.get("experiments") or {}
        rest = jobs[~jobs["experiment"].isin(own)]
        print(
            f"{paper_key:28} {len(rest):5d} {rest['seconds'].max():9.1f} "
            f"{rest['ns_per_step'].max():8.3g} {configured['ns_per_step']:10.3g} "
            f"{jobs['mem_mb'].max():8.0f} {configured['mem_mb']:10.0f}"
        )
        for experiment, exp_jobs in jobs.groupby("experiment"):
            if experiment in own:
                print(
                    f"  {experiment:26} {len(exp_jobs):5d} {exp_jobs['seconds'].max():9.1f} "
                    f"{exp_jobs['ns_per_step'].max():8.3g} {own[experiment]:10.3g}"
                )
        costliest = rest.sort_values("ns_per_step", ascending=False).drop_duplicates("experiment")[
            :3
        ]
        print(
            "  costliest: "
            + ", ".join(
                f"{e} {c:.3g}" for e, c in zip(costliest["experiment"], costliest["ns_per_step"])
            )
        )
        for job in jobs.itertuples():
            asks = resources.simulation_resources(cluster, configured, job.experiment, job.steps)
            time_key = f"experiments.{job.experiment}" if job.experiment in own else "ns_per_step"
            if keys := [time_key if w == "seconds" else w for w in exceeded(job, asks)]:
                over.append(
                    f"simulate {paper_key}/{job.job}: {job.seconds:.0f} s, {job.mem_mb:.0f} MB; "
                    f"asks {asks['runtime']} min, {asks['mem_mb']} MB: raise "
                    + " and ".join(f"cluster_cost.{key}" for key in keys)
                    + f" in config/papers/{paper_key}.yaml"
                )

    print("\njobs after the simulation:")
    print(
        f"{'rule':20} {'jobs':>5} {'longest s':>9} {'configured':>10} {'peak MB':>8} "
        f"{'configured':>10}"
    )
    for rule, jobs in analysis.groupby("rule") if not analysis.empty else []:
        configured = cluster["analysis_costs"].get(rule, {})
        print(
            f"{rule:20} {len(jobs):5d} {jobs['seconds'].max():9.1f} "
            f"{configured.get('seconds', float('nan')):10.0f} {jobs['mem_mb'].max():8.0f} "
            f"{configured.get('mem_mb', float('nan')):10.0f}"
        )
        if configured:
            asks = resources.analysis_resources(cluster, rule)
            for job in jobs.itertuples():
                if keys := exceeded(job, asks):
                    over.append(
                        f"{rule} {job.job}: {job.seconds:.0f} s, {job.mem_mb:.0f} MB; "
                        f"asks {asks['runtime']} min, {asks['mem_mb']} MB: raise "
                        + " and ".join(f"cluster.analysis_costs.{rule}.{key}" for key in keys)
                        + " in config/config.yaml"
                    )

    bundled = sum(
        resources.simulation_group(cluster, papers[p]["cluster_cost"], e, s) is not None
        for p, e, s in zip(sims["paper"], sims["experiment"], sims["steps"])
    )
    print(
        f"\n{bundled} of {len(sims)} simulate jobs are bundled on a cluster "
        f"(estimated under {cluster['bundle_below_minutes']} min)"
    )
    if over:
        print("\njobs a cluster would kill (measured above what they ask for):")
        print("\n".join(over))
        sys.exit(1)
    print("every job asks for more than it used")


if __name__ == "__main__":
    main()
