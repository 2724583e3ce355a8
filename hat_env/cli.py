"""The ``hat-env`` command line.

Subcommands: ``run`` (a live session with an agent, transcript and score table), ``scenarios`` (list built-in
scenarios), ``validate`` (check a scenario file or harness pack), ``import-log`` (a log of real comments as a
scripted timeline, scenario and cases, :mod:`hat_env.importlog.cli`), ``hsa`` (show a harness variant),
``make-tiny-model`` (the tiny offline model for tests and smoke runs), the
evaluation commands ``suites``, ``bench``, ``compare`` and ``replay`` (:mod:`hat_env.evaluation.cli`), ``grade`` and
``calibrate`` (:mod:`hat_env.scoring.cli`), ``train`` (:mod:`hat_env.train.cli`) and ``view`` (an HTML replay of a
session or report of bench runs, :mod:`hat_env.view.cli`).
Run ``hat-env COMMAND --help`` for each flag.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


_ALLOW_ROOT_HELP = ("a folder the scenario's harness: and rule-pack paths may lead into besides its own folder and the "
                    "built-ins (repeatable; HAT_ENV_ALLOW_ROOTS adds more, separated by ':')")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="hat-env",
        description="A live-commerce live-room gym for LLM agents (Harness runtime, HSA, evaluation, training).",
    )
    from hat_env import __version__

    p.add_argument("--version", action="version", version=f"hat-env {__version__}", help="print the version")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    r = sub.add_parser("run", help="run one live session with an agent and score it")
    r.add_argument("--scenario", default="beauty_zh", help="built-in scenario name or path to a scenario YAML (default: beauty_zh)")
    r.add_argument("--agent", default="reference", help="agent: reference, random, memorizer, openai, transformers, vllm, a plug-in name, or module:attr (default: reference)")
    r.add_argument("--seed", type=int, default=None, help="seed that fixes the whole session (default: the scenario's seed)")
    r.add_argument("--duration", type=float, default=None, help="session length in room seconds (default: the scenario's)")
    r.add_argument("--harness", default=None, help="harness pack name or folder replacing the scenario's harness")
    r.add_argument("--hsa", default=None, help="Harness-State Augmentation: 'all' or comma-separated dimensions")
    r.add_argument("--hsa-family", default="train", choices=["train", "heldout"], help="HSA vocabulary family (default: train)")
    r.add_argument("--hsa-strength", type=float, default=1.0, help="HSA strength 0-1 (default: 1.0)")
    r.add_argument("--trace", default=None, help="JSONL trace path (default: runs/SCENARIO-seedN.jsonl); 'none' to skip")
    r.add_argument("--summary-json", default=None, help="write the summary (score, components, requests...) to this JSON file")
    r.add_argument("--quiet", action="store_true", help="no transcript, only the score table")
    r.add_argument("--on-error", default="continue", choices=["continue", "stop"], help="when the agent fails: record and go on, or stop")
    r.add_argument("--allow-root", action="append", default=[], metavar="DIR", help=_ALLOW_ROOT_HELP)
    from hat_env.agents.cli_args import add_agent_arguments

    add_agent_arguments(r)

    s = sub.add_parser("scenarios", help="list the built-in scenarios")
    s.add_argument("--json", action="store_true", help="print a JSON list of {name, locale, description, ...}")

    v = sub.add_parser("validate", help="check a scenario file or a harness pack folder; exit 1 when invalid")
    v.add_argument("path", help="scenario YAML file or harness pack folder (with harness.yaml)")
    v.add_argument("--harness", default=None, metavar="PACK",
                   help="check the scenario (its harness timeline, fallback reply) against this harness pack, name or "
                        "folder, as `run --harness PACK` would use it")
    v.add_argument("--allow-root", action="append", default=[], metavar="DIR", help=_ALLOW_ROOT_HELP)

    t = sub.add_parser("make-tiny-model", help="build the tiny random-weight Qwen2 model for tests and smoke runs (needs torch, transformers)")
    t.add_argument("dir", help="output folder")
    t.add_argument("--vocab-size", type=int, default=1024, help="BPE vocabulary size (default: 1024)")
    t.add_argument("--max-position-embeddings", type=int, default=32768, help="context length, at least 8192 (default: 32768)")
    t.add_argument("--seed", type=int, default=0, help="weight-initialisation seed (default: 0)")

    h = sub.add_parser("hsa", help="Harness-State Augmentation tools")
    hsub = h.add_subparsers(dest="hsa_command", required=True, metavar="ACTION")
    hs = hsub.add_parser("show", help="print a readable diff of a harness and one augmented variant")
    hs.add_argument("--harness", default="default", help="harness pack name or folder (default: default)")
    hs.add_argument("--seed", type=int, default=0, help="variant seed (default: 0)")
    hs.add_argument("--dims", default="all", help="'all' or comma-separated dimensions")
    hs.add_argument("--family", default="train", choices=["train", "heldout"], help="vocabulary family")
    hs.add_argument("--strength", type=float, default=1.0, help="strength 0-1 (default: 1.0)")
    from hat_env.evaluation.cli import add_parsers
    from hat_env.importlog.cli import add_parsers as add_import_parsers
    from hat_env.scoring.cli import add_parsers as add_scoring_parsers
    from hat_env.train.cli import add_parsers as add_train_parsers
    from hat_env.view.cli import add_parsers as add_view_parsers

    p.set_defaults(_eval_handlers={**add_parsers(sub), **add_scoring_parsers(sub), **add_train_parsers(sub),
                                   **add_view_parsers(sub), **add_import_parsers(sub)})
    return p


def _hsa_options(args: argparse.Namespace) -> dict[str, Any] | None:
    if not args.hsa:
        return None
    dims = "all" if args.hsa == "all" else [d.strip() for d in args.hsa.split(",") if d.strip()]
    return {"dims": dims, "strength": args.hsa_strength, "family": args.hsa_family}


def cmd_run(args: argparse.Namespace) -> int:
    """``hat-env run``."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from hat_env.envs.session import LiveSession
    from hat_env.runner import AgentFailed, default_trace_path, print_request, print_summary, run_session

    console = Console(stderr=False, highlight=False)
    session = None
    trace = None
    if args.trace != "none":
        trace = args.trace
    try:
        from hat_env.sim.scenario import load_scenario

        sc = load_scenario(args.scenario, roots=args.allow_root)
        seed = sc.seed if args.seed is None else args.seed
        if trace is None and args.trace is None:
            trace = str(default_trace_path(sc.name, seed))
        from hat_env.envs.preflight import check_scenario

        problems = check_scenario(sc, args.harness)  # before starting: every patch, event and the fallback
        if problems:
            from hat_env.yamlio import FileErrors

            raise FileErrors(problems)
        session = LiveSession(sc, seed=seed, harness=args.harness, trace=trace, duration_s=args.duration,
                              hsa=_hsa_options(args))
        from hat_env.agents.cli_args import agent_from_args

        agent = agent_from_args(args.agent, args, seed)
    except (ValueError, OSError, ImportError) as exc:
        console.print(f"[red]error:[/red] {exc}", markup=True, highlight=False, soft_wrap=True)
        return 2
    total = session.scenario.duration_s
    with Progress(TextColumn("[progress.description]{task.description}"), BarColumn(), TextColumn("{task.fields[info]}"),
                  TimeElapsedColumn(), console=console, transient=True) as prog:
        task = prog.add_task(f"{sc.name} / {getattr(agent, 'name', args.agent)}", total=total, info="")

        errors: list[str] = []

        def on_request(s: LiveSession, scores: dict[str, Any]) -> None:
            errors.extend(t["error"] for t in s.turn_timings if t.get("error"))
            if not args.quiet:
                print_request(prog.console, s)
            prog.update(task, completed=min(total, s.room.t), info=f"{s.n_requests} requests")

        try:
            summary = run_session(session, agent, on_request=on_request, on_error=args.on_error)
        except AgentFailed as exc:
            console.print(f"[red]agent failed, session stopped (--on-error stop):[/red] {exc}", highlight=False,
                          soft_wrap=True)
            errors.append(str(exc))
            summary = session.finish()
        finally:
            close = getattr(agent, "close", None)
            if callable(close):
                close()
    print_summary(console, summary)
    if errors:
        console.print(f"[red]{len(errors)} agent call(s) failed;[/red] first: {errors[0]}", highlight=False,
                      soft_wrap=True)
    if trace:
        console.print(f"trace: {trace}")
    if args.summary_json:
        Path(args.summary_json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.summary_json).write_text(json.dumps(summary, ensure_ascii=False, indent=2), encoding="utf-8")
    if summary.get("error"):  # the session could not go on (a harness patch that failed mid-stream)
        console.print(f"[red]error: the session ended early:[/red] {summary['error']}", highlight=False,
                      soft_wrap=True)
        return 1
    return 0


