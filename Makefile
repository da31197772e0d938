# Two commands a newcomer needs: `make run` (the bot) and `make test` (the suite).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install system run test test-fast lint bench clean

# setup.py builds the compiled solver (bot/ai/_dds.c) where a C compiler is found; without one
# the install succeeds all the same and the AI uses the Python solver.
$(STAMP): pyproject.toml setup.py bot/ai/_dds.c
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# the Debian packages the tests need (PostgreSQL, Chromium, a C compiler for the compiled
# solver), installed when missing
system:
	PYTHON=$(PYTHON) ./scripts/system-packages

# Without a token the bot explains how to get one and exits 78 (not set up yet): that is
# the end of the story, not a failure of make.
run: $(STAMP)
	@$(PY) -m bot run; status=$$?; [ $$status -eq 78 ] || exit $$status

test: system $(STAMP)
	$(PY) -m pytest

# the tests that need neither PostgreSQL, Chromium, the Discord emulator nor seconds each
# (markers in pyproject.toml): under a minute, for the edit-test loop
test-fast: $(STAMP)
	$(PY) -m pytest -m "not postgres and not browser and not e2e and not slow"

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	$(VENV)/bin/vulture

bench: $(STAMP)
	$(PY) -m bot simulate --preset russian --hands 20000 --seed 1

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
