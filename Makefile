# duelclub — the two set-up commands of the README are `make run` and `make test`.
# Both create the virtual environment and install what they need on a fresh machine.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8000
BABEL_KEYWORDS := -k N_ -k ngettext:1,2 -k t -k tn:2,3

.PHONY: run test test-fast install install-dev lock wheel-smoke browser nginx lint deadcode typecheck bench messages clean

$(BIN)/python:
	@echo ">> Creating the virtual environment $(VENV) with $(PYTHON)"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# Exact versions from the lock files (README §Dependencies), then duelclub itself (editable, no resolution).
$(VENV)/.installed: pyproject.toml requirements/run.lock | $(BIN)/python
	@echo ">> Installing duelclub's dependencies (requirements/run.lock) into $(VENV): about a minute the first time"
	$(BIN)/pip install --progress-bar off -r requirements/run.lock
	@echo ">> Installing duelclub itself (editable)"
	$(BIN)/pip install --quiet --no-deps -e .
	@echo ">> Installed into $(VENV)"
	touch $@

$(VENV)/.installed-dev: pyproject.toml requirements/dev.lock | $(BIN)/python
	@echo ">> Installing duelclub's dependencies and dev tools (requirements/dev.lock) into $(VENV): about a minute the first time"
	$(BIN)/pip install --progress-bar off -r requirements/dev.lock
	@echo ">> Installing duelclub itself (editable)"
	$(BIN)/pip install --quiet --no-deps -e .
	@echo ">> Installed into $(VENV)"
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

## Refresh the lock files from pyproject.toml's ranges (uv, a dev tool): pins kept where still allowed; add
## `LOCK_ARGS=--upgrade` (or `--upgrade-package NAME`) to move to the newest allowed versions. uv reads no
## pip configuration: pip's own index (PIP_INDEX_URL, or `pip config get global.index-url`) is passed on
## when one is set, its extra indexes (machine-local mirrors) are not: the lock holds what any machine gets.
PIP_INDEX = $(or $(PIP_INDEX_URL),$(shell $(BIN)/pip config get global.index-url 2>/dev/null))
UV_COMPILE = $(BIN)/uv pip compile pyproject.toml --universal --python-version 3.11 \
  --custom-compile-command "make lock" $(if $(PIP_INDEX),--index-url $(PIP_INDEX)) $(LOCK_ARGS)
lock: install-dev
	$(UV_COMPILE) --extra dev -o requirements/dev.lock
	$(UV_COMPILE) -c requirements/dev.lock -o requirements/run.lock

## The data directory (SQLite database, secret key) of `make run`: the checkout's var/ (settings.py's own
## default is ~/.local/share/duelclub, for an installed duelclub run from anywhere).
DATA_DIR ?= $(CURDIR)/var

## Serve http://$(HOST):$(PORT) on the embedded defaults (SQLite under var/, in-process bus).
run: install
	DATA_DIR="$(DATA_DIR)" $(BIN)/duelclub serve --host $(HOST) --port $(PORT)

## Debian's chromium for the browser tests (never a downloaded browser); skipped loudly if it can't be had.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
	      || echo "!! could not install chromium: browser tests will be skipped"; \
	  else echo "!! chromium missing and not root: browser tests will be skipped"; fi; }

## Debian's nginx for the load balancer's test (tests/deploy: deploy/nginx.conf); skipped loudly without it.
nginx:
	@command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null) \
	      || echo "!! could not install nginx: its test will be skipped"; \
	  else echo "!! nginx missing and not root: its test will be skipped"; fi; }

## The whole suite, slow tests included, in TEST_WORKERS pytest-xdist workers (`auto`: one per core;
## TEST_WORKERS=0 runs it in this process). PostgreSQL/Redis tests skip loudly where those servers are absent.
TEST_WORKERS ?= auto
test: install-dev browser nginx
	$(BIN)/pytest -n $(TEST_WORKERS)

## The suite without the tests marked slow (strength matches, real servers killed and restarted).
test-fast: install-dev
	$(BIN)/pytest -n $(TEST_WORKERS) -m "not slow"

## Build the wheel, install it into a fresh virtual environment outside the checkout, migrate, serve from an
## empty directory and fetch the pages (issue 15 §6; CI runs it).
wheel-smoke:
	bash .ci/wheel_smoke.sh

## CI's lint step (.ci/run): ruff, then dead code.
lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(MAKE) --no-print-directory deadcode

## Unused code (vulture; its paths, confidence and ignores in pyproject.toml, the names it cannot see used in
## .ci/vulture_whitelist.py).
deadcode: install-dev
	$(BIN)/vulture

typecheck: install-dev
	$(BIN)/mypy

bench: install-dev
	$(BIN)/python benchmarks/engine_speed.py
	$(BIN)/python benchmarks/mezha_engine.py
	$(BIN)/python benchmarks/mezha_bots.py

## Extract the UI strings (templates, Python, static/js) and merge them into the Ukrainian catalog; then
## translate the new/fuzzy entries in src/duelclub/locale/uk/LC_MESSAGES/messages.po (tests fail until done).
messages: install-dev
	$(BIN)/pybabel extract -F babel.cfg $(BABEL_KEYWORDS) --no-wrap --sort-by-file --omit-header \
	  -o src/duelclub/locale/messages.pot .
	$(BIN)/pybabel update -i src/duelclub/locale/messages.pot -d src/duelclub/locale -D messages -l uk \
	  --no-wrap --ignore-obsolete --no-fuzzy-matching

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
