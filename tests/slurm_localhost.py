"""A real single-node Slurm on this machine, from Debian's packages (``slurm-wlm``, ``munge``), for
``make test-cluster``: munged, slurmctld and slurmd on localhost with a minimal ``slurm.conf``
written to a temporary directory. No mock, no simulator of Slurm.

Settings chosen so that Slurm runs without cgroups (a sandbox or container usually has none):
``proctrack/linuxproc`` and ``task/none``; accounting off, so Slurm's record of every job is the
job completion log (``jobcomp/filetxt``); memory limits are still enforced, by polling
(``jobacct_gather/linux`` with ``OverMemoryKill``), and time limits by slurmctld, so a job that
asks for too little is killed as on a real cluster.

``slurm.conf`` is written to the temporary directory and linked from Slurm's default path
(/etc/slurm/slurm.conf): the Snakemake Slurm plugin's job step deletes ``SLURM_CONF`` from the
environment of the ``srun`` it starts, so a job only finds the cluster there. An existing
slurm.conf that is not ours is never touched (``SlurmError``).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

DEFAULT_CONF = Path("/etc/slurm/slurm.conf")
DAEMONS = ("munged", "slurmctld", "slurmd")
PARTITION = "timebandits"


class SlurmError(RuntimeError):
    """A step of bringing Slurm up or down failed; the message names the step and carries the
    daemon logs."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def missing_programs() -> list[str]:
    """The programs of slurm-wlm and munge this machine lacks."""
    return [
        p for p in (*DAEMONS, "sbatch", "squeue", "sinfo", "scontrol") if shutil.which(p) is None
    ]


