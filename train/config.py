"""Stage configurations for ``hat-env train``: pydantic models read from YAML, with ``key.path=value`` overrides.

(Over 500 lines: the schema of every stage and its loader stay in one module, so that every field, default and
error message of the training configs is in one place and ``--check`` needs nothing else.)

One YAML file configures one stage; its ``stage`` field says which (``data``, ``sft``, ``distill``, ``rl``).
Errors name the file, the dotted field path and the line (:mod:`hat_env.yamlio`); an override that is wrong is
named with ``(override)`` instead of a line. Paths inside a config are relative to the working directory, like
the output folders of the TRL / Hugging Face trainers.

Nothing here imports torch, transformers or TRL: configs can be checked on any machine
(``hat-env train STAGE --config FILE --check``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from hat_env.yamlio import FileError, load_yaml, validate

STAGES: tuple[str, ...] = ("data", "sft", "distill", "rl")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# -- shared pieces -----------------------------------------------------------------------------------------


class HSAOptions(_Strict):
    """Harness-State Augmentation applied to a share of the episodes (see :mod:`hat_env.hsa`).

    Attributes:
        share: share of episodes (0-1) run under an augmented harness; the rest keep the original harness.
        dims: ``"all"`` or a list of HSA dimensions (``skill_ids``, ``skill_content``, ``tool_schemas``,
            ``prompt``, ``constraints``).
        strength: 0-1, the probability of each elementary edit.
        family: vocabulary family. Training data should use ``train``; ``heldout`` is for evaluation.
    """

    share: float = Field(0.5, ge=0.0, le=1.0)
    dims: Union[str, list[str]] = "all"
    strength: float = Field(1.0, ge=0.0, le=1.0)
    family: Literal["train", "heldout"] = "train"

    @field_validator("dims")
    @classmethod
    def _dims(cls, v: Union[str, list[str]]) -> Union[str, list[str]]:
        known = ("skill_ids", "skill_content", "tool_schemas", "prompt", "constraints")
        items = [v] if isinstance(v, str) else list(v)
        if isinstance(v, str) and "," in v:
            items = [x.strip() for x in v.split(",")]
        bad = [d for d in items if d != "all" and d not in known]
        if bad:
            raise ValueError(f"unknown HSA dimension(s) {bad}; valid: {list(known)} or 'all'")
        return v

    def options(self) -> dict[str, Any]:
        """The ``hsa`` options dict sessions and environments take."""
        return {"dims": self.dims, "strength": self.strength, "family": self.family}


class LoraOptions(_Strict):
    """LoRA adapters (peft). ``target_modules``: ``all-linear`` or a list of module names."""

    r: int = Field(16, ge=1)
    alpha: int = Field(32, ge=1)
    dropout: float = Field(0.05, ge=0.0, lt=1.0)
    target_modules: Union[str, list[str]] = "all-linear"


class TrainingOptions(_Strict):
    """Trainer arguments shared by every stage (a subset of ``transformers.TrainingArguments``).

    Attributes:
        output_dir: checkpoints (``checkpoint-N/``), ``metrics.jsonl`` and the final model (``final/``).
        max_steps: optimizer steps; ``-1`` trains ``num_train_epochs`` epochs.
        resume_from_checkpoint: ``"auto"`` resumes from the latest ``checkpoint-N`` in ``output_dir`` when there
            is one (else starts fresh), a path resumes from that checkpoint, ``null`` always starts fresh.
        use_cpu: train on the CPU (the smoke configs); implies no bf16.
        bf16: bfloat16 mixed precision (default: on unless ``use_cpu``).
        report_to: logging integrations (``tensorboard``, ``wandb``, ...); ``metrics.jsonl`` is always written.
        torch_num_threads: ``torch.set_num_threads`` before training (CPU runs).
        extra: more fields of the stage's TRL config class (``trl.SFTConfig``, ``trl.DistillationConfig``,
            ``trl.experimental.gkd.GKDConfig``, ``trl.GRPOConfig``; all ``transformers.TrainingArguments`` fields
            too), passed verbatim and taking precedence over the fields above, e.g. ``{optim: adamw_torch_fused,
            lr_scheduler_kwargs: {min_lr_rate: 0.1}, loss_type: dapo}``. A name the class does not have is refused
            before training starts, naming the field; a field the stage sets from its own top-level option (such
            as ``num_generations``) must be set there.
    """

    output_dir: str
    max_steps: int = -1
    num_train_epochs: float = 1.0
    learning_rate: float = Field(2e-5, gt=0)
    lr_scheduler_type: str = "linear"
    warmup_steps: float = 0
    weight_decay: float = 0.0
    max_grad_norm: float = 1.0
    per_device_train_batch_size: int = Field(1, ge=1)
    gradient_accumulation_steps: int = Field(1, ge=1)
    gradient_checkpointing: bool = False
    logging_steps: int = Field(10, ge=1)
    save_steps: int = Field(500, ge=1)
    save_total_limit: int | None = 2
    seed: int = 0
    use_cpu: bool = False
    bf16: bool | None = None
    report_to: list[str] = Field(default_factory=list)
    resume_from_checkpoint: Union[str, None] = "auto"
    torch_num_threads: int | None = Field(None, ge=1)
    extra: dict[str, Any] = Field(default_factory=dict)

    def trainer_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for a TRL config class (``SFTConfig``, ``GRPOConfig`` ...), without ``extra`` (see
        :func:`hat_env.train.common.trl_args`, which adds it)."""
        bf16 = (not self.use_cpu) if self.bf16 is None else self.bf16
        kw: dict[str, Any] = {
            "output_dir": self.output_dir,
            "max_steps": self.max_steps,
            "num_train_epochs": self.num_train_epochs,
            "learning_rate": self.learning_rate,
            "lr_scheduler_type": self.lr_scheduler_type,
            "warmup_steps": self.warmup_steps,
            "weight_decay": self.weight_decay,
            "max_grad_norm": self.max_grad_norm,
            "per_device_train_batch_size": self.per_device_train_batch_size,
            "gradient_accumulation_steps": self.gradient_accumulation_steps,
            "gradient_checkpointing": self.gradient_checkpointing,
            "logging_steps": self.logging_steps,
            "save_strategy": "steps",
            "save_steps": self.save_steps,
            "save_total_limit": self.save_total_limit,
            "seed": self.seed,
            "use_cpu": self.use_cpu,
            "bf16": bf16 and not self.use_cpu,
            "report_to": list(self.report_to) or "none",
        }
        return kw


