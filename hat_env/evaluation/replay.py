"""Complete-agent latency replay: recorded session traces through the whole agent, one request at a time.

Each request of a trace is rebuilt at its moment (same scenario, seed, harness variant and harness timeline,
same merged comments) and handled by the agent end to end: harness rendering, hooks, tools and every model
call. Wall-clock time per request is measured, as the HAT paper measured its P50/P95 on one GPU.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Callable

from hat_env.agents.base import call_agent
from hat_env.envs.live_qa import request_from_case
from hat_env.envs.session import LiveSession
from hat_env.evaluation.metrics import percentile
from hat_env.types import AgentResponse


def read_trace(path: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The ``session_start`` record and the ``request`` records of a JSONL trace.

    Raises:
        ValueError: the file is not a hat-env trace (no ``session_start`` record).
    """
    start: dict[str, Any] | None = None
    reqs = []
    with Path(path).open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut by a crash
            if rec.get("type") == "session_start":
                start = rec
            elif rec.get("type") == "request":
                reqs.append(rec)
    if start is None:
        raise ValueError(f"{path}: not a hat-env trace (no session_start record)")
    return start, reqs


def replay(
    trace: str | Path,
    agent: Any,
    limit: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Replay ``trace`` through ``agent``, one request at a time.

    Returns:
        ``{"requests", "p50_s", "p95_s", "p99_s", "under_15s", "ttft_p50_s", "mean_score", "per_request": [...]}``
        with wall-clock seconds per request (agent and environment together).
    """
    start, reqs = read_trace(trace)
    reqs = reqs[:limit] if limit else reqs
    hsa = start.get("hsa")
    options = {k: hsa[k] for k in ("dims", "strength", "family") if k in hsa} if hsa else None
    session = LiveSession(start["scenario"], seed=start["seed"], hsa=options, viewers=False, max_history=0)
    rows = []
    for i, rec in enumerate(reqs):
        session.room.t = float(rec["t"])
        req = request_from_case({"t": rec["t"], "request_id": rec["request_id"], "comments": [
            {"viewer": c["viewer"], "viewer_id": c["viewer_id"], "persona": c["persona"], "text": c["text"],
             "intents": c["intents"]} for c in rec["comments"]]})
        t0 = time.perf_counter()
        session.open_request(req)
        ttft = None
        scores = None
        while scores is None:
            t_call = time.perf_counter()
            try:
                resp = call_agent(agent, session.loop.agent_request())  # type: ignore[union-attr]
            except Exception as exc:
                resp = AgentResponse(error=f"{type(exc).__name__}: {exc}")
            if ttft is None and resp.timings.ttft_s is not None:
                ttft = round(t_call - t0 + resp.timings.ttft_s, 6)  # environment time before the call + model TTFT
            scores = session.feed(resp)
        wall = time.perf_counter() - t0
        rows.append({"request_id": rec["request_id"], "wall_s": round(wall, 6), "ttft_s": ttft,
                     "turns": session.outcomes[-1][0].turns, "score": scores["composite"]})
        if progress:
            progress(i + 1, len(reqs))
    walls = [r["wall_s"] for r in rows]
    ttfts = [r["ttft_s"] for r in rows if r["ttft_s"] is not None]
    return {
        "trace": str(trace),
        "scenario": start["scenario"],
        "requests": len(rows),
        "p50_s": percentile(walls, 50),
        "p95_s": percentile(walls, 95),
        "p99_s": percentile(walls, 99),
        "under_15s": round(sum(1 for w in walls if w < 15.0) / len(walls), 4) if walls else None,
        "ttft_p50_s": percentile(ttfts, 50),
        "mean_score": round(sum(r["score"] for r in rows) / len(rows), 2) if rows else None,
        "per_request": rows,
    }
