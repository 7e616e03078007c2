"""The disk cache (core/sim/disk_cache.py): an entry is made once per key and read back as stored; a
damaged or altered file is made again, never used; a changed input is a new key, so a stream
read from a Kaggle CSV follows the file."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from timebandits.anonymous import streams
from timebandits.core.sim import disk_cache


@pytest.fixture()
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TIMEBANDITS_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _maker(calls, labels):
    def make():
        calls.append(1)
        return {"labels": np.asarray(labels, dtype=np.int64)}, {"names": ["a", "b"]}

    return make


def test_an_entry_is_made_once_and_read_back_as_stored(cache):
    calls = []
    first = disk_cache.cached_arrays("stream", {"spec": 1}, _maker(calls, [0, 1, 1]))
    again = disk_cache.cached_arrays("stream", {"spec": 1}, _maker(calls, [9, 9, 9]))
    assert calls == [1]
    assert again[1] == first[1] == {"names": ["a", "b"]}
    assert again[0]["labels"].tolist() == [0, 1, 1] and again[0]["labels"].dtype == np.int64
    other = disk_cache.cached_arrays("stream", {"spec": 2}, _maker(calls, [1, 0]))
    assert calls == [1, 1] and other[0]["labels"].tolist() == [1, 0]
    assert len(list(cache.glob("stream-*.npz"))) == 2


@pytest.mark.parametrize("damage", ["truncated", "altered", "empty"])
def test_a_damaged_or_altered_entry_is_made_again(cache, damage):
    calls = []
    disk_cache.cached_arrays("stream", {"spec": 1}, _maker(calls, [0, 1, 1]))
    (path,) = cache.glob("stream-*.npz")
    if damage == "truncated":
        path.write_bytes(path.read_bytes()[:100])
    elif damage == "empty":
        path.write_bytes(b"")
    else:  # other labels under the stored digest
        with np.load(path) as stored:
            kept = {name: stored[name] for name in stored.files}
        with open(path, "wb") as handle:
            np.savez(handle, **{**kept, "labels": np.array([1, 1, 1])})
    arrays, _ = disk_cache.cached_arrays("stream", {"spec": 1}, _maker(calls, [0, 1, 1]))
    assert calls == [1, 1] and arrays["labels"].tolist() == [0, 1, 1]
    assert disk_cache._read(path, disk_cache.key_text({"spec": 1})) is not None  # made again


def test_an_entry_copied_over_another_keys_name_is_made_again(cache):
    # the 7-label stream's entry copied over the 10-label one's: sound in itself, but made for
    # another key, so it is never used under this name
    calls = []
    disk_cache.cached_arrays("stream", {"labels": 10}, _maker(calls, [0, 1, 2]))
    disk_cache.cached_arrays("stream", {"labels": 7}, _maker(calls, [6, 6]))
    ten = cache / f"stream-{disk_cache.key_digest({'labels': 10})}.npz"
    seven = cache / f"stream-{disk_cache.key_digest({'labels': 7})}.npz"
    ten.write_bytes(seven.read_bytes())
    arrays, _ = disk_cache.cached_arrays("stream", {"labels": 10}, _maker(calls, [0, 1, 2]))
    assert calls == [1, 1, 1] and arrays["labels"].tolist() == [0, 1, 2]
    assert disk_cache._read(ten, disk_cache.key_text({"labels": 10})) is not None


def test_a_folder_that_cannot_be_written_only_costs_time(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("TIMEBANDITS_CACHE", str(blocker))
    calls = []
    for _ in range(2):
        arrays, meta = disk_cache.cached_arrays("stream", {"spec": 1}, _maker(calls, [0, 1]))
        assert arrays["labels"].tolist() == [0, 1] and meta == {"names": ["a", "b"]}
    assert calls == [1, 1]


def test_a_stream_follows_its_kaggle_file(cache, tmp_path):
    path = tmp_path / "coupon_visit_train.csv"
    pd.DataFrame({"I_DATE": ["2012-01-01", "2012-01-02"]}).to_csv(path, index=False)
    streams._cached.cache_clear()
    assert streams.load_stream({"kind": "kaggle_coupon"}, tmp_path).arm_names == (
        "Monday",
        "Sunday",
    )
    pd.DataFrame({"I_DATE": ["2012-01-03", "2012-01-03", "2012-01-04"]}).to_csv(path, index=False)
    streams._cached.cache_clear()
    stream = streams.load_stream({"kind": "kaggle_coupon"}, tmp_path)
    assert stream.arm_names == ("Tuesday", "Wednesday") and stream.length == 3
    streams._cached.cache_clear()
