"""Gymnasium environments: registration, check_env, vector envs, determinism, bad actions, scores."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

import hat_env  # noqa: F401  (registers the environments)
from hat_env.agents import make_agent
from hat_env.envs.session import LiveSession
from hat_env.runner import run_session
from hat_env.sim.scenario import builtin_scenarios

SCENARIOS = builtin_scenarios()


def test_import_is_light() -> None:
    code = (
        "import sys, hat_env, gymnasium; gymnasium.make('hat_env/LiveRoom-v0');"
        "heavy = [m for m in ('torch', 'transformers', 'trl', 'vllm', 'ray', 'openai') if m in sys.modules];"
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_builtin_scenarios_cover_every_builtin_locale() -> None:
    assert len(SCENARIOS) >= 4
    from hat_env.locales import builtin_locales
    from hat_env.sim.scenario import load_scenario

    assert {load_scenario(s).locale for s in SCENARIOS} == set(builtin_locales()) >= {"zh_CN", "en_US", "es_ES"}


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_live_room_passes_check_env(scenario: str) -> None:
    env = gym.make("hat_env/LiveRoom-v0", scenario=scenario, duration_s=120)
    check_env(env.unwrapped, skip_render_check=True)
    env.close()


def test_live_qa_passes_check_env() -> None:
    env = gym.make("hat_env/LiveQA-v0", scenario="electronics_en")
    check_env(env.unwrapped, skip_render_check=True)


def _play(env: gym.Env, agent, seed: int, max_steps: int = 400) -> tuple[float, int, dict]:
    obs, info = env.reset(seed=seed)
    total, replies = 0.0, 0
    for _ in range(max_steps):
        req = env.unwrapped.agent_request()
        resp = agent.act(req)
        obs, r, term, trunc, info = env.step(resp.text)
        assert isinstance(obs["text"], str)
        if info.get("request_done"):
            total += r
            replies += 1
        if term or trunc:
            break
    return total, replies, info


def test_live_room_episode_with_reference_agent() -> None:
    env = gym.make("hat_env/LiveRoom-v0", scenario="beauty_zh", duration_s=120)
    total, replies, info = _play(env, make_agent("reference"), seed=5)
    assert replies > 3 and total / replies > 0.95
    assert "summary" in info and info["summary"]["requests"] == replies


def test_info_carries_openai_messages_tools_and_harness_identity() -> None:
    env = gym.make("hat_env/LiveRoom-v0", scenario="electronics_en", duration_s=60)
    obs, info = env.reset(seed=1)
    assert info["messages"][0]["role"] == "system" and info["messages"][-1]["role"] == "user"
    names = {t["function"]["name"] for t in info["tools"]}
    assert "load_skill" in names and len(names) >= 9
    assert len(info["harness_hash"]) == 16 and info["harness_version"]
    assert "Viewer comments:" in obs["text"] and "<|tools|>" in obs["text"]


def test_info_holds_copies_of_plain_json_values() -> None:
    """An info the caller keeps never changes afterwards and holds no live object (it dumps as JSON); changing it
    changes nothing in the env. Scripted agents read the harness from ``agent_request()`` instead."""
    env = gym.make("hat_env/LiveRoom-v0", scenario="beauty_zh", duration_s=120)
    agent = make_agent("reference")
    _obs, info = env.reset(seed=4)
    assert "harness" not in info and env.unwrapped.agent_request().harness is not None
    for _ in range(12):
        kept = json.dumps(info, ensure_ascii=False, sort_keys=True)  # raises on a non-JSON value
        _obs, _r, term, _t, nxt = env.step(agent.act(env.unwrapped.agent_request()).text)
        assert json.dumps(info, ensure_ascii=False, sort_keys=True) == kept  # the kept info did not grow
        if term:
            break
        if not nxt.get("request_done"):
            assert len(nxt["messages"]) > len(info["messages"])  # the conversation went on, in the new info
        info = nxt
        tool = info["tools"][0]["function"]["name"]
        info["tools"][0]["function"]["name"] = "changed"
        info["messages"][0]["content"] = "changed"
        info["messages"].append({"role": "user", "content": "injected"})
        if "scores" in info:
            info["scores"]["components"].clear()
            assert env.unwrapped.session.outcomes[-1][1]  # the session's own scores are untouched
        req = env.unwrapped.agent_request()
        assert req.tools[0]["function"]["name"] == tool and req.messages[0]["content"] != "changed"
        assert req.messages[-1]["content"] != "injected"
    env.close()


def test_step_with_agent_responses_traces_ttft_and_tokens(tmp_path: Path) -> None:
    """An agent's measured TTFT and token counts reach the trace whether the env is stepped with
    AgentResponse objects or with OpenAI message dicts, as ``hat-env run`` records them."""
    from hat_env.types import AgentResponse, Timings

    trace = tmp_path / "t.jsonl"
    env = gym.make("hat_env/LiveRoom-v0", scenario="beauty_zh", duration_s=60, trace=str(trace))
    agent = make_agent("reference")
    env.reset(seed=2)
    n = 0
    while n < 40:
        req = env.unwrapped.agent_request()
        resp = agent.act(req)
        if n % 2 == 0:
            action: object = AgentResponse(text=resp.text, tool_calls=resp.tool_calls,
                                           timings=Timings(total_s=0.5, ttft_s=0.125), prompt_tokens=900 + n,
                                           completion_tokens=30)
        else:
            action = {"role": "assistant", "content": resp.text, "turn_seconds": 0.5, "ttft_s": 0.25,
                      "prompt_tokens": 800, "completion_tokens": 20}
        _obs, _r, term, trunc, _info = env.step(action)
        n += 1
        if term or trunc:
            break
    env.close()
    turns = [t for line in trace.read_text().splitlines() if (rec := json.loads(line)).get("type") == "request"
             for t in rec["timings"]]
    assert turns, "no request was traced"
    assert {t["ttft_s"] for t in turns} <= {0.125, 0.25} and {0.125, 0.25} <= {t["ttft_s"] for t in turns}
    assert all(t["turn_s"] == 0.5 and t["total_s"] == 0.5 and t["completion_tokens"] in (20, 30) for t in turns)
    assert any(t["prompt_tokens"] >= 900 for t in turns)


def test_live_qa_is_one_request_per_episode() -> None:
    env = gym.make("hat_env/LiveQA-v0", scenario="healthfood_zh")
    agent = make_agent("reference")
    for seed in range(6):
        total, replies, _ = _play(env, agent, seed)
        assert replies == 1 and total >= 0.9


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_make_vec(mode: str) -> None:
    envs = gym.make_vec("hat_env/LiveQA-v0", num_envs=2, vectorization_mode=mode, scenario="beauty_zh")
    obs, info = envs.reset(seed=3)
    assert len(obs["text"]) == 2 and all(isinstance(t, str) and t for t in obs["text"])
    for _ in range(4):
        obs, rew, term, trunc, info = envs.step(("hello", '<tool_call>{"name": "load_skill", "arguments": {"name": "chitchat"}}</tool_call>'))
        assert len(rew) == 2
    envs.close()


@pytest.mark.parametrize("action", ["", "\x00\x01", "<tool_call>", '<tool_call>{"name": "pin_product", "arguments": {"product_id": 7}}</tool_call>',
                                    '{"name": "nope", "arguments": []}', "x" * 20000, "宝宝们" * 100, "🙂" * 50])
def test_bad_actions_never_crash(action: str) -> None:
    env = gym.make("hat_env/LiveRoom-v0", scenario="beauty_zh", duration_s=60)
    env.reset(seed=2)
    for _ in range(12):
        obs, r, term, trunc, info = env.step(action)
        assert 0.0 <= r <= 1.0
        if term:
            break


def test_random_strings_from_action_space() -> None:
    env = gym.make("hat_env/LiveRoom-v0", scenario="apparel_flash_zh", duration_s=60)
    env.reset(seed=0)
    env.action_space.seed(0)
    for _ in range(50):
        _, _, term, _, _ = env.step(env.action_space.sample())
        if term:
            env.reset()


def _trace(tmp_path: Path, name: str, scenario: str, seed: int, agent: str = "reference") -> bytes:
    path = tmp_path / f"{name}.jsonl"
    run_session(LiveSession(scenario, seed=seed, duration_s=150, trace=path), make_agent(agent, seed=seed))
    return path.read_bytes()


@pytest.mark.parametrize("scenario", ["beauty_zh", "electronics_en"])
def test_same_seed_same_trace_bytes_other_seed_differs(tmp_path: Path, scenario: str) -> None:
    a = _trace(tmp_path, "a", scenario, 7)
    b = _trace(tmp_path, "b", scenario, 7)
    c = _trace(tmp_path, "c", scenario, 8)
    assert a == b and a != c
    rows = [json.loads(line) for line in a.decode().splitlines()]
    assert rows[0]["type"] == "session_start" and rows[-1]["type"] == "session_end"
    req = next(r for r in rows if r["type"] == "request")
    assert {"comments", "messages", "calls", "hook_events", "reply", "scores", "harness", "timings"} <= set(req)


def test_random_agent_trace_is_deterministic(tmp_path: Path) -> None:
    assert _trace(tmp_path, "a", "healthfood_zh", 3, "random") == _trace(tmp_path, "b", "healthfood_zh", 3, "random")


#: Rooms where the reference agent is known to score under 95 (strict xfails: when it is fixed they fail and must
#: be removed). None now: the reference turns a purchase the SOLD-OUT hook blocks into a sold-out answer.
_REFERENCE_KNOWN_WRONG: dict[str, str] = {}


@pytest.mark.parametrize("scenario", [
    pytest.param(s, marks=pytest.mark.xfail(strict=True, reason=_REFERENCE_KNOWN_WRONG[s]))
    if s in _REFERENCE_KNOWN_WRONG else s for s in SCENARIOS])
def test_reference_scores_at_least_95_and_random_under_20(scenario: str) -> None:
    ref = run_session(LiveSession(scenario), make_agent("reference"))
    rnd = run_session(LiveSession(scenario), make_agent("random", seed=1))
    assert ref["requests"] >= 20
    assert ref["score"] >= 95, ref
    assert rnd["score"] < 20, rnd


def test_harness_changes_mid_stream(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    summary = run_session(LiveSession("apparel_flash_zh", trace=path), make_agent("reference"))
    rows = [json.loads(x) for x in path.read_text().splitlines()]
    patches = [r for r in rows if r["type"] == "harness_patch"]
    assert len(patches) == 1
    hashes = {r["harness"]["hash"] for r in rows if r["type"] == "request"}
    assert len(hashes) == 2 and patches[0]["harness"]["hash"] in hashes
    after = [r for r in rows if r["type"] == "request" and r["t"] >= patches[0]["t"]]
    assert any(c["name"] == "lookup_link_item" for r in after for c in r["calls"])
    assert all(len(r["reply"]) <= 80 for r in after)
    # following the harness it is given: the right tools and skills under the new names, within the new limit
    # (the composite also counts what the reference says, see _REFERENCE_KNOWN_WRONG)
    comp = summary["components"]
    assert comp["tool_rationality"] >= 0.95 and comp["skill_selection"] >= 0.95 and comp["constraints"] >= 0.95
