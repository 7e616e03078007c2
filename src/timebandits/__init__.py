"""timebandits: replication of five papers on bandits with time or resources.

Compiled kernels are cached on disk by numba, which invalidates a cached function only when its
own file changes -- not when a function it calls (or inlines) from another module does. So the
cache lives in a directory named by a digest of the package's whole source: after any edit, every
kernel compiles afresh instead of running stale code. The base directory is the package's
``__pycache__/numba`` unless ``TIMEBANDITS_NUMBA_CACHE`` names another.
"""

import hashlib
import os
import sys
from pathlib import Path


def _source_digest(package: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _use_source_keyed_numba_cache() -> None:
    package = Path(__file__).resolve().parent
    base = os.environ.get("TIMEBANDITS_NUMBA_CACHE") or str(package / "__pycache__" / "numba")
    cache = os.path.join(base, _source_digest(package))
    os.environ["NUMBA_CACHE_DIR"] = cache
    if "numba" in sys.modules:  # numba read its config already: set it where the locator looks
        sys.modules["numba"].config.CACHE_DIR = cache


_use_source_keyed_numba_cache()
