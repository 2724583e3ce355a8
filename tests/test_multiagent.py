"""The multi-agent live room (``hat_env/LiveRoomParallel-v0``): PettingZoo's test suite, joining and leaving,
viewer actions and observations, rewards, agent-driven viewers (a plug-in and the real ``openai`` adapter against
a local vLLM server), determinism and traces."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
import types
import warnings
from pathlib import Path
from typing import Any

import pytest
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, parallel_seed_test, seed_test

import hat_env  # noqa: F401  (registers the environments)
from hat_env.agents import make_agent
from hat_env.envs import live_room
from hat_env.envs.live_room_parallel import LiveRoomParallelEnv
from hat_env.envs.multi_room import HostSpec, host_specs
from hat_env.envs.viewer_policy import (
    AUTO,
    BUY,
    COMMENT,
    LEAVE,
    SILENT,
    LLMViewer,
    ViewerAction,
    coerce_action,
    parse_viewer_output,
)
from hat_env.sim.room import RoomState
from hat_env.sim.scenario import load_scenario
from hat_env.sim.viewers import ViewerPool
from hat_env.types import AgentRequest, AgentResponse

ENV_ID = "hat_env/LiveRoomParallel-v0"
#: A small room that still sees arrivals and departures within a few dozen steps.
SMALL = dict(scenario="electronics_en", hosts=2, viewers=4, max_viewers=12, arrival_per_min=30, duration_s=90)


def read_trace(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def host_actions(env: LiveRoomParallelEnv, agent: Any) -> dict[str, str]:
    """The reference agent's output for every host with an open request."""
    out = {}
    for h in env.hosts:
        req = env.agent_request(h) if h in env.agents else None
        if req is not None:
            out[h] = agent.act(req).text
    return out


def play(env: LiveRoomParallelEnv, seed: int, viewer_actions: Any = None) -> dict[str, float]:
    """Run an episode with reference hosts; ``viewer_actions(env, obs)`` adds viewer actions. Returns reward sums."""
    ref = make_agent("reference")
    obs, _ = env.reset(seed=seed)
    totals: dict[str, float] = {}
    while env.agents:
        acts: dict[str, Any] = host_actions(env, ref)
        if viewer_actions is not None:
            acts.update(viewer_actions(env, obs))
        obs, rew, term, trunc, info = env.step(acts)
        for a, r in rew.items():
            totals[a] = totals.get(a, 0.0) + r
    return totals


# -- registration and the PettingZoo test suite ---------------------------------------------------------------
def test_registered_and_reachable_pettingzoo_style() -> None:
    import pettingzoo

    par = pettingzoo.make("parallel", ENV_ID, **SMALL)
    aec = pettingzoo.make("aec", ENV_ID, **SMALL)
    assert isinstance(par, pettingzoo.ParallelEnv) and isinstance(aec, pettingzoo.AECEnv)
    assert isinstance(live_room.parallel_env(**SMALL), LiveRoomParallelEnv)
    assert isinstance(live_room.env(**SMALL), pettingzoo.AECEnv)
    assert par.possible_agents == ["host_0", "host_1"] + [f"viewer_{k}" for k in range(12)]
    par.close()


