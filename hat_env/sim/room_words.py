"""Where a text names one of a product's shipping regions or variants, by the words the room's data gives them.

A region is named by any of its ``names`` ("新疆", "Hawaii"); a variant by the words of its ``name``, split at
spaces and ``/ , ， 、 | +`` ("黑色 38码" is 黑色 and 38码; "Black / L" is black and l). A variant all of whose
words occur is named; when none is named in full, the variants sharing the most words that occur are
("38码" names every 38码 variant; "black" every black one). Words that start or end with a letter or digit
match as whole words ("L" is not the l of "link"); others (Chinese) anywhere. Matching ignores case. Only the
room's own words are read: nothing here knows any room.

Used by the tools' callers (the reference agent reads the regions and variants of tool results), the SOLD-OUT
rule and the claims engine (:mod:`hat_env.scoring.claims.check_regions`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable, Sequence

_SPLIT = re.compile(r"[\s/,，、|+]+")


@lru_cache(maxsize=4096)
def _word_rx(word: str) -> re.Pattern[str]:
    """The regex of one word: whole-word at an alphanumeric edge, anywhere otherwise; case ignored."""
    w = re.escape(word.strip())
    lead = r"(?<![A-Za-z0-9])" if word[:1].isalnum() and word[:1].isascii() else ""
    tail = r"(?![A-Za-z0-9])" if word[-1:].isalnum() and word[-1:].isascii() else ""
    return re.compile(lead + w + tail, re.IGNORECASE)


def variant_words(name: str) -> tuple[str, ...]:
    """The words of a variant name (``"Black / L"`` -> ``("Black", "L")``)."""
    return tuple(w for w in _SPLIT.split(name.strip()) if w)


def find_word(word: str, text: str) -> tuple[int, int] | None:
    """The span of the first occurrence of ``word`` in ``text`` (see the module docstring), or ``None``."""
    m = _word_rx(word).search(text)
    return None if m is None else m.span()


def regions_named(text: str, regions: Sequence[Iterable[str]]) -> list[tuple[int, int, int]]:
    """``(region index, start, end)`` of each region named in ``text`` (its first name found), in text order.

    Args:
        text: the text to search (a comment, a reply clause).
        regions: each region's names.
    """
    out: list[tuple[int, int, int]] = []
    for k, names in enumerate(regions):
        spans = [sp for n in names if n.strip() and (sp := find_word(n, text)) is not None]
        if spans:
            s, e = min(spans)
            out.append((k, s, e))
    return sorted(out, key=lambda x: x[1])


def variants_named(text: str, names: Sequence[str]) -> list[tuple[int, int, int]]:
    """``(variant index, start, end)`` of the variants ``text`` names (see the module docstring): the span runs
    from the first to the last of its words found. Empty when none of their words occurs.

    Args:
        text: the text to search.
        names: each variant's name.
    """
    found: list[tuple[int, int, list[tuple[int, int]]]] = []  # (index, words in all, spans of those found)
    for k, name in enumerate(names):
        words = variant_words(name)
        spans = [sp for w in words if (sp := find_word(w, text)) is not None]
        if spans:
            found.append((k, len(words), spans))
    if not found:
        return []
    full = [f for f in found if len(f[2]) == f[1]]
    if full:
        chosen = full
    else:
        most = max(len(f[2]) for f in found)
        chosen = [f for f in found if len(f[2]) == most]
    return [(k, min(s for s, _e in sp), max(e for _s, e in sp)) for k, _n, sp in chosen]


__all__ = ["find_word", "regions_named", "variant_words", "variants_named"]
