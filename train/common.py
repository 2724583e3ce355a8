"""Pieces every training stage shares: models from local paths, trainer arguments, LoRA, metrics, resuming.

Heavy libraries (torch, transformers, TRL, peft) are imported inside the functions.
"""

from __future__ import annotations

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


def finish(trainer: Any, output_dir: str | Path, stage: str, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """Save the final model and tokenizer to ``OUTPUT_DIR/final`` and write ``summary.json``; returns the summary
    (global step, last logged loss, the log history)."""
    out = Path(output_dir)
    final = out / "final"
    trainer.save_model(str(final))
    tok = getattr(trainer, "processing_class", None)
    if tok is not None and trainer.accelerator.is_main_process:
        tok.save_pretrained(str(final))
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
