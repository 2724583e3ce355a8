"""``hat-env import-log FILE``: a log of real comments as a scripted timeline, a scenario, and evaluation cases."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, Callable


def _generate(v: str) -> bool | float:
    low = v.strip().lower()
    if low in ("false", "no", "0"):
        return False
    if low in ("true", "yes", "1"):
        return True
    try:
        w = float(low)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected true, false or a weight 0-1, got {v!r}") from None
    if not 0.0 <= w <= 1.0:
        raise argparse.ArgumentTypeError(f"a weight is 0-1, got {v}")
    return w


def add_parsers(sub: Any) -> dict[str, Callable[[argparse.Namespace], int]]:
    """Add ``import-log`` to ``sub`` (an argparse subparsers object); returns its handler."""
    p = sub.add_parser(
        "import-log", help="turn a CSV or JSON Lines log of real comments (t, user, text) into a scripted timeline, "
                           "a scenario and evaluation cases")
    p.add_argument("file", help="the log: .csv, .tsv or .jsonl (one comment a row: time, user, text, optional intents)")
    p.add_argument("--format", choices=["csv", "tsv", "jsonl"], default=None, help="the log's format (default: by its extension)")
    p.add_argument("--time-col", default="t", help="column / key of the time: seconds, or an ISO 8601 time (default: t)")
    p.add_argument("--user-col", default="user", help="column / key of the user name (default: user)")
    p.add_argument("--text-col", default="text", help="column / key of the comment text (default: text)")
    p.add_argument("--intents-col", default="intents", help="column / key of optional intents, a JSON list (default: intents)")
    p.add_argument("--relative", action="store_true", help="make second times relative to the earliest (ISO times always are)")
    p.add_argument("--offset", type=float, default=0.0, help="seconds added to every time (default 0)")
    p.add_argument("--start", type=float, default=None, help="keep comments from this second on, shifted to start at 0")
    p.add_argument("--end", type=float, default=None, help="keep comments before this second")
    p.add_argument("--skip-bad", action="store_true", help="skip bad rows (listed on stderr) instead of failing")
    p.add_argument("--scenario", default=None, metavar="BASE", help="write a whole scenario: BASE (a built-in name or a scenario file) with the log as its scripted comments")
    p.add_argument("--generate", type=_generate, default=False, help="with --scenario: viewers.generate of the result: false (only the log speaks, default), true, or a weight 0-1")
    p.add_argument("--name", default=None, help="with --scenario: the result's name (default: BASE's)")
    p.add_argument("--out", default=None, help="write the YAML here (default: stdout)")
    p.add_argument("--cases", default=None, metavar="OUT.jsonl", help="also write evaluation cases (one per merged request; needs --scenario)")
    p.add_argument("--suite", default=None, help="the cases' suite name (default: import-<FILE stem>)")
    p.add_argument("--allow-root", action="append", default=[], metavar="DIR", help="a folder BASE's paths may lead into (see hat-env validate)")
    return {"import-log": cmd_import_log}


def _write_checked(out: Path, text: str, roots: list[str]) -> list[str]:
    """Write a whole scenario to ``out`` only if it passes ``hat-env validate``'s checks (written next to it
    first, so its relative paths resolve as they will); returns the problems (nothing is written then)."""
    from hat_env.envs.preflight import check_scenario
    from hat_env.sim.scenario import load_scenario
    from hat_env.yamlio import FileError, file_errors

    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.stem}.importing.yaml")
    tmp.write_text(text, encoding="utf-8")
    try:
        try:
            errors = check_scenario(load_scenario(tmp, roots=tuple(roots)))
        except FileError as exc:
            errors = file_errors(exc)
        if errors:
            return [str(e).replace(str(tmp.resolve()), str(out)).replace(str(tmp), str(out)) for e in errors]
        os.replace(tmp, out)
        return []
    finally:
        tmp.unlink(missing_ok=True)


def cmd_import_log(args: argparse.Namespace) -> int:
    """``hat-env import-log FILE``: exit 0 written, 1 a bad log or result (every problem with file and line), 2 bad
    arguments."""
    from hat_env.importlog.build import cases_from, cut, dump_yaml, scenario_data, timeline_fragment
    from hat_env.importlog.read import Columns, read_log
    from hat_env.sim.scenario import Scenario, load_scenario, resolve_scenario_path
    from hat_env.yamlio import FileError, load_yaml, validate

    if args.cases and not args.scenario:
        print("error: --cases needs --scenario BASE (the room the cases run in)", file=sys.stderr)
        return 2
    if (args.start is not None and args.end is not None and args.end <= args.start):
        print("error: --end must be after --start", file=sys.stderr)
        return 2
    src = Path(args.file)
    try:
        log = read_log(src, args.format, Columns(args.time_col, args.user_col, args.text_col, args.intents_col),
                       relative=args.relative, offset=args.offset, skip_bad=args.skip_bad)
        rows = cut(log.rows, args.start, args.end)
        if not rows:
            raise FileError(src, [("", None, "no comments left in the chosen window (--start/--end)")])
        for s in log.skipped:
            print(f"skipped: {s}", file=sys.stderr)
        header = [f"generated by hat-env import-log from {src.name}: {len(rows)} comments, "
                  f"{rows[0].t:g}-{rows[-1].t:g} s"]
        base_path = None
        if args.scenario:
            base_path = resolve_scenario_path(args.scenario).resolve()
            base_data, _ = load_yaml(base_path)
            if not isinstance(base_data, dict):
                raise FileError(base_path, [("", 1, "a scenario must be a YAML mapping")])
            load_scenario(base_path, roots=tuple(args.allow_root))  # the base itself must be valid
            data, notes = scenario_data(base_data, rows, args.generate, args.name)
            header.append(f"base scenario: {args.scenario}; viewers.generate: {str(args.generate).lower()}")
            for n in notes:
                print(f"note: {n}", file=sys.stderr)
        else:
            data = timeline_fragment(rows)
            header.append("paste under a scenario's top level; add `generate: false` under viewers: to replay only "
                          "these comments")
        text = dump_yaml(data, header)
    except FileError as exc:
        from hat_env.cli import _print_problems

        _print_problems(exc)
        return 1
    if args.out:
        out = Path(args.out)
        if args.scenario:
            problems = _write_checked(out, text, args.allow_root)
            if problems:
                print("\n".join(problems))
                return 1
        else:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(text, encoding="utf-8")
        print(f"wrote {out}: {len(rows)} scripted comments", file=sys.stderr)
    else:
        sys.stdout.write(text)
    if args.cases:
        assert base_path is not None
        # the cases' room: the written scenario when there is one, else the base (same catalog and events)
        ref = str(args.out) if args.out else str(args.scenario)
        sc = validate(Scenario, data, str(args.out or base_path), {})
        sc.source = str(Path(args.out).resolve() if args.out else base_path)
        suite = args.suite or f"import-{src.stem}"
        cases = cases_from(sc, ref, suite)
        cp = Path(args.cases)
        cp.parent.mkdir(parents=True, exist_ok=True)
        with cp.open("w", encoding="utf-8") as fh:
            for c in cases:
                fh.write(json.dumps(c, ensure_ascii=False, sort_keys=True) + "\n")
        print(f"wrote {cp}: {len(cases)} cases (suite {suite}) from {len(rows)} comments", file=sys.stderr)
    return 0


__all__ = ["add_parsers", "cmd_import_log"]
