"""A job's own clock: how long since it started and how much CPU it has used. A job run by the
job server is a forked copy of the server; it adopts the moment its rule's ``run:`` block handed
it over (core/build/job_client.py), so that its start-up counts the hand-over and the fork too.
"""

from __future__ import annotations

import os
import time

_ADOPTED = {}  # "started": seconds since the epoch


def adopt_job_clock(started: float) -> None:
    """Count this job from ``started`` (time.time() when its rule handed it over)."""
    _ADOPTED.update(started=started)


def adopted() -> bool:
    """Whether this job runs in a copy of the job server (it adopted its hand-over's clock)."""
    return "started" in _ADOPTED


def process_age() -> float:
    """Seconds since this job's process started (or the process it adopted): from /proc (both
    clocks count from boot, to 10 ms), else psutil (whose start time is rounded to the boot
    second on Linux)."""
    if "started" in _ADOPTED:
        return time.time() - _ADOPTED["started"]
    try:
        with open("/proc/self/stat") as stat, open("/proc/uptime") as uptime:
            started = int(stat.read().rsplit(")", 1)[1].split()[19]) / os.sysconf("SC_CLK_TCK")
            return float(uptime.read().split()[0]) - started
    except (OSError, ValueError, IndexError):
        import psutil

        return time.time() - psutil.Process().create_time()


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system
