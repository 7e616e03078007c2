"""The compiled kernels' disk cache is keyed by the whole package source (``timebandits/__init__``):
numba alone would reuse a cached kernel after an edit to a function it inlines from another
module (as TS's kernel inlines ``core.rng``)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numba

import timebandits
from timebandits import _source_digest

PACKAGE = Path(timebandits.__file__).resolve().parent


def test_kernels_cache_under_the_digest_of_the_source():
    cache = os.environ["NUMBA_CACHE_DIR"]
    assert Path(cache).name == _source_digest(PACKAGE)
    assert numba.config.CACHE_DIR == cache


def test_an_edit_to_any_module_moves_the_cache(tmp_path):
    copy = tmp_path / "timebandits"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = _source_digest(copy)
    assert before == _source_digest(PACKAGE)
    rng = copy / "core" / "rng.py"
    rng.write_text(rng.read_text() + "\n# an edit\n")
    assert _source_digest(copy) != before
