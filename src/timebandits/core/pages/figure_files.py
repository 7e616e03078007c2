"""A figure written out, as every figure of every paper is (core.pages.plotting's house style):
laid out once at the PNG's resolution (tick labels by core.ticks' convention, hidden bands noted
in the legend), then saved as PDF and PNG, each atomically and without timestamps (same summary,
same bytes), the PNG from the pixels of that one draw where they hold all of it; or, for a
notebook, the PNG's bytes."""

from __future__ import annotations

import io
import os
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import to_rgba
from matplotlib.image import imsave

from timebandits.core.atomic import atomic_output
from timebandits.core.pages.font_subsets import drop_layout_tables
from timebandits.core.pages.plotting import note_hidden_bands
from timebandits.core.pages.ticks import drop_blank_minor_ticks, plain_tick_labels


def save_figure(fig, pdf: str | os.PathLike, png: str | os.PathLike) -> None:
    """Save as PDF and PNG, each atomically, without timestamps (same summary, same bytes). The
    first draw lays the figure out and finds the tight bounding box (:func:`lay_out`); the PDF
    costs one more draw and the PNG none when that draw's pixels hold all of it
    (:func:`png_from_canvas`)."""
    tight, bbox = lay_out(fig)
    drop_layout_tables()
    with atomic_output(Path(pdf)) as tmp:
        fig.savefig(tmp, format="pdf", metadata={"CreationDate": None}, bbox_inches=bbox)
    with atomic_output(Path(png)) as tmp:
        if not png_from_canvas(fig, tight, bbox, tmp):
            fig.savefig(tmp, format="png", metadata={"Software": None}, bbox_inches=bbox)
    plt.close(fig)


def png_bytes(fig) -> bytes:
    """The figure as a PNG cropped to its drawing (``bbox_inches="tight"``), from one draw when
    the drawing lies on the canvas, and closed."""
    tight, bbox = lay_out(fig)
    buffer = io.BytesIO()
    if not png_from_canvas(fig, tight, bbox, buffer):
        fig.savefig(buffer, format="png", metadata={"Software": None}, bbox_inches=bbox)
    plt.close(fig)
    return buffer.getvalue()


def lay_out(fig):
    """Draw ``fig`` once at the PNG's resolution, which lays it out; return its tight bounding
    box and that box padded as savefig pads it (inches). The layout engine is then removed, not
    replaced by matplotlib's placeholder, which would make each ``savefig`` lay the figure out
    once more."""
    plain_tick_labels(fig)
    drop_blank_minor_ticks(fig)
    fig.set_dpi(plt.rcParams["savefig.dpi"])  # text extents as the PNG measures them
    note_hidden_bands(fig)
    fig.canvas.draw()
    with plt.rc_context({"figure.autolayout": False, "figure.constrained_layout.use": False}):
        fig.set_layout_engine(None)
    tight = fig.get_tightbbox(fig.canvas.get_renderer())
    return tight, tight.padded(plt.rcParams["savefig.pad_inches"])


def png_from_canvas(fig, tight, bbox, path) -> bool:
    """Write the PNG that ``savefig(bbox_inches=bbox)`` would draw, from the pixels the last draw
    left on the canvas: cropped to ``bbox`` (in inches) and padded with the figure's face colour
    where ``bbox`` extends past the canvas. It needs the drawing (``tight``) to lie on the
    canvas; returns False, writing nothing, when it does not (then savefig draws it)."""
    width_in, height_in = fig.get_size_inches()
    if min(tight.x0, tight.y0) < -1e-6 or tight.x1 > width_in + 1e-6 or tight.y1 > height_in + 1e-6:
        return False
    canvas = np.asarray(fig.canvas.buffer_rgba())
    height, width = canvas.shape[:2]
    x0, y0 = round(bbox.x0 * fig.dpi), round(bbox.y0 * fig.dpi)  # pixels, y upwards; the
    x1, y1 = x0 + int(bbox.width * fig.dpi), y0 + int(bbox.height * fig.dpi)  # size savefig gives
    face = np.round(np.array(to_rgba(fig.get_facecolor())) * 255)
    image = np.empty((y1 - y0, x1 - x0, 4), dtype=np.uint8)
    image[:] = face.astype(np.uint8)
    left, right = max(x0, 0), min(x1, width)
    top, bottom = max(height - y1, 0), min(height - y0, height)  # rows, downwards
    image[top - (height - y1) : bottom - (height - y1), left - x0 : right - x0] = canvas[
        top:bottom, left:right
    ]
    imsave(path, image, format="png", dpi=fig.dpi, metadata={"Software": None})
    return True