class ModelOptions(_Strict):
    """Where the model comes from.

    Attributes:
        path: a local folder (or a hub id where the hub is reachable).
        build_tiny_if_missing: build the tiny offline model (``hat-env make-tiny-model``) at ``path`` when the
            folder does not exist: what the CPU smoke configs use.
        dtype: ``auto``, ``float32``, ``bfloat16`` ...
        base_model: what the trained model's card names as its base: a hub id (``Qwen/Qwen2.5-1.5B-Instruct``)
            or any name. Default: the ``base_model`` of the model card in ``path`` (what the previous stage wrote,
            so the SFT, distillation and RL cards all name the original checkpoint), else ``path``.
    """

    path: str
    build_tiny_if_missing: bool = False
    dtype: str = "auto"
    base_model: str | None = None


# -- data --------------------------------------------------------------------------------------------------


class TeacherOptions(_Strict):
    """The teacher: any agent spec ``make_agent`` accepts (``reference``, ``openai``, ``vllm``, ``module:attr``)."""

    agent: str = "reference"
    kwargs: dict[str, Any] = Field(default_factory=dict)


class SourceOptions(_Strict):
    """Where trajectories come from.

    Attributes:
        kind: ``qa``: single-request episodes at random moments of a session (LiveQA-style); ``session``: whole
            live sessions with viewers, one example per request (with the dialogue history).
        scenario: a built-in scenario name or a scenario YAML path.
        episodes: ``qa`` episodes, or ``session`` sessions.
        duration_s: session length (``session`` only; default: the scenario's).
        personas: restrict ``qa`` requests to these viewer personas.
        harness: a harness pack replacing the scenario's harness: a folder, a built-in pack name, or a pack
            shipped with the training configs (``compact``); the scenario's harness timeline is then not applied
            (its patches name the scenario's own harness).
    """

    kind: Literal["qa", "session"] = "qa"
    scenario: str = "beauty_zh"
    harness: str | None = None
    episodes: int = Field(16, ge=1)
    duration_s: float | None = Field(None, gt=0)
    personas: list[str] | None = None


