"""The compiled kernels' disk cache is keyed by the whole package source (``core.sim.jit``): numba
alone would reuse a cached kernel after an edit to a function it inlines from another module (as
TS's kernel inlines ``core.sim.rng``). Kernels are compiled at their first call, and importing a
module that defines them does not import numba."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

from timebandits.core.sim import jit, rng


def test_kernels_cache_under_the_digest_of_the_source():
    rng.uniform(np.uint64(1), 0)  # the first call of a kernel points numba at its cache
    import numba

    cache = os.environ["NUMBA_CACHE_DIR"]
    assert Path(cache).name == jit.source_digest()
    assert numba.config.CACHE_DIR == cache


def test_an_edit_to_any_module_moves_the_cache(tmp_path):
    copy = tmp_path / "timebandits"
    shutil.copytree(jit.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = jit.source_digest(copy)
    assert before == jit.source_digest(jit.PACKAGE)
    rng_copy = copy / "core" / "sim" / "rng.py"
    rng_copy.write_text(rng_copy.read_text() + "\n# an edit\n")
    assert jit.source_digest(copy) != before


def test_a_kernel_is_bound_in_place_of_its_stand_in_after_the_first_call():
    rng.splitmix64(np.uint64(3), 1)
    import numba

    assert isinstance(rng.splitmix64, numba.core.registry.CPUDispatcher)
    assert isinstance(rng.uniform, numba.core.registry.CPUDispatcher)


ANALYSIS_MODULES = [
    f"timebandits.{paper}.{part}"
    for paper in ("farewell", "censored", "anonymous", "continuous", "delaydep")
    for part in ("figures", "analysis", "claims", "theory", "report", "simulation")
]


def test_importing_every_paper_module_does_not_import_numba():
    code = (
        "import importlib, sys\n"
        f"for name in {ANALYSIS_MODULES!r}:\n"
        "    importlib.import_module(name)\n"
        "print(sorted(m for m in ('numba', 'seaborn') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_job_that_forbids_kernels_cannot_call_one():
    code = (
        "import numpy as np\n"
        "from timebandits.core.sim import jit, rng\n"
        "jit.forbid_kernels('figure')\n"
        "rng.uniform(np.uint64(1), 0)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode != 0
    assert "a figure job does not simulate, but called the compiled kernel" in out.stderr
    assert "kernel timebandits.core.sim.rng.uniform:" in out.stderr
