"""Reading an OpenAI-compatible endpoint's answer: a stream assembled chunk by chunk, or a whole completion, with
the type of every field checked.

The ``openai`` client checks no shapes (it builds its models without validation and hands a body that is not
JSON back as a plain string), so an endpoint that answers HTTP 200 with garbage (an HTML error page from a proxy,
JSON of the wrong shape, an empty ``choices`` list, a stream with no events or cut before its
``finish_reason``) would read as an empty model output. Here each of those raises :class:`CallFailed` with a
message naming the endpoint and what was wrong; the adapter (:mod:`hat_env.agents.openai_agent`) returns it as
``AgentResponse(error=...)``, which the trace records as an agent error on the turn. An answer longer than
:data:`hat_env.untrusted.MAX_OUTPUT_CHARS` characters is refused too (it bounds the memory a flooding endpoint
can take).
"""

from __future__ import annotations

import json
import time
from typing import Any, AsyncIterator, Callable

from hat_env.types import AgentResponse, Timings
from hat_env.untrusted import MAX_OUTPUT_CHARS, describe


class CallFailed(Exception):
    """A failed attempt, classified.

    Attributes:
        transient: trying again may help (a lost connection, 429, 5xx, a server error mid-answer, an answer that
            ended before it finished).
        retry: the adapter should try again (a transient failure mid-answer: the client retried the others).
        sent: HTTP requests the attempt made (the client's retries included).
    """

    def __init__(self, message: str, transient: bool = False):
        super().__init__(message)
        self.transient = transient
        self.retry = False
        self.sent = 1


def field(obj: Any, name: str) -> Any:
    """``obj.name`` for the client's models, ``obj[name]`` for a dict the client left as it was, else ``None``."""
    if isinstance(obj, dict):
        return obj.get(name)
    return getattr(obj, name, None)


def _is_object(value: Any) -> bool:
    """A JSON object as the client hands it over: one of its models, or a dict (never a scalar or a list)."""
    return value is not None and not isinstance(value, (str, bytes, int, float, bool, list, tuple))


