"""Length-preserving text folding for the comment parser: every character becomes exactly one character, so a
position in the folded text is the same position in the comment as written (payloads and order ids are cut from
the original).

:func:`fold` lower-cases, turns full-width forms into ASCII (``３号``, ``ＳＰＦ``, ``？``), drops accents from
Latin letters (``cuánto`` -> ``cuanto``; ``ñ`` stays), straightens quotes, reads the emoji that write a Chinese
character as it (``🈶`` -> ``有``) and turns traditional Chinese
characters into simplified ones (zhconv's table, :mod:`hat_env.understanding.chardata`), and the Cantonese characters
that write a Mandarin word alone into it (``咩`` "what" -> ``啥``, ``冇`` -> ``没``, ``嘅`` -> ``的``, ``睇`` -> ``看``:
"身體乳係咩味", "有冇貨" read as "啥味", "有没货"). :func:`sound` maps each
Chinese character to a code for its syllable (pypinyin's reading, tone dropped), so homophone typos
(``怎么麦`` for ``怎么卖``, ``活东`` for ``活动``) read alike. Both are one ``str.translate`` (C speed).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from hat_env.understanding.chardata import tables

#: First code point of the syllable codes (Unicode private use area): syllable i is ``chr(SOUND_BASE + i)``.
SOUND_BASE = 0xE000
_QUOTES = {"‘": "'", "’": "'", "“": '"', "”": '"', "`": "'", "\u3000": " ", "\u00a0": " "}
#: emoji that write one Chinese character ("口红🈶货吗" is "口红有货吗")
_EMOJI_CHARS = {"\U0001f236": "有", "\U0001f21a": "无", "\U0001f251": "可", "\U0001f238": "申"}
#: Cantonese characters, each of which writes one Mandarin character's word ("咩味" is "啥味", "有冇" is "有没")
_CANTONESE_CHARS = {"咩": "啥", "冇": "没", "嘅": "的", "睇": "看", "佢": "他", "嚟": "来"}


@lru_cache(maxsize=1)
def fold_table() -> dict[int, str]:
    """The translate table of :func:`fold` (built once)."""
    tab: dict[int, str] = {}
    for o in range(ord("A"), ord("Z") + 1):
        tab[o] = chr(o + 32)
    for o in range(0xFF01, 0xFF5F):  # full-width letters, digits and signs (full-width punctuation stays:
        ch = chr(o - 0xFEE0)         # the parser's patterns read "，？！：；" as they are)
        if ch.isalnum() or ch in "#$%&@+*/=<>^_|~":
            tab[o] = ch.lower()
    for o in range(0x00C0, 0x0250):  # Latin-1 supplement and Latin extended A/B
        ch = chr(o)
        if ch in "ñÑ":
            tab[o] = "ñ"
            continue
        base = unicodedata.normalize("NFD", ch)[0]
        if base.isascii() and base.isalpha():
            tab[o] = base.lower()
        elif ch.lower() != ch and len(ch.lower()) == 1:
            tab[o] = ch.lower()
    for k, v in _QUOTES.items():
        tab[ord(k)] = v
    for k, v in (*_EMOJI_CHARS.items(), *_CANTONESE_CHARS.items()):
        tab[ord(k)] = v
    trad, simp = tables()["t2s"]
    for a, b in zip(trad, simp):
        tab[ord(a)] = b
    return tab


@lru_cache(maxsize=1)
def _needs_fold() -> re.Pattern[str]:
    """A character class of every character :func:`fold` changes, except ASCII capitals (``str.lower``)."""
    keys = sorted(k for k in fold_table() if not ord("A") <= k <= ord("Z"))
    parts = []
    start = prev = keys[0]
    for k in keys[1:] + [-1]:
        if k == prev + 1:
            prev = k
            continue
        parts.append(re.escape(chr(start)) if start == prev else f"{re.escape(chr(start))}-{re.escape(chr(prev))}")
        start = prev = k
    return re.compile("[" + "".join(parts) + "]")


def fold(text: str) -> str:
    """``text`` folded for matching: same length, same positions (see the module docstring)."""
    low = text.lower()
    if len(low) != len(text):  # a capital whose lower case is longer ("İ"): fold it alone
        low = "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
    if low.isascii() or _needs_fold().search(low) is None:
        return low
    return low.translate(fold_table())


@lru_cache(maxsize=1)
def _sound() -> tuple[dict[int, str], dict[str, int]]:
    syl = tables()["sound"]
    tab: dict[int, str] = {}
    index: dict[str, int] = {}
    for i, (s, chars) in enumerate(sorted(syl.items())):
        index[s] = i
        code = chr(SOUND_BASE + i)
        for ch in chars:
            tab[ord(ch)] = code
    return tab, index


def sound(folded: str) -> str:
    """``folded`` with each Chinese character replaced by its syllable code (same length)."""
    return folded.translate(_sound()[0])


def _fuzzy_syllable(syl: str) -> str:
    """A syllable as a speaker who merges the common pairs says it: zh/ch/sh as z/c/s, -ng as -n, l as n."""
    if syl[:2] in ("zh", "ch", "sh"):
        syl = syl[0] + syl[2:]
    if syl.endswith("ng") and len(syl) > 2:
        syl = syl[:-1]
    if syl.startswith("l"):
        syl = "n" + syl[1:]
    return syl


@lru_cache(maxsize=1)
def _fuzzy() -> dict[int, str]:
    syl = tables()["sound"]
    classes = sorted({_fuzzy_syllable(s) for s in syl})
    code = {c: chr(SOUND_BASE + i) for i, c in enumerate(classes)}
    return {ord(ch): code[_fuzzy_syllable(s)] for s, chars in syl.items() for ch in chars}


def fuzzy_sound(folded: str) -> str:
    """``folded`` with each Chinese character replaced by the code of its syllable's fuzzy class (same length):
    ``晒`` (shai) and ``嗮`` (sai), ``厘`` (li) and ``里`` (li), ``底`` (di) and ``低`` (di) sound alike."""
    return folded.translate(_fuzzy())


def syllables() -> frozenset[str]:
    """Every toneless pinyin syllable of the table (``ma``, ``zhuang``...)."""
    return frozenset(_sound()[1])


@lru_cache(maxsize=4096)
def pinyin_of(word: str) -> tuple[str, ...] | None:
    """The toneless syllables of a word of Chinese characters, or ``None`` when a character has no reading."""
    tab = _sound()[0]
    names = _syllable_names()
    out = []
    for ch in word:
        code = tab.get(ord(ch))
        if code is None:
            return None
        out.append(names[ord(code) - SOUND_BASE])
    return tuple(out)


@lru_cache(maxsize=1)
def _syllable_names() -> tuple[str, ...]:
    return tuple(sorted(_sound()[1]))


__all__ = ["SOUND_BASE", "fold", "fold_table", "fuzzy_sound", "pinyin_of", "sound", "syllables"]
