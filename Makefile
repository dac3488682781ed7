# Two entry points (see README): `make quickstart` and `make test`. Both set everything up first.
# `make test-fast` is the fast tier of the tests; `make docs` serves the documentation site.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup data postgresql browser quickstart test test-fast checks docs bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --disable-pip-version-check -q -e ".[dev]"
	touch $(STAMP)

setup: $(STAMP) data postgresql browser

# Debian's full Fashion-MNIST (offline). Skipped quietly where apt is not available or we are not root.
data:
	@if [ -d /usr/share/datasets/fashion-mnist ]; then :; \
	elif command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
		(apt-get update -qq && apt-get install -y -qq dataset-fashion-mnist) >/dev/null; \
	else echo "note: install Debian's dataset-fashion-mnist or pass --data-root (see README)"; fi

# Debian's PostgreSQL, for the tests of tracking against a real MLflow server on PostgreSQL (a throwaway
# cluster each; without it they run on SQLite only). Skipped quietly where apt is not available or we are
# not root.
postgresql:
	@if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then :; \
	elif command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
		(apt-get update -qq && apt-get install -y -qq postgresql) >/dev/null; \
	else echo "note: install Debian's postgresql to test tracking on PostgreSQL too (else SQLite only)"; fi

# Debian's Chromium and its WebDriver, for the test that opens the MLflow UI as a new user would (and
# bench/screenshots.py); without them that test is skipped. Skipped quietly where apt is not available or
# we are not root.
browser:
	@if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then :; \
	elif command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
		(apt-get update -qq && apt-get install -y -qq chromium chromium-driver) >/dev/null; \
	else echo "note: install Debian's chromium and chromium-driver to test the MLflow UI in a browser"; fi

quickstart: setup
	$(BIN)/dptune run sweeps/quickstart.yaml $(if $(wildcard ray_results/quickstart),--resume,)

# Static checks (lint, import contracts, types) and the documentation site (generated tables included).
checks: setup
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/mypy
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

# Both tiers: what CI runs. The tests that start no process of their own (the fast tier, and the slow
# modules marked `in_process`) run side by side, one per core, a module to a worker; then the rest of
# `slow` (real Ray, clusters, servers, a browser) one at a time, its 25 slowest listed, where the time
# goes. Both parts run whatever the first gives; either failing fails the target.
test: checks
	@status=0; \
	$(BIN)/python -m pytest -q -n auto --dist loadfile -m "not slow or in_process" || status=$$?; \
	$(BIN)/python -m pytest -q -m "slow and not in_process" --durations=25 || status=$$?; \
	exit $$status

# The fast tier, for development: the unit and property tests that take well under a second or two each; no
# end-to-end sweep, no full-size cross-check (those are `slow`, in `make test`); side by side, one per core.
test-fast: checks
	$(BIN)/python -m pytest -q -n auto --dist loadfile -m "not slow"

docs: setup
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve

bench: setup
	$(BIN)/python bench/step_cost.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache site
