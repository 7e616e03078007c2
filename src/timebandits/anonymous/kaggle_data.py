"""The paper's real data for the games of Fig. 5, if a user puts Kaggle's files in ``data/raw/``
(nothing is ever downloaded; a logged-in Kaggle account is needed for them):

- ``kaggle_outbrain`` [top = 10]: Outbrain Click Prediction's ``events.csv``,
  ``clicks_train.csv``, ``promoted_content.csv`` and ``documents_categories.csv``: the clicked ad
  of each display (clicked = 1), in event-timestamp order (stable, then display_id) → its promoted
  document → the document's category of highest confidence (ties: the lowest category_id) = the
  label; displays without a category are dropped.
- ``kaggle_coupon``: Coupon Purchase Prediction's ``coupon_visit_train.csv``: the visits in
  I_DATE order (stable); label = the weekday of I_DATE.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from .label_stream import LabelStream, StreamError, numbered_stream, weekday_names

DATA_DIR = Path("data/raw")
# The Kaggle files each real-data kind reads, with the columns it needs.
KAGGLE_FILES = {
    "kaggle_outbrain": {
        "events.csv": ("display_id", "timestamp"),
        "clicks_train.csv": ("display_id", "ad_id", "clicked"),
        "promoted_content.csv": ("ad_id", "document_id"),
        "documents_categories.csv": ("document_id", "category_id", "confidence_level"),
    },
    "kaggle_coupon": {"coupon_visit_train.csv": ("I_DATE",)},
}
_COMPETITIONS = {
    "kaggle_outbrain": "Outbrain Click Prediction (2016)",
    "kaggle_coupon": "Coupon Purchase Prediction (2015)",
}


def stream_files(spec: dict, data_dir: Path = DATA_DIR) -> list[Path]:
    """The data files a stream reads from ``data_dir`` (the Kaggle kinds; none otherwise)."""
    return [Path(data_dir) / name for name in KAGGLE_FILES.get(spec["kind"], {})]


def check_stream_files(spec: dict, data_dir: Path = DATA_DIR) -> None:
    """For a Kaggle kind: every file is in ``data_dir`` and has the columns the conversion needs
    (only the header is read)."""
    for name, columns in KAGGLE_FILES.get(spec["kind"], {}).items():
        path = Path(data_dir) / name
        if not path.is_file():
            raise StreamError(
                f"stream {spec['kind']} needs {path}, which is missing: it is never "
                f"downloaded; place Kaggle's {name} from the "
                f"{_COMPETITIONS[spec['kind']]} competition there"
            )
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


def _rows(path: Path, usecols: list[str]) -> pd.DataFrame:
    """The ``usecols`` of the CSV at ``path``, which must have at least one row."""
    table = _read_csv(path, usecols=usecols)
    if table.empty:
        raise StreamError(f"{path} has a header and no rows")
    return table


def outbrain_stream(spec: dict, data_dir: Path) -> LabelStream:
    """The ``kaggle_outbrain`` stream from the files in ``data_dir`` (module docstring)."""
    files = {name: Path(data_dir) / name for name in KAGGLE_FILES["kaggle_outbrain"]}
    read = {
        name: _rows(path, usecols=list(KAGGLE_FILES["kaggle_outbrain"][name]))
        for name, path in files.items()
    }
    clicks = read["clicks_train.csv"]
    clicked = clicks[clicks["clicked"] == 1][["display_id", "ad_id"]]
    events = read["events.csv"][["display_id", "timestamp"]]
    displays = clicked.merge(events, on="display_id", how="inner")
    displays = displays.sort_values(["timestamp", "display_id"], kind="stable")
    documents = displays.merge(read["promoted_content.csv"], on="ad_id", how="inner", sort=False)
    categories = (
        read["documents_categories.csv"]
        .sort_values(
            ["document_id", "confidence_level", "category_id"],
            ascending=[True, False, True],
            kind="stable",
        )
        .drop_duplicates("document_id")
    )
    labelled = documents.merge(
        categories[["document_id", "category_id"]], on="document_id", how="inner", sort=False
    )
    if labelled.empty:
        raise StreamError(
            f"{', '.join(map(str, files.values()))}: no clicked display has an "
            "event, a promoted document and a category (the join is empty)"
        )
    labelled = labelled.sort_values(["timestamp", "display_id"], kind="stable")
    return numbered_stream(
        "kaggle_outbrain",
        labelled["category_id"],
        spec.get("top", 10),
        "REAL DATA (Kaggle Outbrain Click Prediction, data/raw/): clicked ad of each "
        "display in event-timestamp order -> promoted document -> its most confident "
        "category",
    )


def coupon_stream(data_dir: Path) -> LabelStream:
    """The ``kaggle_coupon`` stream from the file in ``data_dir`` (module docstring)."""
    path = Path(data_dir) / "coupon_visit_train.csv"
    visits = _rows(path, usecols=["I_DATE"])
    try:
        dates = pd.to_datetime(visits["I_DATE"]).sort_values(kind="stable")
    except (ValueError, TypeError) as err:
        raise StreamError(
            f"{path}: column I_DATE holds a value that is not a date: {str(err).splitlines()[0]}"
        ) from err
    return numbered_stream(
        "kaggle_coupon",
        weekday_names(dates),
        None,
        "REAL DATA (Kaggle Coupon Purchase Prediction, data/raw/"
        "coupon_visit_train.csv): weekday of each visit, in I_DATE order",
    )
