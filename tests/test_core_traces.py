"""core/sim/traces.py, checkpoints.py, provenance.py, seeding.py and config.repetition_chunks: the
plumbing every paper shares (trace files, checkpoint grids, provenance rows, seeds, job chunks)."""

import os
import zlib

import numpy as np
import pandas as pd
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from timebandits.core.config import repetition_chunks
from timebandits.core.pages.provenance import provenance_table
from timebandits.core.sim.checkpoints import checkpoint_grid
from timebandits.core.sim.seeding import environment_seed, key64, policy_seed, stable_id
from timebandits.core.sim.traces import (
    ID_COLUMNS,
    TraceError,
    algorithm_trace,
    checkpoint_table,
    concat_traces,
    footer_problem,
    read_trace,
    trace_contract,
    write_atomic,
    write_trace,
)

# An experiment of 4 repetitions of 2 algorithms with 3 checkpoints (1, 10, 100); chunk_work 40
# cuts it into repetitions [0, 2) and [2, 4).
PAPER = {
    "paper": {"key": "p"},
    "algorithms": {"a": {"policy": "x"}, "b": {"policy": "x", "params": {"c": 1}}},
    "experiments": {
        "e": {
            "horizon": 10,
            "repetitions": 4,
            "algorithms": ["a", "b"],
            "checkpoints": 3,
            "environment": {"means": [0.5]},
        }
    },
}
CONFIG = {
    "scale": "full",
    "chunk_work": 40,
    "base_seed": 7,
    "scales": {"full": {"max_horizon": None, "max_repetitions": None, "checkpoints": 10}},
}


def chunk(reps, ts=(1, 10, 100), algorithm="a"):
    return pd.DataFrame(
        [
            {"algorithm": algorithm, "repetition": r, "t": t, "regret": float(r * 1000 + t)}
            for r in reps
            for t in ts
        ]
    )


def leftovers(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# --------------------------------------------------------------------------- write_trace


def test_write_trace_sorts_and_round_trips(tmp_path):
    frame = chunk([1, 0]).sample(frac=1.0, random_state=0)
    path = tmp_path / "deep" / "er" / "trace.parquet"  # parent folders are created
    write_trace(frame, path)
    back = read_trace(path)
    assert list(back.columns) == ["algorithm", "repetition", "t", "regret"]
    assert list(zip(back["repetition"], back["t"])) == [
        (0, 1),
        (0, 10),
        (0, 100),
        (1, 1),
        (1, 10),
        (1, 100),
    ]
    assert list(back["regret"]) == [1.0, 10.0, 100.0, 1001.0, 1010.0, 1100.0]
    assert leftovers(path.parent) == []


@pytest.mark.parametrize("drop", list(ID_COLUMNS))
def test_write_trace_refuses_missing_id_columns(tmp_path, drop):
    path = tmp_path / "trace.parquet"
    with pytest.raises(ValueError, match=drop):
        write_trace(chunk([0]).drop(columns=drop), path)
    assert not path.exists()


def test_write_trace_refuses_duplicated_rows(tmp_path):
    frame = pd.concat([chunk([0, 1]), chunk([1], ts=(10,))], ignore_index=True)  # (1, 10) twice
    path = tmp_path / "trace.parquet"
    with pytest.raises(ValueError, match="duplicated"):
        write_trace(frame, path)
    assert not path.exists()
    # the same t in different repetitions, or different t in one repetition, is fine
    write_trace(chunk([0, 1]), path)
    assert path.exists()


# --------------------------------------------------------------------------- write_atomic


def test_write_atomic_cleans_up_when_writer_raises(tmp_path):
    path = tmp_path / "out.parquet"

    def broken(frame, tmp):
        with open(tmp, "w") as fh:
            fh.write("half a file")
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError, match="disk full"):
        write_atomic(chunk([0]), path, writer=broken)
    assert not path.exists()
    assert list(tmp_path.iterdir()) == []  # no temporary file left behind


def test_write_atomic_keeps_previous_file_on_interrupt(tmp_path):
    path = tmp_path / "out.csv"
    write_atomic(pd.DataFrame({"x": [1, 2]}), path)

    def interrupted(frame, tmp):
        raise KeyboardInterrupt  # BaseException, not Exception

    with pytest.raises(KeyboardInterrupt):
        write_atomic(pd.DataFrame({"x": [9]}), path, writer=interrupted)
    assert list(pd.read_csv(path)["x"]) == [1, 2]
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]


