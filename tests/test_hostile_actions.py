"""The hostile ACTIONS and COMMENTS corpora (tests/hostile/actions.yaml, comments.yaml): every entry gives its
expected outcome in every environment it can reach, raises nothing, and leaves a valid trace.

Actions go to ``LiveRoom-v0``, ``LiveQA-v0``, the PettingZoo env (``host_0``) and ``RequestLoop.feed`` (a
``LiveSession``); each request is then finished by the reference agent, so the hostile turn lands in a traced,
scored request record. Comments go where viewers' text enters: a stored case (``LiveQA-v0``), a PettingZoo
viewer's comment action, and a request opened on a session.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Callable

import gymnasium as gym
import pytest

import hat_env  # noqa: F401  (registers the envs)
from hat_env.agents.reference import ReferenceAgent
from hat_env.envs import live_room
from hat_env.envs.session import LiveSession
from hat_env.envs.views import observation
from hat_env.harness.runtime import RequestLoop
from hostile_inputs import build, check_plain, check_scores, check_trace, load_corpus

ACTIONS = load_corpus("actions")
COMMENTS = load_corpus("comments")
SCENARIO = "beauty_zh"
WHERE = ("LiveRoom-v0", "LiveQA-v0", "parallel", "loop")


def test_corpora_are_well_formed() -> None:
    outcomes = {"feedback", "tool", "reply", "clamp", "timing"}
    assert all(e["kind"] == "action" and e["expect"]["outcome"] in outcomes for e in ACTIONS)
    assert all(e["kind"] == "comment" and e["via"] in ("case", "viewer", "request") for e in COMMENTS)


# -- running one action --------------------------------------------------------------------------------------
def _finish(loop_of: Callable[[], RequestLoop | None], step: Callable[[Any], Any], max_turns: int = 12) -> None:
    """Let the reference agent finish the open request (bounded)."""
    agent = ReferenceAgent()
    for _ in range(max_turns):
        loop = loop_of()
        if loop is None or loop.done:
            return
        step(agent.act(loop.agent_request()))


def _in_liveroom(action: Any, trace: Path, qa: bool) -> tuple[RequestLoop, float]:
    env = gym.make("hat_env/LiveQA-v0" if qa else "hat_env/LiveRoom-v0", scenario=SCENARIO, trace=str(trace))
    obs, info = env.reset(seed=0)
    s = env.unwrapped.session
    loop = s.loop
    n = len(s.outcomes)
    obs, reward, term, trunc, info = env.step(action)
    check_plain(info)
    assert isinstance(obs["text"], str) and math.isfinite(reward) and 0.0 <= reward <= 1.0
    if "scores" in info:
        check_scores(info["scores"])
    if not term and len(s.outcomes) == n:
        def step(a: Any) -> None:
            _, r, _, _, inf = env.step(a)
            check_plain(inf)
        _finish(lambda: s.loop if s.loop is loop else None, step)
    env.close()
    return loop, s.scenario.scoring.latency_max_s


def _in_parallel(action: Any, trace: Path) -> tuple[RequestLoop, float]:
    env = live_room.parallel_env(scenario=SCENARIO, hosts=1, viewers=10, duration_s=120, trace=trace)
    obs, infos = env.reset(seed=0)
    for _ in range(60):
        if not infos["host_0"].get("idle", True):
            break
        obs, rewards, terms, truncs, infos = env.step({})
    host = env.room.hosts[0]
    loop = host.loop
    assert loop is not None
    obs, rewards, terms, truncs, infos = env.step({"host_0": action})
    check_plain(infos)
    assert all(math.isfinite(r) for r in rewards.values())

    def step(a: Any) -> None:
        _, rw, _, _, inf = env.step({"host_0": a})
        check_plain(inf)

    _finish(lambda: host.loop if host.loop is loop else None, step)
    env.room.finish()
    return loop, env.room.scenario.scoring.latency_max_s


def _in_loop(action: Any, trace: Path) -> tuple[RequestLoop, float]:
    s = LiveSession(SCENARIO, seed=0, duration_s=120, trace=trace)
    assert s.next_request()
    loop = s.loop
    scores = s.feed(action)
    if scores is not None:
        check_scores(scores)
    else:
        _finish(lambda: s.loop if s.loop is loop else None, s.feed)
    s.finish()
    return loop, s.scenario.scoring.latency_max_s


def _check_outcome(expect: dict[str, Any], loop: RequestLoop, latency_max_s: float, where: str) -> None:
    """The first turn of ``loop`` (the hostile one) had the expected outcome."""
    rec = loop.timings[0]
    msgs = loop.turn_messages()[1:]  # after the user message
    # the messages of the hostile turn: up to the first message of turn 2 (the reference agent's)
    says = expect.get("says")
    kind = expect["outcome"]
    ctx = (where, expect, rec, [str(m)[:300] for m in msgs[:4]])
    if kind == "feedback":
        fb = msgs[1]
        assert msgs[0]["role"] == "assistant" and fb["role"] == "user" and fb["content"].startswith("[harness]"), ctx
        assert says in fb["content"], ctx
    elif kind == "tool":
        tool = [m for m in msgs[1:] if m["role"] == "tool"]
        assert tool and says in tool[0]["content"], ctx
    elif kind == "reply":
        assert msgs[0]["role"] == "assistant" and not msgs[0].get("tool_calls"), ctx
        if says:
            assert says in msgs[0]["content"], ctx
    elif kind == "clamp":
        assert rec["turn_s"] == latency_max_s and says in rec["timing_error"], ctx
        assert loop.latency_s >= latency_max_s, ctx
    elif kind == "timing":
        if says:
            assert says in rec.get(expect.get("field", "timing_error"), ""), ctx
        else:
            assert "timing_error" not in rec, ctx
        if "turn_s" in expect:
            assert rec["turn_s"] == expect["turn_s"] and type(rec["turn_s"]) is float, ctx
    assert math.isfinite(loop.latency_s) and loop.latency_s >= 0, ctx


@pytest.mark.parametrize("entry", ACTIONS, ids=[e["id"] for e in ACTIONS])
def test_hostile_action(entry: dict[str, Any], tmp_path: Path) -> None:
    for where in WHERE:
        if where in entry.get("not_in", {}):
            continue  # the entry says why the action means something else there
        trace = tmp_path / f"{where}.jsonl"
        action = build(entry["action"])  # a fresh value each time (the env must not be able to rely on sharing)
        if where in ("LiveRoom-v0", "LiveQA-v0"):
            loop, lmax = _in_liveroom(action, trace, qa=where == "LiveQA-v0")
        elif where == "parallel":
            loop, lmax = _in_parallel(action, trace)
        else:
            loop, lmax = _in_loop(action, trace)
        _check_outcome(entry["expect"], loop, lmax, where)
        recs = check_trace(trace)
        mine = [r for r in recs if r["type"] == "request" and r["request_id"] == loop.request.request_id]
        assert mine, (where, "the hostile request was not traced")


# -- comments --------------------------------------------------------------------------------------------------
def _case(comment: dict[str, Any]) -> dict[str, Any]:
    return {"t": 30.0, "comments": [comment]}


def _comment_via_case(entry: dict[str, Any], tmp_path: Path) -> tuple[RequestLoop | None, str | None]:
    env = gym.make("hat_env/LiveQA-v0", scenario=SCENARIO, trace=str(tmp_path / "qa.jsonl"))
    comment = build(entry["comment"])
    try:
        env.reset(seed=0, options={"case": _case(comment)})
    except ValueError as exc:
        return None, str(exc)
    s = env.unwrapped.session
    loop = s.loop
    _finish(lambda: s.loop if s.loop is loop else None, env.step)
    env.close()
    check_trace(tmp_path / "qa.jsonl")
    return loop, None


def _comment_via_request(entry: dict[str, Any], tmp_path: Path) -> tuple[RequestLoop | None, str | None]:
    from hat_env.envs.live_qa import request_from_case

    s = LiveSession(SCENARIO, seed=0, viewers=False, trace=tmp_path / "req.jsonl")
    try:
        req = request_from_case(_case(build(entry["comment"])))
    except ValueError as exc:
        return None, str(exc)
    assert s.open_request(req)
    loop = s.loop
    _finish(lambda: s.loop if s.loop is loop else None, s.feed)
    s.finish()
    check_trace(tmp_path / "req.jsonl")
    return loop, None


def _comment_via_viewer(entry: dict[str, Any], tmp_path: Path) -> tuple[RequestLoop | None, dict[str, Any]]:
    """A viewer's comment action; the host's next request holds what got through (``None``: nothing did)."""
    trace = tmp_path / "viewer.jsonl"
    env = live_room.parallel_env(scenario=SCENARIO, hosts=1, viewers=6, duration_s=60, trace=trace)
    obs, infos = env.reset(seed=0)
    viewer = next(a for a in env.agents if a.startswith("viewer_"))
    quiet = {a: {"kind": 1, "text": ""} for a in env.agents if a.startswith("viewer_")}
    obs, rewards, terms, truncs, infos = env.step({**quiet, viewer: build(entry["comment"])})
    first_info = infos[viewer]
    check_plain(infos)
    host = env.room.hosts[0]
    got: RequestLoop | None = None
    for _ in range(30):  # the merge window closes; the request opens
        if host.loop is not None and any(c.viewer_id == env.room.viewer_id_of(viewer) for c in host.loop.request.comments):
            got = host.loop
            break
        if host.loop is not None:
            _finish(lambda: host.loop, lambda a: env.step({**quiet, "host_0": a}))
            continue
        obs, rewards, terms, truncs, infos = env.step(dict(quiet))
    if got is not None:
        _finish(lambda: host.loop if host.loop is got else None, lambda a: env.step({**quiet, "host_0": a}))
    env.room.finish()
    check_trace(trace)
    return got, first_info


@pytest.mark.parametrize("entry", COMMENTS, ids=[e["id"] for e in COMMENTS])
def test_hostile_comment(entry: dict[str, Any], tmp_path: Path) -> None:
    exp = entry["expect"]
    if entry["via"] == "viewer":
        loop, info = _comment_via_viewer(entry, tmp_path)
        if "action_error" in exp:
            assert exp["action_error"] in info.get("action_error", ""), info
        if exp.get("silent"):
            assert loop is None, "nothing should have reached the host"
            return
    else:
        run = _comment_via_case if entry["via"] == "case" else _comment_via_request
        loop, error = run(entry, tmp_path)
        if "error" in exp:
            assert error is not None and exp["error"] in error, error
            return
        assert error is None, error
    assert loop is not None and loop.done
    user = loop.user_message["content"]
    if "shown" in exp:
        assert build(exp["shown"]) in user, user[:500]
    if "max_chars" in exp:
        assert all(len(c.text) <= exp["max_chars"] for c in loop.request.comments)
    if "not_in_reply" in exp:
        assert build(exp["not_in_reply"]) not in loop.reply, loop.reply
    if "calls_only_from_agent" in exp:  # a tool call written in a comment runs nothing by itself
        assert all(c.name in {t.name for t in loop.harness.spec.tools} | {"load_skill"} for c in loop.calls)
    obs_text = observation(loop)["text"]
    for bad in exp.get("not_in_observation", []):
        assert build(bad) not in obs_text
