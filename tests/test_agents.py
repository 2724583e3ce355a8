"""Model-backed agents against real backends: the tiny offline model, a real vLLM OpenAI-compatible server on
127.0.0.1, vLLM's offline engine and transformers; faults against the real server; plug-ins through the CLI.

The tiny model has random weights: its outputs are garbage, and the tests check the plumbing (sessions finish,
every model call is recorded with timings and token counts, failures are clean errors), not the answers.
The local-engine tests run before the server starts (the two cores are not shared with an idle server); the
last tests kill the shared server, so they sit at the end of the file (the fixture restarts it if needed).
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from conftest import PLUGIN_PKG, need
from fault_server import FakeEndpoint
from hat_env.agents import acall_agent, builtin_agents, call_agent, make_agent
from hat_env.agents.cli_args import agent_kwargs, flag_kwargs, parse_kv
from hat_env.agents.local_server import LocalVLLMServer, free_port, offline_env
from hat_env.cli import _parser, main
from hat_env.envs.session import LiveSession
from hat_env.runner import AgentFailed, run_session
from hat_env.types import AgentRequest, AgentResponse

REPO = Path(__file__).resolve().parent.parent
HI = AgentRequest(messages=[{"role": "user", "content": "3号链接多少钱？"}], tools=[])


def read_trace(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def turns_of(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [t for r in records if r["type"] == "request" for t in r["timings"]]


def openai_agent(srv: LocalVLLMServer, **kw: Any) -> Any:
    need("openai")
    args = dict(base_url=srv.base_url, model=srv.name, max_tokens=24, temperature=0.8, request_seed=0, timeout=60)
    args.update(kw)
    return make_agent("openai", **args)


# -- registry, CLI flags, light import -----------------------------------------------------------------------
def test_builtin_names_and_light_import() -> None:
    assert {"openai", "transformers", "vllm"} <= set(builtin_agents())
    code = ("import sys, hat_env, hat_env.agents, hat_env.cli; from hat_env.agents import make_agent; "
            "make_agent('openai', base_url='http://127.0.0.1:9/v1', model='m'); "
            "heavy = [m for m in ('torch', 'transformers', 'vllm', 'trl') if m in sys.modules]; "
            "assert not heavy, heavy")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_cli_agent_flags() -> None:
    args = _parser().parse_args([
        "run", "--agent", "vllm", "--model", "/m", "--base-url", "http://h/v1", "--api-key-env", "KEY",
        "--max-concurrency", "4", "--timeout", "2.5", "--engine-arg", "tensor_parallel_size=2",
        "--engine-arg", 'speculative_config={"method": "mtp", "num_speculative_tokens": 2}',
        "--engine-arg", "dtype=bfloat16", "--agent-arg", "device=cpu",
    ])
    offered, kw = flag_kwargs(args), agent_kwargs(args)
    assert offered["model"] == "/m" and offered["base_url"] == "http://h/v1" and offered["api_key_env"] == "KEY"
    assert offered["max_concurrency"] == 4 and offered["timeout"] == 2.5 and kw["device"] == "cpu"
    assert kw["engine_args"] == {"tensor_parallel_size": 2, "dtype": "bfloat16",
                                 "speculative_config": {"method": "mtp", "num_speculative_tokens": 2}}
    assert set(kw) == {"engine_args", "device"}
    assert parse_kv("max-model-len=8192") == ("max_model_len", 8192)
    with pytest.raises(Exception):
        parse_kv("novalue")


def test_make_agent_rejects_unknown_arguments_and_lists_the_valid_ones(demo_plugin: str) -> None:
    """A mistyped argument fails instead of doing nothing; what the caller only offers (a run's seed, the shared
    flags) goes to the agents that take it."""
    need("openai")
    with pytest.raises(ValueError, match=r"agent 'openai' takes no argument 'max_retires'; its arguments: .*"
                                         r"\btimeout\b.*\bmax_retries\b"):
        make_agent("openai", base_url="http://127.0.0.1:9/v1", model="m", max_retires=5)
    with pytest.raises(ValueError, match=r"takes no arguments 'sed', 'p_tol'; its arguments: seed, p_tool"):
        make_agent("random", sed=1, p_tol=0.5)
    a = make_agent("openai", offered={"seed": 3, "timeout": 7.0}, base_url="http://127.0.0.1:9/v1", model="m")
    assert a.timeout == 7.0  # seed: not an openai argument, dropped; timeout: taken
    r = make_agent("random", offered={"seed": 1, "timeout": 7.0}, seed=2)  # an explicit argument wins
    assert r.rng.random() == make_agent("random", seed=2).rng.random()
    plugin = make_agent("demo-async", offered={"seed": 1, "timeout": 7.0})  # it takes **kwargs: all passed
    assert plugin.kwargs == {"timeout": 7.0}


def test_cli_agent_arg_typo_fails_with_the_valid_arguments(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "hat_env.cli", "run", "--agent", "random", "--agent-arg", "p_tol=0.5",
                        "--duration", "5", "--quiet", "--trace", "none"], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "agent 'random' takes no argument 'p_tol'; its arguments: seed, p_tool" in r.stdout, r.stdout
    ok = subprocess.run([sys.executable, "-m", "hat_env.cli", "run", "--agent", "random", "--agent-arg", "p_tool=0.2",
                         "--timeout", "3", "--duration", "5", "--quiet", "--trace", "none"],
                        capture_output=True, text=True, cwd=tmp_path)
    assert ok.returncode == 0, ok.stdout + ok.stderr  # --timeout is offered: the random agent ignores it


def test_openai_agent_config_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    need("openai")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("HAT_ENV_MODEL", "from-env")
    monkeypatch.setenv("MY_KEY", "sk-test")
    a = make_agent("openai", api_key_env="MY_KEY")
    assert (a.base_url, a.model, a.api_key) == ("http://127.0.0.1:9/v1", "from-env", "sk-test")
    with pytest.raises(ValueError, match="NOT_SET_ANYWHERE"):
        make_agent("openai", api_key_env="NOT_SET_ANYWHERE")


# -- the tiny model --------------------------------------------------------------------------------------------
def test_tiny_model_shape_template_and_determinism(tiny_model: Path, tmp_path: Path) -> None:
    from transformers import AutoConfig, AutoTokenizer

    cfg = AutoConfig.from_pretrained(tiny_model)
    assert cfg.model_type == "qwen2" and cfg.hidden_size // cfg.num_attention_heads == 64
    assert cfg.max_position_embeddings >= 8192
    tok = AutoTokenizer.from_pretrained(tiny_model)
    assert 512 <= len(tok) <= 1024 and tok.eos_token == "<|im_end|>"
    for t in ("<tool_call>", "</tool_call>", "<|im_start|>", "<think>"):
        assert len(tok.encode(t, add_special_tokens=False)) == 1, t
    # a full harness prompt (tools included) fits the context with room to spare
    s = LiveSession("beauty_zh", seed=0, duration_s=30)
    assert s.next_request()
    from hat_env.agents.chat import render_prompt

    req = s.loop.agent_request()
    prompt = render_prompt(tok, req.messages, req.tools)
    assert "<tools>" in prompt and req.tools[0]["function"]["name"] in prompt
    assert len(tok.encode(prompt, add_special_tokens=False)) < 6000
    # `hat-env make-tiny-model` builds the same files from the same seed
    assert main(["make-tiny-model", str(tmp_path / "again")]) == 0
    for f in ("model.safetensors", "tokenizer.json", "config.json", "chat_template.jinja"):
        assert (tmp_path / "again" / f).read_bytes() == (tiny_model / f).read_bytes(), f


# -- the local-model adapters on the same tiny model -------------------------------------------------------------
VLLM_SCRIPT = """
import json, sys
from hat_env.agents import make_agent
from hat_env.envs.session import LiveSession
from hat_env.runner import run_session
from hat_env.types import AgentRequest

