"""Arrays that are slow to derive and cheap to store, kept on disk between processes: a label
stream read from a CSV of 100,000 rows takes about a second, and the workflow reads each stream in
the configuration check, in every simulate job that plays it, and in the analysis jobs.

An entry is one ``.npz`` file named by a digest of everything the arrays depend on (the caller's
``key``: its settings, its code, the package versions, the identity of its input files), holding
the arrays, a JSON ``meta``, the key itself and a SHA-256 of all three. A file that cannot be
read, whose content does not match its digest, or that was made for another key (an entry copied
over another's name) is made again and replaced (atomically), never used. The directory
is the package's ``__pycache__/arrays`` unless ``TIMEBANDITS_CACHE`` names another; deleting it
loses nothing but time, and where it cannot be written every process derives its arrays itself.
"""

from __future__ import annotations

import hashlib
import json
import os
import zipfile
from pathlib import Path
from typing import Callable

import numpy as np

from timebandits.core.atomic import atomic_output
from timebandits.core.sim.jit import PACKAGE


def cache_dir() -> Path:
    return Path(os.environ.get("TIMEBANDITS_CACHE") or PACKAGE / "__pycache__" / "arrays")


def key_text(key: dict) -> str:
    """``key`` as canonical JSON."""
    return json.dumps(key, sort_keys=True, separators=(",", ":"), default=str)


def key_digest(key: dict) -> str:
    """16 hex digits of SHA-256 over ``key`` as canonical JSON."""
    return hashlib.sha256(key_text(key).encode()).hexdigest()[:16]


def _content_digest(arrays: dict[str, np.ndarray], meta: str) -> str:
    digest = hashlib.sha256(meta.encode())
    for name in sorted(arrays):
        array = np.ascontiguousarray(arrays[name])
        digest.update(f"{name}:{array.dtype.str}:{array.shape}".encode())
        digest.update(array.tobytes())
    return digest.hexdigest()


def _read(path: Path, key: str) -> tuple[dict[str, np.ndarray], dict] | None:
    """The entry at ``path`` made for ``key``, or None if it is missing, unreadable, not what it
    says, or made for another key."""
    try:
        with np.load(path, allow_pickle=False) as stored:
            arrays = {name: stored[name] for name in stored.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile):
        return None
    meta, stored_key = arrays.pop("meta", None), arrays.pop("key", None)
    digest = arrays.pop("digest", None)
    if meta is None or digest is None or stored_key is None or str(stored_key) != key:
        return None
    if _content_digest(arrays, str(meta) + key) != str(digest):
        return None
    return arrays, json.loads(str(meta))


def cached_arrays(
    name: str, key: dict, make: Callable[[], tuple[dict[str, np.ndarray], dict]]
) -> tuple[dict[str, np.ndarray], dict]:
    """``make()``'s (arrays, meta) for ``key``: from the cache when a sound entry is there, else
    made, stored and returned. ``meta`` must be JSON; ``name`` only makes the files readable."""
    path = cache_dir() / f"{name}-{key_digest(key)}.npz"
    entry = _read(path, key_text(key))
    if entry is not None:
        return entry
    arrays, meta = make()
    text = json.dumps(meta, sort_keys=True)
    try:
        with atomic_output(path) as tmp, open(tmp, "wb") as handle:
            np.savez(
                handle,
                **arrays,
                meta=np.array(text),
                key=np.array(key_text(key)),
                digest=np.array(_content_digest(arrays, text + key_text(key))),
            )
    except OSError:  # a folder that cannot be written (an installed, read-only package): no cache
        pass
    return arrays, meta
