"""The build: the workflow's jobs (their logs, records and trace readers), the warm job server,
the resources a job asks a cluster for, the checks before any job and the patches to Snakemake.
The top layer: nothing in core imports it."""
