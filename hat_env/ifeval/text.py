"""Counting and segmenting a spoken reply, as the Live-IFEval checks (and the rewrites that satisfy them) measure it.

English words are IFEval's ``\\w+`` tokens. Chinese has no spaces, so Chinese replies are measured in characters
(every character except whitespace), and Chinese terms match as substrings while ASCII terms match at word
boundaries, case-insensitively. Sentences end at ``。！？`` anywhere and at ``.!?`` before whitespace, the end or a
Chinese character (``3.5g`` and ``P.S.`` do not end one); a sentence counts when it holds a word character.
"""

from __future__ import annotations

import functools
import re

#: The locales the instruction texts are written for; any other locale is treated as English.
LOCALES: tuple[str, ...] = ("zh_CN", "en_US")

CJK_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
LATIN_WORD_RE = re.compile(r"[A-Za-z]+")
WORD_RE = re.compile(r"\w+")
#: A sentence ends at 。！？ (anywhere) or at .!? before whitespace / the end / a Chinese character; closing quotes
#: and the whitespace after belong to the terminator. "P.S." and common abbreviations do not end a sentence.
TERM_RE = re.compile(
    r"(?:[。！？]+|(?<![Pp]\.[Ss])(?<!\bMr)(?<!\bMs)(?<!\bDr)(?<!\bJr)(?<!\bSt)(?<!\bMrs)[.!?]+"
    r"(?=[\s\"'”’」』)）]|$|[\u3400-\u9fff]))[\"'”’」』)）]*\s*"
)
#: Where a sentence may be cut into clauses.
CLAUSE_RE = re.compile(r"[，,；;、]\s*")
#: Characters that end a reply as a sentence.
PUNCT_END = "。！？!?.～~…"


def is_zh(locale: str) -> bool:
    """Whether ``locale`` is Chinese."""
    return str(locale).lower().startswith("zh")


def norm_locale(locale: str) -> str:
    """The locale whose texts and word pools apply: ``"zh_CN"`` for any Chinese locale, else ``"en_US"``."""
    return "zh_CN" if is_zh(locale) else "en_US"


def count_words(text: str) -> int:
    """IFEval's word count: ``\\w+`` tokens (a run of Chinese characters is one token)."""
    return len(WORD_RE.findall(text))


def count_chars(text: str) -> int:
    """Characters except whitespace (the Chinese length measure)."""
    return sum(1 for ch in text if not ch.isspace())


def split_sentences(text: str) -> list[str]:
    """``text`` cut after each sentence terminator (terminator and trailing spaces kept): ``"".join`` gives it
    back."""
    out: list[str] = []
    prev = 0
    for m in TERM_RE.finditer(text):
        if m.end() > prev:
            out.append(text[prev : m.end()])
            prev = m.end()
    if prev < len(text):
        out.append(text[prev:])
    return out


def count_sentences(text: str) -> int:
    """Sentences holding at least one word character."""
    return sum(1 for s in split_sentences(text) if WORD_RE.search(s))


def count_capital_words(text: str) -> int:
    """IFEval's capital-word count: ``\\w+`` tokens that are all upper case (``"SPF50"``, ``"I"``)."""
    return sum(1 for w in WORD_RE.findall(text) if w.isupper())


@functools.lru_cache(maxsize=512)
def term_re(term: str) -> re.Pattern[str]:
    """The pattern of ``term``: Chinese (non-ASCII) terms as substrings, ASCII terms at word boundaries; both
    case-insensitive."""
    esc = re.escape(term)
    if term.isascii():
        return re.compile(rf"(?<![A-Za-z0-9_]){esc}(?![A-Za-z0-9_])", re.IGNORECASE)
    return re.compile(esc, re.IGNORECASE)


def count_term(text: str, term: str) -> int:
    """Occurrences of ``term`` in ``text`` (see :func:`term_re`); 0 for an empty term."""
    if not term:
        return 0
    return len(term_re(term).findall(text))


def spans(text: str, phrases: list[str]) -> list[tuple[int, int]]:
    """``(start, end)`` of every occurrence of each phrase in ``text`` (case-insensitive; blank phrases skipped)."""
    low = text.lower()
    out = []
    for p in phrases:
        p = (p or "").strip().lower()
        if not p:
            continue
        i = low.find(p)
        while i >= 0:
            out.append((i, i + len(p)))
            i = low.find(p, i + 1)
    return out


def overlaps(a: int, b: int, spans_: list[tuple[int, int]]) -> bool:
    """Whether ``[a, b)`` overlaps any of ``spans_``."""
    return any(a < e and b > s for s, e in spans_)


__all__ = [
    "LOCALES",
    "count_capital_words",
    "count_chars",
    "count_sentences",
    "count_term",
    "count_words",
    "is_zh",
    "norm_locale",
    "overlaps",
    "spans",
    "split_sentences",
    "term_re",
]
