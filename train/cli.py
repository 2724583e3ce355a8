"""``hat-env train data|sft|distill|rl --config FILE|NAME [KEY=VALUE ...]``: the training part of the command
line; ``hat-env train --list-configs`` lists the configs shipped with the package (a NAME is one of them).

Also runnable as ``python -m hat_env.train STAGE --config FILE`` (what ``accelerate launch -m hat_env.train``
starts on each GPU).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable

from hat_env.train.config import STAGES


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments of the ``train`` command."""
    p.add_argument("stage", nargs="?", choices=STAGES, help="data: build SFT data from teacher trajectories; sft: "
                   "HSA-SFT; distill: general on-policy distillation; rl: GRPO against the simulator")
    p.add_argument("--config", nargs="+", metavar="CONFIG",
                   help="the stage's YAML config: a file, or the name of a shipped one (--list-configs), optionally "
                        "followed by KEY=VALUE overrides of its fields, e.g. --config sft-smoke training.max_steps=10 "
                        "lora.r=8")
    p.add_argument("--list-configs", action="store_true",
                   help="list the stage configs, accelerate configs and harness packs shipped with hat-env, and exit")
    p.add_argument("overrides", nargs="*", metavar="KEY=VALUE", help="more overrides (before --config)")
    p.add_argument("--check", action="store_true", help="validate the config, print it, and exit")
    p.add_argument("--quiet", action="store_true", help="no progress bar (data stage)")
    from hat_env.evaluation.ray_backend import add_backend_arguments

    add_backend_arguments(p)  # the data stage: teacher episodes on Ray actors with --backend ray


def add_parsers(sub: Any) -> dict[str, Callable[[argparse.Namespace], int]]:
    """Add the ``train`` subcommand to ``sub`` (an argparse subparsers object); returns its handler."""
    t = sub.add_parser("train", help="Harness-Aware Training: data, sft, distill, rl (needs the [train] extra)")
    add_arguments(t)
    return {"train": cmd_train}


def list_configs() -> int:
    """``hat-env train --list-configs``: print the shipped configs and packs; 0."""
    from hat_env.train.catalog import accelerate_configs, harness_packs
    from hat_env.train.catalog import list_configs as stage_configs

    print("stage configs (hat-env train STAGE --config NAME):")
    for c in stage_configs():
        print(f"  {c['name']:<16} {c['stage'] or '?':<8} {c['summary']}")
    print("accelerate configs (accelerate launch --config_file PATH -m hat_env.train STAGE --config NAME):")
    for c in accelerate_configs():
        print(f"  {c['name']:<16} {c['path']}")
    print("harness packs for training (harness: NAME in a data source or the rl tasks):")
    for h in harness_packs():
        print(f"  {h['name']:<16} {h['path']}")
    return 0


def cmd_train(args: argparse.Namespace) -> int:
    """``hat-env train STAGE``: 0 done, 2 bad config or missing dependency."""
    from hat_env.train.catalog import find_config
    from hat_env.train.config import load_config
    from hat_env.yamlio import FileError

    if args.list_configs:
        return list_configs()
    if args.stage is None or not args.config:
        print("error: give a stage and --config FILE|NAME (or --list-configs)", file=sys.stderr)
        return 2
    try:
        name, *more = args.config
        path = find_config(name)
        cfg = load_config(path, [*args.overrides, *more], stage=args.stage)
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except FileError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    if str(path) != name:
        print(f"config: {path}", file=sys.stderr)
    if args.check:
        print(json.dumps(cfg.model_dump(mode="json"), indent=2, ensure_ascii=False))
        return 0
    if getattr(args, "backend", "local") != "local" and args.stage != "data":
        print(f"error: --backend {args.backend} runs the data stage; {args.stage} runs under accelerate "
              "(see docs/scale.md)", file=sys.stderr)
        return 2
    try:
        if args.stage == "data":
            from hat_env.evaluation.ray_backend import options_from_args
            from hat_env.train.data import run_data

            stats = run_data(cfg, quiet=args.quiet, backend=options_from_args(args))  # type: ignore[arg-type]
            print(f"data: {stats['kept']} of {stats['generated']} requests kept "
                  f"({stats['augmented_kept']} under augmented harnesses, {stats['collapsed']} retry traces "
                  f"collapsed, {stats['kept_whole']} kept whole) -> {cfg.output_dir}")
            return 0
        if args.stage == "sft":
            from hat_env.train.sft import run_sft as run
        elif args.stage == "distill":
            from hat_env.train.distill import run_distill as run
        else:
            from hat_env.train.rl import run_rl as run
        summary = run(cfg)  # type: ignore[arg-type]
    except (ImportError, FileNotFoundError, ValueError, RuntimeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{args.stage}: {summary['global_step']} steps, loss {summary['first_loss']} -> {summary['last_loss']}; "
          f"model in {summary['final_model']}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m hat_env.train STAGE --config FILE``."""
    p = argparse.ArgumentParser(prog="python -m hat_env.train", description="Harness-Aware Training stages.")
    add_arguments(p)
    return cmd_train(p.parse_args(argv))