def _text_field(value: Any, where: str, url: str) -> str:
    """A field that must be a string (or absent: ``""``)."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise CallFailed(f"malformed answer from {url}: {where} must be a string, got {describe(value)}")
    return value


def content_type(obj: Any) -> str:
    """The content type of the HTTP response behind a client stream or error, or ``"?"``."""
    resp = getattr(obj, "response", None)
    try:
        return str(resp.headers.get("content-type", "?")).split(";")[0] or "?"
    except AttributeError:
        return "?"


class StreamReader:
    """Assembles one streamed answer from its chunks.

    Args:
        url: the endpoint (for messages).
        t0: when the call started (``time.perf_counter``), for the time to first token.
        max_chars: the most characters (content, reasoning and tool-call text together) the answer may have.
    """

    def __init__(self, url: str, t0: float, max_chars: int = MAX_OUTPUT_CHARS):
        self.url, self.t0, self.max_chars = url, t0, max_chars
        self.text: list[str] = []
        self.reasoning: list[str] = []
        self.calls: dict[int, dict[str, Any]] = {}
        self.ttft: float | None = None
        self.usage: Any = None
        self.chunks = 0
        self.choices = 0
        self.finished = False
        self.chars = 0

    def _bad(self, what: str) -> CallFailed:
        return CallFailed(f"malformed stream from {self.url}: chunk {self.chunks} {what}")

    def _count(self, piece: str) -> None:
        self.chars += len(piece)
        if self.chars > self.max_chars:
            raise CallFailed(f"the answer from {self.url} passed {self.max_chars:,} characters; stopped reading it")

    def add(self, chunk: Any) -> None:
        """Add one chunk.

        Raises:
            CallFailed: the chunk is not a ``chat.completion.chunk`` (its choices, delta, content or tool calls are
                of the wrong type), or the answer grew past ``max_chars``.
        """
        self.chunks += 1
        if not _is_object(chunk):
            raise self._bad(f"is {describe(chunk)}, not an object")
        usage = field(chunk, "usage")
        if usage is not None:
            self.usage = usage
        choices = field(chunk, "choices")
        if choices is None:
            return
        if not isinstance(choices, list):
            raise self._bad(f"has choices of type {type(choices).__name__}, not a list")
        for choice in choices:
            if not _is_object(choice):
                raise self._bad(f"has a choice that is {describe(choice)}")
            self.choices += 1
            if field(choice, "finish_reason"):
                self.finished = True
            delta = field(choice, "delta")
            if delta is None:
                continue
            if not _is_object(delta):
                raise self._bad(f"has a delta that is {describe(delta)}")
            self._delta(delta)

    def _delta(self, delta: Any) -> None:
        got = False
        content = field(delta, "content")
        if content is not None:
            if not isinstance(content, str):
                raise self._bad(f"has content that is {describe(content)}")
            if content:
                self._count(content)
                self.text.append(content)
                got = True
        r = field(delta, "reasoning_content") or field(delta, "reasoning")
        if isinstance(r, str) and r:
            self._count(r)
            self.reasoning.append(r)
            got = True
        calls = field(delta, "tool_calls")
        if calls is not None and not isinstance(calls, list):
            raise self._bad(f"has tool_calls of type {type(calls).__name__}, not a list")
        for tc in calls or []:
            if not _is_object(tc):
                raise self._bad(f"has a tool call that is {describe(tc)}")
            got = True
            index = field(tc, "index")
            if index is not None and (type(index) is not int or not 0 <= index < 1024):
                raise self._bad(f"has a tool call index {describe(index)}")
            slot = self.calls.setdefault(index if index is not None else len(self.calls),
                                         {"id": "", "type": "function", "function": {"name": "", "arguments": ""}})
            cid = field(tc, "id")
            if cid:
                slot["id"] = _text_field(cid, "a tool call id", self.url)
            fn = field(tc, "function")
            if fn is not None:
                if not _is_object(fn):
                    raise self._bad(f"has a tool call function that is {describe(fn)}")
                for key in ("name", "arguments"):
                    piece = _text_field(field(fn, key), f"a tool call's function.{key}", self.url)
                    if piece:
                        self._count(piece)
                        slot["function"][key] += piece
        if got and self.ttft is None:
            self.ttft = time.perf_counter() - self.t0

    async def read(self, stream: AsyncIterator[Any], on_error: Callable[[Exception], Exception]) -> None:
        """Read every chunk of ``stream``; a failure while reading goes through ``on_error`` (the adapter's
        classification of a lost connection) and is raised as what it returns."""
        try:
            async for chunk in stream:
                self.add(chunk)
        except CallFailed:
            raise
        except Exception as exc:
            raise on_error(exc) from None

    def check_complete(self, ctype: str) -> None:
        """Raise :class:`CallFailed` unless the stream held a whole answer: at least one event, at least one choice,
        and a ``finish_reason`` (an answer cut off by a server that closed the connection cleanly has none)."""
        url = self.url
        if self.chunks == 0:
            if "event-stream" not in ctype:
                raise CallFailed(f"{url} answered HTTP 200 with a body of type {ctype}, not an event stream of chat "
                                 "completion chunks (an endpoint that cannot stream needs stream=False)")
            raise CallFailed(f"{url} answered HTTP 200 with an event stream that held no chunks", transient=True)
        if self.choices == 0:
            raise CallFailed(f"malformed stream from {url}: none of its {self.chunks} chunks had a choice")
        if not self.finished:
            raise CallFailed(f"the answer from {url} ended after {self.chunks} chunks without a finish_reason "
                             "(cut off)", transient=True)

    def tool_calls(self) -> list[dict[str, Any]]:
        """The assembled tool calls, in index order, each with an id."""
        out = [self.calls[k] for k in sorted(self.calls)]
        for i, c in enumerate(out):
            c["id"] = c["id"] or f"call_{i}"
        return out


def read_completion(completion: Any, url: str) -> tuple[str, str, list[dict[str, Any]], Any]:
    """The text, reasoning, tool calls and usage of a whole (not streamed) completion.

    Raises:
        CallFailed: the body was not JSON (the client hands it over as a string), or it has no choices, no
            message, or fields of the wrong type.
    """
    if isinstance(completion, (str, bytes)):
        body = completion if isinstance(completion, str) else completion.decode("utf-8", "replace")
        raise CallFailed(f"{url} answered HTTP 200 with a body that is not JSON: {body[:200]!r}")
    if not _is_object(completion):
        raise CallFailed(f"{url} answered HTTP 200 with {describe(completion)}, not a chat completion")
    choices = field(completion, "choices")
    if not isinstance(choices, list) or not choices:
        what = "an empty choices list" if isinstance(choices, list) else (
            "no choices" if choices is None else f"choices of type {type(choices).__name__}")
        raise CallFailed(f"malformed answer from {url}: {what} (not a chat completion)")
    msg = field(choices[0], "message") if _is_object(choices[0]) else None
    if not _is_object(msg):
        raise CallFailed(f"malformed answer from {url}: choices[0] has no message object")
    text = _text_field(field(msg, "content"), "choices[0].message.content", url)
    reasoning = field(msg, "reasoning_content") or field(msg, "reasoning") or ""
    calls = field(msg, "tool_calls")
    if calls is not None and not isinstance(calls, list):
        raise CallFailed(f"malformed answer from {url}: choices[0].message.tool_calls is not a list")
    tool_calls = []
    for i, tc in enumerate(calls or []):
        fn = field(tc, "function") if _is_object(tc) else None
        if not _is_object(fn):
            raise CallFailed(f"malformed answer from {url}: tool_calls[{i}] has no function object")
        tool_calls.append({"id": _text_field(field(tc, "id"), f"tool_calls[{i}].id", url) or f"call_{i}",
                           "type": "function",
                           "function": {"name": _text_field(field(fn, "name"), f"tool_calls[{i}].function.name", url),
                                        "arguments": _text_field(field(fn, "arguments"),
                                                                 f"tool_calls[{i}].function.arguments", url)}})
    if len(text) + sum(len(c["function"]["arguments"]) for c in tool_calls) > MAX_OUTPUT_CHARS:
        raise CallFailed(f"the answer from {url} passed {MAX_OUTPUT_CHARS:,} characters")
    return text, reasoning if isinstance(reasoning, str) else "", tool_calls, field(completion, "usage")


def _count_field(usage: Any, name: str) -> int | None:
    """A token count from the usage object, or ``None`` when absent or not a whole number >= 0."""
    v = field(usage, name) if usage is not None else None
    return v if type(v) is int and v >= 0 else None


def build_response(text: str, reasoning: str, tool_calls: list[dict[str, Any]], usage: Any, t0: float,
                   ttft: float | None, calls_from_text: Callable[[str], list[dict[str, Any]]]) -> AgentResponse:
    """The :class:`AgentResponse` of an answer: reasoning wrapped in ``<think>``, tool calls whose arguments are not
    JSON written into the text (so the trace shows what the model wrote and the harness reports them), Hermes
    calls in the text parsed when the server returned no structured ones (``calls_from_text``)."""
    if reasoning:
        text = f"<think>{reasoning}</think>{text}"
    broken = [c for c in tool_calls if not _valid_json(c["function"]["arguments"])]
    if broken and "<tool_call>" not in text:
        text += "".join(f'<tool_call>\n{{"name": {json.dumps(c["function"]["name"], ensure_ascii=False)}, '
                        f'"arguments": {c["function"]["arguments"]}}}\n</tool_call>' for c in broken)
    if not tool_calls and "<tool_call>" in text:
        tool_calls = calls_from_text(text)
    return AgentResponse(
        text=text,
        tool_calls=tool_calls,
        timings=Timings(total_s=time.perf_counter() - t0, ttft_s=ttft),
        prompt_tokens=_count_field(usage, "prompt_tokens"),
        completion_tokens=_count_field(usage, "completion_tokens"),
    )


def _valid_json(text: str) -> bool:
    if not text.strip():
        return True
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True