def test_write_atomic_format_by_suffix(tmp_path):
    frame = pd.DataFrame({"a": [1, 2], "b": ["x", "y"]})
    write_atomic(frame, tmp_path / "f.csv")
    write_atomic(frame, tmp_path / "f.parquet")
    assert (tmp_path / "f.csv").read_text().splitlines() == ["a,b", "1,x", "2,y"]
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "f.parquet"), frame, check_dtype=False)
    calls = []
    write_atomic(
        frame,
        tmp_path / "g.bin",
        writer=lambda f, tmp: calls.append(tmp) or open(tmp, "w").write("custom"),
    )
    assert (tmp_path / "g.bin").read_text() == "custom"
    assert calls and os.path.dirname(calls[0]) == str(tmp_path)  # temp file in the same folder
    assert leftovers(tmp_path) == []


def test_write_atomic_respects_umask(tmp_path):
    umask = os.umask(0)
    os.umask(umask)
    path = tmp_path / "out.parquet"
    write_atomic(chunk([0]), path)
    assert (os.stat(path).st_mode & 0o777) == (0o666 & ~umask)


# --------------------------------------------------------------------------- concat_traces


def test_concat_traces_sorts_chunks(tmp_path):
    paths = []
    for i, reps in enumerate([[4, 5], [0, 1, 2, 3], [6]]):
        paths.append(tmp_path / f"chunk{i}.parquet")
        write_trace(chunk(reps), paths[-1])
    joined = concat_traces(paths)
    assert list(joined.index) == list(range(7 * 3))
    assert list(joined["repetition"]) == [r for r in range(7) for _ in range(3)]
    assert list(joined["t"]) == [1, 10, 100] * 7
    pd.testing.assert_frame_equal(joined, chunk(range(7)), check_dtype=False)


def test_concat_traces_refuses_overlap(tmp_path):
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    write_trace(chunk([0, 1, 2]), a)
    write_trace(chunk([2, 3]), b)  # repetition 2 in both chunks
    with pytest.raises(ValueError, match="overlap"):
        concat_traces([a, b])
    with pytest.raises(ValueError, match="overlap"):
        concat_traces([a, a])


def test_trace_reader_joins_the_configured_chunks(tmp_path):
    # 4 repetitions of horizon 10, 2 algorithms, chunk_work 40 -> chunks [0, 2) and [2, 4) of
    # both algorithms; a stale chunk from another chunking in the same folder is never read.
    from timebandits.core.build.workflow import chunk_contracts, trace_reader

    paper, config = PAPER, CONFIG
    root = f"{tmp_path}/"
    chunks = [path for path, _ in chunk_contracts(root, paper, config, "e")]
    assert [c.rsplit("/", 1)[1] for c in chunks] == ["reps0-2.parquet", "reps2-4.parquet"]
    for (start, stop), path in zip([(0, 2), (2, 4)], chunks):
        reps = range(start, stop)
        b = chunk(reps, algorithm="b").assign(extra=1.0)  # a metric only b reports
        write_trace(
            pd.concat([chunk(reps), b], ignore_index=True),
            path,
            trace_contract(paper, config, "e", start, stop),
        )
    write_trace(chunk([0, 1, 2, 3]), f"{tmp_path}/results/traces/p/e/reps0-4.parquet")
    trace_of = trace_reader(root, paper, config)
    expected = chunk(range(4)).drop(columns="algorithm")
    pd.testing.assert_frame_equal(trace_of("e", "a"), expected, check_dtype=False)
    pd.testing.assert_frame_equal(trace_of("e", "b"), expected.assign(extra=1.0), check_dtype=False)
    with pytest.raises(KeyError, match="does not run algorithm 'c'"):
        trace_of("e", "c")
    with pytest.raises(KeyError, match="no experiment 'f'"):
        trace_of("f", "a")


def test_algorithm_trace_keeps_a_metric_with_some_values(tmp_path):
    frame = pd.concat([chunk([0]), chunk([0], algorithm="b")], ignore_index=True)
    frame["partial"] = [np.nan, 1.0, np.nan, np.nan, np.nan, np.nan]
    assert "partial" in algorithm_trace(frame, "a").columns
    assert "partial" not in algorithm_trace(frame, "b").columns
    with pytest.raises(KeyError, match="'z'"):
        algorithm_trace(frame, "z")


