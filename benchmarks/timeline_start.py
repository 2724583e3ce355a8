"""What the checks at start cost, this working tree against another git revision, side by side on one machine;
and how fast ``hat-env import-log`` reads a log.

The checks this branch adds run when a session is built (every harness-timeline patch tried on the harness, the
room events worked out) and when ``hat-env run`` starts (``check_scenario``). Each probe, on the code under test,
in a fresh interpreter, in CPU time (wall time on a shared machine counts other processes' time slices):

- ``build_session`` of the first ``--cases`` cases of lsqa-v1 (every built-in scenario; apparel_flash_zh has a
  harness timeline): microseconds per case (median; the first 20 warm the process and are not counted);
- ``LiveSession("apparel_flash_zh")`` built ``--sessions`` times: microseconds per session (median).

The two versions take turns ``--rounds`` times and each keeps its best round. ``--rev`` (default: the merge base of
HEAD and ``main``) is exported with ``git archive``. Then, on this tree only: ``read_log`` + cases of a generated
20,000-comment CSV (comments per second, CPU time).

    python benchmarks/timeline_start.py [--rev REV] [--rounds 3] [--cases 300] [--sessions 40]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import TREE_PRELUDE, add_versus_args, merge_base, save, versus_rounds  # noqa: E402


_PROBE = TREE_PRELUDE + """
import json, time
from hat_env.envs.session import LiveSession
from hat_env.evaluation.runner import build_session
from hat_env.evaluation.suites import load_suite
n, m = int(sys.argv[2]), int(sys.argv[3])
per = []
for k, case in enumerate(load_suite("lsqa-v1")[:n]):
    t = time.process_time()
    build_session(case)
    if k >= 20:
        per.append(time.process_time() - t)
ses = []
for k in range(m + 2):
    t = time.process_time()
    LiveSession("apparel_flash_zh", seed=k)
    if k >= 2:
        ses.append(time.process_time() - t)
per.sort(); ses.sort()
print(json.dumps({"build_session_us": per[len(per) // 2] * 1e6, "live_session_us": ses[len(ses) // 2] * 1e6,
                  "cases": len(per), "sessions": len(ses)}))
"""


def _probe(tree: Path, n: int, m: int) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", _PROBE, str(tree), str(n), str(m)], check=True, capture_output=True,
                         text=True, cwd=tempfile.gettempdir())
    return json.loads(out.stdout.strip().splitlines()[-1])


def _import_rate(n: int = 20_000) -> dict[str, float]:
    """Comments per CPU second of reading a generated CSV log, and of making its cases (this tree)."""
    from hat_env.importlog.build import cases_from, scenario_data
    from hat_env.importlog.read import read_log
    from hat_env.sim.scenario import Scenario, load_scenario
    from hat_env.yamlio import load_yaml, validate

    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "log.csv"
        texts = ["how much is link 2?", "is link 3 in stock?", "hello everyone", "link 1 battery?", "shipping to NY?"]
        log.write_text("t,user,text\n" + "".join(f"{i * 0.7:.1f},user{i % 900},{texts[i % 5]}\n" for i in range(n)),
                       encoding="utf-8")
        t = time.process_time()
        rows = read_log(log).rows
        read_s = time.process_time() - t
        base = load_scenario("electronics_en")
        data, _ = scenario_data(load_yaml(base.source)[0], rows)
        sc = validate(Scenario, data, "<bench>", {})
        sc.source = base.source
        t = time.process_time()
        cases = cases_from(sc, "electronics_en", "bench")
        cases_s = time.process_time() - t
    return {"comments": n, "read_per_s": round(n / read_s), "cases": len(cases), "cases_comments_per_s": round(n / cases_s)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_versus_args(ap)
    ap.add_argument("--cases", type=int, default=300, help="lsqa-v1 cases built per probe (default 300)")
    ap.add_argument("--sessions", type=int, default=40, help="apparel_flash_zh sessions built per probe (default 40)")
    args = ap.parse_args()
    rev = args.rev or merge_base()
    runs = versus_rounds(rev, args.rounds, lambda tree: _probe(tree, args.cases, args.sessions),
                         lambda r, label, got: f"round {r}: {label:>12}  build_session "
                                               f"{got['build_session_us']:.0f} us/case  "
                                               f"LiveSession {got['live_session_us']:.0f} us")
    best = {k: {"build_session_us": min(x["build_session_us"] for x in v),
                "live_session_us": min(x["live_session_us"] for x in v)} for k, v in runs.items()}
    old, new = best["rev"], best["working_tree"]
    ratio = {"build_session": round(new["build_session_us"] / old["build_session_us"], 3),
             "live_session": round(new["live_session_us"] / old["live_session_us"], 3)}
    imp = _import_rate()
    figures = {"rev": rev, "best": best, "rounds": runs, "ratio_working_over_rev": ratio, "import_log": imp}
    print(f"build_session: {rev[:10]} {old['build_session_us']:.0f} us | working tree {new['build_session_us']:.0f} us "
          f"({ratio['build_session']:.2f}x)")
    print(f"LiveSession(apparel_flash_zh): {rev[:10]} {old['live_session_us']:.0f} us | working tree "
          f"{new['live_session_us']:.0f} us ({ratio['live_session']:.2f}x)")
    print(f"import-log: {imp['comments']} comments read at {imp['read_per_s']}/s, {imp['cases']} cases at "
          f"{imp['cases_comments_per_s']} comments/s")
    print(f"saved {save('timeline_start', figures)}")


if __name__ == "__main__":
    main()
