"""The room of one live session: scenario, seed, room state and clock, tool backend, viewers, compliance rules,
rubric and the JSONL trace. Hosts (:class:`~hat_env.envs.host.Host`) answer its requests.

A :class:`Room` with one host is :class:`~hat_env.envs.session.LiveSession` (``LiveRoom-v0``, ``LiveQA-v0``, the
run, bench, data and RL drivers); with N hosts and a router it is :class:`~hat_env.envs.multi_room.MultiRoom`
(the PettingZoo env). Every random draw comes from a named stream of the seed (:func:`stream`), so a seed fixes
the session, and its trace, to the byte.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import IO, Any, Callable

from hat_env.constraints import limits_of
from hat_env.harness.core import Harness
from hat_env.scoring import Rubric, ScoringContext
from hat_env.sim.compliance import RuleSet
from hat_env.sim.room import RoomState
from hat_env.sim.scenario import Scenario, locate_harness
from hat_env.sim.timeline import RoomEvents
from hat_env.sim.tools import ToolBackend
from hat_env.sim.viewers import ViewerPool
from hat_env.types import RequestOutcome

#: Version of the trace format (the ``session_start`` record carries it).
TRACE_VERSION = 1


def stream(seed: int, name: str) -> random.Random:
    """A named random stream of a seed (independent streams keep, e.g., fault draws from shifting viewers)."""
    return random.Random(f"{seed}:{name}")


#: Characters ``str.splitlines`` breaks lines at that ``json.dumps(ensure_ascii=False)`` leaves unescaped.
_LINE_BREAKS = ("\x85", "\u2028", "\u2029")


def jsonl_line(record: dict[str, Any]) -> str:
    """One JSONL line for ``record`` (UTF-8 text, compact separators, a newline at the end).

    The line is valid JSON and valid UTF-8 whatever the strings inside hold: a record with a lone surrogate (a
    model's ``"\\ud800"`` decoded from its tool-call JSON) is written with ASCII escapes, and U+0085, U+2028 and
    U+2029 are escaped so that a reader splitting on ``str.splitlines`` still sees one record per line. Records
    without those characters are written as they always were.

    A NaN or infinite number (not JSON; the request loop never lets one through, but a plug-in might) is
    written as ``null``.
    """
    try:
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except ValueError:
        record = _finite(record)
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        line = json.dumps(record, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
    if "\x85" in line or "\u2028" in line or "\u2029" in line:
        for ch in _LINE_BREAKS:
            line = line.replace(ch, f"\\u{ord(ch):04x}")
    return line + "\n"


def _finite(value: Any) -> Any:
    """``value`` (JSON-like) with NaN and infinite floats replaced by ``None``."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


class TraceWriter:
    """Appends JSON records to a JSONL file, one line each, flushed as they happen.

    Args:
        path: the file (created with its folders, truncated), or ``None`` to write nothing.
    """

    def __init__(self, path: str | Path | None):
        self.path = Path(path) if path else None
        self._fh: IO[str] | None = None
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fh = self.path.open("w", encoding="utf-8")

    def write(self, record: dict[str, Any]) -> None:
        """Append one record (no-op without a path); see :func:`jsonl_line`."""
        if self._fh is not None:
            self._fh.write(jsonl_line(record))
            self._fh.flush()

    def close(self) -> None:
        """Close the file."""
        if self._fh is not None:
            self._fh.close()
            self._fh = None


def load_harness(harness: Harness | str | Path | None, scenario: Scenario) -> Harness:
    """A harness given as an object, a pack the caller names (a folder, tried next to the scenario file first, else
    as given, else a built-in name), or ``None`` for the scenario's own ``harness:``, which is data and confined
    (see :func:`hat_env.sim.scenario.locate_harness` and :mod:`hat_env.confine`).

    Raises:
        FileError: no such pack, a confined path that leaves its roots, or an invalid pack (file, field, line and
            reason).
    """
    if isinstance(harness, Harness):
        return harness
    return Harness.load(locate_harness(scenario, harness))


class Room:
    """The parts of a live session that every host shares.

    Args:
        scenario: the validated scenario (overrides already applied).
        seed: fixes every random draw.
        viewers: simulate the viewer population (``False`` for single-request episodes: evaluation cases, LiveQA).
        max_arrivals: at most this many viewers ever enter (``None``: no limit); see
            :class:`~hat_env.sim.viewers.ViewerPool`.
        external: which arriving viewers (by 0-based arrival index) an outside agent drives, or ``None``.

    Attributes:
        scenario, seed: as given.
        state: the room state (catalog, clock ``t``, campaigns, stock, pins, purchases); also ``room``.
        backend: the sandboxed tool backend (with the scenario's faults).
        viewers: the viewer pool, or ``None``.
        rules: the scenario's compliance rule set.
        events: the scenario's room events (``timeline.events``), checked against this room and applied by
            :meth:`apply_events`.
        rubric: the scenario's rubric.
        trace: the JSONL trace (writes nothing until :meth:`start_trace`).
        n_requests: requests opened so far (they are numbered ``r0001``... by it).
        finished: :meth:`finish` ran.
        error: why the session could not go on (:meth:`fail`), or ``None``; the summary carries it.
    """

    def __init__(
        self,
        scenario: Scenario,
        seed: int,
        *,
        viewers: bool = True,
        max_arrivals: int | None = None,
        external: Callable[[int], bool] | None = None,
    ):
        sc = scenario
        self.scenario = sc
        self.seed = int(seed)
        self.state = RoomState(sc, stream(self.seed, "catalog"))
        self.events = RoomEvents(sc, self.state)  # every event worked out now: none can fail mid-session
        self.backend = ToolBackend(self.state, sc.faults, stream(self.seed, "faults"))
        self.viewers: ViewerPool | None = (
            ViewerPool(sc, self.state, stream(self.seed, "viewers"), max_arrivals=max_arrivals, external=external)
            if viewers else None
        )
        self.rules = RuleSet.for_scenario(sc)
        self.rubric = Rubric(sc.scoring.weights or None)
        self.trace = TraceWriter(None)
        self.n_requests = 0
        self.finished = False
        self.error: str | None = None

    @property
    def room(self) -> RoomState:
        """The room state (the name drivers and tests have always used)."""
        return self.state

    def start_trace(self, path: str | Path | None, record: dict[str, Any]) -> None:
        """Open the trace at ``path`` (``None``: no file) and write the ``session_start`` ``record``."""
        self.trace = TraceWriter(path)
        self.trace.write(record)

    def apply_events(self, t: float) -> None:
        """Apply the scenario's room events due by room time ``t`` (price changes, stock-outs, campaign edits),
        each traced as a ``room_event`` record (see :meth:`hat_env.sim.timeline.RoomEvents.due`)."""
        if self.events.next < len(self.events):
            for rec in self.events.due(t):
                self.trace.write(rec)

    # -- scoring -------------------------------------------------------------------------------------------
    def scoring_context(self, outcome: RequestOutcome, harness: Harness) -> ScoringContext:
        """What the rubric reads to score ``outcome``: the room now, its rules, ``harness`` (its limits as its hooks
        enforce them, :func:`hat_env.constraints.limits_of`; its prompt and tools, which must not leak)."""
        lim = limits_of(harness.spec, self.scenario.locale)
        sc = self.scenario.scoring
        return ScoringContext(
            outcome=outcome,
            room=self.state,
            rules=self.rules,
            locale=self.scenario.locale,
            max_reply_chars=lim.max_chars,
            forbidden_words=list(lim.forbidden_words),
            required_disclosure=lim.disclosures or None,
            reply_skill_intents=harness.reply_skills,
            latency_target_s=sc.latency_target_s,
            latency_max_s=sc.latency_max_s,
            tool_names=(*harness.tools_by_name, harness.spec.skill_tool.name),
            harness=harness,
        )

    def score_reply(self, outcome: RequestOutcome, harness: Harness) -> dict[str, Any]:
        """Score ``outcome`` under ``harness`` with the scenario's rubric: ``{"composite", "components", "failed",
        "notes"}``."""
        s = self.rubric.score(self.scoring_context(outcome, harness))
        return {"composite": s.composite, "components": s.components, "failed": list(s.failed), "notes": s.notes}

    # -- end -----------------------------------------------------------------------------------------------
    def fail(self, message: str, where: str, **fields: Any) -> None:
        """Record that the session cannot go on (a harness patch that failed mid-stream): an ``error`` record
        ``{"type": "error", "t", "where", ...fields, "error": message}`` goes to the trace and :attr:`error` is set
        (the first failure is kept), so the drivers end the session and its summary says why."""
        if self.error is None:
            self.error = message
        self.trace.write({"type": "error", "t": round(self.state.t, 3), "where": where, **fields, "error": message})

    def summary(self) -> dict[str, Any]:
        """The session's summary record (each kind of room says what it holds)."""
        raise NotImplementedError

    def _end_records(self) -> None:
        """Records due before ``session_end`` (a multi-host room's last tick); none here."""

    def finish(self) -> dict[str, Any]:
        """End the session (idempotent): write the summary record and close the trace; returns the summary."""
        summary = self.summary()
        if not self.finished:
            self.finished = True
            self._end_records()
            self.trace.write({"type": "session_end", **summary})
            self.trace.close()
        return summary
