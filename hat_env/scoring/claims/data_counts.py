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
#: a number glued to a letter is part of a code ("700x38", "X5"): it counts nothing
_NUM_WORDS = re.compile(r"(?<![\w.,])(\d+(?:\.\d+)?)((?:\s+[^\W\d_]+){1,%d})" % WORDS_AFTER)


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


_BEFORE_NUM = re.compile(r"((?:[^\W\d_]+\s+){1,%d})(\d+(?:\.\d+)?)(?![\d.,]*\d)" % 2)


@lru_cache(maxsize=512)
def _labelled(text: str, locale: str) -> tuple[tuple[float, frozenset[str]], ...]:
    """The numbers of a data text with the (up to two) words right before each ("Pack de 4": pack, de)."""
    norm = normalize(text, locale).text
    return tuple((float(m.group(2)), frozenset(_stems(m.group(1).split()))) for m in _BEFORE_NUM.finditer(norm))


def data_labelled(r: "Reading", q: Quantity, i: int, pfs: list[ProductFacts]) -> list[tuple[ProductFacts, float, str]]:
    """The numbers of ``pfs``'s data that the same word comes right before as before the reply's bare number
    ``q`` in its clause ("pack de seis" and the title's "Pack de 4"): ``(product, value, data text)``; a word the
    data of several products uses does not count; empty in Chinese."""
    if r.vocab.lang == "zh":
        return []
    c0 = r.clauses[i].start
    seg = _STOP.split(r.text[max(c0, q.start - 30) : q.start])[-1]
    said = _stems(re.findall(r"[^\W\d_]+", seg)[-2:]) - _shared_words(r)
    if not said:
        return []
    out: list[tuple[ProductFacts, float, str]] = []
    for pf in pfs:
        for text in _texts(pf):
            if text:
                out += [(pf, v, text) for v, words in _labelled(text, r.vocab.locale) if words & said]
    return out


def data_counts(r: "Reading", q: Quantity, pfs: list[ProductFacts]) -> list[tuple[ProductFacts, float, str]]:
    """The numbers of ``pfs``'s data that count what the reply's number ``q`` counts (a word of the words after
    each is shared, and no other product's data uses it): ``(product, value, data text)``; empty in Chinese (a count there has its measure word as a
    unit) or when nothing is shared."""
    if r.vocab.lang == "zh":
        return []
    seg = _STOP.split(r.text[q.end : q.end + 40], maxsplit=1)[0]
    said = _stems(re.findall(r"[^\W\d_]+", seg)[:WORDS_AFTER])
    if not said:
        return []
    said -= _shared_words(r)
    if not said:
        return []
    out: list[tuple[ProductFacts, float, str]] = []
    for pf in pfs:
        for text in _texts(pf):
            if not text:
                continue
            out += [(pf, v, text) for v, words in _counted(text, r.vocab.locale) if words & said]
    return out


def _shared_words(r: "Reading") -> frozenset[str]:
    """The words the data texts of two or more of the room's products use ("with", "your"): they say nothing of
    what one product's number counts (computed once per reading)."""
    got = r.__dict__.get("_data_count_shared")
    if got is None:
        seen: dict[str, int] = {}
        for p in r.room.products:
            words: set[str] = set()
            for text in _texts(r.facts.of(p.product_id)):
                words |= _stems(re.findall(r"[^\W\d_]+", normalize(text, r.vocab.locale).text))
            for w in words:
                seen[w] = seen.get(w, 0) + 1
        got = frozenset(w for w, n in seen.items() if n >= 2)
        r.__dict__["_data_count_shared"] = got
    return got


__all__ = ["data_counts", "data_labelled", "fold", "zh_labelled", "WORDS_AFTER", "CHARS_BEFORE"]


_CJK = re.compile(r"[\u4e00-\u9fff]")
_CLAUSE_MARK = re.compile(r"[，。；！？,.;!?\n]")
#: how many characters before a Chinese number say what it measures ("每勺...含蛋白质24g", "每天2粒")
CHARS_BEFORE = 6
#: how many characters after it do ("30g蛋白质"), up to the next number
CHARS_AFTER = 4
_NUMERIC = re.compile(r"\d")


