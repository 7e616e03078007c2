"""A job that fails keeps its cause (core.build.workflow.logger): the traceback goes to the job's
own log, and the console gets one line naming that log. Every job measures itself: its log ends with
its record (core.build.workflow.job_record)."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap


def test_an_uncaught_exception_leaves_its_traceback_in_the_log(tmp_path):
    log = tmp_path / "logs" / "job.log"
    script = tmp_path / "job.py"
    script.write_text(
        textwrap.dedent(f"""
        from timebandits.core.build.workflow import logger

        def compute():
            raise ValueError("horizon 500000 exceeds the stream's 98139 labels\\nsecond line")

        log = logger({str(log)!r})
        log("start-up: 0.10 s")
        compute()
        """)
    )
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    assert result.returncode == 1
    text = log.read_text()
    assert text.startswith("start-up: 0.10 s\n")
    assert "Traceback (most recent call last)" in text and "in compute" in text
    assert "ValueError: horizon 500000 exceeds the stream's 98139 labels" in text
    console = [line for line in result.stderr.splitlines() if line != "start-up: 0.10 s"]
    assert console == [
        f"ValueError: horizon 500000 exceeds the stream's 98139 labels (traceback in {log})"
    ]


def test_a_job_ends_its_log_with_its_wall_time_cpu_time_and_peak_memory(tmp_path):
    """A job that holds 300 MB and computes for 0.25 s of CPU, then starts a child that holds
    200 MB: the record counts the child's CPU and the peaks of both, and stays off the console.
    The job ends as every workflow script does (core.build.workflow.end_job): exit code 0, the exit
    handlers run (the record's, a library's) and unflushed output is written."""
    log, script, child = tmp_path / "job.log", tmp_path / "job.py", tmp_path / "child.py"
    marker = tmp_path / "exit-handler-ran"
    script.write_text(
        textwrap.dedent(f"""
        import atexit, pathlib, subprocess, sys, time
        import numpy as np
        from timebandits.core.build.workflow import end_job, log_start_up, logger

        atexit.register(pathlib.Path({str(marker)!r}).touch)
        log = logger({str(log)!r})
        log_start_up(log)
        held = np.ones(300 * 2**20 // 8)
        start = time.process_time()
        while time.process_time() - start < 0.25:
            pass
        subprocess.run([sys.executable, {str(child)!r}], check=True)
        print("done", end="")
        end_job()
        raise AssertionError("end_job returned")
        """)
    )
    child.write_text(
        textwrap.dedent("""
        import time
        import numpy as np

        held = np.ones(200 * 2**20 // 8)
        start = time.process_time()
        while time.process_time() - start < 0.15:
            pass
        """)
    )
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "done" and marker.exists()
    lines = log.read_text().splitlines()
    assert re.fullmatch(r"start-up: [0-9.]+ s", lines[0])
    record = re.fullmatch(
        r"job record: ([0-9.]+) s wall, ([0-9.]+) s CPU, ([0-9]+) MB peak", lines[-1]
    )
    assert record, lines
    wall, cpu, peak = map(float, record.groups())
    assert cpu >= 0.4 and wall >= 0.4  # 0.25 s here, 0.15 s in the child, and the imports
    # 300 MB here plus the child's 200 MB and the interpreters; a child's own peak may also count
    # the parent's pages it was forked with (an upper bound, as a cluster's request should be)
    assert 500 <= peak < 2000
    assert "job record" not in result.stderr
