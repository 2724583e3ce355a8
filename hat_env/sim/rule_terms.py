"""Plain words as Python ``re`` patterns, matched the way rules, facts and hooks match words (CJK: substring; Latin:
between ASCII word boundaries).

Split out of :mod:`hat_env.sim.compliance`; the names stay importable from there.
"""

from __future__ import annotations

import re
from functools import lru_cache

_CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")
_WS = re.compile(r"\s+")
_ASCII_L = r"(?<![A-Za-z0-9_])"
_ASCII_R = r"(?![A-Za-z0-9_])"


def term_regex_source(term: str) -> str:
    """Python ``re`` source matching ``term`` the way rules, facts and hooks match words.

    For the project's own word lists and the facts scoring reads (product names): the term is escaped, so no
    pattern syntax reaches Python's backtracking engine. Rule terms compile to RE2 instead
    (:func:`hat_env.sim.rule_regex.term_source`, the same matches).

    Args:
        term: a plain word or phrase (not a regex).

    Returns:
        A substring pattern when ``term`` contains CJK characters, otherwise the escaped term between ASCII word
        boundaries (so ``#1`` and ``No. 1`` work, and ``best`` does not fire in ``bestow``). Whitespace in the
        term matches any whitespace or none. Compile it with ``re.IGNORECASE``.
    """
    t = term.strip()
    parts = [re.escape(p) for p in _WS.split(t) if p]
    if not parts:
        return r"(?!x)x"
    body = r"\s*".join(parts)
    if _CJK.search(t):
        return body
    left = _ASCII_L if _is_word_char(t[0]) else ""
    right = _ASCII_R if _is_word_char(t[-1]) else ""
    return f"{left}{body}{right}"


def _is_word_char(c: str) -> bool:
    return c.isascii() and (c.isalnum() or c == "_")


@lru_cache(maxsize=4096)
def words_regex(words: tuple[str, ...]) -> re.Pattern[str]:
    """One compiled, case-insensitive regex matching any of ``words`` (see :func:`term_regex_source`); cached."""
    srcs = [term_regex_source(w) for w in sorted(set(words), key=len, reverse=True) if w.strip()]
    return re.compile("|".join(srcs) if srcs else r"(?!x)x", re.IGNORECASE)
