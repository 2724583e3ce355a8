"""A demo hat-env plug-in: agents exposed through the ``hat_env.agents`` entry-point group.

Installed by ``make setup`` (``pip install -e tests/plugin_pkg``); the tests run it through ``hat-env run``.

- ``demo-sync``: a class with a sync ``act`` that delegates to the reference agent and marks its answers;
- ``demo-async``: a class with only ``async aact``;
- ``demo-func``: a bare ``async def`` function of the request, returning a plain string.
"""

from __future__ import annotations

import asyncio

from hat_env.agents.reference import ReferenceAgent
from hat_env.types import AgentRequest, AgentResponse


class EchoReferenceAgent:
    """Sync plug-in: the reference agent's answers, counted."""

    name = "demo-sync"

    def __init__(self, seed: int = 0):
        self.inner = ReferenceAgent(seed=seed)
        self.calls = 0

    def act(self, request: AgentRequest) -> AgentResponse:
        self.calls += 1
        return self.inner.act(request)


class AsyncReferenceAgent:
    """Async plug-in (``aact`` only): the reference agent's answers after a zero-length await."""

    name = "demo-async"

    def __init__(self, seed: int = 0, **kwargs: object):
        self.inner = ReferenceAgent(seed=seed)
        self.kwargs = kwargs

    async def aact(self, request: AgentRequest) -> AgentResponse:
        await asyncio.sleep(0)
        return self.inner.act(request)


_REF = ReferenceAgent()


async def async_agent(request: AgentRequest) -> str:
    """A bare async function plug-in returning the reference agent's raw text."""
    await asyncio.sleep(0)
    return _REF.act(request).text
