"""A job server killed in the middle of a build (issue 44, item 8): the copies it forked die
with it and write nothing more, and each job handed to it, running or still queued, fails with
one line saying that the job server died, not with a ConnectionResetError's traceback. Jobs
handed over afterwards run in processes of their own."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import types

import pytest

from timebandits.core.build import job_client

# A server without the warm-up (about 3 s of CPU that does not matter here): it only loads what
# a copy needs to end (core/build/workflow.py's end_job), as the real warm-up does.
SERVER = (
    "import sys, importlib; from timebandits.core.build import job_server; "
    "job_server._warm_up = lambda stack: "
    "importlib.import_module('timebandits.core.build.workflow'); "
    "job_server.serve(sys.argv[1], 'analysis', int(sys.argv[2]))"
)

# A long job: says its pid, waits for the test's go-ahead, then writes its output.
JOB = """import os, time
out = snakemake.output[0]
open(out + ".pid", "w").write(str(os.getpid()))
while not os.path.exists(out + ".go"):
    time.sleep(0.02)
open(out, "w").write("done")
"""


def _alive(pid: int) -> bool:
    """Running, not ended (a zombie that nobody reaps has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _wait(condition, what: str, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def _hand_over(script, out, errors: dict) -> threading.Thread:
    """A rule's run: block in a thread, as in Snakemake's process; its exception into errors."""
    job = types.SimpleNamespace(rule="sleeper", output=[str(out)], log=[str(out) + ".log"])

    def run():
        try:
            job_client.run_script(script, "analysis", job)
        except BaseException as error:  # the test looks at whatever it raised
            errors[out] = error

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def _waiting_for_status(thread: threading.Thread) -> bool:
    frame = sys._current_frames().get(thread.ident)
    while frame is not None and frame.f_code.co_name != "receive":
        frame = frame.f_back
    return frame is not None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the job server is Linux-only")
def test_a_killed_server_takes_its_copies_and_fails_its_jobs_in_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv(job_client.SOCKET_ENV, str(tmp_path))
    monkeypatch.delenv("SLURM_JOB_ID", raising=False)
    script = tmp_path / "job.py"
    script.write_text(JOB)
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(tmp_path), str(os.getpid())])
    try:
        _wait(lambda: (tmp_path / "analysis").exists(), "the server did not listen", 60)
        running, queued, errors = tmp_path / "running.json", tmp_path / "queued.json", {}
        threads = [_hand_over(script, running, errors)]
        pid_file = tmp_path / "running.json.pid"
        _wait(lambda: pid_file.exists() and pid_file.read_text(), "the job did not start", 30)
        copy = int(pid_file.read_text())
        os.kill(server.pid, signal.SIGSTOP)  # the next job waits in the listener's queue
        threads.append(_hand_over(script, queued, errors))
        _wait(lambda: _waiting_for_status(threads[1]), "the second job was not handed over")
        os.kill(server.pid, signal.SIGKILL)
        server.wait(timeout=10)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    for thread in threads:
        thread.join(timeout=10)
        assert not thread.is_alive(), "a job still waits for a dead server"
    for out in (running, queued):
        error = errors[out]
        assert isinstance(error, job_client.JobServerDied), repr(error)
        message = str(error)
        assert "\n" not in message and "job server died" in message and str(out) in message
        assert error.__suppress_context__ or error.__context__ is None  # no reset's traceback
    _wait(lambda: not _alive(copy), "the copy outlived its server")
    (tmp_path / "running.json.go").touch()
    (tmp_path / "queued.json.go").touch()
    time.sleep(0.3)
    assert not running.exists() and not queued.exists()
    # With the server gone, a job handed over runs in a process of its own, as with none.
    again = {}
    _hand_over(script, running, again).join(timeout=60)
    assert not again and running.read_text() == "done"
