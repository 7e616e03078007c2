"""The cluster path, on a real Slurm (``make test-cluster``; not part of ``make test``): a
one-node Slurm from Debian's packages on this machine (tests/slurm_localhost.py), the workflow
submitted through snakemake-executor-plugin-slurm with a profile made from profiles/slurm with
only what this cluster needs filled in. It runs delaydep's whole smoke workflow and the first
simulate job of every other paper, then checks, from Slurm's own record (the job completion
log), that every job ran as a Slurm job and completed, that no smoke-sized simulate job ran
alone in a Slurm job, and that every trace is bit-identical to a local run of the same config.
On the way out every daemon is stopped and checked to be gone.

A failing step names itself and carries the Slurm job logs and the daemons' logs."""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from conftest import REPO_ROOT
from slurm_localhost import PARTITION, SingleNodeSlurm, SlurmError

from timebandits.core.build.preflight import load_paper
from timebandits.core.build.workflow import chunk_contracts
from timebandits.core.config import load_yaml

pytestmark = pytest.mark.cluster

COPIED = ["Snakefile", "config", "workflow", "notebooks", "profiles", "data"]
WHOLE = "delaydep"  # the paper whose whole smoke workflow runs on the cluster
OTHERS = [key for key in load_yaml(REPO_ROOT / "config/config.yaml")["papers"] if key != WHOLE]
TIMEOUT = 900


def first_chunks() -> list[str]:
    """The first simulate job of the first experiment of every paper but ``WHOLE``, at smoke
    scale."""
    config = load_yaml(REPO_ROOT / "config/config.yaml") | {"scale": "smoke"}
    targets = []
    for key in OTHERS:
        paper = load_paper(key, REPO_ROOT / "config")
        first = next(iter(paper["experiments"]))
        targets.append(chunk_contracts("smoke/", paper, config, first)[0][0])
    return targets


# Two runs of each kind: the other papers' single simulate jobs, then delaydep's whole workflow.
RUNS = {
    "first simulate job of " + ", ".join(OTHERS): (
        [f"papers=[{','.join(OTHERS)}]"],
        first_chunks(),
    ),
    f"{WHOLE}'s whole smoke workflow": ([f"papers=[{WHOLE}]"], []),
}


def workdir_copy(directory: Path) -> Path:
    directory.mkdir(parents=True)
    for name in COPIED:
        source = REPO_ROOT / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, directory / name)
    return directory


def cluster_profile(workdir: Path, name: str, config: list[str]) -> Path:
    """profiles/slurm with this cluster's partition, and what a cluster without accounting
    needs: no account (no sacctmgr), job status from squeue (no sacct). The smoke scale and the
    run's papers go in its `config` list, which a --config on the command line would replace."""
    profile = yaml.safe_load((REPO_ROOT / "profiles/slurm/config.yaml").read_text())
    profile["default-resources"]["slurm_partition"] = PARTITION
    del profile["default-resources"]["slurm_account"]
    profile |= {
        "slurm-no-account": True,
        "slurm-status-command": "squeue",
        "slurm-init-seconds-before-status-checks": 5,
        "slurm-keep-successful-logs": True,
        "latency-wait": 10,
    }
    profile["config"] = [*profile["config"], "scale=smoke", *config]
    folder = workdir / "profiles" / f"test-cluster-{name}"
    folder.mkdir()
    (folder / "config.yaml").write_text(yaml.safe_dump(profile))
    return folder


def snakemake(workdir: Path, *args: str, env=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "snakemake", *args],
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


def slurm_job_logs(workdir: Path) -> str:
    logs = sorted((workdir / ".snakemake/slurm_logs").rglob("*.log"))
    return "\n".join(
        f"--- Slurm job log {p.relative_to(workdir)} ---\n" + p.read_text()[-3000:]
        for p in logs[-4:]
    )


@pytest.fixture(scope="module")
def slurm(tmp_path_factory):
    directory = tmp_path_factory.mktemp("slurm")
    try:
        cluster = SingleNodeSlurm(directory)
        cluster.start()
    except SlurmError as err:
        cluster.stop()
        pytest.fail(str(err), pytrace=False)
    yield cluster
    cluster.stop()  # raises SlurmError, naming what still runs, if a daemon is left


@pytest.fixture(scope="module")
def cluster_build(slurm, tmp_path_factory):
    """Both runs through Slurm; wall time and the Slurm job ids each run submitted."""
    workdir = workdir_copy(tmp_path_factory.mktemp("cluster") / "workflow")
    runs = {}
    for i, (name, (config, targets)) in enumerate(RUNS.items()):
        profile = cluster_profile(workdir, str(i), config)
        started = time.monotonic()
        result = snakemake(workdir, "--profile", str(profile), *targets, env=slurm.env)
        seconds = time.monotonic() - started
        if result.returncode != 0:
            pytest.fail(
                f"step 'cluster run: {name}' failed (exit {result.returncode}):\n"
                f"{result.stderr[-6000:]}\n{slurm_job_logs(workdir)}\n{slurm.daemon_logs()}",
                pytrace=False,
            )
        submitted = re.findall(r"submitted with SLURM jobid (\d+)", result.stdout + result.stderr)
        runs[name] = {"seconds": seconds, "slurm_jobs": submitted}
    return workdir, runs