class FilterOptions(_Strict):
    """The rubric filter (the paper keeps only trajectories that pass the judge).

    A trajectory is kept when its composite (0-100), accuracy (0/1) and effectiveness (0/0.5/1) are all at or
    above these thresholds, and (``drop_fallback``) its reply is not the harness's fallback.
    """

    min_composite: float = Field(80.0, ge=0.0, le=100.0)
    min_accuracy: float = Field(1.0, ge=0.0, le=1.0)
    min_effectiveness: float = Field(0.5, ge=0.0, le=1.0)
    drop_fallback: bool = True


class RetryOptions(_Strict):
    """Hook-retry traces: turns the harness rejected (a blocked reply, unparsable output, an unknown tool, bad
    arguments, a denied or distractor call) are removed, so the example shows only the final behaviour, except
    for ``keep_whole_share`` of those traces, kept whole to teach recovery."""

    keep_whole_share: float = Field(0.1, ge=0.0, le=1.0)


class ExportOptions(_Strict):
    """What to write: ``train.jsonl`` and/or a Hugging Face dataset folder ``hf/`` (``datasets.Json`` columns)."""

    jsonl: bool = True
    hf: bool = True


class DataConfig(_Strict):
    """``hat-env train data``: SFT examples from simulator trajectories of a teacher."""

    stage: Literal["data"] = "data"
    output_dir: str
    seed: int = 0
    teacher: TeacherOptions = Field(default_factory=TeacherOptions)
    sources: list[SourceOptions] = Field(min_length=1)
    hsa: HSAOptions = Field(default_factory=HSAOptions)
    paired: bool = Field(False, description="also keep the original-harness run of every augmented episode")
    filter: FilterOptions = Field(default_factory=FilterOptions)
    retries: RetryOptions = Field(default_factory=RetryOptions)
    max_assistant_turns: int | None = Field(None, ge=1)
    export: ExportOptions = Field(default_factory=ExportOptions)


# -- sft ---------------------------------------------------------------------------------------------------


class SFTConfig(_Strict):
    """``hat-env train sft``: TRL ``SFTTrainer`` on a data-stage dataset, assistant-only loss, optional LoRA."""

    stage: Literal["sft"] = "sft"
    model: ModelOptions
    dataset: str = Field(description="a data-stage output folder, its hf/ folder, or a .jsonl file")
    eval_dataset: str | None = None
    max_length: int | None = Field(8192, ge=16)
    assistant_only_loss: bool = True
    lora: LoraOptions | None = None
    training: TrainingOptions


# -- vLLM generation (distill, rl) -------------------------------------------------------------------------


class VLLMFields(_Strict):
    """vLLM generation for the on-policy stages (TRL's; CUDA only: on the CPU TRL generates with
    ``model.generate``).

    Attributes:
        use_vllm: generate rollouts with vLLM.
        vllm_mode: ``colocate``: vLLM runs inside every training process and shares its GPU
            (``vllm_gpu_memory_utilization`` of it, ``vllm_tensor_parallel_size`` GPUs per engine);
            ``server``: a separate ``trl vllm-serve`` process on GPUs of its own, at ``vllm_server_host`` and
            ``vllm_server_port`` (or ``vllm_server_base_url``), which this stage requires.
        vllm_server_host: host where ``trl vllm-serve`` listens (server mode).
        vllm_server_port: its port (``trl vllm-serve --port``, 8000 by default there).
        vllm_server_base_url: ``http://HOST:PORT`` instead of host and port.
        vllm_server_timeout: seconds to wait for the server to answer before failing.
        vllm_tensor_parallel_size: GPUs per colocated vLLM engine (colocate mode).
    """

    use_vllm: bool = False
    vllm_mode: Literal["colocate", "server"] = "colocate"
    vllm_gpu_memory_utilization: float = Field(0.3, gt=0.0, le=1.0)
    vllm_server_host: str | None = None
    vllm_server_port: int | None = Field(None, ge=1, le=65535)
    vllm_server_base_url: str | None = None
    vllm_server_timeout: float = Field(240.0, gt=0)
    vllm_tensor_parallel_size: int = Field(1, ge=1)

    @model_validator(mode="after")
    def _server_address(self) -> "VLLMFields":
        if self.use_vllm and self.vllm_mode == "server" and not self.vllm_server_base_url and (
                self.vllm_server_host is None or self.vllm_server_port is None):
            missing = [n for n in ("vllm_server_host", "vllm_server_port") if getattr(self, n) is None]
            raise ValueError(
                f"vllm_mode: server needs {' and '.join(missing)}: the address of a running `trl vllm-serve "
                "--model MODEL --host HOST --port PORT` (or give vllm_server_base_url: http://HOST:PORT); "
                "or use vllm_mode: colocate")
        return self

    def vllm_kwargs(self) -> dict[str, Any]:
        """The ``vllm_*`` / ``use_vllm`` fields for a TRL config (server fields only in server mode)."""
        kw: dict[str, Any] = {"use_vllm": self.use_vllm, "vllm_mode": self.vllm_mode,
                              "vllm_gpu_memory_utilization": self.vllm_gpu_memory_utilization,
                              "vllm_tensor_parallel_size": self.vllm_tensor_parallel_size}
        if self.vllm_mode == "server":
            kw["vllm_server_timeout"] = self.vllm_server_timeout
            if self.vllm_server_base_url:
                kw["vllm_server_base_url"] = self.vllm_server_base_url
            else:
                kw["vllm_server_host"] = self.vllm_server_host
                kw["vllm_server_port"] = self.vllm_server_port
        return kw


