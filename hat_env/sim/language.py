"""Deprecated: the old home of the viewer language, kept importable for a while; import from the new modules.

- :func:`~hat_env.sim.comments.render_comment`, :func:`~hat_env.sim.comments.persona_intents`:
  :mod:`hat_env.sim.comments`
- :func:`~hat_env.sim.parser.parse_comment`: :mod:`hat_env.sim.parser`
- :func:`~hat_env.agents.reply.compose_reply`, :class:`~hat_env.agents.reply.ReplyPart`,
  :data:`~hat_env.agents.reply.FORBIDDEN_REPLY_TERMS`: :mod:`hat_env.agents.reply` (the reference agent)
- the templates, keywords and payloads: the locale files (:mod:`hat_env.locales`)

Names resolve on first use (module ``__getattr__``), so importing this module loads nothing.
"""

from __future__ import annotations

import importlib
from typing import Any

_MOVED: dict[str, str] = {
    "render_comment": "hat_env.sim.comments",
    "persona_intents": "hat_env.sim.comments",
    "parse_comment": "hat_env.sim.parser",
    "compose_reply": "hat_env.agents.reply",
    "ReplyPart": "hat_env.agents.reply",
    "FORBIDDEN_REPLY_TERMS": "hat_env.agents.reply",
}


def _per_locale(attr: str) -> dict[str, tuple[str, ...]]:
    from hat_env.locales import builtin_locales, get_locale

    out = {}
    for loc in builtin_locales():
        data: Any = get_locale(loc)
        for part in attr.split("."):
            data = getattr(data, part)
        out[loc] = data
    return out


def __getattr__(name: str) -> Any:
    if name in _MOVED:
        value = getattr(importlib.import_module(_MOVED[name]), name)
    elif name == "INJECTION_PAYLOADS":
        value = _per_locale("injection_payloads")
    elif name == "ASK_AGAIN_PREFIX":
        value = _per_locale("comments.ask_again_prefix")
    elif name == "LOCALES":
        from hat_env.locales import builtin_locales

        value = builtin_locales()
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


__all__ = [
    "ASK_AGAIN_PREFIX",
    "FORBIDDEN_REPLY_TERMS",
    "INJECTION_PAYLOADS",
    "LOCALES",
    "ReplyPart",
    "compose_reply",
    "parse_comment",
    "persona_intents",
    "render_comment",
]
