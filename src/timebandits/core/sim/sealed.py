"""Sealed Parquet files: what one job writes and another reads (traces, summaries, bound tables)
carries a digest of its own content, and every reader recomputes it.

Snakemake never looks inside a finished output: a summary edited by hand would redraw its figure
and notebook from the edited number, with exit status 0. So the writer stores, in the file's
Parquet footer, a digest of the frame it wrote (column names, dtypes and pandas' hash of every
row, :func:`content_digest`), and :func:`read_sealed` refuses a file whose content no longer
matches it, or that carries none (written by hand, or by an older version of this code), with one
line naming the file and the command that rebuilds it (:class:`OutputError`). The tables for
reading (CSV: claims, tables, scorecard) are not sealed; the pages check what they show of the
claims tables (core/verdicts/scorecard.py).
"""

from __future__ import annotations

import hashlib
import os

import pandas as pd

CONTENT_KEY = b"timebandits.content"
UNSEALED = "carries no content digest (written by older code, or by hand)"


class OutputError(ValueError):
    """A file the workflow made that cannot be used as it is: the message names the file, what is
    wrong and the command that rebuilds it."""

    def __init__(self, path, problem: str):
        super().__init__(
            f"{path}: {problem}; rebuild it with `snakemake --force {path}` "
            f"(and your usual --cores or --profile)"
        )


def content_digest(frame: pd.DataFrame) -> str:
    """sha256 of the frame's column names, their dtypes and pandas' 64-bit hash of each row
    (``hash_pandas_object``, index left out): a frame read back from the file it was written to
    has the same digest; one changed cell, name or type changes it."""
    digest = hashlib.sha256()
    for name, dtype in frame.dtypes.items():
        digest.update(f"{name}\x00{dtype}\x00".encode())
    digest.update(pd.util.hash_pandas_object(frame, index=False).to_numpy().tobytes())
    return digest.hexdigest()


def write_sealed(
    frame: pd.DataFrame, path: str | os.PathLike, metadata: dict[bytes, bytes] | None = None
) -> None:
    """Write ``frame`` to ``path`` as Parquet, its digest (and ``metadata``) in the footer. Call it
    on a temporary path (core/atomic.py), as ``write_atomic`` does."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(frame, preserve_index=False)
    # what a reader will see: an object column comes back typed (strings, floats for None)
    seen = table.to_pandas() if (frame.dtypes == object).any() else frame
    sealed = {
        **(table.schema.metadata or {}),
        **(metadata or {}),
        CONTENT_KEY: content_digest(seen).encode(),
    }
    pq.write_table(table.replace_schema_metadata(sealed), path)


def read_parquet(
    path: str | os.PathLike, error: type[OutputError] = OutputError
) -> tuple[pd.DataFrame, dict[bytes, bytes]]:
    """The frame in ``path`` and its footer's metadata, unchecked; ``error`` (an
    :class:`OutputError`) if the file cannot be read."""
    import pyarrow.parquet as pq

    try:
        metadata = pq.read_schema(path).metadata or {}
        return pd.read_parquet(path), metadata
    except Exception as err:  # noqa: BLE001 (any unreadable file is the same finding)
        raise error(path, f"unreadable ({type(err).__name__})") from err


def seal_problem(frame: pd.DataFrame, metadata: dict[bytes, bytes]) -> str | None:
    """What is wrong with the frame read from a file with this footer metadata, or None."""
    sealed = metadata.get(CONTENT_KEY)
    if sealed is None:
        return UNSEALED
    if sealed.decode() != content_digest(frame):
        return "its content differs from what its job wrote (edited by hand?)"
    return None


def read_sealed(path: str | os.PathLike, error: type[OutputError] = OutputError) -> pd.DataFrame:
    """The frame in ``path``, after checking it against the digest its writer sealed it with;
    ``error`` (an :class:`OutputError`) if it cannot be read, carries no digest or no longer
    matches it."""
    frame, metadata = read_parquet(path, error)
    if problem := seal_problem(frame, metadata):
        raise error(path, problem)
    return frame
