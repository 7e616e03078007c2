"""A job that fails keeps its cause (core.workflow.logger): the traceback goes to the job's own
log, and the console gets one line naming that log."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_an_uncaught_exception_leaves_its_traceback_in_the_log(tmp_path):
    log = tmp_path / "logs" / "job.log"
    script = tmp_path / "job.py"
    script.write_text(textwrap.dedent(f"""
        from timebandits.core.workflow import logger

        def compute():
            raise ValueError("horizon 500000 exceeds the stream's 98139 labels\\nsecond line")

        log = logger({str(log)!r})
        log("start-up: 0.10 s")
        compute()
        """))
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    assert result.returncode == 1
    text = log.read_text()
    assert text.startswith("start-up: 0.10 s\n")
    assert "Traceback (most recent call last)" in text and "in compute" in text
    assert "ValueError: horizon 500000 exceeds the stream's 98139 labels" in text
    console = [line for line in result.stderr.splitlines() if line != "start-up: 0.10 s"]
    assert console == [f"ValueError: horizon 500000 exceeds the stream's 98139 labels "
                       f"(traceback in {log})"]
