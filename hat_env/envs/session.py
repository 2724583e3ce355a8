"""One live session: the room clock, viewers, harness timeline, request loop, scoring and the JSONL trace.

Environments (``LiveRoom-v0``, ``LiveQA-v0``, the PettingZoo room) and the ``hat-env run`` runner are thin
drivers over this class. Every random draw comes from a stream derived from the seed, so a seed fixes the
session, and its trace, to the byte.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import IO, Any

from hat_env.harness.core import Harness
from hat_env.harness.runtime import RequestLoop
from hat_env.scoring import Rubric, ScoringContext
from hat_env.sim.compliance import RuleSet
from hat_env.sim.room import RoomState
from hat_env.sim.scenario import Scenario, load_scenario, locate_harness
from hat_env.sim.tools import ToolBackend
from hat_env.sim.viewers import ViewerPool
from hat_env.types import LiveRequest, RequestOutcome

TRACE_VERSION = 1


def stream(seed: int, name: str) -> random.Random:
    """A named random stream of a seed (independent streams keep, e.g., fault draws from shifting viewers)."""
    return random.Random(f"{seed}:{name}")


class TraceWriter:
    """Appends JSON records to a JSONL file, one line each, flushed as they happen."""

    def __init__(self, path: str | Path | None):
        self.path = Path(path) if path else None
        self._fh: IO[str] | None = None
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fh = self.path.open("w", encoding="utf-8")

    def write(self, record: dict[str, Any]) -> None:
        """Append one record (no-op without a path)."""
        if self._fh is not None:
            self._fh.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
            self._fh.flush()

    def close(self) -> None:
        """Close the file."""
        if self._fh is not None:
            self._fh.close()
            self._fh = None


def request_record(
    loop: RequestLoop,
    scores: dict[str, Any],
    room: RoomState,
    agent_of: Any = None,
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
        d = {"agent": agent_of(c.viewer_id)} if agent_of is not None else {}
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


class LiveSession:
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
        self.scenario = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
        if duration_s is not None:
            self.scenario = self.scenario.model_copy(update={"duration_s": float(duration_s)})
        sc = self.scenario
        self.seed = sc.seed if seed is None else int(seed)
        self.room = RoomState(sc, stream(self.seed, "catalog"))
        self.backend = ToolBackend(self.room, sc.faults, stream(self.seed, "faults"))
        self.viewers = ViewerPool(sc, self.room, stream(self.seed, "viewers")) if viewers else None
        self.rules = RuleSet.for_scenario(sc)
        if not isinstance(harness, Harness):  # None: the scenario's own pack (confined, see hat_env.confine)
            harness = Harness.load(locate_harness(sc, harness))
        self.base_harness = harness
        self.hsa_info: dict[str, Any] | None = None
        self.hsa = hsa
        self.harness = self._augment(harness, 0) if hsa else harness
        self.timeline = sorted(sc.harness_timeline, key=lambda e: e.at_s)
        self._next_patch = 0
        self.rubric = Rubric(sc.scoring.weights or None)
        self.max_history = max_history
        self.history: list[dict[str, Any]] = []
        self.trace = TraceWriter(trace)
        self.loop: RequestLoop | None = None
        self.n_requests = 0
        self.outcomes: list[tuple[RequestOutcome, dict[str, float], float]] = []
        self.finished = False
        self.turn_timings: list[dict[str, Any]] = []
        self.trace.write(
            {
                "type": "session_start",
                "trace_version": TRACE_VERSION,
                "scenario": sc.name,
                "locale": sc.locale,
                "seed": self.seed,
                "duration_s": sc.duration_s,
                "harness": self._harness_id(),
                "hsa": self.hsa_info,
                "products": [p.product_id for p in self.room.products],
            }
        )

    # -- harness -------------------------------------------------------------------------------------------
    def _augment(self, harness: Harness, k: int) -> Harness:
        from hat_env.hsa import augment_from_options

        variant, info = augment_from_options(harness, self.hsa or {}, stream(self.seed, f"hsa:{k}"))
        self.hsa_info = info
        return variant

    def _harness_id(self) -> dict[str, str]:
        return {"name": self.harness.name, "version": self.harness.version, "hash": self.harness.hash}

    def _apply_timeline(self) -> None:
        while self._next_patch < len(self.timeline) and self.timeline[self._next_patch].at_s <= self.room.t:
            entry = self.timeline[self._next_patch]
            self._next_patch += 1
            self.base_harness = self.base_harness.apply(entry.patch)
            self.harness = self._augment(self.base_harness, self._next_patch) if self.hsa else self.base_harness
            self.trace.write(
                {"type": "harness_patch", "t": round(self.room.t, 3), "note": entry.note, "patch": entry.patch,
                 "harness": self._harness_id(), "hsa": self.hsa_info if self.hsa else None}
            )

    # -- requests ------------------------------------------------------------------------------------------
    def next_request(self) -> bool:
        """Advance the room to the next merged request and open its loop; ``False`` when the stream is over."""
        if self.finished or self.viewers is None:
            return False
        req = self.viewers.next_request(f"r{self.n_requests + 1:04d}")
        if req is None:
            self.finish()
            return False
        self.open_request(req)
        return True

    def open_request(self, req: LiveRequest) -> None:
        """Start handling ``req`` (used directly by LiveQA-style single-request episodes)."""
        self._apply_timeline()
        self.n_requests += 1
        self.turn_timings = []
        hist = self.history[-2 * self.max_history :] if self.max_history else []
        self.loop = RequestLoop(self.harness, self.scenario, self.room, self.backend, self.rules, req, hist)

    def feed(
        self,
        text: str,
        tool_calls: list[dict[str, Any]] | None = None,
        turn_seconds: float | None = None,
        timings: dict[str, Any] | None = None,
    ) -> dict[str, Any] | None:
        """Feed one model output to the current request.

        Args:
            text: the raw output.
            tool_calls: structured OpenAI tool calls, if any.
            turn_seconds: the model's time for this output (``None``: the scenario's latency model).
            timings: extra per-turn timing fields to record (``ttft_s``, tokens...).

        Returns:
            ``None`` while the request goes on; when it ends, the scores dict
            (``{"composite": .., "components": {..}, "failed": [..]}``).
        """
        loop = self.loop
        if loop is None:
            raise RuntimeError("no open request: call next_request() first")
        self.turn_timings.append({"turn": loop.outcome.turns + 1, **(timings or {}), "turn_s": turn_seconds})
        if not loop.step(text, tool_calls, turn_seconds):
            return None
        return self._close_request(loop)

    def score(self, outcome: RequestOutcome, harness: Harness | None = None) -> dict[str, Any]:
        """Score ``outcome`` under ``harness`` (default: the current one) with the scenario's rubric."""
        h = harness or self.harness
        c = h.spec.constraints
        sc = self.scenario.scoring
        ctx = ScoringContext(
            outcome=outcome,
            room=self.room,
            rules=self.rules,
            locale=self.scenario.locale,
            max_reply_chars=c.max_reply_chars,
            forbidden_words=list(c.forbidden_words),
            required_disclosure=c.required_disclosure,
            reply_skill_intents=h.reply_skills,
            latency_target_s=sc.latency_target_s,
            latency_max_s=sc.latency_max_s,
        )
        s = self.rubric.score(ctx)
        return {"composite": s.composite, "components": s.components, "failed": list(s.failed), "notes": s.notes}

    def _close_request(self, loop: RequestLoop) -> dict[str, Any]:
        out = loop.outcome
        scores = self.score(out, loop.harness)
        comp = scores["components"]
        self.room.t += out.latency_s
        events: list[dict[str, Any]] = []
        if self.viewers is not None:
            self.viewers.react(out.request, comp.get("accuracy", 0.0) >= 1.0, comp.get("effectiveness", 0.0), out.latency_s)
            events = self.viewers.drain_events()
        user_msg = loop.messages[loop._n_start - 1]
        self.history += [user_msg, {"role": "assistant", "content": out.reply}]
        self.outcomes.append((out, comp, scores["composite"]))
        self.trace.write(request_record(loop, scores, self.room, timings=self.turn_timings, viewer_events=events))
        self.loop = None
        return scores

    def finish(self) -> dict[str, Any]:
        """End the session (idempotent), write the summary record and close the trace; returns the summary."""
        summary = self.summary()
        if not self.finished:
            self.finished = True
            self.trace.write({"type": "session_end", **summary})
            self.trace.close()
        return summary

    def summary(self) -> dict[str, Any]:
        """Mean composite score (0-100), mean of each component (0-1), request count, conversions, latency."""
        n = len(self.outcomes)
        comps: dict[str, float] = {}
        for _, comp, _ in self.outcomes:
            for k, v in comp.items():
                comps[k] = comps.get(k, 0.0) + v
        lat = sorted(o.latency_s for o, _, _ in self.outcomes)
        return {
            "scenario": self.scenario.name,
            "seed": self.seed,
            "score": round(sum(s for _, _, s in self.outcomes) / n, 2) if n else 0.0,
            "components": {k: round(v / n, 4) for k, v in comps.items()},
            "requests": n,
            "fallbacks": sum(1 for o, _, _ in self.outcomes if o.fallback),
            "purchases": self.room.purchases,
            "gmv": round(self.room.gmv, 2),
            "viewers": self.viewers.viewer_count if self.viewers is not None else 0,
            "latency_p50_s": round(lat[len(lat) // 2], 3) if lat else None,
            "latency_p95_s": round(lat[min(len(lat) - 1, int(0.95 * len(lat)))], 3) if lat else None,
            "harness": self._harness_id(),
        }
