# %% [markdown]
# # What reproduced, and the runs against the papers' bounds
#
# Five papers, re-run from simulation. First the scorecard: every paper's claims by verdict. Then
# every theoretical bound of every paper, one line per kind of bound: is it ever informative (below
# the trivial bound, the largest value the quantity can take), and does the mean over runs, or
# any single run, go above it where it is? Then paper by paper: each kind of bound plotted
# against the runs of the experiment where it says the most, the vacuous region shaded grey, and
# each paper's own theory checks.

# %% tags=["parameters"]
ROOT = ""  # "" for the full scale, "smoke/" for the smoke scale
CONFIG = None  # the workflow's config; None reads config/config.yaml

# %%
import pandas as pd
from IPython.display import Markdown, display

from timebandits.core.pages import bound_tables
from timebandits.core.pages import display as show
from timebandits.core import paths
from timebandits.core.pages import verdict_tables
from timebandits.core.build.preflight import load_paper
from timebandits.core.config import load_yaml
from timebandits.core.paths import enter_project
from timebandits.core.registry import paper_module
from timebandits.core.sim.sealed import read_sealed

enter_project()  # Jupyter runs a notebook in its own folder: read the project's paths
CONFIG = CONFIG or load_yaml("config/config.yaml")
PAPERS = CONFIG["papers"]
papers = {key: load_paper(key) for key in PAPERS}
bounds = {key: read_sealed(paths.bounds(ROOT, key)) for key in PAPERS}


def paper_section(key: str) -> None:
    """The paper's bound plots and theory checks, or a line saying it is not in this build."""
    if key not in PAPERS:
        display(Markdown("Not in this build (`papers` in the config)."))
        return
    paper_module(key, "report").comparison_section(ROOT, CONFIG, papers[key], bounds[key])


# %% [markdown]
# ## 1. Scorecard: what reproduced

# %%
verdict_tables.scorecard(ROOT)

# %% [markdown]
# ## 2. The bounds, one line per paper and kind of bound
# **How to read it.** A bound is *informative* at a checkpoint where it is below the trivial
# bound (t × the largest gap for regret, t for a count of pulls); elsewhere it is *vacuous* and
# neither supports nor contradicts the runs. `curves`: the empirical curves (experiment,
# algorithm, quantity) the bound is checked on. `largest mean/bound (informative)`: the largest
# ratio of the mean over runs to the bound over the informative checkpoints, and where; above 1
# the mean exceeds the bound. The next two columns count informative checkpoints where the mean,
# or at least one run, is above the bound. Continuous's bounds are checked at the horizon only
# (one checkpoint per curve, the shapes with constant 1). Each paper's section below gives the
# detail per experiment and curve.

# %%
kinds = pd.concat([bound_tables.kind_summary(
    table, {a: spec.get("label", a) for a, spec in papers[key]["algorithms"].items()})
    .assign(paper=key) for key, table in bounds.items()], ignore_index=True)
kinds = kinds[["paper", *kinds.columns.drop("paper")]]
# Headers wrap (the numbers under them are short), so the table fits the page.
show.readable(kinds).set_table_styles(
    [{"selector": f"th.col_heading.col{i}", "props": "white-space: normal; min-width: 5.5em;"}
     for i in range(kinds.shape[1])] +
    [{"selector": f"td.col{kinds.columns.get_loc('where')}", "props": "min-width: 16em;"}],
    overwrite=False)

# %% [markdown]
# ## 3. A Farewell to Arms (farewell)

# %%
paper_section("farewell")

# %% [markdown]
# ## 4. Bandits with Censored Consumption of Resources (censored)

# %%
paper_section("censored")

# %% [markdown]
# ## 5. Composite and Anonymous Feedback (anonymous)

# %%
paper_section("anonymous")

# %% [markdown]
# ## 6. Continuous Time Bandits with Sampling Costs (continuous)

# %%
paper_section("continuous")

# %% [markdown]
# ## 7. Bandits with Delay-Dependent Payoffs (delaydep)

# %%
paper_section("delaydep")
