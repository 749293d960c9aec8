# The two commands of the README: `make demo` and `make test`. Each builds .venv itself.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip --disable-pip-version-check -q
# pytest-xdist workers for `make test`: three for every two cores. Most slow tests wait on the
# processes they start (a CLI run on its server, a lint on its probes, a server's own timers), so
# one worker per core left the cores about half idle; a worker costs its collection (~7 s of CPU)
# (docs/architecture.md, "Tests"). `make test WORKERS=0` runs serially.
WORKERS ?= $(shell $(PYTHON) -c 'import os; n = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1; print(max(1, n * 3 // 2))')

.PHONY: demo test pytest lint bench clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "mcptest needs Python 3.11 or newer; set PYTHON=python3.11 (or newer)")'
	$(PYTHON) -m venv $(VENV)

# with the pytest extra: docs/python.md's `python -m pytest examples/` works after `make demo`
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(PIP) install -c constraints.txt -e '.[pytest]'
	@touch $@

$(VENV)/.dev-installed: pyproject.toml | $(BIN)/python
	$(PIP) install -c constraints.txt -e '.[dev]'
	@touch $@ $(VENV)/.installed

# Runs the examples against the bundled example server (stdio, and Streamable HTTP with a token).
demo: $(VENV)/.installed
	@BIN=$(BIN) bash examples/demo.sh

# lint runs beside the tests (a cold mypy is a minute of one core the tests' waits leave free);
# its output comes after theirs, either failing fails `make test`, and an interrupt ends both
test: $(VENV)/.dev-installed
	@$(BIN)/python .ci/lint_beside_tests.py $(MAKE)

# the tests alone; .ci/run runs lint beside the image's end-to-end run. The tests' processes write
# bytecode whatever the caller's PYTHONDONTWRITEBYTECODE: hundreds of `python -m mcptest` and
# server starts, and each worker's collection, import the same modules (~6 s of CPU a worker)
pytest: $(VENV)/.dev-installed
	@bash .ci/prepare-tools.sh
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -n $(WORKERS) --dist loadgroup

# mypy's cache lives in the user's cache, as the test wheelhouse does: a fresh clone (or worktree)
# otherwise checks all of src/ cold, ~21 s of CPU beside the tests, where a warm cache takes ~1 s.
# mypy keys each module by its content's hash (a copy at another path is still fresh), keeps a
# folder per Python version and writes each entry by an atomic rename.
# `make lint MYPY_CACHE=.mypy_cache` keeps it in the clone.
MYPY_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/mcptest-lint/mypy

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/mypy --cache-dir "$(MYPY_CACHE)"

bench: $(VENV)/.dev-installed
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) .mcptest .pytest_cache .ruff_cache