# --------------------------------------------------------------------------- trace contracts


def two_algorithms(reps):
    return pd.concat([chunk(reps), chunk(reps, algorithm="b")], ignore_index=True)


def test_a_chunk_carries_its_contract_and_reads_back_checked(tmp_path):
    contract = trace_contract(PAPER, CONFIG, "e", 0, 2)
    assert contract == {
        "paper": "p",
        "experiment": "e",
        "repetitions": [0, 2],
        "algorithms": ["a", "b"],
        "checkpoints": 3,
        "settings": contract["settings"],
    }
    path = tmp_path / "reps0-2.parquet"
    write_trace(two_algorithms([0, 1]), path, contract)
    assert footer_problem(path, contract) is None
    pd.testing.assert_frame_equal(read_trace(path, contract), read_trace(path))
    with pytest.raises(ValueError, match="does not hold its chunk: repetitions"):
        write_trace(two_algorithms([0]), tmp_path / "short.parquet", contract)


def test_a_truncated_chunk_is_unreadable_in_its_footer_and_to_every_reader(tmp_path):
    contract = trace_contract(PAPER, CONFIG, "e", 0, 2)
    path = tmp_path / "reps0-2.parquet"
    write_trace(two_algorithms([0, 1]), path, contract)
    os.truncate(path, 100)
    assert footer_problem(path, contract).startswith("unreadable (")
    with pytest.raises(
        TraceError,
        match=r"reps0-2.parquet: unreadable .*; rebuild it with "
        r"`snakemake --force .*reps0-2.parquet`",
    ):
        read_trace(path, contract)


def test_a_chunk_missing_a_repetition_is_incomplete_in_its_footer_and_rows(tmp_path):
    contract = trace_contract(PAPER, CONFIG, "e", 0, 2)
    path = tmp_path / "reps0-2.parquet"
    write_trace(two_algorithms([0, 1]), path, contract)
    # a valid parquet file with its contract, one repetition removed (as in the issue)
    table = pq.read_table(path)
    pq.write_table(table.filter(pc.equal(table["repetition"], 0)), path)
    assert footer_problem(path, contract) == "6 rows, expected 12 (incomplete)"
    with pytest.raises(TraceError, match=r"repetitions \[1\] missing or extra"):
        read_trace(path, contract)


def test_a_chunk_from_other_settings_is_refused_by_readers_and_left_to_the_rerun_trigger(tmp_path):
    other = {
        **PAPER,
        "algorithms": {**PAPER["algorithms"], "b": {"policy": "x", "params": {"c": 2}}},
    }
    path = tmp_path / "reps0-2.parquet"
    write_trace(two_algorithms([0, 1]), path, trace_contract(other, CONFIG, "e", 0, 2))
    contract = trace_contract(PAPER, CONFIG, "e", 0, 2)
    assert footer_problem(path, contract) is None  # a config edit: Snakemake's params rerun it
    with pytest.raises(TraceError, match="made by other settings"):
        read_trace(path, contract)
    with pytest.raises(TraceError, match="holds other repetitions"):
        read_trace(path, trace_contract(PAPER, CONFIG, "e", 2, 4))
    write_trace(two_algorithms([0, 1]), path)  # no contract at all
    assert footer_problem(path, contract).startswith("no contract")


# --------------------------------------------------------------------------- checkpoint_grid


def test_checkpoint_grid_docstring_example():
    # log part geomspace(1, 100, 5) -> 1, 3.16, 10, 31.6, 100 (floored);
    # linear part 20, 40, 60, 80, 100.
    assert checkpoint_grid(100, 10).tolist() == [1, 3, 10, 20, 31, 40, 60, 80, 100]


@pytest.mark.parametrize(
    "horizon, n_points, first",
    [
        (1, 2, 1),
        (2, 2, 1),
        (100, 10, 1),
        (1000, 7, 1),
        (20000, 60, 1),
        (1e4, 30, 5),
        (10**7, 400, 1),
        (1.0e7, 60, 1),
        (123457, 33, 3),
    ],
)
def test_checkpoint_grid_properties(horizon, n_points, first):
    grid = checkpoint_grid(horizon, n_points, first)
    assert grid.dtype.kind == "i"
    assert np.all(np.diff(grid) > 0)  # strictly increasing, hence unique
    assert grid[-1] == int(horizon)
    assert grid[0] >= max(first, 1)
    assert grid[0] == min(first, int(horizon))  # the log part starts at ``first``
    assert len(grid) <= n_points + 1  # "about n_points" (+ the horizon)
    if horizon >= 10 * n_points:  # few collisions when there is room
        assert len(grid) >= 0.8 * n_points


