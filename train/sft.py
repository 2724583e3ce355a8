"""Stage 1, HSA-SFT: TRL's ``SFTTrainer`` on teacher trajectories, assistant-only loss, optional LoRA.

Rows are ``{"messages", "tools"}`` (what ``hat-env train data`` writes). With ``assistant_only_loss`` the loss
covers the assistant turns only (tool calls and replies), never the system prompt, the viewers' comments, tool
results or harness feedback: TRL renders each row with a chat template carrying ``{% generation %}`` markers
(it swaps in its training variant of a recognised template, Qwen2.5's for the tiny model) and masks the rest.

``hat-env train sft --config FILE [KEY=VALUE ...]``; under several GPUs,
``accelerate launch -m hat_env.train sft --config FILE``.
"""

from __future__ import annotations

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
    from hat_env.train.config import SFTConfig


def build_trainer(cfg: "SFTConfig", callbacks: list[Any] | None = None, train_dataset: Any = None,
                  processing_class: Any = None) -> Any:
    """The configured ``trl.SFTTrainer`` (not yet trained).

    Args:
        cfg: the SFT stage config.
        callbacks: extra ``TrainerCallback`` objects.
        train_dataset: a dataset to use instead of ``cfg.dataset``.
        processing_class: a tokenizer to use instead of the model's own.
    """
    from trl import SFTConfig as TRLSFTConfig
    from trl import SFTTrainer

    from hat_env.train.cards import base_model_of, with_model_card
    from hat_env.train.data import load_sft_dataset

    set_threads(cfg.training)
    model = ensure_model(cfg.model)
    ds = train_dataset if train_dataset is not None else load_sft_dataset(cfg.dataset)
    eval_ds = load_sft_dataset(cfg.eval_dataset) if cfg.eval_dataset else None
    own: dict[str, Any] = {"assistant_only_loss": cfg.assistant_only_loss, "max_length": cfg.max_length,
                           "model_init_kwargs": model_init_kwargs(cfg.model) or None}
    if eval_ds is not None:  # evaluate at every checkpoint unless training.extra says otherwise
        for key, value in (("eval_strategy", "steps"), ("eval_steps", cfg.training.save_steps)):
            if key not in cfg.training.extra:
                own[key] = value
    args = trl_args(TRLSFTConfig, cfg.training, own)
    if processing_class is None:
        from transformers import AutoTokenizer

        processing_class = AutoTokenizer.from_pretrained(model)
    trainer = with_model_card(SFTTrainer)(
        model=model,
        args=args,
        train_dataset=ds,
        eval_dataset=eval_ds,
        processing_class=processing_class,
        peft_config=lora_config(cfg.lora),
        callbacks=stage_callbacks(cfg.training.output_dir, "sft", callbacks),
    )
    trainer.hat_card = {"base": base_model_of(cfg.model), "start": cfg.model.path, "stage": "sft",
                        "trainer": "SFTTrainer", "dataset": cfg.dataset}
    return trainer


def run_sft(cfg: "SFTConfig", callbacks: list[Any] | None = None, train_dataset: Any = None,
            processing_class: Any = None) -> dict[str, Any]:
    """Train, resuming from the latest checkpoint when configured; save ``final/``; return the summary."""
    trainer = build_trainer(cfg, callbacks, train_dataset, processing_class)
    resume = resolve_resume(cfg.training)
    trainer.train(resume_from_checkpoint=resume)
    return finish(trainer, cfg.training.output_dir, "sft", {"resumed_from": resume, "examples": len(trainer.train_dataset)})
