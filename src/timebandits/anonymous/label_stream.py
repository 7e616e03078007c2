"""The label stream of a game of Fig. 5 (adversarial.py): slot t's label c_t is the one arm that
pays 1 in that slot. Arms are numbered by decreasing frequency over the whole stream (ties by
name): arm 0 is the most frequent label (:func:`numbered_stream`). The kinds of stream and where
their labels come from are streams.py's.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
EXTENDS = ("stop", "cycle")


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
            raise StreamError(
                f"stream {self.name} has {self.length} labels, fewer than the "
                f"horizon T = {horizon} (extend: stop); shorten T or use "
                "extend: cycle"
            )
        return np.resize(self.labels, horizon) if horizon > self.length else self.labels[:horizon]


def numbered_stream(name: str, values: pd.Series, top: int | None, source: str) -> LabelStream:
    """Number the labels of ``values`` (slot order) by decreasing frequency, ties by name, and
    keep the ``top`` most frequent (all if None), dropping the other slots. A game needs two
    arms: a stream with fewer distinct labels is a StreamError."""
    values = values.astype(str).reset_index(drop=True)
    counts = values.value_counts()
    if counts.size < 2:
        raise StreamError(
            f"stream {name} from {source.split(': ', 1)[0]} has "
            f"{values.size} slots with {counts.size} distinct label(s) "
            f"{list(counts.index)}; a game needs at least 2"
        )
    order = sorted(counts.index, key=lambda label: (-counts[label], label))
    kept = order if top is None else order[:top]
    index = {label: i for i, label in enumerate(kept)}
    mask = values.isin(index)
    labels = values[mask].map(index).to_numpy(dtype=np.int64)
    dropped = int((~mask).sum())
    note = (
        f"; the {top} most frequent labels kept ({dropped} of {values.size} slots dropped)"
        if top is not None
        else ""
    )
    return LabelStream(name, labels, tuple(kept), source + note)


def weekday_names(dates: pd.Series) -> pd.Series:
    return dates.dt.day_of_week.map(dict(enumerate(WEEKDAYS)))
