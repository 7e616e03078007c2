"""Write-once outputs: every file is written to a temporary name in its folder and renamed into
place, so an interrupted job never leaves a file that looks like a result."""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path

# Read once at import (os.umask can only be read by setting it, which is not thread-safe).
_UMASK = os.umask(0)
os.umask(_UMASK)


@contextmanager
def atomic_output(path: str | os.PathLike):
    """Yield a temporary path next to ``path``; on success it becomes ``path`` with the usual
    permissions (0666 minus the umask, not mkstemp's 0600); on any error it is removed."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(
        dir=path.parent, prefix=f".{path.name}.", suffix=path.suffix or ".tmp"
    )
    os.close(fd)
    try:
        yield tmp
        os.chmod(tmp, 0o666 & ~_UMASK)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
