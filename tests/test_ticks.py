"""The tick-label convention of every figure (core.pages.ticks): powers of ten on log axes, short
plain numbers on linear ones (250k, 1.5M from 10⁴ on; thousands in every panel of a figure
that has one such axis), never an offset."""

from __future__ import annotations

import matplotlib as mpl
import pytest

from timebandits.core.pages import figure_files, plotting, ticks


@pytest.fixture()
def fresh_rc():
    with mpl.rc_context():
        mpl.rcdefaults()
        yield


@pytest.mark.parametrize(
    "value, label",
    [
        (0, "0"),
        (500, "500"),
        (2000, "2k"),
        (12500, "12.5k"),
        (250000, "250k"),
        (1e6, "1M"),
        (-1.5e6, "−1.5M"),
        (1e7, "10M"),
        (0.25, "0.25"),
    ],
)
def test_short_numbers(value, label):
    assert ticks.short_number(value) == label


@pytest.mark.parametrize(
    "value, label",
    [
        (1e-4, "10⁻⁴"),
        (5e-5, "5×10⁻⁵"),
        (1.0, "10⁰"),
        (10.0, "10¹"),
        (1000.0, "10³"),
        (2e3, "2×10³"),
    ],
)
def test_powers_of_ten_as_the_log_axes_write_them(value, label):
    assert ticks.power_of_ten(value) == label


def _labels(axis) -> list[str]:
    low, high = sorted(axis.get_view_interval())
    return [
        label.get_text()
        for loc, label in zip(axis.get_majorticklocs(), axis.get_majorticklabels())
        if low <= loc <= high
    ]


def test_linear_axes_count_in_thousands_in_every_panel_once_one_needs_it(fresh_rc, tmp_path):
    fig, (big, small, tiny) = plotting.new_figure("double", ncols=3)
    big.plot([0, 1e6], [0, 40000])
    small.plot([0, 10], [0, 4000])
    tiny.plot([0, 1], [0, 0.5])
    figure_files.save_figure(fig, tmp_path / "f.pdf", tmp_path / "f.png")
    assert _labels(big.xaxis) == ["0", "200k", "400k", "600k", "800k", "1M"]
    assert _labels(big.yaxis)[-1] == "40k"
    assert _labels(small.yaxis)[-1] == "4k"  # as the 40k beside it, never 4000
    assert _labels(small.xaxis)[-1] == "10" and _labels(tiny.yaxis)[-1] == "0.5"
    for ax in (big, small, tiny):
        assert ax.xaxis.get_offset_text().get_text() == ""
        assert ax.yaxis.get_offset_text().get_text() == ""


def test_a_figure_without_large_numbers_keeps_them_plain(fresh_rc, tmp_path):
    fig, ax = plotting.new_figure("single")
    ax.plot([0, 10], [0, 4000])
    figure_files.save_figure(fig, tmp_path / "f.pdf", tmp_path / "f.png")
    assert _labels(ax.yaxis)[-1] == "4000"
    assert isinstance(ax.yaxis.get_major_formatter(), ticks.ShortNumber)


def test_labels_a_figure_sets_itself_are_kept(fresh_rc, tmp_path):
    from matplotlib.ticker import FuncFormatter

    fig, ax = plotting.new_figure("single")
    ax.plot([0, 1e5], [0, 1])
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: "x"))
    figure_files.save_figure(fig, tmp_path / "f.pdf", tmp_path / "f.png")
    assert set(_labels(ax.xaxis)) == {"x"}
