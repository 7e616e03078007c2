"""A figure's thumbnail for the front page (``figures/<paper>/thumbnails/<figure>.png``): its
main panel, cut from the pixels the figure was just drawn with (never drawn again), shrunk only
so far that its tick labels still read (7 pt at 200 dpi, 19 px, become 10.5 px) and stored in a
palette of a few colours: about 7 kB, where the whole figure is 100 kB and unreadable at that
size. The panel keeps its title, axis labels and tick labels; the figure's legend and caption
are a click away (the thumbnail links to the figure in its notebook)."""

from __future__ import annotations

import os
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.text import Text
from matplotlib.transforms import Bbox
from PIL import Image, ImageChops

from timebandits.core.atomic import atomic_output

SCALE = 0.55
BOX = (640, 400)  # at most, in pixels: a panel larger than this shrinks further to fit
# Colours of the palette: a plot has few, and anti-aliased text keeps its shape with this many.
COLOURS = 96
PAD = 6  # pixels of the figure kept around the panel's drawing


def main_axes(fig):
    """The panel a thumbnail shows, None for a figure of one panel (shown whole): in reading
    order (top to bottom, then left to right), the first panel that draws curves, which is
    panel (a) as the paper plots it where there is one; in a figure without curves, the panel
    with the most annotations (the last step of a refinement), the first of those."""
    panels = [ax for ax in fig.axes if ax.get_visible() and ax.get_label() != "<colorbar>"]
    if len(panels) < 2:
        return None
    order = sorted(
        panels, key=lambda ax: (-round(ax.get_position().y1, 2), round(ax.get_position().x0, 2))
    )
    curves = [ax for ax in order if ax.lines]
    return curves[0] if curves else max(order, key=lambda ax: len(ax.texts))


def panel_box(ax, renderer) -> Bbox:
    """``ax``'s box in display pixels: its frame, its axes with their tick labels and labels,
    its titles. Its curves lie within its frame; unlike ``ax.get_tightbbox`` this measures no
    curve, a quarter of the time."""
    titles = [
        child
        for child in ax.get_children()  # ax.texts are inside; titles are not
        if isinstance(child, Text) and child not in ax.texts and child.get_text()
    ]
    boxes = [
        ax.get_window_extent(renderer),
        ax.xaxis.get_tightbbox(renderer),
        ax.yaxis.get_tightbbox(renderer),
        *(t.get_window_extent(renderer) for t in titles),
    ]
    return Bbox.union([box for box in boxes if box is not None])


def canvas_pixels(fig, canvas) -> np.ndarray | None:
    """The RGBA pixels of ``canvas``'s last draw, when they are the whole of ``fig`` (as
    ``figure_files.save_figure`` leaves them when its PNG came from the canvas), else None. The
    figure is set to the dpi they were drawn at, where its panels' boxes are in those pixels."""
    renderer = getattr(canvas, "renderer", None)
    if renderer is None:
        return None
    fig.set_dpi(renderer.dpi)
    pixels = np.asarray(renderer.buffer_rgba())
    if pixels.shape[:2] != (round(fig.bbox.height), round(fig.bbox.width)):
        return None
    return pixels


def crop(pixels: np.ndarray, box: Bbox | None, background) -> Image.Image:
    """The RGB picture of ``box`` (display pixels, y upwards; None: all of it) with :data:`PAD`
    pixels around, cut to what differs from the ``background`` colour."""
    height, width = pixels.shape[:2]
    if box is not None:
        left, right = max(int(box.x0) - PAD, 0), min(int(np.ceil(box.x1)) + PAD, width)
        top, bottom = (
            max(height - int(np.ceil(box.y1)) - PAD, 0),
            min(height - int(box.y0) + PAD, height),
        )
        pixels = pixels[top:bottom, left:right]
    image = Image.fromarray(np.ascontiguousarray(pixels[..., :3]), "RGB")
    drawn = ImageChops.difference(image, Image.new("RGB", image.size, background)).getbbox()
    if drawn is None:
        return image
    return image.crop(
        (
            max(drawn[0] - PAD, 0),
            max(drawn[1] - PAD, 0),
            min(drawn[2] + PAD, image.width),
            min(drawn[3] + PAD, image.height),
        )
    )


def shrink(image: Image.Image) -> Image.Image:
    """``image`` at :data:`SCALE`, or smaller to fit :data:`BOX`, in :data:`COLOURS` colours."""
    scale = min(SCALE, BOX[0] / image.width, BOX[1] / image.height)
    size = (max(round(image.width * scale), 1), max(round(image.height * scale), 1))
    return image.resize(size, Image.Resampling.BOX).quantize(
        COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )


def save_thumbnail(fig, canvas, path: str | os.PathLike) -> None:
    """Write ``fig``'s thumbnail to ``path`` (atomically) from the pixels
    ``figure_files.save_figure`` drew it with on ``canvas``, the Agg canvas the figure had before
    (closing a figure detaches its canvas). A figure whose PNG did not come from that canvas is
    drawn once more."""
    pixels = canvas_pixels(fig, canvas)
    if pixels is None:
        fig.set_dpi(plt.rcParams["savefig.dpi"])
        canvas.draw()
        pixels = np.asarray(canvas.buffer_rgba())
    ax = main_axes(fig)
    box = panel_box(ax, canvas.get_renderer()) if ax is not None else None
    background = tuple(round(255 * c) for c in fig.get_facecolor()[:3])
    with atomic_output(Path(path)) as tmp:
        shrink(crop(pixels, box, background)).save(tmp, format="png")
