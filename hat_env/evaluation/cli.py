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

    c = sub.add_parser("compare", help="two or more bench runs side by side, per suite and category, with bootstrap confidence intervals")
    c.add_argument("runs", nargs="+", metavar="RUN", help="bench output folders (or their summary.json); the first is the baseline of the differences")
    c.add_argument("--metric", default="avg", help="avg (default: mean of accuracy and effectiveness), composite, or a component name")
    c.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples per row (default 1000)")
    c.add_argument("--confidence", type=float, default=0.95, help="interval coverage (default 0.95)")
    c.add_argument("--seed", type=int, default=0, help="bootstrap seed: fixes every interval (default 0)")
    c.add_argument("--no-categories", action="store_true", help="suites only, no per-category rows")
    c.add_argument("--json", default=None, help="write the comparison table to this JSON file")
    c.add_argument("--plot", default=None, help="write a PNG of each suite per run with its interval")

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
    from hat_env.evaluation import report
    from hat_env.evaluation.metrics import summarize
    from hat_env.evaluation.progress import Progress
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
    bar = Progress(f"bench {args.agent}", "case", quiet=args.quiet)  # a bar on a terminal, 10 lines elsewhere
    records = run_cases(cases, agent, out / "results.jsonl", trials=args.trials, resume=args.resume,
                        max_concurrency=args.max_concurrency, progress=bar.update)
    bar.close()
    wanted = {c["id"] for c in cases}
    records = [r for r in records if r["case_id"] in wanted]
    summary = summarize(records, trials=args.trials)
    summary["agent"] = args.agent
    if args.judge:
        from hat_env.evaluation.judge import run_judges

        judges = [_agent(s.strip(), args) for s in args.judge.split(",")][:3]
        summary["judge"] = run_judges(records[: args.judge_limit], cases, judges)
    written = report.write(out, summary, records, args.agent)
    for sid, s in summary["suites"].items():
        print(f"{sid:16} cases {s['cases']:5d}  avg {s['avg']:6.2f}  accuracy {s['accuracy']:6.2f}  "
              f"effectiveness {s['effectiveness']:6.2f}  composite {s['composite']:6.2f}")
    lat = summary["latency"]
    print(f"latency P50 {lat['p50_s']} s, P95 {lat['p95_s']} s, under 15 s {lat['under_15s']}")
    print(f"wrote {out}/results.jsonl, " + ", ".join(p.name for p in written)
          + f"; see it in a browser: hat-env view {out} --out {out}/report.html")
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    """``hat-env compare RUN RUN...``."""
    from rich.console import Console
    from rich.table import Table

    from hat_env.evaluation.compare import compare_runs, latency_rows, table_rows
    from hat_env.evaluation.runs import load_run

    console = Console(highlight=False)
    try:
        if len(args.runs) < 2:
            raise ValueError("compare needs two or more runs")
        table = compare_runs([load_run(p) for p in args.runs], metric=args.metric, resamples=args.resamples,
                             confidence=args.confidence, seed=args.seed)
    except (ValueError, OSError) as exc:
        print(f"error: {exc}")
        return 2
    for w in table["warnings"]:
        console.print(f"[yellow]warning:[/yellow] {w}", markup=True, soft_wrap=True)
    head, rows = table_rows(table, categories=not args.no_categories)
    if not console.is_terminal:  # a pipe or a log: one line per row rather than cells wrapped at 80 columns
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
        console.width = max(console.width, sum(widths) + 3 * len(widths) + 4)
    t = Table(title=f"{args.metric} (0-100) per run with {int(100 * args.confidence)}% bootstrap intervals "
                    f"({args.resamples} resamples, seed {args.seed}); Δ: paired difference from "
                    f"{table['labels'][0]}, * when its interval excludes 0")
    for i, col in enumerate(head):
        t.add_column(col, justify="left" if i == 0 else "right", no_wrap=True)
    for row in rows:
        t.add_row(*row, style="bold" if not row[0].startswith("  ") else None)
    console.print(t)
    lh, lrows = latency_rows(table)
    lt = Table(title="latency per request (seconds; under_15s is a share)")
    for i, col in enumerate(lh):
        lt.add_column(col, justify="left" if i == 0 else "right")
    for row in lrows:
        lt.add_row(*row)
    console.print(lt)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(table, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    if args.plot:
        from hat_env.evaluation.plots import compare_plot

        Path(args.plot).parent.mkdir(parents=True, exist_ok=True)
        compare_plot(Path(args.plot), table)
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
