"""A size word picks one of the products a name is shared by: "el saco grande de nutrican" (of a brand's 12 kg and 7
kg bags, the 12 kg one), "the big bag of chicken kibble", "小瓶的精华": the product whose own measure (a quantity
in its title or its size, weight or capacity spec, of one dimension all of them are measured in) is the largest or
the smallest. The locale files' ``big_words`` and ``small_words`` are the size words."""

from __future__ import annotations

from typing import Any

from hat_env.understanding.catalog import Catalog
from hat_env.understanding.clauses import Hit, Mention
from hat_env.understanding.lexicon import Lexicon

#: the spec keys that hold a product's own measure (besides its title)
MEASURE_KEYS = ("size", "weight", "net_weight", "capacity", "volume", "dimensions")
#: how far from a name a size word is read as its own (characters, either side, in the same clause)
NEAR = 16


def _measures(entry: Any, vocabulary: Any) -> dict[str, float]:
    """Dimension -> the one single quantity (in base units) the entry's title and measure specs give it there
    (a dimension with two different quantities, or only ranges, is left out)."""
    found: dict[str, set[float]] = {}
    texts = [entry.title] + [str(v) for k, v in entry.specs if k in MEASURE_KEYS]
    for text in texts:
        for q in vocabulary.quantities(text):
            if q.unit is None or q.is_range:
                continue
            found.setdefault(q.unit.dimension, set()).add(round(q.in_base()[0], 6))
    return {d: next(iter(v)) for d, v in found.items() if len(v) == 1}


def by_size_word(f: str, mentions: list[Mention], hits: list[Hit], cat: Catalog | None, lex: Lexicon,
                 vocabulary: Any = None) -> list[Mention]:
    """The mentions, each shared name next to a size word narrowed to its largest or smallest product.

    Args:
        f: the folded comment.
        mentions: the product mentions ``(start, end, links, clause)``.
        hits: the keyword hits (a size word inside one, "how big", asks a size: it picks nothing).
        cat: the room's catalog (its entries' titles and specs), or ``None`` (nothing changes).
        lex: the compiled words (``big_re``, ``small_re``).
        vocabulary: the room's catalog vocabulary (its units), or ``None`` for the default one.

    Returns:
        The mentions; a shared one with a size word within :data:`NEAR` characters in its clause names the one
        product whose measure is the extreme, when all of its products are measured in one dimension and the
        extreme is one product's.
    """
    if cat is None or (lex.big_re is None and lex.small_re is None) or not any(len(m[2]) > 1 for m in mentions):
        return mentions
    if vocabulary is None:
        from hat_env.sim.vocabulary import default_vocabulary

        vocabulary = default_vocabulary()
    words: list[tuple[int, int, bool]] = []
    for pat, big in ((lex.big_re, True), (lex.small_re, False)):
        if pat is not None:
            words.extend((m.start(), m.end(), big) for m in pat.finditer(f)
                         if not any(h[0] < m.end() and m.start() < h[1] for h in hits))
    if not words:
        return mentions
    entries = {e.link: e for e in cat.entries}
    out: list[Mention] = []
    for m in mentions:
        near = [w for w in words if (0 <= m[0] - w[1] <= NEAR or 0 <= w[0] - m[1] <= NEAR)
                and not any(ch in ",，。?？!！;；\n" for ch in f[min(w[1], m[1]):max(w[0], m[0])])]
        if len(m[2]) < 2 or len({w[2] for w in near}) != 1:
            out.append(m)
            continue
        big = near[0][2]
        sized = {ln: _measures(entries[ln], vocabulary) for ln in m[2] if ln in entries}
        dims = set.intersection(*(set(v) for v in sized.values())) if len(sized) == len(m[2]) else set()
        if len(dims) != 1:
            out.append(m)
            continue
        (dim,) = dims
        ranked = sorted(sized, key=lambda ln: sized[ln][dim], reverse=big)
        if sized[ranked[0]][dim] == sized[ranked[1]][dim]:
            out.append(m)
            continue
        out.append((m[0], m[1], frozenset({ranked[0]}), m[3]))
    return out


__all__ = ["MEASURE_KEYS", "by_size_word"]
