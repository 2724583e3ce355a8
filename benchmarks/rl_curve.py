"""HSA-RL reward curves on the CPU: GRPO from an SFT warm start against the simulator, TRL's one advantage per
rollout ("sequence" credit) side by side with separate credit for tool-call turns and the reply ("segment").

Everything goes through ``hat_env.train``: teacher data (``data``, the compact harness, price questions and
chit-chat in ``electronics_en``), a short SFT of the tiny offline model (``sft``), then one GRPO run per credit
mode from that same checkpoint with the same seed, tasks and steps (``rl``, the rubric's rewards, HSA on half of
the tasks). The figures come from each trainer's own log history: the weighted reward, the rubric composite
and components, tool-call frequency and gradient norm per training step, and TRL's evaluation on the same
held-out tasks (other seeds, the original harness; sampled rollouts scored by the rubric) at the start, every
``--eval-every`` steps and at the end. A training batch holds a few tasks, so its reward mostly says which tasks
were drawn; the held-out evaluation is the curve to read.

    nice -n 10 python benchmarks/rl_curve.py             # all defaults (tens of minutes on 2 shared cores)
    python benchmarks/rl_curve.py --rl-steps 4 --pilot    # a quick look (not saved)
    python benchmarks/rl_curve.py --warm runs/rl_curve/sft  # start from an earlier run's SFT warm start

The recorded run (``benchmarks/results/rl_curve-2026-12-01.md`` has its exact commands) needs three things the
first attempts lacked: room for the tool results (``--max-completion``: TRL counts the tool results it inserts
against ``max_completion_length`` and drops one that does not fit, so with 64 no tool-calling rollout could
reply), a warm start that calls tools (``--personas price_asker``: every request needs a lookup), and no reward
for silence (the rubric's accuracy is 1 for a reply that asserts nothing, and GRPO from a warm start that rarely
answers learnt to say nothing; those runs used ``--weights accuracy=0``, the RL stage now gates accuracy by
effectiveness, ``--accuracy-gate``). The spread of the held-out reward across tasks and
its paired change from the first evaluation to the last are recorded with the curve (:func:`task_spread`).

The price-question runs (``rl_curve-2026-12-01-price*.md``) found three more: the SFT ``max_length`` must hold
the reply after the lookup (``--sft-max-length``, default 1536: a compact price example reaches ~1,400 tokens),
the warm start must copy the viewer's link number into its lookup (measured before RL by ``--link-probe``,
:mod:`_link_probe`; ``--call-copies`` and ``--short-copies`` add SFT rows cut after the call, but 450 SFT steps
left it at chance), and GRPO's learning rate must be small (at 3e-4 two updates broke the tool names).

The credit modes train at once, one process and one torch thread each (as the HSA ablation does: faster than
two threads on a busy 2-core machine). Saved: ``benchmarks/results/rl_curve-DATE.{json,md,png}``.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import RESULTS, save  # noqa: E402

SCENARIO = "electronics_en"
PERSONAS = ["price_asker", "chit_chat"]
MODES = ("sequence", "segment")
CURVE_KEYS = ("reward", "rewards/composite/mean", "rewards/accuracy/mean", "rewards/effectiveness/mean",
              "rewards/tool_rationality/mean", "rewards/skill_selection/mean", "rewards/length_penalty/mean",
              "tools/call_frequency", "grad_norm", "frac_reward_zero_std", "completions/mean_length")


def warm_start(work: Path, args: argparse.Namespace) -> tuple[str, dict[str, Any]]:
    """Teacher data and the SFT warm start; returns the checkpoint and the SFT summary."""
    from hat_env.agents.tiny_model import build_tiny_model
    from hat_env.train.config import DataConfig, SFTConfig
    from hat_env.train.data import run_data
    from hat_env.train.sft import run_sft

    run_data(DataConfig.model_validate({
        "output_dir": str(work / "data"), "seed": args.seed, "hsa": {"share": 0.5, "dims": ["tool_schemas"]},
        "sources": [{"kind": "qa", "scenario": SCENARIO, "harness": "compact", "episodes": args.data_episodes,
                     "personas": args.personas.split(",")}]}), quiet=True)
    dataset = str(work / "data")
    if args.call_copies or args.short_copies:
        dataset = str(with_call_copies(work / "data" / "train.jsonl", work / "data" / "mix.jsonl",
                                       int(args.call_copies), args.short_copies))
    start = args.sft_from or str(build_tiny_model(work / "tiny", seed=args.seed))
    s = run_sft(SFTConfig.model_validate({
        "model": {"path": start}, "dataset": dataset, "max_length": args.sft_max_length,
        "training": {"output_dir": str(work / "sft"), "use_cpu": True, "max_steps": args.sft_steps,
                     "learning_rate": args.sft_lr, "lr_scheduler_type": "constant",
                     "per_device_train_batch_size": args.sft_batch,
                     "logging_steps": 10, "save_steps": 100, "resume_from_checkpoint": None,
                     "torch_num_threads": args.threads, "seed": args.seed, "extra": {"disable_tqdm": True}}}))
    return str(s["final_model"]), {"steps": s["global_step"], "first_loss": s["first_loss"],
                                   "last_loss": s["last_loss"], "examples": s.get("examples"), "from": start}


def with_call_copies(src: Path, dst: Path, cut: int = 0, short: int = 0) -> Path:
    """Write ``src``'s SFT rows to ``dst``, followed by copies of each row cut after its first tool call.

    The link number is one token of a ~1,400-token example (system prompt, five tool schemas, the lookup's
    ~460-token result, the reply). A cut copy (~620 tokens) trains that decision again without the result; a
    short copy also keeps only the called tool's schema (~250 tokens), so a step of the same cost sees about four
    times as many link numbers to copy.

    Args:
        src: the data stage's ``train.jsonl``.
        dst: the file to write.
        cut: cut copies per row (all tool schemas kept).
        short: short copies per row (only the called tool's schema).

    Returns:
        ``dst``.
    """
    from hat_env.train.data import read_jsonl

    rows = read_jsonl(src)
    extra = []
    for r in rows:
        msgs = r["messages"]
        i = next((k for k, m in enumerate(msgs) if m.get("role") == "assistant" and m.get("tool_calls")), None)
        if i is None:
            continue
        extra += [{**r, "messages": msgs[: i + 1]}] * cut
        called = {tc["function"]["name"] for tc in msgs[i]["tool_calls"]}
        tools = [t for t in r.get("tools") or [] if t["function"]["name"] in called]
        extra += [{**r, "messages": msgs[: i + 1], "tools": tools}] * short
    dst.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows + extra), encoding="utf-8")
    return dst


def probe_links(model: str, args: argparse.Namespace) -> dict[str, Any]:
    """The warm start's right-link rates on held-out price tasks (:func:`_link_probe.link_copy`)."""
    import torch

    from _link_probe import link_copy
    from hat_env.train.rl import live_qa_tasks

    torch.set_num_threads(args.threads)
    held = live_qa_tasks([SCENARIO], args.link_probe, harness="compact", personas=["price_asker"],
                         seed=args.seed + 101)
    return link_copy(model, held.rows, held.tool_schemas(), samples=args.generations,
                     temperature=args.temperature, seed=args.seed)


def parse_weights(text: str) -> dict[str, float]:
    """``--weights`` (``"accuracy=0,effectiveness=1"``) as the RL config's ``rewards``; names and values are
    checked by the config (an unknown reward is refused there). Empty: the config's defaults."""
    out: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, value = part.partition("=")
        try:
            out[name.strip()] = float(value)
        except ValueError:
            raise SystemExit(f"--weights: '{part}' is not NAME=NUMBER") from None
        if not sep:
            raise SystemExit(f"--weights: '{part}' is not NAME=NUMBER")
    return out


def rl_config(model: str, out: Path, mode: str, args: argparse.Namespace) -> Any:
    """The GRPO run of one credit mode (eval tasks: other seeds, original harness)."""
    from hat_env.train.config import RLConfig

    return RLConfig.model_validate({
        "model": {"path": model},
        "tasks": {"scenarios": [SCENARIO], "harness": "compact", "episodes": args.tasks,
                  "personas": args.personas.split(","),
                  "seed": args.seed},
        "hsa": {"share": 0.5, "variants": 4, "dims": ["tool_schemas"]},
        "num_generations": args.generations, "max_completion_length": args.max_completion,
        "max_tool_calling_iterations": 2,
        "temperature": args.temperature, "credit": {"mode": mode}, "rewards": parse_weights(args.weights),
        "accuracy_gate": args.accuracy_gate,
        "length_penalty": {"free_tokens": args.free_tokens, "max_tokens": args.penalty_tokens},
        "training": {"output_dir": str(out), "use_cpu": True, "max_steps": args.rl_steps, "learning_rate": args.lr,
                     "lr_scheduler_type": "constant", "per_device_train_batch_size": args.batch,
                     "logging_steps": 1, "save_steps": 100000, "resume_from_checkpoint": None, "seed": args.seed,
                     "torch_num_threads": args.threads,
                     "extra": {"disable_tqdm": True, "per_device_eval_batch_size": args.batch,
                               "num_generations_eval": args.generations, "eval_strategy": "steps",
                               "eval_steps": args.eval_every, "eval_on_start": True}}})


EVAL_KEYS = ("eval_reward", "eval_rewards/composite/mean", "eval_rewards/accuracy/mean",
             "eval_rewards/effectiveness/mean", "eval_rewards/tool_rationality/mean", "eval_tools/call_frequency")


def record_eval_rewards(trainer: Any) -> list[dict[str, Any]]:
    """Wrap the trainer's reward functions so that every held-out evaluation keeps each rollout's rewards with
    its task; returns the list the records go to (``{"step", "func", "task", "value"}``, evaluation only).

    TRL logs only the batch mean of an evaluation; these records give the spread across held-out tasks."""
    records: list[dict[str, Any]] = []

    def wrap(fn: Any) -> Any:
        @functools.wraps(fn)
        def recorded(*a: Any, **kw: Any) -> Any:
            out = fn(*a, **kw)
            if not trainer.model.training:
                for task, v in zip(kw.get("task") or [None] * len(out), out):
                    records.append({"step": trainer.state.global_step, "func": fn.__name__, "task": task,
                                    "value": v})
            return out
        return recorded

    trainer.reward_funcs = [wrap(f) if callable(f) and not hasattr(f, "parameters") else f
                            for f in trainer.reward_funcs]
    return records


def task_spread(records: list[dict[str, Any]], weights: dict[str, float]) -> dict[str, Any]:
    """Per held-out evaluation: the weighted reward of each task (mean over its rollouts), their mean, standard
    deviation and standard error across tasks; and the paired change of each task from the first evaluation to
    the last (mean, standard error, tasks up / down)."""
    import statistics

    per: dict[int, dict[str, list[float]]] = {}
    by_func: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for r in records:
        by_func.setdefault((r["step"], r["func"]), []).append(r)
    for (step, func), rows in by_func.items():
        tasks = per.setdefault(step, {})
        for i, r in enumerate(rows):  # every function scores the same rollouts in the same order
            tasks.setdefault(f"{r['task']}#{i}", [0.0])[0] += weights.get(func, 0.0) * (r["value"] or 0.0)
    evals = {}
    for step, rollouts in sorted(per.items()):
        task_rewards: dict[str, list[float]] = {}
        for key, (v,) in rollouts.items():
            task_rewards.setdefault(key.rsplit("#", 1)[0], []).append(v)
        means = {t: sum(v) / len(v) for t, v in task_rewards.items()}
        sd = statistics.stdev(means.values()) if len(means) > 1 else 0.0
        evals[step] = {"tasks": len(means), "mean": round(statistics.fmean(means.values()), 4),
                       "sd": round(sd, 4), "se": round(sd / len(means) ** 0.5, 4),
                       "per_task": {t: round(m, 4) for t, m in means.items()}}
    out: dict[str, Any] = {"evals": [{"step": s, **e} for s, e in evals.items()]}
    if len(evals) > 1:
        first, last = evals[min(evals)]["per_task"], evals[max(evals)]["per_task"]
        d = [last[t] - first[t] for t in first if t in last]
        sd = statistics.stdev(d) if len(d) > 1 else 0.0
        out["change"] = {"from": min(evals), "to": max(evals), "tasks": len(d), "mean": round(statistics.fmean(d), 4),
                         "se": round(sd / len(d) ** 0.5, 4), "up": sum(x > 0 for x in d),
                         "down": sum(x < 0 for x in d)}
    return out


def by_persona(per_task: dict[str, float]) -> dict[str, float]:
    """Mean weighted reward per viewer persona of :func:`task_spread`'s ``per_task`` (keys: the task JSON)."""
    groups: dict[str, list[float]] = {}
    for key, v in per_task.items():
        try:
            persona = json.loads(key)["case"]["comments"][0]["persona"]
        except (ValueError, KeyError, IndexError, TypeError):
            persona = "?"
        groups.setdefault(persona, []).append(v)
    return {p: round(sum(v) / len(v), 3) for p, v in sorted(groups.items())}


def run_mode(model: str, work: Path, mode: str, args: argparse.Namespace) -> dict[str, Any]:
    """Train one credit mode, evaluating on the same held-out tasks (other seeds, original harness) at the start,
    every ``--eval-every`` steps and at the end."""
    from hat_env.train.common import finish
    from hat_env.train.rl import build_trainer, live_qa_tasks

    cfg = rl_config(model, work / f"rl-{mode}", mode, args)
    held = live_qa_tasks([SCENARIO], args.eval_tasks, harness="compact", personas=args.personas.split(","),
                        seed=args.seed + 101)
    t0 = time.perf_counter()
    trainer, _tasks = build_trainer(cfg, eval_tasks=held)
    records = record_eval_rewards(trainer)
    trainer.train()  # the Trainer also evaluates after the last step
    seconds = time.perf_counter() - t0
    finish(trainer, cfg.training.output_dir, "rl")
    hist = trainer.state.log_history
    curve = [{k: h.get(k) for k in ("step", *CURVE_KEYS)} for h in hist if "loss" in h]
    evals = [{"step": h["step"], **{k: h.get(k) for k in EVAL_KEYS}} for h in hist if "eval_reward" in h]
    weights = dict(zip(trainer.reward_func_names, (float(w) for w in trainer.reward_weights.tolist())))
    return {"mode": mode, "curve": curve, "evals": evals, "eval_tasks": len(held.rows),
            "spread": task_spread(records, weights), "seconds": round(seconds, 1)}


def _mean(xs: list[Any]) -> float | None:
    v = [x for x in xs if isinstance(x, (int, float))]
    return round(sum(v) / len(v), 4) if v else None


def summarise(run: dict[str, Any], k: int) -> dict[str, Any]:
    """Means of the first and last ``k`` steps of the curve, per key."""
    c = run["curve"]
    return {key: {"first": _mean([h[key] for h in c[:k]]), "last": _mean([h[key] for h in c[-k:]])}
            for key in CURVE_KEYS}


def plot(runs: dict[str, dict[str, Any]], path: Path, window: int) -> None:
    """Held-out reward and composite at each evaluation, and the training reward per step (thin) with its moving
    average (thick); one colour per credit mode."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 4, figsize=(18, 4))
    for (mode, run), colour in zip(runs.items(), ("tab:blue", "tab:orange")):
        es = [e["step"] for e in run["evals"]]
        for ax, key in zip(axes[:2], ("eval_reward", "eval_rewards/composite/mean")):
            ax.plot(es, [e[key] for e in run["evals"]], "o-", color=colour, linewidth=2, label=f"{mode} credit")
            ax.set_title(f"held-out {key.removeprefix('eval_')}")
            ax.set_xlabel("GRPO step")
        steps = [h["step"] for h in run["curve"]]
        for ax, key in zip(axes[2:], ("reward", "tools/call_frequency")):
            ys = [h[key] if h[key] is not None else float("nan") for h in run["curve"]]
            ax.plot(steps, ys, color=colour, alpha=0.3, linewidth=1)
            avg = [sum(ys[max(0, i - window + 1): i + 1]) / len(ys[max(0, i - window + 1): i + 1])
                   for i in range(len(ys))]
            ax.plot(steps, avg, color=colour, linewidth=2.5, label=f"{mode} credit ({window}-step mean)")
            ax.set_title(f"training {key}")
            ax.set_xlabel("GRPO step")
    axes[0].legend(loc="best", fontsize=8)
    axes[2].legend(loc="best", fontsize=8)
    fig.suptitle("HSA-RL from an SFT warm start (tiny model, CPU)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def markdown(fig: dict[str, Any], stem: str) -> str:
    """The result tables (the reading is written by hand below them)."""
    s = fig["setup"]
    lines = [
        "# HSA-RL reward curves: sequence vs segment credit (tiny model, CPU)", "",
        f"Raw figures: `{stem}.json`; plot: `{stem}.png`. Command: "
        f"`nice -n 15 {fig.get('command', 'python benchmarks/rl_curve.py')}` (see its docstring).", "",
        f"Warm start: the tiny model after {fig['warm_start']['steps']} SFT steps on compact-harness teacher data "
        f"({SCENARIO}, personas {', '.join(s['personas'])}). GRPO: {s['rl_steps']} steps x {s['batch']} rollouts "
        f"({s['generations']} per task), learning rate {s['lr']}, temperature {s.get('temperature', 1.0)}, HSA on half of the tasks; the two "
        f"credit modes from the same checkpoint, seed and tasks. Held-out evaluation every {s['eval_every']} steps: "
        f"{s['eval_tasks']} tasks (other seeds, original harness) x {s['generations']} sampled rollouts, scored by "
        "the rubric.", "",
        "Held-out evaluation (weighted reward / composite / tool calls per rollout):", "",
        "| credit | " + " | ".join(f"step {e['step']}" for e in next(iter(fig["runs"].values()))["evals"]) + " |",
        "| --- | " + " | ".join("---:" for _ in next(iter(fig["runs"].values()))["evals"]) + " |",
    ]
    for mode, run in fig["runs"].items():
        lines.append(f"| {mode} | " + " | ".join(
            f"{_r(e['eval_reward'])} / {_r(e['eval_rewards/composite/mean'])} / {_r(e['eval_tools/call_frequency'])}"
            for e in run["evals"]) + " |")
    first = next(iter(fig["runs"].values()))["evals"]
    lines += ["", "Held-out components (tool_rationality / effectiveness / accuracy reward (x effectiveness unless --accuracy-gate none), means over rollouts):", "",
              "| credit | " + " | ".join(f"step {e['step']}" for e in first) + " |",
              "| --- | " + " | ".join("---:" for _ in first) + " |"]
    for mode, run in fig["runs"].items():
        lines.append(f"| {mode} | " + " | ".join(
            f"{_r(e.get('eval_rewards/tool_rationality/mean'))} / {_r(e.get('eval_rewards/effectiveness/mean'))} / "
            f"{_r(e.get('eval_rewards/accuracy/mean'))}" for e in run["evals"]) + " |")
    lc = fig["warm_start"].get("link_copy")
    if lc:
        lines += ["", f"Warm start's lookups on {lc['tasks']} held-out price tasks (before RL): the viewer's link "
                  f"number in {lc['greedy_right']:.0%} of greedy first turns and {lc['sampled_right']:.0%} of sampled "
                  f"ones (chance: 1 in 6 links); {lc['sampled_call']:.0%} of sampled turns call a tool; "
                  f"{lc['groups_differ']:.0%} of tasks have sampled turns both right and wrong."]
    lines += ["", "Spread across held-out tasks (weighted reward per task, mean of its rollouts: mean ± standard error "
              "across tasks; change: each task's last minus first evaluation, paired):", ""]
    for mode, run in fig["runs"].items():
        sp = run.get("spread") or {}
        ev = " · ".join(f"step {e['step']}: {e['mean']:.3f} ± {e['se']:.3f} (sd {e['sd']:.3f}, {e['tasks']} tasks)"
                        for e in sp.get("evals", []))
        ch = sp.get("change")
        chs = (f"; change {ch['from']}->{ch['to']}: {ch['mean']:+.3f} ± {ch['se']:.3f} ({ch['up']} tasks up, "
               f"{ch['down']} down)") if ch else ""
        lines.append(f"- {mode}: {ev}{chs}")
        lines.append("  - by persona: " + " · ".join(
            f"step {e['step']}: " + ", ".join(f"{p} {v:.3f}" for p, v in by_persona(e["per_task"]).items())
            for e in sp.get("evals", [])))
    lines += ["", f"Training batches (means of the first and last {s['window']} steps):", "",
              "| credit | reward first | last | composite first | last | tool_rationality first | last | "
              "tool calls first | last |", "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for mode in fig["runs"]:
        sm = fig["summary"][mode]
        lines.append(f"| {mode} | " + " | ".join(
            f"{sm[k]['first']} | {sm[k]['last']}" for k in ("reward", "rewards/composite/mean",
                                                           "rewards/tool_rationality/mean", "tools/call_frequency"))
            + " |")
    lines += ["", "Seconds per mode (training and evaluations): " + ", ".join(
        f"{m} {r['seconds']:.0f} s" for m, r in fig["runs"].items()) + f"; whole run {fig['wall_seconds']:.0f} s wall."]
    return "\n".join(lines) + "\n"


def _r(x: Any) -> str:
    return f"{x:.3f}" if isinstance(x, (int, float)) else "-"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sft-steps", type=int, default=150, help="SFT warm-start steps (default 150)")
    ap.add_argument("--data-episodes", type=int, default=160, help="teacher requests for the SFT data")
    ap.add_argument("--sft-from", help="a model folder to continue SFT from instead of a fresh tiny model (e.g. an "
                    "earlier warm start's sft/final: more, more varied examples teach it to copy the link number)")
    ap.add_argument("--sft-lr", type=float, default=2e-3, help="SFT learning rate (default 2e-3)")
    ap.add_argument("--sft-max-length", type=int, default=1536,
                    help="SFT max_length (a compact-harness price example is up to ~1,400 tokens; default 1536)")
    ap.add_argument("--call-copies", action="store_true",
                    help="add to the SFT data a copy of each example cut after its first tool call (trains the "
                    "link-number choice twice as often per second)")
    ap.add_argument("--short-copies", type=int, default=0,
                    help="add N copies of each SFT example cut after its first tool call with only the called "
                    "tool's schema (~250 tokens: many link numbers to copy per second of SFT; default 0)")
    ap.add_argument("--sft-batch", type=int, default=4, help="SFT batch size (default 4)")
    ap.add_argument("--sft-only", action="store_true", help="stop after the warm start (and its link probe)")
    ap.add_argument("--link-probe", type=int, default=16,
                    help="held-out price tasks on which the warm start's lookups are checked for the viewer's link "
                    "number before RL (0: no probe; default 16)")
    ap.add_argument("--rl-steps", type=int, default=40, help="GRPO steps per credit mode (default 40)")
    ap.add_argument("--tasks", type=int, default=120, help="training tasks (default 120)")
    ap.add_argument("--eval-tasks", type=int, default=24, help="held-out tasks drawn (original harness)")
    ap.add_argument("--generations", type=int, default=4, help="rollouts per task (default 4)")
    ap.add_argument("--batch", type=int, default=16, help="rollouts per step (default 16: 4 tasks)")
    ap.add_argument("--lr", type=float, default=5e-5, help="GRPO learning rate (default 5e-5)")
    ap.add_argument("--max-completion", type=int, default=640,
                    help="GRPO max_completion_length: model-written tokens AND the tool results TRL inserts (a "
                    "compact-harness product lookup is ~460 tokens of the tiny tokenizer; TRL drops a tool result "
                    "that does not fit, so below ~600 no tool-calling rollout can reply; default 640)")
    ap.add_argument("--free-tokens", type=int, default=160,
                    help="length penalty: model-written tokens free of penalty (tool results excluded; default 160)")
    ap.add_argument("--penalty-tokens", type=int, default=320,
                    help="length penalty: model-written tokens at the full penalty (default 320)")
    ap.add_argument("--weights", default="",
                    help="reward weights NAME=W,... over the config's defaults (accuracy 1, effectiveness 1, "
                    "tool_rationality 0.5, skill_selection 0.5, length_penalty 0.2); e.g. accuracy=0: the rubric's "
                    "accuracy is 1 for a reply that asserts nothing, so a warm start that rarely answers learns to "
                    "say nothing")
    ap.add_argument("--accuracy-gate", choices=("effectiveness", "none"), default="effectiveness",
                    help="the RL config's accuracy_gate (default effectiveness: accuracy x effectiveness, no reward "
                    "for a reply that says nothing; none: the raw accuracy, as in the 2026-12-01 runs)")
    ap.add_argument("--temperature", type=float, default=1.0, help="sampling temperature of rollouts (default 1)")
    ap.add_argument("--eval-every", type=int, default=10, help="held-out evaluation every N steps (default 10)")
    ap.add_argument("--window", type=int, default=5, help="steps averaged for first/last and the plot")
    ap.add_argument("--threads", type=int, default=1, help="torch threads per process (default 1)")
    ap.add_argument("--modes", default=",".join(MODES), help="credit modes to run")
    ap.add_argument("--personas", default=",".join(PERSONAS),
                    help="viewer personas of the SFT data, training and held-out tasks (comma-separated; default "
                    "price_asker,chit_chat; price_asker alone: every request needs a tool)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--work", default="runs/rl_curve")
    ap.add_argument("--warm", help="an SFT run folder (its final/ and summary.json), or a checkpoint-N folder, "
                    "to start from instead of training the warm start")
    ap.add_argument("--label", help="saved as rl_curve-DATE-LABEL.* (default: rl_curve-DATE.*)")
    ap.add_argument("--pilot", action="store_true", help="do not save results")
    ap.add_argument("--mode", choices=MODES, help=argparse.SUPPRESS)  # child process
    args = ap.parse_args()
    work = Path(args.work)
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    if args.mode:
        import torch

        torch.set_num_threads(args.threads)
        model = (work / "warm.txt").read_text(encoding="utf-8").strip()
        res = run_mode(model, work, args.mode, args)
        (work / f"curve-{args.mode}.json").write_text(json.dumps(res), encoding="utf-8")
        return 0
    t0 = time.perf_counter()
    work.mkdir(parents=True, exist_ok=True)
    if args.warm and (Path(args.warm) / "summary.json").is_file():
        ws = json.loads((Path(args.warm) / "summary.json").read_text(encoding="utf-8"))
        model, sft = str(ws["final_model"]), {"steps": ws["global_step"], "first_loss": ws["first_loss"],
                                              "last_loss": ws["last_loss"]}
    elif args.warm:  # a Trainer checkpoint folder (checkpoint-N): its trainer_state.json has the losses
        st = json.loads((Path(args.warm) / "trainer_state.json").read_text(encoding="utf-8"))
        losses = [h["loss"] for h in st["log_history"] if "loss" in h]
        model, sft = args.warm, {"steps": st["global_step"], "first_loss": losses[0] if losses else None,
                                 "last_loss": losses[-1] if losses else None, "from": args.warm}
    else:
        model, sft = warm_start(work, args)
    (work / "warm.txt").write_text(model, encoding="utf-8")
    print(f"warm start: {sft}", flush=True)
    if args.link_probe:
        sft["link_copy"] = probe_links(model, args)
        print(f"link copy: {sft['link_copy']}", flush=True)
    if args.sft_only:
        return 0
    modes = [m for m in MODES if m in args.modes.split(",")]
    env = {**os.environ, "OMP_NUM_THREADS": str(args.threads)}
    procs = {m: subprocess.Popen([sys.executable, __file__, *sys.argv[1:], "--mode", m], env=env) for m in modes}
    for m, p in procs.items():
        if p.wait() != 0:
            raise SystemExit(f"credit mode {m} failed")
    runs = {m: json.loads((work / f"curve-{m}.json").read_text(encoding="utf-8")) for m in modes}
    summary = {m: summarise(r, args.window) for m, r in runs.items()}
    for m in modes:
        print(m, json.dumps(summary[m]["reward"]), json.dumps([(e["step"], e["eval_reward"]) for e in runs[m]["evals"]]),
              flush=True)
    figures = {
        "setup": {"scenario": SCENARIO, "personas": args.personas.split(","), "harness": "compact", "rl_steps": args.rl_steps,
                  "batch": args.batch, "generations": args.generations, "lr": args.lr, "temperature": args.temperature,
                  "max_completion": args.max_completion, "free_tokens": args.free_tokens,
                  "penalty_tokens": args.penalty_tokens, "weights": parse_weights(args.weights),
                  "accuracy_gate": args.accuracy_gate, "tasks": args.tasks,
                  "eval_tasks": runs[modes[0]]["eval_tasks"], "eval_every": args.eval_every, "window": args.window,
                  "threads": args.threads},
        "warm_start": sft, "runs": runs, "summary": summary, "wall_seconds": round(time.perf_counter() - t0, 1),
    }
    if not args.pilot:
        path = save("rl_curve", figures, label=args.label)
        plot(runs, path.with_suffix(".png"), args.window)
        path.with_suffix(".md").write_text(markdown({**figures, "command": json.loads(path.read_text(encoding="utf-8"))["command"]},
                                                   path.stem), encoding="utf-8")
        print(f"saved {path}")
    else:
        plot(runs, work / "rl_curve.png", args.window)
    return 0


if __name__ == "__main__":
    sys.exit(main())
