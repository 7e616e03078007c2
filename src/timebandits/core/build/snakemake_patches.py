"""The two changes this project makes to Snakemake, both applied by the Snakefile, both measured
on Snakemake 9.27.1 (tests/test_core_snakemake_patches.py fails when an upgrade makes one
unnecessary or no longer applicable).

1. At most one pending wake-up of the job scheduler (:func:`bound_wakeups`).
``JobScheduler.schedule`` loops: it waits on a semaphore, selects jobs and, at the end of every
round, starts a ``threading.Timer`` that releases the semaphore after the job rate limiter's
timespan (``--max-jobs-per-timespan``, by default 100/1s) so that rate-limited jobs are
reconsidered. Every round starts one, also a round woken by such a timer, so each round that a
finished job wakes starts a chain of one-second wake-ups lasting to the end of the build: after n
finished jobs the scheduler runs about n rounds a second. Measured on this project's builds (2
cores): 27,393 rounds in a 4-minute smoke build of 330 jobs, and 5.4 CPU-minutes of Snakemake's
own in a 23-minute full build of 446 jobs, a quarter of one core taken from the jobs.

:func:`bound_wakeups` replaces the method that starts the timer with one that starts it only when
none is pending; a Snakemake without that method is left as it is. One pending wake-up is
enough: a round re-reads every job's state, whatever woke it, and the rate limiter is asked
again in every round.

2. The rules' ``run:`` blocks in a thread of the Snakemake process that runs the job
(:func:`run_blocks_in_threads`).
Every rule runs its script from a ``run:`` block (core/build/job_client.py). Snakemake's local
executor runs such a block in its own process only when it runs jobs in threads; otherwise it starts
one more Snakemake process for the job, which reads the Snakefile again (2-3 s per job). A local
build asks for threads with ``force-use-threads`` (profiles/default). The Snakemake that runs a
cluster job reads no profile (Snakemake applies them to a top-level run only) and takes no such
option from the command that starts it, so :func:`run_blocks_in_threads` sets it on the local
executor as it starts; a Snakemake whose local executor has no ``__post_init__`` is left as it is.
"""

from __future__ import annotations

import threading

_PENDING = "_timebandits_wakeup_pending"
_LOCK = threading.Lock()


def _one_wakeup(scheduler, delay: float) -> None:
    """Release ``scheduler._open_jobs`` after ``delay`` seconds unless a release is already
    pending (the replacement of ``JobScheduler._schedule_reevalutation``)."""
    with _LOCK:
        if getattr(scheduler, _PENDING, False):
            return
        setattr(scheduler, _PENDING, True)

    def wake() -> None:
        with _LOCK:
            setattr(scheduler, _PENDING, False)
        scheduler._open_jobs.release()

    timer = threading.Timer(delay, wake)
    timer.daemon = True  # a pending wake-up does not hold up Snakemake's exit
    timer.start()


def bound_wakeups(scheduler_class=None) -> bool:
    """Give ``scheduler_class`` (Snakemake's ``JobScheduler`` by default) :func:`_one_wakeup`.
    Returns False, changing nothing, if it has no such method (another Snakemake: the build runs
    as that Snakemake schedules it, and the Snakefile says so in one line)."""
    if scheduler_class is None:
        from snakemake.scheduling.job_scheduler import JobScheduler as scheduler_class
    if not callable(getattr(scheduler_class, "_schedule_reevalutation", None)):
        return False
    scheduler_class._schedule_reevalutation = _one_wakeup
    return True


_MARK = "_timebandits_threads"


def run_blocks_in_threads() -> bool:
    """Make Snakemake's local executor run jobs in threads; whether it could."""
    from snakemake.executors import local

    start = getattr(local.Executor, "__post_init__", None)
    if start is None:
        return False
    if getattr(start, _MARK, False):
        return True

    def __post_init__(self):
        start(self)
        self.use_threads = True

    setattr(__post_init__, _MARK, True)
    local.Executor.__post_init__ = __post_init__
    return True
