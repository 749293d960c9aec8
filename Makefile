# The two commands of the README: `make demo` and `make test`. Each builds .venv itself.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip --disable-pip-version-check -q
# pytest-xdist workers for `make test`: one per core (each worker collects every test module, so
# more workers cost CPU; docs/architecture.md, "Tests"). `make test WORKERS=0` runs serially.
WORKERS ?= auto

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

test: lint pytest

# the tests alone (`make test` after lint); .ci/run runs lint beside the image's end-to-end run
pytest: $(VENV)/.dev-installed
	@bash .ci/prepare-tools.sh
	$(BIN)/pytest -n $(WORKERS) --dist loadgroup

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/mypy

bench: $(VENV)/.dev-installed
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) .mcptest .pytest_cache .ruff_cache
