"""An accessory is no product of the one it is for: a title such as "Funda para Lumen 6" or "Hard Case for Pixi 8"
holds the other product's name after an accessory lead ("para", "for": the locales' ``accessory_leads``). A
mention that names such a product of its own ("el lumen 6", "the pixi 8") and the accessory only through those
words names the product alone; written with the accessory's own words ("la funda del lumen 6", "the case for the
pixi 8") the mention is the accessory's (the names merge first)."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from hat_env.understanding.catalog import Catalog, _names_of
from hat_env.understanding.clauses import Mention
from hat_env.understanding.fold import fold
from hat_env.understanding.lexicon import lexicon


def accessory_head(title: str, leads: tuple[str, ...]) -> str | None:
    """The part of ``title`` before the first of ``leads`` that does not open it ("Funda para Lumen 6" ->
    "funda"), folded; ``None`` when it has none of them."""
    t = fold(title)
    cut = None
    for w in leads:
        rx = re.escape(w) if not w.isascii() else r"(?<![a-z0-9])" + re.escape(w) + r"(?![a-z0-9])"
        m = re.search(rx, t)
        if m is not None and m.start() > 0 and (cut is None or m.start() < cut):
            cut = m.start()
    return t[:cut].strip() if cut is not None else None


@lru_cache(maxsize=64)
def accessory_only(cat: Catalog) -> dict[str, frozenset[int]]:
    """Per name of ``cat``, the products that have it only after an accessory lead of their title, when another
    product has it of its own ("lumen 6" -> the case's link); names without such products are left out."""
    tails: dict[int, set[str]] = {}
    leads = lexicon().accessory_leads
    for e in cat.entries:
        head = accessory_head(e.title, leads) if leads else None
        if head is not None:
            tails[e.link] = _names_of(e) - _names_of(replace(e, title=head))
    out: dict[str, frozenset[int]] = {}
    if tails:
        for w, links in cat.names.items():
            only = frozenset(k for k in links if w in tails.get(k, ()))
            if only and links - only:
                out[w] = only
    return out


def drop_accessories(f: str, mentions: list[Mention], cat: Catalog | None) -> list[Mention]:
    """The mentions, each naming a product and an accessory for it by the product's name alone narrowed to the
    product.

    Args:
        f: the folded comment the mentions' positions are in.
        mentions: the product mentions ``(start, end, links, clause)``, merged (:func:`names.merge_names`).
        cat: the room's catalog, or ``None``.

    Returns:
        the mentions, narrowed; unchanged without a catalog or an accessory title.
    """
    if cat is None:
        return mentions
    only = accessory_only(cat)
    if not only:
        return mentions
    out = []
    for m in mentions:
        drop = only.get(" ".join(f[m[0]:m[1]].split()))
        out.append((m[0], m[1], m[2] - drop, m[3]) if drop and m[2] - drop else m)
    return out


__all__ = ["accessory_head", "accessory_only", "drop_accessories"]
