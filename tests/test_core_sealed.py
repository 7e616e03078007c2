"""core/sim/sealed.py: a Parquet file one job writes and another reads carries a digest of its
content; a reader refuses, in one line, a file edited by hand, rewritten without the digest, or
cut short, and reads back exactly what was written otherwise."""

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from timebandits.core.sim.sealed import OutputError, content_digest, read_sealed, write_sealed


def frame():
    """Every kind of column the workflow writes, object columns included (they come back typed)."""
    return pd.DataFrame(
        {
            "algorithm": pd.Series(["ucb", "ts", None], dtype=object),
            "t": [1, 10, 100],
            "regret": [0.5, np.nan, 2.25],
            "ok": [True, False, True],
            "n": pd.Series([1, None, 3], dtype=object),
        }
    )


def test_a_sealed_file_reads_back_what_was_written(tmp_path):
    path = tmp_path / "s.parquet"
    write_sealed(frame(), path, {b"other": b"kept"})
    read = read_sealed(path)
    pd.testing.assert_frame_equal(read, pd.read_parquet(path))
    assert read["regret"].iloc[2] == 2.25 and read["algorithm"].iloc[1] == "ts"
    assert pq.read_schema(path).metadata[b"other"] == b"kept"


def test_the_digest_sees_one_cell_a_name_and_a_type():
    base = content_digest(frame().astype({"n": float}))
    edited = frame().astype({"n": float})
    edited.loc[1, "regret"] = 0.0
    assert content_digest(edited) != base
    assert content_digest(frame().astype({"n": float}).rename(columns={"t": "T"})) != base
    assert content_digest(frame().astype({"n": float, "t": float})) != base


def test_a_file_edited_by_hand_is_refused_in_one_line(tmp_path):
    path = tmp_path / "summary.parquet"
    write_sealed(frame(), path)
    table = pq.read_table(path)  # the edit keeps the footer, digest included
    regret = pa.array([0.5, 0.1, 2.25])
    pq.write_table(table.set_column(table.schema.get_field_index("regret"), "regret", regret), path)
    with pytest.raises(OutputError) as err:
        read_sealed(path)
    message = str(err.value)
    assert "\n" not in message and str(path) in message
    assert "differs from what its job wrote" in message and f"snakemake --force {path}" in message


def test_a_file_rewritten_without_its_digest_is_refused(tmp_path):
    path = tmp_path / "summary.parquet"
    write_sealed(frame(), path)
    pd.read_parquet(path).to_parquet(path, index=False)  # pandas writes its own footer
    with pytest.raises(OutputError, match="carries no content digest"):
        read_sealed(path)


def test_a_file_cut_short_is_unreadable(tmp_path):
    path = tmp_path / "summary.parquet"
    write_sealed(frame(), path)
    path.write_bytes(path.read_bytes()[:200])
    with pytest.raises(OutputError, match=r"unreadable \("):
        read_sealed(path)
