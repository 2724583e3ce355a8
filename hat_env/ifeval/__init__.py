"""Verifiable instructions for a spoken live reply (Live-IFEval): the types, their parameters, checks and texts.

An instruction is a plain dict ``{"type": TYPE_ID, **params}`` in ``constraints.instructions`` of a harness, so an
operator can change them at runtime with a patch (``{"op": "set", "path": "constraints.instructions", ...}``).
Type ids follow IFEval (google-research ``instruction_following_eval``) where a type fits a spoken reply; a few
live-room types (``startend:start_checker``, ``keywords:mention_link``, ``detectable_content:mention_viewer``)
follow its spirit. Relations are IFEval's ``"less than"`` (``<``) and ``"at least"`` (``>=``).

Every type in :data:`INSTRUCTIONS` offers ``validate(params)`` (a pydantic model, unknown keys are errors),
``describe(params, locale)`` (the text shown in the system prompt, in the locale's language),
``check(reply, params, locale, context)`` (the strict check) and ``stage(params)`` (the kind of edit it asks for).

The package is split by concern: :mod:`~hat_env.ifeval.registry` (the types and the dict-level functions),
:mod:`~hat_env.ifeval.params`, :mod:`~hat_env.ifeval.checks`, :mod:`~hat_env.ifeval.describe`,
:mod:`~hat_env.ifeval.text` (counting and segmenting) and :mod:`~hat_env.ifeval.context`. Other owners hold the
rest: scoring (strict and loose, IFEval's numbers) is :mod:`hat_env.evaluation.ifeval`; drawing instructions for a
suite is :mod:`hat_env.evaluation.instruction_sampling`; rewriting a reply to follow them (the scripted reference
agent's policy) is :mod:`hat_env.agents.instructions`.
"""

from __future__ import annotations

from hat_env.ifeval.context import make_context, prompt_of
from hat_env.ifeval.params import RELATIONS
from hat_env.ifeval.registry import (
    INSTRUCTIONS,
    InstructionType,
    Stage,
    check,
    check_all,
    describe,
    get_type,
    resolve,
    validate_instruction,
    validate_instructions,
)
from hat_env.ifeval.text import (
    LOCALES,
    count_capital_words,
    count_chars,
    count_sentences,
    count_term,
    count_words,
    split_sentences,
)

__all__ = [
    "INSTRUCTIONS",
    "LOCALES",
    "RELATIONS",
    "InstructionType",
    "Stage",
    "check",
    "check_all",
    "count_capital_words",
    "count_chars",
    "count_sentences",
    "count_term",
    "count_words",
    "describe",
    "get_type",
    "make_context",
    "prompt_of",
    "resolve",
    "split_sentences",
    "validate_instruction",
    "validate_instructions",
]
