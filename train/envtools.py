"""Environment methods for TRL's ``environment_factory`` that carry the harness's own tool schemas.

TRL lists an environment class's public functions as the model's tools and renders them with
``apply_chat_template``, which derives a schema from a function's signature and docstring (no nesting,
patterns, enums or encodings) unless the tool *is* a schema ``dict``. :class:`HarnessTool` is a descriptor that is
the plain function on the class (so TRL finds it) and a :class:`BoundHarnessTool` on an instance: a ``dict`` equal
to the harness's OpenAI schema that is also callable as the method. :class:`NotATool` hides a public method from
TRL's tool list. Nothing here imports a heavy library.
"""

from __future__ import annotations

import inspect
import keyword
from typing import Any, Callable

_PY_TYPES = {"integer": int, "number": float, "boolean": bool, "string": str, "object": dict, "array": list}


def _tool_method(schema: dict[str, Any]) -> Callable[..., str]:
    """A method named after the tool, taking the tool's top-level parameters as keywords."""
    fn_schema = schema["function"]
    name = fn_schema["name"]
    params = fn_schema.get("parameters") or {}
    props: dict[str, Any] = params.get("properties") or {}
    required = set(params.get("required") or [])

    def tool(self: Any, **kwargs: Any) -> str:
        return self._call(name, kwargs)

    tool.__name__ = name
    tool.__qualname__ = name
    lines = [fn_schema.get("description") or name, "", "Args:"]
    for p, ps in props.items():
        lines.append(f"    {p}: {(ps or {}).get('description') or p}")
    tool.__doc__ = "\n".join(lines) if props else (fn_schema.get("description") or name)
    if all(p.isidentifier() and not keyword.iskeyword(p) for p in props):
        sig_params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        ann: dict[str, Any] = {}
        for p, ps in props.items():
            t = _PY_TYPES.get((ps or {}).get("type"), str)
            sig_params.append(inspect.Parameter(p, inspect.Parameter.KEYWORD_ONLY, annotation=t,
                                                default=inspect.Parameter.empty if p in required else None))
            ann[p] = t
        ann["return"] = str
        tool.__signature__ = inspect.Signature(sig_params, return_annotation=str)  # type: ignore[attr-defined]
        tool.__annotations__ = ann
    return tool


class BoundHarnessTool(dict):  # type: ignore[type-arg]
    """One environment's tool: callable like the method, and equal (as a ``dict``) to the harness's own OpenAI
    schema of the tool.

    ``apply_chat_template`` and TRL's response parser take a tool either as a function (and derive a schema from
    its signature and docstring, which cannot carry nesting, patterns, enums or encodings) or as a schema
    ``dict``: being both, this object makes a plain ``trl.GRPOTrainer`` render and parse every prompt with the
    harness variant's own schemas while calling the method for the tool call.
    """

    def __init__(self, schema: dict[str, Any], method: Callable[..., str]) -> None:
        super().__init__(schema)
        self.method = method
        self.__name__ = method.__name__
        self.__doc__ = method.__doc__

    def __call__(self, **arguments: Any) -> str:
        """Run the tool call through the harness runtime; returns what the model reads back."""
        return self.method(**arguments)


class HarnessTool:
    """A descriptor for one harness tool on a generated environment class.

    On the class it is the plain function (what ``inspect.getmembers(..., inspect.isfunction)`` lists, so TRL
    finds it as a tool); on an instance it is a :class:`BoundHarnessTool` (the method, carrying the schema).

    Args:
        schema: the tool's OpenAI schema, ``{"type": "function", "function": {...}}``.
    """

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema
        self.function = _tool_method(schema)

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self.function
        return BoundHarnessTool(self.schema, self.function.__get__(obj, owner))


class NotATool:
    """A descriptor for an environment method that is not a tool: on an instance the bound method, on the class
    this object, which is no function, so TRL (which lists the class's public functions as the model's tools)
    leaves it out."""

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function
        self.__doc__ = function.__doc__

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        return self if obj is None else self.function.__get__(obj, owner)


