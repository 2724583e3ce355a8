"""Environment cost per step and per request, the agent's own time excluded.

Runs the reference agent through a 30-minute simulated session of each built-in scenario and times only the
environment side (``LiveSession.next_request`` and ``feed``: rendering, parsing, validation, hooks, tools,
scoring, viewers, tracing to a JSONL file). Target: under 1 ms of environment time per request on one core.

    python benchmarks/env_step.py [--duration 1800] [--scenarios all]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import save  # noqa: E402

from hat_env.agents.reference import ReferenceAgent  # noqa: E402
from hat_env.envs.session import LiveSession  # noqa: E402
from hat_env.sim.scenario import builtin_scenarios  # noqa: E402


def measure(scenario: str, duration: float, seed: int) -> dict[str, float]:
    """Time one session; returns per-step and per-request medians (ms) and requests per second."""
    agent = ReferenceAgent()
    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        s = LiveSession(scenario, seed=seed, duration_s=duration, trace=Path(d) / "t.jsonl")
        setup = time.perf_counter() - t0
        step_ms: list[float] = []
        req_ms: list[float] = []
        env_total = 0.0
        while True:
            t = time.perf_counter()
            more = s.next_request()
            open_cost = time.perf_counter() - t
            if not more:
                break
            req_cost = open_cost
            done = None
            while done is None:
                r = agent.act(s.loop.agent_request())
                t = time.perf_counter()
                done = s.feed(r.text, None, r.timings.total_s)
                dt = time.perf_counter() - t
                step_ms.append(dt * 1e3)
                req_cost += dt
            req_ms.append(req_cost * 1e3)
            env_total += req_cost
        s.finish()
    n = len(req_ms)
    return {
        "requests": n,
        "steps": len(step_ms),
        "setup_ms": round(setup * 1e3, 2),
        "median_step_ms": round(statistics.median(step_ms), 4),
        "median_request_ms": round(statistics.median(req_ms), 4),
        "p95_request_ms": round(sorted(req_ms)[int(0.95 * (n - 1))], 4),
        "env_requests_per_s": round(n / env_total, 1),
        "score": s.summary()["score"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--duration", type=float, default=1800.0, help="simulated session length in seconds (default 1800)")
    ap.add_argument("--scenarios", default="all", help="comma-separated scenario names or 'all'")
    ap.add_argument("--seed", type=int, default=0, help="session seed")
    args = ap.parse_args()
    names = builtin_scenarios() if args.scenarios == "all" else args.scenarios.split(",")
    figures = {}
    print(f"{'scenario':22} {'requests':>8} {'steps':>6} {'step ms':>8} {'request ms':>10} {'p95 ms':>8} {'req/s':>8} {'score':>6}")
    for name in names:
        f = measure(name, args.duration, args.seed)
        figures[name] = f
        print(f"{name:22} {f['requests']:8d} {f['steps']:6d} {f['median_step_ms']:8.3f} {f['median_request_ms']:10.3f} "
              f"{f['p95_request_ms']:8.3f} {f['env_requests_per_s']:8.1f} {f['score']:6.1f}")
    print(f"saved {save('env_step', {'duration_s': args.duration, 'seed': args.seed, 'scenarios': figures})}")


if __name__ == "__main__":
    main()
