"""Chinese rule words written by their sound: "降血鸭" for 降血压, "治yu" for 治愈, "第yi" for 第一.

A host that means a forbidden word may write one of its characters as another character read the same (same
pinyin, same tone) or as its pinyin in Latin letters. Compliance rules read the reply with each such spelling of a
word the rules name put back (:func:`respell`), so the rule that the word breaks is the same rule, in the same
place, whatever characters stand for it.

The words come from the rules themselves: every run of two to six Chinese characters in the RE2 sources of a zh
rule set (its terms, and its patterns with the pack's lexicon expanded), so a new word in a pack is read by sound
with no list of disguises anywhere. A spelling counts only when it keeps at least one of the word's characters as
written, every other character reads the same (a Latin syllable: the same pinyin, any tone), and the spelling is
not itself a word of the jieba dictionary ("没白" is not 美白: 没 and 美 differ in tone; a real word stays as
written). A reply's character is taken at its usual reading (将 is jiang1, not the jiang4 of 降). Readings come from ``pypinyin`` when it is installed; without it replies are read as written.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable

from hat_env.text import Mapped

_HAN = re.compile(r"[\u4e00-\u9fff]")
_RUN = re.compile(r"[\u4e00-\u9fff]{2,6}")
#: What a reply's text is read in: one Chinese character, or a Latin syllable of one to six letters.
_UNIT = re.compile(r"[\u4e00-\u9fff]|[A-Za-z]{1,6}(?![A-Za-z])")


@lru_cache(maxsize=1)
def _pinyin() -> "object | None":
    """The ``pypinyin`` module, or ``None`` when it is not installed."""
    try:
        import pypinyin
    except ImportError:  # pragma: no cover - an install without the optional reader
        return None
    return pypinyin


@lru_cache(maxsize=20000)
def readings(ch: str) -> frozenset[str]:
    """Every reading of Chinese character ``ch`` with its tone number ("ya1"); empty without ``pypinyin``."""
    pp = _pinyin()
    if pp is None:
        return frozenset()
    got = pp.pinyin(ch, style=pp.Style.TONE3, heteronym=True, neutral_tone_with_five=True)  # type: ignore[attr-defined]
    return frozenset(x for x in (got[0] if got else ()) if x and x[-1].isdigit())


@lru_cache(maxsize=20000)
def reading(ch: str) -> str:
    """The usual reading of Chinese character ``ch`` with its tone number ("将" is jiang1); "" without ``pypinyin``."""
    pp = _pinyin()
    if pp is None:
        return ""
    got = pp.pinyin(ch, style=pp.Style.TONE3, heteronym=False, neutral_tone_with_five=True)  # type: ignore[attr-defined]
    return got[0][0] if got and got[0] else ""


def _toneless(ch: str) -> frozenset[str]:
    """The readings of ``ch`` without tones ("ya")."""
    return frozenset(r.rstrip("012345") for r in readings(ch))


class SoundIndex:
    """The Chinese words of a rule set, indexed by each of their characters.

    Args:
        words: the words (two to six Chinese characters each).
    """

    __slots__ = ("by_char",)

    def __init__(self, words: Iterable[str]):
        self.by_char: dict[str, list[tuple[str, int]]] = {}
        for w in sorted(set(words)):
            if all(readings(c) for c in w):
                for k, c in enumerate(w):
                    self.by_char.setdefault(c, []).append((w, k))


@lru_cache(maxsize=32)
def index_of(sources: tuple[str, ...]) -> SoundIndex:
    """The :class:`SoundIndex` of the Chinese words written in regex ``sources`` (cached per rule set)."""
    return SoundIndex(w for s in sources for w in _RUN.findall(s))


def _sounds_like(unit: str, ch: str) -> bool:
    """Whether reply unit ``unit`` (a character or a Latin syllable) reads as character ``ch``."""
    if _HAN.fullmatch(unit):
        return reading(unit) in readings(ch)  # the reply's character as it is usually read
    return unit.lower() in _toneless(ch)


def _a_word(text: str) -> bool:
    """Whether ``text`` is a word of the jieba dictionary (a real word, not a spelling of another)."""
    from hat_env.text.lazy import jieba_freq

    return jieba_freq(text) > 0


def respell(m: Mapped, index: SoundIndex) -> Mapped:
    """``m`` with every spelling by sound of a word of ``index`` replaced by the word (offsets keep mapping to the
    reply as written). Returns ``m`` itself when there is none."""
    text = m.text
    if not index.by_char or not _HAN.search(text):
        return m
    units = [(u.start(), u.end(), u.group()) for u in _UNIT.finditer(text)]
    pieces: list[tuple[int, int, str]] = []
    taken = -1
    for u, (s0, _e0, ch) in enumerate(units):
        if s0 < taken:
            continue
        for w, k in index.by_char.get(ch, ()):
            a = u - k
            if a < 0 or a + len(w) > len(units):
                continue
            win = units[a : a + len(w)]
            if win[0][0] < taken or any(win[j][1] != win[j + 1][0] for j in range(len(win) - 1)):
                continue  # the units of a spelling stand side by side
            same = [win[j][2] == w[j] for j in range(len(w))]
            if all(same) or not all(same[j] or _sounds_like(win[j][2], w[j]) for j in range(len(w))):
                continue
            written = text[win[0][0] : win[-1][1]]
            if not any(not _HAN.fullmatch(x[2]) for x in win) and _a_word(written):
                continue  # a real word, read as written
            pieces.append((win[0][0], win[-1][1], w))
            taken = win[-1][1]
            break
    return m.replace(pieces) if pieces else m


__all__ = ["SoundIndex", "index_of", "reading", "readings", "respell"]
