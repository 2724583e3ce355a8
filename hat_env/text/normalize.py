"""Shared text normalisation for the claims engine and the comment parser, with offsets back to the original.

:func:`normalize` runs, in order: NFKC (full-width letters, digits and punctuation become half-width),
traditional -> simplified Chinese (zhconv), Chinese numerals -> digits (cn2an), English or Spanish number words
-> digits (text2num), and a decimal comma -> a point where the locale file's ``formats.decimal_sep`` is a comma
(es_ES ``29,90`` -> ``29.90``). Every step keeps a map to the original offsets (:class:`~hat_env.text.offsets.Mapped`),
so a note quotes the text as written. :func:`collapse_spaced` joins letters or characters spelled out one by
one (``b e s t``, ``b-e-s-t``, ``G.O.A.T.``, ``第 一``) for rule matching.

Heavy libraries (zhconv, cn2an, text2num, jieba, rapidfuzz) are imported on first use, never at
``import hat_env``.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from hat_env.text.cache import short_text_cache
from hat_env.text.numbers import word_numbers, zh_numerals
from hat_env.text.offsets import Mapped

_HAN = re.compile(r"[\u3400-\u9fff]")
#: Punctuation NFKC leaves alone that should read as its ASCII form.
_PUNCT = {"～": "~", "。": "。", "、": "、", "，": "，", "；": "；", "：": "：", "‘": "'", "’": "'", "“": '"', "”": '"', "—": "-", "–": "-", "−": "-"}


def has_han(text: str) -> bool:
    """Whether ``text`` has a Chinese character."""
    return _HAN.search(text) is not None


def _nfkc_char(ch: str) -> str:
    """One character in NFKC (Chinese clause punctuation kept)."""
    if ch in _PUNCT:
        return _PUNCT[ch]
    return unicodedata.normalize("NFKC", ch)


def nfkc(m: Mapped) -> Mapped:
    """NFKC per character (full-width ``１２３ＡＢＣ￥`` -> ``123ABC¥``), keeping the map."""
    t = m.text
    if t.isascii():
        return m
    return m.map_chars(_nfkc_char)


def to_simplified(m: Mapped) -> Mapped:
    """Traditional -> simplified Chinese (zhconv ``zh-cn``; ``龍井能降血壓嗎`` -> ``龙井能降血压吗``)."""
    if not has_han(m.text):
        return m
    import zhconv  # lazy: ~0.4 s on first import

    new = zhconv.convert(m.text, "zh-cn")
    if new == m.text:
        return m
    if len(new) == len(m.text):
        pieces = [(i, i + 1, b) for i, (a, b) in enumerate(zip(m.text, new)) if a != b]
        return m.replace(pieces)
    return m.map_chars(lambda ch: zhconv.convert(ch, "zh-cn") if has_han(ch) else ch)


def _lang_of(locale: str | None) -> str:
    """The language part of a locale (``zh_CN`` -> ``zh``)."""
    return (locale or "en").split("_")[0].split("-")[0].lower()


def normalize(text: str, locale: str | None = "en_US", numbers: bool = True) -> Mapped:
    """Normalise ``text`` for matching, keeping a map back to it.

    Args:
        text: the text as written.
        locale: its locale (``zh_CN``, ``en_US``, ``es_ES``...): English or Spanish number words are read for
            ``en``/``es`` locales; Chinese numerals wherever Chinese characters occur.
        numbers: turn number words and numerals into digits (False: only NFKC and simplified Chinese).

    Returns:
        The normalised :class:`Mapped` text.
    """
    return _normalize(text, locale or "en_US", numbers)


@short_text_cache(maxsize=4096)
def _normalize(text: str, locale: str, numbers: bool) -> Mapped:
    """:func:`normalize`, cached by text (replies repeat)."""
    m = to_simplified(nfkc(Mapped.of(text)))
    if not numbers:
        return m
    if has_han(m.text):
        m = zh_numerals(m)
    lang = _lang_of(locale)
    if lang in ("en", "es"):
        m = word_numbers(m, lang)
    elif re.search(r"[A-Za-z]{3}", m.text):
        m = word_numbers(m, "en")  # English words inside a Chinese reply ("two-year")
    if "," in m.text and _decimal_comma(locale):
        m = m.replace([(x.start(), x.end(), ".") for x in _DECIMAL_COMMA.finditer(m.text)])
    return m


#: A decimal comma: between digits, followed by one or two digits (``29,90``, ``3,5``; not ``1,000``).
_DECIMAL_COMMA = re.compile(r"(?<=\d),(?=\d{1,2}(?!\d))")


@lru_cache(maxsize=64)
def _decimal_comma(locale: str) -> bool:
    """Whether ``locale`` writes a decimal comma (its locale file's ``formats.decimal_sep``; ``29,90 €`` then reads
    as 29.90). An unknown locale (or one whose file does not load here) writes a decimal point."""
    from hat_env.locales import get_locale  # lazy: the locale files are read on first use
    from hat_env.yamlio import FileError

    try:
        return get_locale(locale).formats.decimal_sep == ","
    except (ValueError, FileError):
        return False


_SPACED = re.compile(
    r"(?<![A-Za-z])(?:[A-Za-z](?:[\s.\-_*·•'’]+|[\U0001F300-\U0001FAFF\u2600-\u27BF]+))+[A-Za-z](?![A-Za-z])\.?"
)
#: Separators between two Chinese characters (spaces, dots, emoji): "全 网 最 低", "国·家·级"; never a line break
#: (a list's "\n- " between two lines is structure, not a disguise).
_HAN_GAP = re.compile(r"(?<=[\u3400-\u9fff])(?:[ \t\u3000.\-_*·•]|[\U0001F300-\U0001FAFF\u2600-\u27BF]){1,3}(?=[\u3400-\u9fff])")


def collapse_spaced(m: Mapped | str, min_ascii: int = 2) -> Mapped:
    """Join letters or Chinese characters spelled out one by one (separated by spaces, dots, hyphens,
    asterisks or emoji): ``b e s t`` -> ``best``, ``b-e-s-t`` -> ``best``, ``G.O.A.T.`` -> ``GOAT``,
    ``第 一`` -> ``第一``. Ordinary words are untouched (a run needs at least two single characters, and
    ``min_ascii`` when they are Latin letters)."""
    if isinstance(m, str):
        m = Mapped.of(m)
    pieces = []
    for mt in _SPACED.finditer(m.text):
        letters = re.sub(r"[^A-Za-z]", "", mt.group())
        if len(letters) >= min_ascii:
            pieces.append((mt.start(), mt.end(), letters))
    m = m.replace(pieces) if pieces else m
    gaps = [(g.start(), g.end(), "") for g in _HAN_GAP.finditer(m.text)]
    return m.replace(gaps) if gaps else m


__all__ = ["collapse_spaced", "has_han", "nfkc", "normalize", "to_simplified"]
