"""Turn one raw model output into tool calls, a reply, or an error to feed back.

Accepted forms: Hermes-style ``<tool_call>{"name": .., "arguments": {..}}</tool_call>`` blocks in the text (the
default, what Qwen-family templates emit), OpenAI structured ``tool_calls``, and a bare JSON object with
``name`` and ``arguments``. ``<think>...</think>`` reasoning is stripped. Anything else is the reply.
"""

from __future__ import annotations

import json
import re
from typing import Any

from hat_env.types import ParsedOutput, ToolCall

_THINK = re.compile(r"<think>.*?(</think>|$)", re.S)
_CALL = re.compile(r"<tool_call>(.*?)(?:</tool_call>|$)", re.S)
_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.S)


def _call_from_obj(obj: Any, idx: int) -> ToolCall | str:
    if not isinstance(obj, dict) or "name" not in obj:
        return 'a tool call must be a JSON object with "name" and "arguments"'
    name = obj.get("name")
    args = obj.get("arguments", obj.get("parameters", {}))
    if not isinstance(name, str):
        return "the tool call's name must be a string"
    if isinstance(args, str):
        try:
            args = json.loads(args) if args.strip() else {}
        except json.JSONDecodeError:
            return f"the arguments of {name} are not valid JSON"
    if not isinstance(args, dict):
        return f"the arguments of {name} must be a JSON object"
    return ToolCall(name=name, arguments=args, call_id=f"call_{idx}")


def parse_output(text: str, structured: list[dict[str, Any]] | None = None) -> ParsedOutput:
    """Parse one model output.

    Args:
        text: the raw generated text (may be empty when ``structured`` carries the calls).
        structured: OpenAI ``tool_calls`` (``[{"id", "function": {"name", "arguments"}}]``), if the backend
            returned any.

    Returns:
        A :class:`ParsedOutput` with tool calls, or a reply, or an error message meant for the model.
    """
    out = ParsedOutput()
    if not isinstance(text, str):
        text = "" if text is None else str(text)
    if "<think>" in text:
        m = _THINK.search(text)
        out.reasoning = m.group(0) if m else ""
        text = _THINK.sub("", text)
    if structured:
        for i, tc in enumerate(structured):
            fn = tc.get("function", tc) if isinstance(tc, dict) else {}
            got = _call_from_obj({"name": fn.get("name"), "arguments": fn.get("arguments", {})}, i)
            if isinstance(got, str):
                out.error = got
                return out
            out.tool_calls.append(ToolCall(got.name, got.arguments, str(tc.get("id") or got.call_id)))
        return out
    if "<tool_call>" in text:
        for i, m in enumerate(_CALL.finditer(text)):
            body = m.group(1).strip()
            fm = _FENCE.match(body)
            if fm:
                body = fm.group(1)
            try:
                obj = json.loads(body)
            except json.JSONDecodeError as exc:
                out.error = f"could not parse the tool call as JSON ({exc.msg} at char {exc.pos})"
                out.tool_calls.clear()
                return out
            got = _call_from_obj(obj, i)
            if isinstance(got, str):
                out.error = got
                out.tool_calls.clear()
                return out
            out.tool_calls.append(got)
        return out
    stripped = text.strip()
    if stripped.startswith("{") and stripped.endswith("}") and '"name"' in stripped:
        try:
            obj = json.loads(stripped)
        except json.JSONDecodeError:
            obj = None
        if isinstance(obj, dict) and "arguments" in obj:
            got = _call_from_obj(obj, 0)
            if isinstance(got, str):
                out.error = got
            else:
                out.tool_calls.append(got)
            return out
    if not stripped:
        out.error = "the output was empty: call a tool or write the reply"
        return out
    out.reply = stripped
    return out


def format_hermes(name: str, arguments: dict[str, Any]) -> str:
    """Write one tool call in the Hermes text format (what scripted agents emit)."""
    return "<tool_call>\n" + json.dumps({"name": name, "arguments": arguments}, ensure_ascii=False) + "\n</tool_call>"
