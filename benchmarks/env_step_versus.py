"""Environment speed of this working tree against another git revision, side by side in one run.

Timings on a shared machine drift by tens of percent from one minute to the next, so two figures taken minutes
apart do not compare. This script exports ``--rev`` (default ``HEAD``) with ``git archive`` to a temporary folder
and runs the same probe under both code versions in fresh processes, taking turns (``--rounds`` rounds, the order
flipped each round), keeping each version's best round. The probe times what ``benchmarks/env_step.py`` times:

- ``request_ms``: environment CPU time per request of ``LiveSession`` (``next_request`` and ``feed``: rendering,
  parsing, validation, hooks, tools, scoring, viewers, tracing to a JSONL file), the reference agent's own time
  excluded, over a ``--duration``-second session of every built-in scenario;
- ``reset_ms``: building a ``LiveSession`` (scenario loaded, room, viewers, harness, trace file opened);

and, for the drivers users step: ``gym_request_ms`` / ``gym_reset_ms`` (``LiveRoom-v0``: the same plus the
observation and the ``info`` dict) and ``pz_step_ms`` (``LiveRoomParallel-v0`` with 2 hosts and ``--viewers``
viewers, CPU time per ``step``). It also checks that both versions wrote byte-identical traces and summaries.

    python benchmarks/env_step_versus.py --rev 3a29dc7 [--rounds 5] [--duration 600]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import export_tree, save  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

#: Run in a fresh interpreter with the code under test first on ``sys.path``; prints one JSON object.
_PROBE = r"""
import hashlib, json, statistics, sys, tempfile, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
duration, viewers, pz_steps = float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
import gymnasium as gym
import hat_env
assert hat_env.__file__.startswith(sys.argv[1]), hat_env.__file__
from hat_env.agents.reference import ReferenceAgent
from hat_env.envs.session import LiveSession
from hat_env.sim.scenario import builtin_scenarios, load_scenario

cpu = time.process_time
digest = hashlib.sha256()
out = {}
with tempfile.TemporaryDirectory() as d:
    scenarios = [load_scenario(n) for n in builtin_scenarios()]
    # reset: build a session (best of 5 per scenario, summed over scenarios)
    reset = 0.0
    for sc in scenarios:
        best = float("inf")
        for k in range(6):
            t = cpu()
            s = LiveSession(sc, seed=k, duration_s=duration, trace=Path(d) / "r.jsonl")
            dt = cpu() - t
            s.finish()
            if k:
                best = min(best, dt)
        reset += best
    out["reset_ms"] = reset / len(scenarios) * 1e3
    # requests: the env side of whole sessions
    env_s, n, per_req = 0.0, 0, []
    for sc in scenarios:
        agent = ReferenceAgent()
        trace = Path(d) / f"{sc.name}.jsonl"
        s = LiveSession(sc, seed=0, duration_s=duration, trace=trace)
        while True:
            t = cpu()
            more = s.next_request()
            req = cpu() - t
            if not more:
                break
            done = None
            while done is None:
                r = agent.act(s.loop.agent_request())
                t = cpu()
                done = s.feed(r.text, None, r.timings.total_s)
                req += cpu() - t
            env_s += req
            per_req.append(req)
            n += 1
        digest.update(trace.read_bytes())
        digest.update(json.dumps(s.summary(), sort_keys=True).encode())
    out["request_ms"] = env_s / n * 1e3
    out["median_request_ms"] = statistics.median(per_req) * 1e3
    out["requests"] = n
    # LiveRoom-v0: reset and step, observation and info included
    g_reset, g_env, g_n = 0.0, 0.0, 0
    for sc in scenarios:
        env = gym.make("hat_env/LiveRoom-v0", scenario=sc, duration_s=duration)
        agent = ReferenceAgent()
        t = cpu()
        obs, info = env.reset(seed=1)
        g_reset += cpu() - t
        done = False
        while not done:
            a = agent.act(env.unwrapped.agent_request()).text
            t = cpu()
            obs, r, done, _tr, info = env.step(a)
            g_env += cpu() - t
            if info.get("request_done"):
                g_n += 1
            digest.update(repr(r).encode())
        env.close()
    out["gym_reset_ms"] = g_reset / len(scenarios) * 1e3
    out["gym_request_ms"] = g_env / g_n * 1e3
    # LiveRoomParallel-v0: 2 hosts, many scripted viewers
    from hat_env.envs.live_room_parallel import parallel_env
    env = parallel_env(scenario="beauty_zh", hosts=2, viewers=viewers, max_viewers=viewers * 2,
                       duration_s=pz_steps + 10, trace=Path(d) / "pz.jsonl")
    ref = ReferenceAgent()
    env.reset(seed=1)
    pz = 0.0
    for _ in range(pz_steps):
        acts = {}
        for h in env.hosts:
            q = env.agent_request(h)
            if q is not None:
                acts[h] = ref.act(q).text
        t = cpu()
        env.step(acts)
        pz += cpu() - t
    env.close()
    digest.update((Path(d) / "pz.jsonl").read_bytes())
    out["pz_step_ms"] = pz / pz_steps * 1e3
