"""Agents for the Ray backend tests: real agents (the reference policy underneath) that behave as a user's own
plug-in would, given as ``module:attr`` (this folder is on the workers' import path).

- :class:`AsyncReference`: an async ``aact`` agent, as an endpoint adapter is, that waits a little per call and
  records, per worker process, the most calls it had in flight at once (to check the concurrency limit).
- :class:`CrashOnce`: kills its own worker process at its Nth call, once per marker file (a worker dying
  mid-run, as a node loss or an out-of-memory kill does).
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

from hat_env.agents.reference import ReferenceAgent
from hat_env.types import AgentRequest, AgentResponse


class AsyncReference:
    """The reference policy behind an async ``aact``.

    Args:
        log_dir: where each process writes ``PID.json`` with the most calls it had in flight.
        delay_s: how long each call waits before answering.
    """

    name = "async-reference"

    def __init__(self, log_dir: str, delay_s: float = 0.02):
        self.ref = ReferenceAgent()
        self.log_dir = Path(log_dir)
        self.delay_s = delay_s
        self.in_flight = 0
        self.peak = 0

    async def aact(self, request: AgentRequest) -> AgentResponse:
        """The reference agent's answer, after ``delay_s``."""
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        try:
            await asyncio.sleep(self.delay_s)
            return self.ref.act(request)
        finally:
            self.in_flight -= 1
            self.log_dir.mkdir(parents=True, exist_ok=True)
            (self.log_dir / f"{os.getpid()}.json").write_text(json.dumps({"peak": self.peak}))


class CrashOnce(ReferenceAgent):
    """The reference agent that ends its process at its ``at``-th call unless ``marker`` exists (it creates it
    first, so only one worker dies)."""

    name = "crash-once"

    def __init__(self, marker: str, at: int = 5):
        super().__init__()
        self.marker = Path(marker)
        self.at = at
        self.calls = 0

    def act(self, request: AgentRequest) -> AgentResponse:
        """The reference agent's answer, or the end of this process."""
        self.calls += 1
        if self.calls == self.at and not self.marker.exists():
            self.marker.write_text(str(os.getpid()))
            os._exit(3)
        return super().act(request)
