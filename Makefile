# Two commands set everything up on a fresh machine:
#   make run    creates .venv, installs affray, starts the table server on http://127.0.0.1:8000 and on the machine's
#               LAN address (LAN=ADDR chooses it, LAN=off: loopback only; SQLite file affray.db) with a fresh
#               creation key, opens a demo WitchHammer table and prints the GM page's link, every seat's link and the
#               lobby's link with the key, all with the LAN address for phones (Ctrl-C stops it)
#   make demo   plays a narrated Combat Nerdified fight in the terminal and verifies its log
#   make test   creates .venv, installs affray with its dev extras, Debian's Chromium (packages chromium and
#               chromium-headless-shell, as root, when missing; the tests drive the headless shell, tests/web/browser.py)
#               and Debian's nginx-light (the proxy of docs/table.md, tests/table/test_proxy.py),
#               axe-core (npm, make axe: into build/axe; the accessibility checks of tests/web/test_axe.py),
#               runs ruff, mypy --strict and pytest (every test: the server, PostgreSQL and browser ones included),
#               on WORKERS processes (default: the machine's cores; --dist worksteal: an idle one takes a busy one's
#               queued tests, so they finish together)
#   make test-quick   the inner loop: ruff, mypy --strict and the tests that start no server, no PostgreSQL and no
#               browser (pytest -m "not server and not browser"; tests/conftest.py sets the markers), the fast path's
#               differential test on QUICK_FAST_SEEDS seeds (make test: FAST_SEEDS, 100), and the sweeps over every example on a
#               fixed third of each ruleset's examples (AFFRAY_QUICK=1, tests/sweep.py; make test: all of them)
#   make mypyc / test-mypyc / bench-mypyc   optional: the simulation's hot modules compiled with mypyc into a copy
#               of src/ (build/mypyc), the fast path's and the two party rulesets' tests run against it, its bench
PYTHON ?= python3
# Python's own bytecode cache on, whatever the shell says: with PYTHONDONTWRITEBYTECODE set (as on these machines)
# every test process, CLI subprocess and server start compiled affray from source again, and pytest rewrote every
# test module's asserts again (13 s of each worker's collection, against 4.5 s cached). __pycache__ is gitignored.
unexport PYTHONDONTWRITEBYTECODE
VENV := .venv
BIN := $(VENV)/bin
STAMP_RUN := $(VENV)/.installed-run
STAMP_DEV := $(VENV)/.installed-dev
WORKERS ?= $(shell nproc 2>/dev/null || echo 2)
QUICK_FAST_SEEDS ?= 20
FAST_SEEDS ?= 100
FUZZ_FAST_SEEDS ?= 1000

HOST ?= 127.0.0.1
PORT ?= 8000
LAN ?= auto
DEMO_TABLE ?= witchhammer/mill_ambush
CHROMIUM := /usr/bin/chromium
CHROMIUM_SHELL := /usr/bin/chromium-headless-shell
NGINX := /usr/sbin/nginx
# axe-core, the accessibility checker the browser tests inject into the pages (tests/web/axe.py): the npm package at
# this version, installed into build/ by `make axe` (make test does it), never fetched while the tests run
AXE_VERSION := 4.14.1
AXE := build/axe/node_modules/axe-core/axe.min.js

.PHONY: run demo test test-quick coverage lint fuzz bench bench-versions mypyc test-mypyc bench-mypyc clean browser proxy screenshots axe

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(STAMP_RUN): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(STAMP_DEV): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[dev]'
	touch $@ $(STAMP_RUN)

