"""The hostile ENDPOINTS corpus (tests/hostile/endpoints.yaml): the openai adapter against a scripted fault server
on 127.0.0.1. Every behaviour ends as the answer or as a clear ``AgentResponse.error`` (never a raise, never an
empty output without an error), within the adapter's bounded retries and time limit, and the error lands on the
traced turn of a session that still finishes.

How long each call took is printed (``-s``), not asserted.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from conftest import need
from fault_server import FakeEndpoint, sse
from hat_env.envs.session import LiveSession
from hat_env.types import AgentRequest
from hostile_inputs import build, check_trace, load_corpus

ENTRIES = load_corpus("endpoints")
HI = AgentRequest(messages=[{"role": "user", "content": "3号链接多少钱？"}], tools=[])


def _item(spec: list[Any]) -> tuple[Any, ...]:
    """A fault-server script item from its YAML form."""
    spec = [build(x) for x in spec]
    if spec[0] == "raw":
        return ("raw", spec[1], spec[2], spec[3].encode("utf-8"))
    if spec[0] == "sse":
        events = [e.encode("utf-8") if isinstance(e, str) else e for e in spec[1]]
        return ("raw", 200, "text/event-stream", sse(events, done=spec[2]))
    return tuple(spec)


def test_corpus_is_well_formed() -> None:
    assert len(ENTRIES) >= 25 and all(e["kind"] == "endpoint" for e in ENTRIES)
    for e in ENTRIES:
        assert ("error" in e["expect"]) != ("text" in e["expect"]) and "requests" in e["expect"], e["id"]


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["id"] for e in ENTRIES])
def test_hostile_endpoint(entry: dict[str, Any], tmp_path: Path) -> None:
    need("openai")
    from hat_env.agents import make_agent

    exp = entry["expect"]
    script = [_item(s) for s in entry["script"]]
    with FakeEndpoint(script, models=entry.get("models"), models_raw=(entry["models_raw"].encode()
                                                                      if "models_raw" in entry else None)) as ep:
        opts = {"model": "fake-model", "timeout": 10, "max_retries": 0, **entry.get("agent", {})}
        agent = make_agent("openai", base_url=ep.base_url, **opts)
        try:
            t = time.perf_counter()
            r = agent.act(HI)
            took = time.perf_counter() - t
        finally:
            agent.close()
        requests = ep.requests
    print(f"{entry['id']}: {took:.2f} s, {requests} requests, error={r.error!r:.120}")
    if "text" in exp:
        assert r.error is None and r.text == exp["text"], (r.text[:200], r.error)
    else:
        assert r.error is not None and exp["error"] in r.error, r.error
        assert r.text == "" and r.tool_calls == []
        assert len(r.error) <= exp.get("max_error_chars", 2000)
    assert requests == exp["requests"], requests
    # the answer as a session sees it: an error is the traced turn's error, and the session goes on and finishes
    trace = tmp_path / "t.jsonl"
    s = LiveSession("beauty_zh", seed=0, duration_s=30, trace=trace)
    assert s.next_request()
    s.feed(r)
    first = s.turn_timings[0]
    assert first.get("error") == r.error
    s.finish()
    check_trace(trace)


def test_bench_against_a_chaotic_endpoint_then_resume(tmp_path: Path) -> None:
    """``hat-env bench`` with the openai adapter against an endpoint whose first answers are a hang, garbage, a
    cut stream and a 500: the bench finishes (rc 0), every case once, scored or recorded with its agent error;
    ``--resume`` (the endpoint healthy now) runs exactly the errored cases once and keeps the other lines byte
    for byte."""
    import json
    import subprocess
    import sys

    need("openai")
    from hat_env.agents.local_server import offline_env

    script = [("sleep", 30), ("raw", 200, "text/html", b"<html>502 Bad Gateway</html>"), ("cut", "par"),
              ("status", 500, "engine died", {})]
    with FakeEndpoint(script) as ep:
        out = tmp_path / "bench"
        cmd = [sys.executable, "-m", "hat_env.cli", "bench", "--suite", "ifeval-live-v1", "--limit", "8", "--agent",
               "openai", "--base-url", ep.base_url, "--model", "fake-model", "--timeout", "2", "--agent-arg",
               "max_retries=0", "--out", str(out), "--quiet"]
        first = subprocess.run(cmd, capture_output=True, text=True, env=offline_env(), cwd=tmp_path, timeout=600)
        assert first.returncode == 0 and "Traceback" not in first.stderr, first.stdout + first.stderr
        path = out / "results.jsonl"
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        recs = [json.loads(x) for x in lines]
        ids = [r["case_id"] for r in recs]
        assert len(ids) == 8 and len(set(ids)) == 8, ids
        errored = {r["case_id"] for r in recs if r.get("errors")}
        assert errored, "the faults are recorded as agent errors"
        kinds = ("within the 2 s timeout", "not an event stream", "lost mid-answer", "ended before", "server error 500")
        assert all(any(k in e for k in kinds) for r in recs for e in r.get("errors", [])), \
            [r["errors"] for r in recs if r.get("errors")]
        kept = [x for x, r in zip(lines, recs) if not r.get("errors")]
        served = ep.requests
        again = subprocess.run(cmd + ["--resume"], capture_output=True, text=True, env=offline_env(), cwd=tmp_path,
                               timeout=600)
        assert again.returncode == 0, again.stdout + again.stderr
        final = path.read_text(encoding="utf-8").splitlines(keepends=True)
        recs2 = [json.loads(x) for x in final]
        assert sorted(r["case_id"] for r in recs2) == sorted(ids), "each case exactly once"
        assert not any(r.get("errors") for r in recs2)
        assert final[: len(kept)] == kept, "the finished cases are kept as written"
        assert {r["case_id"] for r in recs2[len(kept):]} == errored
        assert ep.requests > served
