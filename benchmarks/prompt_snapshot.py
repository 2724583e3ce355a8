"""What the model reads and the reference says in the built-in scenarios, to diff two revisions: the rendered system
prompts, every request's user message, the tool results (skill texts included) and the replies.

Usage:
    python benchmarks/prompt_snapshot.py OUT.json [--seeds 0,1,2] [--scenarios a,b]
    python benchmarks/prompt_snapshot.py --diff BEFORE.json AFTER.json [--show 3]

Run the first form with each revision's own interpreter (``cd /work/main && .venv/bin/python
/path/to/prompt_snapshot.py before.json``), then diff. Conditions: the scenario's harness, the held-out HSA
variant and the train HSA variant, each driven by the reference agent. The diff prints, per scenario and
condition, the system prompts that differ (a unified diff of the first pair) and how many user messages, tool
results and replies differ, with the first few of each.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import sys
from typing import Any

CONDITIONS: dict[str, dict[str, Any] | None] = {
    "default": None,
    "heldout": {"dims": "all", "family": "heldout"},
    "train": {"dims": "all", "family": "train"},
}


def snapshot(scenario: str, seed: int, hsa: dict[str, Any] | None) -> dict[str, Any]:
    """The system prompts (by hash) and the per-request user message, tool results and reply of one session."""
    from hat_env.agents import make_agent
    from hat_env.agents.base import call_agent
    from hat_env.envs.session import LiveSession

    s = LiveSession(scenario, seed=seed, hsa=hsa)
    agent = make_agent("reference")
    systems: dict[str, str] = {}
    requests: list[dict[str, Any]] = []
    while s.next_request():
        loop = s.loop
        assert loop is not None
        scores = None
        msgs: list[dict[str, Any]] = []
        while scores is None:
            req = loop.agent_request()
            msgs = req.messages
            scores = s.feed(call_agent(agent, req))
        sys_text = str(msgs[0].get("content", "")) if msgs and msgs[0]["role"] == "system" else ""
        h = hashlib.sha256(sys_text.encode()).hexdigest()[:12]
        systems.setdefault(h, sys_text)
        users = [str(m.get("content", "")) for m in msgs if m["role"] == "user"]
        out = loop.outcome
        requests.append({
            "system": h,
            "user": users[-1] if users else "",
            "tools": [str(m.get("content", "")) for m in loop.turn_messages() if m["role"] == "tool"],
            "reply": out.reply if out is not None else "",
        })
    s.finish()
    return {"systems": systems, "requests": requests}


def record(path: str, seeds: list[int], scenarios: list[str]) -> None:
    """Write the snapshot of every scenario, seed and condition to ``path``."""
    from hat_env.sim.scenario import builtin_scenarios

    out: dict[str, Any] = {}
    for sc in scenarios or builtin_scenarios():
        for seed in seeds:
            for cond, hsa in CONDITIONS.items():
                out[f"{sc}/{seed}/{cond}"] = snapshot(sc, seed, hsa)
                print(sc, seed, cond, len(out[f"{sc}/{seed}/{cond}"]["requests"]), "requests", flush=True)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(out, fh, ensure_ascii=False)


def diff(a_path: str, b_path: str, show: int) -> int:
    """Print what differs between two snapshots; returns the number of keys that differ."""
    a = json.load(open(a_path, encoding="utf-8"))
    b = json.load(open(b_path, encoding="utf-8"))
    bad = 0
    for key in sorted(set(a) | set(b)):
        if key not in a or key not in b:
            print(f"== {key}: only in {'after' if key in b else 'before'}")
            bad += 1
            continue
        x, y = a[key], b[key]
        lines = []
        sx, sy = list(x["systems"].values()), list(y["systems"].values())
        if sorted(sx) != sorted(sy):
            lines.append(f"system prompts: {len(set(sx) - set(sy))} before-only, {len(set(sy) - set(sx))} after-only")
            only_a = [t for t in sx if t not in sy]
            only_b = [t for t in sy if t not in sx]
            if only_a and only_b:
                d = difflib.unified_diff(only_a[0].splitlines(), only_b[0].splitlines(), "before", "after", n=0,
                                         lineterm="")
                lines += ["    " + ln for ln in list(d)[2:40]]
        rx, ry = x["requests"], y["requests"]
        if len(rx) != len(ry):
            lines.append(f"requests: {len(rx)} before, {len(ry)} after")
        for field in ("user", "tools", "reply"):
            diffs = [(i, p[field], q[field]) for i, (p, q) in enumerate(zip(rx, ry)) if p[field] != q[field]]
            if diffs:
                lines.append(f"{field}: {len(diffs)} of {min(len(rx), len(ry))} requests differ")
                for i, p, q in diffs[:show]:
                    lines.append(f"    r{i + 1} before: {json.dumps(p, ensure_ascii=False)[:300]}")
                    lines.append(f"    r{i + 1} after:  {json.dumps(q, ensure_ascii=False)[:300]}")
        if lines:
            bad += 1
            print(f"== {key}")
            print("\n".join("  " + ln for ln in lines))
    print(f"{len(set(a) | set(b))} sessions, {bad} differ")
    return bad


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", nargs="?")
    ap.add_argument("--diff", nargs=2, metavar=("BEFORE", "AFTER"))
    ap.add_argument("--seeds", default="0,1,2")
    ap.add_argument("--scenarios", default="")
    ap.add_argument("--show", type=int, default=3)
    a = ap.parse_args()
    if a.diff:
        sys.exit(1 if diff(a.diff[0], a.diff[1], a.show) else 0)
    if not a.out:
        ap.error("give OUT.json or --diff BEFORE AFTER")
    record(a.out, [int(s) for s in a.seeds.split(",")], [s for s in a.scenarios.split(",") if s])


if __name__ == "__main__":
    main()
