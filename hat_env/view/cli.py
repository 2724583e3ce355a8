"""``hat-env view``: the command line of :mod:`hat_env.view`."""

from __future__ import annotations

import argparse
from typing import Any, Callable


def add_parsers(sub: Any) -> dict[str, Callable[[argparse.Namespace], int]]:
    """Add ``view`` to ``sub`` (an argparse subparsers object); returns its handler."""
    v = sub.add_parser("view", help="write one self-contained HTML page replaying a session trace, or reporting bench runs side by side")
    v.add_argument("inputs", nargs="+", metavar="TRACE.jsonl|RUN_DIR",
                   help="a session trace (hat-env run, LiveRoom-v0, the PettingZoo room), or one or more `hat-env bench` output folders (the first is the baseline)")
    v.add_argument("--out", required=True, help="the HTML file to write (opens from file://, no network)")
    v.add_argument("--no-prompts", action="store_true",
                   help="bench pages: do not regenerate the suites to embed each case's prompt (faster, smaller)")
    return {"view": cmd_view}


def cmd_view(args: argparse.Namespace) -> int:
    """``hat-env view``."""
    from hat_env.view import build

    try:
        res = build(args.inputs, args.out, prompts=not args.no_prompts)
    except (ValueError, OSError) as exc:
        print(f"error: {exc}")
        return 2
    print(f"wrote {res['path']}: {res['kind']} page, {res['items']} {'requests' if res['kind'] == 'session' else 'records'}, "
          f"{res['bytes'] / 1e6:.2f} MB, built in {res['build_s']:.2f} s")
    return 0