if __name__ == "__main__":
    model, trace = sys.argv[1], sys.argv[2]
    agent = make_agent("vllm", model=model, engine_args={"max_model_len": 8192}, max_tokens=24, temperature=0.8)
    try:
        summary = run_session(LiveSession("healthfood_zh", seed=0, duration_s=20, trace=trace), agent)
        s = LiveSession("healthfood_zh", seed=1, duration_s=60)
        s.next_request()
        batch = agent.act_batch([s.loop.agent_request()] * 3)
    finally:
        agent.close()
    print("RESULT " + json.dumps({"requests": summary["requests"],
                                  "batch": [[r.error, r.completion_tokens, r.prompt_tokens] for r in batch]}))
"""


def test_vllm_offline_engine_session(tiny_model: Path, tmp_path: Path) -> None:
    need("vllm")
    script = tmp_path / "run_vllm_agent.py"
    script.write_text(VLLM_SCRIPT, encoding="utf-8")
    trace = tmp_path / "vllm.jsonl"
    r = subprocess.run([sys.executable, str(script), str(tiny_model), str(trace)], capture_output=True, text=True,
                       env=offline_env(), timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    res = json.loads(next(line for line in r.stdout.splitlines() if line.startswith("RESULT "))[7:])
    assert res["requests"] >= 1
    assert all(err is None and 1 <= n <= 24 and p > 500 for err, n, p in res["batch"])
    turns = turns_of(read_trace(trace))
    assert turns and all("error" not in t and t["ttft_s"] and t["prompt_tokens"] > 500 for t in turns)


def test_transformers_agent_session(tiny_model: Path, tmp_path: Path) -> None:
    need("torch", "transformers")
    agent = make_agent("transformers", model=str(tiny_model), max_new_tokens=6, temperature=0.8, seed=0)
    assert not agent.greedy
    trace = tmp_path / "hf.jsonl"
    summary = run_session(LiveSession("electronics_en", seed=0, duration_s=8, trace=trace), agent)
    turns = turns_of(read_trace(trace))
    assert summary["requests"] >= 1 and turns
    for t in turns:
        assert "error" not in t and t["prompt_tokens"] > 500 and 1 <= t["completion_tokens"] <= 6
        assert 0 < t["ttft_s"] <= t["total_s"]
    greedy = make_agent("transformers", model=str(tiny_model), max_new_tokens=6)
    assert greedy.act(HI).text == greedy.act(HI).text  # greedy decoding is deterministic


# -- the openai adapter against the real vLLM server -----------------------------------------------------------
def test_openai_session_against_vllm_server(vllm_server: LocalVLLMServer, tmp_path: Path) -> None:
    agent = openai_agent(vllm_server)
    trace = tmp_path / "trace.jsonl"
    try:
        summary = run_session(LiveSession("beauty_zh", seed=0, duration_s=40, trace=trace), agent)
    finally:
        agent.close()
    recs = read_trace(trace)
    assert recs[0]["type"] == "session_start" and recs[-1]["type"] == "session_end"
    reqs = [r for r in recs if r["type"] == "request"]
    assert summary["requests"] == len(reqs) >= 2
    turns = turns_of(recs)
    assert len(turns) == sum(r["turns"] for r in reqs) >= len(reqs)
    for t in turns:
        assert "error" not in t, t
        assert t["prompt_tokens"] > 500 and 1 <= t["completion_tokens"] <= 24
        assert 0 < t["ttft_s"] <= t["total_s"] == t["turn_s"]


def test_openai_agent_in_live_room_env(vllm_server: LocalVLLMServer) -> None:
    import gymnasium as gym

    agent = openai_agent(vllm_server)
    env = gym.make("hat_env/LiveRoom-v0", scenario="electronics_en", duration_s=20)
    try:
        obs, info = env.reset(seed=0)
        for _ in range(6):
            resp = agent.act(AgentRequest(messages=info["messages"], tools=info["tools"], locale=info["locale"]))
            assert resp.error is None and resp.timings.ttft_s is not None
            obs, reward, terminated, truncated, info = env.step(resp)
            if terminated:
                break
    finally:
        env.close()
        agent.close()


def test_openai_concurrent_async_calls(vllm_server: LocalVLLMServer) -> None:
    agent = openai_agent(vllm_server, max_concurrency=4)

    async def go() -> list[AgentResponse]:
        try:
            return await asyncio.gather(*(acall_agent(agent, HI) for _ in range(12)))
        finally:
            await agent.aclose()

    out = asyncio.run(go())
    assert all(r.error is None and r.completion_tokens and r.timings.ttft_s for r in out)


def test_structured_tool_call_from_server(vllm_server: LocalVLLMServer) -> None:
    """The server's Hermes parser returns structured calls; the adapter passes them on."""
    tools = [{"type": "function", "function": {"name": "get_price", "description": "price of a link",
                                               "parameters": {"type": "object", "properties": {"link": {"type": "integer"}}}}}]
    forced = '<tool_call>\n{"name": "get_price", "arguments": {"link": 3}}\n</tool_call>'
    # special tokens kept: the forced text holds <tool_call>, which the tiny tokenizer also has as one special
    # token; whether the server emits that token or the characters depends on the tokenizer the corpus trained
    agent = openai_agent(vllm_server, max_tokens=64,
                         extra_body={"structured_outputs": {"choice": [forced]}, "skip_special_tokens": False})
    try:
        r = agent.act(AgentRequest(messages=HI.messages, tools=tools))
    finally:
        agent.close()
    assert r.error is None
    assert [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in r.tool_calls] == [("get_price", {"link": 3})]


