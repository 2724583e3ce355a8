"""``hat-env suites``, ``bench``, ``compare`` and ``replay``: the evaluation part of the command line."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, Callable


def add_parsers(sub: Any) -> dict[str, Callable[[argparse.Namespace], int]]:
    """Add the evaluation subcommands to ``sub`` (an argparse subparsers object); returns their handlers."""
    from hat_env.agents.cli_args import add_agent_arguments

    s = sub.add_parser("suites", help="list the evaluation suites with case counts and manifest hashes")
    s.add_argument("--json", action="store_true", help="print JSON instead of a table")

    b = sub.add_parser("bench", help="run evaluation suites with an agent; write results, summary, report, plots")
    b.add_argument("--suite", required=True, help="suite id(s), comma-separated (see `hat-env suites`), or 'all'")
    b.add_argument("--agent", default="reference", help="agent spec: reference, random, memorizer, openai, vllm, transformers, a plug-in name, or module:attr")
    b.add_argument("--out", required=True, help="output folder: results.jsonl, summary.json, report.md, *.png")
    b.add_argument("--limit", type=int, default=None, help="run only the first N cases of each suite")
    b.add_argument("--trials", type=int, default=1, help="runs per case, for pass^k (default 1)")
    b.add_argument("--resume", action="store_true", help="keep finished cases in OUT/results.jsonl and run only the rest")
    b.add_argument("--max-concurrency", type=int, default=1, help="cases (and endpoint requests) in flight at once")
    b.add_argument("--seed", type=int, default=0, help="agent seed (sampling agents)")
    b.add_argument("--judge", default=None, help="optional LLM judge agent spec(s), comma-separated, up to 3 (majority vote)")
    b.add_argument("--judge-limit", type=int, default=50, help="records the judge grades (default 50)")
    b.add_argument("--quiet", action="store_true", help="no progress bar")
    add_agent_arguments(b, skip=("max_concurrency",))

    c = sub.add_parser("compare", help="print two bench runs side by side with differences")
    c.add_argument("a", help="first bench output folder (or its summary.json)")
    c.add_argument("b", help="second bench output folder (or its summary.json)")

    r = sub.add_parser("replay", help="complete-agent latency replay of a session trace, one request at a time")
    r.add_argument("trace", help="a JSONL trace written by `hat-env run` or LiveRoom-v0")
    r.add_argument("--agent", default="reference", help="agent spec (as for `run`)")
    r.add_argument("--limit", type=int, default=None, help="replay only the first N requests")
    r.add_argument("--json", default=None, help="write the replay figures to this JSON file")
    add_agent_arguments(r)
    return {"suites": cmd_suites, "bench": cmd_bench, "compare": cmd_compare, "replay": cmd_replay}


def cmd_suites(args: argparse.Namespace) -> int:
    """``hat-env suites``."""
    from hat_env.evaluation.suites import list_suites

    rows = list_suites()
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    from rich.console import Console
    from rich.table import Table

    t = Table(title="evaluation suites")
    for col in ("id", "cases", "hash", "pinned", "description"):
        t.add_column(col)
    for r in rows:
        t.add_row(r["id"], str(r["cases"]), r["hash"][:16], "yes" if r["pinned"] else "NO", r["description"])
    Console().print(t)
    return 0


def _agent(spec: str, args: argparse.Namespace) -> Any:
    from hat_env.agents.cli_args import agent_from_args

    return agent_from_args(spec, args, getattr(args, "seed", 0) or 0)


def cmd_bench(args: argparse.Namespace) -> int:
    """``hat-env bench``."""
    from tqdm import tqdm

    from hat_env.evaluation import report
    from hat_env.evaluation.metrics import summarize
    from hat_env.evaluation.runner import run_cases
    from hat_env.evaluation.suites import GENERATORS, load_suite

    ids = list(GENERATORS) if args.suite == "all" else [s.strip() for s in args.suite.split(",") if s.strip()]
    try:
        cases = [c for sid in ids for c in load_suite(sid)[: args.limit]]
        agent = _agent(args.agent, args)
    except ValueError as exc:
        print(f"error: {exc}")
        return 2
    out = Path(args.out)
    bar = tqdm(total=len(cases) * args.trials, disable=args.quiet, desc=f"bench {args.agent}", unit="case")

    def progress(done: int, total: int) -> None:
        bar.total = total
        bar.n = done
        bar.refresh()

    records = run_cases(cases, agent, out / "results.jsonl", trials=args.trials, resume=args.resume,
                        max_concurrency=args.max_concurrency, progress=progress)
    bar.close()
    wanted = {c["id"] for c in cases}
    records = [r for r in records if r["case_id"] in wanted]
    summary = summarize(records, trials=args.trials)
    summary["agent"] = args.agent
    if args.judge:
        from hat_env.evaluation.judge import run_judges

        judges = [_agent(s.strip(), args) for s in args.judge.split(",")][:3]
        summary["judge"] = run_judges(records[: args.judge_limit], cases, judges)
    report.write(out, summary, records, args.agent)
    for sid, s in summary["suites"].items():
        print(f"{sid:16} cases {s['cases']:5d}  avg {s['avg']:6.2f}  accuracy {s['accuracy']:6.2f}  "
              f"effectiveness {s['effectiveness']:6.2f}  composite {s['composite']:6.2f}")
    lat = summary["latency"]
    print(f"latency P50 {lat['p50_s']} s, P95 {lat['p95_s']} s, under 15 s {lat['under_15s']}")
    print(f"wrote {out}/results.jsonl, summary.json, report.md, scores.png, latency_cdf.png")
    return 0


def _summary(path: str) -> dict[str, Any]:
    p = Path(path)
    if p.is_dir():
        p = p / "summary.json"
    return json.loads(p.read_text(encoding="utf-8"))


def cmd_compare(args: argparse.Namespace) -> int:
    """``hat-env compare A B``."""
    from rich.console import Console
    from rich.table import Table

    from hat_env.evaluation.report import compare

    a, b = _summary(args.a), _summary(args.b)
    t = Table(title=f"{args.a} vs {args.b}")
    for col in ("suite", "metric", a.get("agent", "A"), b.get("agent", "B"), "difference"):
        t.add_column(col)
    for row in compare(a, b):
        t.add_row(*row)
    Console().print(t)
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """``hat-env replay TRACE``."""
    from hat_env.evaluation.replay import replay

    try:
        res = replay(args.trace, _agent(args.agent, args), limit=args.limit)
    except (ValueError, OSError) as exc:
        print(f"error: {exc}")
        return 2
    print(f"{res['requests']} requests of {res['scenario']}: P50 {res['p50_s']} s, P95 {res['p95_s']} s, "
          f"P99 {res['p99_s']} s, under 15 s {res['under_15s']}, TTFT P50 {res['ttft_p50_s']} s, "
          f"mean score {res['mean_score']}")
    if args.json:
        Path(args.json).write_text(json.dumps(res, ensure_ascii=False, indent=2), encoding="utf-8")
    return 0
