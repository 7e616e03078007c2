"""core/build/snakemake_patches.py: Snakemake's scheduler keeps at most one wake-up pending (the
run: blocks in threads are tested with the job server, tests/test_job_server.py)."""

import threading
import time

from snakemake.scheduling.job_scheduler import JobScheduler

from timebandits.core.build.snakemake_patches import _one_wakeup, bound_wakeups


class _Scheduler:
    """What the wake-up touches of a JobScheduler: the semaphore its loop waits on."""

    def __init__(self):
        self._open_jobs = threading.Semaphore(0)


def _releases(scheduler) -> int:
    count = 0
    while scheduler._open_jobs.acquire(blocking=False):
        count += 1
    return count


def test_many_rounds_leave_one_wakeup_pending_and_it_wakes_the_loop_once():
    """Snakemake's own method starts a timer per call: 50 rounds would give 50 wake-ups, each
    starting its own chain. With the fix, 50 calls within the delay release once; a call after
    that release starts the next one."""
    scheduler = _Scheduler()
    for _ in range(50):
        _one_wakeup(scheduler, 0.2)
    time.sleep(0.6)
    assert _releases(scheduler) == 1
    _one_wakeup(scheduler, 0.05)
    time.sleep(0.3)
    assert _releases(scheduler) == 1


def test_the_wakeup_does_not_hold_up_the_exit():
    scheduler = _Scheduler()
    before = set(threading.enumerate())
    _one_wakeup(scheduler, 60.0)
    (timer,) = set(threading.enumerate()) - before
    assert timer.daemon


def test_the_locked_snakemake_gets_the_fix_and_another_one_is_left_alone():
    original = JobScheduler._schedule_reevalutation
    try:
        assert bound_wakeups()
        assert JobScheduler._schedule_reevalutation is _one_wakeup
    finally:
        JobScheduler._schedule_reevalutation = original

    class Renamed:
        def _other(self, delay):
            pass

    assert not bound_wakeups(Renamed)
    assert not hasattr(Renamed, "_schedule_reevalutation")


def test_the_installed_snakemake_still_needs_the_fix():
    """Snakemake's own method starts one timer a call, and its scheduler loop calls it every
    round: an upgrade that changes either makes the fix unnecessary (or wrong), and fails here."""
    import inspect

    source = inspect.getsource(JobScheduler.schedule)
    assert "_schedule_reevalutation(" in source
    scheduler = _Scheduler()
    scheduler.rate_limiter = None
    before = set(threading.enumerate())
    for _ in range(3):
        JobScheduler._schedule_reevalutation(scheduler, 60.0)
    timers = [t for t in set(threading.enumerate()) - before if isinstance(t, threading.Timer)]
    assert len(timers) == 3
    for timer in timers:
        timer.cancel()
