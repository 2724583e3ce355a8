"""HSA-RL with a learning signal: GRPO from an SFT warm start on the compact harness, separate credit for
tool-call turns and the reply, and the own-script example of docs/training.md, on the CPU with the tiny model.
Figures are read from the trainer's own logs and state."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import pytest

from hat_env.train.config import DataConfig, RLConfig, SFTConfig

ROOT = Path(__file__).resolve().parents[1]
PERSONAS = ["price_asker", "chit_chat"]


@pytest.fixture(scope="module")
def warm(tiny_model: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The tiny model after a short SFT on compact-harness teacher data (price questions and chit-chat): it
    answers some requests right and others not, so rollouts of one prompt score differently."""
    import torch

    from hat_env.train.data import run_data
    from hat_env.train.sft import run_sft

    torch.set_num_threads(2)
    tmp = tmp_path_factory.mktemp("warm")
    run_data(DataConfig.model_validate({
        "output_dir": str(tmp / "data"), "hsa": {"share": 0.0},
        "sources": [{"kind": "qa", "scenario": "electronics_en", "harness": "compact", "episodes": 40,
                     "personas": PERSONAS}]}), quiet=True)
    summary = run_sft(SFTConfig.model_validate({
        "model": {"path": str(tiny_model)}, "dataset": str(tmp / "data"), "max_length": 1024,
        "training": {"output_dir": str(tmp / "sft"), "use_cpu": True, "max_steps": 40, "learning_rate": 2e-3,
                     "lr_scheduler_type": "constant", "per_device_train_batch_size": 4, "logging_steps": 10,
                     "save_steps": 1000, "resume_from_checkpoint": None}}))
    return str(summary["final_model"])


# -- separate credit: the pieces ---------------------------------------------------------------------------


