# Two commands set everything up on a fresh machine:
#   make run    creates .venv, installs affray, plays a narrated Combat Nerdified fight and verifies its log
#   make test   creates .venv, installs affray with its dev extras, runs ruff, mypy --strict and pytest
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP_RUN := $(VENV)/.installed-run
STAMP_DEV := $(VENV)/.installed-dev
WORKERS ?= 2

.PHONY: run test lint fuzz bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(STAMP_RUN): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(STAMP_DEV): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[dev]'
	touch $@ $(STAMP_RUN)

run: $(STAMP_RUN)
	@mkdir -p out
	$(BIN)/affray fight examples/hud/nerdified_duel.yaml --seed 7 --log out/duel.json
	$(BIN)/affray verify out/duel.json

lint: $(STAMP_DEV)
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy

test: lint
	$(BIN)/pytest -n $(WORKERS) -q

fuzz: $(STAMP_DEV)
	AFFRAY_FUZZ_EXAMPLES=500 $(BIN)/pytest -n $(WORKERS) -q tests/conformance/test_fuzz.py

bench: $(STAMP_RUN)
	@for b in bench/bench_*.py; do echo "== $$b"; $(BIN)/python $$b; done

clean:
	rm -rf $(VENV) out .mypy_cache .ruff_cache .pytest_cache .hypothesis