def cmd_scenarios(args: argparse.Namespace) -> int:
    """``hat-env scenarios``."""
    from hat_env.sim.scenario import builtin_scenarios, load_scenario

    rows = []
    for name in builtin_scenarios():
        sc = load_scenario(name)
        rows.append({
            "name": sc.name, "locale": sc.locale, "description": sc.description.strip(), "harness": sc.harness,
            "duration_s": sc.duration_s, "products": len(sc.catalog.products) + sc.catalog.generate.count,
            "harness_changes": len(sc.harness_timeline),
        })
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    from rich.console import Console
    from rich.table import Table

    t = Table(title="built-in scenarios")
    for col in ("name", "locale", "products", "harness changes", "description"):
        t.add_column(col)
    for r in rows:
        t.add_row(r["name"], r["locale"], str(r["products"]), str(r["harness_changes"]), r["description"][:80])
    Console().print(t)
    return 0


def _print_problems(exc: Exception) -> None:
    """Print a FileError (one file or several) as ``FILE:LINE: FIELD: REASON`` lines."""
    from hat_env.yamlio import FileError, file_errors

    if not isinstance(exc, FileError):
        print(f"error: {exc}")
        return
    for err in file_errors(exc):
        for fld, line, reason in err.problems:
            where = f"{err.path}:{line}" if line else err.path
            print(f"{where}: {fld or '<root>'}: {reason}")


