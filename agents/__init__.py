"""Agent adapters (installed as ``hat_env.agents``): the protocol, the registry and the built-in agents.

Heavy adapters (transformers, vLLM, OpenAI) import their libraries only when constructed.
"""

from hat_env.agents.base import Agent, acall_agent, builtin_agents, call_agent, make_agent

__all__ = ["Agent", "acall_agent", "builtin_agents", "call_agent", "make_agent"]
