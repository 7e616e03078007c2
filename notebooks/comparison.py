# %% [markdown]
# # Empirical regret against the papers' bounds
#
# For every paper in the workflow, each empirical curve (mean over runs) is compared with the
# paper's theoretical bound at every checkpoint, on log-log axes, with their ratio: the mean
# solid, the bound dashed in the same colour (black when a plot has one bound), faded where the
# bound is vacuous (not below the trivial bound, t × the largest gap for regret, t for pull
# counts), and shaded grey where every bound of the plot is. Zeros of the mean are gaps on the log
# axis. Tables give, per experiment and bound, the largest ratio
# mean/bound, how many checkpoints have the mean or any single run above the bound, and the
# share of vacuous checkpoints. Each paper's section then adds its own theory checks. First, the
# scorecard: every paper's claims by verdict.

# %% tags=["parameters"]
ROOT = ""  # "" for the full scale, "smoke/" for the smoke scale
CONFIG = None  # the workflow's config; None reads config/config.yaml

# %%
import pandas as pd

from timebandits.core import display as show
from timebandits.core import verdict_tables
from timebandits.core import bound_plots
from timebandits.core import paths
from timebandits.core.config import load_paper, load_yaml
from timebandits.core.registry import paper_module

CONFIG = CONFIG or load_yaml("config/config.yaml")
PAPERS = CONFIG["papers"]

# %% [markdown]
# ## Scorecard: what reproduced

# %%
verdict_tables.scorecard(ROOT)

# %% [markdown]
# ## Bounds: summary over all papers
# Per paper, experiment, bound and empirical curve: the largest ratio mean/bound and the t where
# it occurs, the checkpoints where the mean or any single run is above the bound, and the share
# of checkpoints where the bound is vacuous.

# %%
bound_tables = {key: pd.read_parquet(paths.bounds(ROOT, key)) for key in PAPERS}
summary = pd.concat([bound_plots.bound_summary(t).assign(paper=key) for key, t in bound_tables.items()],
                    ignore_index=True)
show.readable(summary[["paper", *summary.columns.drop("paper")]])

# %% [markdown]
# ## Paper by paper
# Each paper's `report.comparison_section` draws its bound plots and theory checks.

# %%
for key in PAPERS:
    paper_module(key, "report").comparison_section(ROOT, CONFIG, load_paper(key), bound_tables[key])
