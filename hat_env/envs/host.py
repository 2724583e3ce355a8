"""A host of a live room: its harness timeline (with Harness-State Augmentation), its history, the open
:class:`~hat_env.harness.runtime.RequestLoop`, scoring of its replies, and its part of the summary.

A host knows nothing about viewers or routing: the room it sits in (:class:`~hat_env.envs.room.Room`) opens
requests on it (:meth:`Host.open`), feeds it model outputs (:meth:`Host.feed`), and, once a reply went out,
closes the request (:meth:`Host.close`) and does what the room does with a reply (viewers react, the clock moves).
"""

from __future__ import annotations

import json
import threading
from array import array
from collections import OrderedDict, deque
from typing import TYPE_CHECKING, Any, Callable

from hat_env.envs.preflight import check_timeline
from hat_env.envs.room import Room, stream
from hat_env.harness.core import Harness
from hat_env.harness.runtime import RequestLoop
from hat_env.types import LiveRequest, RequestOutcome

if TYPE_CHECKING:
    from hat_env.sim.room import RoomState
    from hat_env.sim.scenario import Scenario


class TimelineError(ValueError):
    """A harness patch of the scenario's timeline cannot apply; the message names the scenario, the entry, its
    time and the reason."""


#: Finished requests a host keeps whole (:attr:`Host.outcomes`); its summary counts all of them.
KEPT_OUTCOMES = 1000

#: Timeline harness states by ``(harness source, harness, patch as JSON)``, oldest first (see :func:`apply_patch`).
_PATCHED: OrderedDict[tuple[str, Harness, str], Harness] = OrderedDict()
_PATCHED_MAX = 256
_PATCHED_LOCK = threading.Lock()


def apply_patch(harness: Harness, patch: list[dict[str, Any]]) -> Harness:
    """``harness.apply(patch)``, made once per process: a harness is immutable and a patch deterministic, so every
    session of a scenario shares its timeline's harness states (the cache holds the last 256).

    Raises:
        PatchError, ValueError: as :meth:`Harness.apply <hat_env.harness.core.Harness.apply>`.
    """
    key = (harness.source, harness, json.dumps(patch, ensure_ascii=False, default=repr))
    with _PATCHED_LOCK:
        got = _PATCHED.get(key)
        if got is not None:
            _PATCHED.move_to_end(key)
            return got
    got = harness.apply(patch)
    with _PATCHED_LOCK:
        _PATCHED[key] = got
        if len(_PATCHED) > _PATCHED_MAX:
            _PATCHED.popitem(last=False)
    return got


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
        history: the user/assistant messages of its last ``max_history`` finished requests (older ones are dropped:
            nothing shows them, and a long session would keep them all).
        loop: the open request, or ``None`` while idle.
        outcomes: ``(outcome, components, composite)`` of the last :data:`KEPT_OUTCOMES` finished requests, oldest
            first (a deque: ``outcomes[-1]`` is the last); :meth:`stats` counts every request, kept or not.
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
        self._check_timeline()
        self.next_patch = 0
        self.history: list[dict[str, Any]] = []
        self.loop: RequestLoop | None = None
        self.outcomes: deque[tuple[RequestOutcome, dict[str, float], float]] = deque(maxlen=KEPT_OUTCOMES)
        # what stats() reports, over every finished request (the outcomes deque keeps only the last ones)
        self._n = 0
        self._score_sum = 0.0
        self._comp_sums: dict[str, float] = {}
        self._fallbacks = 0
        self._latencies = array("d")
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

    def _where(self, k: int) -> str:
        """``"SCENARIO harness_timeline[k] (at N s)"``: where timeline entry ``k`` (of the sorted timeline) sits."""
        sc = self.room.scenario
        entry = self.timeline[k]
        i = next((j for j, e in enumerate(sc.harness_timeline) if e is entry), k)
        return f"{sc.source or sc.name}: harness_timeline[{i}] (at {entry.at_s:g} s)"

    def _check_timeline(self) -> None:
        """Apply the whole timeline to the harness once, before the session starts, so that a patch naming what the
        harness lacks is an error now rather than mid-stream (the states are cached and reused when the patches
        fall due).

        Raises:
            TimelineError: a patch does not apply (the scenario, the entry, its time and the reason).
        """
        h = self.base_harness
        for k, entry in enumerate(self.timeline):
            try:
                h = apply_patch(h, entry.patch)
            except ValueError as exc:
                raise TimelineError(f"{self._where(k)}: {exc}") from None

    def apply_timeline(self, t: float) -> bool:
        """Apply the timeline patches due by room time ``t`` (each traced as a ``harness_patch`` record).

        A patch that fails here (a harness put in force with :meth:`set_harness` that it does not fit, or an
        augmentation that fails on the patched harness) ends the session cleanly instead of raising: the room
        records the error (an ``error`` record in the trace, see :meth:`Room.fail
        <hat_env.envs.room.Room.fail>`) and its summary carries it; the harness in force stays as it was.

        Returns:
            ``True`` when every due patch applied; ``False`` when one failed (the room has failed).
        """
        timeline = self.timeline
        while self.next_patch < len(timeline) and timeline[self.next_patch].at_s <= t:
            k = self.next_patch
            entry = timeline[k]
            self.next_patch += 1
            try:
                base = apply_patch(self.base_harness, entry.patch)
                harness = self._augment(base, self.next_patch) if self.hsa else base
            except Exception as exc:  # any failure of a patch ends the session cleanly, never a traceback
                self.next_patch = len(timeline)  # no later patch applies on top of a failed one
                self.room.fail(f"{self._where(k)}: {type(exc).__name__}: {exc}", where="harness_timeline",
                               **self._head, note=entry.note, patch=entry.patch)
                return False
            self.base_harness, self.harness = base, harness
            rec: dict[str, Any] = {"type": "harness_patch", "t": round(t, 3), **self._head, "note": entry.note,
                                   "patch": entry.patch, "harness": self.harness_id()}
            if self._trace_hsa or self.hsa:
                rec["hsa"] = self.hsa_info if self.hsa else None
            self.room.trace.write(rec)
        return True

    # -- requests ------------------------------------------------------------------------------------------
    def open(self, request: LiveRequest, t: float) -> RequestLoop | None:
        """Start handling ``request`` at room time ``t`` (timeline patches due by then apply first).

        Returns:
            The request's loop; ``None`` when a due patch failed (the room has failed, see :meth:`apply_timeline`:
            the request is not opened).
        """
        if not self.apply_timeline(t):
            self.loop = None
            return None
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
        keep = 2 * self.max_history
        if len(self.history) > keep:
            del self.history[: len(self.history) - keep]
        self.outcomes.append((out, scores["components"], scores["composite"]))
        self._n += 1
        self._score_sum += scores["composite"]
        for k, v in scores["components"].items():
            self._comp_sums[k] = self._comp_sums.get(k, 0.0) + v
        self._fallbacks += bool(out.fallback)
        self._latencies.append(out.latency_s)
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
        n = self._n
        lat = sorted(self._latencies)
        return {
            "score": round(self._score_sum / n, 2) if n else 0.0,
            "components": {k: round(v / n, 4) for k, v in self._comp_sums.items()},
            "requests": n,
            "fallbacks": self._fallbacks,
            "latency_p50_s": round(lat[len(lat) // 2], 3) if lat else None,
            "latency_p95_s": round(lat[min(len(lat) - 1, int(0.95 * len(lat)))], 3) if lat else None,
        }
