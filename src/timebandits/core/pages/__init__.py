"""Pages: figures, tables, notebooks and the front page, rendered from templates. Imports the
verdicts and simulation layers and the root of core, never the build."""
