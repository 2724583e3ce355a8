"""The memoriser: the failure mode Harness-Aware Training fixes, as an agent.

It behaves exactly like the reference agent, but against the harness it memorised (the original ``default``
pack, or any pack given), not the one in the request: it calls the old tool names with the old argument names
and encodings and loads the old skill names. Under the original harness it scores like the reference; under a
changed harness its calls fail, which is what a model fine-tuned on one fixed harness does.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hat_env.agents.reference import ReferenceAgent
from hat_env.harness.core import Harness
from hat_env.types import AgentRequest, AgentResponse


class MemorizerAgent(ReferenceAgent):
    """Replays a memorised harness's names and formats.

    Args:
        harness: the harness it memorised (a pack name, folder or :class:`Harness`; default ``default``).
        seed: unused; accepted for a uniform interface.
    """

    name = "memorizer"

    def __init__(self, harness: Any = "default", seed: int = 0):
        super().__init__(seed=seed)
        self.memorised = harness if isinstance(harness, Harness) else Harness.load(harness)

    def act(self, request: AgentRequest) -> AgentResponse:
        """Act as the reference would under the memorised harness, whatever the request's harness is."""
        return super().act(replace(request, harness=self.memorised))
