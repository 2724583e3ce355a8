"""``hat-env train data|sft|distill|rl --config FILE [KEY=VALUE ...]``: the training part of the command line.

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
    p.add_argument("stage", choices=STAGES, help="data: build SFT data from teacher trajectories; sft: HSA-SFT; "
                   "distill: general on-policy distillation; rl: GRPO against the simulator")
    p.add_argument("--config", required=True, nargs="+", metavar="FILE",
                   help="the stage's YAML config (see train/configs/), optionally followed by KEY=VALUE overrides "
                        "of its fields, e.g. --config sft.yaml training.max_steps=10 lora.r=8")
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


def cmd_train(args: argparse.Namespace) -> int:
    """``hat-env train STAGE``: 0 done, 2 bad config or missing dependency."""
    from hat_env.train.config import load_config
    from hat_env.yamlio import FileError

    try:
        path, *more = args.config
        cfg = load_config(path, [*args.overrides, *more], stage=args.stage)
    except FileError as exc:
        print(str(exc), file=sys.stderr)
        return 2
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
