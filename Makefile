# Two entry points for a newcomer: `make run` and `make test`. Both create .venv on first use.
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint bench clean chromium postgres warm

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,rl]'
	@touch $(STAMP)

# numba compiles the exact solvers' kernels on first use (10-25 s); compile them here, once (a
# second or two when they are cached), so no first move, solve or hint waits for it.
warm: $(STAMP)
	$(BIN)/gamehall warm-up

run: warm
	$(BIN)/gamehall serve

# Browser tests drive Debian's chromium; install it when missing (root, or sudo if there is one).
chromium:
	@test -x /usr/bin/chromium || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium; }

# The PostgreSQL store tests start a throwaway cluster with Debian's server binaries.
postgres:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq postgresql; }

# The browser tests run in their own pytest invocation (a plain pytest leaves them out): Playwright's
# sync fixtures leave an event loop running that would upset the async tests of the rest.
# Chromium and PostgreSQL are hard dependencies of the suite: without them tests fail, never skip.
test: warm chromium postgres
	$(BIN)/ruff check src tests bench
	$(BIN)/lint-imports --no-cache
	$(BIN)/python -m pytest
	$(BIN)/python -m pytest tests/browser

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/lint-imports --no-cache
	$(BIN)/ruff format --check src tests bench

bench: $(STAMP)
	$(BIN)/python bench/acadmu_rounds.py

clean:
	rm -rf $(VENV) build dist .pytest_cache .ruff_cache .hypothesis