def test_turns_of_a_rollout_get_their_own_advantage() -> None:
    from hat_env.train.credit import token_credit, turn_kinds, turn_spans

    mask = [1, 1, 1, 0, 0, 1, 1, 0, 0, 0]  # a tool call, its tool result (0s), the reply, padding
    completion = [{"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "f"}}]},
                  {"role": "tool", "content": "{}"}, {"role": "assistant", "content": "ok"}]
    assert turn_spans(mask) == [(0, 3), (5, 7)]
    assert turn_kinds(completion) == ["tool", "reply"]
    assert token_credit(["tool", "reply"], [(0, 3), (5, 7)], 0.5, -2.0, 10) == \
        [0.5, 0.5, 0.5, 0.0, 0.0, -2.0, -2.0, 0.0, 0.0, 0.0]
    # a direct reply carries both advantages (it was the decision not to call); so does a rollout cut after a call
    assert token_credit(["reply"], [(0, 2)], 0.5, -2.0, 3) == [-1.5, -1.5, 0.0]
    assert token_credit(["tool", "tool"], [(0, 1), (2, 3)], 0.5, -2.0, 3) == [0.5, 0.0, -1.5]
    assert token_credit(["tool", "reply"], [(0, 3)], 0.5, -2.0, 3) is None  # turns and messages disagree


def test_group_advantages_are_trls_formula_on_a_subset_of_rewards() -> None:
    import torch

    from hat_env.train.credit import group_advantages

    r = torch.tensor([[1.0, 0.0], [0.0, 0.0], [1.0, 1.0], [1.0, float("nan")]])
    w = torch.tensor([1.0, 0.5])
    only_first = group_advantages(r, w, [0], 2, "sum_then_normalize", "group")
    # groups of 2: (1, 0) -> (+0.5, -0.5) / (sample std 0.7071 + 1e-4); (1, 1) -> 0
    assert only_first[2] == only_first[3] == 0
    assert torch.allclose(only_first[:2], torch.tensor([0.5, -0.5]) / (0.5 ** 0.5 + 1e-4), atol=1e-4)
    both = group_advantages(r, w, [0, 1], 2, "normalize_then_sum", "group")
    assert torch.isfinite(both).all() and both[0] > both[1]


# -- GRPO with a signal ------------------------------------------------------------------------------------


def test_grpo_from_a_warm_start_has_advantages_and_gradients(warm: str, tmp_path: Path) -> None:
    import torch

    from hat_env.train.credit import group_advantages
    from hat_env.train.rl import build_trainer

    cfg = RLConfig.model_validate({
        "model": {"path": warm},
        "tasks": {"scenarios": ["electronics_en"], "harness": "compact", "episodes": 8, "personas": PERSONAS,
                  "seed": 2},
        "hsa": {"share": 0.5, "variants": 2}, "num_generations": 4, "max_completion_length": 48,
        "max_tool_calling_iterations": 2, "temperature": 1.0, "credit": {"mode": "segment"},
        "length_penalty": {"free_tokens": 32, "max_tokens": 48},
        "training": {"output_dir": str(tmp_path), "use_cpu": True, "max_steps": 2, "learning_rate": 1e-4,
                     "per_device_train_batch_size": 8, "logging_steps": 1, "save_steps": 1000,
                     "resume_from_checkpoint": None}})
    trainer, _tasks = build_trainer(cfg)
    trainer.train()
    logs = [h for h in trainer.state.log_history if "loss" in h]
    assert len(logs) == 2
    # the rollouts of a prompt scored differently, so advantages and gradients are not zero
    assert min(h["frac_reward_zero_std"] for h in logs) < 1.0
    assert max(h["grad_norm"] for h in logs) > 0.0 and all(math.isfinite(h["grad_norm"]) for h in logs)
    adv = torch.tensor(list(trainer._logs["advantages"]))  # TRL's own advantages of the last batch
    assert adv.abs().max() > 0.1
    # the reply group's advantages were non-zero and every rollout's turns matched its messages
    assert max(h["segments/reply/advantage_std"] for h in logs) > 0.0
    assert all(h["segments/fallback"] == 0.0 for h in logs)
    # the per-group formula, given every reward, is TRL's own advantage of the same batch
    names = trainer.reward_func_names
    rewards = torch.tensor([list(trainer._logs["rewards"][n]) for n in names]).T
    mine = group_advantages(rewards, trainer.reward_weights, list(range(len(names))), cfg.num_generations,
                            cfg.multi_objective_aggregation, "group")
    assert torch.allclose(mine, adv, atol=1e-4)


# -- the own-script example --------------------------------------------------------------------------------


def _doc_example() -> str:
    text = (ROOT / "docs" / "training.md").read_text(encoding="utf-8")
    m = re.search(r"<!-- own-script example -->\s*```python\n(.*?)```", text, re.S)
    assert m, "docs/training.md has no own-script example block"
    return m.group(1)


def test_own_script_example_in_the_docs_runs(warm: str, tmp_path: Path) -> None:
    code = _doc_example()
    assert "GRPOTrainer(" in code and "environment_factory=" in code and "reward_funcs=" in code
    code, n_model = re.subn(r'^model = "[^"]*"', f"model = {warm!r}", code, flags=re.M)
    code, n_out = re.subn(r'output_dir="[^"]*"', f"output_dir={str(tmp_path)!r}", code)
    assert n_model == 1 and n_out == 1
    ns: dict[str, Any] = {}
    exec(compile(code, "docs/training.md", "exec"), ns)  # noqa: S102 - the documentation's own code
    trainer = ns["trainer"]
    logs = [h for h in trainer.state.log_history if "loss" in h]
    assert logs and trainer.state.global_step == logs[-1]["step"]
    assert "rewards/accuracy/mean" in logs[-1] and "rewards/composite/mean" in logs[-1]
    # a plain GRPOTrainer rendered every prompt with the harness variant's own tool schemas
    tasks = ns["tasks"]
    for name, cls in tasks.classes.items():
        got = sorted((dict(t) for t in trainer._env_tools[name]), key=lambda t: t["function"]["name"])
        assert got == sorted(cls.harness.openai_tools, key=lambda t: t["function"]["name"])