def test_invalid_tool_call_from_server_is_fed_back(vllm_server: LocalVLLMServer, tmp_path: Path) -> None:
    """A reply that is not a valid tool call (truncated JSON, forced on the real server) is no adapter error:
    the harness feeds the parse error back to the model, and the session goes on."""
    forced = '<tool_call>\n{"name": "query_product", "arguments": {"link": 3\n</tool_call>'
    # special tokens kept: the forced text holds <tool_call>, which the tiny tokenizer also has as one special
    # token; whether the server emits that token or the characters depends on the tokenizer the corpus trained
    agent = openai_agent(vllm_server, max_tokens=64,
                         extra_body={"structured_outputs": {"choice": [forced]}, "skip_special_tokens": False})
    trace = tmp_path / "bad.jsonl"
    try:
        r = agent.act(HI)
        summary = run_session(LiveSession("beauty_zh", seed=0, duration_s=12, trace=trace), agent)
    finally:
        agent.close()
    assert r.error is None and "<tool_call>" in r.text
    recs = read_trace(trace)
    req = next(x for x in recs if x["type"] == "request")
    feedback = [m["content"] for m in req["messages"] if m["role"] == "user" and m["content"].startswith("[harness]")]
    assert feedback and all("not valid JSON" in f or "could not parse" in f for f in feedback), feedback
    assert req["fallback"] and summary["requests"] >= 1
    assert all("error" not in t for t in turns_of(recs))