# The server runs in the background of this recipe; the demo table is opened once it answers (bounded wait). A fresh
# creation key is made for each run and handed to the server and to `affray table new` in the environment (never on a
# command line, which every user of the machine may read); the lobby link printed carries it in its fragment
# (/#key=...), which the lobby keeps, so more tables open from the page (docs/table.md, "Limits").
# Phones at the table: the server listens on this machine's LAN address as well (the default route's, chosen by
# affray.web.lan; LAN=192.168.1.20 chooses one, LAN=off serves loopback only), and every link printed carries that
# address (docs/table.md, "Phones at the table"). Without a LAN address it serves loopback only, saying why.
run: $(STAMP_RUN)
	@AFFRAY_CREATE_KEY=$$($(BIN)/python -c "import secrets; print(secrets.token_urlsafe(24))"); export AFFRAY_CREATE_KEY; \
	lan=""; base=http://$(HOST):$(PORT); \
	if [ "$(LAN)" != off ]; then found=$$($(BIN)/python -m affray.web.lan $(LAN) $(PORT)) && set -- $$found && \
	  lan=$$1 && base=$$2; fi; \
	$(BIN)/affray serve --host $(HOST) --port $(PORT) $${lan:+--lan $$lan} & pid=$$!; trap 'kill $$pid 2>/dev/null' INT TERM EXIT; \
	for i in $$(seq 1 150); do \
	  $(BIN)/python -c "import socket; socket.create_connection(('$(HOST)', $(PORT)), 0.2)" 2>/dev/null && break; \
	  kill -0 $$pid 2>/dev/null || exit 1; sleep 0.2; done; \
	$(BIN)/affray table new $(DEMO_TABLE) --server http://$(HOST):$(PORT) --link-base $$base \
	  --controller ilse=human --controller tomas=human || exit 1; \
	echo "Open the GM page's link: it lists each player's link (copy it, or show its QR code to a phone on the same network). The AI plays the villagers; the GM can rule on any combatant. The lobby's link opens more tables. Ctrl-C stops the server."; \
	wait $$pid

demo: $(STAMP_RUN)
	@mkdir -p out
	$(BIN)/affray fight examples/hud/nerdified_duel.yaml --seed 7 --log out/duel.json
	$(BIN)/affray verify out/duel.json

# Debian's Chromium for the browser tests (never a browser download); installed when missing and root. The tests
# drive Debian's headless shell, Chromium's build for automation (half the CPU of the desktop build), else chromium.
browser:
	@test -x $(CHROMIUM) -a -x $(CHROMIUM_SHELL) || { if [ "$$(id -u)" = 0 ]; then apt-get update -qq && \
	  apt-get install -y -qq chromium chromium-headless-shell; \
	  else echo "The browser tests need Chromium: run 'sudo apt-get install -y chromium chromium-headless-shell'"; fi; }

# Debian's nginx for the test of docs/table.md's proxy (tests/table/test_proxy.py: each table routed to one process);
# installed when missing and root. The test runs it in the foreground on a free loopback port; the system service the
# package starts on a machine with systemd (port 80) is stopped and disabled again, since nothing here uses it.
# If it cannot be installed the other tests still run, and that one fails saying what to install.
proxy:
	@test -x $(NGINX) || { if [ "$$(id -u)" = 0 ]; then { apt-get update -qq && apt-get install -y -qq nginx-light && \
	  { ! command -v systemctl >/dev/null || systemctl disable --now nginx >/dev/null 2>&1 || true; }; } || \
	  echo "Could not install nginx-light: tests/table/test_proxy.py will fail"; \
	  else echo "The proxy test needs nginx: run 'sudo apt-get install -y nginx-light'"; fi; }

# axe-core from the npm registry (npm from Debian's packages when missing and root), into build/axe (gitignored)
axe: $(AXE)
$(AXE):
	@command -v npm >/dev/null || { if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq npm; \
	  else echo "The accessibility tests need npm: run 'sudo apt-get install -y npm'"; exit 1; fi; }
	npm install --prefix build/axe --no-save --no-audit --no-fund --loglevel=error axe-core@$(AXE_VERSION)

# mypy type-checks on WORKERS processes (mypy 2's --num-workers: a cold check, as on a fresh clone, 17.5 s -> 10 s)
lint: $(STAMP_DEV)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy --num-workers $(WORKERS)

test: lint browser proxy axe
	AFFRAY_FAST_SEEDS=$(FAST_SEEDS) $(BIN)/pytest -n $(WORKERS) --dist worksteal -q

