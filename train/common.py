"""Pieces every training stage shares: models from local paths, TRL config arguments, LoRA, metrics, resuming
(with the learning-rate schedule continued), model cards.

Heavy libraries (torch, transformers, TRL, peft) are imported inside the functions.
"""

from __future__ import annotations

import dataclasses
import json
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hat_env.train.config import LoraOptions, ModelOptions, TrainingOptions


def ensure_model(opts: "ModelOptions") -> str:
    """The model path, after building the tiny offline model there if asked (``build_tiny_if_missing``)."""
    p = Path(opts.path)
    if opts.build_tiny_if_missing and not (p / "config.json").exists():
        from hat_env.agents.tiny_model import build_tiny_model

        build_tiny_model(p)
    return opts.path


def trl_args(config_cls: type, training: "TrainingOptions", stage_kwargs: dict[str, Any]) -> Any:
    """The stage's TRL config: the ``training`` fields, the stage's own fields, then ``training.extra``.

    Args:
        config_cls: the TRL config dataclass (``trl.SFTConfig``, ``trl.GRPOConfig`` ...).
        training: the stage's training options.
        stage_kwargs: fields the stage sets from its own options (``num_generations``, ``max_length`` ...).

    Raises:
        ValueError: ``training.extra`` names a field ``config_cls`` does not have, or one the stage sets itself
            (the message names the field and where to set it instead).
    """
    fields = {f.name for f in dataclasses.fields(config_cls)}
    name = f"{config_cls.__module__.split('.')[0]}.{config_cls.__name__}"
    for key in training.extra:
        if key not in fields:
            raise ValueError(f"training.extra.{key}: {name} has no field {key!r} (see its documentation for the "
                             "fields it takes)")
        if key in stage_kwargs:
            raise ValueError(f"training.extra.{key}: this stage sets {key!r} from its own options; set it there "
                             "instead of in training.extra")
    return config_cls(**{**training.trainer_kwargs(), **stage_kwargs, **training.extra})


def model_init_kwargs(opts: "ModelOptions") -> dict[str, Any]:
    """``model_init_kwargs`` for a TRL config (the dtype)."""
    return {} if opts.dtype == "auto" else {"dtype": opts.dtype}


def set_threads(training: "TrainingOptions") -> None:
    """Apply ``torch_num_threads``."""
    if training.torch_num_threads:
        import torch

        torch.set_num_threads(training.torch_num_threads)


def lora_config(opts: "LoraOptions | None") -> Any:
    """A ``peft.LoraConfig`` for causal LM training, or ``None``."""
    if opts is None:
        return None
    try:
        from peft import LoraConfig
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ImportError(f"LoRA needs peft ({exc}): pip install 'hat-env[train]'") from None
    return LoraConfig(r=opts.r, lora_alpha=opts.alpha, lora_dropout=opts.dropout,
                      target_modules=opts.target_modules, task_type="CAUSAL_LM")


_CKPT = re.compile(r"^checkpoint-(\d+)$")


def latest_checkpoint(output_dir: str | Path) -> str | None:
    """The ``checkpoint-N`` folder with the highest ``N`` in ``output_dir`` (holding ``trainer_state.json``)."""
    p = Path(output_dir)
    if not p.is_dir():
        return None
    best: tuple[int, Path] | None = None
    for d in p.iterdir():
        m = _CKPT.match(d.name)
        if m and d.is_dir() and (d / "trainer_state.json").exists():
            n = int(m.group(1))
            if best is None or n > best[0]:
                best = (n, d)
    return str(best[1]) if best else None


def resolve_resume(training: "TrainingOptions") -> str | None:
    """What to pass as ``trainer.train(resume_from_checkpoint=...)``.

    ``"auto"``: the latest checkpoint in ``output_dir`` or ``None``; a path: that path; ``None``: ``None``.

    Raises:
        FileNotFoundError: an explicit path that holds no checkpoint.
    """
    r = training.resume_from_checkpoint
    if r is None or r in ("none", "never", "false", "False"):
        return None
    if r == "auto":
        return latest_checkpoint(training.output_dir)
    if not (Path(r) / "trainer_state.json").exists():
        raise FileNotFoundError(f"resume_from_checkpoint: no checkpoint at {r} (a checkpoint-N folder)")
    return r


