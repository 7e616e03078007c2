"""A notebook executed twice from the same source gives the same bytes, .ipynb and .html
(core/pages/notebooks.py): no random cell ids, no execution timestamps, and tables whose HTML ids
come from their content (core/display.readable), not pandas' random uuid."""

from __future__ import annotations

from timebandits.core.pages.notebooks import execute_notebook

SOURCE = """# %% [markdown]
# # A page

# %% tags=["parameters"]
rows = 2

# %% [markdown]
# ## A table

# %%
import pandas as pd
from timebandits.core.pages.display import readable
readable(pd.DataFrame({"claim": ["C1", "C2"][:rows], "value": [0.5, 1 / 3][:rows]}))
"""


def test_the_same_notebook_gives_the_same_bytes(tmp_path):
    source = tmp_path / "page.py"
    source.write_text(SOURCE)
    pages = []
    for run in ("first", "second"):
        ipynb, html = tmp_path / f"{run}.ipynb", tmp_path / f"{run}.html"
        execute_notebook(source, ipynb, html, {"rows": 2}, software="Python 3")
        pages.append((ipynb.read_bytes(), html.read_bytes()))
    assert b'"id": "cell-1"' in pages[0][0] and b"Styler at 0x" not in pages[0][0]
    assert b'<table id="T_' in pages[0][1]  # the table reached the page
    assert pages[0] == pages[1]


def test_a_figure_reaches_the_page_with_its_description_as_alt_text(tmp_path):
    source = tmp_path / "figure.py"
    source.write_text("""# %%
from timebandits.core.pages.display import show_matplotlib
from timebandits.core.pages.plotting import apply_style
import matplotlib.pyplot as plt
apply_style()
fig, ax = plt.subplots()
ax.set_title("Fig. 1a <runs>")
ax.set_xlabel("t")
ax.set_ylabel("regret")
show_matplotlib(fig)
""")
    html = tmp_path / "figure.html"
    execute_notebook(source, tmp_path / "figure.ipynb", html, {}, software="Python 3")
    page = html.read_text()
    assert 'alt="Fig. 1a &lt;runs&gt;; regret against t"' in page
    assert "No description has been provided" not in page


def test_each_paper_cells_are_written_once_per_paper_in_order():
    # the comparison notebook's per-paper section: a heading numbered after the sections before
    # it and a code cell, repeated per paper with its key and title; the cells around it stay
    import jupytext

    from timebandits.core.pages.notebooks import add_contents, repeat_per_paper

    notebook = jupytext.reads(
        """# %% [markdown]
# # Title

# %% [markdown]
# ## Scorecard

# %% [markdown] tags=["each-paper"]
# ## {number}. {title} ({key})

# %% tags=["each-paper"]
shown = {"paper": "{key}"}

# %% [markdown]
# ## Software
""",
        fmt="py:percent",
    )
    repeat_per_paper(notebook, {"farewell": "A Farewell to Arms", "censored": "Censored"})
    assert [c.source for c in notebook.cells] == [
        "# Title",
        "## Scorecard",
        "## 2. A Farewell to Arms (farewell)",
        'shown = {"paper": "farewell"}',
        "## 3. Censored (censored)",
        'shown = {"paper": "censored"}',
        "## Software",
    ]
    assert all("each-paper" not in c.metadata.get("tags", []) for c in notebook.cells)
    add_contents(notebook)
    assert "[3. Censored (censored)](#section-3)" in notebook.cells[1].source