def test_text_tool_calls_parsed_when_server_returns_none(vllm_server: LocalVLLMServer) -> None:
    """Without tools sent the server's parser stays off: the adapter parses the Hermes text itself."""
    forced = '<tool_call>\n{"name": "get_price", "arguments": {"link": 3}}\n</tool_call>'
    agent = openai_agent(vllm_server, max_tokens=64, send_tools=False,
                         extra_body={"structured_outputs": {"choice": [forced]}, "skip_special_tokens": False})
    try:
        r = agent.act(HI)
    finally:
        agent.close()
    assert r.error is None and "<tool_call>" in r.text
    assert [c["function"]["name"] for c in r.tool_calls] == ["get_price"]


# -- faults: each gives a clear message, none raises -------------------------------------------------------------
def test_wrong_model_name_lists_served_models(vllm_server: LocalVLLMServer) -> None:
    agent = openai_agent(vllm_server, model="no-such-model")
    try:
        r = agent.act(HI)
    finally:
        agent.close()
    assert r.error == f"model 'no-such-model' is not served by {vllm_server.base_url}; served models: tiny"
    assert r.text == "" and r.timings.total_s > 0


def test_wrong_base_url_hints_at_v1(vllm_server: LocalVLLMServer) -> None:
    agent = openai_agent(vllm_server, base_url=vllm_server.base_url[: -len("/v1")])
    try:
        r = agent.act(HI)
    finally:
        agent.close()
    assert "answered 404" in r.error and "did you mean" in r.error and r.error.count("/v1") >= 1