def _folded(text: str, locale: str) -> str:
    """``text`` with each word of the locale's ``word_folds`` groups written as the group's first word ("大人一天"
    -> "成人每天"), so that the words next to a quantity match the data's synonyms of them."""
    from hat_env.scoring.claims.vocab import load_vocab

    for canon, variant in _fold_pairs(load_vocab(locale).raw.get("word_folds") or ()):
        if variant in text:
            text = text.replace(variant, canon)
    return text


def _fold_pairs(groups: "list | tuple") -> list[tuple[str, str]]:
    """``(canonical, variant)`` for each variant of ``groups`` (``[[canonical, variant...], ...]``), the longest
    variant first so that a longer word is folded before a shorter one inside it."""
    pairs = [(str(g[0]), str(v)) for g in groups if g for v in g[1:]]
    return sorted(pairs, key=lambda cv: -len(cv[1]))


def _bigrams(text: str) -> frozenset[str]:
    """The pairs of adjacent Chinese characters of ``text``."""
    return frozenset(text[k : k + 2] for k in range(len(text) - 1) if _CJK.match(text, k) and _CJK.match(text, k + 1))


@lru_cache(maxsize=512)
def _zh_measured(text: str, locale: str) -> tuple[tuple[float, str, frozenset[str]], ...]:
    """The quantities of a Chinese data text (base value, dimension) with the character pairs just before and just
    after each, within its clause."""
    from hat_env.scoring.claims.numbers import read_quantities
    from hat_env.scoring.claims.vocab import load_vocab

    m = normalize(text, locale)
    out = []
    for x in read_quantities(m, load_vocab(locale)):
        before = m.text[max(0, x.start - CHARS_BEFORE) : x.start]
        before = _CLAUSE_MARK.split(before)[-1]
        after = _CLAUSE_MARK.split(m.text[x.end : x.end + CHARS_AFTER])[0]
        out.append((x.base, x.dim, _bigrams(_folded(before, locale)) | _bigrams(_folded(_NUMERIC.split(after)[0], locale))))
    return tuple(out)


def zh_labelled(r: "Reading", q: Quantity, i: int, pfs: list[ProductFacts]) -> list[tuple[ProductFacts, float, str]]:
    """The quantities of ``pfs``'s FAQ answers and after-sales note, in ``q``'s dimension, that the same words
    come next to (before, or a few characters after) as next to ``q`` in its clause ("一勺含蛋白质三十克" and the
    FAQ's "...含蛋白质24g"; "一勺就有30g蛋白质"; "每天吃三粒" and "每天2粒"): ``(product, base value, data text)``;
    empty outside Chinese."""
    if r.vocab.lang != "zh":
        return []
    c0, c1 = r.clauses[i].start, r.clauses[i].end
    loc = r.vocab.locale
    said = _bigrams(_folded(r.text[max(c0, q.start - CHARS_BEFORE) : q.start], loc)) | \
        _bigrams(_folded(_NUMERIC.split(r.text[q.end : min(c1, q.end + CHARS_AFTER)])[0], loc))
    if not said:
        return []
    out: list[tuple[ProductFacts, float, str]] = []
    for pf in pfs:
        p = pf.product
        if any(f.dim == q.dim and abs(f.value - q.base) < 1e-6 and (f.attr.startswith("spec:") or f.attr == "title")
               for f in pf.numbers):
            continue  # "净含量900克": the product's own spec value, whatever words come before it
        mine = said - _bigrams(p.title)  # "蛋白粉...900克": the product's name says nothing of what is measured
        for text in [*(f.a for f in p.faq), p.returns.note or ""]:
            if text and mine:
                out += [(pf, v, text) for v, dim, pairs in _zh_measured(text, r.vocab.locale)
                        if dim == q.dim and pairs & mine]
    return out
