"""Harness specs built without validation, for dicts that are valid by construction.

HSA derives thousands of variants per second from one validated harness, and every value a variant holds is
either the parent's or drawn from vocabularies whose values the tests check. For those dicts
:func:`trusted_spec` builds the same :class:`~hat_env.harness.spec.HarnessSpec` that ``model_validate`` would (the
same field values, containers copied one level deep as pydantic copies them, the same set fields), at about 60 %
of the cost: models are created the way ``BaseModel.model_construct`` creates them, and the small, immutable
parts variants keep drawing again (argument bindings, prompt sections) are validated once and shared.

Anything read from a file, or given by a user, goes through ``model_validate``; ``augment(..., check=True)``
validates its variants too, and the tests check that both paths agree on every variant they draw.
"""

from __future__ import annotations

from typing import Any, Final

from pydantic import BaseModel

from hat_env.harness.spec import (ArgBinding, Constraints, HarnessSpec, HookSpec, PromptSpec, Section, SkillSpec,
                                  SkillToolSpec, ToolSpec)

_new: Final = object.__new__
_set: Final = object.__setattr__

#: Validated bindings and sections by value (bounded: cleared when full). Models are never changed once built,
#: so any number of harnesses may share them.
_BINDINGS: Final[dict[tuple[Any, ...], ArgBinding]] = {}
_SECTIONS: Final[dict[tuple[Any, ...], Section]] = {}
_LIMIT: Final = 16384

#: The fields-set of a tool or skill dict holding every field (as every HSA dict does: they come from
#: ``model_dump``): one set shared by those models, as pydantic never changes a set that already holds every
#: field (assigning a field adds its name; ``model_copy`` copies the set).
_TOOL_FIELDS: Final = set(ToolSpec.model_fields)
_SKILL_FIELDS: Final = set(SkillSpec.model_fields)


def _model(cls: type[BaseModel], values: dict[str, Any], given: set[str]) -> Any:
    """A ``cls`` instance holding ``values`` (every field), with ``given`` as the fields set explicitly."""
    m = _new(cls)
    _set(m, "__dict__", values)
    _set(m, "__pydantic_fields_set__", given)
    _set(m, "__pydantic_extra__", None)
    _set(m, "__pydantic_private__", None)
    return m


def _shared(cache: dict[tuple[Any, ...], Any], key: tuple[Any, ...], cls: type[BaseModel], data: dict[str, Any]
            ) -> Any:
    """The validated ``cls`` model of ``data`` from ``cache`` by ``key`` (validated and kept on a miss; the cache
    is cleared when full)."""
    hit = cache.get(key)
    if hit is None:
        if len(cache) > _LIMIT:
            cache.clear()
        hit = cache[key] = cls.model_validate(data)
    return hit


def _binding(b: dict[str, Any]) -> ArgBinding:
    c = b["codec"]
    cmap = c["map"]
    return _shared(_BINDINGS, (b["path"], c["type"], c["prefix"], tuple(cmap.items()) if cmap else ()), ArgBinding, b)


def _section(s: dict[str, Any]) -> Section:
    return _shared(_SECTIONS, (s["id"], s["title"], s["text"], s["source"]), Section, s)


def _tool(t: dict[str, Any]) -> ToolSpec:
    args = t["args"]
    return _model(ToolSpec, {
        "name": t["name"], "op": t["op"], "description": t["description"], "parameters": dict(t["parameters"]),
        "args": {k: _binding(b) for k, b in args.items()} if args else {}, "results": dict(t["results"]),
    }, _TOOL_FIELDS if len(t) == len(_TOOL_FIELDS) else set(t))  # every field read above: then every key is one


def _skill(s: dict[str, Any]) -> SkillSpec:
    if len(s) == len(_SKILL_FIELDS):  # every field is read below: then every key is one
        given = _SKILL_FIELDS
    else:
        given = set(s)
        given.discard("allowed-tools")
        given.add("allowed_tools")
    return _model(SkillSpec, {
        "name": s["name"], "description": s["description"], "body": s["body"], "metadata": dict(s["metadata"]),
        "allowed_tools": s["allowed-tools"],
    }, given)


def _constraints(c: dict[str, Any]) -> Constraints:
    return _model(Constraints, {
        "max_reply_chars": c["max_reply_chars"], "turn_limit": c["turn_limit"], "max_retries": c["max_retries"],
        "forbidden_words": list(c["forbidden_words"]), "required_disclosure": c["required_disclosure"],
        "require_reply_skill": c["require_reply_skill"], "feedback": dict(c["feedback"]),
        "fallback_reply": dict(c["fallback_reply"]), "instructions": [dict(i) for i in c["instructions"]],
    }, set(c))


def trusted_spec(d: dict[str, Any], hooks: dict[int, HookSpec] | None = None) -> HarnessSpec:
    """The spec of the harness dict ``d`` (every field present, the layout ``model_dump(by_alias=True)`` gives),
    built without validation: only for dicts that are valid by construction (see the module docstring).

    Args:
        d: the harness dict (not changed; the spec shares its strings and nested schema values).
        hooks: validated hook models to use for hook dicts, by the dict's ``id()`` (the parent's, for hooks a
            variant shares with it); the other hooks are validated.

    Raises:
        KeyError: ``d`` lacks a field (it was not made from a dumped harness): validate it instead.
    """
    p = d["prompt"]
    st = d["skill_tool"]
    known = hooks or {}
    return _model(HarnessSpec, {
        "name": d["name"], "version": d["version"], "description": d["description"],
        "prompt": _model(PromptSpec, {"markup": p["markup"], "sections": [_section(s) for s in p["sections"]]}, set(p)),
        "skill_tool": _model(SkillToolSpec, {"name": st["name"], "param": st["param"],
                                             "description": st["description"]}, set(st)),
        "tools": [_tool(t) for t in d["tools"]],
        "skills": [_skill(s) for s in d["skills"]],
        "constraints": _constraints(d["constraints"]),
        "hooks": [known.get(id(hk)) or HookSpec.model_validate(hk) for hk in d["hooks"]],
    }, set(d))


__all__ = ["trusted_spec"]
