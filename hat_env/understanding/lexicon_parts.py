"""Small builders of the compiled parser vocabulary (:mod:`hat_env.understanding.lexicon_build`): word roles,
patterns of a few locale-file word lists, and the attributes asked instead of a missing one."""

from __future__ import annotations

import re
from typing import Any

from hat_env.locales import ParserSpec
from hat_env.understanding.fold import fold
from hat_env.understanding.wordpat import Role, alternation


def _buy_count_re(specs: dict[str, ParserSpec]) -> re.Pattern[str]:
    """A buy verb, a count (digits, a locale's numeral characters or count words) and a measure word."""
    verbs = sorted({fold(w) for p in specs.values() for w in p.buy_verbs})
    counts = sorted({fold(w) for p in specs.values() for w in p.count_words})
    chars = "".join(sorted({c for p in specs.values() for c in fold(p.numerals)}))
    measures = sorted({fold(w) for p in specs.values() for w in p.measure_words})
    num = r"\d{1,3}" + (f"|[{re.escape(chars)}]{{1,3}}" if chars else "") + (f"|{alternation(counts)}" if counts else "")
    return re.compile(rf"(?:{alternation(verbs)})\s*(?:{num})\s*(?:{alternation(measures)})")


def _count_of_re(specs: dict[str, ParserSpec]) -> re.Pattern[str] | None:
    """A count (1-2 digits or a count word) then a ``count_of_words`` word and the spaces after it."""
    of_words = sorted({fold(w) for p in specs.values() for w in p.count_of_words if fold(w)})
    if not of_words:
        return None
    counts = sorted({fold(w) for p in specs.values() for w in p.count_words if fold(w)})
    num = r"\d{1,2}" + (f"|{alternation(counts)}" if counts else "")
    return re.compile(rf"(?<![\w.,])(?:{num})\s+(?:{alternation(of_words)})\s*")


def _all(inj: list[Any], *fields: str) -> list[str]:
    """The folded words of ``fields`` of every locale's injection words (``inj``), sorted, without repeats."""
    return sorted({fold(w) for i in inj for f in fields for w in getattr(i, f)})



def _add(roles: dict[str, list[Role]], word: str, role: Role) -> None:
    """Give the folded ``word`` the role ``role``; a Latin word written with an apostrophe ("what's inside",
    "don't buy") gets it without the apostrophe too, as viewers type it ("whats inside", "dont buy")."""
    w = fold(word.strip())
    if not w:
        return
    for v in {w, *([w.replace("'", "")] if "'" in w and w.replace("'", "").strip() else [])}:
        lst = roles.setdefault(v, [])
        if role not in lst:
            lst.append(role)


def _lang(locale: str) -> str:
    """The language code of the locale ``locale`` ("es_MX" -> "es")."""
    return locale.split("_")[0]



def _whole_words_re(words: list[str]) -> re.Pattern[str] | None:
    """``words`` as one pattern, Latin ones whole (``None`` without words)."""
    if not words:
        return None
    return re.compile(r"(?<![a-z])(?:" + alternation(words) + r")(?![a-z])")


def _fallbacks(specs: dict[str, ParserSpec]) -> dict[str, tuple[str, ...]]:
    """Attribute -> the attributes asked instead when a product lacks it, in order, from every locale."""
    out: dict[str, list[str]] = {}
    for p in specs.values():
        for k, v in p.spec_fallbacks.items():
            for alt in ([v] if isinstance(v, str) else v):
                if alt not in out.setdefault(k, []):
                    out[k].append(alt)
    return {k: tuple(v) for k, v in out.items()}


def _joiner_gap_re(joiners: list[str], articles: list[str], counts: list[str] | None = None) -> re.Pattern[str]:
    """The gap between two mentions of one group: separators, joiners, articles and counts ("y dos", "and 2"), in
    any order (6 words at most); Latin words at word boundaries."""
    words = {*joiners, *articles, *(counts or ()), "&", "/", "+"}
    alts = "|".join(re.escape(w) + (r"(?![a-z])" if w[-1:].isascii() and w[-1:].isalpha() else "")
                    for w in sorted(words, key=len, reverse=True) if w) + r"|\d{1,2}(?![\d.,])"
    return re.compile(rf"^[\s,，、]*(?:(?:{alts})[\s,，、]*){{0,6}}$")

