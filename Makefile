# Two entry points for a newcomer: `make run` and `make test`. Both create .venv on first use.
# `make run` installs only what playing needs (PLAY_STAMP); `make test` installs the test,
# research and docs extras too (STAMP), and a full install counts as a play install, so `make run`
# after `make test` installs nothing.
PYTHON ?= python3.11
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PLAY_STAMP := $(VENV)/.installed-play
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: run install-play test check lint bench clean chromium postgres warm

# pytest-xdist workers: the suite waits on servers, processes and browsers as much as it computes,
# and two workers halve it on a 2-core machine (each worker starts its own PostgreSQL cluster and
# servers on free ports). WORKERS=0 runs everything in one process, for reading a failure.
WORKERS ?= 2

# What playing needs: gamehall's base dependencies alone (no test, research or docs extras).
$(PLAY_STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	@touch $(PLAY_STAMP)

install-play: $(PLAY_STAMP)

# The worked example of docs/adding-a-game.md is a distribution of its own, installed beside
# gamehall: the suite shows gamehall passes with a third-party game installed, and checks it.
$(STAMP): pyproject.toml examples/tictactoe/pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,rl,docs,train]'
	$(BIN)/python -m pip install --quiet -e examples/tictactoe
	@touch $(STAMP) $(PLAY_STAMP)

# numba compiles the exact solvers' kernels on first use (10-25 s); compile them here, once (a
# second or two when they are cached), so no first move, solve or hint waits for it.
warm: $(PLAY_STAMP)
	$(BIN)/gamehall warm-up

# Three numbered steps, each with its expected time, then the server's address and how to stop.
run:
	@if [ -f $(PLAY_STAMP) ] && [ $(PLAY_STAMP) -nt pyproject.toml ]; then \
	  echo "[1/3] The environment ($(VENV)) has what playing needs: nothing to install."; \
	else \
	  echo "[1/3] Creating the environment ($(VENV)) with what playing needs (1-4 min, once)..."; \
	  $(MAKE) --no-print-directory $(PLAY_STAMP); \
	fi
	@echo "[2/3] Warming up the computer players (1-12 min the first time, by the load; seconds after)..."
	@$(BIN)/gamehall warm-up
	@echo "[3/3] Starting the server (it answers within seconds)..."
	@$(BIN)/gamehall serve --host $(HOST) --port $(PORT)

# Browser tests drive Debian's chromium; install it when missing (root, or sudo if there is one).
chromium:
	@test -x /usr/bin/chromium || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium; }

# The accessibility browser test injects axe-core, pinned in package.json/package-lock.json (touch:
# npm's files keep the tarball's 1985 date, which would make this rule run every time).
node_modules/axe-core/axe.min.js: package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

# The PostgreSQL store tests start a throwaway cluster with Debian's server binaries.
postgres:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq postgresql; }

# The browser tests run in their own pytest invocation (a plain pytest leaves them out): Playwright's
# sync fixtures leave an event loop running that would upset the async tests of the rest.
# Chromium and PostgreSQL are hard dependencies of the suite: without them tests fail, never skip.
# A browser test module starts a server of its own: --dist loadfile keeps a module on one worker.
test: $(STAMP) warm chromium postgres node_modules/axe-core/axe.min.js
	$(BIN)/ruff check src tests bench examples
	$(BIN)/ruff format --check src tests bench examples
	$(BIN)/lint-imports --no-cache
	$(BIN)/python -m pytest -n $(WORKERS)
	$(BIN)/gamehall check-game tictactoe
	$(BIN)/python -m pytest examples/tictactoe
	$(BIN)/python -m pytest tests/browser -n $(WORKERS) --dist loadfile

# The inner loop: the lint of `make test` and every test not marked slow or postgres (the browser
# tests are left out as in any plain pytest run), with no cluster and no chromium to start; it
# aims at under 3 minutes on a 2-core machine. `make test` still runs everything before a merge.
check: $(STAMP)
	$(BIN)/ruff check src tests bench examples
	$(BIN)/ruff format --check src tests bench examples
	$(BIN)/lint-imports --no-cache
	$(BIN)/python -m pytest -m "not slow and not postgres" -q -n $(WORKERS)

lint: $(STAMP)
	$(BIN)/ruff check src tests bench examples
	$(BIN)/lint-imports --no-cache
	$(BIN)/ruff format --check src tests bench examples

# The documentation site (mkdocs.yml, docs/) into build/site/; strict, so a broken link or a
# missing page fails, as it does in the test suite (tests/docs).
.PHONY: docs
docs: $(STAMP)
	$(BIN)/mkdocs build --strict

bench: $(STAMP)
	$(BIN)/python bench/acadmu_rounds.py

clean:
	rm -rf $(VENV) build dist .pytest_cache .ruff_cache .hypothesis
