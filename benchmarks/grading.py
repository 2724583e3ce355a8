"""Grading cost per reply and evaluation throughput of this working tree against another git revision, side by
side on one machine.

Timings on a shared machine drift from one minute to the next, so the two code versions run in separate
processes taking turns, ``--rounds`` times, and each keeps its best round. ``--rev`` (default: the merge base of
HEAD and ``main``, i.e. the revision before this branch's change) is exported with ``git archive``.

Each probe, on the code under test:

- runs the reference agent on the first ``--cases`` cases of each built-in suite (lsqa-v1, hvqa-v1, robust-v1,
  ifeval-live-v1: the replies and tool calls a bench scores) and then times the scoring of every finished
  request once (``LiveSession.score`` on its outcome: a fresh scoring context, as the request core builds one),
  giving the grading cost per reply (median and p95, microseconds of CPU time: on a shared machine wall time
  counts the scheduler's time slices given to other processes); the first 20 replies warm the process (lazy
  imports, dictionaries) and are not counted;
- times the whole evaluation of those cases (``run_cases`` with the reference agent: session building, agent
  turns, tools, scoring, records), giving the evaluation throughput in cases per second.

    python benchmarks/grading.py [--rev REV] [--rounds 3] [--cases 150]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import TREE_PRELUDE, add_versus_args, merge_base, save, versus_rounds  # noqa: E402


#: Run in a fresh interpreter with the code under test first on ``sys.path``.
_PROBE = TREE_PRELUDE + """
import json, tempfile, time
from hat_env.agents import make_agent
from hat_env.evaluation.runner import build_session, run_cases
from hat_env.evaluation.suites import GENERATORS, load_suite
n = int(sys.argv[2])
cases = [c for sid in GENERATORS for c in load_suite(sid)[:n]]
agent = make_agent("reference")
per = []
for k, case in enumerate(cases):
    s = build_session(case)
    while True:
        resp = agent.act(s.loop.agent_request())
        if s.feed(resp.text, resp.tool_calls or None, resp.timings.total_s) is not None:
            break
    out = s.outcomes[-1][0]
    t = time.process_time()
    s.score(out, s.harness)
    if k >= 20:
        per.append(time.process_time() - t)
per.sort()
with tempfile.TemporaryDirectory() as tmp:
    t = time.perf_counter()
    run_cases(cases, agent, Path(tmp) / "r.jsonl")
    wall = time.perf_counter() - t
print(json.dumps({"median_us": per[len(per) // 2] * 1e6, "p95_us": per[int(0.95 * (len(per) - 1))] * 1e6,
                  "replies": len(per), "cases": len(cases), "cases_per_s": len(cases) / wall}))
"""


def _probe(tree: Path, n: int) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", _PROBE, str(tree), str(n)], check=True, capture_output=True,
                         text=True, cwd=tempfile.gettempdir())
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_versus_args(ap)
    ap.add_argument("--cases", type=int, default=150, help="cases per suite (default 150)")
    args = ap.parse_args()
    rev = args.rev or merge_base()
    runs = versus_rounds(rev, args.rounds, lambda tree: _probe(tree, args.cases),
                         lambda r, label, got: f"round {r}: {label:>12}  grading median {got['median_us']:.0f} us  "
                                               f"p95 {got['p95_us']:.0f} us  eval {got['cases_per_s']:.1f} cases/s")
    best = {k: {"median_us": min(x["median_us"] for x in v), "p95_us": min(x["p95_us"] for x in v),
                "cases_per_s": max(x["cases_per_s"] for x in v), "replies": v[0]["replies"], "cases": v[0]["cases"]}
            for k, v in runs.items()}
    old, new = best["rev"], best["working_tree"]
    figures = {"rev": rev, "best": best, "rounds": runs,
               "ratio_working_over_rev": {"grading_median": round(new["median_us"] / old["median_us"], 3),
                                          "grading_p95": round(new["p95_us"] / old["p95_us"], 3),
                                          "eval_time": round(old["cases_per_s"] / new["cases_per_s"], 3)}}
    print(f"grading per reply: {rev[:10]} median {old['median_us']:.0f} us p95 {old['p95_us']:.0f} us | working tree "
          f"median {new['median_us']:.0f} us p95 {new['p95_us']:.0f} us "
          f"({figures['ratio_working_over_rev']['grading_median']:.2f}x median)")
    print(f"evaluation: {rev[:10]} {old['cases_per_s']:.1f} cases/s | working tree {new['cases_per_s']:.1f} cases/s "
          f"({figures['ratio_working_over_rev']['eval_time']:.2f}x the time)")
    print(f"saved {save('grading', figures)}")


if __name__ == "__main__":
    main()
