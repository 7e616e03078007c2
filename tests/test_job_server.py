"""The warm job server of a local build (core/build/job_server.py) and the rules' way to it
(core/build/job_client.py): a job handed over runs in a forked copy of the server and writes what it
writes in a process of its own, bit for bit; its exit status, its errors and its death reach
Snakemake as if it had run alone; without a server the script runs in a process of its own; the
server ends with the build."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import types

import pytest

from timebandits.core.build import job_client, job_server

# What a rule's ``run:`` block does in Snakemake's process (workflow/rules/common.smk, run_job):
# hand the script and its ``snakemake`` object to core.build.job_client.run_script. This process
# says its pid first; a failed job ends it with the JobFailed message (exit status 1).
RULE = """
import os, sys, types
from timebandits.core.build.job_client import JobFailed, run_script
print(os.getpid(), flush=True)
try:
    run_script(sys.argv[1], sys.argv[4], \
types.SimpleNamespace(output=[sys.argv[2]], log=[sys.argv[3]]))
except JobFailed as failed:
    sys.exit(f"JobFailed: {failed}")
"""

JOB = '''"""A job that draws a figure with mathtext and says where it ran."""
import os
import sys
import json
import matplotlib.pyplot as plt
from timebandits.core.pages.figure_files import png_bytes
from timebandits.core.pages.plotting import apply_style
from timebandits.core.build.workflow import end_job, log_start_up, logger

log = logger(snakemake.log[0])
log_start_up(log)
action = os.environ.get("TEST_JOB_ACTION", "draw")
if action == "fail":
    raise ValueError("planted failure")
if action == "exit":
    sys.exit(3)
if action == "sleep":
    open(snakemake.output[0] + ".pid", "w").write(str(os.getpid()))
    import time
    time.sleep(120)
apply_style()
fig, ax = plt.subplots(figsize=(3, 2))
ax.plot([1, 2, 3], [1, 4, 9], label=r"$\\alpha = 1$")
ax.set(xlabel=r"round $t$", ylabel=r"$\\sqrt{t \\ln t}$")
ax.legend()
with open(snakemake.output[0] + ".png", "wb") as handle:
    handle.write(png_bytes(fig))
# numba's CPU target (its compiler and LLVM) is built at the first compilation
compiler = "numba" in sys.modules and "_toplevel_target_context" in vars(
    sys.modules["numba"].core.registry.cpu_target)
json.dump({"pid": os.getpid(), "ppid": os.getppid(), "cwd": os.getcwd(),
           "numba": "numba" in sys.modules, "compiler": compiler,
           "marker": os.environ.get("TEST_JOB_MARKER")},
          open(snakemake.output[0], "w"))
end_job()
'''


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """Both job servers listening in a temporary folder (about 3 s to warm up)."""
    folder = str(tmp_path_factory.mktemp("server"))
    processes = {
        stack: subprocess.Popen(
            [
                sys.executable,
                "-m",
                "timebandits.core.build.job_server",
                folder,
                stack,
                str(os.getpid()),
            ]
        )
        for stack in job_server.STACKS
    }
    deadline = time.monotonic() + 120
    for stack, process in processes.items():
        while not os.path.exists(os.path.join(folder, stack)):
            assert process.poll() is None, "a job server ended while warming up"
            assert time.monotonic() < deadline, "a job server did not listen within 120 s"
            time.sleep(0.1)
    yield types.SimpleNamespace(
        path=folder, pid=processes["analysis"].pid, kernels_pid=processes["kernels"].pid
    )
    for process in processes.values():
        process.terminate()
        process.wait(timeout=30)


def run_job(tmp_path, socket_path, action="draw", wait=True, stack="analysis", **env):
    script = tmp_path / "job.py"
    script.write_text(JOB)
    environ = {**os.environ, job_server.SOCKET_ENV: socket_path, "TEST_JOB_ACTION": action, **env}
    environ.pop("SLURM_JOB_ID", None)
    argv = [
        sys.executable,
        "-c",
        RULE,
        str(script),
        str(tmp_path / "out.json"),
        str(tmp_path / "job.log"),
        stack,
    ]
    if not wait:
        return subprocess.Popen(argv, env=environ, cwd=tmp_path)
    return subprocess.run(
        argv, env=environ, cwd=tmp_path, capture_output=True, text=True, timeout=120
    )


def test_a_handed_over_job_runs_in_a_copy_of_the_server_and_draws_the_same_bits(server, tmp_path):
    alone, served = tmp_path / "alone", tmp_path / "served"
    alone.mkdir()
    served.mkdir()
    first = run_job(alone, "off")
    second = run_job(served, server.path, TEST_JOB_MARKER="the job's own environment")
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    where = json.loads((served / "out.json").read_text())
    assert where["ppid"] == server.pid  # forked by the server
    assert where["cwd"] == str(served) and where["marker"] == "the job's own environment"
    assert not where["numba"]  # the analysis stack
    kernels = tmp_path / "kernels"
    kernels.mkdir()
    assert run_job(kernels, server.path, stack="kernels").returncode == 0
    where = json.loads((kernels / "out.json").read_text())
    assert where["ppid"] == server.kernels_pid and where["numba"]
    assert where["compiler"]  # set up by the server, not by every simulate job
    # with no server, a process of its own, started by the rule's
    assert json.loads((alone / "out.json").read_text())["ppid"] == int(first.stdout.split()[0])
    assert (alone / "out.json.png").read_bytes() == (served / "out.json.png").read_bytes()
    assert "start-up:" in (served / "job.log").read_text()
    assert "job record:" in (served / "job.log").read_text()


def test_a_failing_job_exits_with_its_status_and_keeps_its_traceback(server, tmp_path):
    failed = run_job(tmp_path, server.path, action="fail")
    assert failed.returncode == 1
    assert f"ValueError: planted failure (traceback in {tmp_path / 'job.log'})" in failed.stderr
    assert (
        f"JobFailed: job.py ended with exit status 1; its log: {tmp_path / 'job.log'}"
        in failed.stderr
    )
    assert "Traceback" in (tmp_path / "job.log").read_text()
    exited = run_job(tmp_path, server.path, action="exit")
    assert exited.returncode == 1 and "ended with exit status 3;" in exited.stderr


def test_a_killed_job_takes_its_copy_with_it(server, tmp_path):
    waiting = run_job(tmp_path, server.path, action="sleep", wait=False)
    pid_file = tmp_path / "out.json.pid"
    deadline = time.monotonic() + 60
    while not pid_file.exists() or not pid_file.read_text():
        assert waiting.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    copy = int(pid_file.read_text())
    assert copy != waiting.pid
    waiting.kill()
    waiting.wait()
    deadline = time.monotonic() + 20
    while os.path.exists(f"/proc/{copy}"):
        assert time.monotonic() < deadline, "the copy outlived the job Snakemake killed"
        time.sleep(0.05)


def test_a_stack_that_no_server_serves_is_an_error():
    with pytest.raises(ValueError, match="unknown stack 'kernel'"):
        job_client.run_script("job.py", "kernel", None)


def test_without_a_server_the_script_runs_in_its_own_process(tmp_path):
    done = run_job(tmp_path, str(tmp_path / "no-such-folder"))
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "out.json").read_text())["ppid"] == int(done.stdout.split()[0])


def build(local=True, jobs=job_server.MIN_JOBS):
    """What ``start`` reads of Snakemake's workflow object."""
    return types.SimpleNamespace(
        local_exec=local,
        remote_exec=False,
        dag=types.SimpleNamespace(needrun_jobs=lambda: iter(range(jobs))),
    )


