"""Text edits the reference agent's instruction rewrites are made of (see :mod:`hat_env.agents.instructions`):
appending sentences, removing terms, shortening and padding a reply, merging sentences, and applying an edit
outside protected strings. Counting and segmenting follow :mod:`hat_env.ifeval.text`, so an edit is measured as the
checks measure it."""

from __future__ import annotations

import re
from typing import Any, Callable

from hat_env.ifeval.text import (
    CLAUSE_RE,
    PUNCT_END,
    TERM_RE,
    WORD_RE,
    count_chars,
    count_sentences,
    is_zh,
    overlaps,
    spans,
    split_sentences,
    term_re,
)
from hat_env.locales import get_locale


def ctx_keep(context: dict[str, Any] | None) -> list[str]:
    """The non-empty ``keep`` strings of ``context`` (left exactly as they are by every edit)."""
    return [k for k in (context or {}).get("keep", []) or [] if k]


def ctx_protect(context: dict[str, Any] | None) -> list[str]:
    """The strings a shortening must not drop or split: ``context["protect"]`` then the ``keep`` strings."""
    c = context or {}
    return [p for p in list(c.get("protect", []) or []) + ctx_keep(c) if p]


def map_outside(text: str, keep: list[str], fn: Callable[[str], str]) -> str:
    """Apply ``fn`` to the parts of ``text`` outside every occurrence of the ``keep`` strings."""
    sp = sorted(spans(text, [k for k in keep if k]))
    if not sp:
        return fn(text)
    out, pos = [], 0
    for s, e in sp:
        if s < pos:
            s = pos
        if e <= pos:
            continue
        out.append(fn(text[pos:s]))
        out.append(text[s:e])
        pos = e
    out.append(fn(text[pos:]))
    return "".join(out)


def tidy(text: str, protect: list[str] | None = None) -> str:
    """Collapse doubled spaces and spaces before punctuation left by removals (not inside ``protect``)."""
    if protect:
        return map_outside(text, protect, _tidy_part).strip()
    return _tidy_part(text).strip()


def _tidy_part(text: str) -> str:
    text = re.sub(r"[ \t]{2,}", " ", text)
    text = re.sub(r"\s+([,.!?;:，。！？；：、])", r"\1", text)
    text = re.sub(r"([，。！？；：、])\s+(?=[\u3400-\u9fff])", r"\1", text)
    text = re.sub(r"([，,])\s*([，,。.!?！？])", r"\2", text)
    text = re.sub(r"^[，,。.;；]+", "", text)
    return text


def end_sentence(text: str, locale: str) -> str:
    """``text`` with a sentence terminator at its end (added when missing)."""
    t = text.rstrip()
    if not t:
        return t
    if t[-1] in PUNCT_END or t[-1] in "\"”」』":
        return t
    return t + ("。" if is_zh(locale) else ".")


def append(text: str, addition: str, locale: str) -> str:
    """Append a sentence (``addition`` already punctuated) to ``text``."""
    t = end_sentence(text, locale)
    if not t:
        return addition
    return t + addition if is_zh(locale) else f"{t} {addition}"


def keyword_sentence(kw: str, locale: str) -> str:
    """A sentence that says ``kw`` once: the locale's own (``ifeval.keywords`` of its locale file), else the
    keyword with an exclamation mark."""
    s = get_locale(locale).ifeval.keywords.get(kw)
    if s is None:
        s = f"{kw}！" if is_zh(locale) else f"{kw[:1].upper()}{kw[1:]}!"
    return s


def remove_term(text: str, term: str, keep: list[str], count_from_end: int | None = None,
                protect: list[str] | None = None) -> str:
    """Remove occurrences of ``term`` outside ``keep``; with ``count_from_end``, only that many, last first.
    Spacing is tidied outside ``protect``."""
    rx = term_re(term)
    kspans = spans(text, keep)
    hits = [m for m in rx.finditer(text) if not overlaps(m.start(), m.end(), kspans)]
    if count_from_end is not None:
        hits = hits[len(hits) - count_from_end :] if count_from_end > 0 else []
    if not hits:
        return text
    for m in reversed(hits):
        text = text[: m.start()] + text[m.end() :]
    return tidy(text, protect)


