"""One live session with one host: a :class:`~hat_env.envs.room.Room` (clock, viewers, tools, rules, trace) and
one :class:`~hat_env.envs.host.Host` (harness timeline with HSA, history, the request loop, scoring).

Environments (``LiveRoom-v0``, ``LiveQA-v0``) and the ``hat-env run``/``bench``, data and RL drivers drive this
class; the PettingZoo room (:class:`~hat_env.envs.multi_room.MultiRoom`) is the same room with N hosts. Every
random draw comes from a stream derived from the seed, so a seed fixes the session, and its trace, to the byte.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Any

from hat_env.envs.host import Host, request_record
from hat_env.envs.room import TRACE_VERSION, Room, TraceWriter, load_harness, stream
from hat_env.harness.core import Harness
from hat_env.harness.runtime import RequestLoop
from hat_env.sim.scenario import Scenario, load_scenario
from hat_env.types import LiveRequest, RequestOutcome, Turn

__all__ = ["TRACE_VERSION", "LiveSession", "TraceWriter", "request_record", "stream"]


class LiveSession(Room):
    """A live session from first comment to the end of the stream.

    Args:
        scenario: a :class:`Scenario`, a built-in name or a path.
        seed: fixes every random draw; ``None`` uses the scenario's seed.
        harness: a :class:`Harness` or pack name/path replacing the scenario's harness.
        trace: JSONL path to append the trace to, or ``None``.
        duration_s: override of the scenario's duration.
        max_history: earlier request/reply pairs shown to the model.
        hsa: Harness-State Augmentation options applied at the start (see :mod:`hat_env.hsa`), or ``None``.
        viewers: simulate the viewer population. ``False`` for single-request episodes (evaluation cases, LiveQA),
            where requests are opened with :meth:`open_request` and nobody reacts to replies.

    Attributes:
        host: the session's :class:`~hat_env.envs.host.Host` (``harness``, ``history``, ``loop``, ``outcomes``
            and ``hsa_info`` below are its).
    """

    def __init__(
        self,
        scenario: Scenario | str | Path,
        seed: int | None = None,
        harness: Harness | str | Path | None = None,
        trace: str | Path | None = None,
        duration_s: float | None = None,
        max_history: int = 4,
        hsa: dict[str, Any] | None = None,
        viewers: bool = True,
    ):
        sc = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
        if duration_s is not None:
            sc = sc.model_copy(update={"duration_s": float(duration_s)})
        super().__init__(sc, sc.seed if seed is None else int(seed), viewers=viewers)
        self.host = Host(self, load_harness(harness, sc), hsa=hsa,
                         max_history=max_history, trace_hsa=True)
        self.start_trace(
            trace,
            {
                "type": "session_start",
                "trace_version": TRACE_VERSION,
                "scenario": sc.name,
                "locale": sc.locale,
                "seed": self.seed,
                "duration_s": sc.duration_s,
                "harness": self.host.harness_id(),
                "hsa": self.host.hsa_info,
                "products": [p.product_id for p in self.state.products],
            },
        )

    # -- the host's state, by its old names --------------------------------------------------------------
    @property
    def loop(self) -> RequestLoop | None:
        """The open request, or ``None``."""
        return self.host.loop

    @property
    def harness(self) -> Harness:
        """The harness in force (the HSA variant under HSA)."""
        return self.host.harness

    @harness.setter
    def harness(self, value: Harness) -> None:
        self.host.harness = value

    @property
    def base_harness(self) -> Harness:
        """The harness before augmentation (timeline patches apply to it)."""
        return self.host.base_harness

    @base_harness.setter
    def base_harness(self, value: Harness) -> None:
        self.host.base_harness = value

    @property
    def hsa(self) -> dict[str, Any] | None:
        """The HSA options, or ``None``."""
        return self.host.hsa

    @property
    def hsa_info(self) -> dict[str, Any] | None:
        """What the last augmentation did, or ``None``."""
        return self.host.hsa_info

    @property
    def history(self) -> list[dict[str, Any]]:
        """The user/assistant messages of the finished requests."""
        return self.host.history

    @history.setter
    def history(self, value: list[dict[str, Any]]) -> None:
        self.host.history = value

    @property
    def max_history(self) -> int:
        """Earlier request/reply pairs shown to the model."""
        return self.host.max_history

    @property
    def outcomes(self) -> "deque[tuple[RequestOutcome, dict[str, float], float]]":
        """``(outcome, components, composite)`` of the last finished requests (see :attr:`Host.outcomes
        <hat_env.envs.host.Host.outcomes>`: the last 1,000; the summary counts every one)."""
        return self.host.outcomes

    @property
    def turn_timings(self) -> list[dict[str, Any]]:
        """Per-turn timing records of the open request, else of the last finished one."""
        loop = self.host.loop
        if loop is not None:
            return loop.timings
        return self.host.outcomes[-1][0].timings if self.host.outcomes else []

    # -- requests ------------------------------------------------------------------------------------------
    def next_request(self) -> bool:
        """Advance the room to the next merged request and open its loop; ``False`` when the stream is over, or
        when the session failed (:attr:`error`: a harness patch due now did not apply; the session is then
        finished, its summary written with the error)."""
        if self.finished or self.viewers is None:
            return False
        req = self.viewers.next_request(f"r{self.n_requests + 1:04d}")
        if req is None:
            self.finish()
            return False
        return self.open_request(req)

    def open_request(self, req: LiveRequest) -> bool:
        """Start handling ``req`` (used directly by LiveQA-style single-request episodes); the scenario's room
        events due by now apply first.

        Returns:
            ``True`` when the request is open; ``False`` when a harness patch due by now failed: the session is
            finished with :attr:`error` set (see :meth:`Host.apply_timeline
            <hat_env.envs.host.Host.apply_timeline>`).
        """
        self.n_requests += 1
        self.apply_events(self.state.t)
        if self.host.open(req, self.state.t) is None:
            self.finish()
            return False
        return True

    def feed(
        self,
        action: Any,
        tool_calls: list[dict[str, Any]] | None = None,
        turn_seconds: float | None = None,
        timings: dict[str, Any] | None = None,
    ) -> dict[str, Any] | None:
        """Feed one model output to the current request.

        Args:
            action: the model output: an :class:`~hat_env.types.AgentResponse`, an OpenAI assistant message dict,
                a :class:`~hat_env.types.Turn`, or the raw text (then the next three arguments may give the rest).
            tool_calls: with a text ``action``: structured OpenAI tool calls, if any.
            turn_seconds: with a text ``action``: the model's time (``None``: the scenario's latency model).
            timings: with a text ``action``: extra per-turn timing fields to record (``ttft_s``, tokens...).

        Returns:
            ``None`` while the request goes on; when it ends, the scores dict
            (``{"composite": .., "components": {..}, "failed": [..], "notes": ..}``).

        Raises:
            RuntimeError: no request is open.
            TypeError: ``tool_calls``, ``turn_seconds`` or ``timings`` given with an action that is not text.
        """
        if isinstance(action, str):
            turn = Turn(action, tool_calls, turn_seconds, timings)
        elif tool_calls is None and turn_seconds is None and timings is None:
            turn = Turn.of(action)
        else:
            raise TypeError("tool_calls, turn_seconds and timings go with a text action only")
        if not self.host.feed(turn):
            return None
        return self._close_request()

    def score(self, outcome: RequestOutcome, harness: Harness | None = None) -> dict[str, Any]:
        """Score ``outcome`` under ``harness`` (default: the current one) with the scenario's rubric."""
        return self.host.score(outcome, harness)

    def _close_request(self) -> dict[str, Any]:
        loop, scores = self.host.close()
        out = loop.outcome
        comp = scores["components"]
        self.state.t += out.latency_s
        events: list[dict[str, Any]] = []
        if self.viewers is not None:
            self.apply_events(self.state.t)  # what the viewers buy costs what it costs now
            self.viewers.react(out.request, comp.get("accuracy", 0.0) >= 1.0, comp.get("effectiveness", 0.0), out.latency_s)
            events = self.viewers.drain_events()
        self.host.write_record(loop, scores, timings=loop.timings, viewer_events=events)
        return scores

    def summary(self) -> dict[str, Any]:
        """Mean composite score (0-100), mean of each component (0-1), request count, conversions, latency; and
        ``error`` when the session failed (:meth:`~hat_env.envs.room.Room.fail`)."""
        st = self.host.stats()
        return {
            "scenario": self.scenario.name,
            "seed": self.seed,
            "score": st["score"],
            "components": st["components"],
            "requests": st["requests"],
            "fallbacks": st["fallbacks"],
            "purchases": self.state.purchases,
            "gmv": round(self.state.gmv, 2),
            "viewers": self.viewers.viewer_count if self.viewers is not None else 0,
            "latency_p50_s": st["latency_p50_s"],
            "latency_p95_s": st["latency_p95_s"],
            "harness": self.host.harness_id(),
            **({"error": self.error} if self.error is not None else {}),
        }
