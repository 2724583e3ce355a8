"""Shared fixtures for the model-agent tests: the tiny model and a real vLLM OpenAI-compatible server.

Both are built or started once per test session. Under CI (``CI`` set) a missing stack fails the tests that need
it instead of skipping them: ``make setup`` installs the stack, so a skip there would hide a broken install.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

from hat_env.agents.local_server import LocalVLLMServer

IN_CI = os.environ.get("CI", "").lower() not in ("", "0", "false", "no")
PLUGIN_PKG = Path(__file__).resolve().parent / "plugin_pkg"


def need(*modules: str) -> None:
    """Skip (locally) or fail (under CI) unless every module in ``modules`` can be imported."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        msg = f"needs {', '.join(missing)} (run `make setup`, which installs the CPU stack)"
        if IN_CI:
            pytest.fail(msg, pytrace=False)
        pytest.skip(msg)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "kills_server: kills the shared vLLM server; runs after every other test")


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests that kill the shared server go last (a stable sort), so no other test waits for a restart."""
    items.sort(key=lambda item: item.get_closest_marker("kills_server") is not None)


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny offline Qwen2 model (``hat-env make-tiny-model``), built once per session."""
    need("torch", "transformers", "tokenizers")
    from hat_env.agents.tiny_model import build_tiny_model

    return build_tiny_model(tmp_path_factory.mktemp("tiny-model"))


@pytest.fixture(scope="session")
def _vllm_servers(tiny_model: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    need("vllm", "openai")
    state: dict[str, Any] = {"server": None, "log_dir": tmp_path_factory.mktemp("vllm-logs"), "starts": 0}
    try:
        yield state
    finally:
        if state["server"] is not None:
            state["server"].stop()


@pytest.fixture
def vllm_server(_vllm_servers: dict[str, Any], tiny_model: Path) -> LocalVLLMServer:
    """The session's real vLLM server for the tiny model (served as ``tiny``), started on first use and
    restarted if a test killed it."""
    srv = _vllm_servers["server"]
    if srv is None or not srv.alive():
        if srv is not None:
            srv.stop()
        _vllm_servers["starts"] += 1
        log = _vllm_servers["log_dir"] / f"server-{_vllm_servers['starts']}.log"
        srv = LocalVLLMServer(tiny_model, name="tiny", max_model_len=8192, extra_args=["--max-num-seqs", "16"], log=log)
        _vllm_servers["server"] = srv
        try:
            srv.start(ready_timeout=300)
        except RuntimeError as exc:
            pytest.fail(str(exc), pytrace=False)
    return srv


@pytest.fixture(scope="session")
def demo_plugin() -> str:
    """The test plug-in package (tests/plugin_pkg) installed, so its ``hat_env.agents`` entry points exist.

    ``make setup`` installs it; when it is missing this installs it (editable) into the running interpreter.
    """
    from importlib.metadata import entry_points

    if "demo-sync" not in {ep.name for ep in entry_points(group="hat_env.agents")}:
        r = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
                            "-e", str(PLUGIN_PKG)], capture_output=True, text=True)
        if r.returncode != 0:
            pytest.fail(f"could not install {PLUGIN_PKG}:\n{r.stdout}\n{r.stderr}", pytrace=False)
        importlib.invalidate_caches()
    if importlib.util.find_spec("hat_env_demo_plugin") is None:  # an editable install's path hook loads at start-up
        sys.path.insert(0, str(PLUGIN_PKG))
    return "demo-sync"
