"""The agent protocol and the registry that turns ``--agent`` specs into agents.

An agent maps an :class:`~hat_env.types.AgentRequest` (OpenAI messages + tools, plus the harness for scripted
agents) to an :class:`~hat_env.types.AgentResponse` (raw text and/or structured tool calls, timings, token
counts). Async agents implement ``aact``; :func:`call_agent` runs either kind.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import threading
from importlib.metadata import entry_points
from typing import Any, Callable, Mapping, Protocol, runtime_checkable

from hat_env.types import AgentRequest, AgentResponse


@runtime_checkable
class Agent(Protocol):
    """Anything with ``act(request) -> AgentResponse``. ``name`` labels it in traces and reports."""

    name: str

    def act(self, request: AgentRequest) -> AgentResponse:
        """Produce one model output for ``request``."""
        ...


def _run_coro(coro: Any) -> Any:
    """Run a coroutine to completion from sync code, also when this thread already runs an event loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    box: dict[str, Any] = {}

    def runner() -> None:
        try:
            box["result"] = asyncio.run(coro)
        except BaseException as exc:  # re-raised in the caller's thread
            box["error"] = exc

    t = threading.Thread(target=runner, name="hat-env-call-agent")
    t.start()
    t.join()
    if "error" in box:
        raise box["error"]
    return box["result"]


def _as_response(agent: Any, res: Any) -> AgentResponse:
    if isinstance(res, str):
        return AgentResponse(text=res)
    if not isinstance(res, AgentResponse):
        raise TypeError(f"agent {getattr(agent, 'name', agent)!r} returned {type(res).__name__}, not AgentResponse or str")
    return res


def call_agent(agent: Any, request: AgentRequest) -> AgentResponse:
    """Call ``agent`` synchronously whether it offers ``act``, an async ``aact``, or is a plain callable
    (sync or ``async def``).

    A plug-in may return a plain string; it is wrapped as the response text.
    """
    fn = getattr(agent, "act", None)
    if fn is None and hasattr(agent, "aact"):
        res: Any = _run_coro(agent.aact(request))
    else:
        fn = fn or agent
        res = fn(request)
        if inspect.isawaitable(res):
            res = _run_coro(res)
    return _as_response(agent, res)


async def acall_agent(agent: Any, request: AgentRequest) -> AgentResponse:
    """Async form of :func:`call_agent`: awaits ``aact`` (or an async callable); a sync ``act`` runs in a worker
    thread so the event loop stays free."""
    fn = getattr(agent, "aact", None)
    if fn is not None:
        return _as_response(agent, await fn(request))
    fn = getattr(agent, "act", None) or agent
    if inspect.iscoroutinefunction(fn):
        return _as_response(agent, await fn(request))
    res = await asyncio.to_thread(fn, request)
    if inspect.isawaitable(res):
        res = await res
    return _as_response(agent, res)


_BUILTIN: dict[str, str] = {
    "reference": "hat_env.agents.reference:ReferenceAgent",
    "random": "hat_env.agents.random_agent:RandomAgent",
    "memorizer": "hat_env.agents.memorizer:MemorizerAgent",
    "openai": "hat_env.agents.openai_agent:OpenAIAgent",
    "transformers": "hat_env.agents.transformers_agent:TransformersAgent",
    "vllm": "hat_env.agents.vllm_agent:VLLMAgent",
}


def builtin_agents() -> list[str]:
    """Names accepted by :func:`make_agent` without a plug-in."""
    return sorted(_BUILTIN)


def _load_attr(spec: str) -> Any:
    mod, _, attr = spec.partition(":")
    obj: Any = importlib.import_module(mod)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


def make_agent(spec: str, offered: Mapping[str, Any] | None = None, **kwargs: Any) -> Any:
    """Build an agent from a spec.

    Args:
        spec: a built-in name (``reference``, ``random``, ``memorizer``, ``openai``, ``transformers``,
            ``vllm``), a name registered in the
            ``hat_env.agents`` entry-point group, or ``module:attr`` naming a class, a factory or an agent object.
        offered: arguments the caller offers every agent (a run's ``seed``, the shared command-line flags such as
            ``model`` or ``max_tokens``): each is passed when the class or factory accepts it, else left out.
        **kwargs: passed to the class or factory (``seed``, ``model``...); each must be one it accepts. They win
            over ``offered``.

    Returns:
        The agent (an agent object named by ``module:attr`` is returned as it is).

    Raises:
        ValueError: the spec names nothing that can be found, or a keyword argument is not one the agent
            accepts (the message lists those it does).
    """
    target: Any
    if spec in _BUILTIN:
        target = _load_attr(_BUILTIN[spec])
    elif ":" in spec:
        try:
            target = _load_attr(spec)
        except (ImportError, AttributeError) as exc:
            raise ValueError(f"cannot load agent {spec!r}: {exc}") from None
    else:
        eps = {ep.name: ep for ep in entry_points(group="hat_env.agents")}
        if spec not in eps:
            raise ValueError(
                f"unknown agent {spec!r}: built-in agents are {builtin_agents()}, plug-ins {sorted(eps)}, "
                "or give module:attr"
            )
        target = eps[spec].load()
    if not (inspect.isclass(target) or (callable(target) and not hasattr(target, "act")
                                        and not hasattr(target, "aact") and _is_factory(target))):
        if kwargs:
            raise ValueError(f"agent {spec!r} is an agent object, not a class or factory: it takes no arguments "
                             f"(got {', '.join(sorted(kwargs))})")
        return target
    params = inspect.signature(target).parameters.values()
    if any(p.kind == p.VAR_KEYWORD for p in params):
        return target(**{**(offered or {}), **kwargs})
    valid = [p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    unknown = [k for k in kwargs if k not in valid]
    if unknown:
        raise ValueError(f"agent {spec!r} takes no argument{'s' if len(unknown) > 1 else ''} "
                         f"{', '.join(map(repr, unknown))}; its arguments: {', '.join(valid) or '(none)'}")
    return target(**{**{k: v for k, v in (offered or {}).items() if k in valid}, **kwargs})


def _is_factory(fn: Callable[..., Any]) -> bool:
    """A callable whose parameters do not look like ``(request)`` is treated as a factory."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return False
    return not (len(params) == 1 and params[0].name in ("request", "req"))
