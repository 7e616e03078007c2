"""A warm process that runs the jobs of a local build by forking itself (issue 24: start-up).

A job of the workflow used to spend 0.8-1.6 s in a fresh Python process importing pandas,
pyarrow, matplotlib and timebandits, and drawing its first figure's fonts and mathtext, before
its own work: about 45% of a figure or summary job. When Snakemake runs the jobs on this
machine, the workflow starts two such servers (``onstart`` in the Snakefile, :func:`start`).
Each imports that stack and draws one throw-away figure. The "kernels" server also imports numba
(0.3-0.5 s that a simulate job would spend) and compiles one throw-away function (another
0.45 s: numba's compiler set up). Each then listens on a Unix socket. A rule names the stack its
script needs: figures and summaries never import numba. The rule's ``run:`` block
(core/build/job_client.py, in a thread of Snakemake's process) sends the job (its ``snakemake``
object, working directory, environment, ``sys.path`` and standard output and error) to the
server and waits. The server forks; the copy runs the script with the job's settings and exits,
and the server reports the exit status back to the waiting thread. A job whose waiting side goes
away (Snakemake stopped) has its copy killed; the server ends with Snakemake and takes its copies
with it. A server that dies, even by SIGKILL, takes them too: each copy asks Linux, as it
starts, to be killed when its server ends (prctl's parent-death signal), so no copy writes on
after its server; and each job waiting for one fails with one line saying that its job server
died (core/build/job_client.py's ``JobServerDied``). Its outputs are not in place (each is written
whole under a temporary name and renamed, core/atomic.py), so the next run builds them again.

Every copy starts from the state the server reached before its first fork, and the server never
runs a job, so what a job writes cannot depend on the jobs before it: the same bits as in a
process of its own (tests/test_job_server.py). With no server (a cluster job, a Slurm step,
``TIMEBANDITS_JOB_SERVER=off``, a build of few jobs, or the server not yet listening) the script
runs in a process of its own (core/build/job_client.py).
"""

from __future__ import annotations

import ctypes
import os
import pickle
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

from timebandits.core.build.job_client import HEADER, SOCKET_ENV, STACKS, STATUS, execute, receive
from timebandits.core.build.job_clock import adopt_job_clock

# What a job imports before its own work, loaded once in the server.
PRELOAD = (
    "pandas",
    "pyarrow.parquet",
    "matplotlib.pyplot",
    "scipy.stats",
    "yaml",
    "snakemake.script",
    "timebandits.core.verdicts.claims",
    "timebandits.core.pages.plotting",
    "timebandits.core.pages.thumbnails",
    "timebandits.core.pages.notebooks",
    "timebandits.core.pages.frontpage",
    "timebandits.core.build.workflow",
)
PAPER_PARTS = ("simulation", "claims", "analysis", "figures", "report")
PR_SET_PDEATHSIG = 1  # linux/prctl.h


def _libc_prctl():
    """libc's ``prctl``, looked up once in the server; None where there is none (not Linux,
    where :func:`start` starts no server, but Snakemake's process imports this module)."""
    try:
        return ctypes.CDLL(None).prctl
    except (OSError, AttributeError):
        return None


_PRCTL = _libc_prctl()


def _die_with(server: int) -> None:
    """The first thing a forked copy does: have the kernel SIGKILL it when ``server`` (its
    parent, single-threaded, so its death is the forking thread's) ends, however it ends; a
    copy in compiled code would not run a Python handler. A server that died before this call
    is no longer the copy's parent: the copy ends at once."""
    if _PRCTL is not None:
        _PRCTL(ctypes.c_int(PR_SET_PDEATHSIG), ctypes.c_ulong(signal.SIGKILL))
    if os.getppid() != server:
        os._exit(128 + signal.SIGKILL)


def _run_copy(request: dict, fds: list[int]) -> None:
    """In the forked copy: become the job's process (module docstring) and run its script."""
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
    adopt_job_clock(request["started"])
    from timebandits.core.build.workflow import end_job  # loaded in the server already

    end_job(execute(request))


def _warm_up(stack: str) -> None:
    """Import what the jobs import (and numba for the "kernels" stack) and draw one figure
    (fonts, mathtext), leaving matplotlib's settings as they were."""
    import importlib

    for name in PRELOAD + (("numba",) if stack == "kernels" else ()):
        importlib.import_module(name)
    import matplotlib
    import matplotlib.pyplot as plt

    from timebandits.core.pages.figure_files import png_bytes
    from timebandits.core.pages.plotting import apply_style
    from timebandits.core.registry import PAPER_PACKAGES, paper_module

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
        raise RuntimeError(
            f"the job server runs {threading.active_count()} Python threads after "
            "warm-up; forking it would not be safe"
        )


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
        header, fds, _, _ = socket.recv_fds(connection, HEADER.size, 2)
        whole = len(header) == HEADER.size
        request = receive(connection, HEADER.unpack(header)[0]) if whole else None
    except OSError:
        request, fds = None, []
    if request is None or len(fds) != 2:
        for fd in fds:
            os.close(fd)
        connection.close()
        return
    server = os.getpid()
    pid = os.fork()
    if pid == 0:  # the copy keeps none of the server's sockets, nor the other jobs'
        _die_with(server)
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
        connection.sendall(STATUS.pack(code if code >= 0 else 128 - code))
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
    starts none, and so does a system without pidfds (not Linux), which the server watches its
    copies with. Jobs that begin before a server listens run in their own processes."""
    if (
        os.environ.get(SOCKET_ENV) == "off"
        or not workflow.local_exec
        or workflow.remote_exec
        or not hasattr(os, "pidfd_open")
        or sum(1 for _ in workflow.dag.needrun_jobs()) < MIN_JOBS
    ):
        return
    directory = tempfile.mkdtemp(prefix="timebandits-jobs-")
    log = open(os.path.join(directory, "servers.log"), "w")
    _SERVER["processes"] = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "timebandits.core.build.job_server",
                directory,
                stack,
                str(os.getpid()),
            ],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        for stack in STACKS
    ]
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
    from timebandits.core.build import job_server

    job_server.serve(sys.argv[1], sys.argv[2], int(sys.argv[3]))
