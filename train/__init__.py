"""Harness-Aware Training (installed as ``hat_env.train``): HSA-SFT data, SFT, on-policy distillation, HSA-RL.

Stages (``hat-env train STAGE --config FILE``, configs under ``train/configs/``):

- ``data`` (:mod:`hat_env.train.data`): teacher trajectories in the simulator under original and augmented
  harnesses, rubric-filtered, hook retries collapsed; JSONL and a Hugging Face dataset.
- ``sft`` (:mod:`hat_env.train.sft`): TRL ``SFTTrainer`` with assistant-only loss, optional LoRA.
- ``distill`` (:mod:`hat_env.train.distill`): general on-policy distillation from the pre-SFT base model.
- ``rl`` (:mod:`hat_env.train.rl`): GRPO with the LiveQA environment as TRL's ``environment_factory`` and the
  rubric's components as rewards.

Importing this package imports nothing heavy; torch, transformers and TRL load when a stage runs.
"""

STAGES = ("data", "sft", "distill", "rl")

__all__ = ["STAGES"]
