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
from hat_env.untrusted import MAX_OUTPUT_CHARS, MAX_TOOL_CALLS, clean_json, clean_text, describe, json_problem, loads

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
    name = clean_text(name)
    if isinstance(args, str):
        if len(args) > MAX_OUTPUT_CHARS:
            return f"the arguments of {name} are {len(args):,} characters long, over the limit of {MAX_OUTPUT_CHARS:,}"
        try:
            args = loads(args) if args.strip() else {}
        except ValueError as exc:
            if "nested too deeply" in str(exc):
                return f"the arguments of {name} are nested too deeply"
            return f"the arguments of {name} are not valid JSON"
    if not isinstance(args, dict):
        return f"the arguments of {name} must be a JSON object"
    bad = json_problem(args)
    if bad is not None:
        return f"the arguments of {name} are not usable JSON ({bad})"
    return ToolCall(name=name, arguments=clean_json(args), call_id=f"call_{idx}")


def _structured_calls(structured: Any, out: ParsedOutput) -> ParsedOutput:
    """Read OpenAI structured ``tool_calls`` into ``out`` (its ``error`` set when one of any shape is wrong)."""
    if not isinstance(structured, (list, tuple)):
        out.error = ('tool_calls must be a list of {"id", "type", "function": {"name", "arguments"}} objects, got '
                     f"{describe(structured)}")
        return out
    if len(structured) > MAX_TOOL_CALLS:
        out.error = f"{len(structured)} tool calls in one turn, over the limit of {MAX_TOOL_CALLS}"
        return out
    for i, tc in enumerate(structured):
        if not isinstance(tc, dict):
            out.error = f"tool_calls[{i}] must be an object with a function, got {describe(tc)}"
            out.tool_calls.clear()
            return out
        fn = tc.get("function", tc)
        if not isinstance(fn, dict):
            out.error = f'tool_calls[{i}].function must be an object with "name" and "arguments", got {describe(fn)}'
            out.tool_calls.clear()
            return out
        got = _call_from_obj({"name": fn.get("name"), "arguments": fn.get("arguments", {})}, i)
        if isinstance(got, str):
            out.error = got
            out.tool_calls.clear()
            return out
        cid = tc.get("id")
        cid = clean_text(cid) if isinstance(cid, str) and cid else str(cid) if type(cid) is int else got.call_id
        out.tool_calls.append(ToolCall(got.name, got.arguments, cid))
    return out


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
        return _structured_calls(structured, out)
    if "<tool_call>" in text:
        if text.count("<tool_call>") > MAX_TOOL_CALLS:
            out.error = f"{text.count('<tool_call>')} tool calls in one turn, over the limit of {MAX_TOOL_CALLS}"
            return out
        for i, m in enumerate(_CALL.finditer(text)):
            body = m.group(1).strip()
            fm = _FENCE.match(body)
            if fm:
                body = fm.group(1)
            try:
                obj = loads(body)
            except ValueError as exc:
                out.error = f"could not parse the tool call as JSON ({exc})"
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
            obj = loads(stripped)
        except ValueError:
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
