"""Misspelt words: one-edit typos of Latin keywords and product names (rapidfuzz), homophone typos of Chinese
keywords (toneless pinyin, pypinyin's readings), and keywords written in pinyin ("duoshao qian")."""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from typing import Any

from hat_env.understanding.catalog import Catalog
from hat_env.understanding.clauses import Hit, Mention, clause_text
from hat_env.understanding.fold import sound
from hat_env.understanding.lexicon import Lexicon, lexicon, sound_tables
from hat_env.understanding.questions import is_question
from hat_env.understanding.word_langs import foreign_word

ASCII_TOKEN = re.compile(r"[a-z][a-z']*")
HAN_RUN2 = re.compile(r"[\u4e00-\u9fff]{2,}")


def pinyin_like(f: str, syllables: frozenset[str]) -> bool:
    """Whether the Latin words of ``f`` read as pinyin (six in ten of them are syllable strings)."""
    toks = ASCII_TOKEN.findall(f)
    if len(toks) < 2:
        return False
    lex = lexicon()
    known = {i for i, t in enumerate(toks) if t in lex.roles or t in lex.common}
    pin = {i for i, t in enumerate(toks) if is_pinyin_token(t, syllables)}
    # English or Spanish words, unless two pinyin runs are no such word and every word is a syllable string
    # ("niurougan you mei you xiangla de": "you" and "de" are words of both)
    if len(known) * 3 > len(toks) and (len(pin - known) < 2 or len(pin) < len(toks)):
        return False
    return len(pin) * 10 >= len(toks) * 6


def typos(f: str, lex: Lexicon, cat: Catalog | None, covered: list[tuple[int, int]],
       hits: list[Hit], names: list[Mention], bounds: list[int], lang: str | None = None) -> None:
    """Latin words of 5+ letters nothing else read: one edit from a keyword or a product name (a word of four
    letters: a name of five with one letter left out).

    Args:
        f: the folded comment.
        lex: the compiled words (their typo targets).
        cat: the room's catalog (its names of 5+ letters), or ``None``.
        covered: spans already read (no typo is looked for there).
        hits: the keyword hits; a keyword's typo appends its roles.
        names: the product-name mentions; a name's typo appends a mention.
        bounds: the clause bounds.
        lang: the comment's language by its marker words (:func:`~hat_env.understanding.word_langs.comment_lang`
            of ``f``, as the caller read it): a typo is only read as a keyword of that language; ``None``, no
            language shows, and any keyword's typo is read.
    """
    cands = []
    skip = lex.known_words
    for m in ASCII_TOKEN.finditer(f):
        w = m.group()
        if len(w) < 4 or w in skip:
            continue
        st = m.start()
        if any(a <= st < b for a, b in covered):
            continue
        cands.append(m)
    if not cands:
        return
    from rapidfuzz import process
    from rapidfuzz.distance import OSA  # edits and transpositions ("spekaer", "wieght")

    for m in cands:
        w = m.group()
        if cat is not None and cat.typo_names:
            r = process.extractOne(w, cat.typo_names, scorer=OSA.distance, score_cutoff=1)
            # a word of four letters only as a name with a letter left out ("dril", "drll" for "drill")
            if r is not None and (len(w) >= 5 or len(r[0]) == len(w) + 1):
                names.append((m.start(), m.end(), cat.names[r[0]], bisect_right(bounds, m.start())))
                continue
        if len(w) < 5:
            continue
        r = process.extractOne(w, lex.typo_targets, scorer=OSA.distance, score_cutoff=1)
        if r is not None and not derived_word(w, r[0]) \
                and not foreign_word(r[0], f, lang, lex.word_langs, lex.markers):
            for role in lex.roles[r[0]]:
                hits.append((m.start(), m.end(), role[0], role[1]))


def derived_word(w: str, target: str) -> bool:
    """Whether ``w`` is ``target`` with one more letter at its end, neither a doubled last letter nor a plural
    ``s``: another word built on it ("preciosa" on "precios"), not a typo ("precioo") or a plural ("flavors")."""
    return len(w) == len(target) + 1 and w.startswith(target) and w[-1] not in (target[-1], "s")


def sounds(f: str, hits: list[Hit], names: list[Mention], mentions: list[Mention], bounds: list[int]) -> None:
    """Homophone typos of Chinese keywords, in clauses where no keyword was read (at least one character of
    the keyword is written right, and the clause is a question or names a product)."""
    hit_clauses = {bisect_right(bounds, h[0]) for h in hits if h[2] in ("kind", "spec", "value", "cond")}
    han_clauses = {bisect_right(bounds, m.start()) for m in HAN_RUN2.finditer(f)}
    if han_clauses <= hit_clauses:
        return
    st = sound_tables()
    if st.sound_re is None:
        return
    s = sound(f)
    fchars = lexicon().function_chars
    prod_clauses = {m[3] for m in mentions} | {m[3] for m in names}
    i = 0
    while i < len(s):
        m = st.sound_re.search(s, i)
        if m is None:
            break
        i = m.start() + 1
        c = bisect_right(bounds, m.start())
        if c in hit_clauses:
            continue
        word, roles = st.by_sound[m.group()]
        written = f[m.start() : m.end()]
        # the first character is written right (a pinyin input method picked a wrong later one), and it is
        # not a function character ("有活" is not "有货")
        if written == word or written[0] != word[0] or written[0] in fchars:
            continue
        if c not in prod_clauses and not is_question(clause_text(f, bounds, c)):
            continue
        for r in roles:
            hits.append((m.start(), m.end(), r[0], r[1]))
        hit_clauses.add(c)


@lru_cache(maxsize=8192)
def is_pinyin_token(t: str, syllables: frozenset[str]) -> bool:
    """Whether ``t`` is a run of pinyin syllables ("duoshao", "zhenren")."""
    n = len(t)
    reach = [False] * (n + 1)
    reach[0] = True
    for i in range(n):
        if reach[i]:
            for k in range(1, min(6, n - i) + 1):
                if t[i : i + k] in syllables:
                    reach[i + k] = True
    return reach[n]


def pinyin_roles(text: str, by_pinyin: dict[str, Any]) -> tuple[Any, ...]:
    """Roles of a pinyin match written without spaces ("duoshao qian"): the spelling whose letters it has."""
    letters = re.sub(r"\s+", "", text)
    for k, v in by_pinyin.items():
        if k.replace(" ", "") == letters:
            return tuple(v)
    return ()


__all__ = ["ASCII_TOKEN", "derived_word", "is_pinyin_token", "pinyin_like", "pinyin_roles", "sounds", "typos"]
