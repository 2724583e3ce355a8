"""Chinese rule words written by their sound: "降血鸭" for 降血压, "治yu" for 治愈, "第yi" for 第一.

A host that means a forbidden word may write one of its characters as another character read the same (same
pinyin, same tone) or as its pinyin in Latin letters. Compliance rules read the reply with each such spelling of a
word the rules name put back (:func:`respell`), so the rule that the word breaks is the same rule, in the same
place, whatever characters stand for it.

The words come from the rules themselves: every run of two to six Chinese characters of the terms of a zh rule
set's term rules, and of the default pack's lexicon lists that name what a claim is about (conditions, organs,
effects, persons, AI nouns; not the lists that glue a pattern, such as adverbs or use verbs), so a new word in a
pack is read by sound with no list of disguises anywhere. A spelling counts only when it keeps at least one of the word's characters as
written, every other character reads the same (a Latin syllable: the same pinyin, any tone), and the spelling is
not itself a word of the jieba dictionary ("没白" is not 美白: 没 and 美 differ in tone; a real word stays as
written). Characters are compared by their usual readings (将 is jiang1, not the jiang4 of 降). Readings come from ``pypinyin`` when it is installed; without it replies are read as written.
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
def reading(ch: str) -> str:
    """The usual reading of Chinese character ``ch`` with its tone number ("将" is jiang1); "" without ``pypinyin``."""
    pp = _pinyin()
    if pp is None:
        return ""
    got = pp.pinyin(ch, style=pp.Style.TONE3, heteronym=False, neutral_tone_with_five=True)  # type: ignore[attr-defined]
    return got[0][0] if got and got[0] else ""


def _toneless(reading_: str) -> str:
    """A reading without its tone ("ya1" -> "ya")."""
    return reading_.rstrip("012345")


class SoundIndex:
    """The Chinese words of a rule set, indexed by the toneless usual readings of their first two characters.

    Args:
        words: the words (two to six Chinese characters each).
    """

    __slots__ = ("by_start", "readings")

    def __init__(self, words: Iterable[str]):
        self.by_start: dict[tuple[str, str], list[tuple[str, tuple[str, ...]]]] = {}
        for w in sorted(set(words)):
            rd = tuple(reading(c) for c in w)
            if all(rd):
                self.by_start.setdefault((_toneless(rd[0]), _toneless(rd[1])), []).append((w, rd))


@lru_cache(maxsize=32)
def index_of(words: tuple[str, ...]) -> SoundIndex:
    """The :class:`SoundIndex` of the runs of two to six Chinese characters in ``words`` (cached per rule set)."""
    return SoundIndex(run for w in words for run in _RUN.findall(w))


def _a_word(text: str) -> bool:
    """Whether ``text`` is a word of the jieba dictionary (a real word, not a spelling of another)."""
    from hat_env.text.lazy import jieba_freq

    return jieba_freq(text) > 0


def respell(m: Mapped, index: SoundIndex) -> Mapped:
    """``m`` with every spelling by sound of a word of ``index`` replaced by the word (offsets keep mapping to the
    reply as written). Returns ``m`` itself when there is none."""
    text = m.text
    if not index.by_start or not _HAN.search(text):
        return m
    units = [(u.start(), u.end(), u.group()) for u in _UNIT.finditer(text)]
    # each unit's usual reading: a character's with its tone, a Latin syllable's as written (no tone)
    rds = [reading(g) if _HAN.fullmatch(g) else g.lower() for _s, _e, g in units]
    keys = [_toneless(x) for x in rds]
    pieces: list[tuple[int, int, str]] = []
    taken = -1
    for a in range(len(units) - 1):
        if units[a][0] < taken or units[a][1] != units[a + 1][0]:
            continue
        for w, wr in index.by_start.get((keys[a], keys[a + 1]), ()):
            n = len(w)
            if a + n > len(units):
                continue
            win = units[a : a + n]
            if any(win[j][1] != win[j + 1][0] for j in range(n - 1)):
                continue  # the units of a spelling stand side by side
            same = [win[j][2] == w[j] for j in range(n)]
            if all(same) or not any(same):
                continue
            # every other unit reads as the word's character: a character with the same tone, a syllable any tone
            if not all(same[j] or (rds[a + j] == wr[j] if _HAN.fullmatch(win[j][2]) else rds[a + j] == _toneless(wr[j]))
                       for j in range(n)):
                continue
            written = text[win[0][0] : win[-1][1]]
            if all(_HAN.fullmatch(x[2]) for x in win) and _a_word(written):
                continue  # a real word, read as written
            pieces.append((win[0][0], win[-1][1], w))
            taken = win[-1][1]
            break
    return m.replace(pieces) if pieces else m


__all__ = ["SoundIndex", "index_of", "reading", "respell"]
