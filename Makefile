# Two commands on a fresh machine:
#   make        set up .venv, install timebandits, re-create every figure, table and notebook
#   make test   run the test suite (unit tests and a smoke-scale run of the real workflow)
#   make help   every target, one line each
PYTHON ?= python3
VENV ?= .venv
CORES ?= 8
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: all test lint format test-quick test-cluster smoke new-paper lab report benchmark mutation lock clean-results help

all: $(STAMP)
	$(BIN)/snakemake --cores $(CORES)

# The environment is exactly requirements.lock (hash-pinned; `make lock` refreshes it), then
# timebandits itself without resolving anything again. pip compiles no bytecode (that was half
# of the venv's minute, for some 10,000 modules of which a build imports about 2,900): Python
# writes it at a module's first import instead, which it must be allowed to do.
unexport PYTHONDONTWRITEBYTECODE
$(STAMP): pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --no-compile --require-hashes -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-compile --no-deps -e .
	touch $(STAMP)

test: $(STAMP) lint
	$(BIN)/python -m pytest -n 2 --dist loadfile --no-loadscope-reorder

# Lints (part of `make test`): the code as ruff and snakefmt format it, ruff's checks of line
# length (100), names and import order, the import contracts of pyproject.toml, and Snakemake's
# own lint of the workflow. `make format` applies both formatters.
LINTED := src tests workflow/scripts notebooks benchmarks
lint: $(STAMP)
	$(BIN)/ruff format --check $(LINTED) || { echo "not formatted: run make format"; exit 1; }
	$(BIN)/snakefmt --check Snakefile workflow || { echo "not formatted: run make format"; exit 1; }
	$(BIN)/ruff check $(LINTED)
	$(BIN)/lint-imports
	$(BIN)/snakemake --lint --cores 1 > .lint.log 2>&1 || { cat .lint.log; exit 1; }
	rm -f .lint.log

format: $(STAMP)
	$(BIN)/ruff format --quiet $(LINTED)
	$(BIN)/ruff check --fix --quiet $(LINTED)
	$(BIN)/snakefmt Snakefile workflow

# The unit tests alone, without the smoke workflow run (everyday work; about 2 minutes).
test-quick: $(STAMP)
	$(BIN)/python -m pytest -n 2 -m "not workflow and not cluster"

# The workflow through a real one-node Slurm on this machine (root; Debian's slurm-wlm and
# munge): delaydep's smoke workflow and a simulate job of every other paper, checked against
# Slurm's records and a local run (tests/test_cluster.py; about 10 minutes).
SLURM_STAMP := $(VENV)/.installed-slurm
$(SLURM_STAMP): $(STAMP) requirements-slurm.lock
	$(BIN)/python -m pip install --quiet --no-compile --require-hashes -r requirements-slurm.lock
	touch $(SLURM_STAMP)

test-cluster: $(SLURM_STAMP)
	tests/ensure_slurm.sh
	$(BIN)/python -m pytest -m cluster -s tests/test_cluster.py

# JupyterLab (requirements-lab.lock: the lock plus JupyterLab) on the executed notebooks (after
# `make`): each re-runs top to bottom from its own folder (it finds the project's files itself).
LAB_STAMP := $(VENV)/.installed-lab
$(LAB_STAMP): $(STAMP) requirements-lab.lock
	$(BIN)/python -m pip install --quiet --no-compile --require-hashes -r requirements-lab.lock
	touch $(LAB_STAMP)

lab: $(LAB_STAMP)
	@test -d results/notebooks || { echo "make lab: no executed notebooks in results/notebooks yet; run make first"; exit 1; }
	$(BIN)/jupyter lab --notebook-dir=results/notebooks

# Everything at smoke scale (outputs under smoke/), in a few minutes.
smoke: $(STAMP)
	$(BIN)/snakemake --profile profiles/smoke

# A sixth paper's files, minimal but complete (core/build/new_paper.py; docs/adding-a-paper.md):
# its config, package, notebook and test, registered in core/registry.py and config/config.yaml.
new-paper: $(STAMP)
	@test -n "$(KEY)" || { echo "make new-paper: give the new paper's key, e.g. make new-paper KEY=mypaper"; exit 1; }
	$(BIN)/python -m timebandits.core.build.new_paper $(KEY)

