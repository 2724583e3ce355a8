"""How a compliance rule's ``terms``, ``patterns``, ``allow`` phrases and ``not_followed_by`` become regexes.

Rule packs are data and replies are written by a model, so every rule regex runs on RE2 (linear time; see
:mod:`hat_env.saferegex`), the built-in pack's included. The pattern language is RE2's syntax with Python's
meaning for ``\\d``, ``\\s`` and ``\\w`` (Unicode digits, whitespace and word characters: ``只剩３件`` and the
ideographic space count) and an ASCII ``\\b`` (so ``品牌best`` has a boundary before ``best``, as terms do). There
is no lookaround: a rule entry's ``not_followed_by`` patterns drop a match that is immediately followed by one of
them (what ``(?!...)`` at the end of a pattern did), and ``allow`` phrases drop a match inside them.

Terms are plain words: a term with CJK characters matches as a substring; a term of plain ASCII matches at
ASCII word boundaries; spaces inside a term match any run of whitespace or none; always case-insensitive.
"""

from __future__ import annotations

import re
from typing import Any

from hat_env import saferegex

#: Name of the group that holds what follows a match when the entry has ``not_followed_by`` patterns.
NFB_GROUP = "_hat_nfb"

_CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")
_WS = re.compile(r"\s+")
_SPACES = saferegex.python_classes(r"\s*")


def _is_word_char(c: str) -> bool:
    return c.isascii() and (c.isalnum() or c == "_")


def _literal(s: str) -> str:
    """``s`` as an RE2 literal: ASCII punctuation and control characters escaped as ``\\x{..}``."""
    return "".join(c if (not c.isascii() or c.isalnum() or c == "_") else f"\\x{{{ord(c):x}}}" for c in s)


def term_source(term: str) -> str | None:
    """RE2 source matching ``term`` as rules match words (see the module docstring); ``None`` for a blank term."""
    t = term.strip()
    parts = [_literal(p) for p in _WS.split(t) if p]
    if not parts:
        return None
    body = _SPACES.join(parts)
    if _CJK.search(t):
        return body
    left = r"\b" if _is_word_char(t[0]) else ""
    right = r"\b" if _is_word_char(t[-1]) else ""
    return f"{left}{body}{right}"


def words_source(words: tuple[str, ...] | list[str]) -> str | None:
    """One RE2 source matching any of ``words`` (longest first, so the longest phrase at a place wins)."""
    srcs = [s for w in sorted(set(words), key=len, reverse=True) if (s := term_source(w)) is not None]
    return "|".join(srcs) if srcs else None


def alternation_source(words: tuple[str, ...] | list[str]) -> str:
    """One RE2 group ``(?:...)`` matching any of ``words`` as literals (longest first; spaces inside a word match
    any run of whitespace or none), WITHOUT word boundaries: what a ``{name}`` placeholder of a rule pattern stands
    for (:func:`expand_placeholders`); the pattern says where its boundaries are."""
    alts = []
    for w in sorted({w.strip() for w in words if w.strip()}, key=len, reverse=True):
        alts.append(_SPACES.join(_literal(p) for p in _WS.split(w) if p))
    return "(?:" + "|".join(alts) + ")" if alts else r"(?:\b\B)"


#: A ``{name}`` placeholder of a rule pattern (lower-case letters and ``_``: never a ``{m,n}`` repetition).
PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


def expand_placeholders(pattern: str, lexicon: dict[str, list[str]]) -> str:
    """``pattern`` with every ``{name}`` replaced by :func:`alternation_source` of ``lexicon[name]``.

    Raises:
        ValueError: a placeholder names no list of ``lexicon`` (the message names it and the known ones).
    """
    def sub(m: re.Match[str]) -> str:
        words = lexicon.get(m.group(1))
        if words is None:
            known = ", ".join(sorted(lexicon)) or "none"
            raise ValueError(f"pattern {pattern[:80]!r}: unknown lexicon list {{{m.group(1)}}} (known: {known})")
        return alternation_source(words)

    return PLACEHOLDER.sub(sub, pattern)


def pattern_source(pattern: str) -> str:
    """The RE2 source of a rule ``pattern`` (Python's ``\\d``, ``\\s``, ``\\w``).

    Raises:
        saferegex.RegexError: the pattern is refused (the reason is given).
    """
    src = saferegex.python_classes(pattern)
    saferegex.compile(src, True)
    return src


#: What a pattern-final ``\\b`` becomes in a rule of a Latin-script locale other than English: the ASCII boundary,
#: else one character that is no letter, digit or ``_``, else the end (RE2's ``\\b`` is ASCII, so ``acn[eé]\\b``
#: never matched "cura el acné." and a word ending in an accented letter was never found at the end of a pattern).
_LATIN_EDGE = r"(?:\b|[^\p{L}\p{N}_]|$)"


def latin_right_edge(source: str) -> str:
    """``source`` with a final ``\\b`` that also holds after a word ending in an accented letter (:data:`_LATIN_EDGE`:
    the ASCII boundary is tried first, so a match that held before is the same match); other sources unchanged."""
    if source.endswith(r"\b") and not source.endswith(r"\\b"):
        return source[:-2] + _LATIN_EDGE
    return source


def with_followers(source: str, not_followed_by: list[str] | tuple[str, ...]) -> str:
    """``source`` followed by an optional group :data:`NFB_GROUP` of the ``not_followed_by`` sources: a match where
    that group took part is one the rule drops."""
    if not not_followed_by:
        return source
    tail = "|".join(f"(?:{pattern_source(p)})" for p in not_followed_by)
    return f"(?:{source})(?P<{NFB_GROUP}>{tail})?"


def compile_rule(source: str, cache: bool = True) -> Any:
    """Compile a rule regex source (case-insensitive RE2).

    Args:
        source: the RE2 source.
        cache: keep it in :func:`hat_env.saferegex.compile`'s shared cache (fixed patterns: rule packs,
            vocabularies); ``False`` for one built from data that varies per room, which its owner caches.
    """
    return saferegex.compile(source, True) if cache else saferegex.compile_uncached(source, True)


def check_pattern(p: str) -> str:
    """Pydantic validator: ``p`` is an acceptable rule pattern (RE2, at most :data:`saferegex.MAX_PATTERN_CHARS`).

    Raises:
        ValueError: with the reason (lookaround, backreference, syntax, size).
    """
    try:
        pattern_source(p)
    except saferegex.RegexError as exc:
        raise ValueError(f"pattern {p[:80]!r}: {exc}") from None
    return p


def check_follower(p: str) -> str:
    """Pydantic validator for a ``not_followed_by`` pattern: acceptable, and never matching the empty string (that
    would drop every match)."""
    check_pattern(p)
    if compile_rule(pattern_source(p)).fullmatch("") is not None:
        raise ValueError(f"not_followed_by pattern {p!r} matches the empty text, so it would drop every match")
    return p
