"""``hat-env suites`` (and ``suites export``), ``bench``, ``show``, ``compare`` and ``replay``: the evaluation part
of the command line."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Callable


def add_parsers(sub: Any) -> dict[str, Callable[[argparse.Namespace], int]]:
    """Add the evaluation subcommands to ``sub`` (an argparse subparsers object); returns their handlers."""
    from hat_env.agents.cli_args import add_agent_arguments

    s = sub.add_parser("suites", help="list the evaluation suites with case counts and manifest hashes; export one")
    s.add_argument("--json", action="store_true", help="print JSON instead of a table")
    ssub = s.add_subparsers(dest="suites_command", metavar="ACTION")
    e = ssub.add_parser("export", help="write a suite's cases to a JSON Lines case file (the format of --cases)")
    e.add_argument("suite", help="suite id (see `hat-env suites`)")
    e.add_argument("--out", required=True, help="the case file to write (FILE.jsonl)")
    _add_selection(e)

    b = sub.add_parser("bench", help="run evaluation suites with an agent; write results, summary, report, plots")
    src = b.add_mutually_exclusive_group(required=True)
    src.add_argument("--suite", help="suite id(s), comma-separated (see `hat-env suites`), or 'all'")
    src.add_argument("--cases", metavar="FILE.jsonl", help="a case file of your own (the suites' case format; "
                     "`hat-env suites export` writes one)")
    b.add_argument("--agent", default="reference", help="agent spec: reference, random, memorizer, openai, vllm, transformers, a plug-in name, or module:attr")
    b.add_argument("--out", required=True, help="output folder: run.json, results.jsonl, results.details.jsonl, summary.json, report.md, *.png")
    _add_selection(b)
    b.add_argument("--trials", type=int, default=1, help="runs per case, for pass^k (default 1)")
    b.add_argument("--resume", action="store_true", help="keep finished cases in OUT/results.jsonl and run only the rest "
                   "(refused when OUT/run.json records another configuration, unless --force)")
    b.add_argument("--force", action="store_true", help="with --resume: resume even over a different configuration "
                   "(new rows carry the new run id; run.json keeps the earlier one)")
    b.add_argument("--max-concurrency", type=int, default=1, help="cases (and endpoint requests) in flight at once "
                   "(with --backend ray: in each worker)")
    b.add_argument("--seed", type=int, default=0, help="agent seed (sampling agents)")
    b.add_argument("--judge", default=None, help="optional LLM judge agent spec(s), comma-separated, up to 3 (majority vote)")
    b.add_argument("--judge-limit", type=int, default=50, help="records the judge grades (default 50)")
    b.add_argument("--quiet", action="store_true", help="no progress bar")
    from hat_env.evaluation.ray_backend import add_backend_arguments

    add_backend_arguments(b)
    add_agent_arguments(b, skip=("max_concurrency",))

    w = sub.add_parser("show", help="print one case of a bench run: prompt, turns, reply, scores, grader's notes")
    w.add_argument("run", help="a bench output folder")
    w.add_argument("case_id", help="the case id, e.g. lsqa-v1/00042")
    w.add_argument("--trial", type=int, default=None, help="which trial (default: the first)")
    w.add_argument("--json", action="store_true", help="print it as JSON")

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
    return {"suites": cmd_suites, "bench": cmd_bench, "show": cmd_show, "compare": cmd_compare, "replay": cmd_replay}


def _add_selection(p: argparse.ArgumentParser) -> None:
    """``--limit`` / ``--sample`` / ``--sample-seed``: which cases of each suite a run takes."""
    sel = p.add_mutually_exclusive_group()
    sel.add_argument("--limit", type=int, default=None, help="only the first N cases of each suite")
    sel.add_argument("--sample", type=int, default=None, help="N cases of each suite, stratified by category, seeded by --sample-seed")
    p.add_argument("--sample-seed", type=int, default=0, help="seed of --sample (default 0)")


def cmd_suites(args: argparse.Namespace) -> int:
    """``hat-env suites`` and ``hat-env suites export SUITE --out FILE``."""
    from hat_env.evaluation.suites import list_suites

    if getattr(args, "suites_command", None) == "export":
        return _export(args)
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


def _export(args: argparse.Namespace) -> int:
    from hat_env.evaluation.cases import select, write_cases
    from hat_env.evaluation.suites import load_suite

    try:
        cases = select(load_suite(args.suite), args.limit, args.sample, args.sample_seed)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    n = write_cases(cases, args.out)
    print(f"wrote {n} cases of {args.suite} to {args.out}")
    return 0


def _load_cases(args: argparse.Namespace) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The selected cases and their sources (``run.json``'s ``sources``) of ``--suite`` or ``--cases``.

    Raises:
        ValueError: an unknown suite, a bad case file (a :class:`~hat_env.yamlio.FileError`), a bad selection.
    """
    from hat_env.evaluation.cases import read_cases, select

    if args.cases:
        cases, digest = read_cases(args.cases)
        p = Path(args.cases).resolve()
        chosen = select(cases, args.limit, args.sample, args.sample_seed)
        return chosen, [{"file": p.name, "path": str(p), "hash": digest, "cases": len(cases), "selected": len(chosen)}]
    from hat_env.evaluation.suites import ALL_SUITES, load_suite, manifest_hash

    ids = list(ALL_SUITES) if args.suite == "all" else [s.strip() for s in args.suite.split(",") if s.strip()]
    if not ids:
        raise ValueError("--suite: name at least one suite")
    chosen, sources = [], []
    for sid in ids:
        cases = load_suite(sid)
        picked = select(cases, args.limit, args.sample, args.sample_seed)
        chosen += picked
        sources.append({"suite": sid, "hash": manifest_hash(sid), "cases": len(cases), "selected": len(picked)})
    return chosen, sources