def cmd_validate(args: argparse.Namespace) -> int:
    """``hat-env validate PATH [--harness PACK]``: every error with file, field path and line; exit 0 valid, 1
    invalid. A scenario is checked as a session would use it (:func:`hat_env.envs.preflight.check_scenario`): its
    harness (or ``--harness``), rule packs, room events, every harness-timeline patch in order, and the fallback
    reply."""
    from hat_env.envs.preflight import check_scenario
    from hat_env.envs.room import load_harness
    from hat_env.harness import Harness
    from hat_env.sim.scenario import load_scenario
    from hat_env.yamlio import FileError, FileErrors

    p = Path(args.path)
    try:
        if p.is_dir():
            h = Harness.load(p)
            print(f"ok: harness {h.name} {h.version} ({len(h.spec.tools)} tools, {len(h.spec.skills)} skills, hash {h.hash})")
            return 0
        sc = load_scenario(p, roots=args.allow_root)
        errors = check_scenario(sc, args.harness)
        if errors:
            raise FileErrors(errors)
        h = load_harness(args.harness, sc)
        tl = sc.timeline
        extra = (f", timeline: {len(tl.comments)} scripted comments, {len(tl.events)} room events"
                 if tl else "")
        print(f"ok: scenario {sc.name} ({sc.locale}), harness {h.name}{extra}")
        return 0
    except FileError as exc:
        _print_problems(exc)
        return 1


def cmd_make_tiny_model(args: argparse.Namespace) -> int:
    """``hat-env make-tiny-model DIR``."""
    from hat_env.agents.tiny_model import build_tiny_model

    try:
        out = build_tiny_model(args.dir, vocab_size=args.vocab_size, seed=args.seed,
                               max_position_embeddings=args.max_position_embeddings)
    except (ImportError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    info = json.loads((out / "hat_env_tiny_model.json").read_text(encoding="utf-8"))
    print(f"tiny model written to {out}: {info['parameters']:,} parameters, vocab {info['vocab_size']}, "
          f"head_dim {info['head_dim']}, context {info['max_position_embeddings']}")
    return 0


def cmd_hsa(args: argparse.Namespace) -> int:
    """``hat-env hsa show``."""
    from hat_env.hsa.show import show_variant

    dims = "all" if args.dims == "all" else [d.strip() for d in args.dims.split(",")]
    print(show_variant(args.harness, args.seed, dims, args.family, args.strength))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``hat-env`` console script; returns the exit status."""
    args = _parser().parse_args(argv)
    args._argv = list(sys.argv[1:] if argv is None else argv)  # what run.json records as the command
    handlers = {"run": cmd_run, "scenarios": cmd_scenarios, "validate": cmd_validate, "hsa": cmd_hsa,
                "make-tiny-model": cmd_make_tiny_model,
                **args._eval_handlers}
    return handlers[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
