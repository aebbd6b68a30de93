# duelclub — the two set-up commands of the README are `make run` and `make test`.
# Both create the virtual environment and install what they need on a fresh machine.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: run test install install-dev browser lint typecheck bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

## Serve http://$(HOST):$(PORT) on the embedded defaults (SQLite under var/, in-process bus).
run: install
	$(BIN)/duelclub serve --host $(HOST) --port $(PORT)

## Debian's chromium for the browser tests (never a downloaded browser); skipped loudly if it can't be had.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
	      || echo "!! could not install chromium: browser tests will be skipped"; \
	  else echo "!! chromium missing and not root: browser tests will be skipped"; fi; }

## The whole suite (PostgreSQL/Redis tests skip loudly where those servers are absent).
test: install-dev browser
	$(BIN)/pytest

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: install-dev
	$(BIN)/mypy

bench: install-dev
	$(BIN)/python benchmarks/engine_speed.py
	$(BIN)/python benchmarks/mezha_engine.py
	$(BIN)/python benchmarks/mezha_bots.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