# Snakemake's report (after `make`): a landing page linking the front page, the scorecard, every
# figure with its caption and the notebooks, as linked files (report/report.html; the notebooks
# are too large for a self-contained page).
report: $(STAMP)
	$(BIN)/snakemake --cores $(CORES) --report report.zip
	rm -rf report && $(BIN)/python -m zipfile -e report.zip . && rm report.zip

# Where the last build's time went (per rule and paper: job time, start-up share), then the speed
# of the compiled kernels (ns per index evaluation) and the jobs' cluster costs.
benchmark: $(STAMP)
	$(BIN)/python benchmarks/build_profile.py
	for script in benchmarks/benchmark_*.py; do $(BIN)/python $$script || exit 1; done
	$(BIN)/python benchmarks/cluster_costs.py

# Mutation testing of the code that decides verdicts (core stats, bounds and claims, and every
# paper's claims modules: pyproject's [tool.mutmut]) with the unit tests alone, in mutants/: the
# survivors, then the share of mutants killed (`.venv/bin/mutmut show <name>` shows a mutant).
# Not part of `make test` or CI. mutants/src exists before Python starts, so that PYTHONPATH
# puts the mutated package before the installed one.
mutation: $(STAMP)
	rm -rf mutants && mkdir -p mutants/src
	PYTHONPATH=$(CURDIR)/mutants/src $(BIN)/mutmut run
	PYTHONPATH=$(CURDIR)/mutants/src $(BIN)/mutmut results
	PYTHONPATH=$(CURDIR)/mutants/src $(BIN)/mutmut export-cicd-stats
	$(BIN)/python -c "import json; s = json.load(open('mutants/mutmut-cicd-stats.json')); \
	print(f\"mutation score: {s['killed']} of {s['total']} mutants killed \
	({s['killed'] / max(s['total'], 1):.1%}); {s['survived']} survived, {s['no_tests']} \
	without a test, {s['timeout']} timed out\")"

# Refresh the locks from pyproject.toml with uv (from PyPI, in its own .venv-lock): keeps every
# pin that still satisfies pyproject.toml; `make lock LOCK_FLAGS=--upgrade` moves every package
# to its newest release. The Slurm lock is the same set plus the Slurm plugin, the lab lock the
# same set plus JupyterLab.
LOCK_FLAGS ?=
UV_COMPILE := .venv-lock/bin/uv pip compile pyproject.toml --universal --python-version 3.11 --generate-hashes --quiet $(LOCK_FLAGS)
lock:
	test -x .venv-lock/bin/uv || { $(PYTHON) -m venv .venv-lock && .venv-lock/bin/python -m pip install --quiet uv; }
	$(UV_COMPILE) --extra dev -o requirements.lock
	$(UV_COMPILE) --extra dev --extra slurm -c requirements.lock -o requirements-slurm.lock
	$(UV_COMPILE) --extra dev --extra lab -c requirements.lock -o requirements-lab.lock

clean-results:
	rm -rf results figures smoke logs report mutants

help:
	@echo "make all            (default) set up .venv, re-create every figure, table, verdict and notebook (CORES=8)"
	@echo "make test           unit tests and a smoke-scale run of the real workflow"
	@echo "make lint           formatting, ruff, the import contracts and snakemake --lint (part of make test)"
	@echo "make format         format the code (ruff format, snakefmt) and sort its imports"
	@echo "make test-quick     the unit tests alone, without the smoke workflow (about 2 minutes)"
	@echo "make test-cluster   the workflow through a real one-node Slurm on this machine (root)"
	@echo "make smoke          everything at smoke scale, in a few minutes (outputs under smoke/)"
	@echo "make new-paper      KEY=<key>: write a minimal new paper (config, package, notebook, test), registered"
	@echo "make lab            JupyterLab on the executed notebooks (installs requirements-lab.lock)"
	@echo "make report         Snakemake's report: front page, scorecard, figures, notebooks (report/report.html)"
	@echo "make benchmark      the last build's profile (time per rule and paper, start-up share); kernels' speed; cluster costs"
	@echo "make mutation       mutation testing of the verdict code with the unit tests (score, survivors)"
	@echo "make lock           refresh requirements.lock from pyproject.toml (LOCK_FLAGS=--upgrade: newest releases)"
	@echo "make clean-results  delete every generated output (results, figures, smoke, logs)"
	@echo "make help           this list"
