"""What the notebooks show, as one-line calls: numbers as a reader wants them, readable tables
(long ones collapsed, with their CSV), and the paper's figures under their titles and captions.
The verdicts are in ``verdict_tables``, the bound plots in ``bound_plots``."""

from __future__ import annotations

import ast
import hashlib
import html
import io
import math
import numbers
import re
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import HTML, Image, display
from markupsafe import Markup
from pandas.io.formats.style import Styler
from PIL import Image as Picture

from timebandits.core import paths
from timebandits.core.pages.figure_files import png_bytes
from timebandits.core.pages.render import render
from timebandits.core.text import prose

# A reader of a notebook needs every provenance reason and every run, not pandas' abbreviations.
pd.set_option("display.max_colwidth", None)
pd.set_option("display.max_rows", 500)
pd.set_option("display.max_columns", 60)
# A table longer than this is collapsed under a one-line summary (a click opens it).
COLLAPSE_ROWS = 25
# Plots shown inline (``show_matplotlib``) at this resolution, in at most this many colours: a
# page's HTML has to stay under about 1.5 MB for the single-file Snakemake report, which shows
# it as a base64 data: URL (Chromium opens none over 2 MB).
INLINE_DPI = 120
INLINE_COLOURS = 64


def markdown_text(text: str) -> str:
    """``text`` escaped so that Markdown shows it literally (``j*=5`` stays ``j*=5``, ``$`` is
    not mathematics)."""
    for char in "\\`*_$":
        text = text.replace(char, "\\" + char)
    return text


def number(value, digits: int = 4) -> str:
    """One cell as a reader wants it: blank for a missing value, integers exact (``279,936``)
    or, from a million, short when round (``10⁷``, ``2.5·10⁶``), other floats from 1,000 to a
    million to the unit (``1,075``) and otherwise to ``digits`` significant digits,
    ``yes``/``no`` for booleans, lists and dicts without quotes (``[1, 14/15]``); text that
    spells a number or a Python literal is shown as that value."""
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, str):
        return _text(value, digits)
    if isinstance(value, (list, tuple)):
        items = ", ".join(number(v, digits) for v in value)
        return f"[{items}]" if isinstance(value, list) else f"({items})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {number(v, digits)}" for k, v in value.items()) + "}"
    if not isinstance(value, numbers.Real):
        return str(value)
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    if float(value).is_integer() and abs(value) < 1e15:
        integer = int(value)
        short = f"{integer:.3g}"
        if abs(integer) >= 1e6 and float(short) == integer:
            return _exponent(short)
        return f"{integer:,}"
    if 1e3 <= abs(value) < 1e6:
        return f"{value:,.0f}"
    return _exponent(f"{value:.{digits}g}")


def _text(value: str, digits: int) -> str:
    """Text as ``number`` shows it: a number (``10000000.0``) or a Python literal of a config
    value (``['1', '14/15']``, ``{'uniform': [1, 6]}``) without quotes, anything else as
    ``prose``."""
    stripped = value.strip()
    if stripped[:1] in "[({" and stripped:
        try:
            return number(ast.literal_eval(re.sub(r"\binf\b", "1e999", stripped)), digits)
        except (ValueError, SyntaxError):
            return prose(value)
    try:
        parsed = float(stripped)
    except ValueError:
        return prose(value)
    return value if not stripped or stripped.isalpha() else number(parsed, digits)


def _exponent(text: str) -> str:
    """A power of ten as the pages' text writes it: ``1e+07`` → ``10⁷``, ``2.5e-05`` →
    ``2.5·10⁻⁵``."""
    if "e" not in text:
        return text
    mantissa, exponent = text.split("e")
    return prose(f"{mantissa}e{int(exponent)}")


def _is_text(column: pd.Series) -> bool:
    return not (pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column))


def readable(frame: pd.DataFrame, digits: int = 4):
    """``frame`` formatted for reading (``number`` in every cell), text columns left-aligned and
    wrapped, numbers right-aligned, the index hidden when it only numbers rows (an unnamed
    integer index, e.g. of a selection). A named index (``claim``) is labelled in the header's
    corner, not on a header row of its own, as pandas would."""
    numbered = (
        frame.index.nlevels == 1
        and frame.index.name is None
        and pd.api.types.is_integer_dtype(frame.index)
    )
    if (
        frame.index.nlevels == 1
        and frame.index.name is not None
        and frame.columns.name is None
        and frame.columns.nlevels == 1
    ):
        frame = frame.rename_axis(index=None, columns=frame.index.name)
    text = [i for i, c in enumerate(frame.columns) if _is_text(frame.iloc[:, i])]
    styles = [
        {
            "selector": "th.col_heading, th.index_name",  # the index's name over its labels
            "props": "text-align: left; vertical-align: bottom;",
        },
        {"selector": "th.row_heading", "props": "text-align: left; vertical-align: top;"},
        {"selector": "td", "props": "vertical-align: top;"},
    ]
    styles += [
        {
            "selector": f"th.col_heading.col{i}, td.col{i}",
            "props": (
                "text-align: left; max-width: 44em;"
                if i in text
                else "text-align: right; white-space: nowrap;"
            ),
        }
        for i in range(frame.shape[1])
    ]
    # Formatted first, then escaped (pandas' own escape would quote a dict's text before
    # ``number`` could read it).
    # No id on every cell (the styles select by class): a long table's HTML a third shorter.
    styler = Styler(frame, cell_ids=False).format(
        lambda v: html.escape(number(v, digits), quote=False)
    )
    # The table's HTML ids from its content, not pandas' random uuid: the same page, same bits.
    styler = styler.set_uuid(
        hashlib.sha256(f"{digits}\n{frame.to_csv()}".encode()).hexdigest()[:10]
    )
    styler = styler.set_table_styles(styles)
    styler = styler.format_index(lambda v: number(v, digits), axis=0)
    if numbered:
        styler = styler.hide(axis="index")
    return styler