def cmd_bench(args: argparse.Namespace) -> int:
    """``hat-env bench``: 0 done, 1 the run failed part-way (finish it with ``--resume``), 2 bad arguments or a
    refused resume."""
    from hat_env.agents.cli_args import agent_kwargs, flag_kwargs
    from hat_env.evaluation import provenance as prov
    from hat_env.evaluation import report
    from hat_env.evaluation.metrics import summarize
    from hat_env.evaluation.progress import Progress
    from hat_env.evaluation.ray_backend import AgentSpec, options_from_args, run_cases_ray
    from hat_env.evaluation.runner import run_cases

    out = Path(args.out)
    try:
        opts = options_from_args(args)
        if args.force and not args.resume:
            raise ValueError("--force only goes with --resume")
        if args.trials < 1:
            raise ValueError(f"--trials: must be at least 1, got {args.trials}")
        cases, sources = _load_cases(args)
        config = prov.configuration(args.agent, args.model, prov.adapter_args(flag_kwargs(args), agent_kwargs(args)),
                                    args.seed, sources, {"limit": args.limit, "sample": args.sample,
                                                         "sample_seed": args.sample_seed if args.sample else None},
                                    args.trials)
        backend = {"kind": "local"} if opts is None else {"kind": "ray", "workers": opts.workers,
                                                           "address": opts.address}
        previous = prov.read_run(out) if args.resume else None
        info = prov.run_info(config, None, backend, getattr(args, "_argv", None))
        if args.resume:
            conflicts = prov.resume_conflicts(out, info, (out / "results.jsonl").exists())
            if conflicts and not args.force:
                print(f"error: --resume into {out} would mix two runs:", file=sys.stderr)
                for c in conflicts:
                    print(f"  {c}", file=sys.stderr)
                print("resume with the same configuration, choose another --out, or add --force to keep the old "
                      f"rows beside new ones (they carry run id {info['run_id']})", file=sys.stderr)
                return 2
            for c in conflicts:
                print(f"warning: resuming over a different configuration (--force): {c}", file=sys.stderr)
        spec = AgentSpec(args.agent, {"seed": args.seed, **flag_kwargs(args)}, agent_kwargs(args))
        agent = spec.build() if opts is None else None
    except (ValueError, ImportError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    def started(workers: list[dict[str, Any]]) -> None:
        info["agent_name"] = workers[0].get("agent_name") if workers else None
        info["backend"]["nodes"] = sorted({str(w.get("node")) for w in workers})
        prov.write_run(out, info, previous)

    if agent is not None:
        info["agent_name"] = getattr(agent, "name", None)
    prov.write_run(out, info, previous)
    bar = Progress(f"bench {args.agent}", "case", quiet=args.quiet)  # a bar on a terminal, 10 lines elsewhere
    progress = bar.update
    try:
        if opts is None:
            records = run_cases(cases, agent, out / "results.jsonl", trials=args.trials, resume=args.resume,
                                max_concurrency=args.max_concurrency, progress=progress, run_id=info["run_id"])
        else:
            records = run_cases_ray(cases, spec, out / "results.jsonl", opts, trials=args.trials, resume=args.resume,
                                    max_concurrency=args.max_concurrency, progress=progress, run_id=info["run_id"],
                                    on_start=started)
    except (RuntimeError, ImportError) as exc:
        print(f"error: {exc}\nthe finished cases are in {out}/results.jsonl: finish with --resume", file=sys.stderr)
        return 1
    finally:
        bar.close()
        close = getattr(agent, "close", None)
        if callable(close):
            close()
    wanted = {c["id"] for c in cases}
    records = [r for r in records if r["case_id"] in wanted]
    summary = summarize(records, trials=args.trials)
    summary["agent"] = args.agent
    summary["model"] = args.model
    summary["run_id"] = info["run_id"]
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
    print(f"wrote {out}/run.json (run id {info['run_id']}), results.jsonl, " + ", ".join(p.name for p in written)
          + f"; see it in a browser: hat-env view {out} --out {out}/report.html")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    """``hat-env show RUN CASE_ID``: 0 shown, 2 no such run or case."""
    from hat_env.evaluation.show import gather, render

    try:
        info = gather(args.run, args.case_id, args.trial)
    except (FileNotFoundError, KeyError, ValueError) as exc:
        print(f"error: {exc.args[0] if isinstance(exc, KeyError) else exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({k: v for k, v in info.items() if k != "has_detail"}, ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(render(info))
    return 0


def _provenance_warnings(runs: list[str], labels: list[str]) -> list[str]:
    """What makes each run not compare with the first (:func:`~hat_env.evaluation.provenance.provenance_mismatches`
    of their ``run.json``), each line led by the two labels."""
    from hat_env.evaluation.provenance import provenance_mismatches, read_run

    out: list[str] = []
    try:
        first = read_run(runs[0])
        for path, lab in zip(runs[1:], labels[1:]):
            out += [f"{labels[0]} vs {lab}: {m}" for m in provenance_mismatches(first, read_run(path))]
    except ValueError as exc:
        out.append(str(exc))
    return out


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
    for w in table["warnings"] + _provenance_warnings(args.runs, table["labels"]):
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