@pytest.fixture(scope="module")
def local_build(tmp_path_factory):
    """The same two runs on this machine (2 cores), the reference for the traces."""
    workdir = workdir_copy(tmp_path_factory.mktemp("local") / "workflow")
    runs = {}
    for name, (config, targets) in RUNS.items():
        started = time.monotonic()
        result = snakemake(
            workdir,
            "--profile",
            "profiles/smoke",
            "--config",
            "scale=smoke",
            *config,
            "--",
            *targets,
        )
        if result.returncode != 0:
            pytest.fail(
                f"step 'local run: {name}' failed (exit {result.returncode}):\n"
                f"{result.stderr[-6000:]}",
                pytrace=False,
            )
        runs[name] = {"seconds": time.monotonic() - started}
    return workdir, runs


def slurm_job_of(log: Path) -> str | None:
    """The Slurm job id a job's log names in its first line (core/workflow.logger)."""
    first = log.read_text().splitlines()[:1]
    match = re.match(r"Slurm job (\d+) on ", first[0]) if first else None
    return match.group(1) if match else None


def test_every_job_ran_as_a_slurm_job_that_completed(cluster_build, slurm):
    workdir, runs = cluster_build
    records = slurm.completed_jobs()
    submitted = [job for run in runs.values() for job in run["slurm_jobs"]]
    assert submitted, "the plugin submitted no Slurm job"
    for job in submitted:
        assert job in records, f"Slurm has no record of job {job}:\n{slurm.daemon_logs()}"
        assert records[job]["JobState"] == "COMPLETED", records[job]
        assert records[job]["ExitCode"] == "0:0", records[job]
        assert records[job]["WorkDir"] == str(workdir), records[job]
    logs = sorted((workdir / "smoke/logs").rglob("*.log"))
    assert len(logs) > 30  # delaydep's whole workflow and the other papers' simulate jobs
    for log in logs:
        assert slurm_job_of(log) in submitted, f"{log} was not written by a submitted Slurm job"


def test_no_smoke_simulate_job_ran_alone(cluster_build):
    workdir, _ = cluster_build
    jobs = [slurm_job_of(log) for log in (workdir / "smoke/logs/simulate").rglob("*.log")]
    assert len(jobs) == len(first_chunks()) + len(
        load_paper(WHOLE, REPO_ROOT / "config")["experiments"]
    )
    alone = [job for job in set(jobs) if jobs.count(job) == 1]
    assert not alone, f"Slurm jobs that ran a single simulate job: {alone}"


def test_traces_are_bit_identical_to_a_local_run(cluster_build, local_build):
    def digests(workdir):
        return {
            str(p.relative_to(workdir)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in (workdir / "smoke/results/traces").rglob("*.parquet")
        }

    on_cluster, local = digests(cluster_build[0]), digests(local_build[0])
    assert on_cluster.keys() == local.keys()
    assert len(on_cluster) > len(OTHERS)
    differ = [path for path in on_cluster if on_cluster[path] != local[path]]
    assert not differ, f"traces that differ from the local run: {differ}"


def test_verdicts_are_those_of_a_local_run(cluster_build, local_build):
    path = f"smoke/results/claims/{WHOLE}.csv"
    assert (cluster_build[0] / path).read_text() == (local_build[0] / path).read_text()


def test_slurm_ran_only_the_submitted_jobs_and_timing_is_reported(
    cluster_build, local_build, slurm
):
    """Slurm's record holds exactly the jobs the plugin submitted; prints the wall time of each
    run through Slurm and locally, and that record (`make test-cluster` shows it; a timing is
    reported, never asserted)."""
    lines = [f"{'run':60} {'slurm s':>8} {'local s':>8} {'slurm jobs':>10}"]
    for name in RUNS:
        cluster, local = cluster_build[1][name], local_build[1][name]
        lines.append(
            f"{name:60} {cluster['seconds']:8.1f} {local['seconds']:8.1f} "
            f"{len(cluster['slurm_jobs']):10d}"
        )
    records = slurm.completed_jobs()
    lines.append("Slurm's job completion log:")
    for job, fields in records.items():
        lines.append(
            " ".join(
                f"{k}={fields.get(k, '')}"
                for k in (
                    "JobId",
                    "JobState",
                    "ExitCode",
                    "StartTime",
                    "EndTime",
                    "ProcCnt",
                    "TimeLimit",
                    "Tres",
                )
            )
        )
    print("\n" + "\n".join(lines))
    submitted = {job for run in cluster_build[1].values() for job in run["slurm_jobs"]}
    assert set(records) == submitted
