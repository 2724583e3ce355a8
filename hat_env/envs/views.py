"""What the environments hand out about a host's open request: the observation text and the ``info`` dict.

``info`` values are copies made of plain JSON values. An ``info`` a caller keeps never changes afterwards (the
conversation goes on in the request loop, not in the dict it was given) and holds no live object (no harness, no
message list of the env's own), so it survives ``gymnasium.make_vec``, pickling and ``json.dumps``, and changing
it changes nothing in the env. Scripted agents that read the harness itself use ``env.unwrapped.agent_request()``
(or the PettingZoo env's ``agent_request(agent)``).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from hat_env.harness.render import render_conversation

if TYPE_CHECKING:
    from hat_env.harness.core import Harness
    from hat_env.harness.runtime import RequestLoop

#: By harness hash: the JSON text of its OpenAI tools (what info copies are made from) and of their
#: ``function`` parts (what the observation shows). A harness is immutable, so both are made once.
_TOOLS_JSON: dict[str, tuple[str, str]] = {}


def plain(value: Any) -> Any:
    """A deep copy of a JSON-like value: dicts and lists (tuples become lists) copied, scalars as they are."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def copy_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A deep copy of the request loop's messages (string fields; an assistant's ``tool_calls`` list of
    ``{"id", "type", "function": {"name", "arguments"}}``), faster than :func:`plain` for that shape."""
    out = []
    for m in messages:
        calls = m.get("tool_calls")
        if calls is None:
            out.append(m.copy())
        else:
            out.append({**m, "tool_calls": [{**c, "function": c["function"].copy()} for c in calls]})
    return out


def _tools_json(harness: "Harness") -> tuple[str, str]:
    got = _TOOLS_JSON.get(harness.hash)
    if got is None:
        if len(_TOOLS_JSON) > 256:
            _TOOLS_JSON.clear()
        tools = harness.openai_tools
        got = _TOOLS_JSON[harness.hash] = (json.dumps(tools, ensure_ascii=False),
                                           json.dumps([t["function"] for t in tools], ensure_ascii=False))
    return got


def tools_copy(harness: "Harness") -> list[dict[str, Any]]:
    """A fresh copy of ``harness``'s OpenAI tool schemas."""
    return json.loads(_tools_json(harness)[0])


def observation(loop: "RequestLoop") -> dict[str, str]:
    """``{"text": the whole conversation}`` (see :func:`~hat_env.harness.render.render_conversation`)."""
    h = loop.harness
    return {"text": render_conversation(loop.messages, h.openai_tools, tools_json=_tools_json(h)[1])}


def request_info(loop: "RequestLoop", locale: str) -> dict[str, Any]:
    """The info of a host with an open request: ``messages`` and ``tools`` (OpenAI format, copies),
    ``request_id``, ``harness_version``, ``harness_hash``, ``locale`` and ``turn`` (model turns so far)."""
    h = loop.harness
    return {
        "messages": copy_messages(loop.messages),
        "tools": tools_copy(h),
        "request_id": loop.request.request_id,
        "harness_version": h.version,
        "harness_hash": h.hash,
        "locale": locale,
        "turn": loop.turns,
    }
