"""The Chinese keywords of the parser's vocabulary by sound (homophone typos) and in pinyin, built on first use
from the character tables."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from hat_env.locales import get_locale
from hat_env.understanding.fold import fold
from hat_env.understanding.wordpat import Role, trie_pattern


@dataclass(frozen=True)
class SoundTables:
    """Chinese keywords matched by sound (homophone typos) and written in pinyin."""

    #: sound string of a keyword -> (the keyword, its roles)
    by_sound: dict[str, tuple[str, tuple[Role, ...]]]
    sound_re: re.Pattern[str] | None
    #: pinyin spelling (syllables joined by spaces) -> roles; the pattern allows any spacing between syllables
    by_pinyin: dict[str, tuple[Role, ...]]
    pinyin_re: re.Pattern[str] | None
    #: link references in pinyin: "3hao", "lianjie 3"
    pinyin_link_re: re.Pattern[str] | None
    syllables: frozenset[str]


@lru_cache(maxsize=1)
def sound_tables() -> SoundTables:
    """Sound and pinyin forms of the Chinese keywords (built on first use: reads the character tables)."""
    from hat_env.understanding.fold import pinyin_of, sound, syllables
    from hat_env.understanding.lexicon import lexicon  # lexicon re-exports this module

    lex = lexicon()
    by_sound: dict[str, tuple[str, tuple[Role, ...]]] = {}
    by_pinyin: dict[str, list[Role]] = {}
    for w, rs in lex.roles.items():
        keep = tuple(r for r in rs if r[0] in ("kind", "spec", "value", "cond"))
        if not keep or len(w) < 2 or not all("\u4e00" <= c <= "\u9fff" for c in w):
            continue
        py = pinyin_of(w)
        if py is None:
            continue
        by_sound.setdefault(sound(w), (w, keep))
        by_pinyin.setdefault(" ".join(py), []).extend(r for r in keep if r not in by_pinyin.get(" ".join(py), []))
    sound_re = re.compile("|".join(re.escape(s) for s in sorted(by_sound, key=len, reverse=True))) if by_sound else None
    pin = {k: tuple(v) for k, v in by_pinyin.items() if len(k.split()) >= 2}
    pinyin_re = None
    if pin:
        pinyin_re = re.compile(r"(?<![a-z])" + trie_pattern(sorted(pin), True, sep=r"\s*"))
    spec_by_loc = {loc: get_locale(loc).parser for loc in lex.pinyin_locales}
    pre = [" ".join(pinyin_of(fold(w)) or ()) for p in spec_by_loc.values() for w in p.link_prefix]
    suf = [" ".join(pinyin_of(fold(w)) or ()) for p in spec_by_loc.values() for w in p.link_suffix]
    pre = [x.replace(" ", r"\s*") for x in pre if x]
    suf = [x.replace(" ", r"\s*") for x in suf if x]
    link = None
    if pre or suf:
        alts = []
        if pre:
            alts.append(r"(?<![a-z])(?:" + "|".join(pre) + r")\s*(?P<n>\d{1,3})(?!\d)")
        if suf:
            alts.append(r"(?<![\d.])(?P<m>\d{1,3})\s*(?:" + "|".join(suf) + r")(?![a-z])")
        link = re.compile("|".join(alts))
    return SoundTables(by_sound, sound_re, pin, pinyin_re, link, syllables())


__all__ = ["SoundTables", "sound_tables"]
