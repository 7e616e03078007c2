"""A warm process that runs the jobs of a local build by forking itself (issue 24: start-up).

A job of the workflow is a script that Snakemake runs in a fresh Python process, which used to
spend 0.8-1.6 s importing pandas, pyarrow, matplotlib and timebandits, and drawing its first
figure's fonts and mathtext, before its own work: about 45% of a figure or summary job. When
Snakemake runs the jobs on this machine, the workflow starts two such servers (``onstart`` in
the Snakefile, :func:`start`). Each imports that stack and draws one throw-away figure. The
"kernels" server also imports numba (0.3-0.5 s that a simulate job would spend) and compiles one
throw-away function (another 0.45 s: numba's compiler set up). Each then listens on a Unix
socket. A script names the stack it needs: figures and summaries never import numba. Each
script's first statement is :func:`hand_over`: the
script's process sends the job (its ``snakemake`` object, working directory, environment,
``sys.path`` and its standard output and error) to the server and waits. The server forks; the
copy runs the script with the job's settings and exits, and the server reports the exit status
back to the waiting process, which exits with it. A job killed by Snakemake (its waiting process
gone) has its copy killed; the server ends with Snakemake and takes its copies with it.

Every copy starts from the state the server reached before its first fork, and the server never
runs a job, so what a job writes cannot depend on the jobs before it: the same bits as in a
process of its own (tests/test_job_server.py). With no server (a cluster job, a dry run, a
Slurm step, ``TIMEBANDITS_JOB_SERVER=off``, or the server not yet listening) the script simply
goes on in its own process.
"""

from __future__ import annotations

import os
import pickle
import selectors
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .job_clock import adopt_job_clock, cpu_seconds, process_age

SOCKET_ENV = "TIMEBANDITS_JOB_SERVER"  # the servers' folder, or "off"
# Two servers, each a socket in that folder: "analysis" for the jobs that never simulate (numba
# stays out of them), "kernels" with numba imported too, for the jobs that run compiled code.
STACKS = ("analysis", "kernels")
# What a job imports before its own work, loaded once in the server.
PRELOAD = ("pandas", "pyarrow.parquet", "matplotlib.pyplot", "scipy.stats", "yaml",
           "snakemake.script", "timebandits.core.claims", "timebandits.core.plotting",
           "timebandits.core.notebooks", "timebandits.core.frontpage", "timebandits.core.workflow")
PAPER_PARTS = ("simulation", "claims", "analysis", "figures", "report")
_HEADER = struct.Struct("!Q")
_STATUS = struct.Struct("!i")
_IN_COPY = {}  # set in a forked copy: hand_over then runs the script in place


def hand_over(script_globals: dict, stack: str = "analysis") -> None:
    """Run this job in the build's job server of ``stack`` (STACKS) if one serves it, and exit
    with its status; else return, and the script goes on in this process. Call it first in a
    script, before the imports that the server has already done."""
    if stack not in STACKS:
        raise ValueError(f"hand_over: unknown stack {stack!r}; the job servers are {STACKS}")
    folder = os.environ.get(SOCKET_ENV, "off")
    if _IN_COPY or folder == "off" or "snakemake" not in script_globals or "SLURM_JOB_ID" in os.environ:
        return
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        connection.connect(os.path.join(folder, stack))
    except OSError:
        connection.close()
        return
    request = pickle.dumps({
        "script": script_globals["__file__"], "cwd": os.getcwd(), "environ": dict(os.environ),
        "path": list(sys.path), "snakemake": script_globals["snakemake"],
        "started": time.time() - process_age(), "cpu": cpu_seconds()})
    sys.stdout.flush()
    sys.stderr.flush()
    socket.send_fds(connection, [_HEADER.pack(len(request))], [1, 2])
    connection.sendall(request)
    status = _receive(connection, _STATUS.size)
    if status is None:
        print("the job server ended before this job did; run the build again", file=sys.stderr)
        os._exit(1)
    os._exit(_STATUS.unpack(status)[0])


