# Two commands on a fresh machine:
#   make        set up .venv, install timebandits, re-create every figure, table and notebook
#   make test   run the test suite (unit tests and a smoke-scale run of the real workflow)
#   make help   every target, one line each
PYTHON ?= python3
VENV ?= .venv
CORES ?= 8
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: all test test-quick test-cluster smoke report benchmark clean-results help

all: $(STAMP)
	$(BIN)/snakemake --cores $(CORES)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadfile

# The unit tests alone, without the smoke workflow run (everyday work; about 3 minutes).
test-quick: $(STAMP)
	$(BIN)/python -m pytest -n 2 -m "not workflow and not cluster"

# The workflow through a real one-node Slurm on this machine (root; Debian's slurm-wlm and
# munge): delaydep's smoke workflow and a simulate job of every other paper, checked against
# Slurm's records and a local run (tests/test_cluster.py; about 10 minutes).
SLURM_STAMP := $(VENV)/.installed-slurm
$(SLURM_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,slurm]'
	touch $(SLURM_STAMP)

test-cluster: $(SLURM_STAMP)
	tests/ensure_slurm.sh
	$(BIN)/python -m pytest -m cluster -s tests/test_cluster.py

# Everything at smoke scale (outputs under smoke/), in a few minutes.
smoke: $(STAMP)
	$(BIN)/snakemake --profile profiles/smoke

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
	$(BIN)/python benchmarks/benchmark_farewell.py
	$(BIN)/python benchmarks/benchmark_delaydep.py
	$(BIN)/python benchmarks/benchmark_censored.py
	$(BIN)/python benchmarks/benchmark_anonymous.py
	$(BIN)/python benchmarks/benchmark_continuous.py
	$(BIN)/python benchmarks/cluster_costs.py

clean-results:
	rm -rf results figures smoke logs report

help:
	@echo "make all            (default) set up .venv, re-create every figure, table, verdict and notebook (CORES=8)"
	@echo "make test           unit tests and a smoke-scale run of the real workflow"
	@echo "make test-quick     the unit tests alone, without the smoke workflow (about 3 minutes)"
	@echo "make test-cluster   the workflow through a real one-node Slurm on this machine (root)"
	@echo "make smoke          everything at smoke scale, in a few minutes (outputs under smoke/)"
	@echo "make report         Snakemake's report: front page, scorecard, figures, notebooks (report/report.html)"
	@echo "make benchmark      the last build's profile (time per rule and paper, start-up share); kernels' speed; cluster costs"
	@echo "make clean-results  delete every generated output (results, figures, smoke, logs)"
	@echo "make help           this list"
