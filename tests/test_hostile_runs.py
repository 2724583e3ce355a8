"""Runs that meet a fault: a harness patch that cannot apply (checked up front; at runtime it ends the session with
an error record and the summary), a bench whose agent failed on some cases (``--resume`` runs exactly those
again), and a long session whose memory must not grow with its length (history and outcomes bounded).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest

import hat_env  # noqa: F401
from hat_env.agents.reference import ReferenceAgent
from hat_env.envs import live_room
from hat_env.envs.host import KEPT_OUTCOMES, TimelineError
from hat_env.envs.session import LiveSession
from hat_env.evaluation.runner import run_cases
from hat_env.evaluation.suites import gen_lsqa
from hat_env.runner import run_session
from hat_env.types import AgentRequest, AgentResponse
from hat_env.yamlio import FileError
from hostile_inputs import check_trace

REPO = Path(__file__).resolve().parent.parent
SCEN = REPO / "scenarios" / "apparel_flash_zh.yaml"
#: renames the tool the scenario's 300 s patch renames itself: that patch then names a tool the harness lacks
RENAMED = [{"op": "rename_tool", "tool": "get_product_info_by_link_id", "to": "lookup"}]


def _bad_scenario(tmp_path: Path) -> Path:
    text = SCEN.read_text(encoding="utf-8").replace(
        "    patch:\n", "    patch:\n      - op: remove_skill\n        skill: no-such-skill\n", 1)
    path = tmp_path / "bad_patch.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_bad_timeline_patch_is_an_error_at_start(tmp_path: Path) -> None:
    bad = _bad_scenario(tmp_path)
    # the pre-flight check (hat_env/envs/preflight.py) names the file, line, entry and reason before any request
    with pytest.raises((FileError, TimelineError), match=r"bad_patch.yaml:\d+: harness_timeline.0.patch.0.skill: "
                                                          r".*no skill named 'no-such-skill'"):
        LiveSession(bad, seed=0)
    r = subprocess.run([sys.executable, "-m", "hat_env.cli", "run", "--scenario", str(bad), "--quiet", "--trace",
                        str(tmp_path / "t.jsonl")], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 2 and "no skill named 'no-such-skill'" in r.stdout + r.stderr and "Traceback" not in r.stderr, \
        r.stdout + r.stderr
    # a --harness override that the timeline does not fit is checked at the start too
    from hat_env.harness.core import Harness

    renamed = Harness.load("default").apply(RENAMED)
    with pytest.raises((FileError, TimelineError), match="no tool named 'get_product_info_by_link_id'"):
        LiveSession("apparel_flash_zh", seed=0, harness=renamed)


def _failing_at_300(trace: Path) -> LiveSession:
    s = LiveSession("apparel_flash_zh", seed=0, trace=trace)
    s.host.set_harness(s.harness.apply(RENAMED))  # what the up-front check cannot see: a harness set afterwards
    return s


def test_patch_failing_mid_stream_ends_the_session_with_its_summary(tmp_path: Path) -> None:
    trace = tmp_path / "t.jsonl"
    summary = run_session(_failing_at_300(trace), ReferenceAgent())
    assert "harness_timeline[0] (at 300 s): PatchError: patch[3]: no tool named" in summary["error"], summary
    assert summary["requests"] > 10 and 0 <= summary["score"] <= 100
    recs = check_trace(trace)
    err = [r for r in recs if r["type"] == "error"]
    assert len(err) == 1 and err[0]["where"] == "harness_timeline" and err[0]["t"] >= 300 and err[0]["patch"]
    assert recs[-1]["type"] == "session_end" and recs[-1]["error"] == summary["error"]
    assert not any(r["type"] == "request" and r["t"] >= 300 for r in recs), "no request opens after the failure"


def test_patch_failing_mid_stream_in_the_envs(tmp_path: Path) -> None:
    env = gym.make("hat_env/LiveRoom-v0", scenario="apparel_flash_zh", trace=str(tmp_path / "gym.jsonl"))
    env.reset(seed=0)
    s = env.unwrapped.session
    s.host.set_harness(s.harness.apply(RENAMED))
    agent = ReferenceAgent()
    for _ in range(2000):
        obs, reward, term, trunc, info = env.step(agent.act(env.unwrapped.agent_request()))
        if term:
            break
    assert term and "no tool named" in info["error"] and info["summary"]["error"] == info["error"]
    env.close()
    check_trace(tmp_path / "gym.jsonl")
    # the PettingZoo room: the episode ends for every agent, the summary says why
    penv = live_room.parallel_env(scenario="apparel_flash_zh", hosts=1, viewers=10, trace=tmp_path / "pz.jsonl")
    penv.reset(seed=0)
    host = penv.room.hosts[0]
    host.set_harness(host.harness.apply(RENAMED))
    for _ in range(2000):
        acts = {"host_0": agent.act(penv.agent_request("host_0"))} if host.loop is not None else {}
        obs, rewards, terms, truncs, infos = penv.step(acts)
        if not penv.agents:
            break
    assert all(terms.values()) and "no tool named" in infos["host_0"]["summary"]["error"]
    assert penv.room.state.t < 310  # it ended at the patch, not at the end of the stream
    check_trace(tmp_path / "pz.jsonl")


class FailsOn:
    """The reference agent, failing (an endpoint error) on the cases named."""

    name = "fails-on"

    def __init__(self, bad: set[str]):
        self.bad, self.ref, self.calls = bad, ReferenceAgent(), 0

    def act(self, request: AgentRequest) -> AgentResponse:
        self.calls += 1
        user = next(m["content"] for m in request.messages if m["role"] == "user")
        if any(b in user for b in self.bad):
            return AgentResponse(error="cannot connect to http://127.0.0.1:9/v1: connection refused")
        return self.ref.act(request)


def test_resume_runs_exactly_the_errored_cases_again(tmp_path: Path) -> None:
    cases = gen_lsqa(8)  # the suite generator itself, 8 cases (the whole suite takes a minute to generate)
    texts = [c["comments"][0]["text"] for c in cases]
    bad = {texts[2], texts[5]}
    out = tmp_path / "results.jsonl"
    first = run_cases(cases, FailsOn(bad), out)
    assert len(first) == 8 and sum(1 for r in first if r.get("errors")) == 2
    lines = out.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = [ln for ln in lines if "errors" not in json.loads(ln)]
    again = FailsOn(set())
    final = run_cases(cases, again, out, resume=True)
    assert sorted(r["case_id"] for r in final) == sorted(c["id"] for c in cases), "each case exactly once"
    assert not any(r.get("errors") for r in final)
    assert out.read_text(encoding="utf-8").splitlines(keepends=True)[:6] == kept, "finished lines kept as written"
    assert again.calls and all(r["case_id"] in {cases[2]["id"], cases[5]["id"]} for r in final[6:])
    assert run_cases(cases, FailsOn(set()), out, resume=True) == final  # nothing left to run


def test_long_session_keeps_bounded_history_and_outcomes(monkeypatch: pytest.MonkeyPatch) -> None:
    import hat_env.envs.host as host_mod

    kept = 20  # KEPT_OUTCOMES, made small so that a short session passes it
    assert KEPT_OUTCOMES >= 1000
    monkeypatch.setattr(host_mod, "KEPT_OUTCOMES", kept)
    s = LiveSession("beauty_zh", seed=0, duration_s=900, max_history=3)
    agent = ReferenceAgent()
    done = 0
    while done < kept + 30 and s.next_request():
        while s.feed(agent.act(s.loop.agent_request())) is None:
            pass
        done += 1
    assert done > kept
    assert len(s.history) == 6 and len(s.outcomes) == kept
    summary = s.summary()
    assert summary["requests"] == done and 0 < summary["score"] <= 100
    assert s.outcomes[-1][0].request.request_id == f"r{s.n_requests:04d}"


def test_summary_counts_match_a_full_recount() -> None:
    """The running totals behind the summary give what a recount of every outcome gives (a short session,
    where the outcomes are all kept)."""
    s = LiveSession("electronics_en", seed=3, duration_s=240)
    summary = run_session(s, ReferenceAgent())
    outs: list[Any] = list(s.outcomes)
    n = len(outs)
    comps: dict[str, float] = {}
    for _, comp, _ in outs:
        for k, v in comp.items():
            comps[k] = comps.get(k, 0.0) + v
    lat = sorted(o.latency_s for o, _, _ in outs)
    assert summary["requests"] == n and summary["score"] == round(sum(c for _, _, c in outs) / n, 2)
    assert summary["components"] == {k: round(v / n, 4) for k, v in comps.items()}
    assert summary["latency_p95_s"] == round(lat[min(n - 1, int(0.95 * n))], 3)
    assert summary["fallbacks"] == sum(1 for o, _, _ in outs if o.fallback)