def _receive(connection: socket.socket, size: int) -> bytes | None:
    """Exactly ``size`` bytes, or None if the other side closed first."""
    data = b""
    while len(data) < size:
        chunk = connection.recv(size - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def _run_copy(request: dict, fds: list[int]) -> None:
    """In the forked copy: become the job's process (module docstring) and run its script."""
    _IN_COPY["job"] = request["script"]
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    os.dup2(fds[0], 1)
    os.dup2(fds[1], 2)
    for fd in fds:
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["environ"])
    sys.path[:] = request["path"]
    sys.argv = [request["script"]]
    adopt_job_clock(request["started"], request["cpu"])
    code = 0
    try:
        source = Path(request["script"]).read_text()
        exec(compile(source, request["script"], "exec"),
             {"__name__": "__main__", "__file__": request["script"],
              "snakemake": request["snakemake"]})
    except SystemExit as stop:  # sys.exit(message) prints the message and exits with 1
        code = stop.code if isinstance(stop.code, int) else int(stop.code is not None)
        if code and not isinstance(stop.code, int):
            print(stop.code, file=sys.stderr)
    except BaseException:  # the job's failure: its traceback goes where the job's logger says
        sys.excepthook(*sys.exc_info())
        code = 1
    from .workflow import end_job  # loaded in the server already

    end_job(code)


def _warm_up(stack: str) -> None:
    """Import what the jobs import (and numba for the "kernels" stack) and draw one figure
    (fonts, mathtext), leaving matplotlib's settings as they were."""
    import importlib

    for name in PRELOAD + (("numba",) if stack == "kernels" else ()):
        importlib.import_module(name)
    import matplotlib
    import matplotlib.pyplot as plt

    from .plotting import apply_style, png_bytes
    from .registry import PAPER_PACKAGES, paper_module

    for key in PAPER_PACKAGES:
        for part in PAPER_PARTS:
            paper_module(key, part)

    if stack == "kernels":
        _compile_one_kernel()
    with matplotlib.rc_context():
        apply_style()
        fig, ax = plt.subplots()
        ax.set(xlabel=r"round $t$", ylabel=r"$\sqrt{t \ln t}$", title="warm-up")
        ax.plot([1, 2], [1, 2], label=r"$\alpha = 1$")
        ax.legend()
        png_bytes(fig)
        plt.close(fig)
    import threading

    # Native pools (OpenBLAS's threads, jemalloc's background thread) renew themselves after a
    # fork; a Python thread would not, and could hold a lock the copy then waits on forever.
    if threading.active_count() != 1:
        raise RuntimeError(f"the job server runs {threading.active_count()} Python threads after "
                           "warm-up; forking it would not be safe")


def _compile_one_kernel() -> None:
    """Compile a throw-away function with numba: its compiler and LLVM are set up once here, not
    in every job (0.45 s of a simulate job, which then only loads its own kernels from numba's
    cache). Nothing of it is reused: each kernel is compiled or loaded as in a process of its
    own, so a job draws the same bits."""
    import numba

    numba.njit(cache=False)(lambda x: x + 1)(1)


def serve(folder: str, stack: str, parent: int) -> None:
    """Warm up for ``stack``, listen on its socket in ``folder`` (bound under a temporary name and
    renamed when ready), and fork a copy per job until process ``parent`` (Snakemake) is no
    longer this one's parent, or SIGTERM comes."""
    path = os.path.join(folder, stack)
    _warm_up(stack)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(f"{path}.warming")
    listener.listen(64)
    os.rename(f"{path}.warming", path)
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ, "listener")
    running: dict[int, tuple[int, socket.socket, int]] = {}  # pidfd -> (pid, connection, pidfd)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        while os.getppid() == parent:
            for key, _ in selector.select(timeout=1.0):
                if key.data == "listener":
                    _accept(listener, selector, running)
                elif key.data in running:  # a copy's end and its waiter's may come together
                    _finish(key.data, selector, running)
    except KeyboardInterrupt:
        pass
    finally:
        for pid, connection, pidfd in running.values():
            _kill(pid)
        Path(path).unlink(missing_ok=True)
        if not any(os.path.exists(os.path.join(folder, other)) for other in STACKS):
            shutil.rmtree(folder, ignore_errors=True)  # the last server out (a build that died)


