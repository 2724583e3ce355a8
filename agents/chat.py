"""Chat-template helpers shared by the local-model agents (``transformers``, ``vllm``).

The environment's messages are OpenAI-format: an assistant tool call's ``arguments`` is a JSON *string*.
Hugging Face chat templates (Qwen's included) expect a dict and would encode the string a second time, so the
messages are normalised before rendering. Nothing here imports a heavy library.
"""

from __future__ import annotations

import json
from typing import Any


def template_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Copy ``messages`` for a Hugging Face chat template: tool-call arguments decoded to dicts, ``None``
    contents made empty strings."""
    out = []
    for m in messages:
        msg = dict(m)
        if msg.get("content") is None:
            msg["content"] = ""
        if msg.get("tool_calls"):
            calls = []
            for tc in msg["tool_calls"]:
                fn = dict(tc.get("function", tc))
                args = fn.get("arguments")
                if isinstance(args, str):
                    try:
                        fn["arguments"] = json.loads(args) if args.strip() else {}
                    except json.JSONDecodeError:
                        fn["arguments"] = {"_raw": args}
                calls.append({**tc, "type": tc.get("type", "function"), "function": fn})
            msg["tool_calls"] = calls
        out.append(msg)
    return out


def render_prompt(tokenizer: Any, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None,
                  **template_kwargs: Any) -> str:
    """The generation prompt: ``tokenizer``'s chat template over ``messages`` with ``tools`` (OpenAI format)."""
    return tokenizer.apply_chat_template(
        template_messages(messages),
        tools=tools or None,
        add_generation_prompt=True,
        tokenize=False,
        **template_kwargs,
    )


def end_markers(tokenizer: Any) -> list[str]:
    """Text of the end-of-turn / end-of-text tokens, to strip from a decoded answer."""
    marks = []
    for attr in ("eos_token", "pad_token"):
        tok = getattr(tokenizer, attr, None)
        if isinstance(tok, str) and tok:
            marks.append(tok)
    for tok in ("<|im_end|>", "<|endoftext|>", "<|eot_id|>", "</s>"):
        if tok not in marks:
            marks.append(tok)
    return marks


def strip_end(text: str, markers: list[str]) -> str:
    """``text`` cut at the first end marker (the model's turn ends there)."""
    cut = len(text)
    for m in markers:
        i = text.find(m)
        if i != -1:
            cut = min(cut, i)
    return text[:cut]