out["digest"] = digest.hexdigest()
print(json.dumps(out))
"""

#: The figures compared (lower is better); the rest of a probe's output is checked for equality.
TIMED = ("request_ms", "median_request_ms", "reset_ms", "gym_request_ms", "gym_reset_ms", "pz_step_ms")


def _probe(tree: Path, args: argparse.Namespace) -> dict[str, float | str]:
    """The probe's figures for the code in ``tree`` (pure Python in both: ``HAT_ENV_PURE=1``)."""
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, str(tree), str(args.duration), str(args.viewers), str(args.pz_steps)],
        check=True, capture_output=True, text=True, cwd=tempfile.gettempdir(),
        env={**os.environ, "HAT_ENV_PURE": "1", "PYTHONHASHSEED": "0"})
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rev", default="HEAD", help="git revision to compare this working tree with (default HEAD)")
    ap.add_argument("--rounds", type=int, default=5, help="rounds, each running both versions once (default 5)")
    ap.add_argument("--duration", type=float, default=600.0, help="session length per scenario, s (default 600)")
    ap.add_argument("--viewers", type=int, default=100, help="viewers in the PettingZoo room (default 100)")
    ap.add_argument("--pz-steps", type=int, default=300, help="PettingZoo steps timed (default 300)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        export_tree(args.rev, Path(tmp), installed_layout=True)
        trees = {"rev": Path(tmp) / "tree", "working tree": ROOT}
        best: dict[str, dict[str, float]] = {k: {} for k in trees}
        seen: dict[str, dict[str, object]] = {}
        for r in range(args.rounds):
            order = list(trees) if r % 2 == 0 else list(reversed(trees))
            for label in order:
                got = _probe(trees[label], args)
                seen[label] = {k: v for k, v in got.items() if k not in TIMED}
                for k in TIMED:
                    best[label][k] = min(best[label].get(k, float("inf")), float(got[k]))
                print(f"round {r + 1}: {label:>12} " + "  ".join(f"{k} {float(got[k]):.3f}" for k in TIMED),
                      flush=True)
    old, new = best["rev"], best["working tree"]
    same = seen["rev"] == seen["working tree"]
    ratios = {k: round(new[k] / old[k], 3) for k in TIMED}
    for k in TIMED:
        print(f"{k:18} {args.rev}: {old[k]:8.3f}  working tree: {new[k]:8.3f}  ratio (working tree / rev) "
              f"{ratios[k]:.3f}")
    print(f"same traces, summaries and requests in both versions: {same} ({seen['working tree']})")
    figures = {"rev": args.rev, "rounds": args.rounds, "duration_s": args.duration, "pz_viewers": args.viewers,
               "pz_steps": args.pz_steps, "best_ms": {"rev": old, "working_tree": new},
               "ratio_working_tree_over_rev": ratios, "identical_behaviour": same, "probe": seen["working tree"]}
    print(f"saved {save('env_step_versus', figures)}")


if __name__ == "__main__":
    main()