def test_checkpoint_grid_first_clipped():
    assert checkpoint_grid(50, 4, first=0)[0] == 1
    assert checkpoint_grid(50, 4, first=80).tolist() == [50]


@pytest.mark.parametrize("horizon, n_points", [(0, 10), (0.5, 10), (-5, 10), (100, 1), (100, 0)])
def test_checkpoint_grid_errors(horizon, n_points):
    with pytest.raises(ValueError):
        checkpoint_grid(horizon, n_points)


@pytest.mark.parametrize("n_points", [100, 200, 400])
def test_checkpoint_grid_has_decade_points_for_1e7(n_points):
    # decade_ratio reads m at the checkpoints nearest T/10 and T/100; for the paper's T = 10^7 at
    # the full-scale 400 checkpoints they must be within 2% (they are exact: the linear part
    # has step T/200, which divides both 10^6 and 10^5).
    T = 10**7
    grid = checkpoint_grid(T, n_points).astype(float)
    for target in (T / 10, T / 100):
        nearest = grid[np.argmin(np.abs(grid - target))]
        assert abs(nearest / target - 1) <= 0.02, (n_points, target, nearest)


# --------------------------------------------------------------------------- provenance_table


def test_provenance_table_rows_and_dotted_keys():
    paper = {
        "algorithms": {
            "a": {
                "label": "A",
                "params": {"radius_factor": 2.0, "deep": {"zero": 0}},
                "provenance": {
                    "radius_factor": {"source": "reconstructed", "why": "as commonly stated"},
                    "deep.zero": {"source": "assumed", "why": "nested, falsy value"},
                    "tie_break": {"source": "assumed", "why": "no such parameter"},
                },
            },
            "b": {"label": "B", "params": {"x": 1}},  # no provenance
        },
        "experiments": {
            "e": {
                "horizon": 100,
                "environment": {"delay_pmf": [[0.5, 0.5]], "reward_prob": [1.0]},
                "provenance": {
                    "environment.delay_pmf": {"source": "reconstructed", "why": "figure lost"},
                    "horizon": {"source": "paper", "why": "Sec. 7"},
                    "environment.missing.deeper": {"source": "assumed", "why": "absent"},
                },
            },
        },
    }
    table = provenance_table(paper)
    assert list(table.columns) == ["scope", "key", "value", "source", "why"]
    rows = [tuple(r) for r in table[["scope", "key", "value", "source"]].itertuples(index=False)]
    assert rows == [
        ("algorithm a", "radius_factor", "2.0", "reconstructed"),  # resolved in params
        ("algorithm a", "deep.zero", "0", "assumed"),  # 0 is kept, not blanked
        ("algorithm a", "tie_break", "", "assumed"),  # names no field -> ""
        ("experiment e", "environment.delay_pmf", "[[0.5, 0.5]]", "reconstructed"),
        ("experiment e", "horizon", "100", "paper"),
        ("experiment e", "environment.missing.deeper", "", "assumed"),
    ]
    assert table.loc[0, "why"] == "as commonly stated"


def test_provenance_table_groups_identical_entries():
    shared = {"source": "paper", "why": "Sec. 5"}
    paper = {
        "algorithms": {},
        "experiments": {
            "e1": {"horizon": 100, "provenance": {"horizon": shared}},
            "e2": {"horizon": 100, "provenance": {"horizon": shared}},
            "e3": {"horizon": 200, "provenance": {"horizon": shared}},  # other value
            "e4": {"horizon": 100, "provenance": {"horizon": {"source": "assumed", "why": "x"}}},
        },
    }
    table = provenance_table(paper)
    assert table[["scope", "value", "source"]].values.tolist() == [
        ["experiment e1, e2", "100", "paper"],
        ["experiment e3", "200", "paper"],
        ["experiment e4", "100", "assumed"],
    ]


def test_provenance_table_empty():
    table = provenance_table({"algorithms": {}, "experiments": {"e": {"horizon": 1}}})
    assert table.empty
    assert list(table.columns) == ["scope", "key", "value", "source", "why"]


