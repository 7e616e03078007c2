"""How a rule of the workflow runs its script (workflow/scripts), from its ``run:`` block.

Snakemake runs a ``run:`` block in a thread of its own process (``force-use-threads`` in
profiles/default), so a job costs no interpreter of its own. A ``script:`` job cost one: its
preamble unpickles the job's ``snakemake`` object, and that imports Snakemake, 0.15-0.23 s of
every job before its own work (issue 24, start-up).

:func:`run_script` hands the job to the build's job server of its stack (core/build/job_server.py).
The server forks a copy that runs the script, and the thread waits for the copy's exit status.
With no server listening, the script runs in a Python process of its own
(``python -m timebandits.core.build.job_client``), as ``script:`` would run it. That is the case
for a cluster job, a build of fewer than ``job_server.MIN_JOBS`` jobs,
``TIMEBANDITS_JOB_SERVER=off``, or a job that starts before the server listens. Either way the
script runs as ``__main__`` with the ``snakemake`` object that ``script:`` gives it
(snakemake.iocontainers.Snakemake) and ends with its exit status.
"""

from __future__ import annotations

import os
import pickle
import socket
import struct
import subprocess
import sys
import time
from pathlib import Path

SOCKET_ENV = "TIMEBANDITS_JOB_SERVER"  # the servers' folder, or "off"
# Two servers, each a socket in that folder: "analysis" for the jobs that never simulate (numba
# stays out of them), "kernels" with numba imported too, for the jobs that run compiled code.
STACKS = ("analysis", "kernels")
HEADER = struct.Struct("!Q")
STATUS = struct.Struct("!i")


class JobFailed(RuntimeError):
    """A script ended with a non-zero exit status (its traceback is in its log)."""


class JobServerDied(JobFailed):
    """The job server ended (killed, or stopped with the build) before the job did. The job's
    copy ended with it and put no output in place (each is renamed into place whole,
    core/atomic.py), so Snakemake's next run builds it again."""


def run_script(script: str | os.PathLike, stack: str, job) -> None:
    """Run ``script`` for ``job`` (the ``snakemake`` object it reads) in the job server of
    ``stack`` if one listens, else in a process of its own; raise :class:`JobFailed` if it
    fails (:class:`JobServerDied` if its server dies first). Call it from a rule's ``run:``
    block."""
    if stack not in STACKS:
        raise ValueError(f"run_script: unknown stack {stack!r}; the job servers are {STACKS}")
    request = {
        "script": str(Path(script).resolve()),
        "cwd": os.getcwd(),
        "environ": dict(os.environ),
        "path": list(sys.path),
        "snakemake": job,
        "started": time.time(),
    }
    status = _served(stack, request)
    if status is None:
        status = subprocess.run(
            [sys.executable, "-m", "timebandits.core.build.job_client"], input=pickle.dumps(request)
        ).returncode
    if status:
        logs = " ".join(getattr(job, "log", ()))
        raise JobFailed(
            f"{Path(script).name} ended with exit status {status}"
            + (f"; its log: {logs}" if logs else "")
        )


def _served(stack: str, request: dict) -> int | None:
    """The exit status of the job run by the server of ``stack``, or None if none serves it
    (none listens: a server killed earlier leaves its socket, which then refuses). The copy
    writes to this process's standard output and error. A server that dies with the job handed
    over, queued or running, raises :class:`JobServerDied`, one line naming the job."""
    folder = os.environ.get(SOCKET_ENV, "off")
    if folder == "off" or "SLURM_JOB_ID" in os.environ:
        return None
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        connection.connect(os.path.join(folder, stack))
    except OSError:
        connection.close()
        return None
    with connection:
        data = pickle.dumps(request)
        sys.stdout.flush()
        sys.stderr.flush()
        try:
            socket.send_fds(connection, [HEADER.pack(len(data))], [1, 2])
            connection.sendall(data)
            status = receive(connection, STATUS.size)
        except OSError:  # a job still in the server's queue is reset, not ended
            status = None
    if status is None:  # raised here, not in the except: no reset's traceback with it
        job = request["snakemake"]
        outputs = list(getattr(job, "output", ()))
        named = f" ({outputs[0]}{', ...' if len(outputs) > 1 else ''})" if outputs else ""
        name = getattr(job, "rule", None) or Path(request["script"]).name
        raise JobServerDied(
            f"job {name}{named}: the {stack} job server died before the job "
            "ended, and the job with it; run the build again"
        )
    return STATUS.unpack(status)[0]


def receive(connection: socket.socket, size: int) -> bytes | None:
    """Exactly ``size`` bytes, or None if the other side closed first."""
    data = b""
    while len(data) < size:
        chunk = connection.recv(size - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def execute(request: dict) -> int:
    """Run the request's script as ``__main__`` with its ``snakemake`` object; its exit status."""
    script = request["script"]
    sys.argv = [script]
    try:
        source = Path(script).read_text()
        exec(
            compile(source, script, "exec"),
            {"__name__": "__main__", "__file__": script, "snakemake": request["snakemake"]},
        )
    except SystemExit as stop:  # sys.exit(message) prints the message and exits with 1
        code = stop.code if isinstance(stop.code, int) else int(stop.code is not None)
        if code and not isinstance(stop.code, int):
            print(stop.code, file=sys.stderr)
        return code
    except BaseException:  # the job's failure: its traceback goes where the job's logger says
        sys.excepthook(*sys.exc_info())
        return 1
    return 0


if __name__ == "__main__":  # a job in a process of its own: the request comes on stdin
    from timebandits.core.build.workflow import end_job

    end_job(execute(pickle.loads(sys.stdin.buffer.read())))
