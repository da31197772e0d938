# Two commands a newcomer needs: `make run` (the bot) and `make test` (the suite).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install system run test lint bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# the Debian packages the tests need (PostgreSQL, Chromium), installed when missing
system:
	./scripts/system-packages

# Without a token the bot explains how to get one and exits 78 (not set up yet): that is
# the end of the story, not a failure of make.
run: $(STAMP)
	@$(PY) -m bot run; status=$$?; [ $$status -eq 78 ] || exit $$status

test: $(STAMP) system
	$(PY) -m pytest

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

bench: $(STAMP)
	$(PY) -m bot simulate --preset russian --hands 20000 --seed 1

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
