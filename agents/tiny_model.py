"""Build the tiny offline Qwen2 model used by tests, smoke runs and CPU benchmarks (``hat-env make-tiny-model``).

No model can be downloaded on the machines this project is tested on, so this module makes one from nothing:

1. a byte-level BPE tokenizer (``tokenizers``) trained on text of this project: the built-in scenarios, the
   harness packs, and the prompts, tool schemas and tool calls of short reference-agent sessions, so that a
   full harness prompt fits in a few thousand tokens;
2. the special tokens of the Qwen2.5 chat format (``<|im_start|>``, ``<tool_call>`` ...), wrapped in a
   ``PreTrainedTokenizerFast`` whose chat template is TRL's bundled ``qwen2_5.jinja`` (read from the installed
   ``trl`` package) or, without TRL, the same template shipped here;
3. a randomly initialised ``Qwen2ForCausalLM`` with tiny dimensions. Its attention head size is 64 (hidden 128,
   2 heads): vLLM's CPU attention kernels accept it, where smaller heads fail.

The weights are random: the model writes garbage, which is what tests of the plumbing need. The build is
seeded and deterministic: the same arguments give the same files. Everything that loads models in hat-env takes
a local path, so the same code serves a real checkpoint.

``torch``, ``transformers`` and ``tokenizers`` are imported inside :func:`build_tiny_model` only.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

#: Special tokens of the Qwen2.5 chat and tool-call format, in id order after the byte alphabet merges.
SPECIAL_TOKENS: tuple[str, ...] = (
    "<|endoftext|>",
    "<|im_start|>",
    "<|im_end|>",
    "<tool_call>",
    "</tool_call>",
    "<tool_response>",
    "</tool_response>",
    "<think>",
    "</think>",
)

#: Qwen2.5's chat template with tools (the same text as TRL's ``chat_templates/qwen2_5.jinja``); used when the
#: installed ``trl`` package does not ship one.
QWEN2_5_TEMPLATE = r"""{%- if tools %}
    {{- '<|im_start|>system\n' }}
    {%- if messages[0]['role'] == 'system' %}
        {{- messages[0]['content'] }}
    {%- else %}
        {{- 'You are Qwen, created by Alibaba Cloud. You are a helpful assistant.' }}
    {%- endif %}
    {{- "\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>" }}
    {%- for tool in tools %}
        {{- "\n" }}
        {{- tool | tojson }}
    {%- endfor %}
    {{- "\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call><|im_end|>\n" }}
{%- else %}
    {%- if messages[0]['role'] == 'system' %}
        {{- '<|im_start|>system\n' + messages[0]['content'] + '<|im_end|>\n' }}
    {%- else %}
        {{- '<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n' }}
    {%- endif %}
{%- endif %}
{%- for message in messages %}
    {%- if (message.role == "user") or (message.role == "system" and not loop.first) or (message.role == "assistant" and not message.tool_calls) %}
        {{- '<|im_start|>' + message.role + '\n' + message.content + '<|im_end|>' + '\n' }}
    {%- elif message.role == "assistant" %}
        {{- '<|im_start|>' + message.role }}
        {%- if message.content %}
            {{- '\n' + message.content }}
        {%- endif %}
        {%- for tool_call in message.tool_calls %}
            {%- if tool_call.function is defined %}
                {%- set tool_call = tool_call.function %}
            {%- endif %}
            {{- '\n<tool_call>\n{"name": "' }}
            {{- tool_call.name }}
            {{- '", "arguments": ' }}
            {{- tool_call.arguments | tojson }}
            {{- '}\n</tool_call>' }}
        {%- endfor %}
        {{- '<|im_end|>\n' }}
    {%- elif message.role == "tool" %}
        {%- if (loop.index0 == 0) or (messages[loop.index0 - 1].role != "tool") %}
            {{- '<|im_start|>user' }}
        {%- endif %}
        {{- '\n<tool_response>\n' }}
        {{- message.content }}
        {{- '\n</tool_response>' }}
        {%- if loop.last or (messages[loop.index0 + 1].role != "tool") %}
            {{- '<|im_end|>\n' }}
        {%- endif %}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\n' }}
{%- endif %}
"""


def chat_template(name: str = "qwen2_5") -> str:
    """The chat template ``name`` from the installed TRL package (``trl/chat_templates/NAME.jinja``).

    Falls back to :data:`QWEN2_5_TEMPLATE` for ``qwen2_5`` when TRL is not installed.

    Raises:
        ValueError: TRL is missing (or lacks the file) and ``name`` is not ``qwen2_5``.
    """
    try:
        from importlib.resources import files

        return (files("trl") / "chat_templates" / f"{name}.jinja").read_text(encoding="utf-8")
    except (ImportError, ModuleNotFoundError, FileNotFoundError, OSError):
        if name == "qwen2_5":
            return QWEN2_5_TEMPLATE
        raise ValueError(f"chat template {name!r} needs the trl package (pip install trl)") from None


def training_corpus(session_s: float = 120.0, seed: int = 0) -> Iterator[str]:
    """The tokenizer's training text, in a fixed order.

    Yields the built-in scenario, rule and harness-pack files, then, for each built-in scenario, every prompt
    message, the tool schemas (OpenAI JSON), and the reference agent's outputs (Hermes ``<tool_call>`` JSON and
    replies) of a ``session_s``-second session.
    """
    from hat_env.agents.reference import ReferenceAgent
    from hat_env.envs.session import LiveSession
    from hat_env.sim.scenario import builtin_scenarios, scenarios_dir

    root = scenarios_dir()
    for path in sorted(p for p in root.rglob("*") if p.suffix in (".yaml", ".md") and p.is_file()):
        yield path.read_text(encoding="utf-8")
    for name in builtin_scenarios():
        session = LiveSession(name, seed=seed, duration_s=session_s)
        agent = ReferenceAgent()
        first = True
        while session.next_request():
            loop = session.loop
            assert loop is not None
            done = None
            while done is None:
                req = loop.agent_request()
                if first:
                    yield json.dumps(req.tools, ensure_ascii=False)
                    first = False
                resp = agent.act(req)
                done = session.feed(resp)
            for m in loop.messages:
                if m.get("content"):
                    yield str(m["content"])
                for tc in m.get("tool_calls") or []:
                    fn = tc["function"]
                    args = json.loads(fn["arguments"] or "{}")
                    yield json.dumps({"name": fn["name"], "arguments": args}, ensure_ascii=False)


def build_tiny_model(
    out_dir: str | Path,
    *,
    vocab_size: int = 1024,
    hidden_size: int = 128,
    num_layers: int = 2,
    num_heads: int = 2,
    intermediate_size: int = 256,
    max_position_embeddings: int = 32768,
    seed: int = 0,
    template: str = "qwen2_5",
) -> Path:
    """Build and save the tiny model (config, safetensors weights, tokenizer, chat template) in ``out_dir``.

    Args:
        out_dir: the folder to write (created; existing files with the same names are replaced).
        vocab_size: BPE vocabulary size, special tokens included (512-1024 keeps the embedding small).
        hidden_size: model width; ``hidden_size / num_heads`` is the head size (64 by default: vLLM's CPU
            kernels reject small heads such as 16).
        num_layers: decoder layers.
        num_heads: attention heads (key/value heads as many).
        intermediate_size: MLP width.
        max_position_embeddings: the context the model accepts (at least 8,192 so a full harness prompt fits).
        seed: seeds the weight initialisation (and the sessions the corpus is drawn from).
        template: the name of TRL's bundled chat template to use.

    Returns:
        ``out_dir`` as a :class:`Path`.
    """
    if hidden_size % num_heads:
        raise ValueError(f"hidden_size {hidden_size} is not a multiple of num_heads {num_heads}")
    if max_position_embeddings < 8192:
        raise ValueError("max_position_embeddings must be at least 8192 (a full harness prompt must fit)")
    try:
        import torch
        from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
        from transformers import GenerationConfig, PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ImportError(
            f"building the tiny model needs torch, transformers and tokenizers ({exc}); "
            "install them with `make setup` or `pip install 'hat-env[hf]'`"
        ) from None

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)

    # 1. tokenizer
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.post_processor = processors.ByteLevel(trim_offsets=False)
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        min_frequency=2,
        special_tokens=list(SPECIAL_TOKENS),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    corpus = [t for t in training_corpus(seed=seed) if t]
    tok.train_from_iterator(corpus, trainer=trainer, length=len(corpus))
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok,
        eos_token="<|im_end|>",
        pad_token="<|endoftext|>",
        additional_special_tokens=[t for t in SPECIAL_TOKENS if t not in ("<|im_end|>", "<|endoftext|>")],
        model_max_length=max_position_embeddings,
        clean_up_tokenization_spaces=False,
    )
    fast.chat_template = chat_template(template)
    fast.save_pretrained(out)

    # 2. model
    im_end = fast.convert_tokens_to_ids("<|im_end|>")
    eot = fast.convert_tokens_to_ids("<|endoftext|>")
    config = Qwen2Config(
        vocab_size=len(fast),
        hidden_size=hidden_size,
        intermediate_size=intermediate_size,
        num_hidden_layers=num_layers,
        num_attention_heads=num_heads,
        num_key_value_heads=num_heads,
        max_position_embeddings=max_position_embeddings,
        rope_theta=1_000_000.0,
        tie_word_embeddings=True,
        bos_token_id=None,
        eos_token_id=im_end,
        pad_token_id=eot,
        use_sliding_window=False,
    )
    torch.manual_seed(seed)
    model = Qwen2ForCausalLM(config).to(torch.float32)
    model.generation_config = GenerationConfig(eos_token_id=[im_end, eot], pad_token_id=eot)
    from transformers.utils import logging as hf_logging

    bars = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()
    try:
        model.save_pretrained(out, safe_serialization=True)
    finally:
        if bars:
            hf_logging.enable_progress_bar()
    info: dict[str, Any] = {
        "built_by": "hat_env.agents.tiny_model.build_tiny_model",
        "vocab_size": len(fast),
        "hidden_size": hidden_size,
        "num_layers": num_layers,
        "num_heads": num_heads,
        "head_dim": hidden_size // num_heads,
        "max_position_embeddings": max_position_embeddings,
        "parameters": sum(p.numel() for p in model.parameters()),
        "seed": seed,
        "chat_template": template,
        "note": "random weights: for tests and smoke runs only",
    }
    (out / "hat_env_tiny_model.json").write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
    return out
