"""Stage 3, HSA-RL: GRPO against the live-room simulator, with the LiveQA environment as TRL's
``environment_factory``.

Tasks are LiveQA requests (a viewer comment at a seeded moment of a session, with its room state). HSA is applied
*before* rollouts: for every harness state of a scenario, ``hsa.variants`` augmented harnesses are drawn (seeded),
and each task runs under the original harness (probability ``1 - hsa.share``) or one of its variants. TRL exposes
an environment's public methods as the model's tools, so every harness variant gets its own environment class,
generated here, whose methods are that harness's tools (its own names, the skill-loading tool included). A
method call goes through the harness runtime exactly as in evaluation: argument validation against the
variant's schema, hooks, the sandboxed backend with its faults, the variant's result encoding. The prompt of a
task is the variant's own system prompt and the viewer's comment, and the tool schemas the model reads are the
variant's own OpenAI schemas (installed in place of TRL's docstring-derived ones).

Rewards are the simulator rubric's components of the finished request (the same scores ``hat-env bench``
reports): ``accuracy``, ``effectiveness``, ``tool_rationality``, ``skill_selection``, minus a ``length_penalty``
on generated tokens, weighted by ``rewards`` in the config (GRPO ``reward_weights``; the composite is logged
with weight 0). The accuracy reward is gated by effectiveness (``accuracy_gate``, :func:`rubric_rewards`): the
rubric's accuracy alone is 1 for a reply that asserts nothing, which GRPO exploits by saying nothing. Defaults follow the paper's recipe where TRL has it: per-reward normalisation (GDPO,
``multi_objective_aggregation: normalize_then_sum``) and sequence-level importance sampling (GSPO,
``importance_sampling_level: sequence``). ``credit.mode: segment`` gives tool-call turns and the reply separate
advantages (:mod:`hat_env.train.credit`).

For one's own TRL script, :func:`live_qa_tasks` and :func:`rubric_rewards` give the dataset, the
``environment_factory`` and the reward functions a plain ``trl.GRPOTrainer`` takes (docs/training.md).

A reply the harness blocks (a hook denial) ends the rollout anyway, since TRL's tool loop has no further turn: it is
scored as sent, so the rubric's skill-selection, constraint and compliance components register what the hook
caught.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

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
from hat_env.train.envtools import BoundHarnessTool, HarnessTool, NotATool

__all__ = ["REWARD_COMPONENTS", "BoundHarnessTool", "HarnessTool", "LiveQAToolEnv", "NotATool", "TaskSet",
           "build_tasks", "build_trainer", "draw_tasks", "environment_class", "final_reply", "live_qa_tasks",
           "reward_functions", "rubric_rewards", "run_rl"]

if TYPE_CHECKING:
    from hat_env.harness.core import Harness
    from hat_env.sim.scenario import Scenario
    from hat_env.train.config import LengthPenaltyOptions, RewardWeights, RLConfig, RLHSAOptions, TaskOptions

#: Rubric components used as rewards, in reward-function order.
REWARD_COMPONENTS: tuple[str, ...] = ("accuracy", "effectiveness", "tool_rationality", "skill_selection")



# -- the environment ---------------------------------------------------------------------------------------


class LiveQAToolEnv:
    """Base of the generated environment classes: one LiveQA request per rollout.

    Subclasses (:func:`environment_class`) set ``harness`` and ``scenario`` and add one method per harness tool.
    TRL calls ``reset(**row)`` before each rollout, the tool methods while the model calls tools, and the reward
    functions read :meth:`finalize`.
    """

    harness: "Harness"
    scenario: "Scenario"
    variant: str = ""

    def __init__(self) -> None:
        self.env: Any = None
        self.scores: dict[str, Any] | None = None
        self.blocked = False
        self.n_calls = 0
        self.task: dict[str, Any] = {}

    def reset(self, task: str | dict[str, Any] | None = None, **_: Any) -> None:
        """Open the task's request (``task``: the JSON of ``{"seed", "case"}``); the prompt is already in the row."""
        from hat_env.envs.live_qa import LiveQAEnv

        self.task = json.loads(task) if isinstance(task, str) else dict(task or {})
        if self.env is not None and self.env.session is not None:
            self.env.session.finish()
        self.env = LiveQAEnv(self.scenario, harness=self.harness)
        self.env.reset(seed=int(self.task.get("seed", 0)), options={"case": self.task.get("case")})
        self.scores = None
        self.blocked = False
        self.n_calls = 0
        return None

    # -- tools -------------------------------------------------------------------------------------------
    def _call(self, name: str, arguments: dict[str, Any]) -> str:
        s = self.env.session if self.env is not None else None
        if s is None or s.loop is None or self.scores is not None:
            return json.dumps({"error": "this request is over: write the reply now"})
        self.n_calls += 1
        loop = s.loop
        n0 = len(loop.messages)
        call = {"id": f"call_{self.n_calls}", "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments, ensure_ascii=False)}}
        _obs, _r, done, _t, info = self.env.step({"content": "", "tool_calls": [call]})
        if done:  # the turn limit ran out: the fallback reply went out
            self.scores = info.get("scores")
            return json.dumps({"error": "turn limit reached: the fallback reply was sent"})
        added = loop.messages[n0:]
        texts = [str(m.get("content", "")) for m in added if m.get("role") in ("tool", "user")]
        return "\n".join(texts) if texts else ""

    # -- scoring -----------------------------------------------------------------------------------------
    def finalize(self, completion: Any) -> dict[str, Any]:
        """Send the rollout's reply (its last assistant text) and score the request once; returns the scores
        ``{"composite", "components", "failed"}`` from the scenario's rubric."""
        if self.scores is not None:
            return self.scores
        reply = final_reply(completion)
        s = self.env.session
        loop = s.loop
        _obs, _r, done, _t, info = self.env.step(reply)
        if done:
            self.scores = info["scores"]
        else:  # blocked by a hook and no turn left in the rollout: score the reply as sent
            self.blocked = True
            self.scores = s.score(loop.close(reply), loop.harness)
            s.finish()
        return self.scores


def final_reply(completion: Any) -> str:
    """The reply of a rollout: the content of its last assistant message without tool calls ("" if none)."""
    if isinstance(completion, str):
        return completion
    for m in reversed(list(completion or [])):
        if m.get("role") == "assistant":
            if m.get("tool_calls"):
                return ""
            return str(m.get("content") or "")
    return ""


def environment_class(harness: "Harness", scenario: "Scenario", variant: str) -> type[LiveQAToolEnv]:
    """A :class:`LiveQAToolEnv` subclass whose public functions are ``harness``'s tools (skill tool included),
    each carrying the harness's own OpenAI schema (:class:`HarnessTool`); ``finalize`` is hidden from TRL's tool
    list (:class:`NotATool`).

    Raises:
        ValueError: a tool name would shadow the environment's own members (``reset``, ``finalize``).
    """
    members: dict[str, Any] = {"harness": harness, "scenario": scenario, "variant": variant,
                               "finalize": NotATool(LiveQAToolEnv.finalize)}
    for schema in harness.openai_tools:
        name = schema["function"]["name"]
        if name in ("reset", "finalize", "get_reward") or hasattr(LiveQAToolEnv, name):
            raise ValueError(f"tool name {name!r} clashes with the environment's own members")
        members[name] = HarnessTool(schema)
    safe = "".join(c if c.isalnum() else "_" for c in variant)
    return type(f"LiveQA_{safe}", (LiveQAToolEnv,), members)


# -- tasks ---------------------------------------------------------------------------------------------------


@dataclass
class TaskSet:
    """The RL tasks: dataset rows, the environment class of each variant, and a summary."""

    rows: list[dict[str, Any]]
    classes: dict[str, type[LiveQAToolEnv]]
    summary: dict[str, Any]

    def dataset(self) -> Any:
        """The rows as a ``datasets.Dataset`` (``prompt`` messages, ``environment``, ``task`` JSON string)."""
        import datasets

        return datasets.Dataset.from_list(self.rows)

    def factories(self) -> dict[str, Callable[[], LiveQAToolEnv]]:
        """``environment_factory`` for ``GRPOTrainer``: variant name -> class."""
        return dict(self.classes)

    def tool_schemas(self) -> dict[str, list[dict[str, Any]]]:
        """Variant name -> the harness's own OpenAI tool schemas."""
        return {k: c.harness.openai_tools for k, c in self.classes.items()}


def _case_of(req: Any) -> dict[str, Any]:
    return {
        "request_id": req.request_id,
        "t": req.t,
        "comments": [{"viewer_id": c.viewer_id, "viewer": c.viewer_name, "persona": c.persona, "text": c.text,
                      "intents": [i.to_dict() for i in c.intents]} for c in req.comments],
    }


def build_tasks(cfg: "RLConfig") -> TaskSet:
    """Draw the tasks and the harness variants of ``cfg`` (seeded: the same config gives the same tasks)."""
    return draw_tasks(cfg.tasks, cfg.hsa)


def live_qa_tasks(scenarios: list[str] | tuple[str, ...] = ("beauty_zh",), episodes: int = 64, *,
                  harness: str | None = None, personas: list[str] | None = None, hsa_share: float = 0.0,
                  hsa_variants: int = 4, hsa_dims: str | list[str] = "all", hsa_strength: float = 1.0,
                  hsa_family: str = "train", seed: int = 0) -> TaskSet:
    """LiveQA tasks for one's own ``trl.GRPOTrainer`` (what the ``rl`` stage's ``tasks`` and ``hsa`` draw).

    Args:
        scenarios: built-in scenario names or scenario YAML paths.
        episodes: requests per scenario.
        harness: a harness pack replacing the scenarios' own (a folder, ``default``, or ``compact``).
        personas: restrict the requests to these viewer personas.
        hsa_share: share of tasks run under an HSA variant of their harness.
        hsa_variants: variants drawn per harness state.
        hsa_dims: HSA dimensions (``"all"`` or a list).
        hsa_strength: probability of each elementary edit.
        hsa_family: vocabulary family (``train`` for training).
        seed: draws the requests and the variants.

    Returns:
        A :class:`TaskSet`: ``.dataset()`` for ``train_dataset``, ``.factories()`` for ``environment_factory``.

    Raises:
        pydantic.ValidationError: an argument out of range (the message names it).
    """
    from hat_env.train.config import RLHSAOptions, TaskOptions

    t = TaskOptions(scenarios=list(scenarios), harness=harness, episodes=episodes, personas=personas, seed=seed)
    h = RLHSAOptions(share=hsa_share, variants=hsa_variants, dims=hsa_dims, strength=hsa_strength,
                     family=hsa_family)  # type: ignore[arg-type]
    return draw_tasks(t, h)


def draw_tasks(t: "TaskOptions", h: "RLHSAOptions") -> TaskSet:
    """Draw the tasks of ``t`` and their harness variants ``h`` (seeded)."""
    from hat_env.envs.live_qa import LiveQAEnv, draw_request
    from hat_env.envs.session import LiveSession
    from hat_env.hsa import augment
    from hat_env.sim.scenario import load_scenario
    from hat_env.train.catalog import harness_path

    pack = harness_path(t.harness)
    rows: list[dict[str, Any]] = []
    classes: dict[str, type[LiveQAToolEnv]] = {}
    pools: dict[str, list[tuple[str, "Harness"]]] = {}
    n_aug = 0
    for si, name in enumerate(t.scenarios):
        sc = load_scenario(name)
        flat = sc.model_copy(update={"harness_timeline": []})
        if pack is not None:  # a replacing pack: the scenario's timeline patches name its own harness
            sc = flat
        for j in range(t.episodes):
            seed = t.seed * 1_000_003 + si * 10_007 + j
            s = LiveSession(sc, seed=seed, viewers=False, max_history=0, harness=pack)
            req = draw_request(s, seed, t.personas)
            s.open_request(req)
            base = s.loop.harness  # the harness in force at the request's moment (timeline applied)
            s.finish()
            key = f"{sc.name}:{base.hash[:10]}"
            if key not in pools:
                pool = [("orig", base)]
                for k in range(h.variants):
                    v, _m = augment(base, random.Random(f"{t.seed}:{key}:{k}"), h.dims, h.strength, h.family)
                    pool.append((f"v{k}", v))
                pools[key] = pool
            rng = random.Random(f"{t.seed}:{si}:{j}:variant")
            aug = h.share > 0 and rng.random() < h.share
            tag, harness = pools[key][1 + rng.randrange(h.variants)] if aug else pools[key][0]
            n_aug += int(aug)
            env_name = f"{key}:{tag}"
            if env_name not in classes:
                classes[env_name] = environment_class(harness, flat, env_name)
            case = _case_of(req)
            probe = LiveQAEnv(flat, harness=harness)
            _obs, info = probe.reset(seed=seed, options={"case": case})
            prompt = [{"role": m["role"], "content": str(m.get("content") or "")} for m in info["messages"]]
            probe.close()
            rows.append({"prompt": prompt, "environment": env_name,
                         "task": json.dumps({"seed": seed, "case": case}, ensure_ascii=False)})
    summary = {"tasks": len(rows), "augmented": n_aug, "environments": len(classes),
               "harness_states": len(pools)}
    return TaskSet(rows, classes, summary)


# -- rewards -------------------------------------------------------------------------------------------------


def component_reward(name: str, gate: str | None = None) -> Callable[..., list[float | None]]:
    """A GRPO reward function returning the rubric component ``name`` of each rollout (``composite``: the
    composite / 100).

    Args:
        name: a rubric component, or ``composite``.
        gate: another component the value is multiplied by (``effectiveness`` for the gated accuracy: a reply
            earns its accuracy only as far as it answers); ``None``: the component as the rubric scores it.

    Returns:
        ``reward(prompts, completions, environments, **kw) -> list[float | None]`` named ``name`` (``None`` for
        a rollout whose scores lack the component). Raises ``ValueError`` when called without environments.
    """

    def reward(prompts: Any = None, completions: Any = None, environments: Any = None, **_: Any) -> list[float | None]:
        if environments is None:
            raise ValueError("the rubric rewards need the environments (GRPOTrainer environment_factory)")
        out: list[float | None] = []
        for env, comp in zip(environments, completions):
            sc = env.finalize(comp)
            v = sc["components"].get(name) if name != "composite" else sc["composite"] / 100.0
            if v is not None and gate is not None:
                g = sc["components"].get(gate)
                v = None if g is None else v * g
            out.append(None if v is None else float(v))
        return out

    reward.__name__ = name
    return reward


def generated_tokens(completion: Any, count: Callable[[str], int]) -> int:
    """Tokens the model wrote in a rollout: assistant contents, reasoning and tool calls (tool results excluded)."""
    if isinstance(completion, str):
        return count(completion)
    n = 0
    for m in completion or []:
        if m.get("role") != "assistant":
            continue
        for key in ("content", "reasoning_content", "reasoning"):
            if m.get(key):
                n += count(str(m[key]))
        for tc in m.get("tool_calls") or []:
            fn = tc.get("function", tc)
            n += count(json.dumps({"name": fn.get("name"), "arguments": fn.get("arguments")}, ensure_ascii=False))
    return n


def length_penalty_reward(count: Callable[[str], int], free_tokens: int, max_tokens: int) -> Callable[..., list[float]]:
    """``-penalty``: 0 up to ``free_tokens`` generated tokens, -1 at ``max_tokens`` and beyond, linear between."""

    def length_penalty(prompts: Any = None, completions: Any = None, **_: Any) -> list[float]:
        out = []
        for comp in completions:
            n = generated_tokens(comp, count)
            out.append(-min(1.0, max(0.0, (n - free_tokens) / (max_tokens - free_tokens))))
        return out

    return length_penalty


def reward_functions(cfg: "RLConfig", tokenizer: Any) -> tuple[list[Callable[..., Any]], list[float]]:
    """The reward functions and their weights of ``cfg`` (see :func:`rubric_rewards`)."""
    return rubric_rewards(tokenizer, cfg.rewards, cfg.length_penalty, accuracy_gate=cfg.accuracy_gate)


def rubric_rewards(tokenizer: Any = None, weights: "RewardWeights | dict[str, float] | None" = None,
                   length_penalty: "LengthPenaltyOptions | dict[str, int] | None" = None,
                   accuracy_gate: str = "effectiveness") -> tuple[list[Callable[..., Any]], list[float]]:
    """The simulator rubric's rewards for ``trl.GRPOTrainer(reward_funcs=...)`` and ``GRPOConfig(reward_weights=...)``.

    Each function reads the scores of the rollout's environment (a :class:`LiveQAToolEnv` from
    :meth:`TaskSet.factories`), which sends the reply and scores the request once.

    Args:
        tokenizer: counts the generated tokens for the length penalty; ``None`` leaves the penalty out.
        weights: ``accuracy``, ``effectiveness``, ``tool_rationality``, ``skill_selection``, ``length_penalty``
            (defaults: 1, 1, 0.5, 0.5, 0.2); a zero weight leaves that reward out.
        length_penalty: ``free_tokens`` (default 256) and ``max_tokens`` (default 1024).
        accuracy_gate: ``effectiveness`` (default): the ``accuracy`` reward is accuracy x effectiveness, as
            tau2-bench multiplies its reward terms: the rubric's accuracy is 1 for a reply that asserts nothing
            (an empty reply, a filler line), and GRPO with the raw accuracy learnt to say nothing. Gated, a
            reply earns nothing for being harmless, and an empty or filler reply to a question ranks below a
            right answer and no higher than a wrong one after a lookup. ``none``: the raw accuracy.

    Returns:
        ``(reward functions, weights)``, the functions named after their reward (how TRL logs them:
        ``rewards/accuracy/mean`` ...), the composite last with weight 0 (logged, not trained on).
    """
    from hat_env.train.config import LengthPenaltyOptions, RewardWeights

    w = weights if isinstance(weights, RewardWeights) else RewardWeights(**(weights or {}))
    lp = length_penalty if isinstance(length_penalty, LengthPenaltyOptions) else LengthPenaltyOptions(
        **(length_penalty or {}))
    funcs: list[Callable[..., Any]] = []
    out: list[float] = []
    if accuracy_gate not in ("effectiveness", "none"):
        raise ValueError(f"accuracy_gate must be 'effectiveness' or 'none', not {accuracy_gate!r}")
    for name in REWARD_COMPONENTS:
        if getattr(w, name) > 0:
            gate = "effectiveness" if name == "accuracy" and accuracy_gate == "effectiveness" else None
            funcs.append(component_reward(name, gate))
            out.append(float(getattr(w, name)))
    if w.length_penalty > 0 and tokenizer is not None:
        def count(text: str) -> int:
            return len(tokenizer(text, add_special_tokens=False)["input_ids"])

        funcs.append(length_penalty_reward(count, lp.free_tokens, lp.max_tokens))
        out.append(float(w.length_penalty))
    funcs.append(component_reward("composite"))
    out.append(0.0)
    return funcs, out


# -- the trainer ---------------------------------------------------------------------------------------------


def build_trainer(cfg: "RLConfig", callbacks: list[Any] | None = None, tasks: TaskSet | None = None,
                  eval_tasks: TaskSet | None = None) -> tuple[Any, TaskSet]:
    """The configured ``GRPOTrainer`` (:class:`~hat_env.train.credit.SegmentGRPOTrainer` with
    ``credit.mode: segment``) and its tasks (not yet trained).

    Args:
        cfg: the RL stage config.
        callbacks: extra ``TrainerCallback`` objects.
        tasks: tasks to use instead of drawing ``cfg.tasks``.
        eval_tasks: held-out tasks for TRL's evaluation (``trainer.evaluate()``, or during training with
            ``training.extra: {eval_strategy: steps, eval_steps: N}``); their environments join the factory.
    """
    from transformers import AutoTokenizer
    from trl import GRPOConfig, GRPOTrainer

    from hat_env.train.cards import base_model_of, with_model_card

    set_threads(cfg.training)
    model = ensure_model(cfg.model)
    tasks = tasks or build_tasks(cfg)
    tok = AutoTokenizer.from_pretrained(model)
    funcs, weights = reward_functions(cfg, tok)
    args = trl_args(GRPOConfig, cfg.training, {
        "num_generations": cfg.num_generations,
        "max_completion_length": cfg.max_completion_length,
        "max_tool_calling_iterations": cfg.max_tool_calling_iterations,
        "temperature": cfg.temperature,
        "beta": cfg.beta,
        "importance_sampling_level": cfg.importance_sampling_level,
        "loss_type": cfg.loss_type,
        "multi_objective_aggregation": cfg.multi_objective_aggregation,
        "reward_weights": weights,
        "model_init_kwargs": model_init_kwargs(cfg.model) or None,
        **cfg.vllm_kwargs(),
    })
    kw: dict[str, Any] = {}
    if cfg.credit.mode == "segment":
        from hat_env.train.credit import segment_trainer_class

        names = {f.__name__ for f in funcs}
        cls = segment_trainer_class()
        kw["segments"] = {seg: [n for n in getattr(cfg.credit, seg) if n in names] for seg in ("tool", "reply")}
    else:
        cls = GRPOTrainer
    factories = tasks.factories()
    if eval_tasks is not None:
        factories.update(eval_tasks.factories())
    trainer = with_model_card(cls)(
        model=model,
        reward_funcs=funcs,
        args=args,
        train_dataset=tasks.dataset(),
        eval_dataset=eval_tasks.dataset() if eval_tasks is not None else None,
        processing_class=tok,
        environment_factory=factories,
        peft_config=lora_config(cfg.lora),
        callbacks=stage_callbacks(cfg.training.output_dir, "rl", callbacks),
        **kw,
    )
    trainer.hat_card = {"base": base_model_of(cfg.model), "start": cfg.model.path, "stage": "rl",
                        "trainer": cls.__name__,
                        "dataset": f"LiveQA tasks of {', '.join(cfg.tasks.scenarios)} ({tasks.summary['tasks']})"}
    return trainer, tasks


def run_rl(cfg: "RLConfig", callbacks: list[Any] | None = None) -> dict[str, Any]:
    """Train, resuming when configured; save ``final/``; return the summary."""
    trainer, tasks = build_trainer(cfg, callbacks)
    resume = resolve_resume(cfg.training)
    trainer.train(resume_from_checkpoint=resume)
    return finish(trainer, cfg.training.output_dir, "rl", {"resumed_from": resume, "tasks": tasks.summary})
