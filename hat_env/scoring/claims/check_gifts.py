"""Which gift a reply names: "comes with a free neoprene hood", "viene con un molinillo de café de regalo". A gift
campaign running for the product makes a gift claim true only when the item named is that campaign's gift (its
``gift`` text or its title): the head noun of the named item must be one of their words.

The words are the locale's: ``gift_object`` (regexes whose group 1 is the head noun of the item named: the last
word after "free" in English, the first word after the article before "de regalo" in Spanish) and
``gift_generic`` (heads that name no item: "gift", "bonus", "regalo", "sorpresa"), ``gift_measure`` (heads that
measure the item named after them: "un paquete de café", "a bag of treats").
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading

_WORD = re.compile(r"[^\W\d_][\w-]*")


def _stem(w: str) -> str:
    """A lower-case word without a plural ending ("toys" -> "toy", "sacks" -> "sack")."""
    w = w.lower()
    if len(w) > 4 and w.endswith("es") and w[-3] in "sxz":
        return w[:-2]
    if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
        return w[:-1]
    return w


def check_gift_item(r: "Reading", i: int, s: int, pids: tuple[str, ...]) -> bool:
    """Check the item a gift claim at ``s`` of clause ``i`` names against the gifts of ``pids`` running now; record
    a false claim and return True when it names another item, else return False (nothing named, or the gift)."""
    rx = r.vocab.rx.get("gift_object")
    if rx is None:
        return False
    pfs = [pf for pf in r.pfs(pids) if pf.gifts]
    if not pfs:
        return False
    c = r.clauses[i]
    generic = r.vocab.rx.get("gift_generic")
    for m in rx.finditer(r.text, c.start, c.end):
        head = m.group(1)
        if not head or (generic is not None and generic.fullmatch(head)):
            continue
        words = {_stem(w) for pf in pfs for txt in (*pf.gifts, *(x.title for x in pf.campaigns_active if x.type == "gift"))
                 for w in _WORD.findall(txt)}
        if _stem(head) in words:
            return False
        measure = r.vocab.rx.get("gift_measure")
        if measure is not None and measure.fullmatch(head) and \
                any(_stem(w) in words for w in _WORD.findall(r.text[m.end(1) : m.end()])):
            return False  # "un paquete de café" for "250 g de café en grano": a measure of the gift
        gift = pfs[0].gifts[0]
        r.claim(m.start(), m.end(), tuple(pf.pid for pf in pfs), "gift", head,
                "", True, "false", f"{r.label(pfs[0].pid)}: '{r.m.original(m.start(), m.end())}' but the gift is '{gift}'")
        return True
    return False


__all__ = ["check_gift_item"]