class SingleNodeSlurm:
    """``with SingleNodeSlurm(directory) as slurm:`` a running cluster of one node (this machine)
    with one partition, ``PARTITION``; on exit every daemon is stopped and checked to be gone."""

    def __init__(self, directory: Path):
        self.dir = Path(directory)
        self.conf = self.dir / "slurm.conf"
        self.jobcomp = self.dir / "jobcomp.log"
        self.logs = {name: self.dir / "log" / f"{name}.log" for name in DAEMONS}
        self.socket = self.dir / "munge" / "munge.socket"
        self._linked = False
        # Every Slurm command of the test talks to this cluster, whatever the caller's SLURM_CONF.
        self.env = {**os.environ, "SLURM_CONF": str(self.conf)}

    # -- bring up ------------------------------------------------------------------------------
    def __enter__(self) -> "SingleNodeSlurm":
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def start(self) -> None:
        missing = missing_programs()
        if missing:
            raise SlurmError(
                f"step 'find Slurm': {', '.join(missing)} not found; install Debian's "
                "slurm-wlm and munge (apt-get install slurm-wlm munge)"
            )
        if os.geteuid() != 0:
            raise SlurmError(
                "step 'find Slurm': slurmd must run as root to start jobs "
                "(CI runs as root; run `sudo make test-cluster`)"
            )
        self.dir.mkdir(parents=True, exist_ok=True)
        self.dir.chmod(0o755)  # munged wants every directory above its socket searchable by all
        for sub in ("munge", "log", "state", "spool"):
            (self.dir / sub).mkdir(parents=True, exist_ok=True)
        self._start_munge()
        self._write_conf()
        self._link_conf()
        self._run("start slurmctld", ["slurmctld", "-f", str(self.conf)])
        self._run("start slurmd", ["slurmd", "-f", str(self.conf), "-N", self.node])
        self._wait_idle()

    def _start_munge(self) -> None:
        munge = self.dir / "munge"
        munge.chmod(0o755)
        key = munge / "munge.key"
        key.write_bytes(os.urandom(1024))
        key.chmod(0o600)
        self._run(
            "start munged",
            [
                "munged",
                "--force",
                f"--socket={self.socket}",
                f"--key-file={key}",
                f"--log-file={self.logs['munged']}",
                f"--pid-file={munge / 'munged.pid'}",
                f"--seed-file={munge / 'munged.seed'}",
            ],
        )
        self._run(
            "check munge", ["sh", "-c", f"munge -n -S {self.socket} | unmunge -S {self.socket}"]
        )

    def _write_conf(self) -> None:
        found = subprocess.run(["slurmd", "-C"], capture_output=True, text=True).stdout
        cpus = int(re.search(r"CPUs=(\d+)", found).group(1))
        memory = int(re.search(r"RealMemory=(\d+)", found).group(1))
        self.node = socket.gethostname().split(".")[0]
        self.cpus, self.memory_mb = cpus, memory * 9 // 10
        d = self.dir
        self.conf.write_text(f"""\
# Written by tests/slurm_localhost.py for `make test-cluster`: a one-node cluster on localhost.
ClusterName=timebandits-test
SlurmctldHost={self.node}(127.0.0.1)
SlurmctldPort={_free_port()}
SlurmdPort={_free_port()}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={self.socket}
StateSaveLocation={d / "state"}
SlurmdSpoolDir={d / "spool"}
SlurmctldPidFile={d / "slurmctld.pid"}
SlurmdPidFile={d / "slurmd.pid"}
SlurmctldLogFile={self.logs["slurmctld"]}
SlurmdLogFile={self.logs["slurmd"]}
# No cgroups: processes tracked through /proc, no task binding.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
# Memory limits enforced by polling /proc (a job over its --mem is killed).
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=task=2
JobAcctGatherParams=OverMemoryKill
# No accounting database: Slurm's record of each job is the job completion log.
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc={self.jobcomp}
# Finished jobs stay visible to squeue (the plugin's status command) for 10 minutes.
MinJobAge=600
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=1000
MpiDefault=none
ReturnToService=2
SlurmctldDebug=info
SlurmdDebug=info
NodeName={self.node} NodeAddr=127.0.0.1 CPUs={cpus} RealMemory={self.memory_mb} State=UNKNOWN
PartitionName={PARTITION} Nodes={self.node} Default=YES MaxTime=INFINITE State=UP
""")

    def _link_conf(self) -> None:
        if DEFAULT_CONF.is_symlink() and not DEFAULT_CONF.exists():
            DEFAULT_CONF.unlink()  # left dangling by an earlier run that was killed
        if DEFAULT_CONF.exists() or DEFAULT_CONF.is_symlink():
            raise SlurmError(
                f"step 'install slurm.conf': {DEFAULT_CONF} exists and is not ours; "
                "this test brings up its own cluster and will not replace a real "
                "cluster's configuration"
            )
        DEFAULT_CONF.parent.mkdir(parents=True, exist_ok=True)
        DEFAULT_CONF.symlink_to(self.conf)
        self._linked = True

    def _wait_idle(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        state = ""
        while time.monotonic() < deadline:
            result = subprocess.run(
                ["sinfo", "-h", "-N", "-o", "%T"], capture_output=True, text=True, env=self.env
            )
            state = (result.stdout + result.stderr).strip()
            if state == "idle":
                return
            time.sleep(1)
        raise SlurmError(
            f"step 'wait for the node': sinfo says {state!r} after {timeout:.0f} s, "
            f"not 'idle'\n{self.daemon_logs()}"
        )

    def _run(self, step: str, command: list[str]) -> None:
        result = subprocess.run(command, capture_output=True, text=True, env=self.env)
        if result.returncode != 0:
            raise SlurmError(
                f"step {step!r}: {' '.join(command)} exited {result.returncode}: "
                f"{(result.stdout + result.stderr).strip()}\n{self.daemon_logs()}"
            )

    # -- what Slurm recorded -------------------------------------------------------------------
    def completed_jobs(self) -> dict[str, dict[str, str]]:
        """Slurm's job completion log: job id -> its fields (JobState, ExitCode, WorkDir, ...)."""
        if not self.jobcomp.exists():
            return {}
        jobs = {}
        for line in self.jobcomp.read_text().splitlines():
            fields = dict(re.findall(r"(\w+)=(\S*)", line))
            if "JobId" in fields:
                jobs[fields["JobId"]] = fields
        return jobs

    def daemon_logs(self, lines: int = 40) -> str:
        parts = []
        for name, path in self.logs.items():
            text = path.read_text().splitlines()[-lines:] if path.exists() else ["(no log)"]
            parts.append(f"--- {name} ({path}), last {lines} lines ---\n" + "\n".join(text))
        return "\n".join(parts)

    # -- shut down -----------------------------------------------------------------------------
    def running_daemons(self) -> list[str]:
        """Daemons of this cluster still running (matched by this cluster's directory)."""
        result = subprocess.run(
            ["pgrep", "-a", "-f", str(self.dir)], capture_output=True, text=True
        )
        return [
            line
            for line in result.stdout.splitlines()
            if any(d in line.split()[1] for d in DAEMONS)
        ]

    def stop(self) -> None:
        """Stop slurmctld and slurmd, then munged, and check that none is left; remove the link."""
        if self.conf.exists():
            subprocess.run(
                ["scontrol", "-Q", "shutdown"], capture_output=True, timeout=30, env=self.env
            )
        self._wait_gone(("slurmctld", "slurmd"))
        subprocess.run(["munged", "--stop", f"--socket={self.socket}"], capture_output=True)
        self._wait_gone(DAEMONS)
        for line in self.running_daemons():  # did not stop on request
            os.kill(int(line.split()[0]), signal.SIGKILL)
        if self._linked and DEFAULT_CONF.is_symlink():
            DEFAULT_CONF.unlink()
            self._linked = False
        left = self.running_daemons()
        if left:
            raise SlurmError(f"step 'shut down': still running: {left}\n{self.daemon_logs()}")

    def _wait_gone(self, daemons, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and any(
            d in line.split()[1] for line in self.running_daemons() for d in daemons
        ):
            time.sleep(0.5)
