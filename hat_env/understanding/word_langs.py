"""Which language each keyword of the parser's vocabulary is a word of, so that a misspelt word is only read as a
keyword of the language its comment is written in ("loves" in an English comment is no typo of the Spanish deal
word "lotes"), and which language a Latin-script comment is written in (its marker words)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from hat_env.understanding.fold import fold

if TYPE_CHECKING:  # pragma: no cover
    from hat_env.sim.vocabulary import Vocabulary

_TOKEN = re.compile(r"[a-z][a-z']*")


def word_langs(specs: dict[str, Any], vocabulary: "Vocabulary") -> dict[str, frozenset[str]]:
    """Folded keyword -> the languages (``"en"``, ``"es"``, ...) whose locale file or vocabulary words hold it.

    Args:
        specs: locale id -> its :class:`~hat_env.locales.ParserSpec`.
        vocabulary: the room's vocabulary (spec words and deal words by locale).

    Returns:
        Only words some locale names; a word no locale names (an attribute's label) is absent: any language.
    """
    out: dict[str, set[str]] = {}

    def add(w: str, loc: str) -> None:
        fw = fold(w.strip())
        if fw:
            out.setdefault(fw, set()).add(loc.split("_")[0])

    for loc, p in specs.items():
        for ws in (*p.keywords.values(), *p.spec_words.values(), *p.spec_values.values()):
            for w in ws:
                add(w, loc)
        for w in (*p.conditions, *p.quantity, *p.count_quantity, *p.misspellings):
            add(w, loc)
    for by_loc in vocabulary.spec_words().values():
        for loc, ws in by_loc.items():
            for w in ws:
                add(w, loc)
    for by_loc in vocabulary.spec.campaign_words.values():
        for loc, ws in by_loc.items():
            for w in ws:
                add(w, loc)
    return {w: frozenset(v) for w, v in out.items()}


def comment_lang(f: str, markers: dict[str, frozenset[str]], least: int = 1) -> str | None:
    """The language whose marker words the folded comment ``f`` holds most of (more than any other, and at least
    ``least`` of them), or ``None`` (no marker, or a tie: "el blender is ok")."""
    toks = _TOKEN.findall(f)
    counts = sorted(((sum(t in ws for t in toks), lang) for lang, ws in markers.items()), reverse=True)
    if not counts or counts[0][0] < least or (len(counts) > 1 and counts[0][0] == counts[1][0]):
        return None
    return counts[0][1]


def foreign_word(w: str, f: str, lang: str | None, langs: dict[str, frozenset[str]],
                 markers: dict[str, frozenset[str]]) -> bool:
    """Whether the Latin keyword ``w`` of the folded comment ``f`` is a word of another language than ``lang``
    (the comment's) that the comment shows no other sign of: the Spanish stock word "hay" in "as big as a hay
    bale". A word the Chinese locale also lists is an international one ("spf"); a comment with another marker
    word of the word's language mixes the two ("the earbuds tienen descuento?") and keeps it."""
    own = langs.get(w)
    if lang is None or not w.isascii() or not own or lang in own or not own <= markers.keys():
        return False
    toks = _TOKEN.findall(f)
    return not any(t != w and t in markers[x] for x in own for t in toks)


#: letters Spanish viewers swap because they sound alike (same length: the comment's positions stay)
_SOUND_SWAPS = {"b": "v", "v": "b"}


def respell_spanish(f: str, known: frozenset[str]) -> str:
    """``f`` with each Latin word that no keyword or common word spells, written the way it sounds ("kuanto" for
    "cuanto", "bale" for "vale", "balen", "kuesta"), replaced by the known word it sounds like: a ``k`` before
    a, o or u for ``c``, ``b`` and ``v`` for each other (at most three letters changed in a word). Only for a
    comment whose marker words are Spanish (an English "bale" stays).

    Args:
        f: the folded comment.
        known: the words the parser knows (:attr:`Lexicon.known_words`).
    """
    out = f
    for m in _TOKEN.finditer(f):
        w = m.group()
        if len(w) < 3 or w in known:
            continue
        spots = [i for i, c in enumerate(w) if c in _SOUND_SWAPS or (c == "k" and w[i + 1 : i + 2] in ("a", "o", "u"))]
        if not spots or len(spots) > 3:
            continue
        for mask in range(1, 1 << len(spots)):
            cand = list(w)
            for j, i in enumerate(spots):
                if mask >> j & 1:
                    cand[i] = "c" if w[i] == "k" else _SOUND_SWAPS[w[i]]
            c = "".join(cand)
            if c in known:
                out = out[: m.start()] + c + out[m.end() :]
                break
    return out


__all__ = ["comment_lang", "foreign_word", "respell_spanish", "word_langs"]