def describe_figure(fig) -> str:
    """A figure in one line, for its image's alt text: its title (or its panels' titles), then
    what each panel plots against what, from the figure's own labels."""
    titles = [fig._suptitle.get_text()] if getattr(fig, "_suptitle", None) else []
    titles += [ax.get_title() for ax in fig.axes if ax.get_title()]
    axes = sorted(
        {
            f"{ax.get_ylabel()} against {ax.get_xlabel()}"
            for ax in fig.axes
            if ax.get_xlabel() and ax.get_ylabel()
        }
    )
    text = "; ".join(dict.fromkeys([*titles[:3], *axes[:3]]))
    return prose(text.replace("$", "")) or "a figure"


def inline_png(fig) -> bytes:
    """``fig`` as a small PNG to embed in a page: drawn at ``INLINE_DPI``, in a palette of
    ``INLINE_COLOURS`` colours (a plot's few colours and their anti-aliasing), and closed."""
    with plt.rc_context({"savefig.dpi": INLINE_DPI}):
        image = Picture.open(io.BytesIO(png_bytes(fig))).convert("RGB")
    buffer = io.BytesIO()
    image.quantize(INLINE_COLOURS, dither=Picture.Dither.NONE).save(buffer, "png", optimize=True)
    return buffer.getvalue()


def show_matplotlib(fig) -> None:
    """Display a figure as a small PNG (``inline_png``; the Agg backend that core.pages.plotting
    selects has no inline display of its own), described in one line (its alt text)."""
    alt = describe_figure(fig)
    display(Image(data=inline_png(fig), metadata={"alt": alt}))


def collapsed(styler, summary: str) -> HTML:
    """``styler`` folded under ``summary`` (an HTML ``<details>``): what a reader opens only
    when needed, so the page stays short."""
    return HTML(render("details.html.j2", summary=summary, body=styler.to_html()))


def in_zip_report(path: str) -> str:
    """Where the zip form of Snakemake's report (``--report report.zip``) puts the result
    ``path`` (relative to the working directory), as a link from another result there: each
    in ``data/raw/<id>/``, ``<id>`` the first 16 hex digits of the SHA-256 of its path
    (snakemake.common.get_report_id, snakemake.report.shorten_ids)."""
    return f"../{hashlib.sha256(path.encode()).hexdigest()[:16]}/{Path(path).name}"


def figure_html(root: str, paper: str, figure: dict, figure_id: str) -> Markup:
    """A rendered figure under its title and caption (the figure itself carries no title), with
    links to its PDF and PNG; anchored as ``figure-<id>`` for links from the front page. The
    PNG is linked, not embedded (figure.html.j2 says why), from where the build puts it, then
    from the zip report; where neither loads, one line says where it is in the report."""
    pdf, png = (paths.figure(root, paper, figure_id, ext) for ext in ("pdf", "png"))
    return Markup(
        render(
            "figure.html.j2",
            id=figure_id,
            title=figure["title"],
            caption=figure["caption"],
            pdf=paths.relative_to_notebook(pdf),
            png=paths.relative_to_notebook(png),
            in_report=in_zip_report(png),
            where=f"{paper} › {figure['group']} › figure {figure_id}",
            build=png,
        )
    )


def show_figure(root: str, paper: str, figure: dict, figure_id: str) -> None:
    """``figure_html``, shown."""
    display(HTML(figure_html(root, paper, figure, figure_id)))


def folded_figures(root: str, paper: str, figures: dict, summary: str) -> HTML:
    """``figures`` (id → spec), each as ``figure_html``, folded under ``summary``: figures a
    reader opens when needed."""
    return HTML(
        render(
            "details.html.j2",
            summary=summary,
            body=Markup("\n").join(
                figure_html(root, paper, spec, fid) for fid, spec in figures.items()
            ),
        )
    )


def read_table(root: str, paper: str, name: str) -> pd.DataFrame:
    """The table ``results/tables/<paper>/<name>.csv`` as data (for selecting or grouping)."""
    return pd.read_csv(paths.table(root, paper, name))


def table(root: str, paper: str, name: str, collapse: int = COLLAPSE_ROWS):
    """The table ``results/tables/<paper>/<name>.csv``, formatted for reading; longer than
    ``collapse`` rows, folded under a line giving its size and its CSV."""
    frame = read_table(root, paper, name)
    if len(frame) <= collapse:
        return readable(frame)
    csv = paths.table(root, paper, name)
    return collapsed(readable(frame), f"{name}: {len(frame):,} rows (click to open; CSV: {csv})")
