"""Steps per second of the multi-agent live room (``hat_env/LiveRoomParallel-v0``) with 10, 100 and 1,000 viewers.

Every viewer is a PettingZoo agent driven by its scripted persona; each step passes a full PettingZoo action
dict (``auto`` for every viewer, the reference agent's output for each busy host) and gets back observations,
rewards, terminations, truncations and infos for every live agent. Only ``env.step`` is timed (the reference
agent's own time is excluded), as in ``env_step.py``. Arrivals replace departures so the audience stays near N.

Reported per N: environment steps per second, mean and median step time, mean live viewers, the cost per viewer
per step (step time / live viewers), the same in process CPU time (steadier than wall time on a loaded machine),
the marginal cost per added viewer between sizes, and a least-squares fit ``step time = a + b * viewers`` over all
runs: ``b`` is the marginal cost per viewer per step. A flat marginal cost means linear total cost.

    python benchmarks/parallel_env.py [--steps 300] [--viewers 10,100,1000] [--hosts 2] [--scenario beauty_zh]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import save  # noqa: E402

from hat_env.agents.reference import ReferenceAgent  # noqa: E402
from hat_env.envs.live_room_parallel import parallel_env  # noqa: E402
from hat_env.sim.scenario import load_scenario  # noqa: E402

AUTO = {"kind": 0, "text": ""}


def measure(n: int, steps: int, hosts: int, scenario: str, seed: int) -> dict[str, float]:
    """Run ``steps`` steps with ``n`` viewers; returns step timings and per-viewer costs."""
    sc = load_scenario(scenario)
    stay = sc.viewers.mean_stay_s
    env = parallel_env(
        scenario=scenario,
        hosts=hosts,
        viewers=n,
        max_viewers=n * 4,
        arrival_per_min=60.0 * n / stay,
        duration_s=steps + 10.0,
    )
    agent = ReferenceAgent()
    env.reset(seed=seed)
    step_s: list[float] = []
    cpu_s = 0.0
    viewers: list[int] = []
    for _ in range(steps):
        actions = {a: AUTO for a in env.agents}
        for h in env.hosts:
            req = env.agent_request(h)
            if req is not None:
                actions[h] = agent.act(req).text
        live = len(env.agents) - hosts
        c = time.process_time()
        t = time.perf_counter()
        env.step(actions)
        step_s.append(time.perf_counter() - t)
        cpu_s += time.process_time() - c
        viewers.append(live)
        if not env.agents:
            break
    summ = env.summary()
    env.close()
    total = sum(step_s)
    mean_v = statistics.fmean(viewers)
    return {
        "viewers": n,
        "steps": len(step_s),
        "mean_live_viewers": round(mean_v, 1),
        "steps_per_s": round(len(step_s) / total, 1),
        "mean_step_ms": round(1e3 * total / len(step_s), 4),
        "median_step_ms": round(1e3 * statistics.median(step_s), 4),
        "us_per_viewer_step": round(1e6 * total / max(1.0, sum(viewers)), 3),
        "cpu_step_ms": round(1e3 * cpu_s / len(step_s), 4),
        "cpu_us_per_viewer_step": round(1e6 * cpu_s / max(1.0, sum(viewers)), 3),
        "requests": summ["requests"],
        "purchases": summ["purchases"],
    }


def fit(rows: list[dict[str, float]], key: str = "mean_step_ms") -> tuple[float, float]:
    """Least squares ``rows[key] = a + b * mean_live_viewers``; returns ``(a ms, b us)``."""
    xs = [r["mean_live_viewers"] for r in rows]
    ys = [r[key] for r in rows]
    if len(xs) < 2:
        return ys[0], 0.0
    b, a = statistics.linear_regression(xs, ys)
    return a, b * 1e3


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=300, help="steps per run (1 room second each; default 300)")
    ap.add_argument("--viewers", default="10,100,1000", help="comma-separated audience sizes")
    ap.add_argument("--hosts", type=int, default=2, help="hosts (default 2)")
    ap.add_argument("--scenario", default="beauty_zh", help="scenario (default beauty_zh)")
    ap.add_argument("--seed", type=int, default=0, help="seed")
    args = ap.parse_args()
    sizes = [int(x) for x in args.viewers.split(",")]
    rows = []
    print(f"{'viewers':>8} {'live':>7} {'steps/s':>9} {'step ms':>9} {'median ms':>10} {'us/viewer/step':>15} "
          f"{'cpu ms':>8} {'cpu us/viewer/step':>19} {'requests':>9}")
    for n in sizes:
        r = measure(n, args.steps, args.hosts, args.scenario, args.seed)
        rows.append(r)
        print(f"{n:8d} {r['mean_live_viewers']:7.1f} {r['steps_per_s']:9.1f} {r['mean_step_ms']:9.3f} "
              f"{r['median_step_ms']:10.3f} {r['us_per_viewer_step']:15.3f} {r['cpu_step_ms']:8.3f} "
              f"{r['cpu_us_per_viewer_step']:19.3f} {r['requests']:9d}")
    marginal = []
    for r0, r1 in zip(rows, rows[1:]):
        dv = r1["mean_live_viewers"] - r0["mean_live_viewers"]
        if dv > 0:
            m = 1e3 * (r1["mean_step_ms"] - r0["mean_step_ms"]) / dv
            mc = 1e3 * (r1["cpu_step_ms"] - r0["cpu_step_ms"]) / dv
            marginal.append({"from": r0["viewers"], "to": r1["viewers"], "us_per_viewer": round(m, 3),
                             "cpu_us_per_viewer": round(mc, 3)})
            print(f"marginal cost {r0['viewers']} -> {r1['viewers']} viewers: {m:.3f} us wall, {mc:.3f} us CPU "
                  "per added viewer per step")
    a, b = fit(rows)
    ca, cb = fit(rows, "cpu_step_ms")
    print(f"fit: step time = {a:.3f} ms + {b:.3f} us x live viewers (wall); {ca:.3f} ms + {cb:.3f} us x live "
          "viewers (CPU)")
    path = save("parallel_env", {"steps": args.steps, "hosts": args.hosts, "scenario": args.scenario,
                                 "seed": args.seed, "runs": rows, "marginal": marginal,
                                 "fit": {"fixed_ms": round(a, 4), "us_per_viewer": round(b, 4),
                                         "cpu_fixed_ms": round(ca, 4), "cpu_us_per_viewer": round(cb, 4)}})
    print(f"saved {path}")


if __name__ == "__main__":
    main()
