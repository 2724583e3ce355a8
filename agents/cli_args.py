"""Command-line flags that configure model-backed agents, shared by ``hat-env run`` and other commands.

``add_agent_arguments(parser)`` adds ``--model``, ``--base-url``, ``--api-key-env``, ``--max-concurrency``,
``--timeout``, ``--max-tokens``, ``--temperature``, ``--engine-arg KEY=VALUE`` and ``--agent-arg KEY=VALUE``;
``agent_from_args(spec, args, seed)`` builds the agent with :func:`hat_env.agents.make_agent`. The shared flags
(:func:`flag_kwargs`) and the run's seed are offered: each agent takes those its constructor accepts (``--timeout``
means nothing to the reference agent). ``--agent-arg`` and ``--engine-arg`` (:func:`agent_kwargs`) are
required: an argument the agent does not take is an error that lists the ones it does.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

#: flag destination -> constructor keyword(s) it sets.
_SIMPLE = {
    "model": ("model",),
    "base_url": ("base_url",),
    "api_key_env": ("api_key_env",),
    "max_concurrency": ("max_concurrency",),
    "timeout": ("timeout",),
    "max_tokens": ("max_tokens", "max_new_tokens"),
    "temperature": ("temperature",),
}


def parse_kv(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` with VALUE read as JSON when it parses (numbers, booleans, objects), else as a string.

    Raises:
        argparse.ArgumentTypeError: no ``=`` or an empty key.
    """
    key, sep, raw = text.partition("=")
    key = key.strip().replace("-", "_")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    try:
        value: Any = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return key, value


def add_agent_arguments(parser: argparse.ArgumentParser, skip: tuple[str, ...] = ()) -> None:
    """Add the model-agent flags to ``parser`` (except the destinations named in ``skip``)."""
    g = parser.add_argument_group("model agents (openai, transformers, vllm, plug-ins)")
    flags = [
        ("model", "--model", dict(help="model: served model name (openai; env HAT_ENV_MODEL) or local path (transformers, vllm)")),
        ("base_url", "--base-url", dict(help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1 (env OPENAI_BASE_URL)")),
        ("api_key_env", "--api-key-env", dict(help="name of the environment variable holding the API key (default OPENAI_API_KEY)")),
        ("max_concurrency", "--max-concurrency", dict(type=int, help="requests in flight at once to the endpoint (openai; default 8)")),
        ("timeout", "--timeout", dict(type=float, help="seconds one model call may take (openai; default 60)")),
        ("max_tokens", "--max-tokens", dict(type=int, help="most tokens per model output")),
        ("temperature", "--temperature", dict(type=float, help="sampling temperature (0: greedy)")),
    ]
    for dest, flag, kw in flags:
        if dest not in skip:
            g.add_argument(flag, dest=dest, default=None, **kw)
    if "engine_args" not in skip:
        g.add_argument("--engine-arg", dest="engine_args", action="append", type=parse_kv, default=None,
                       metavar="KEY=VALUE", help="vLLM engine argument, repeatable (VALUE as JSON when it parses): "
                       "tensor_parallel_size=2, max_model_len=8192, speculative_config='{\"method\":\"mtp\",...}'")
    if "agent_args" not in skip:
        g.add_argument("--agent-arg", dest="agent_args", action="append", type=parse_kv, default=None,
                       metavar="KEY=VALUE", help="any other agent constructor argument, repeatable "
                       "(device=cpu, extra_body='{\"top_k\":20}', max_retries=5)")


def flag_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """Keyword arguments from the shared flags that were given (``--model``, ``--timeout``...), to offer an agent
    (``--max-tokens`` offers both ``max_tokens`` and ``max_new_tokens``)."""
    kw: dict[str, Any] = {}
    for dest, keys in _SIMPLE.items():
        v = getattr(args, dest, None)
        if v is not None:
            for k in keys:
                kw[k] = v
    return kw


def agent_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """Keyword arguments the agent must accept: ``--engine-arg`` (as ``engine_args``) and ``--agent-arg``."""
    kw: dict[str, Any] = {}
    if getattr(args, "engine_args", None):
        kw["engine_args"] = dict(args.engine_args)
    for k, v in getattr(args, "agent_args", None) or []:
        kw[k] = v
    return kw


def agent_from_args(spec: str, args: argparse.Namespace, seed: int = 0) -> Any:
    """The agent ``spec`` names, configured from the command line (see the module docstring).

    Args:
        spec: an agent spec for :func:`hat_env.agents.make_agent`.
        args: the parsed flags of :func:`add_agent_arguments`.
        seed: the run's seed, offered to the agent.

    Raises:
        ValueError: the spec names no agent, or an ``--agent-arg``/``--engine-arg`` is not one it accepts.
    """
    from hat_env.agents.base import make_agent

    return make_agent(spec, offered={"seed": seed, **flag_kwargs(args)}, **agent_kwargs(args))