def _accept(listener, selector, running) -> None:
    """Take one job: its header and descriptors, its request, then fork the copy that runs it."""
    connection, _ = listener.accept()
    try:
        header, fds, _, _ = socket.recv_fds(connection, _HEADER.size, 2)
        request = _receive(connection, _HEADER.unpack(header)[0]) if len(header) == _HEADER.size else None
    except OSError:
        request, fds = None, []
    if request is None or len(fds) != 2:
        for fd in fds:
            os.close(fd)
        connection.close()
        return
    pid = os.fork()
    if pid == 0:  # the copy keeps none of the server's sockets, nor the other jobs'
        listener.close()
        selector.close()
        for _, other, pidfd in running.values():
            other.close()
            os.close(pidfd)
        connection.close()
        _run_copy(pickle.loads(request), fds)
    for fd in fds:
        os.close(fd)
    pidfd = os.pidfd_open(pid)
    running[pidfd] = (pid, connection, pidfd)
    selector.register(pidfd, selectors.EVENT_READ, pidfd)
    selector.register(connection, selectors.EVENT_READ, pidfd)


def _finish(pidfd: int, selector, running) -> None:
    """A copy ended (report its status) or its waiting process went away (kill the copy)."""
    pid, connection, _ = running.pop(pidfd)
    selector.unregister(pidfd)
    selector.unregister(connection)
    _kill(pid)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    try:
        connection.sendall(_STATUS.pack(code if code >= 0 else 128 - code))
    except OSError:
        pass
    connection.close()
    os.close(pidfd)


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        pass


_SERVER = {}
# A server's warm-up costs about 3 s of CPU and saves about 1 s per job: below this many jobs to
# run, the jobs start on their own (a rebuilt figure, a repaired trace).
MIN_JOBS = 8


def start(workflow) -> None:
    """Start the servers for a build that runs at least MIN_JOBS jobs on this machine (from the
    Snakefile's ``onstart``); a cluster build, a dry run or ``TIMEBANDITS_JOB_SERVER=off``
    starts none. Jobs that begin before a server listens run in their own processes."""
    if (os.environ.get(SOCKET_ENV) == "off" or not workflow.local_exec or workflow.remote_exec
            or sum(1 for _ in workflow.dag.needrun_jobs()) < MIN_JOBS):
        return
    directory = tempfile.mkdtemp(prefix="timebandits-jobs-")
    log = open(os.path.join(directory, "servers.log"), "w")
    _SERVER["processes"] = [subprocess.Popen(
        [sys.executable, "-m", "timebandits.core.job_server", directory, stack, str(os.getpid())],
        stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT) for stack in STACKS]
    _SERVER["directory"] = directory
    os.environ[SOCKET_ENV] = directory


def stop() -> None:
    """Stop the servers (the Snakefile's ``onsuccess`` and ``onerror``) and remove their folder."""
    processes = _SERVER.pop("processes", [])
    if not processes:
        return
    os.environ[SOCKET_ENV] = "off"
    for process in processes:
        process.terminate()
    for process in processes:
        process.wait(timeout=30)
    shutil.rmtree(_SERVER.pop("directory"), ignore_errors=True)


if __name__ == "__main__":  # the module itself, not __main__, holds the copy's state
    from timebandits.core import job_server

    job_server.serve(sys.argv[1], sys.argv[2], int(sys.argv[3]))