test-quick: lint
	AFFRAY_QUICK=1 AFFRAY_FAST_SEEDS=$(QUICK_FAST_SEEDS) $(BIN)/pytest -n $(WORKERS) --dist worksteal -q -m "not server and not browser"

# Branch coverage of src/affray over the quick suite's selection (no server, PostgreSQL or browser test), the CLI's
# child processes included ([tool.coverage.*] in pyproject.toml): a summary per module in the terminal and the total,
# recorded in docs/coverage.md (build/coverage.json has it per file). pytest-cov comes with the dev extras.
coverage: $(STAMP_DEV)
	AFFRAY_QUICK=1 AFFRAY_FAST_SEEDS=$(QUICK_FAST_SEEDS) $(BIN)/pytest -n $(WORKERS) --dist worksteal -q \
	  -m "not server and not browser" --cov --cov-branch --cov-report=term:skip-covered \
	  --cov-report=json:build/coverage.json

# The browser tests' screenshots into docs/img/ (an ordinary test run writes them to a temporary folder)
screenshots: $(STAMP_DEV) browser
	AFFRAY_CAPTURE_DOCS=1 $(BIN)/pytest -q -p no:xdist tests/web/test_browser_pages.py tests/web/test_browser_witchhammer.py \
	  tests/web/test_browser_spellchrome.py tests/web/test_browser_group.py tests/web/test_browser_gm_chat.py \
	  tests/web/test_browser_phone.py tests/web/test_browser_builder.py tests/web/test_browser_phone_all.py

# The deep runs: 500 Hypothesis examples of junk actions per scenario, and the fast path's differential test on
# FUZZ_FAST_SEEDS seeds of every example (make test: FAST_SEEDS)
fuzz: $(STAMP_DEV)
	AFFRAY_FUZZ_EXAMPLES=500 AFFRAY_FAST_SEEDS=$(FUZZ_FAST_SEEDS) $(BIN)/pytest -n $(WORKERS) --dist worksteal -q \
	  tests/conformance/test_fuzz.py tests/conformance/test_fast_path.py

# bench_versions compares this tree with another checkout: make bench-versions BASELINE=../old/.venv/bin/python
# (the dev extras: bench_table reuses the test suite's server and PostgreSQL harnesses, which import pytest)
# The party fights' goals are against the full engine of the day they were set (docs/performance.md): that commit's
# src/ and examples/, from this repository's history (bench/bench_fast.py --baseline COMMIT)
FAST_BASELINE ?= eced352
bench: $(STAMP_DEV)
	@for b in bench/bench_*.py; do [ $$b = bench/bench_versions.py ] && continue; echo "== $$b"; \
	  if [ $$b = bench/bench_table.py ]; then $(BIN)/python $$b --goals || exit 1; \
	  elif [ $$b = bench/bench_fast.py ]; then $(BIN)/python $$b --baseline $(FAST_BASELINE) || exit 1; \
	  else $(BIN)/python $$b || exit 1; fi; done

bench-versions: $(STAMP_RUN)
	$(BIN)/python bench/bench_versions.py --baseline $(BASELINE) --examples $(dir $(BASELINE))../../examples

# Optional, never part of make test: the simulation's hot modules compiled with mypyc into a copy of src/
# (bench/mypyc_build.py; needs a C compiler), the same tests run against that copy, and the fast-path bench on it
MYPYC_OUT ?= build/mypyc
mypyc: $(STAMP_DEV)
	$(BIN)/python bench/mypyc_build.py --out $(MYPYC_OUT)

test-mypyc: mypyc
	PYTHONPATH=$(MYPYC_OUT)/src $(BIN)/pytest -n $(WORKERS) --dist worksteal -q -m "not server and not browser" \
	  tests/conformance/test_fast_path.py tests/witchhammer tests/spellchrome tests/sim tests/core/test_grid.py

bench-mypyc: mypyc
	PYTHONPATH=$(MYPYC_OUT)/src $(BIN)/python bench/bench_fast.py --only witchhammer,spellchrome --baseline $(or $(BASELINE),.)

clean:
	rm -rf $(VENV) out build/mypyc .mypy_cache .ruff_cache .pytest_cache .hypothesis
