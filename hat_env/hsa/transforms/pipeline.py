"""Running the transforms: the working copy of a parent harness dict, the five transforms in order, and the
copy-on-finish of what the variant still shares with its parent."""

from __future__ import annotations

import random
from typing import Any, Callable, Final

from hat_env.hsa.transforms._common import Record, _jcopy
from hat_env.hsa.transforms.constraints import constraints
from hat_env.hsa.transforms.prompt import prompt
from hat_env.hsa.transforms.skills import skill_content, skill_ids
from hat_env.hsa.transforms.tools import tool_schemas
from hat_env.hsa.vocab import Vocab

#: A transform: ``(harness dict, rng, strength, vocabulary, record)``, editing the dict in place.
Transform = Callable[[dict[str, Any], random.Random, float, Vocab, Record], None]

#: Transform of each dimension.
TRANSFORMS: Final[dict[str, Transform]] = {
    "skill_ids": skill_ids,
    "skill_content": skill_content,
    "tool_schemas": tool_schemas,
    "prompt": prompt,
    "constraints": constraints,
}

#: The order transforms run in: renames first (the texts they rewrite are then the parent's, which keeps their
#: scan cache warm), then the new reply skill, the wording, and the prompt (which may add a tool).
APPLY_ORDER: Final[tuple[str, ...]] = ("skill_ids", "tool_schemas", "constraints", "skill_content", "prompt")


def working_copy(parent: dict[str, Any]) -> dict[str, Any]:
    """A working copy of ``parent`` for the transforms: every container they change in place is new. Values
    they only ever replace (tool schemas and bindings, skill metadata, constraint lists) are shared until
    :func:`unshare` copies what is still shared."""
    h = dict(parent)
    p = h["prompt"] = dict(parent["prompt"])
    p["sections"] = [dict(s) for s in parent["prompt"]["sections"]]
    h["skill_tool"] = dict(parent["skill_tool"])
    h["tools"] = [dict(t) for t in parent["tools"]]
    h["skills"] = [dict(s) for s in parent["skills"]]
    h["constraints"] = dict(parent["constraints"])
    h["hooks"] = list(parent.get("hooks", []))  # shared: Record copies a hook before it changes one
    return h


def unshare(h: dict[str, Any], parent: dict[str, Any]) -> None:
    """Deep-copy the tool schemas still shared with ``parent`` (pydantic keeps nested values of ``dict[str,
    Any]`` fields by reference; the variant must not alias the cached parent)."""
    shared = {id(t["parameters"]) for t in parent["tools"]}
    for t in h["tools"]:
        if id(t.get("parameters")) in shared:
            t["parameters"] = _jcopy(t["parameters"])


def run(parent: dict[str, Any], rng: random.Random, dims: tuple[str, ...], strength: float, vocab: Vocab,
        memo: dict[Any, Any]) -> tuple[dict[str, Any], Record]:
    """The variant dict of ``parent`` and the :class:`Record` of its patch.

    Args:
        parent: the parent harness dict (not changed; the variant shares no container with it).
        rng: the random source (the transforms draw from it in :data:`APPLY_ORDER`).
        dims: the dimensions to apply.
        strength: 0-1, the probability of each elementary edit.
        vocab: the vocabulary family.
        memo: the parent's cache the transforms share (kept with the parent harness).
    """
    h = working_copy(parent)
    rec = Record(h, memo)
    for d in APPLY_ORDER:
        if d in dims:
            TRANSFORMS[d](h, rng, strength, vocab, rec)
    unshare(h, parent)
    return h, rec
