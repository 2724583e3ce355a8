"""A host of a live room: its harness timeline (with Harness-State Augmentation), its history, the open
:class:`~hat_env.harness.runtime.RequestLoop`, scoring of its replies, and its part of the summary.

A host knows nothing about viewers or routing: the room it sits in (:class:`~hat_env.envs.room.Room`) opens
requests on it (:meth:`Host.open`), feeds it model outputs (:meth:`Host.feed`), and, once a reply went out,
closes the request (:meth:`Host.close`) and does what the room does with a reply (viewers react, the clock moves).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from hat_env.envs.preflight import check_timeline
from hat_env.envs.room import Room, stream
from hat_env.harness.runtime import RequestLoop
from hat_env.types import LiveRequest, RequestOutcome

if TYPE_CHECKING:
    from hat_env.harness.core import Harness
    from hat_env.sim.room import RoomState
    from hat_env.sim.scenario import Scenario


def request_record(
    loop: RequestLoop,
    scores: dict[str, Any],
    room: "RoomState",
    agent_of: Callable[[str], str] | None = None,
    head: dict[str, Any] | None = None,
    **tail: Any,
) -> dict[str, Any]:
    """The trace record of a finished request: who said what, the messages, tool calls, hook decisions, reply,
    timings and scores.

    Args:
        loop: the finished request loop.
        scores: its scores.
        room: the room state (its snapshot closes the record).
        agent_of: maps a viewer id to its agent id (multi-agent rooms), or ``None``.
        head: fields placed right after ``type`` (e.g. the answering host).
        **tail: fields placed after ``scores`` (timings, viewer events, satisfaction).
    """
    out = loop.outcome
    req = out.request
    h = loop.harness

    def comment(c: Any) -> dict[str, Any]:
        d: dict[str, Any] = {"agent": agent_of(c.viewer_id)} if agent_of is not None else {}
        d.update(viewer_id=c.viewer_id, viewer=c.viewer_name, persona=c.persona, text=c.text,
                 intents=[i.to_dict() for i in c.intents])
        return d

    return {
        "type": "request",
        **(head or {}),
        "request_id": req.request_id,
        "t": round(req.t, 3),
        "harness": {"name": h.name, "version": h.version, "hash": h.hash},
        "comments": [comment(c) for c in req.comments],
        "messages": loop.turn_messages(),
        "calls": [c.to_dict() for c in out.calls],
        "skills_loaded": out.skills_loaded,
        "hook_events": out.hook_events,
        "reply": out.reply,
        "fallback": out.fallback,
        "turns": out.turns,
        "retries": out.retries,
        "latency_s": round(out.latency_s, 6),
        "scores": scores,
        **tail,
        "room": room.snapshot(),
    }


class Host:
    """One host's state within a session.

    Args:
        room: the room it answers in.
        harness: its harness (loaded; see :func:`~hat_env.envs.room.load_harness`).
        index: its position among the room's hosts (agent name ``host_<index>``).
        scenario: the scenario as this host sees it (a co-host's own name in ``room.host_name``); default the
            room's.
        hsa: Harness-State Augmentation options (see :func:`hat_env.hsa.augment_from_options`): the host works
            under a seeded variant of its harness, drawn anew after each timeline patch. ``None`` or ``{}``: none.
        follow_timeline: apply the scenario's harness timeline (patches at their times). Every patch is tried on
            ``harness`` first (:func:`~hat_env.envs.preflight.check_timeline`), so one naming what the harness
            lacks is a :class:`~hat_env.yamlio.FileError` here, with the scenario file and line, not mid-session.
        max_history: earlier request/reply pairs shown with each request.
        trace_head: fields that name this host in its trace records (``{"host": "host_1"}``), placed after ``t``.
        trace_hsa: always write the ``hsa`` field in harness-patch records (``None`` without HSA); otherwise it is
            written only when the host runs under HSA.

    Attributes:
        base_harness: the harness before augmentation (timeline patches apply to it).
        harness: the harness in force (the variant under HSA).
        hsa_info: what the last augmentation did (:func:`~hat_env.hsa.augment_from_options`), or ``None``.
        history: the user/assistant messages of its finished requests.
        loop: the open request, or ``None`` while idle.
        outcomes: ``(outcome, components, composite)`` of each finished request.
    """

    def __init__(
        self,
        room: Room,
        harness: "Harness",
        *,
        index: int = 0,
        scenario: "Scenario | None" = None,
        hsa: dict[str, Any] | None = None,
        follow_timeline: bool = True,
        max_history: int = 4,
        trace_head: dict[str, Any] | None = None,
        trace_hsa: bool = False,
    ):
        self.room = room
        self.index = index
        self.agent = f"host_{index}"
        self.scenario = scenario if scenario is not None else room.scenario
        self.max_history = max_history
        self.hsa = dict(hsa) if hsa else None
        self.hsa_info: dict[str, Any] | None = None
        self.base_harness = harness
        self.harness = self._augment(harness, 0) if self.hsa else harness
        if follow_timeline:
            check_timeline(room.scenario, harness)  # pre-flight: raises FileError (file, line, reason) at start
        self.timeline = sorted(room.scenario.harness_timeline, key=lambda e: e.at_s) if follow_timeline else []
        self.next_patch = 0
        self.history: list[dict[str, Any]] = []
        self.loop: RequestLoop | None = None
        self.outcomes: list[tuple[RequestOutcome, dict[str, float], float]] = []
        self._head = trace_head or {}
        self._trace_hsa = trace_hsa

    # -- harness -------------------------------------------------------------------------------------------
    def _augment(self, harness: "Harness", k: int) -> "Harness":
        from hat_env.hsa import augment_from_options

        name = f"hsa:{k}" if self.index == 0 else f"{self.agent}:hsa:{k}"
        variant, info = augment_from_options(harness, self.hsa or {}, stream(self.room.seed, name))
        self.hsa_info = info
        return variant

    def harness_id(self) -> dict[str, str]:
        """``{"name", "version", "hash"}`` of the harness in force."""
        h = self.harness
        return {"name": h.name, "version": h.version, "hash": h.hash}

    def set_harness(self, harness: "Harness") -> None:
        """Put ``harness`` in force as it is (no augmentation), later timeline patches applying to it (an
        evaluation case's own harness state)."""
        self.base_harness = self.harness = harness

    def apply_timeline(self, t: float) -> None:
        """Apply the timeline patches due by room time ``t`` (each traced as a ``harness_patch`` record)."""
        timeline = self.timeline
        while self.next_patch < len(timeline) and timeline[self.next_patch].at_s <= t:
            entry = timeline[self.next_patch]
            self.next_patch += 1
            self.base_harness = self.base_harness.apply(entry.patch)
            self.harness = self._augment(self.base_harness, self.next_patch) if self.hsa else self.base_harness
            rec: dict[str, Any] = {"type": "harness_patch", "t": round(t, 3), **self._head, "note": entry.note,
                                   "patch": entry.patch, "harness": self.harness_id()}
            if self._trace_hsa or self.hsa:
                rec["hsa"] = self.hsa_info if self.hsa else None
            self.room.trace.write(rec)

    # -- requests ------------------------------------------------------------------------------------------
    def open(self, request: LiveRequest, t: float) -> RequestLoop:
        """Start handling ``request`` at room time ``t`` (timeline patches due by then apply first)."""
        self.apply_timeline(t)
        hist = self.history[-2 * self.max_history :] if self.max_history else []
        room = self.room
        self.loop = RequestLoop(self.harness, self.scenario, room.state, room.backend, room.rules, request, hist)
        return self.loop

    def feed(self, action: Any) -> bool:
        """Feed one model output (anything :meth:`RequestLoop.feed` takes) to the open request.

        Returns:
            ``True`` when the reply went out: call :meth:`close` next.

        Raises:
            RuntimeError: no request is open.
        """
        loop = self.loop
        if loop is None:
            raise RuntimeError("no open request: call next_request() first")
        return loop.feed(action)

    def close(self) -> tuple[RequestLoop, dict[str, Any]]:
        """Score the finished request, add it to the history and the outcomes, and go idle.

        Returns:
            ``(loop, scores)``: the finished loop and ``{"composite", "components", "failed", "notes"}``.
        """
        loop = self.loop
        if loop is None or not loop.done:
            raise RuntimeError("no finished request to close")
        out = loop.outcome
        scores = self.score(out, loop.harness)
        self.history += [loop.user_message, {"role": "assistant", "content": out.reply}]
        self.outcomes.append((out, scores["components"], scores["composite"]))
        self.loop = None
        return loop, scores

    def write_record(self, loop: RequestLoop, scores: dict[str, Any], agent_of: Callable[[str], str] | None = None,
                     **tail: Any) -> None:
        """Trace a closed request (see :func:`request_record`; ``tail`` fields go after the scores)."""
        self.room.trace.write(request_record(loop, scores, self.room.state, agent_of=agent_of, head=self._head,
                                             **tail))

    # -- scoring and summary -------------------------------------------------------------------------------
    def score(self, outcome: RequestOutcome, harness: "Harness | None" = None) -> dict[str, Any]:
        """Score ``outcome`` under ``harness`` (default: the one in force) with the scenario's rubric."""
        return self.room.score_reply(outcome, harness or self.harness)

    def stats(self) -> dict[str, Any]:
        """Mean composite score (0-100), mean of each component (0-1), request and fallback counts, and reply
        latency P50/P95 (seconds, ``None`` before the first reply)."""
        outs = self.outcomes
        n = len(outs)
        comps: dict[str, float] = {}
        for _, comp, _ in outs:
            for k, v in comp.items():
                comps[k] = comps.get(k, 0.0) + v
        lat = sorted(o.latency_s for o, _, _ in outs)
        return {
            "score": round(sum(s for _, _, s in outs) / n, 2) if n else 0.0,
            "components": {k: round(v / n, 4) for k, v in comps.items()},
            "requests": n,
            "fallbacks": sum(1 for o, _, _ in outs if o.fallback),
            "latency_p50_s": round(lat[len(lat) // 2], 3) if lat else None,
            "latency_p95_s": round(lat[min(len(lat) - 1, int(0.95 * len(lat)))], 3) if lat else None,
        }