def test_model_chosen_when_endpoint_serves_one(vllm_server: LocalVLLMServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HAT_ENV_MODEL", raising=False)
    agent = openai_agent(vllm_server, model=None)
    try:
        r = agent.act(HI)
    finally:
        agent.close()
    assert r.error is None and agent.model == "tiny"


def test_refused_connection() -> None:
    need("openai")
    port = free_port()
    agent = make_agent("openai", base_url=f"http://127.0.0.1:{port}/v1", model="m", max_retries=2)
    try:
        t = time.perf_counter()
        r = agent.act(HI)
    finally:
        agent.close()
    assert r.error.startswith(f"cannot connect to http://127.0.0.1:{port}/v1: connection refused")
    assert "(after 3 attempts)" in r.error and time.perf_counter() - t < 15


def test_server_slower_than_timeout() -> None:
    need("openai")
    with FakeEndpoint([("sleep", 30)]) as ep:
        agent = make_agent("openai", base_url=ep.base_url, model="fake-model", timeout=0.5, max_retries=3)
        try:
            t = time.perf_counter()
            r = agent.act(HI)
            took = time.perf_counter() - t
        finally:
            agent.close()
    assert "within the 0.5 s timeout" in r.error and "fake-model" in r.error
    assert took < 15 and ep.requests == 1  # a timeout is not retried (the endpoint would hang 30 s)


@pytest.mark.parametrize("how", ["hang", "cut"])
def test_dead_endpoint_reads_as_refused_however_it_surfaces(how: str) -> None:
    """A server that dies with a request in flight reaches the client as a timeout (it took the request and
    never answered) or as a connection cut before any answer; once it accepts no connection, the error is the
    one a user acts on, whichever way it surfaced: ``cannot connect to URL: connection refused``."""
    need("openai")
    script = [("sleep", 30)] if how == "hang" else [("close",)]
    with FakeEndpoint(script, delay=0.0 if how == "hang" else 1.0) as ep:

        def die() -> None:  # the listener goes away while the request is in the handler
            while ep.requests < 1:
                time.sleep(0.01)
            ep.server.shutdown()
            ep.server.socket.close()

        killer = threading.Thread(target=die)
        killer.start()
        agent = make_agent("openai", base_url=ep.base_url, model="fake-model", timeout=1.0, max_retries=0)
        try:
            r = agent.act(HI)
        finally:
            agent.close()
            killer.join()
    assert r.error.startswith(f"cannot connect to {ep.base_url}: connection refused"), r.error
    assert r.text == "" and ep.requests == 1


def test_generation_slower_than_timeout_on_real_server(vllm_server: LocalVLLMServer) -> None:
    agent = openai_agent(vllm_server, timeout=0.3, max_tokens=1500, extra_body={"ignore_eos": True})
    try:
        r = agent.act(HI)
    finally:
        agent.close()
    assert "within the 0.3 s timeout" in r.error and r.timings.total_s >= 0.3


def test_retries_on_429_and_5xx_with_backoff() -> None:
    need("openai")
    script = [("status", 429, "slow down", {"Retry-After": "0.05"}), ("status", 503, "overloaded", {}), ("ok", "hello")]
    with FakeEndpoint(script) as ep:
        agent = make_agent("openai", base_url=ep.base_url, model="fake-model", max_retries=3)
        try:
            r = agent.act(HI)
        finally:
            agent.close()
    assert r.error is None and r.text == "hello" and ep.requests == 3
    assert (r.prompt_tokens, r.completion_tokens) == (3, 1) and r.timings.ttft_s is not None
    with FakeEndpoint([("status", 500, "boom", {})] * 3) as ep:
        agent = make_agent("openai", base_url=ep.base_url, model="fake-model", max_retries=2)
        try:
            r = agent.act(HI)
        finally:
            agent.close()
    assert r.error == f"server error 500 from {ep.base_url}: boom (after 3 attempts)" and ep.requests == 3
    with FakeEndpoint([("status", 400, "prompt too long", {})]) as ep:
        agent = make_agent("openai", base_url=ep.base_url, model="fake-model", max_retries=2)
        try:
            r = agent.act(HI)
        finally:
            agent.close()
    assert r.error == f"{ep.base_url} rejected the request (400): prompt too long" and ep.requests == 1


def test_connection_lost_mid_answer_is_retried() -> None:
    need("openai")
    with FakeEndpoint([("cut", "half an ans"), ("ok", "whole answer")]) as ep:
        agent = make_agent("openai", base_url=ep.base_url, model="fake-model", max_retries=2)
        try:
            r = agent.act(HI)
        finally:
            agent.close()
    assert r.error is None and r.text == "whole answer" and ep.requests == 2
    with FakeEndpoint([("cut", "half")] * 2) as ep:
        agent = make_agent("openai", base_url=ep.base_url, model="fake-model", max_retries=1)
        try:
            r = agent.act(HI)
        finally:
            agent.close()
    assert r.error.startswith(f"the connection to {ep.base_url} was lost mid-answer after 1 chunks ("), r.error
    assert r.error.endswith("(after 2 attempts)") and r.text == ""


def test_concurrency_limit_is_respected() -> None:
    need("openai")
    with FakeEndpoint(delay=0.1) as ep:
        agent = make_agent("openai", base_url=ep.base_url, model="fake-model", max_concurrency=3)

        async def go() -> list[AgentResponse]:
            try:
                return await asyncio.gather(*(agent.aact(HI) for _ in range(10)))
            finally:
                await agent.aclose()

        out = asyncio.run(go())
    assert all(r.text == "fine" for r in out) and ep.requests == 10 and ep.max_in_flight == 3


def test_non_streaming_mode() -> None:
    need("openai")
    with FakeEndpoint([("ok", "plain")]) as ep:
        agent = make_agent("openai", base_url=ep.base_url, model="fake-model", stream=False)
        try:
            r = agent.act(HI)
        finally:
            agent.close()
    assert r.text == "plain" and r.timings.ttft_s is None and r.completion_tokens == 1


# -- plug-ins ------------------------------------------------------------------------------------------------------
def test_plugins_sync_async_and_function(demo_plugin: str, tmp_path: Path) -> None:
    for name in ("demo-sync", "demo-async", "demo-func"):
        agent = make_agent(name, offered={"seed": 0})  # a bare function takes no seed
        s = LiveSession("beauty_zh", seed=0, duration_s=60)
        summary = run_session(s, agent)
        assert summary["requests"] >= 2 and summary["score"] > 90, (name, summary)

    async def inside_a_loop() -> AgentResponse:  # sync callers inside a running loop work too
        s = LiveSession("beauty_zh", seed=0, duration_s=60)
        s.next_request()
        return call_agent(make_agent("demo-async"), s.loop.agent_request())

    assert asyncio.run(inside_a_loop()).text


def test_plugin_end_to_end_through_cli(demo_plugin: str, tmp_path: Path) -> None:
    out = tmp_path / "summary.json"
    r = subprocess.run([sys.executable, "-m", "hat_env.cli", "run", "--agent", demo_plugin, "--scenario", "beauty_zh",
                        "--duration", "60", "--quiet", "--trace", str(tmp_path / "t.jsonl"), "--summary-json", str(out)],
                       capture_output=True, text=True, cwd=tmp_path, env={**offline_env(), "PYTHONPATH": str(PLUGIN_PKG)})
    assert r.returncode == 0, r.stdout + r.stderr
    summary = json.loads(out.read_text())
    assert summary["requests"] >= 2 and summary["score"] > 90


# -- the CLI against the real server, then faults that kill it (keep these last) -------------------------------
def test_cli_run_openai_against_vllm(vllm_server: LocalVLLMServer, tmp_path: Path) -> None:
    out = tmp_path / "summary.json"
    trace = tmp_path / "cli.jsonl"
    r = subprocess.run([sys.executable, "-m", "hat_env.cli", "run", "--agent", "openai", "--base-url", vllm_server.base_url,
                        "--model", "tiny", "--max-concurrency", "2", "--timeout", "30", "--max-tokens", "16",
                        "--scenario", "electronics_en", "--duration", "15", "--quiet", "--trace", str(trace),
                        "--summary-json", str(out)], capture_output=True, text=True, env=offline_env(), cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(out.read_text())["requests"] >= 1
    turns = turns_of(read_trace(trace))
    assert turns and all(t["completion_tokens"] <= 16 and "error" not in t for t in turns)
    bad = subprocess.run([sys.executable, "-m", "hat_env.cli", "run", "--agent", "openai", "--base-url", vllm_server.base_url,
                          "--model", "nope", "--duration", "5", "--quiet", "--trace", "none"],
                         capture_output=True, text=True, env=offline_env(), cwd=tmp_path)
    assert bad.returncode == 0 and "served models: tiny" in bad.stdout, bad.stdout + bad.stderr


class KillAt:
    """Wraps the openai agent; on call ``k`` it asks for a long answer (4,000 tokens: seconds of work for the
    server) and SIGKILLs the server (API and engine processes) 0.3 s after sending it: a crash while the request
    is being answered. (Whether the first chunks have reached the client by then depends on the machine's load:
    a loaded API process may deliver nothing until late; either way the call must fail cleanly.)"""

    def __init__(self, agent: Any, server: LocalVLLMServer, k: int):
        self.agent, self.server, self.k, self.calls = agent, server, k, 0
        self.name = "kill-at"
        self.killed_during: AgentResponse | None = None

    def act(self, request: AgentRequest) -> AgentResponse:
        self.calls += 1
        if self.calls != self.k:
            return self.agent.act(request)
        saved = (self.agent.max_tokens, self.agent.extra_body)
        self.agent.max_tokens, self.agent.extra_body = 4000, {**saved[1], "ignore_eos": True}
        t0 = time.perf_counter()

        def kill() -> None:
            self.kill_at_s = time.perf_counter() - t0
            self.server.kill()

        timer = threading.Timer(0.3, kill)
        timer.start()
        try:
            self.killed_during = self.agent.act(request)
        finally:
            timer.join()
            self.agent.max_tokens, self.agent.extra_body = saved
        return self.killed_during


def _bench_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines(keepends=True) if path.exists() else []


@pytest.mark.kills_server
def test_server_killed_mid_bench_then_resume(vllm_server: LocalVLLMServer, tmp_path: Path) -> None:
    """``hat-env bench`` against the real server, SIGKILLed once a few cases are written: the bench still
    finishes (every case scored, or recorded with its agent error), and ``--resume`` with the server back runs
    exactly the unfinished cases once, keeping the finished lines byte for byte. The server is restarted at the
    end, so the next test finds it up."""
    out = tmp_path / "bench"
    results = out / "results.jsonl"
    cmd = [sys.executable, "-m", "hat_env.cli", "bench", "--suite", "ifeval-live-v1", "--limit", "10", "--agent", "openai",
           "--base-url", vllm_server.base_url, "--model", "tiny", "--max-tokens", "12", "--timeout", "30",
           "--agent-arg", "max_retries=0", "--out", str(out), "--quiet"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=offline_env(),
                            cwd=tmp_path)
    try:
        deadline = time.monotonic() + 240  # a hang guard only
        while len(_bench_lines(results)) < 3 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        vllm_server.kill()
        stdout, _ = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, stdout
    first = _bench_lines(results)
    recs = [json.loads(line) for line in first]
    ids = [r["case_id"] for r in recs]
    assert len(ids) == 10 and len(set(ids)) == 10, ids  # every case ended: scored or recorded as an error
    errored = [r for r in recs if r.get("errors")]
    assert errored, "the cases after the kill record the agent's error"
    assert all("connection" in r["errors"][0] or "lost mid-answer" in r["errors"][0] for r in errored), errored[0]
    kept = [line for line, r in zip(first, recs) if not r.get("errors")]
    assert kept, "the cases before the kill are scored"

    vllm_server.start(ready_timeout=300)
    again = subprocess.run(cmd + ["--resume"], capture_output=True, text=True, env=offline_env(), cwd=tmp_path)
    assert again.returncode == 0, again.stdout + again.stderr
    final = _bench_lines(results)
    recs2 = [json.loads(line) for line in final]
    assert sorted(r["case_id"] for r in recs2) == sorted(ids), "each case exactly once"
    assert not any(r.get("errors") for r in recs2), [r["errors"] for r in recs2 if r.get("errors")]
    assert final[: len(kept)] == kept, "the finished cases are kept as they were, not run again"
    assert {r["case_id"] for r in recs2[len(kept):]} == {r["case_id"] for r in errored}


@pytest.mark.kills_server
def test_server_killed_during_session(vllm_server: LocalVLLMServer, tmp_path: Path) -> None:
    agent = openai_agent(vllm_server, max_retries=1, timeout=30)
    wrapped = KillAt(agent, vllm_server, k=12)
    trace = tmp_path / "killed.jsonl"
    try:
        summary = run_session(LiveSession("beauty_zh", seed=0, duration_s=60, trace=trace), wrapped,
                              on_error="continue")
        # the same agent, server still dead, with on_error="stop": the first failure stops the session
        trace2 = tmp_path / "stopped.jsonl"
        with pytest.raises(AgentFailed, match="cannot connect to .*: connection refused"):
            run_session(LiveSession("beauty_zh", seed=0, duration_s=60, trace=trace2), agent, on_error="stop")
    finally:
        agent.close()
    assert not vllm_server.alive()
    recs = read_trace(trace)
    reqs = [r for r in recs if r["type"] == "request"]
    assert recs[-1]["type"] == "session_end" and summary["requests"] == len(reqs)
    turns = turns_of(recs)
    failed = [i for i, t in enumerate(turns) if "error" in t]
    assert failed and failed == list(range(failed[0], len(turns))), "every call after the crash fails"
    f = failed[0]
    info = (f, wrapped.kill_at_s, wrapped.killed_during)
    # the call in flight (call 12) fails; only when the server had sent its whole answer before it died (a
    # loaded machine can delay the kill) is the next call the first to fail
    assert f == 11 or (f == 12 and wrapped.killed_during.error is None), info
    assert all(t["ttft_s"] and t["completion_tokens"] for t in turns[:f]), "finished calls are kept whole"
    # the server is down: every call after the crash says so with its URL, however the failure surfaced in the
    # client (refused, reset, cut or timed out: reachability.py asks the port); the crash call names the URL too
    dead = f"cannot connect to {vllm_server.base_url}: connection refused"
    assert all(t["error"].startswith(dead) for t in turns[f + 1:]), [t["error"] for t in turns[f + 1:]]
    assert vllm_server.base_url in turns[f]["error"], info
    assert any(r["timings"][-1].get("error") for r in reqs[1:]), "the session went on after the crash"
    recs2 = read_trace(trace2)
    assert [r["type"] for r in recs2] == ["session_start", "session_end"]