def test_import_stays_light() -> None:
    code = (
        "import sys, hat_env, pettingzoo; assert 'hat_env/LiveRoomParallel-v0' in pettingzoo.parallel_registry;"
        "loaded = [m for m in ('hat_env.envs.live_room_parallel', 'hat_env.envs.multi_room', 'torch', 'openai',"
        " 'vllm', 'transformers') if m in sys.modules]; print(','.join(loaded))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_pettingzoo_api_test_on_aec_form() -> None:
    api_test(live_room.env(**SMALL), num_cycles=60)


def test_pettingzoo_parallel_api_test() -> None:
    parallel_api_test(live_room.parallel_env(**SMALL), num_cycles=60)


def test_pettingzoo_seed_tests() -> None:
    seed_test(functools.partial(live_room.env, **SMALL), num_cycles=30)
    parallel_seed_test(functools.partial(live_room.parallel_env, **SMALL), num_cycles=30)


def test_pettingzoo_max_cycles_test() -> None:
    # max_cycles_test takes the median step count over possible_agents, so most of them must live through the
    # 4 cycles: two hosts and one viewer.
    kw = dict(scenario="electronics_en", hosts=2, viewers=1, max_viewers=1, arrival_per_min=0)
    mod = types.SimpleNamespace(parallel_env=functools.partial(live_room.parallel_env, **kw),
                                env=functools.partial(live_room.env, **kw))
    max_cycles_test(mod)


def test_spaces_are_stable_and_sampleable() -> None:
    env = live_room.parallel_env(**SMALL)
    for a in env.possible_agents:
        assert env.observation_space(a) is env.observation_space(a)
        assert env.action_space(a) is env.action_space(a)
    assert env.action_space("viewer_3").contains(env.action_space("viewer_3").sample())
    assert coerce_action(env.action_space("viewer_3").sample()).kind in range(5)
    with pytest.raises(KeyError):
        env.observation_space("viewer_12")


# -- the room: joining, leaving, what viewers see and do ------------------------------------------------------
def test_viewers_join_and_leave_over_time() -> None:
    env = live_room.parallel_env(scenario="electronics_en", viewers=5, max_viewers=15, arrival_per_min=40,
                                 duration_s=240)
    ref = make_agent("reference")
    obs, infos = env.reset(seed=2)
    assert env.agents == ["host_0"] + [f"viewer_{k}" for k in range(5)]
    seen, gone = set(env.agents), set()
    while env.agents:
        before = set(env.agents)
        obs, rew, term, trunc, info = env.step(host_actions(env, ref))
        new = set(obs) - before
        assert new == set(env.agents) - before or not env.agents  # joiners get their first observation
        for a in new:
            assert info[a]["agent"] == a and not term[a] and obs[a]["text"].startswith("You are ")
        assert set(obs) == set(rew) == set(term) == set(trunc) == set(info) == before | new
        for a, t in term.items():
            if t and env.agents:
                assert a not in env.agents
                gone.add(a)
        assert not (gone & set(env.agents)), "an agent came back"
        seen |= set(env.agents)
    assert len(seen) == 1 + 15, "arrivals used every viewer name"
    assert len(gone) >= 3, "viewers left during the stream"
    summ = env.summary()
    assert summ["viewers"]["arrivals"] == 15 and summ["viewers"]["turned_away"] > 0


def test_viewer_sees_pinned_product_price_deals_comments_and_replies() -> None:
    env = live_room.parallel_env(scenario="beauty_zh", viewers=30, duration_s=600)
    ref = make_agent("reference")
    env.reset(seed=4)
    room = env.room
    text = ""
    for _ in range(600):
        obs, *_ = env.step(host_actions(env, ref))
        v = next(a for a in env.agents if a.startswith("viewer_"))
        text = obs[v]["text"]
        if room.room.pinned and "【小美】" in text and "置顶" in text:
            break
    p = room.room.by_id[room.room.pinned]
    assert text.startswith(f"你是 {env.room.viewers.viewers[env.room.viewer_id_of(v)].name}（{v}）")
    assert f"置顶：{p.link}号链接" in text and f"到手价¥" in text
    assert "人在看" in text and "【小美】" in text
    assert env.observation_space(v).contains(obs[v])


def test_explicit_viewer_actions_comment_buy_leave() -> None:
    env = live_room.parallel_env(scenario="beauty_zh", viewers=3, max_viewers=3, arrival_per_min=0, duration_s=120,
                                 hosts=[{"role": "all"}])
    ref = make_agent("reference")
    env.reset(seed=0)
    purchases = env.room.room.purchases
    obs, rew, term, trunc, info = env.step({"viewer_0": {"kind": COMMENT, "text": "3号链接多少钱？"},
                                            "viewer_1": {"kind": BUY, "text": "3"},
                                            "viewer_2": {"kind": LEAVE, "text": ""}})
    assert term["viewer_2"] and "viewer_2" not in env.agents
    assert env.room.room.purchases == purchases + 1
    assert rew["viewer_1"] == pytest.approx(0.5)  # a fair deal: nobody told it anything false
    assert rew["host_0"] == pytest.approx(0.5 / 1)  # an unanswered buyer: the credit is shared by the hosts
    assert "3号链接多少钱？" in obs["viewer_1"]["text"]
    # the comment opens host_0's request after the merge window; the reference host answers it
    total = {"host_0": 0.0, "viewer_0": 0.0}
    for _ in range(30):
        obs, rew, term, trunc, info = env.step(host_actions(env, ref))
        for a in total:
            total[a] += rew.get(a, 0.0)
        if info["host_0"].get("request_done"):
            break
    assert info["host_0"]["scores"]["composite"] > 90
    assert total["viewer_0"] == pytest.approx(1.0)  # a correct, complete answer to its question
    assert "89" in obs["viewer_0"]["text"]  # the beauty_zh sunscreen: 119 - 30 coupon


def test_two_hosts_split_comments_by_role() -> None:
    env = live_room.parallel_env(scenario="beauty_zh", hosts=2, viewers=2, max_viewers=2, arrival_per_min=0,
                                 duration_s=60)
    env.reset(seed=0)
    h0, h1 = env.room.hosts
    assert (h0.role, h1.role) == ("qa", "promo") and h0.name != h1.name
    quiet = {"viewer_0": {"kind": SILENT, "text": ""}, "viewer_1": {"kind": SILENT, "text": ""}}
    env.step({"viewer_0": "1号链接的保质期是什么", "viewer_1": "3号链接多少钱"})
    for _ in range(4):  # the merge window closes; the scripted viewers stay quiet meanwhile
        env.step(quiet)
    assert h0.loop is not None and [c.text for c in h0.loop.request.comments] == ["1号链接的保质期是什么"]
    assert h1.loop is not None and [c.text for c in h1.loop.request.comments] == ["3号链接多少钱"]
    assert "副播" in h1.loop.messages[0]["content"] and "副播" not in h0.loop.messages[0]["content"]


def test_custom_router_and_host_specs() -> None:
    assert [s.role for s in host_specs(3)] == ["qa", "promo", "all"]
    with pytest.raises(ValueError):
        HostSpec(role="dj")
    env = live_room.parallel_env(scenario="electronics_en", hosts=2, viewers=20, duration_s=60,
                                 router=lambda c, busy: 1)
    play(env, seed=1)
    s = env.summary()
    assert s["hosts"]["host_0"]["requests"] == 0 and s["hosts"]["host_1"]["requests"] > 0


HELDOUT = {"dims": "all", "strength": 1.0, "family": "heldout"}


def test_hosts_run_under_a_heldout_hsa_variant(tmp_path: Path) -> None:
    """``hsa=`` puts every host under a seeded variant of its harness, as in ``LiveRoom-v0`` (``host_0`` draws the
    very variant ``LiveRoom-v0`` draws with that seed); a HostSpec's own ``hsa`` overrides it (``{}``: none). The
    reference hosts, which read the harness they are given, still answer well under the variant."""
    import gymnasium as gym

    kw = dict(scenario="beauty_zh", viewers=30, duration_s=120)
    env = live_room.parallel_env(**kw, hosts=[{"role": "qa"}, {"role": "promo", "hsa": {}}], hsa=HELDOUT,
                                 trace=tmp_path / "t.jsonl")
    plain_env = live_room.parallel_env(**kw, hosts=2)
    _obs, infos = env.reset(seed=3)
    _obs, plain_infos = plain_env.reset(seed=3)
    single = gym.make("hat_env/LiveRoom-v0", scenario="beauty_zh", duration_s=120, hsa=HELDOUT)
    _obs, single_info = single.reset(seed=3)
    assert infos["host_0"]["harness_hash"] != plain_infos["host_0"]["harness_hash"]
    assert infos["host_0"]["harness_hash"] == single_info["harness_hash"]
    assert infos["host_1"]["harness_hash"] == plain_infos["host_1"]["harness_hash"]  # its own spec: no HSA
    play(env, seed=3)
    recs = read_trace(tmp_path / "t.jsonl")
    start = recs[0]["hosts"]
    assert start[0]["hsa"]["family"] == "heldout" and start[0]["hsa"]["hash"] == infos["host_0"]["harness_hash"]
    assert "hsa" not in start[1]
    reqs = [r for r in recs if r["type"] == "request" and r["host"] == "host_0"]
    assert reqs and {r["harness"]["hash"] for r in reqs} == {infos["host_0"]["harness_hash"]}
    assert sum(r["scores"]["composite"] for r in reqs) / len(reqs) > 90


def test_hsa_rooms_pass_the_pettingzoo_api_tests() -> None:
    parallel_api_test(live_room.parallel_env(**SMALL, hsa=HELDOUT), num_cycles=40)
    api_test(live_room.env(**SMALL, hsa=HELDOUT), num_cycles=40)


def test_host_infos_hold_copies_of_plain_json_values() -> None:
    env = live_room.parallel_env(scenario="beauty_zh", hosts=2, viewers=20, duration_s=90)
    ref = make_agent("reference")
    _obs, infos = env.reset(seed=2)
    seen_busy = False
    while env.agents:
        kept = json.dumps(infos, ensure_ascii=False, sort_keys=True)  # raises on a live object (a Harness)
        _obs, _rew, _term, _trunc, nxt = env.step(host_actions(env, ref))
        assert json.dumps(infos, ensure_ascii=False, sort_keys=True) == kept  # kept infos did not change
        for h in env.hosts:
            info = nxt.get(h, {})
            assert "harness" not in info
            if not info.get("idle", True) and h in env.agents:
                seen_busy = True
                info["messages"].append({"role": "user", "content": "injected"})
                assert env.agent_request(h).messages[-1]["content"] != "injected"
        for a, info in nxt.items():
            if a.startswith("viewer"):
                assert info["persona"] != "changed"  # last step's info was changed below: not this one
                info["persona"] = "changed"
        infos = nxt
    assert seen_busy


def test_rewards_host_score_plus_conversion_and_viewer_satisfaction(tmp_path: Path) -> None:
    env = live_room.parallel_env(scenario="beauty_zh", hosts=2, viewers=60, duration_s=180,
                                 trace=tmp_path / "t.jsonl")
    totals = play(env, seed=3)
    recs = read_trace(tmp_path / "t.jsonl")
    reqs = [r for r in recs if r["type"] == "request"]
    buys = [e for r in recs if r["type"] == "tick" for e in r["events"] if e["type"] == "buy" and e["ok"]]
    assert buys, "viewers bought something"
    for h in ("host_0", "host_1"):
        score = sum(r["scores"]["composite"] for r in reqs if r["host"] == h) / 100
        credit = sum(1.0 if b["credited_to"] == h else 0.5 if b["credited_to"] == "shared" else 0.0 for b in buys)
        assert totals[h] == pytest.approx(score + 0.5 * credit)
    sats = [s for r in reqs for s in r["viewer_satisfaction"].values()]
    assert sats and max(sats) == 1.0 and all(-0.5 <= s <= 1.0 for s in sats)
    assert sum(v for a, v in totals.items() if a.startswith("viewer_")) > 0


# -- agent-driven viewers -------------------------------------------------------------------------------------
class ScriptedViewerAgent:
    """A deterministic plug-in viewer agent: asks about link 3, buys after the first answer, leaves after the
    second."""

    name = "script-viewer"

    def __init__(self) -> None:
        self.requests: list[AgentRequest] = []
        self.answers: dict[str, int] = {}

    def act(self, request: AgentRequest) -> AgentResponse:
        self.requests.append(request)
        key = request.request_id.split(":")[0]
        if request.request_id.endswith(":reply"):
            self.answers[key] = self.answers.get(key, 0) + 1
            return AgentResponse(text="[购买 3]" if self.answers[key] == 1 else "[离开]")
        return AgentResponse(text="3号链接多少钱？")


def _check_who_said_what(trace: Path, agent_viewers: set[str], viewer_agent: str) -> dict[str, Any]:
    recs = read_trace(trace)
    assert recs[0]["type"] == "session_start" and recs[-1]["type"] == "session_end"
    assert [h["agent"] for h in recs[0]["hosts"]] == ["host_0", "host_1"]
    events = [e for r in recs if r["type"] == "tick" for e in r["events"]]
    for e in events:
        assert e["agent"].startswith("viewer_") and e["agent"] == f"viewer_{int(e['viewer_id'][1:]) - 1}", e
    arrivals = {e["agent"]: e for e in events if e["type"] == "arrive"}
    assert {a for a, e in arrivals.items() if e["policy"] == "agent"} == agent_viewers
    assert sum(1 for e in arrivals.values() if e["policy"] == "scripted") >= 100
    calls = [e for e in events if e["type"] == "agent_call"]
    assert calls and {c["agent"] for c in calls} <= agent_viewers
    assert all(c["viewer_agent"] == viewer_agent for c in calls)
    comments = [e for e in events if e["type"] == "comment"]
    assert all(c["source"] == ("llm" if c["agent"] in agent_viewers else "scripted") for c in comments)
    reqs = [r for r in recs if r["type"] == "request"]
    assert {r["host"] for r in reqs} == {"host_0", "host_1"}
    for r in reqs:
        assert r["reply"] and all(c["agent"].startswith("viewer_") for c in r["comments"])
        assert set(r["viewer_satisfaction"]) == {c["agent"] for c in r["comments"]}
    for e in events:
        if e["type"] == "buy" and e["ok"]:
            assert e["credited_to"] in ("host_0", "host_1", "shared")
    return {"events": events, "requests": reqs, "calls": calls, "comments": comments}


def test_two_hosts_100_scripted_and_2_plugin_agent_viewers(tmp_path: Path) -> None:
    agent = ScriptedViewerAgent()
    env = live_room.parallel_env(scenario="beauty_zh", hosts=2, viewers=102, llm_viewers=2, viewer_agent=agent,
                                 duration_s=150, trace=tmp_path / "t.jsonl")
    play(env, seed=5)
    got = _check_who_said_what(tmp_path / "t.jsonl", {"viewer_0", "viewer_1"}, "script-viewer")
    llm_comments = [c for c in got["comments"] if c["source"] == "llm"]
    assert llm_comments and all(c["text"] == "3号链接多少钱？" for c in llm_comments)
    # the agent's comments reached a host and were answered; its reply cue came back with the answer
    answered = [r for r in got["requests"] if any(c["agent"] in ("viewer_0", "viewer_1") for c in r["comments"])]
    assert answered and any(c["cue"] == "reply" for c in got["calls"])
    assert any(e["type"] == "buy" and e.get("source") == "llm" for e in got["events"])
    req = agent.requests[0]
    assert req.tools == [] and req.messages[0]["role"] == "system" and "弹幕" in req.messages[0]["content"]
    assert "你是" in req.messages[-1]["content"]  # the room as the viewer sees it


def test_scenario_sets_the_llm_viewer_mix(tmp_path: Path) -> None:
    """A scenario file sets how many viewers an LLM simulator plays; the agent itself comes from the caller."""
    from hat_env.sim.scenario import load_scenario

    sc = load_scenario("beauty_zh")
    sc = sc.model_copy(update={"viewers": sc.viewers.model_copy(update={"llm_viewers": 3})})
    env = live_room.parallel_env(scenario=sc, hosts=2, viewers=102, viewer_agent=ScriptedViewerAgent(),
                                 duration_s=60, trace=tmp_path / "t.jsonl")
    play(env, seed=2)
    arrivals = [e for r in read_trace(tmp_path / "t.jsonl") if r["type"] == "tick" for e in r["events"]
                if e["type"] == "arrive"]
    assert {e["agent"] for e in arrivals if e["policy"] == "agent"} == {"viewer_0", "viewer_1", "viewer_2"}
    scripted = live_room.parallel_env(scenario=sc, hosts=1, viewers=10, duration_s=30)  # no agent: all scripted
    assert scripted.llm_viewers == 0


def test_openai_agent_viewers_against_vllm_server(vllm_server: Any, tmp_path: Path) -> None:
    """Two hosts, 100 scripted viewers and two viewers played by the ``openai`` adapter against the real local
    vLLM server with the tiny model (tests/conftest.py); the trace shows who said what."""
    agent = make_agent("openai", base_url=vllm_server.base_url, model=vllm_server.name, max_tokens=24,
                       temperature=0.8, timeout=60)
    env = live_room.parallel_env(scenario="beauty_zh", hosts=2, viewers=102, llm_viewers=2, viewer_agent=agent,
                                 duration_s=150, trace=tmp_path / "t.jsonl")
    try:
        play(env, seed=5)
    finally:
        env.close()
        agent.close()
    got = _check_who_said_what(tmp_path / "t.jsonl", {"viewer_0", "viewer_1"}, "openai")
    assert all("error" not in c for c in got["calls"]), got["calls"]
    assert any(c["output"] for c in got["calls"])


def test_parse_viewer_output() -> None:
    assert parse_viewer_output("[BUY 3]") == ViewerAction(BUY, "3")
    assert parse_viewer_output("【购买】") == ViewerAction(BUY, "")
    assert parse_viewer_output("<think>hmm</think>\n[leave]") == ViewerAction(LEAVE)
    assert parse_viewer_output("[沉默]") == ViewerAction(SILENT)
    assert parse_viewer_output("   \n") == ViewerAction(SILENT)
    assert parse_viewer_output("\"how much is link 2?\"\nmore") == ViewerAction(COMMENT, "how much is link 2?")
    assert coerce_action(None).kind == AUTO and coerce_action("hi") == ViewerAction(COMMENT, "hi")
    assert coerce_action({"kind": "leave"}).kind == LEAVE
    with pytest.raises(ValueError):
        coerce_action({"kind": 9})


def test_llm_viewer_as_an_external_policy() -> None:
    env = live_room.parallel_env(**SMALL)
    obs, infos = env.reset(seed=0)
    policy = LLMViewer(lambda req: "[BUY 2]")
    act = policy.policy(obs["viewer_1"], infos["viewer_1"])
    assert env.action_space("viewer_1").contains({"kind": act["kind"], "text": act["text"]}) and act["kind"] == BUY
    with pytest.raises(ValueError):
        live_room.parallel_env(scenario="electronics_en", llm_viewers=2)


# -- determinism and traces -----------------------------------------------------------------------------------
def _random_run(seed: int, trace: Path) -> list[Any]:
    env = live_room.parallel_env(**{**SMALL, "duration_s": 40}, trace=trace)
    obs, _ = env.reset(seed=seed)
    seeded: set[str] = set()
    out: list[Any] = [obs]
    while env.agents:
        for a in env.agents:
            if a not in seeded:
                env.action_space(a).seed(1000 + env.possible_agents.index(a))
                seeded.add(a)
        acts = {a: env.action_space(a).sample() for a in env.agents}
        out.append(env.step(acts)[:4])
    return out


def test_seeded_runs_are_identical_to_the_byte(tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = _random_run(7, tmp_path / "a.jsonl")
        b = _random_run(7, tmp_path / "b.jsonl")
        c = _random_run(8, tmp_path / "c.jsonl")
    assert a == b
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    assert (tmp_path / "a.jsonl").read_bytes() != (tmp_path / "c.jsonl").read_bytes()


def test_missing_viewer_actions_mean_auto(tmp_path: Path) -> None:
    kw = dict(scenario="beauty_zh", hosts=2, viewers=40, duration_s=60)
    play(live_room.parallel_env(**kw, trace=tmp_path / "a.jsonl"), seed=9)
    play(live_room.parallel_env(**kw, trace=tmp_path / "b.jsonl"), seed=9,
         viewer_actions=lambda env, obs: {a: {"kind": 0, "text": ""} for a in env.agents if a.startswith("viewer")})
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()


# -- the ViewerPool API for external viewers ------------------------------------------------------------------
def test_viewer_pool_clocked_api_and_external_viewers() -> None:
    sc = load_scenario("electronics_en")
    sc = sc.model_copy(update={"viewers": sc.viewers.model_copy(update={"initial": 6, "comment_every_s": 5})})
    import random

    room = RoomState(sc, random.Random(0))
    pool = ViewerPool(sc, room, random.Random(1), max_arrivals=8, external=lambda i: i < 2)
    assert [v.external for v in pool.viewers.values()] == [True, True, False, False, False, False]
    comments = pool.advance(30.0)
    assert comments and all(not pool.viewers[c.viewer_id].external for c in comments if c.viewer_id in pool.viewers)
    assert [c.t for c in comments] == sorted(c.t for c in comments)
    due = pool.drain_due()
    assert due and {vid for _, vid, _, _ in due} <= {"v0001", "v0002"}
    assert pool.arrivals <= 8
    vid = next(iter(pool.viewers))
    c = pool.comment_from(vid, "link 2 price?", room.t)
    assert c is not None and c.intents and c.intents[0].kind == "price"
    ev = pool.buy(vid, None, room.t)
    assert ev is not None and ev["link"] == 2
    assert pool.leave(vid, room.t) and vid not in pool.viewers
