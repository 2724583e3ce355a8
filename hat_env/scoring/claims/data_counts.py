"""Counts of a thing a product's own data counts: a bare number of a reply followed by the words a number of
the product's title, specs, FAQ answers or after-sales note is followed by ("About eight full phone charges" for
the FAQ's "About 4 full charges of a typical 4000mAh phone"). The counted thing is read from the data's words,
never from a list, so it holds for any room."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import TYPE_CHECKING

from hat_env.scoring.claims.facts import ProductFacts
from hat_env.scoring.claims.numbers import Quantity
from hat_env.text import normalize

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading

#: how many words after a number name what it counts ("4 full charges", "2 USB-C ports")
WORDS_AFTER = 3
_WORD = re.compile(r"[^\W\d_]{4,}")
_STOP = re.compile(r"[.,;:!?()\n，。；：！？\d]")  # the words a number counts end at a mark or another number
_NUM_WORDS = re.compile(r"(?<![\d.,])(\d+(?:\.\d+)?)((?:\s+[^\W\d_]+){1,%d})" % WORDS_AFTER)


def fold(word: str) -> str:
    """A word lower-cased with its accents dropped ("Sartén" -> "sarten"), so a plural matches its singular."""
    return "".join(ch for ch in unicodedata.normalize("NFD", word.lower()) if not unicodedata.combining(ch))


def _stems(words: list[str]) -> set[str]:
    """Lower-cased words of four letters or more, accents dropped, with a plural ``s`` or ``es`` dropped."""
    out: set[str] = set()
    for w in words:
        w = fold(w)
        if len(w) >= 4 and _WORD.fullmatch(w):
            out.add(w[:-2] if w.endswith("es") and len(w) > 5 else w[:-1] if w.endswith("s") else w)
    return out


@lru_cache(maxsize=512)
def _counted(text: str, locale: str) -> tuple[tuple[float, frozenset[str]], ...]:
    """The numbers of a data text with the words right after each (normalised: "one" is 1)."""
    norm = normalize(text, locale).text
    return tuple((float(m.group(1)), frozenset(_stems(m.group(2).split()))) for m in _NUM_WORDS.finditer(norm))


def _texts(pf: ProductFacts) -> list[str]:
    """The product's data texts that state counts: title, spec values, FAQ answers, after-sales note."""
    p = pf.product
    return [p.title, *(str(v) for v in p.specs.values()), *(f.a for f in p.faq), p.returns.note or ""]


def data_counts(r: "Reading", q: Quantity, pfs: list[ProductFacts]) -> list[tuple[ProductFacts, float, str]]:
    """The numbers of ``pfs``'s data that count what the reply's number ``q`` counts (a word of the words after
    each is shared): ``(product, value, data text)``; empty in Chinese (a count there has its measure word as a
    unit) or when nothing is shared."""
    if r.vocab.lang == "zh":
        return []
    seg = _STOP.split(r.text[q.end : q.end + 40], maxsplit=1)[0]
    said = _stems(re.findall(r"[^\W\d_]+", seg)[:WORDS_AFTER])
    if not said:
        return []
    out: list[tuple[ProductFacts, float, str]] = []
    for pf in pfs:
        for text in _texts(pf):
            if not text:
                continue
            out += [(pf, v, text) for v, words in _counted(text, r.vocab.locale) if words & said]
    return out


__all__ = ["data_counts", "fold", "WORDS_AFTER"]