# --------------------------------------------------------------------------- seeding


def _state(seq):
    return seq.generate_state(4).tolist()


def test_stable_id_is_crc32_of_the_text():
    assert stable_id("farewell") == 2095578565 == zlib.crc32(b"farewell")
    assert stable_id("fig1a") == zlib.crc32(b"fig1a")
    assert stable_id("fig1a") != stable_id("fig1b")
    assert stable_id("é") == zlib.crc32("é".encode("utf-8"))


def test_environment_seed_shared_policy_seed_per_algorithm():
    env = environment_seed(42, "farewell", "fig1a", 3)
    assert _state(env) == _state(environment_seed(42, "farewell", "fig1a", 3))
    pol_a = policy_seed(42, "farewell", "fig1a", "wait_ucb", 3)
    pol_b = policy_seed(42, "farewell", "fig1a", "ucb_simplex", 3)
    assert _state(pol_a) == _state(policy_seed(42, "farewell", "fig1a", "wait_ucb", 3))
    assert _state(pol_a) != _state(pol_b)
    assert _state(env) not in (_state(pol_a), _state(pol_b))
    assert key64(pol_a) != key64(pol_b)
    assert key64(env) == key64(environment_seed(42, "farewell", "fig1a", 3))
    assert isinstance(key64(env), np.uint64)


@pytest.mark.parametrize(
    "other",
    [
        (43, "farewell", "fig1a", 3),  # base seed
        (42, "other", "fig1a", 3),  # paper
        (42, "farewell", "fig1b", 3),  # experiment
        (42, "farewell", "fig1a", 4),  # repetition
        (42, "farewell", "fig1a", 0),  # repetition 0 (a trailing zero must still count)
    ],
)
def test_seeds_depend_on_every_identifier(other):
    base = (42, "farewell", "fig1a", 3)
    assert _state(environment_seed(*other)) != _state(environment_seed(*base))
    *head, rep = other
    assert _state(policy_seed(*head, "wait_ucb", rep)) != _state(
        policy_seed(*base[:3], "wait_ucb", base[3])
    )


def test_environment_seeds_distinct_over_repetitions():
    keys = {int(key64(environment_seed(0, "farewell", "fig1a", r))) for r in range(200)}
    assert len(keys) == 200


# --------------------------------------------------------------------------- repetition_chunks


@pytest.mark.parametrize(
    "reps, horizon, work, expected",
    [
        (10, 1e7, 4e7, [(0, 4), (4, 8), (8, 10)]),  # 4 repetitions per job
        (2000, 1e4, 1e8, [(0, 2000)]),  # 10^4 per job > 2000: one job
        (3, 1e9, 1e8, [(0, 1), (1, 2), (2, 3)]),  # horizon > work: still 1 per job
        (6, 10, 30, [(0, 3), (3, 6)]),  # exact division
        (0, 10, 30, []),
    ],
)
def test_repetition_chunks(reps, horizon, work, expected):
    chunks = repetition_chunks(reps, horizon, work)
    assert chunks == expected
    assert repetition_chunks(reps, horizon / 2, work, algorithms=2) == expected
    assert [r for a, b in chunks for r in range(a, b)] == list(range(reps))


def test_checkpoint_table_is_pandas_pivot():
    # the same frame as pivot: dtype kept on a full grid, NaN where a cell has no row, and a
    # repeated (t, repetition) refused
    trace = pd.DataFrame(
        {
            "repetition": [1, 0, 1, 0, 2],
            "t": [5, 5, 1, 1, 5],
            "plays": [3, 4, 1, 2, 7],
            "regret": [0.5, 0.25, 0.1, 0.2, 0.75],
        }
    )
    full = trace.iloc[:4]
    for frame, metric in [(full, "plays"), (full, "regret"), (trace, "plays"), (trace, "regret")]:
        pd.testing.assert_frame_equal(
            checkpoint_table(frame, metric),
            frame.pivot(index="t", columns="repetition", values=metric),
            check_exact=True,
        )
    # and the same memory layout, so that a mean over the repetitions adds in the same order
    assert checkpoint_table(full, "regret").to_numpy().flags["C_CONTIGUOUS"]
    with pytest.raises(ValueError, match="duplicate"):
        checkpoint_table(pd.concat([trace, trace.iloc[:1]]), "plays")
