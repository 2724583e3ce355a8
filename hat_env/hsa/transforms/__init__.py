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

from hat_env.hsa.transforms._common import MAX_TURN_LIMIT, MIN_REPLY_CHARS, MIN_TURN_LIMIT, RESULT_FIELDS, Record
from hat_env.hsa.transforms.constraints import constraints
from hat_env.hsa.transforms.pipeline import APPLY_ORDER, TRANSFORMS, run, unshare, working_copy
from hat_env.hsa.transforms.prompt import prompt
from hat_env.hsa.transforms.skills import join_body, parse_body, skill_content, skill_description, skill_ids, skill_name
from hat_env.hsa.transforms.tools import tool_name, tool_schemas

__all__ = ["APPLY_ORDER", "MAX_TURN_LIMIT", "MIN_REPLY_CHARS", "MIN_TURN_LIMIT", "RESULT_FIELDS", "Record",
           "TRANSFORMS", "constraints", "join_body", "parse_body", "prompt", "skill_content", "skill_description",
           "skill_ids", "skill_name", "tool_name", "tool_schemas", "run", "unshare", "working_copy"]
