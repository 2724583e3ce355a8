"""``hat-env grade`` (offline grading of stored model outputs) and ``hat-env calibrate`` (agreement with the
hand-labelled calibration sets) on the command line."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Callable


def add_parsers(sub: Any) -> dict[str, Callable[[argparse.Namespace], int]]:
    """Add ``grade`` and ``calibrate`` to ``sub`` (an argparse subparsers object); returns their handlers."""
    g = sub.add_parser("grade", help="grade stored model outputs offline: JSONL {id?, case, turns} -> scores")
    g.add_argument("file", help="JSON Lines input: one {\"id\"?, \"case\": CASE, \"turns\": [TURN, ...]} per line ('-' for stdin)")
    g.add_argument("--out", default=None, help="write results here (JSON Lines, input order); default: stdout")

    c = sub.add_parser("calibrate", help="agreement of the grader (and an LLM judge) with the hand-labelled calibration sets")
    c.add_argument("--split", default="train", choices=["train", "test", "all"], help="which items (default: train)")
    c.add_argument("--set", default="replies", help="calibration set: replies, comments or all (default: replies)")
    c.add_argument("--judge", default=None, help="also run an LLM judge: agent spec(s), comma-separated, up to 3 (majority vote)")
    c.add_argument("--given-intents", action="store_true",
                   help="use each free-text comment's expect_intents instead of parsing it (the grader alone, apart from the parser)")
    c.add_argument("--dir", default=None, help="read the sets from this folder instead of the shipped scenarios/calibration")
    c.add_argument("--json", action="store_true", help="print the summary as JSON")
    c.add_argument("--mistakes", default=None, help="write the items the grader disagrees on to this JSONL file")
    c.add_argument("--quiet", action="store_true", help="no progress bar")
    from hat_env.agents.cli_args import add_agent_arguments

    add_agent_arguments(c)
    return {"grade": cmd_grade, "calibrate": cmd_calibrate}


def cmd_grade(args: argparse.Namespace) -> int:
    """``hat-env grade FILE``: exit 0 when every line was graded, 1 when a line had an error (reported on
    stderr with its line number, and as ``{"id", "line", "error"}`` in the output; the rest is still graded)."""
    from hat_env.scoring.offline import iter_grades

    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"error: {args.file}: {exc}", file=sys.stderr)
        return 2
    base = None if args.file == "-" else Path(args.file).resolve().parent
    out = None
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        out = open(args.out, "w", encoding="utf-8")  # noqa: SIM115 - written line by line, closed below
    bad = 0
    try:
        # JSON Lines end at "\n" only: a U+2028 inside a string is no break
        for r in iter_grades(text.split("\n"), base):
            line = json.dumps(r, ensure_ascii=False, sort_keys=False) + "\n"
            if out is not None:
                out.write(line)
                out.flush()  # each result as it is graded: a run stopped half-way keeps what it graded
            else:
                sys.stdout.write(line)
                sys.stdout.flush()
            if "error" in r:
                bad += 1
                print(f"{args.file}: {r['error']}", file=sys.stderr)
    finally:
        if out is not None:
            out.close()
    return 1 if bad else 0


def _pct(x: Any) -> str:
    """A share as a percentage with one decimal."""
    return "-" if x is None else f"{100 * x:.1f}"


_COLS = (("n", "n"), ("accuracy", "acc"), ("effectiveness_ge_half", "eff>=.5"), ("effectiveness_exact", "eff="),
         ("compliance", "compl"), ("pass", "pass"), ("false_pass", "false pass"), ("false_fail", "false fail"))


def _table(title: str, rows: dict[str, dict[str, Any]]) -> Any:
    """A rich table of agreement figures per group."""
    from rich.table import Table

    t = Table(title=title)
    t.add_column("group", no_wrap=True)
    for _k, lab in _COLS:
        t.add_column(lab, justify="right")
    for name, a in rows.items():
        t.add_row(name, *(str(a.get(k, "-")) if k == "n" else _pct(a.get(k)) for k, _l in _COLS))
    return t


def _component_table(title: str, a: dict[str, Any]) -> Any:
    """A rich table of agreement, false passes and false fails per component."""
    from rich.table import Table

    t = Table(title=title)
    for col in ("component", "agreement", "false pass (label 0)", "false fail (label 1)"):
        t.add_column(col, justify="right" if col != "component" else "left")
    agree = {"accuracy": a.get("accuracy"), "effectiveness": a.get("effectiveness_ge_half"), "compliance": a.get("compliance")}
    for comp in ("accuracy", "effectiveness", "compliance"):
        t.add_row(comp, _pct(agree[comp]), _pct(a.get(f"false_pass_{comp}")), _pct(a.get(f"false_fail_{comp}")))
    return t


def _calibrate_comments(args: argparse.Namespace, console: Any) -> dict[str, Any]:
    """The ``comments`` set: :func:`hat_env.scoring.calibrate_comments.calibrate_comments`, printed as tables
    (exact intent-set match per locale and per style, questions read as chit-chat); misses go to ``--mistakes``
    (as ``MISTAKES.comments.jsonl`` when the replies set writes there too)."""
    from rich.table import Table

    from hat_env.scoring.calibrate_comments import calibrate_comments

    files = sorted(Path(args.dir).glob("comments_*.jsonl")) if args.dir else None
    rep = calibrate_comments(args.split, files)
    if args.mistakes:
        path = Path(args.mistakes) if args.set == "comments" else Path(args.mistakes).with_suffix(".comments.jsonl")
        path.write_text("".join(json.dumps(m, ensure_ascii=False) + "\n" for m in rep["misses"]), encoding="utf-8")
    if not args.json:
        for title, rows in (("per locale", rep["by_locale"]), ("per style", rep["by_style"])):
            t = Table(title=f"comments ({args.split} split): exact intent-set match, {title}")
            t.add_column("group")
            t.add_column("n", justify="right")
            t.add_column("exact", justify="right")
            for k, v in {"all": {"n": rep["n"], "exact": rep["exact"]}, **rows}.items():
                t.add_row(k, str(v["n"]), _pct(v["exact"]))
            console.print(t)
        console.print(f"questions read as chit-chat: {_pct(rep['questions_as_chitchat'])} of {rep['questions']}")
    return rep


def cmd_calibrate(args: argparse.Namespace) -> int:
    """``hat-env calibrate``."""
    from hat_env.scoring.calibrate import SETS, mistakes, summarize

    names = [*SETS, "comments"] if args.set == "all" else [s.strip() for s in args.set.split(",") if s.strip()]
    unknown = [n for n in names if n not in SETS and n != "comments"]
    if unknown:
        print(f"error: no calibration set {', '.join(unknown)} (sets: {', '.join(SETS)}; 'comments' is added by the "
              f"comment parser)", file=sys.stderr)
        return 2
    judges = None
    if args.judge:
        from hat_env.agents import make_agent
        from hat_env.agents.cli_args import agent_kwargs

        try:
            judges = [make_agent(s.strip(), seed=0, **agent_kwargs(args)) for s in args.judge.split(",")][:3]
        except (ValueError, ImportError) as exc:
            print(f"error: --judge: {exc}", file=sys.stderr)
            return 2
    out: dict[str, Any] = {"split": args.split}
    from rich.console import Console

    console = Console(stderr=False, highlight=False)
    for name in names:
        if name == "comments":  # the comment parser against labelled comments (its own report)
            try:
                out[name] = _calibrate_comments(args, console)
            except ValueError as exc:
                print(f"error: {exc}", file=sys.stderr)
                return 2
            continue
        from hat_env.evaluation.progress import Progress

        bar = Progress(f"calibrate {name}", unit="item", quiet=args.quiet or args.json)
        try:
            records = SETS[name](args.split, args.given_intents, bar.update, Path(args.dir) if args.dir else None)
        except ValueError as exc:
            bar.close()
            print(f"error: {exc}", file=sys.stderr)
            return 2
        bar.close()
        summary = summarize(records)
        if judges is not None and name == "replies":
            from hat_env.scoring.calibrate import run_judge

            run_judge(records, judges)
            summary["judge"] = summarize(records, key="judge")
        out[name] = summary
        if args.mistakes:
            Path(args.mistakes).write_text("".join(json.dumps(m, ensure_ascii=False) + "\n" for m in mistakes(records)),
                                           encoding="utf-8")
        if not args.json:
            console.print(_table(f"{name} ({args.split} split): grader vs labels, % agreeing",
                                 {"all": summary["all"], **summary["locales"]}))
            console.print(_component_table(f"{name}: per component", summary["all"]))
            console.print(_table(f"{name}: per category", summary["categories"]))
            if "judge" in summary:
                console.print(_table(f"{name}: LLM judge vs labels (no compliance)", {"all": summary["judge"]["all"],
                                                                                     **summary["judge"]["locales"]}))
            for e in summary["errors"]:
                console.print(f"[red]not graded[/red] {e['id']}: {e['error']}")
    if args.json:
        print(json.dumps(out, ensure_ascii=False, indent=2))
    return 0


__all__ = ["add_parsers", "cmd_calibrate", "cmd_grade"]
