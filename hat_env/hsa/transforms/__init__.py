"""The five HSA transforms, one per dimension, each a seeded edit of a harness dict.

Every transform has the signature ``(h, rng, strength, vocab, record)``: ``h`` is the harness dict (the
:meth:`~hat_env.harness.core.Harness.to_dict` layout) it edits in place, ``rng`` a ``random.Random``,
``strength`` in ``[0, 1]`` the probability of each elementary edit (at least one edit happens when it is above
0), ``vocab`` the family's :class:`~hat_env.hsa.vocab.Vocab`, and ``record`` the :class:`Record` every change
goes through: changes are :mod:`hat_env.harness.patch` operations, so a variant is its parent plus a replayable
patch (``parent.apply(record.ops)`` gives the variant back, hash for hash).

All transforms are task-preserving: canonical operations, argument meaning (codecs are lossless), intents
covered by reply skills, binding rules and the reply budget stay; only names, encodings, wording, structure and
constraint values change. Nothing here iterates a ``set`` or a hash-ordered container, so a seed fixes the
variant byte for byte.

Speed matters (HSA runs before every rollout): transforms change values they own instead of searching, pick
with one ``random()`` call instead of ``choice``, and keep small per-parent and per-vocabulary caches (pure
functions of their keys; nothing cached is ever handed out for mutation).
"""

from __future__ import annotations

import random
from typing import Any, Callable

from hat_env.hsa.transforms._common import MAX_TURN_LIMIT, MIN_REPLY_CHARS, MIN_TURN_LIMIT, RESULT_FIELDS, Record
from hat_env.hsa.transforms.constraints import constraints
from hat_env.hsa.transforms.prompt import prompt
from hat_env.hsa.transforms.skills import join_body, parse_body, skill_content, skill_description, skill_ids, skill_name
from hat_env.hsa.transforms.tools import tool_name, tool_schemas
from hat_env.hsa.vocab import Vocab

#: Transform of each dimension.
TRANSFORMS: dict[str, Callable[[dict[str, Any], random.Random, float, Vocab, Record], None]] = {
    "skill_ids": skill_ids,
    "skill_content": skill_content,
    "tool_schemas": tool_schemas,
    "prompt": prompt,
    "constraints": constraints,
}

#: The order transforms run in: renames first (the texts they rewrite are then the parent's, which keeps their
#: scan cache warm), then the new reply skill, the wording, and the prompt (which may add a tool).
APPLY_ORDER: tuple[str, ...] = ("skill_ids", "tool_schemas", "constraints", "skill_content", "prompt")

__all__ = ["APPLY_ORDER", "MAX_TURN_LIMIT", "MIN_REPLY_CHARS", "MIN_TURN_LIMIT", "RESULT_FIELDS", "Record",
           "TRANSFORMS", "constraints", "join_body", "parse_body", "prompt", "skill_content", "skill_description",
           "skill_ids", "skill_name", "tool_name", "tool_schemas"]
