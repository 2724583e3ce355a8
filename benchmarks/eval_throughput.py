"""The whole evaluation (every suite, 4,502 cases, the reference agent, one process) of this working tree against
another git revision, side by side in one run.

Timings on a shared machine drift by tens of percent from one minute to the next, so two figures taken minutes
apart do not compare. This script exports ``--rev`` with ``git archive`` (laid out as the installed package is:
``agents/``, ``train/`` and ``scenarios/`` inside ``hat_env/``) and runs the same probe under both code versions in
fresh processes, taking turns (``--rounds`` rounds, the order flipped each round), keeping each version's best
round. The probe loads every suite (``generate_s``) and runs every case with the reference agent into a results
file (``run_s``), in process CPU seconds. The working tree loads its suites twice: without the suite cache
(``HAT_ENV_CACHE=off``: ``generate_cold_s``) and from a warm cache in a temporary folder (``generate_s``). It also
checks that both versions score every case the same (a digest of each case's composite, components, reply, tool
calls and latency).

    python benchmarks/eval_throughput.py --rev a92c8fd [--rounds 3]
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
import hashlib, json, sys, tempfile, time
from pathlib import Path
tree, cold = sys.argv[1], sys.argv[2] == "cold"
if tree != "-":
    sys.path.insert(0, tree)
import hat_env
assert tree == "-" or hat_env.__file__.startswith(tree), hat_env.__file__
from hat_env.agents import make_agent
from hat_env.evaluation.runner import run_cases
from hat_env.evaluation.suites import GENERATORS, load_suite
cpu = time.process_time
out = {"suites": {}}
t, w = cpu(), time.perf_counter()
suites = {sid: load_suite(sid) for sid in GENERATORS}
out["generate_s"], out["generate_wall_s"] = cpu() - t, time.perf_counter() - w
if not cold:
    agent = make_agent("reference")
    digest = hashlib.sha256()
    run = wall = 0.0
    with tempfile.TemporaryDirectory() as d:
        for sid, cases in suites.items():
            t, w = cpu(), time.perf_counter()
            recs = run_cases(cases, agent, Path(d) / f"{sid}.jsonl")
            dt, dw = cpu() - t, time.perf_counter() - w
            run, wall = run + dt, wall + dw
            out["suites"][sid] = {"cases": len(cases), "run_s": dt}
            for r in sorted(recs, key=lambda r: (r["case_id"], r["trial"])):
                keep = {k: r[k] for k in ("case_id", "trial", "composite", "components", "reply", "calls", "latency_s")}
                digest.update(json.dumps(keep, sort_keys=True, ensure_ascii=False).encode())
    out.update(run_s=run, run_wall_s=wall, cases=sum(len(c) for c in suites.values()), digest=digest.hexdigest())
print(json.dumps(out))
"""


def _probe(tree: str, mode: str, env: dict[str, str]) -> dict[str, object]:
    out = subprocess.run([sys.executable, "-c", _PROBE, tree, mode], check=True, capture_output=True, text=True,
                         cwd=tempfile.gettempdir(), env={**os.environ, "PYTHONHASHSEED": "0", **env})
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rev", required=True, help="git revision to compare this working tree with")
    ap.add_argument("--rounds", type=int, default=3, help="rounds, each running both versions once (default 3)")
    args = ap.parse_args()
    timed = ("generate_s", "run_s")
    with tempfile.TemporaryDirectory() as tmp:
        tree = str(export_tree(args.rev, Path(tmp), installed_layout=True))
        cache = {"HAT_ENV_CACHE": str(Path(tmp) / "cache")}
        _probe("-", "cold", cache)  # fills the working tree's cache once
        best: dict[str, dict[str, float]] = {"rev": {}, "working tree": {}}
        digests: dict[str, str] = {}
        cold = float("inf")
        for r in range(args.rounds):
            order = ["rev", "working tree"] if r % 2 == 0 else ["working tree", "rev"]
            for label in order:
                got = _probe(tree, "warm", {}) if label == "rev" else _probe("-", "warm", cache)
                digests[label] = str(got["digest"])
                for k in timed:
                    best[label][k] = min(best[label].get(k, float("inf")), float(got[k]))  # type: ignore[arg-type]
                print(f"round {r + 1}: {label:>12} generate {got['generate_s']:.2f} s  run {got['run_s']:.2f} s  "
                      f"({got['cases']} cases)", flush=True)
            cold = min(cold, float(_probe("-", "cold", {"HAT_ENV_CACHE": "off"})["generate_s"]))  # type: ignore[arg-type]
    old, new = best["rev"], best["working tree"]
    new["generate_cold_s"] = cold
    tot_old = old["generate_s"] + old["run_s"]
    tot_new, tot_cold = new["generate_s"] + new["run_s"], cold + new["run_s"]
    figures = {
        "rev": args.rev, "rounds": args.rounds, "cases": 4502, "cpu_s": {"rev": old, "working_tree": new},
        "total_s": {"rev": round(tot_old, 2), "working_tree_warm_cache": round(tot_new, 2),
                    "working_tree_no_cache": round(tot_cold, 2)},
        "speedup": {"total_warm_cache": round(tot_old / tot_new, 2), "total_no_cache": round(tot_old / tot_cold, 2),
                    "run": round(old["run_s"] / new["run_s"], 2), "generate_warm": round(old["generate_s"] / new["generate_s"], 1),
                    "generate_no_cache": round(old["generate_s"] / cold, 2)},
        "same_scores": digests["rev"] == digests["working tree"],
    }
    print(f"{'':22}{args.rev:>12} {'working tree':>14}")
    print(f"{'generate (cache) s':22}{old['generate_s']:12.2f} {new['generate_s']:14.2f}")
    print(f"{'generate (no cache) s':22}{old['generate_s']:12.2f} {cold:14.2f}")
    print(f"{'run s':22}{old['run_s']:12.2f} {new['run_s']:14.2f}")
    print(f"{'total s':22}{tot_old:12.2f} {tot_new:14.2f}  speed-up {tot_old / tot_new:.2f}x "
          f"(no suite cache: {tot_old / tot_cold:.2f}x; running alone {old['run_s'] / new['run_s']:.2f}x)")
    print(f"same scores for every case in both versions: {figures['same_scores']}")
    print(f"saved {save('eval_throughput', figures)}")


if __name__ == "__main__":
    main()
