"""The ``openai`` agent: any OpenAI-compatible chat endpoint (vLLM's server, SGLang, hosted APIs).

It uses the official ``openai`` client (``AsyncOpenAI``), streams every answer so the time to first token is
measured, limits concurrent requests, and never raises on a failed call: the failure comes back as
``AgentResponse(error=...)`` with a message that says what went wrong and what to check, so a live session
records it and goes on.

The client retries failed requests itself (``max_retries``); this adapter adds what the client cannot do: a
retry of an answer broken mid-stream (same budget) and a time limit on a whole streamed answer (``timeout``).
What the endpoint answered is read by :mod:`hat_env.agents.openai_response`, which checks its shape: an HTTP 200
that is not a chat completion (a body that is not JSON, no choices, a stream cut before its ``finish_reason``)
is an error here too, never an empty model output. This module keeps the adapter and its error messages.

Configuration comes from the arguments, else the environment:

- ``base_url``: ``OPENAI_BASE_URL``, else ``http://127.0.0.1:8000/v1`` (vLLM's default);
- ``model``: ``HAT_ENV_MODEL``, else the only model the endpoint serves (``GET /v1/models``);
- the key: ``api_key``, else the variable named by ``api_key_env``, else ``OPENAI_API_KEY``, else ``"EMPTY"``
  (local servers need none).

Tool calls come from the structured response; when the server returns none (no tool parser on the server), the
text is parsed with the harness's Hermes parser and the calls are returned as structured calls as well. The text
is always returned, so the environment can parse it itself.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time
from typing import Any

from hat_env.agents.openai_response import CallFailed as _CallFailed
from hat_env.agents.openai_response import StreamReader, build_response, content_type, read_completion
from hat_env.agents.reachability import dead_endpoint_reason, refuses_connections
from hat_env.types import AgentRequest, AgentResponse, Timings
from hat_env.untrusted import MAX_ERROR_CHARS, clean_text

DEFAULT_BASE_URL = "http://127.0.0.1:8000/v1"

#: Message keys the Chat Completions API accepts, per role.
_KEYS = {
    "system": ("role", "content", "name"),
    "developer": ("role", "content", "name"),
    "user": ("role", "content", "name"),
    "assistant": ("role", "content", "tool_calls", "name"),
    "tool": ("role", "content", "tool_call_id"),
}


def to_openai_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Copy ``messages`` keeping only the fields the Chat Completions API accepts for each role.

    The environment's tool messages carry a ``name`` for traces; strict endpoints reject it.
    """
    out = []
    for m in messages:
        keys = _KEYS.get(m.get("role", ""), tuple(m))
        msg = {k: m[k] for k in keys if k in m}
        if msg.get("role") == "assistant" and not msg.get("tool_calls"):
            msg.pop("tool_calls", None)
        out.append(msg)
    return out


def calls_from_text(text: str) -> list[dict[str, Any]]:
    """OpenAI-format tool calls parsed from Hermes ``<tool_call>`` text (empty when there are none or invalid)."""
    from hat_env.harness.parse import parse_output

    parsed = parse_output(text)
    if parsed.error or not parsed.tool_calls:
        return []
    return [
        {
            "id": tc.call_id or f"call_{i}",
            "type": "function",
            "function": {"name": tc.name, "arguments": json.dumps(tc.arguments, ensure_ascii=False)},
        }
        for i, tc in enumerate(parsed.tool_calls)
    ]


