"""The rules' ``run:`` blocks in a thread of the Snakemake process that runs the job (applied by
the Snakefile to the Snakemake of a cluster job).

Every rule runs its script from a ``run:`` block (core/job_client.py). Snakemake's local executor
runs such a block in its own process only when it runs jobs in threads; otherwise it starts one
more Snakemake process for the job, which reads the Snakefile again (2-3 s per job). A local build
asks for threads with ``force-use-threads`` (profiles/default). The Snakemake that runs a cluster
job reads no profile (Snakemake applies them to a top-level run only) and takes no such option
from the command that starts it, so :func:`run_blocks_in_threads` sets it on the local executor
as it starts; a Snakemake whose local executor has no ``__post_init__`` is left as it is.
"""

from __future__ import annotations

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
