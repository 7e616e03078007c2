"""Machinery shared by every paper, in four layers that only import downwards (the import
contract in pyproject.toml; ``lint-imports`` checks it in ``make test``):

  build     the workflow's jobs, the job server, cluster resources, checks before any job
  pages     figures, tables, notebooks, the front page
  verdicts  claims, statistics, bounds, decidability, firmness, causes
  sim       kernels, random numbers, seeding, the simulation loop, trace files

and at the root, below them all, the config, the paper registry, paths, atomic writes, versions,
text in a reader's notation and the reading of a paper's imports. Nothing here knows about a
particular paper."""
