# %% [markdown]
# # The runs against the papers' bounds, and what reproduced
#
# Five papers, re-run from simulation. First, every theoretical bound of every paper, one line
# per kind of bound: does it hold where it says something, where is it closest to being
# exceeded, and by how much. Then the scorecard: every paper's claims by verdict. Then paper by
# paper: each kind of bound plotted against the runs of the experiment where it says the most,
# the vacuous region shaded grey, and each paper's own theory checks.

# %% tags=["parameters"]
ROOT = ""  # "" for the full scale, "smoke/" for the smoke scale
CONFIG = None  # the workflow's config; None reads config/config.yaml

# %%
import pandas as pd

from timebandits.core import paths
from timebandits.core.build.preflight import load_paper
from timebandits.core.config import load_yaml
from timebandits.core.pages import bound_tables, verdict_tables
from timebandits.core.pages import display as show
from timebandits.core.paths import enter_project
from timebandits.core.registry import paper_module
from timebandits.core.sim.sealed import read_sealed

enter_project()  # Jupyter runs a notebook in its own folder: read the project's paths
CONFIG = CONFIG or load_yaml("config/config.yaml")
PAPERS = CONFIG["papers"]
papers = {key: load_paper(key) for key in PAPERS}
bounds = {key: read_sealed(paths.bounds(ROOT, key)) for key in PAPERS}
# Kinds of bound that no run can exceed (an order drawn with constant 1, a bound's leading term
# alone), and the word the table gives them: each paper's analysis.BOUND_WORDS.
SHAPES = {
    (key, kind): word
    for key in PAPERS
    for kind, word in getattr(paper_module(key, "analysis"), "BOUND_WORDS", {}).items()
}


# %% [markdown]
# ## 1. Which bounds hold, where, and by how much
# <a id="answer"></a>

# %%
kinds = pd.concat(
    [
        bound_tables.kind_summary(
            table,
            {a: spec.get("label", a) for a, spec in papers[key]["algorithms"].items()},
            {e: spec.get("title", e) for e, spec in papers[key]["experiments"].items()},
        ).assign(paper=key)
        for key, table in bounds.items()
    ],
    ignore_index=True,
)
kinds = kinds[["paper", *kinds.columns.drop("paper")]]
bound_tables.styled(bound_tables.verdict_table(kinds, SHAPES))

# %% [markdown]
# **How to read it.** A bound is *informative* at a checkpoint where it is below the trivial bound
# (t × the largest gap for regret, t for a count of pulls); elsewhere it is *vacuous* and neither
# supports nor contradicts the runs, so every number here counts informative checkpoints only.
# **holds**: the mean over runs stays below the bound wherever it is informative; **exceeded**:
# the mean is above it by more than 2 standard errors at some informative checkpoint (**above
# within 2 s.e.**: above it, but never by that much, as the claims judge a bound); **vacuous**:
# it is informative nowhere. The largest mean / bound says by how much it holds (0.3: the mean is
# at most 30 % of the bound) and *where* names the curve and the checkpoint. Single runs above a
# bound on the mean are no violation (their count is in the table folded below). **shape only**:
# continuous' Theorems 5 and 8 are orders, O(·) with a constant the paper does not give, drawn
# with constant 1 and checked at the horizon only: a mean above them (a ratio above 1) is no
# violation, the ratio is the constant the runs need, and the question is whether it stays roughly
# constant (section 6). **term only**: anonymous' log term is Theorem 1's leading term alone,
# without its constant c* (Theorem 1 itself has its own line).

# %%
show.collapsed(
    bound_tables.styled(kinds.rename(columns={"bound": "kind"})),
    f"Every number behind this table: the curves each kind checks, where some run is "
    f"above it, the share of vacuous checkpoints ({kinds.shape[1]} columns, click to "
    f"open)",
)

# %% [markdown]
# ## 2. Scorecard: what reproduced

# %%
verdict_tables.scorecard(ROOT)

# %% [markdown] tags=["each-paper"]
# ## {number}. {title} ({key})

# %% tags=["each-paper"]
# One section per paper of the build: the workflow writes these two cells once per paper
# (core/pages/notebooks.py, repeat_per_paper), with {key} and {title} filled in.
paper_module("{key}", "report").comparison_section(ROOT, CONFIG, papers["{key}"], bounds["{key}"])