def continue_schedule_callback() -> Any:
    """A ``TrainerCallback`` that, when training resumes from a checkpoint, sets the optimizer's learning rate
    to the schedule's value at the resumed step.

    The Trainer restores the optimizer with the learning rate of the checkpoint's last step and only steps the
    scheduler after the next optimizer step, so the first step after resuming trains at the old value: 0 when the
    checkpoint finished a linear schedule and ``max_steps`` was raised to train on. With this callback the resumed
    run follows the schedule of its own config from the first step (the scheduler's step count comes from the
    checkpoint; its shape from the current ``max_steps``, ``warmup_steps`` and ``lr_scheduler_type``).
    """
    from transformers import TrainerCallback

    class ContinueSchedule(TrainerCallback):
        def on_train_begin(self, args: Any, state: Any, control: Any, optimizer: Any = None,
                           lr_scheduler: Any = None, **kw: Any) -> None:
            if state.global_step == 0 or optimizer is None or lr_scheduler is None:
                return
            sched = getattr(lr_scheduler, "scheduler", lr_scheduler)  # accelerate wraps it
            opt = getattr(optimizer, "optimizer", optimizer)
            if not hasattr(sched, "lr_lambdas"):
                return
            lrs = [base * fn(sched.last_epoch) for base, fn in zip(sched.base_lrs, sched.lr_lambdas)]
            for group, lr in zip(opt.param_groups, lrs):
                group["lr"] = lr
            sched._last_lr = lrs

    return ContinueSchedule()


def metrics_callback(output_dir: str | Path, stage: str) -> Any:
    """A ``TrainerCallback`` appending every log record to ``OUTPUT_DIR/metrics.jsonl`` (step, time, values), so
    progress and metrics are on disk without TensorBoard."""
    from transformers import TrainerCallback

    path = Path(output_dir) / "metrics.jsonl"

    class MetricsToJsonl(TrainerCallback):
        def on_log(self, args: Any, state: Any, control: Any, logs: dict[str, Any] | None = None, **kw: Any) -> None:
            if not state.is_world_process_zero or not logs:
                return
            path.parent.mkdir(parents=True, exist_ok=True)
            rec = {"stage": stage, "step": state.global_step, "epoch": state.epoch, "time": round(time.time(), 3)}
            for k, v in logs.items():
                rec[k] = v if isinstance(v, (int, float, str, bool)) or v is None else str(v)
            with path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(rec) + "\n")

    return MetricsToJsonl()


def stage_callbacks(output_dir: str | Path, stage: str, callbacks: list[Any] | None) -> list[Any]:
    """The callbacks every stage's trainer gets: metrics to ``metrics.jsonl``, the schedule continued on resume,
    then ``callbacks``."""
    return [metrics_callback(output_dir, stage), continue_schedule_callback(), *(callbacks or [])]


def finish(trainer: Any, output_dir: str | Path, stage: str, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """Save the final model, tokenizer and model card to ``OUTPUT_DIR/final`` and write ``summary.json``; returns
    the summary (global step, last logged loss, the log history)."""
    out = Path(output_dir)
    final = out / "final"
    trainer.save_model(str(final))
    tok = getattr(trainer, "processing_class", None)
    if tok is not None and trainer.accelerator.is_main_process:
        tok.save_pretrained(str(final))
    if trainer.accelerator.is_main_process and hasattr(trainer, "write_model_card"):
        trainer.write_model_card(final)
    hist = list(trainer.state.log_history)
    losses = [h["loss"] for h in hist if "loss" in h]
    summary = {
        "stage": stage,
        "global_step": trainer.state.global_step,
        "first_loss": losses[0] if losses else None,
        "last_loss": losses[-1] if losses else None,
        "final_model": str(final),
        **(extra or {}),
        "log_history": hist,
    }
    if trainer.accelerator.is_main_process:
        (out / "summary.json").write_text(json.dumps(summary, indent=2, default=str) + "\n", encoding="utf-8")
    return summary
