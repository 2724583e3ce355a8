"""Separate credit for the tool-call turns and the reply of a rollout (the paper's HSA-RL), on TRL's GRPO.

TRL's ``GRPOTrainer`` gives every token of a rollout one advantage, computed from all reward functions. Its loss
also takes a per-token advantage tensor of shape ``(B, T)`` from subclasses (``GRPOTrainer._compute_loss``: "To
support subclasses that provide advantages with shape (B, T)"), which :class:`SegmentGRPOTrainer` uses:

1. the reward functions are split into two groups, ``tool`` (e.g. ``tool_rationality``, ``skill_selection``) and
   ``reply`` (e.g. ``accuracy``, ``effectiveness``, ``length_penalty``);
2. each group's advantage is computed exactly as TRL computes the whole one, from that group's rewards and
   weights only (``normalize_then_sum``: each reward normalised within its group of generations, the weighted
   sum normalised over the batch; ``sum_then_normalize``: the weighted sum normalised within the group);
3. a rollout's model-written tokens are split into turns at the tool results TRL inserted (its ``tool_mask``);
   a turn that called a tool gets the tool advantage, the reply turn the reply advantage. A rollout that replied
   without calling a tool puts both on its reply (writing the reply was the decision not to call a tool), and
   one that ended without a reply puts both on its last tool-call turn, so every reward reaches some tokens.

Logged besides TRL's metrics: ``segments/tool/advantage_std``, ``segments/reply/advantage_std`` (over rollouts),
``segments/tool_token_share`` (share of trained tokens in tool-call turns) and ``segments/fallback`` (share of
rollouts whose turns could not be matched to its messages; they keep TRL's one advantage).

torch and TRL are imported when :func:`segment_trainer_class` is called (the class is built then).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Sequence


def turn_spans(mask: Sequence[int]) -> list[tuple[int, int]]:
    """``[start, end)`` of each run of 1s in ``mask`` (the model-written turns of one rollout)."""
    spans: list[tuple[int, int]] = []
    start = None
    for i, m in enumerate(mask):
        if m and start is None:
            start = i
        elif not m and start is not None:
            spans.append((start, i))
            start = None
    if start is not None:
        spans.append((start, len(mask)))
    return spans


def turn_kinds(completion: Any) -> list[str]:
    """``"tool"`` or ``"reply"`` for each assistant message of a rollout, in order."""
    if isinstance(completion, str):
        return ["reply"]
    return ["tool" if m.get("tool_calls") else "reply" for m in completion or [] if m.get("role") == "assistant"]


def token_credit(kinds: list[str], spans: list[tuple[int, int]], tool_adv: float, reply_adv: float,
                 length: int) -> list[float] | None:
    """The per-token advantages of one rollout (0 outside its turns; all 0 when no token is trained, e.g. a
    masked truncated completion), or ``None`` when the turns do not match its assistant messages.

    Args:
        kinds: :func:`turn_kinds` of the rollout.
        spans: :func:`turn_spans` of its trained-token mask.
        tool_adv: the tool group's advantage of the rollout.
        reply_adv: the reply group's advantage.
        length: the padded completion length.
    """
    if not spans:
        return [0.0] * length
    if len(kinds) != len(spans):
        return None
    per = [tool_adv if k == "tool" else reply_adv for k in kinds]
    if "tool" not in kinds:
        per[-1] = tool_adv + reply_adv
    elif "reply" not in kinds:
        per[-1] = tool_adv + reply_adv
    out = [0.0] * length
    for (a, b), v in zip(spans, per):
        for t in range(a, b):
            out[t] = v
    return out


def group_advantages(rewards: Any, weights: Any, idx: list[int], num_generations: int, aggregation: str,
                     scale_rewards: str) -> Any:
    """One reward group's advantages over the gathered batch, the way ``GRPOTrainer`` computes its single one.

    Args:
        rewards: ``(N, K)`` rewards of every reward function (NaN where a function returned ``None``).
        weights: ``(K,)`` reward weights.
        idx: the columns of this group.
        num_generations: rollouts per prompt.
        aggregation: ``normalize_then_sum`` or ``sum_then_normalize``.
        scale_rewards: ``group``, ``batch`` or ``none`` (``sum_then_normalize`` only, as in TRL).

    Returns:
        ``(N,)`` advantages, 0 where every reward of the group is NaN.
    """
    import torch
    from trl.trainer.utils import nanstd

    r = rewards[:, idx]
    w = weights[idx].to(r.device)
    unscorable = torch.isnan(r).all(dim=1)
    if aggregation == "normalize_then_sum":
        g = r.view(-1, num_generations, len(idx))
        mean = torch.nanmean(g, dim=1, keepdim=True)
        std = nanstd(g, dim=1, keepdim=True) if num_generations > 1 else torch.zeros_like(mean)
        z = ((g - mean) / (std + 1e-4)).view(-1, len(idx))
        s = (z * w.unsqueeze(0)).nansum(dim=1)
        s[unscorable] = torch.nan
        sd = nanstd(s) if s.numel() > 1 else torch.zeros(())
        adv = (s - torch.nanmean(s)) / (sd + 1e-4)
    else:
        s = (r * w.unsqueeze(0)).nansum(dim=1)
        s[unscorable] = torch.nan
        grouped = s.view(-1, num_generations)
        mean = torch.nanmean(grouped, dim=1).repeat_interleave(num_generations)
        adv = s - mean
        if scale_rewards == "group" and num_generations > 1:
            adv = adv / (nanstd(grouped, dim=1).repeat_interleave(num_generations) + 1e-4)
        elif scale_rewards == "batch" and s.numel() > 1:
            adv = adv / (nanstd(s) + 1e-4)
    return torch.nan_to_num(adv, nan=0.0)


@lru_cache(maxsize=1)
def segment_trainer_class() -> type:
    """:class:`SegmentGRPOTrainer`, built on the installed ``trl.GRPOTrainer``."""
    import torch
    from trl import GRPOTrainer

    class SegmentGRPOTrainer(GRPOTrainer):  # type: ignore[misc, valid-type]
        """``trl.GRPOTrainer`` with separate advantages for tool-call turns and the reply (see
        :mod:`hat_env.train.credit`). Same arguments, plus:

        Args:
            segments: ``{"tool": [reward function names], "reply": [names]}``; names are the reward functions'
                ``__name__`` (how TRL names them in its logs).
        """

        def __init__(self, *args: Any, segments: dict[str, Sequence[str]], **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            names = list(self.reward_func_names)
            self.segment_columns: dict[str, list[int]] = {}
            for seg in ("tool", "reply"):
                wanted = list(segments.get(seg) or [])
                missing = [n for n in wanted if n not in names]
                if missing or not wanted:
                    raise ValueError(f"segments[{seg!r}]: {missing or 'empty'}; reward functions are {names}")
                self.segment_columns[seg] = [names.index(n) for n in wanted]
            self._segment_batch: tuple[Any, list[Any]] | None = None

        def _calculate_rewards(self, inputs: Any, prompts: Any, completions: Any, completion_ids_list: Any) -> Any:
            rewards = super()._calculate_rewards(inputs, prompts, completions, completion_ids_list)
            self._segment_batch = (rewards, list(completions))
            return rewards

        def _generate_and_score_completions(self, inputs: Any) -> dict[str, Any]:
            out = super()._generate_and_score_completions(inputs)
            assert self._segment_batch is not None
            rewards, completions = self._segment_batch
            self._segment_batch = None
            mode = "train" if self.model.training else "eval"
            g = self.num_generations if mode == "train" else self.num_generations_eval
            adv = {seg: group_advantages(rewards, self.reward_weights, cols, g, self.multi_objective_aggregation,
                                         self.scale_rewards)
                   for seg, cols in self.segment_columns.items()}
            n_local = len(completions)
            start = self.accelerator.process_index * n_local
            mask = out["completion_mask"]
            if "tool_mask" in out:
                mask = mask * out["tool_mask"]
            seq = out["advantages"]
            per_token = torch.zeros(mask.shape, dtype=seq.dtype, device=seq.device)
            fallback = 0
            for i in range(n_local):
                row = token_credit(turn_kinds(completions[i]), turn_spans(mask[i].tolist()),
                                   float(adv["tool"][start + i]), float(adv["reply"][start + i]), mask.shape[1])
                if row is None:
                    fallback += 1
                    per_token[i] = seq[i]
                else:
                    per_token[i] = torch.tensor(row, dtype=seq.dtype, device=seq.device)
            out["advantages"] = per_token
            tool_tok = 0
            for i in range(n_local):
                for (a, b), k in zip(turn_spans(mask[i].tolist()), turn_kinds(completions[i])):
                    tool_tok += (b - a) if k == "tool" else 0
            m = self._metrics[mode]
            m["segments/tool/advantage_std"].append(float(adv["tool"].std()))
            m["segments/reply/advantage_std"].append(float(adv["reply"].std()))
            m["segments/tool_token_share"].append(tool_tok / max(1.0, float(mask.sum())))
            m["segments/fallback"].append(fallback / max(1, n_local))
            return out

    return SegmentGRPOTrainer