# -- distill -----------------------------------------------------------------------------------------------


class DistillConfig(VLLMFields):
    """``hat-env train distill``: general on-policy distillation from the pre-SFT base model.

    Attributes:
        model: the student (the SFT output).
        teacher: the base model before SFT (same vocabulary as the student).
        dataset: ``builtin`` (a small general instruction set shipped here, so it runs offline) or a local path:
            a ``.jsonl`` / ``.json`` / ``.parquet`` file or a saved dataset folder, with a ``prompt`` column
            (string or messages) or a ``messages`` column (the last assistant turn, if any, is dropped; GKD uses it
            as the off-policy target).
        trainer: ``distillation`` (``trl.DistillationTrainer``, fully on-policy) or ``gkd``
            (``trl.experimental.gkd.GKDTrainer``, ``lmbda`` = share of on-policy batches).
        beta: generalised JSD interpolation: 0 forward KL, 1 reverse KL.
        max_prompts: use at most this many prompts.

    The ``use_vllm`` / ``vllm_*`` fields: :class:`VLLMFields`.
    """

    stage: Literal["distill"] = "distill"
    model: ModelOptions
    teacher: ModelOptions
    dataset: str = "builtin"
    max_prompts: int | None = Field(None, ge=1)
    trainer: Literal["distillation", "gkd"] = "distillation"
    beta: float = Field(1.0, ge=0.0, le=1.0)
    lmbda: float = Field(1.0, ge=0.0, le=1.0)
    max_completion_length: int = Field(256, ge=1)
    temperature: float = Field(1.0, gt=0.0)
    max_length: int | None = Field(2048, ge=16)
    lora: LoraOptions | None = None
    training: TrainingOptions


# -- rl ----------------------------------------------------------------------------------------------------


class TaskOptions(_Strict):
    """The interactive tasks: LiveQA requests drawn from these scenarios (seeded).

    Attributes:
        scenarios: built-in scenario names or scenario YAML paths.
        harness: a harness pack replacing the scenarios' own (its timeline is then not applied): a folder, a
            built-in pack name, or a pack shipped with the training configs (``compact``: two tools, one skill,
            prompts of a few hundred tokens, for CPU runs).
        episodes: requests per scenario.
        personas: restrict the requests to these viewer personas.
        seed: draws the requests and the HSA variants.
    """

    scenarios: list[str] = Field(default_factory=lambda: ["beauty_zh"], min_length=1)
    harness: str | None = None
    episodes: int = Field(64, ge=1)
    personas: list[str] | None = None
    seed: int = 0


class RLHSAOptions(HSAOptions):
    """HSA before rollouts: ``variants`` augmented harnesses per scenario (seeded), each row drawing the original
    (with probability ``1 - share``) or one of them. Each variant is its own environment class."""

    variants: int = Field(4, ge=1, le=256)


