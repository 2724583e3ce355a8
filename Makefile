# hat-env: `make run` runs a live session with the reference agent; `make test` runs the tests.
# Both create .venv on first use and install the project into it (CPU-only; no GPU needed).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup run test bench clean

$(STAMP): setup.cfg pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[test]"
	touch $(STAMP)

setup: $(STAMP)

run: setup
	$(VENV)/bin/hat-env run --scenario beauty_zh --seed 0 --duration 300

test: setup
	$(PY) -m pytest -q

bench: setup
	$(PY) benchmarks/env_step.py

clean:
	rm -rf $(VENV) runs .pytest_cache
