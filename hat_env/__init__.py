"""hat-env: a live-commerce live-room gym for LLM agents, with a Harness runtime, Harness-State Augmentation
and Harness-Aware Training.

Importing this package registers the Gymnasium environments ``hat_env/LiveRoom-v0`` and ``hat_env/LiveQA-v0``
and stays light: torch, transformers, trl, vllm and ray are imported only by the parts that use them.
"""

from __future__ import annotations

import gymnasium as _gym

__version__ = "0.1.0"


def _register() -> None:
    for env_id, entry in (
        ("hat_env/LiveRoom-v0", "hat_env.envs.live_room:LiveRoomEnv"),
        ("hat_env/LiveQA-v0", "hat_env.envs.live_qa:LiveQAEnv"),
    ):
        if env_id not in _gym.registry:
            _gym.register(id=env_id, entry_point=entry, disable_env_checker=True)


_register()

__all__ = ["__version__"]