class RewardWeights(_Strict):
    """Weights of the reward functions (GRPO ``reward_weights``); 0 drops one. Components are the simulator
    rubric's own scores of the rollout; ``length_penalty`` is subtracted (its function returns ``-penalty``)."""

    accuracy: float = Field(1.0, ge=0.0)
    effectiveness: float = Field(1.0, ge=0.0)
    tool_rationality: float = Field(0.5, ge=0.0)
    skill_selection: float = Field(0.5, ge=0.0)
    length_penalty: float = Field(0.2, ge=0.0)

    @model_validator(mode="after")
    def _some(self) -> "RewardWeights":
        if not any(v > 0 for v in self.model_dump().values()):
            raise ValueError("at least one reward weight must be positive")
        return self


class LengthPenaltyOptions(_Strict):
    """The length penalty: 0 up to ``free_tokens`` generated tokens (tool results excluded), rising linearly to
    1 at ``max_tokens``."""

    free_tokens: int = Field(256, ge=0)
    max_tokens: int = Field(1024, ge=1)

    @model_validator(mode="after")
    def _order(self) -> "LengthPenaltyOptions":
        if self.max_tokens <= self.free_tokens:
            raise ValueError("max_tokens must be above free_tokens")
        return self


#: The rewards of the RL stage, by name (the rubric's components and the length penalty).
REWARD_NAMES: tuple[str, ...] = ("accuracy", "effectiveness", "tool_rationality", "skill_selection", "length_penalty")


class CreditOptions(_Strict):
    """How advantages reach the tokens of a rollout (:mod:`hat_env.train.credit`).

    Attributes:
        mode: ``sequence``: TRL's GRPO, one advantage per rollout on all its tokens; ``segment``: the paper's
            separate credit: the tool-call turns get the advantage of the ``tool`` rewards, the reply turn that of
            the ``reply`` rewards (a rollout without a tool-call turn puts both on its reply; one without a reply,
            both on its last tool-call turn).
        tool: rewards credited to tool-call turns.
        reply: rewards credited to the reply turn.
    """

    mode: Literal["sequence", "segment"] = "sequence"
    tool: list[str] = Field(default_factory=lambda: ["tool_rationality", "skill_selection"])
    reply: list[str] = Field(default_factory=lambda: ["accuracy", "effectiveness", "length_penalty"])

    @field_validator("tool", "reply")
    @classmethod
    def _known(cls, v: list[str]) -> list[str]:
        bad = [n for n in v if n not in REWARD_NAMES]
        if bad:
            raise ValueError(f"unknown reward(s) {bad}; valid: {list(REWARD_NAMES)}")
        return v


class RLConfig(VLLMFields):
    """``hat-env train rl``: GRPO against the simulator (LiveQA as TRL's ``environment_factory``).

    ``accuracy_gate: effectiveness`` (the default) multiplies the accuracy reward by effectiveness: the rubric's
    accuracy is 1 for a reply that asserts nothing, and ungated it made GRPO learn to say nothing
    (benchmarks/results/rl_curve-2026-12-01-emptyreply.md).

    ``importance_sampling_level: sequence`` with ``loss_type: grpo`` is GSPO's setup (TRL's own advice: its
    default ``dapo`` loss sums per-token terms, weighting each sequence by its length). The ``use_vllm`` /
    ``vllm_*`` fields: :class:`VLLMFields`.
    """

    stage: Literal["rl"] = "rl"
    model: ModelOptions
    tasks: TaskOptions = Field(default_factory=TaskOptions)
    hsa: RLHSAOptions = Field(default_factory=RLHSAOptions)
    rewards: RewardWeights = Field(default_factory=RewardWeights)
    accuracy_gate: Literal["effectiveness", "none"] = Field(
        "effectiveness", description="what the accuracy reward is multiplied by: 'effectiveness' (the default: "
        "accuracy counts only as far as the reply answers, so saying nothing earns nothing) or 'none' (the "
        "rubric's raw accuracy, 1 for a reply that asserts nothing)")
    length_penalty: LengthPenaltyOptions = Field(default_factory=LengthPenaltyOptions)
    num_generations: int = Field(4, ge=2)
    max_completion_length: int = Field(512, ge=8)
    max_tool_calling_iterations: int = Field(8, ge=1)
    temperature: float = Field(1.0, gt=0.0)
    beta: float = Field(0.0, ge=0.0)
    importance_sampling_level: Literal["token", "sequence"] = "sequence"
    loss_type: Literal["grpo", "dapo", "dr_grpo", "bnpo", "cispo", "sapo", "luspo", "vespo"] = "grpo"
    multi_objective_aggregation: Literal["sum_then_normalize", "normalize_then_sum"] = "normalize_then_sum"
    credit: CreditOptions = Field(default_factory=CreditOptions)
    lora: LoraOptions | None = None
    training: TrainingOptions

    @model_validator(mode="after")
    def _credited(self) -> "RLConfig":
        if self.credit.mode == "segment":
            w = self.rewards.model_dump()
            lost = [n for n in REWARD_NAMES if w[n] > 0 and n not in self.credit.tool and n not in self.credit.reply]
            if lost:
                raise ValueError(f"credit.mode segment: reward(s) {lost} have a weight but are in neither "
                                 "credit.tool nor credit.reply")
            if not self.credit.tool or not self.credit.reply:
                raise ValueError("credit.mode segment needs rewards in both credit.tool and credit.reply")
        return self


