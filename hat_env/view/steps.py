"""What happened inside one request, turn by turn, from its trace record.

The trace keeps the request's messages (what the model saw and wrote) and the executed calls (what the harness
decoded and ran), separately. This module pairs them: each tool call of an assistant message, in order, is one
executed call (the runtime records exactly one per tool call, ``load_skill`` included) and one tool message with
the same id before the next assistant message. So each call shows its arguments **as the model wrote them**
(the assistant message's ``function.arguments``, e.g. ``{"position": 5}`` under an HSA variant) next to the
backend's decoded ones (``{"link": 5}``), and the result the model was shown.

An assistant text followed by a ``[harness]`` message was refused: by a ``before_reply`` hook (the feedback is
that hook's deny reason) or because the output could not be understood. A fallback reply is the last message.
"""

from __future__ import annotations

import json
from typing import Any

FEEDBACK_PREFIX = "[harness] "


def written_arguments(arguments: Any) -> str:
    """The arguments of a tool call as the model wrote them.

    Args:
        arguments: an assistant message's ``function.arguments``: a JSON text of an object, or of a string when
            the model's arguments were not valid JSON (the runtime keeps the raw text then).

    Returns:
        The JSON object text, or the model's raw text.
    """
    if not isinstance(arguments, str):
        return json.dumps(arguments, ensure_ascii=False, separators=(",", ":"))
    try:
        value = json.loads(arguments)
    except json.JSONDecodeError:
        return arguments
    return value if isinstance(value, str) else arguments


def _call_status(call: dict[str, Any], denied: set[str]) -> str:
    if call.get("ok"):
        return "ok"
    if call.get("fault"):
        return f"fault:{call['fault']}"
    err = call.get("error")
    if isinstance(err, str) and err in denied:
        return "denied"
    if not call.get("valid", True):
        return "invalid"
    return "error"


def written_calls(messages: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """``(tool name, arguments as the model wrote them)`` for each tool call of the assistant messages, in order:
    the i-th pair is the i-th executed call (used by the terminal transcript).

    Args:
        messages: a request's messages (assistant messages carry ``tool_calls``).
    """
    out: list[tuple[str, str]] = []
    for m in messages:
        if m.get("role") != "assistant":
            continue
        for tc in m.get("tool_calls") or ():
            fn = tc.get("function") or {}
            out.append((str(fn.get("name", "")), written_arguments(fn.get("arguments", ""))))
    return out


def request_steps(rec: dict[str, Any]) -> list[dict[str, Any]]:
    """The turns of a request record, for the page.

    Args:
        rec: a ``request`` record (``messages``, ``calls``, ``hook_events``, ``fallback``, ``timings``).

    Returns:
        One dict per model turn: ``{"turn", "timing", "kind", ...}`` where ``kind`` is ``calls`` (with
        ``calls``: ``name``, ``written`` (arguments as the model wrote them), ``decoded`` (the backend's
        arguments), ``op``, ``status`` (``ok``, ``fault:KIND``, ``denied``, ``invalid``, ``error``), ``error``,
        ``result`` (the tool message the model saw)), ``reply`` (the reply that went out), ``blocked`` (a reply
        refused by hook ``check`` with its ``reason``), ``not_understood`` (output the harness could not parse,
        with its ``feedback``); then, when the harness sent its fallback, a last ``{"kind": "fallback", "why",
        "text"}``.
    """
    msgs = rec.get("messages") or []
    calls = list(rec.get("calls") or [])
    hooks = rec.get("hook_events") or []
    timings = rec.get("timings") or []
    denies = [e for e in hooks if e.get("event") == "before_reply" and e.get("decision") == "deny"]
    denied_tool = {str(e.get("reason")) for e in hooks if e.get("event") == "before_tool" and e.get("decision") == "deny"}
    fallback = bool(rec.get("fallback"))
    body = msgs[1:]  # msgs[0] is the merged request (the user message)
    fallback_msg = body.pop() if fallback and body and body[-1].get("role") == "assistant" else None
    out: list[dict[str, Any]] = []
    ci = di = 0
    turn = 0
    i = 0
    while i < len(body):
        m = body[i]
        if m.get("role") != "assistant":
            i += 1
            continue
        turn += 1
        step: dict[str, Any] = {"turn": turn, "timing": timings[turn - 1] if turn - 1 < len(timings) else None}
        nxt = body[i + 1] if i + 1 < len(body) else None
        if m.get("tool_calls"):
            results: dict[str, str] = {}
            j = i + 1
            while j < len(body) and body[j].get("role") != "assistant":
                t = body[j]
                if t.get("role") == "tool" and t.get("tool_call_id") not in results:
                    results[str(t.get("tool_call_id"))] = str(t.get("content", ""))
                j += 1
            items = []
            for tc in m["tool_calls"]:
                fn = tc.get("function") or {}
                call = calls[ci] if ci < len(calls) else {}
                ci += 1
                items.append({
                    "name": fn.get("name", call.get("name", "")),
                    "written": written_arguments(fn.get("arguments", "")),
                    "decoded": call.get("args"),
                    "op": call.get("op"),
                    "status": _call_status(call, denied_tool) if call else "unknown",
                    "error": call.get("error"),
                    "result": results.get(str(tc.get("id")), ""),
                })
            step.update(kind="calls", calls=items)
            i = j
        else:
            text = str(m.get("content") or "")
            fb = nxt.get("content") if nxt is not None and nxt.get("role") == "user" else None
            if isinstance(fb, str) and fb.startswith(FEEDBACK_PREFIX):
                reason = fb[len(FEEDBACK_PREFIX):]
                if di < len(denies) and denies[di].get("reason") == reason:
                    step.update(kind="blocked", text=text, check=denies[di].get("check"), reason=reason)
                    di += 1
                else:
                    step.update(kind="not_understood", text=text, feedback=reason)
                i += 2
            elif fallback_msg is not None and i == len(body) - 1 and di < len(denies):
                # the last attempt was refused and the retry budget ran out: the fallback follows
                step.update(kind="blocked", text=text, check=denies[di].get("check"), reason=denies[di].get("reason"))
                di += 1
                i += 1
            else:
                step.update(kind="reply" if fallback_msg is None else "attempt", text=text)
                i += 1
        out.append(step)
    for call in calls[ci:]:  # never for traces the runtime wrote; kept so nothing recorded is hidden
        out.append({"turn": None, "timing": None, "kind": "calls", "calls": [{
            "name": call.get("name"), "written": None, "decoded": call.get("args"), "op": call.get("op"),
            "status": _call_status(call, denied_tool), "error": call.get("error"), "result": ""}]})
    if fallback_msg is not None:
        why = next((e.get("check") for e in reversed(hooks) if e.get("decision") == "fallback"), None)
        out.append({"turn": None, "timing": None, "kind": "fallback", "why": why,
                    "text": str(fallback_msg.get("content") or "")})
    return out
