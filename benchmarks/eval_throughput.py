"""Throughput of the whole evaluation (every suite, 4,500+ cases) with the reference agent on one core.

Target: under 60 s in total, so scoring is never the bottleneck. Prints cases per second per suite and in all.

    python benchmarks/eval_throughput.py [--suites all]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import save  # noqa: E402

from hat_env.agents import make_agent  # noqa: E402
from hat_env.evaluation.metrics import summarize  # noqa: E402
from hat_env.evaluation.runner import run_cases  # noqa: E402
from hat_env.evaluation.suites import GENERATORS, load_suite  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--suites", default="all", help="comma-separated suite ids or 'all'")
    args = ap.parse_args()
    ids = list(GENERATORS) if args.suites == "all" else args.suites.split(",")
    agent = make_agent("reference")
    figures: dict[str, dict[str, float]] = {}
    total_cases, total_s, gen_total = 0, 0.0, 0.0
    print(f"{'suite':16} {'cases':>6} {'generate s':>10} {'run s':>7} {'cases/s':>8} {'avg':>6}")
    with tempfile.TemporaryDirectory() as d:
        for sid in ids:
            t0 = time.perf_counter()
            cases = load_suite(sid)
            gen = time.perf_counter() - t0
            t0 = time.perf_counter()
            recs = run_cases(cases, agent, Path(d) / f"{sid}.jsonl")
            run = time.perf_counter() - t0
            s = summarize(recs)["suites"][sid]
            figures[sid] = {"cases": len(cases), "generate_s": round(gen, 2), "run_s": round(run, 2),
                            "cases_per_s": round(len(cases) / run, 1), "avg": s["avg"]}
            total_cases += len(cases)
            total_s += run
            gen_total += gen
            print(f"{sid:16} {len(cases):6d} {gen:10.2f} {run:7.2f} {len(cases) / run:8.1f} {s['avg']:6.2f}")
    figures["all"] = {"cases": total_cases, "generate_s": round(gen_total, 2), "run_s": round(total_s, 2),
                      "cases_per_s": round(total_cases / total_s, 1)}
    print(f"{'all':16} {total_cases:6d} {gen_total:10.2f} {total_s:7.2f} {total_cases / total_s:8.1f}")
    print(f"saved {save('eval_throughput', figures)}")


if __name__ == "__main__":
    main()
