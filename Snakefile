# timebandits: every figure, table, claim verdict and notebook of five papers, from simulation.
# Layout and data flow: docs/layout.md and ../shared/DESIGN.md.
import sys
from pathlib import Path

import timebandits
from snakemake.utils import min_version

from timebandits.core.build import job_server
from timebandits.core.config import ConfigError, load_yaml
from timebandits.core.build.snakemake_patches import bound_wakeups, run_blocks_in_threads

min_version("9.0")
# Snakemake 9's scheduler wakes once a second per finished job; one wake-up at a time is enough
# (core/build/snakemake_patches.py: 5.4 CPU-minutes of its own in a 23-minute full build on 2 cores).
if not bound_wakeups():
    print(
        "note: this Snakemake has no JobScheduler._schedule_reevalutation; its scheduler runs "
        "unpatched (core/build/snakemake_patches.py)",
        file=sys.stderr,
    )

# A copy of a clone (`cp -a`) keeps a .venv whose editable install and scripts point back to the
# original: its jobs would run the other clone's code. The tests' scratch copies have no src/.
HERE, IMPORTED = Path(workflow.basedir) / "src" / "timebandits", Path(timebandits.__file__).parent
if HERE.is_dir() and HERE.resolve() != IMPORTED.resolve():
    sys.exit(
        f"This workflow's code is {HERE}, but Python imports timebandits from {IMPORTED} "
        "(a .venv copied from another clone?): run `rm -rf .venv && make` here"
    )

# `configfile:` would fail on a malformed file with a traceback; this says file and line. The
# schema and cross-checks of the loaded config (one line each) are in workflow/rules/common.smk.
CONFIG_FILE = "config/config.yaml"
try:
    load_yaml(CONFIG_FILE)
except ConfigError as err:
    sys.exit(f"Configuration error: {err}")


configfile: CONFIG_FILE


report: "workflow/report/workflow.rst"


# Local jobs fork from warm processes instead of importing their stack each (core/build/job_server.py).
onstart:
    job_server.start(workflow)


onsuccess:
    job_server.stop()


onerror:
    job_server.stop()


# A cluster job's Snakemake runs the rules' run: blocks in its own process, as a local build does
# (core/build/snakemake_patches.py); a local build asks for that in profiles/default.
if workflow.remote_exec and not run_blocks_in_threads():
    print(
        "note: this Snakemake's local executor has no __post_init__; each cluster job starts "
        "one more Snakemake process for its run: block (core/build/snakemake_patches.py)",
        file=sys.stderr,
    )


include: "workflow/rules/common.smk"
include: "workflow/rules/rerun_triggers.smk"
include: "workflow/rules/job_resources.smk"
include: "workflow/rules/simulate.smk"
include: "workflow/rules/analyse.smk"
include: "workflow/rules/figures.smk"
include: "workflow/rules/notebooks.smk"
include: "workflow/rules/common_datasets.smk"
include: "workflow/rules/datasets.smk"


rule all:
    input:
        all_targets(),