class OpenAIAgent:
    """An agent served by an OpenAI-compatible endpoint.

    Args:
        model: the served model name (``HAT_ENV_MODEL``; else the endpoint's only model).
        base_url: the endpoint, ``.../v1`` for vLLM and SGLang (``OPENAI_BASE_URL``; else
            ``http://127.0.0.1:8000/v1``).
        api_key: the key itself. Prefer ``api_key_env``.
        api_key_env: the name of the environment variable holding the key (default ``OPENAI_API_KEY``; local
            servers need no key).
        max_concurrency: at most this many requests in flight at once (per event loop).
        timeout: seconds one attempt may take, the client's retries of its request and the streamed answer
            included (the client also applies it to each connect and read). A timed-out attempt is not retried.
        max_retries: further HTTP requests after a transient failure: the client's own retries (connection
            errors, 408, 409, 429, 5xx; exponential backoff from 0.5 s, ``Retry-After`` honoured) and this
            adapter's after an answer broken mid-stream, from one budget.
        temperature: sampling temperature (0: greedy).
        max_tokens: the most tokens one answer may have.
        top_p: nucleus sampling.
        request_seed: a sampling seed sent with every request (``None``: none sent). On vLLM's CPU build a
            per-request seed crashes the engine when a prompt is prefilled in chunks (longer than
            ``--max-num-batched-tokens``): serve with ``--max-num-batched-tokens`` at least the context length.
        extra_body: extra JSON fields sent with each request (server-specific sampling options such as vLLM's
            ``top_k`` or ``ignore_eos``).
        stream: stream answers (measures the time to first token); ``False`` for endpoints that cannot.
        send_tools: send the harness's tools as OpenAI ``tools`` (``False``: rely on the system prompt).
        tool_choice: sent with the tools (``"auto"``).
    """

    name = "openai"

    def __init__(
        self,
        model: str | None = None,
        base_url: str | None = None,
        api_key: str | None = None,
        api_key_env: str | None = None,
        max_concurrency: int = 8,
        timeout: float = 60.0,
        max_retries: int = 3,
        temperature: float = 0.0,
        max_tokens: int = 512,
        top_p: float | None = None,
        request_seed: int | None = None,
        extra_body: dict[str, Any] | None = None,
        stream: bool = True,
        send_tools: bool = True,
        tool_choice: str | None = "auto",
    ):
        try:
            import openai
        except ImportError:
            raise ImportError("the openai agent needs the openai client: pip install 'hat-env[openai]'") from None
        self._openai = openai
        self.base_url = (base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")
        self.model = model or os.environ.get("HAT_ENV_MODEL") or None
        if api_key is None:
            env = api_key_env or "OPENAI_API_KEY"
            api_key = os.environ.get(env)
            if api_key is None and api_key_env:
                raise ValueError(f"the API key variable {api_key_env} is not set in the environment")
        self.api_key = api_key or "EMPTY"
        if max_concurrency < 1:
            raise ValueError("max_concurrency must be at least 1")
        self.max_concurrency = int(max_concurrency)
        self.timeout = float(timeout)
        self.max_retries = max(0, int(max_retries))
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.top_p = top_p
        self.request_seed = request_seed
        self.extra_body = dict(extra_body or {})
        self.stream = stream
        self.send_tools = send_tools
        self.tool_choice = tool_choice
        self._usage_in_stream = True
        self._per_loop: dict[int, tuple[asyncio.AbstractEventLoop, Any, asyncio.Semaphore]] = {}
        self._lock = threading.Lock()
        self._bg: tuple[asyncio.AbstractEventLoop, threading.Thread] | None = None

    # -- clients: one per event loop (an async HTTP pool belongs to the loop that made it) -------------------
    def _client(self) -> tuple[Any, asyncio.Semaphore]:
        loop = asyncio.get_running_loop()
        with self._lock:
            for key, (lp, _, _) in list(self._per_loop.items()):
                if lp.is_closed():
                    del self._per_loop[key]
            got = self._per_loop.get(id(loop))
            if got is None or got[0] is not loop:
                client = self._openai.AsyncOpenAI(
                    base_url=self.base_url, api_key=self.api_key, timeout=self.timeout, max_retries=self.max_retries
                )
                got = (loop, client, asyncio.Semaphore(self.max_concurrency))
                self._per_loop[id(loop)] = got
        return got[1], got[2]

    def _background_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._bg is None or not self._bg[1].is_alive():
                loop = asyncio.new_event_loop()
                t = threading.Thread(target=loop.run_forever, name="hat-env-openai", daemon=True)
                t.start()
                self._bg = (loop, t)
            return self._bg[0]

    # -- the agent protocol ---------------------------------------------------------------------------------
    def act(self, request: AgentRequest) -> AgentResponse:
        """Synchronous form of :meth:`aact` (runs on a private event loop thread; safe inside a running loop)."""
        fut = asyncio.run_coroutine_threadsafe(self.aact(request), self._background_loop())
        return fut.result()

    async def aact(self, request: AgentRequest) -> AgentResponse:
        """One model output for ``request``; never raises for endpoint failures (see ``AgentResponse.error``)."""
        client, sem = self._client()
        async with sem:
            t0 = time.perf_counter()  # queueing behind the concurrency limit is not the model's time
            sent = 0  # HTTP requests made for this call so far
            first: str | None = None
            while True:
                try:
                    if self.model is None:
                        self.model = await self._only_model(client)
                    attempt = client if not sent else client.with_options(max_retries=self.max_retries - sent)
                    return await asyncio.wait_for(self._attempt(attempt, request, t0), self.timeout)
                except asyncio.TimeoutError:
                    if await refuses_connections(self.base_url):
                        return self._fail(t0, f"cannot connect to {self.base_url}: connection refused; the server "
                                              f"stopped answering (no complete answer within the {self.timeout:g} s "
                                              "timeout) and no longer accepts connections")
                    return self._fail(t0, f"no complete answer from {self.base_url} within the {self.timeout:g} s "
                                          f"timeout (model {self.model!r}); raise --timeout or check the server's load")
                except _CallFailed as exc:
                    sent += exc.sent
                    if first is None:
                        first = str(exc)
                    if not exc.retry or sent > self.max_retries:
                        tries = ""
                        if sent > 1:
                            tries = f" (after {sent} attempts"
                            tries += f"; the first failed with: {first})" if first != str(exc) else ")"
                        return self._fail(t0, f"{exc}{tries}")
                except Exception as exc:  # never lose the session to an adapter bug
                    return self._fail(t0, f"unexpected {type(exc).__name__} calling {self.base_url}: {exc}")

    @staticmethod
    def _fail(t0: float, message: str) -> AgentResponse:
        """A failed call: the message (no lone surrogates, at most ``MAX_ERROR_CHARS`` characters: an endpoint's
        error body can be a whole page) and the time it took."""
        return AgentResponse(error=clean_text(message)[:MAX_ERROR_CHARS],
                             timings=Timings(total_s=time.perf_counter() - t0))

    # -- one attempt ------------------------------------------------------------------------------------------
    def _params(self, request: AgentRequest) -> dict[str, Any]:
        p: dict[str, Any] = {
            "model": self.model,
            "messages": to_openai_messages(request.messages),
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
        }
        if self.top_p is not None:
            p["top_p"] = self.top_p
        if self.request_seed is not None:
            p["seed"] = self.request_seed
        if self.send_tools and request.tools:
            p["tools"] = request.tools
            if self.tool_choice is not None:
                p["tool_choice"] = self.tool_choice
        if self.extra_body:
            p["extra_body"] = self.extra_body
        return p

    async def _attempt(self, client: Any, request: AgentRequest, t0: float) -> AgentResponse:
        """One request (the client retries it as configured) and its answer.

        Raises:
            _CallFailed: the request failed (not to be retried: the client did), or the answer broke off
                (``retry`` when that may be transient).
        """
        params = self._params(request)
        try:
            if not self.stream:
                return self._from_completion(await client.chat.completions.create(**params), t0)
            if self._usage_in_stream:
                params["stream_options"] = {"include_usage": True}
            try:
                stream = await client.chat.completions.create(stream=True, **params)
            except self._openai.BadRequestError as exc:
                if "stream_options" not in str(exc) or not self._usage_in_stream:
                    raise
                self._usage_in_stream = False  # the server does not know stream_options: go on without usage
                params.pop("stream_options")
                stream = await client.chat.completions.create(stream=True, **params)
        except Exception as exc:
            failed = await self._classify(client, exc)
            failed.sent = _requests_sent(getattr(exc, "request", None))
            raise failed from None
        try:
            return await self._from_stream(stream, t0)
        except Exception as exc:
            failed = exc if isinstance(exc, _CallFailed) else await self._classify(client, exc)
            failed.retry = failed.transient
            failed.sent = _requests_sent(getattr(getattr(stream, "response", None), "request", None))
            raise failed from None

    async def _from_stream(self, stream: Any, t0: float) -> AgentResponse:
        reader = StreamReader(self.base_url, t0)
        try:
            await reader.read(stream, self._lost_mid_answer(reader))
        finally:
            close = getattr(stream, "close", None)
            if close is not None:
                try:
                    await close()
                except Exception:
                    pass
        reader.check_complete(content_type(stream))
        return self._response("".join(reader.text), "".join(reader.reasoning), reader.tool_calls(), reader.usage,
                              t0, reader.ttft)

    def _lost_mid_answer(self, reader: StreamReader) -> Any:
        """How a failure while reading a stream is raised: a lost connection as a transient :class:`_CallFailed`
        (the adapter retries it), anything else as it is (classified by :meth:`_classify`)."""
        oa = self._openai

        def classify(exc: Exception) -> Exception:
            transport = any(k in type(exc).__name__ for k in ("RemoteProtocol", "ReadError", "NetworkError",
                                                               "StreamError", "CloseError"))
            if (isinstance(exc, oa.APIConnectionError) and not isinstance(exc, oa.APITimeoutError)) or transport \
                    or isinstance(exc, (ConnectionError, OSError)):
                cause = exc.__cause__ or exc.__context__ or exc
                return _CallFailed(f"the connection to {self.base_url} was lost mid-answer after {reader.chunks} "
                                   f"chunks ({cause})", transient=True)
            return exc

        return classify

    def _from_completion(self, completion: Any, t0: float) -> AgentResponse:
        text, reasoning, tool_calls, usage = read_completion(completion, self.base_url)
        return self._response(text, reasoning, tool_calls, usage, t0, None)

    @staticmethod
    def _response(text: str, reasoning: str, tool_calls: list[dict[str, Any]], usage: Any, t0: float,
                  ttft: float | None) -> AgentResponse:
        return build_response(text, reasoning, tool_calls, usage, t0, ttft, calls_from_text)

    # -- errors -----------------------------------------------------------------------------------------------
    async def _classify(self, client: Any, exc: Exception) -> _CallFailed:
        """Turn a client exception into a clear message, marked transient or not."""
        if isinstance(exc, _CallFailed):  # already classified (a malformed answer)
            return exc
        oa = self._openai
        url = self.base_url
        if isinstance(exc, oa.APITimeoutError):
            if await refuses_connections(url):  # a dead server can surface as a timeout: say it is down
                return _CallFailed(f"cannot connect to {url}: connection refused; the server stopped answering (no "
                                   f"answer within the {self.timeout:g} s timeout) and no longer accepts connections",
                                   transient=True)
            return _CallFailed(f"no answer from {url} within the {self.timeout:g} s timeout (model {self.model!r})")
        if isinstance(exc, oa.APIConnectionError):
            cause = exc.__cause__ or exc.__context__
            detail = (str(cause) or type(cause).__name__) if cause else (str(exc) or type(exc).__name__)
            # refused now: the server is gone, however the call failed on its way down (reset, cut, refused)
            reason = "connection refused" if await refuses_connections(url) else dead_endpoint_reason(exc)
            if reason is not None:
                return _CallFailed(f"cannot connect to {url}: {reason}; is the server running and the base URL "
                                   f"right? ({detail})", transient=True)
            return _CallFailed(f"connection to {url} failed: {detail}", transient=True)
        if isinstance(exc, oa.APIStatusError):
            code = exc.status_code
            body = _error_text(exc)
            if code == 429:
                return _CallFailed(f"rate-limited by {url} (429): {body}", transient=True)
            if code >= 500:
                return _CallFailed(f"server error {code} from {url}: {body}", transient=True)
            if code == 404:
                served = await self._served_models(client)
                if served is not None and self.model not in served:
                    return _CallFailed(f"model {self.model!r} is not served by {url}; served models: "
                                       f"{', '.join(served) or '(none)'}")
                if "model" in body.lower() and "not exist" in body.lower():
                    return _CallFailed(f"model {self.model!r} is not served by {url}: {body}")
                hint = f" (did you mean {url}/v1?)" if not url.endswith("/v1") else ""
                return _CallFailed(f"{url}/chat/completions answered 404 ({body}); is the base URL right{hint}? "
                                   "vLLM and SGLang serve under /v1")
            if code in (401, 403):
                return _CallFailed(f"{url} refused the API key ({code}: {body}); set the key's variable "
                                   "(--api-key-env, default OPENAI_API_KEY)")
            return _CallFailed(f"{url} rejected the request ({code}): {body}")
        if isinstance(exc, json.JSONDecodeError):  # a body or stream event that is not JSON, answered with 200
            return _CallFailed(f"{url} answered HTTP 200 with {'an event' if self.stream else 'a body'} that is not "
                               f"valid JSON ({exc.msg} at char {exc.pos})")
        if isinstance(exc, oa.APIError):  # an error event inside the stream: the server failed mid-answer
            return _CallFailed(f"the server at {url} failed while answering: {_error_text(exc)}", transient=True)
        name = type(exc).__name__
        if any(k in name for k in ("RemoteProtocol", "ReadError", "ConnectError", "NetworkError", "StreamError",
                                   "WriteError", "CloseError")) or isinstance(exc, (ConnectionError, OSError)):
            return _CallFailed(f"the connection to {url} was lost mid-answer ({name}: {exc})", transient=True)
        return _CallFailed(f"unexpected {name} from {url}: {exc}")

    async def _served_models(self, client: Any) -> list[str] | None:
        try:
            page = await asyncio.wait_for(client.models.list(), min(self.timeout, 10.0))
            return [m.id for m in page.data]
        except Exception:
            return None

    async def _only_model(self, client: Any) -> str:
        try:
            served = await asyncio.wait_for(client.models.list(), min(self.timeout, 10.0))
            ids = [m.id for m in served.data]
            if not all(isinstance(i, str) for i in ids):
                raise TypeError("model ids that are not strings")
        except (json.JSONDecodeError, AttributeError, TypeError) as exc:  # a 200 that is not a model list
            raise _CallFailed(f"no model given (--model or HAT_ENV_MODEL) and {self.base_url}/models answered "
                              f"HTTP 200 with something that is not a model list ({type(exc).__name__}); is the base "
                              "URL an OpenAI-compatible endpoint?") from None
        except Exception as exc:
            failed = await self._classify(client, exc)
            failed.sent = _requests_sent(getattr(exc, "request", None))
            raise failed from None
        if len(ids) != 1:
            raise _CallFailed(f"no model given (--model or HAT_ENV_MODEL) and {self.base_url} serves "
                              f"{len(ids)} models: {', '.join(ids) or '(none)'}")
        return ids[0]

    # -- lifecycle --------------------------------------------------------------------------------------------
    def served_models(self) -> list[str]:
        """The endpoint's model names (``GET /v1/models``); raises on failure."""

        async def go() -> list[str]:
            client, _ = self._client()
            page = await client.models.list()
            return [m.id for m in page.data]

        return asyncio.run_coroutine_threadsafe(go(), self._background_loop()).result(self.timeout)

    async def aclose(self) -> None:
        """Close the HTTP client of the running event loop (call it before that loop ends)."""
        loop = asyncio.get_running_loop()
        with self._lock:
            got = self._per_loop.pop(id(loop), None)
        if got is not None and got[0] is loop:
            await got[1].close()

    def close(self) -> None:
        """Close the private loop's HTTP client and stop that loop (idempotent). Clients made on other loops
        by :meth:`aact` are closed by :meth:`aclose` on their loop (or dropped with it)."""
        with self._lock:
            entries = list(self._per_loop.values())
            self._per_loop.clear()
            bg, self._bg = self._bg, None
        for loop, client, _ in entries:
            if loop.is_closed():
                continue
            if bg is not None and loop is bg[0]:
                try:
                    asyncio.run_coroutine_threadsafe(client.close(), loop).result(5)
                except Exception:
                    pass
        if bg is not None:
            try:  # finish the async generators a stream read left suspended (an answer stopped midway)
                asyncio.run_coroutine_threadsafe(_drain(bg[0]), bg[0]).result(5)
            except Exception:
                pass
            bg[0].call_soon_threadsafe(bg[0].stop)
            bg[1].join(5)
            bg[0].close()

    def __enter__(self) -> "OpenAIAgent":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"OpenAIAgent(model={self.model!r}, base_url={self.base_url!r})"


async def _drain(loop: asyncio.AbstractEventLoop) -> None:
    """Close ``loop``'s async generators and run the finalisers already scheduled (what ``asyncio.run`` does at
    its end), so that stopping the loop destroys no pending task."""
    await loop.shutdown_asyncgens()
    for _ in range(3):
        await asyncio.sleep(0)


def _error_text(exc: Any) -> str:
    """The server's own error message (``{"message": ..}`` or ``{"error": {"message": ..}}``), else ``str(exc)``."""
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        err = body.get("error")
        msg = body.get("message") or (err.get("message") if isinstance(err, dict) else err) or body.get("detail")
        if msg:
            return str(msg)
    return str(getattr(exc, "message", None) or exc)


def _requests_sent(request: Any) -> int:
    """How many HTTP requests the client made up to ``request`` (the last one it sent): the client numbers its
    retries in the ``x-stainless-retry-count`` header of each request."""
    try:
        return int(request.headers.get("x-stainless-retry-count", 0)) + 1
    except (AttributeError, TypeError, ValueError):
        return 1
