"""A Chinese comment that names no product and asks with the words of one product's FAQ question ("熊掉毛吗" for
the plush bear's "会掉毛吗？"): that question is about that product (calibration README: a question about a product
whose data has no such spec is ``spec(attr="unknown")``, which the assembly gives a named product asked about).

Read from the room's own data: the FAQ questions' two-character Han words, those of one product only, that are no
keyword of the parser and no function words. Only a comment the keywords read nothing in (no hit but a greeting),
that asks (a question), and that names no product or link.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from hat_env.understanding.clauses import Hit, Mention

_HAN_RUN = re.compile(r"[\u4e00-\u9fff]+")
#: characters of question frames and pronouns, not of what a FAQ asks about ("会…吗", "能…吗", "是不是")
_FUNCTION = frozenset("吗呢吧么嘛啊呀的了是会能可以有没不要用这那个它们我你他吗怎样什哪几多少请问还都也就")


def _words(q: str) -> set[str]:
    out = set()
    for run in _HAN_RUN.findall(q):
        for i in range(len(run) - 1):
            w = run[i:i + 2]
            if not (set(w) & _FUNCTION):
                out.add(w)
    return out


@lru_cache(maxsize=64)
def _owners(cat: Any) -> tuple[tuple[str, frozenset[int]], ...]:
    """Each two-character word of the catalog's FAQ questions with the links whose questions have it (once per
    catalog)."""
    owners: dict[str, set[int]] = {}
    for e in getattr(cat, "entries", ()):
        for q in getattr(e, "faq_q", ()):
            for w in _words(q):
                owners.setdefault(w, set()).add(e.link)
    return tuple((w, frozenset(v)) for w, v in owners.items())


def faq_names(f: str, hits: list[Hit], mentions: list[Mention], bounds: list[int], cat: Any,
              asks: bool) -> list[Mention]:
    """The mentions, with a product named by its FAQ question's words when nothing else names one (module
    docstring); ``asks``: whether the comment is a question."""
    if cat is None or mentions or not asks or any(h[3] != "chitchat" for h in hits) or not _HAN_RUN.search(f):
        return mentions
    from hat_env.understanding.lexicon import lexicon

    roles = lexicon().roles
    try:
        owners = _owners(cat)
    except TypeError:  # a catalog that cannot be a cache key
        owners = _owners.__wrapped__(cat)
    found: dict[int, tuple[int, int]] = {}
    for w, links in owners:
        if len(links) != 1 or roles.get(w):
            continue
        at = f.find(w)
        if at >= 0:
            found.setdefault(next(iter(links)), (at, at + 2))
    if len(found) != 1:
        return mentions
    from bisect import bisect_right

    (ln, (a, b)), = found.items()
    return [(a, b, frozenset({ln}), bisect_right(bounds, a))]


__all__ = ["faq_names"]
