"""Deprecated: the old home of the Live-IFEval instructions, kept importable for a while; import from the new
modules.

- the types, validation, descriptions and checks: :mod:`hat_env.ifeval`
- the rewrites that follow them (``satisfy``, ``satisfy_all``, ``fit_reply``): :mod:`hat_env.agents.instructions`
  (the reference agent's policy)
- drawing them for a suite (``sample_instructions``, ``compatible``, ``types_for``, ``INCOMPATIBLE``):
  :mod:`hat_env.evaluation.instruction_sampling`
- the word pools (``KEYWORDS``, ``FORBIDDEN_POOL``, ``FILLERS``, ...): the ``ifeval`` section of the locale files
  (:mod:`hat_env.locales`)

Names resolve on first use (module ``__getattr__``), so importing this module loads nothing.
"""

from __future__ import annotations

import importlib
from typing import Any

_IFEVAL = (
    "INSTRUCTIONS", "RELATIONS", "InstructionType", "check", "check_all", "count_capital_words", "count_chars",
    "count_sentences", "count_term", "count_words", "describe", "get_type", "make_context", "prompt_of", "resolve",
    "split_sentences", "validate_instruction", "validate_instructions",
)
_MOVED: dict[str, str] = {
    **{n: "hat_env.ifeval" for n in _IFEVAL},
    **{n: "hat_env.agents.instructions" for n in ("fit_reply", "satisfy", "satisfy_all")},
    **{n: "hat_env.evaluation.instruction_sampling"
       for n in ("INCOMPATIBLE", "compatible", "sample_instructions", "types_for")},
}
#: Old pool name -> field of the locale files' ``ifeval`` section.
_POOLS: dict[str, str] = {
    "KEYWORDS": "keywords",
    "FORBIDDEN_POOL": "forbidden_pool",
    "START_PHRASES": "start_phrases",
    "END_PHRASES": "end_phrases",
    "FILLERS": "fillers",
    "POSTSCRIPT_MARKERS": "postscript_markers",
    "POSTSCRIPT_TEXT": "postscript_text",
}


def __getattr__(name: str) -> Any:
    if name in _MOVED:
        value = getattr(importlib.import_module(_MOVED[name]), name)
    elif name in _POOLS:
        from hat_env.ifeval.text import LOCALES
        from hat_env.locales import get_locale

        value = {loc: getattr(get_locale(loc).ifeval, _POOLS[name]) for loc in LOCALES}
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


__all__ = sorted([*_MOVED, *_POOLS])