StageConfig = Union[DataConfig, SFTConfig, DistillConfig, RLConfig]
_MODELS: dict[str, type[BaseModel]] = {"data": DataConfig, "sft": SFTConfig, "distill": DistillConfig, "rl": RLConfig}


# -- loading -----------------------------------------------------------------------------------------------


def parse_override(item: str) -> tuple[list[str], Any]:
    """``"training.max_steps=10"`` -> ``(["training", "max_steps"], 10)`` (the value is read as YAML).

    Raises:
        ValueError: not ``KEY=VALUE``.
    """
    key, sep, raw = item.partition("=")
    if not sep or not key.strip():
        raise ValueError(f"override {item!r} is not KEY=VALUE (e.g. training.max_steps=10)")
    try:
        value = load_yaml("(override)", raw)[0] if raw.strip() else None
    except FileError:  # not YAML (or refused by the bounded loader): the text as written
        value = raw
    return [k for k in key.strip().split(".")], value


def apply_overrides(data: dict[str, Any], overrides: list[str]) -> set[tuple[str, ...]]:
    """Set each ``KEY.PATH=VALUE`` in ``data`` (creating mappings on the way); returns the paths set."""
    done: set[tuple[str, ...]] = set()
    for item in overrides:
        path, value = parse_override(item)
        cur: Any = data
        for i, part in enumerate(path[:-1]):
            if isinstance(cur, list):
                cur = cur[int(part)]
                continue
            nxt = cur.get(part)
            if not isinstance(nxt, (dict, list)):
                nxt = cur[part] = {}
            cur = nxt
        if isinstance(cur, list):
            cur[int(path[-1])] = value
        else:
            cur[path[-1]] = value
        done.add(tuple(path))
    return done


def load_config(path: str | Path, overrides: list[str] | None = None, stage: str | None = None) -> StageConfig:
    """Read and validate a stage config.

    Args:
        path: the YAML file.
        overrides: ``KEY.PATH=VALUE`` strings applied before validation.
        stage: the stage the caller runs; the file's ``stage`` must agree (a file without ``stage`` takes it).

    Raises:
        FileError: every problem, as ``FILE:LINE: FIELD: REASON`` (``(override)`` for an overridden field).
    """
    data, lines = load_yaml(path)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise FileError(path, [("", 1, "a stage config must be a YAML mapping")])
    try:
        touched = apply_overrides(data, list(overrides or []))
    except (ValueError, IndexError, TypeError) as exc:
        raise FileError(path, [("", None, f"(override) {exc}")]) from None
    file_stage = data.get("stage")
    if stage is not None:
        if file_stage is None:
            data["stage"] = file_stage = stage
        elif file_stage != stage:
            raise FileError(path, [("stage", lines.get(("stage",)), f"this file configures {file_stage!r}, not {stage!r}")])
    if file_stage not in _MODELS:
        raise FileError(path, [("stage", lines.get(("stage",)), f"stage must be one of {list(STAGES)}, got {file_stage!r}")])
    for t in touched:
        lines.pop(t, None)
    try:
        return validate(_MODELS[file_stage], data, path, lines)  # type: ignore[return-value]
    except FileError as exc:
        marked = []
        for fld, line, reason in exc.problems:
            if any(fld == ".".join(t) or fld.startswith(".".join(t) + ".") for t in touched):
                reason = f"(override) {reason}"
            marked.append((fld, line, reason))
        raise FileError(path, marked) from None