def test_the_server_serves_local_builds_only_and_ends_with_the_build(tmp_path):
    for small_or_remote in (build(local=False), build(jobs=job_server.MIN_JOBS - 1)):
        job_server.start(small_or_remote)
        assert "processes" not in job_server._SERVER
    # A build that dies without stopping its server: the server leaves on its own.
    launcher = (
        "import os, types; from timebandits.core.build import job_server as j; "
        "j.start(types.SimpleNamespace(local_exec=True, remote_exec=False, "
        "dag=types.SimpleNamespace(needrun_jobs=lambda: range(j.MIN_JOBS)))); "
        "print(os.environ[j.SOCKET_ENV], *[p.pid for p in j._SERVER['processes']], flush=True)"
    )
    folder, *pids = subprocess.run(
        [sys.executable, "-c", launcher], capture_output=True, text=True, check=True, timeout=60
    ).stdout.split()
    deadline = time.monotonic() + 120
    for pid in map(int, pids):
        while os.path.exists(f"/proc/{pid}") and "Z" not in _state(pid):
            assert time.monotonic() < deadline, "a job server outlived its build"
            time.sleep(0.2)
    assert not os.path.exists(folder)  # the last server out removed the servers' folder


def _state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"


def test_start_and_stop(monkeypatch):
    monkeypatch.delenv(job_server.SOCKET_ENV, raising=False)
    job_server.start(build())
    processes, directory = job_server._SERVER["processes"], job_server._SERVER["directory"]
    assert os.environ[job_server.SOCKET_ENV] == directory and len(processes) == 2
    job_server.stop()
    assert all(p.poll() is not None for p in processes) and not os.path.exists(directory)
    assert os.environ[job_server.SOCKET_ENV] == "off"


def test_a_cluster_jobs_snakemake_runs_run_blocks_in_its_own_process(monkeypatch):
    """core/build/snakemake_patches.py: Snakemake's local executor, as the Snakemake of a cluster
    job starts it (no profile, so not in threads), runs the rules' run: blocks in threads after the
    patch, and patching twice wraps it once."""
    from snakemake.executors import local

    from timebandits.core.build.snakemake_patches import run_blocks_in_threads

    monkeypatch.setattr(local.Executor, "__post_init__", local.Executor.__post_init__)

    def started():
        executor = object.__new__(local.Executor)
        executor.workflow = types.SimpleNamespace(
            execution_settings=types.SimpleNamespace(use_threads=False, keep_incomplete=False),
            resource_settings=types.SimpleNamespace(cores=2),
        )
        local.Executor.__post_init__(executor)
        executor.pool.shutdown()
        return executor

    assert not started().use_threads
    assert run_blocks_in_threads()
    patched = local.Executor.__post_init__
    assert run_blocks_in_threads() and local.Executor.__post_init__ is patched
    assert started().use_threads
