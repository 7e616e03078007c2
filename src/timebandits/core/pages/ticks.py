"""Tick labels of every figure, one convention for every paper (applied by core.pages.figure_files
when a figure is laid out): powers of ten on log axes (``10³``, ``2×10³``, in Unicode superscripts)
and short plain numbers on linear axes (``2500``; from 10⁴ on ``25k``, ``1.5M``), never an offset or
a detached ``1e6`` in a corner, never more than four digits. Labels are plain text: matplotlib
writes them in mathtext by default, and parsing one label at a time was a third of a figure's
drawing. Minor ticks that draw nothing are not made (``drop_blank_minor_ticks``)."""

from __future__ import annotations

import math
import re

from matplotlib.ticker import LogFormatterSciNotation, NullLocator, ScalarFormatter

_SUPERSCRIPT = str.maketrans("-−0123456789", "⁻⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
_POWER_LABEL = re.compile(
    r"^\$\\mathdefault\{(?:([0-9.]+)\\times)?([0-9.]+)"
    r"(?:\^\{([-−]?[0-9]+)\})?\}\$$"
)
# A linear axis whose largest tick is at least this large is labelled in thousands or millions.
LARGE = 1e4
_UNITS = ((1e6, "M"), (1e3, "k"))


def short_number(value: float) -> str:
    """A large number as a tick label: 0, 500, 2k, 12.5k, 250k, 1M, −1.5M (three significant
    figures at most after the unit)."""
    for unit, suffix in _UNITS:
        if abs(value) >= unit:
            return f"{round(value / unit, 3):g}{suffix}".replace("-", "−")
    return f"{round(value, 3):g}".replace("-", "−")


def power_of_ten(value: float) -> str:
    """A positive value as the log axes write it: ``10⁻⁴``, ``5×10⁻⁵``, ``1`` and ``10`` as
    ``10⁰`` and ``10¹`` (e.g. for a colour bar or a table cell of a log scale)."""
    exponent = math.floor(math.log10(value) + 1e-9)
    mantissa = round(value / 10.0**exponent, 2)
    power = "10" + str(exponent).translate(_SUPERSCRIPT)
    return power if mantissa == 1 else f"{mantissa:g}×{power}"


class PowerOfTen(LogFormatterSciNotation):
    """Log-axis tick labels as matplotlib's default writes them (``10^3``, ``2×10^3``), in
    Unicode superscripts instead of mathtext: ``10³``, ``2×10³``."""

    def __call__(self, x, pos=None):
        label = super().__call__(x, pos)
        match = _POWER_LABEL.match(label)
        if not match:
            return label
        coefficient, base, exponent = match.groups()
        power = base + (exponent or "").translate(_SUPERSCRIPT)
        return f"{coefficient}×{power}" if coefficient else power


class ShortNumber(ScalarFormatter):
    """Linear-axis tick labels: matplotlib's plain numbers (no offset, no scientific notation)
    while every tick in view is below ``large``; otherwise each tick by :func:`short_number`
    (0, 250k, 500k, 750k, 1M), so that no label has more than four digits."""

    def __init__(self, large: float = LARGE):
        super().__init__(useOffset=False, useMathText=False)
        self.set_scientific(False)
        self.large = large
        self.short = False

    def set_locs(self, locs):
        super().set_locs(locs)
        self.short = largest_tick(self.axis, locs) >= self.large

    def __call__(self, x, pos=None):
        return short_number(x) if self.short else super().__call__(x, pos)


def largest_tick(axis, locs) -> float:
    """The size of the largest of ``locs`` in ``axis``'s view (0 when none is)."""
    low, high = sorted(axis.get_view_interval()) if axis else (-math.inf, math.inf)
    slack = 1e-9 * (high - low)
    return max((abs(x) for x in locs if low - slack <= x <= high + slack), default=0.0)


def plain_tick_labels(fig) -> None:
    """Every log axis of ``fig`` labelled by :class:`PowerOfTen` (same base, same labels), every
    linear one by :class:`ShortNumber`, unless a figure set labels of its own. In a figure
    where some linear axis reaches LARGE, every linear axis reaching 1000 counts in thousands
    too (10k beside 4k, never beside 4000)."""
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            for which in ("major", "minor"):
                old = getattr(axis, f"get_{which}_formatter")()
                if type(old) is LogFormatterSciNotation:
                    getattr(axis, f"set_{which}_formatter")(
                        PowerOfTen(
                            old._base,
                            labelOnlyBase=old.labelOnlyBase,
                            minor_thresholds=old.minor_thresholds,
                            linthresh=old._linthresh,
                        )
                    )
                elif type(old) is ScalarFormatter:
                    getattr(axis, f"set_{which}_formatter")(ShortNumber())
    short = [
        axis
        for ax in fig.axes
        for axis in (ax.xaxis, ax.yaxis)
        if isinstance(axis.get_major_formatter(), ShortNumber)
    ]
    if any(largest_tick(axis, axis.get_majorticklocs()) >= LARGE for axis in short):
        for axis in short:
            axis.get_major_formatter().large = 1e3


def drop_blank_minor_ticks(fig) -> None:
    """Minor ticks that draw nothing -- no mark, no grid line, an empty label, as on a log axis
    spanning many decades in seaborn's theme -- are not made. matplotlib makes a tick object
    (two lines, two texts) for every minor tick and measures them at every layout pass
    (measured: 9% of the 101 smoke figures' drawing, more than half of the comparison notebook's
    bound plots); without them the figure draws the same pixels. Axes that share a tick locator
    are decided together."""
    groups: dict[int, list] = {}
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            if not isinstance(axis.get_minor_locator(), NullLocator):
                groups.setdefault(id(axis.minor), []).append(axis)
    for axes in groups.values():
        locs = axes[0].get_minorticklocs()
        if any(axes[0].get_minor_formatter().format_ticks(locs)):
            continue
        ticks = [axis.get_minor_ticks(1)[0] for axis in axes]
        if not any(
            line.get_visible()
            for tick in ticks
            for line in (tick.tick1line, tick.tick2line, tick.gridline)
        ):
            axes[0].set_minor_locator(NullLocator())
