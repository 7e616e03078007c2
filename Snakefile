# timebandits: every figure, table, claim verdict and notebook of five papers, from simulation.
# Layout and data flow: README.md and ../shared/DESIGN.md.
from snakemake.utils import min_version, validate

min_version("9.0")


configfile: "config/config.yaml"


validate(config, "workflow/schemas/config.schema.yaml")


include: "workflow/rules/common.smk"
include: "workflow/rules/simulate.smk"
include: "workflow/rules/analyse.smk"
include: "workflow/rules/figures.smk"
include: "workflow/rules/notebooks.smk"


rule all:
    input:
        all_targets(),