def cut_words(text: str, n: int, loc: str) -> str:
    """The text up to the end of its ``n``-th word, ended as a sentence."""
    ms = list(WORD_RE.finditer(text))
    if n <= 0 or not ms:
        return ""
    if len(ms) <= n:
        return text
    return end_sentence(text[: ms[n - 1].end()].rstrip(" ,，;；:："), loc)


def cut_chars(text: str, n: int, loc: str) -> str:
    """The text with at most ``n`` non-space characters (the last one a terminator when it fits)."""
    if count_chars(text) <= n:
        return text
    out, k = [], 0
    for ch in text:
        if not ch.isspace():
            if k >= n - 1:
                break
            k += 1
        out.append(ch)
    t = "".join(out).rstrip(" ,，;；:：")
    return end_sentence(t, loc) if n > 1 else t


def trim(text: str, too_long: Callable[[str], bool], cut: Callable[[str], str], loc: str,
         protect: list[str]) -> str:
    """Shorten ``text`` until ``too_long`` is false: drop whole unprotected sentences from the end (keeping one),
    then unprotected clauses from the end, then ``cut`` the end."""
    text = text.strip()
    for splitter in ("sentence", "clause"):
        while too_long(text):
            units = split_sentences(text) if splitter == "sentence" else _clauses(text)
            sp = spans(text, protect)
            pos, candidates = 0, []
            for i, u in enumerate(units):
                if WORD_RE.search(u) and not overlaps(pos, pos + len(u), sp):
                    candidates.append(i)
                pos += len(u)
            counted = sum(1 for u in units if WORD_RE.search(u))
            if not candidates or counted <= 1:
                break
            last = candidates[-1] == len(units) - 1
            del units[candidates[-1]]
            text = "".join(units).strip()
            if last:
                text = end_sentence(text.rstrip(" ,，;；、:："), loc)
    if too_long(text):
        text = cut(text)
    return text


def _clauses(text: str) -> list[str]:
    out, prev = [], 0
    cuts = sorted({m.end() for m in TERM_RE.finditer(text)} | {m.end() for m in CLAUSE_RE.finditer(text)})
    for c in cuts:
        if c > prev:
            out.append(text[prev:c])
            prev = c
    if prev < len(text):
        out.append(text[prev:])
    return out


def pad(text: str, enough: Callable[[str], bool], loc: str) -> str:
    """Append the locale's filler sentences (``ifeval.fillers``) until ``enough`` (at most 12)."""
    fillers = get_locale(loc).ifeval.fillers
    for i in range(12):
        if enough(text):
            break
        text = append(text, fillers[i % len(fillers)], loc)
    return text


def merge_sentences(text: str, limit: int, loc: str, protect: list[str]) -> str:
    """Join sentences with commas (terminators outside protected spans, first ones first) until at most
    ``limit`` sentences remain."""
    sep = "，" if is_zh(loc) else ", "
    while count_sentences(text) > limit:
        sp = spans(text, protect)
        segs = split_sentences(text)
        pos, done = 0, False
        for i, s in enumerate(segs[:-1]):
            end = pos + len(s)
            m = TERM_RE.search(s)
            if m is None or not WORD_RE.search(s) or not any(WORD_RE.search(x) for x in segs[i + 1 :]):
                pos = end
                continue
            # the terminator is the tail of s
            tstart = pos + m.start()
            while m is not None and pos + m.end() < end:
                m = TERM_RE.search(s, m.end())
                if m is not None:
                    tstart = pos + m.start()
            if m is None or overlaps(tstart, end, sp):
                pos = end
                continue
            text = text[:tstart] + sep + text[end:].lstrip()
            done = True
            break
        if not done:
            break
    return text
