"""Words inside quotation marks opened right after a verb of someone else's speech ("您说“全网最贵”", "you said
\"the cheapest\"") are that person's, quoted back: not the host's claim. The verbs are the locale's
``reported_speech``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading

_OPEN_QUOTE = "“「『\"'"
_CLOSE_QUOTE = "”」』\"'"


def quoted_speech(r: "Reading", ct: str, m: "re.Match[str]") -> bool:
    """Whether match ``m`` of clause text ``ct`` stands inside quotation marks opened right after a verb of
    someone else's speech (the locale's ``reported_speech``, "您说“...”", "you said \"...\"")."""
    k = max(ct.rfind(q, 0, m.start()) for q in _OPEN_QUOTE)
    if k < 0 or not any(q in ct[m.end():] for q in _CLOSE_QUOTE):
        return False
    rs = r.vocab.rx.get("reported_speech")
    return rs is not None and rs.search(ct[max(0, k - 12) : k]) is not None


__all__ = ["quoted_speech"]
