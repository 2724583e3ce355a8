"""The data of a session page: every request with its turns, scores and notes, the viewers' reactions, the
harness changes and campaigns, from one trace (``hat-env run``, ``LiveRoom-v0`` or the PettingZoo room)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hat_env.view.steps import request_steps
from hat_env.view.timeline import campaign_events, harness_events, load_room, snapshot_campaign_events
from hat_env.view.trace import Trace, read_trace

#: Request-record fields the page shows in their own place; any other field is shown as key/value.
_KNOWN = {"type", "host", "request_id", "t", "harness", "comments", "messages", "calls", "skills_loaded",
          "hook_events", "reply", "fallback", "turns", "retries", "latency_s", "scores", "timings", "viewer_events",
          "room", "_line"}


def _flags(rec: dict[str, Any]) -> list[str]:
    """Problem flags of a request: what the failure filter matches."""
    hooks = rec.get("hook_events") or []
    calls = rec.get("calls") or []
    scores = rec.get("scores") or {}
    out = []
    if rec.get("fallback"):
        out.append("fallback")
    if any(e.get("decision") == "deny" for e in hooks):
        out.append("denied")
    if rec.get("retries"):
        out.append("retried")
    if any(c.get("fault") for c in calls):
        out.append("tool_fault")
    if any(not c.get("ok") and not c.get("fault") for c in calls):
        out.append("tool_error")
    if scores.get("failed"):
        out.append("failed_component")
    if any(t.get("error") for t in rec.get("timings") or []):
        out.append("agent_error")
    return out


def _comment(c: dict[str, Any]) -> dict[str, Any]:
    intents = c.get("intents") or []
    return {"vid": c.get("viewer_id"), "name": c.get("viewer"), "agent": c.get("agent"), "persona": c.get("persona"),
            "text": c.get("text", ""), "intents": intents,
            "kinds": [i.get("kind") for i in intents if isinstance(i, dict)]}


def request_view(rec: dict[str, Any], index: int) -> dict[str, Any]:
    """One request as the page shows it.

    Args:
        rec: a checked ``request`` record (see :func:`hat_env.view.trace.read_trace`).
        index: its position among the trace's requests.

    Returns:
        ``i``, ``id``, ``t``, ``host``, ``line`` (in the trace), ``harness``, ``comments`` (``vid``, ``name``,
        ``agent``, ``persona``, ``text``, ``intents``, ``kinds``), ``prompt`` (the merged request as the model
        read it), ``steps`` (:func:`~hat_env.view.steps.request_steps`), ``hooks``, ``reply``, ``fallback``,
        ``turns``, ``retries``, ``latency``, ``ttft``, ``scores`` (``composite``, ``components``, ``failed``,
        ``notes``: shown generically), ``skills``, ``reactions`` (viewer events other than arrivals), ``room``,
        ``flags`` and ``extra`` (fields this page does not know, shown as key/value).
    """
    msgs = rec["messages"]
    timings = rec.get("timings") or []
    scores = rec["scores"]
    first = msgs[0].get("content") if msgs and msgs[0].get("role") == "user" else None
    return {
        "i": index,
        "id": rec["request_id"],
        "t": float(rec["t"]),
        "host": rec.get("host"),
        "line": rec.get("_line"),
        "harness": rec.get("harness") or {},
        "comments": [_comment(c) for c in rec["comments"]],
        "prompt": first if isinstance(first, str) else None,
        "steps": request_steps(rec),
        "hooks": rec["hook_events"],
        "reply": rec["reply"],
        "fallback": bool(rec.get("fallback")),
        "turns": rec.get("turns"),
        "retries": rec.get("retries", 0),
        "latency": rec.get("latency_s"),
        "ttft": next((t.get("ttft_s") for t in timings if t.get("ttft_s") is not None), None),
        "scores": {"composite": scores.get("composite"), "components": scores.get("components") or {},
                   "failed": scores.get("failed") or [], "notes": scores.get("notes") or {},
                   **{k: v for k, v in scores.items() if k not in ("composite", "components", "failed", "notes")}},
        "skills": rec.get("skills_loaded") or [],
        "reactions": [e for e in rec.get("viewer_events") or [] if e.get("type") != "arrive"],
        "room": rec.get("room") or {},
        "flags": _flags(rec),
        "extra": {k: v for k, v in rec.items() if k not in _KNOWN},
    }


def _viewer_events(tr: Trace) -> list[dict[str, Any]]:
    """Viewer events of the session in time order, each with ``req`` (the request it is recorded with, or
    ``None``): arrivals, purchases, departures, asking again; in a PettingZoo room also comments (those no host
    heard are ``missed``) and agent calls."""
    out: list[dict[str, Any]] = []
    for i, r in enumerate(tr.requests):
        for e in r.get("viewer_events") or []:
            out.append({**e, "req": i})
    for tick in tr.ticks:
        for e in tick.get("events") or []:
            out.append({**e, "req": None})
    out.sort(key=lambda e: float(e.get("t", 0.0)))
    return out


def _viewers(tr: Trace, events: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    vs: dict[str, dict[str, Any]] = {}
    for e in events:
        vid = e.get("viewer_id")
        if isinstance(vid, str):
            v = vs.setdefault(vid, {"name": None, "persona": None, "agent": None})
            v["name"] = v["name"] or e.get("name")
            v["persona"] = v["persona"] or e.get("persona")
            v["agent"] = v["agent"] or e.get("agent")
    for r in tr.requests:
        for c in r["comments"]:
            vid = c.get("viewer_id")
            if isinstance(vid, str):
                v = vs.setdefault(vid, {"name": None, "persona": None, "agent": None})
                v["name"] = v["name"] or c.get("viewer")
                v["persona"] = v["persona"] or c.get("persona")
                v["agent"] = v["agent"] or c.get("agent")
    return dict(sorted(vs.items()))


def session_data(path: str | Path) -> dict[str, Any]:
    """Everything the session page shows, from a trace file.

    Args:
        path: the JSONL trace.

    Returns:
        ``{"kind": "session", "meta", "summary", "requests", "events", "viewers", "timeline"}``: ``events`` are
        viewer events, ``timeline`` harness changes and campaign starts/ends with their price changes.

    Raises:
        FileError: the file is not a readable trace (see :func:`~hat_env.view.trace.read_trace`).
    """
    tr = read_trace(path)
    start = tr.start
    sc, room, problem = load_room(start)
    duration = float(start.get("duration_s") or (tr.requests[-1]["t"] if tr.requests else 0.0))
    if sc is not None:
        campaigns = campaign_events(sc, room, duration)
    else:
        campaigns = snapshot_campaign_events(tr.requests)
    timeline = harness_events(start, tr.patches, sc, room, problem) + campaigns
    timeline.sort(key=lambda e: (e["t"], e["kind"] != "harness"))
    events = _viewer_events(tr)
    warnings = list(tr.warnings)
    if problem:
        warnings.append(f"{problem}: campaigns are read from the room snapshots, harness diffs are not shown")
    if tr.end is None:
        warnings.append("the trace has no session_end record: the session did not finish (or is still running)")
    if tr.other:
        warnings.append("records of unknown types kept aside: " + ", ".join(f"{k} ({n})" for k, n in tr.other.items()))
    meta = {k: start.get(k) for k in ("scenario", "locale", "seed", "duration_s", "harness", "env", "hosts",
                                      "tick_s", "viewers", "trace_version", "products")}
    meta["hsa"] = {k: (start.get("hsa") or {}).get(k) for k in ("dims", "strength", "family", "hash", "parent_hash",
                                                                 "ops")} if start.get("hsa") else None
    meta["file"] = Path(path).name
    meta["warnings"] = warnings
    return {
        "kind": "session",
        "meta": meta,
        "summary": tr.end,
        "requests": [request_view(r, i) for i, r in enumerate(tr.requests)],
        "events": events,
        "viewers": _viewers(tr, events),
        "timeline": timeline,
    }
