"""The figures' PDFs embed font subsets without OpenType layout tables (core/pages/font_subsets.py),
and look the same."""

import inspect
import io
import shutil
import subprocess

import matplotlib.pyplot as plt
import pytest
from fontTools import subset
from fontTools.ttLib import TTFont
from matplotlib.backends import _backend_pdf_ps
from matplotlib.font_manager import findfont

from timebandits.core.pages.font_subsets import LAYOUT_TABLES, drop_layout_tables


def test_matplotlib_still_subsets_with_fonttools_options():
    """The tweak works through fontTools' Options defaults: an upgrade of matplotlib that no
    longer subsets with ``subset.Options`` makes it useless, and this test says so."""
    assert "subset.Options(" in inspect.getsource(_backend_pdf_ps.get_glyphs_subset)
    assert isinstance(subset.Options._drop_tables_default, list)


def test_a_subset_leaves_the_layout_tables_out_and_keeps_the_glyphs():
    drop_layout_tables()
    drop_layout_tables()  # idempotent
    assert subset.Options().drop_tables.count("GSUB") == 1
    path = findfont("DejaVu Sans")
    options = subset.Options(glyph_names=True, recommended_glyphs=True)
    font = subset.load_font(path, options)
    subsetter = subset.Subsetter(options=options)
    subsetter.populate(text="Regret 10")
    subsetter.subset(font)
    buffer = io.BytesIO()
    font.save(buffer)
    kept = TTFont(io.BytesIO(buffer.getvalue()))
    assert not set(LAYOUT_TABLES) & set(kept.keys())
    assert {"glyf", "cmap", "hmtx"} <= set(kept.keys())
    assert {"R", "e", "g", "t", "one", "zero"} <= set(kept.getGlyphOrder())


def _pdf(path, text):
    with plt.rc_context({"pdf.fonttype": 42}):
        fig, ax = plt.subplots(figsize=(3, 2))
        ax.set_title(text)
        ax.set_xlabel("rounds $t$")
        ax.plot([1, 2, 3], [1, 4, 9])
        fig.savefig(path, format="pdf", metadata={"CreationDate": None})
        plt.close(fig)
    return path


@pytest.mark.parametrize("text", ["regret $R_T$ against $t$", "$\\sqrt{2 \\ln t / N}$ bound"])
def test_a_figure_draws_the_same_pixels_with_lean_subsets(tmp_path, monkeypatch, text):
    """The same figure with full and with lean font subsets: both embed TrueType fonts, the lean
    one is smaller, and poppler draws both to the same pixels."""
    pdftoppm = shutil.which("pdftoppm")
    if pdftoppm is None:
        pytest.skip("pdftoppm is not installed (apt-get install poppler-utils; CI installs it)")
    monkeypatch.setattr(
        subset.Options,
        "_drop_tables_default",
        [t for t in subset.Options._drop_tables_default if t not in LAYOUT_TABLES],
    )
    full = _pdf(tmp_path / "full.pdf", text)
    drop_layout_tables()
    lean = _pdf(tmp_path / "lean.pdf", text)
    for pdf in (full, lean):
        assert b"/FontFile2" in pdf.read_bytes() and b"/Type3" not in pdf.read_bytes()
        subprocess.run(
            [pdftoppm, "-r", "120", "-png", "-singlefile", str(pdf), str(pdf.with_suffix(""))],
            check=True,
        )
    assert lean.stat().st_size < full.stat().st_size
    assert (tmp_path / "lean.png").read_bytes() == (tmp_path / "full.png").read_bytes()
