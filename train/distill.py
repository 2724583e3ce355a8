"""Stage 2, general on-policy distillation: recover general skills lost in SFT, from the pre-SFT base model.

The student (the SFT output) samples answers to general instructions and is trained to match the teacher's
next-token distributions on its own samples (TRL ``DistillationTrainer``: fully on-policy, ``beta`` 0 forward KL
.. 1 reverse KL; or ``trl.experimental.gkd.GKDTrainer``, ``lmbda`` the share of on-policy batches). The teacher
is the base model before SFT, so it shares the student's vocabulary.

The instruction data is a local path (a Tulu-3-style set: ``.jsonl`` / ``.json`` / ``.parquet`` or a saved
dataset with a ``prompt`` or ``messages`` column), or ``builtin``: a small general set shipped in
:mod:`hat_env.train.general_set` so the stage runs offline.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hat_env.train.common import (
    ensure_model,
    finish,
    lora_config,
    model_init_kwargs,
    resolve_resume,
    set_threads,
    stage_callbacks,
    trl_args,
)

if TYPE_CHECKING:
    from hat_env.train.config import DistillConfig


def _as_messages(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, str):
        return [{"role": "user", "content": value}]
    if isinstance(value, list):
        return [{"role": m["role"], "content": m.get("content") or ""} for m in value]
    raise ValueError(f"a prompt must be a string or a list of messages, got {type(value).__name__}")


def load_general_rows(source: str, max_prompts: int | None = None) -> list[dict[str, Any]]:
    """General instruction rows as ``{"prompt": [messages], "completion": str | None}``.

    Args:
        source: ``builtin`` or a local path (``.jsonl``, ``.json``, ``.parquet``, or a saved dataset folder).
            A row gives ``prompt`` (string or messages) with an optional ``completion`` / ``response``, or
            ``messages`` (a trailing assistant turn becomes the completion).
        max_prompts: keep at most this many rows.

    Raises:
        FileNotFoundError: the path does not exist.
        ValueError: a row has neither ``prompt`` nor ``messages``.
    """
    if source == "builtin":
        from hat_env.train.general_set import general_rows

        raw: list[dict[str, Any]] = list(general_rows())
    else:
        p = Path(source)
        if not p.exists():
            raise FileNotFoundError(f"distillation dataset not found: {source} (give a local path, or 'builtin')")
        if p.is_dir():
            import datasets

            raw = list(datasets.load_from_disk(str(p)))
        elif p.suffix == ".jsonl":
            raw = [json.loads(x) for x in p.read_text(encoding="utf-8").splitlines() if x.strip()]
        elif p.suffix == ".json":
            raw = json.loads(p.read_text(encoding="utf-8"))
        elif p.suffix == ".parquet":
            import datasets

            raw = list(datasets.Dataset.from_parquet(str(p)))
        else:
            raise ValueError(f"unsupported dataset file {source}: use .jsonl, .json, .parquet or a dataset folder")
    rows = []
    for i, r in enumerate(raw):
        if r.get("prompt") is not None:
            prompt = _as_messages(r["prompt"])
            completion = r.get("completion") or r.get("response")
            if isinstance(completion, list):
                completion = completion[-1].get("content") if completion else None
        elif r.get("messages"):
            msgs = _as_messages(r["messages"])
            completion = None
            if msgs and msgs[-1]["role"] == "assistant":
                completion = msgs[-1]["content"]
                msgs = msgs[:-1]
            prompt = msgs
        else:
            raise ValueError(f"row {i} of {source} has neither 'prompt' nor 'messages'")
        if not prompt:
            continue
        rows.append({"prompt": prompt, "completion": completion})
        if max_prompts is not None and len(rows) >= max_prompts:
            break
    return rows


def build_trainer(cfg: "DistillConfig", callbacks: list[Any] | None = None) -> Any:
    """The configured ``DistillationTrainer`` or ``GKDTrainer`` (not yet trained)."""
    import datasets
    from transformers import AutoTokenizer

    from hat_env.train.cards import base_model_of, with_model_card

    set_threads(cfg.training)
    student = ensure_model(cfg.model)
    teacher = ensure_model(cfg.teacher)
    rows = load_general_rows(cfg.dataset, cfg.max_prompts)
    tok = AutoTokenizer.from_pretrained(student)
    cbs = stage_callbacks(cfg.training.output_dir, "distill", callbacks)
    card = {"base": base_model_of(cfg.model), "start": cfg.model.path, "stage": "distill",
            "dataset": cfg.dataset}
    if cfg.trainer == "distillation":
        from trl import DistillationConfig, DistillationTrainer

        ds = datasets.Dataset.from_list([{"prompt": r["prompt"]} for r in rows])
        args = trl_args(DistillationConfig, cfg.training, {
            "beta": cfg.beta, "max_completion_length": cfg.max_completion_length, "temperature": cfg.temperature,
            "model_init_kwargs": model_init_kwargs(cfg.model) or None,
            "teacher_model_init_kwargs": model_init_kwargs(cfg.teacher) or None, **cfg.vllm_kwargs()})
        trainer = with_model_card(DistillationTrainer)(
            model=student, teacher_model=teacher, args=args, train_dataset=ds, processing_class=tok,
            peft_config=lora_config(cfg.lora), callbacks=cbs)
        trainer.hat_card = {**card, "trainer": "DistillationTrainer"}
        return trainer
    from trl.experimental.gkd import GKDConfig, GKDTrainer

    ds = datasets.Dataset.from_list([
        {"messages": r["prompt"] + [{"role": "assistant", "content": r["completion"] or ""}]} for r in rows])
    args = trl_args(GKDConfig, cfg.training, {
        "lmbda": cfg.lmbda, "beta": cfg.beta, "max_new_tokens": cfg.max_completion_length,
        "temperature": cfg.temperature, "max_length": cfg.max_length,
        "model_init_kwargs": model_init_kwargs(cfg.model) or None})
    trainer = with_model_card(GKDTrainer)(model=student, teacher_model=teacher, args=args, train_dataset=ds,
                                          processing_class=tok, peft_config=lora_config(cfg.lora), callbacks=cbs)
    trainer.hat_card = {**card, "trainer": "GKDTrainer"}
    return trainer


def run_distill(cfg: "DistillConfig", callbacks: list[Any] | None = None) -> dict[str, Any]:
    """Train, resuming when configured; save ``final/``; return the summary."""
    trainer = build_trainer(cfg, callbacks)
    resume = resolve_resume(cfg.training)
    trainer.train(resume_from_checkpoint=resume)
    return finish(trainer, cfg.training.output_dir, "distill",
                  {"resumed_from": resume, "trainer": cfg.trainer, "teacher": cfg.teacher.path})
