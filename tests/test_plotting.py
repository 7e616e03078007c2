"""The house style is seaborn's theme (core.plotting writes it out, so that a figure job does not
import seaborn): after ``apply_style`` matplotlib is set exactly as ``seaborn.set_theme`` sets it,
and the palettes are seaborn's."""

from __future__ import annotations

import matplotlib as mpl
import pytest
import seaborn as sns

from timebandits.core import plotting


def _settings() -> dict:
    return {key: value for key, value in mpl.rcParams.items() if key != "image.cmap"}


@pytest.fixture()
def fresh_rc():
    with mpl.rc_context():
        mpl.rcdefaults()
        yield


def test_apply_style_sets_what_seaborn_set_theme_sets(fresh_rc):
    plotting.apply_style()
    ours = _settings()
    mpl.rcdefaults()
    sns.set_theme(context="paper", style="whitegrid", palette=list(plotting.PALETTE),
                  rc=plotting.STYLE)
    theirs = _settings()
    differing = {key: (ours[key], theirs[key]) for key in ours if ours[key] != theirs[key]}
    assert differing == {}


def test_the_written_out_theme_is_seaborns_paper_whitegrid():
    expected = {**sns.plotting_context("paper"), **sns.axes_style("whitegrid")}
    expected.pop("image.cmap")
    assert plotting.SEABORN_THEME == expected


def test_palettes_are_seaborns():
    assert list(plotting.PALETTE) == sns.color_palette("tab10")
    assert list(plotting.CATEGORY_PALETTE) == sns.color_palette("Set2")
    assert list(plotting.PALETTE_20[10:18]) == sns.color_palette("Dark2")
