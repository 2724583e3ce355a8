"""Word-list patterns shared by the comment parser's word tables: a literal alternation factored into a trie (no
nested quantifiers, so matching is linear in the text's length), and every built-in locale's words of one parser
field."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from hat_env.understanding.fold import fold

#: a word's role in the parser's vocabulary (:mod:`hat_env.understanding.lexicon`)
Role = tuple[str, "str | None"]


def _char_pat(ch: str) -> str:
    if ch == " ":
        return r"\s+"
    return re.escape(ch)


def trie_pattern(words: list[str], ascii_words: bool, plural: bool = False, sep: str | None = None) -> str:
    """A prefix-factored alternation of ``words`` (the longer match wins; ASCII words end at a word boundary, and
    with ``plural`` may take an ``s``/``es``/``'s`` ending). ``sep`` (a pattern) may stand between the words'
    units, which are then the space-separated parts of each word."""
    root: dict[str, Any] = {}
    for w in words:
        node = root
        units = w.split(" ") if sep is not None else list(w)
        for i, u in enumerate(units):
            key = u if sep is None else (u if i == 0 else "\0" + u)
            node = node.setdefault(key, {})
        node[""] = {}

    def unit(key: str) -> str:
        if sep is None:
            return _char_pat(key)
        if key.startswith("\0"):
            return sep + re.escape(key[1:])
        return re.escape(key)

    end = r"(?:e?s|'s)?(?![a-z])" if plural else r"(?![a-z])"

    def emit(node: dict[str, Any]) -> str:
        alts = [unit(k) + emit(child) for k, child in sorted(node.items()) if k]
        if "" in node:
            alts.append(end if ascii_words else "")
        if len(alts) == 1:
            return alts[0]
        return "(?:" + "|".join(alts) + ")"

    return emit(root)


@lru_cache(maxsize=32)
def locale_words(field: str) -> tuple[str, ...]:
    """Every built-in locale's parser words of ``field`` (a :class:`~hat_env.locales.ParserSpec` list such as
    ``praise_words``), folded, without empty ones, sorted."""
    from hat_env.locales import builtin_locales, get_locale

    return tuple(sorted({fold(w) for loc in builtin_locales() for w in getattr(get_locale(loc).parser, field)
                         if fold(w)}))


def alternation(words: list[str], plural: bool = False) -> str:
    """One pattern for ``words``: ASCII-initial ones at word boundaries, others anywhere (empty list: never)."""
    asc = [w for w in words if w[:1].isascii()]
    other = [w for w in words if w and not w[:1].isascii()]
    parts = []
    if asc:
        parts.append(r"(?<![a-z])" + trie_pattern(asc, True, plural))
    if other:
        parts.append(trie_pattern(other, False))
    return "|".join(parts) if parts else r"(?!x)x"


def latin_whole_re(words: list[str]) -> re.Pattern[str] | None:
    """``words`` as one pattern: a Latin word whole (no letter right before or after it), a Chinese one anywhere,
    also right after a Latin letter ("维c拍了": the "c" of the name stops no "拍了"); ``None`` without words."""
    latin = [w for w in words if w[:1].isascii()]
    han = [w for w in words if w and not w[:1].isascii()]
    alts = ([r"(?<![a-z])(?:" + alternation(latin) + r")(?![a-z])"] if latin else []) \
        + ([alternation(han)] if han else [])
    return re.compile("|".join(alts)) if alts else None


__all__ = ["Role", "alternation", "latin_whole_re", "locale_words", "trie_pattern"]
