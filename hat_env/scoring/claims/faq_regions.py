"""Shipping regions a product's FAQ answers give terms for when its data lists none (``shipping.regions``
empty): "新疆、西藏、青海等偏远地区暂不发货", "the 2-pack cannot ship to Alaska, Hawaii or Puerto Rico",
"偏远地区可以发，需另补运费15元". Each answer that says a product is not sent somewhere (the vocabulary's
``region_not_shipped``) or costs extra there (``region_extra_fee``) yields one :class:`~hat_env.sim.catalog.Region`
named by the places the answer lists, so :mod:`.check_regions` judges "新疆也包邮" or "we ship to Hawaii" against
the FAQ as it judges the listed regions.

A place is read by structure, no gazetteer: in Chinese, the 2-3 character items of a list joined by 、 or closed by
等/地区; in English and Spanish, the capitalised words after "to"/"a" or in a list with them, never a word of a
product's title or brand.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hat_env.sim.catalog import Region
from hat_env.text import normalize

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading
    from hat_env.sim.catalog import Product

#: Chinese: a list of 2-3 character place items ("新疆、西藏、青海等"), or one item closed by 等/地区.
_ZH_LIST = re.compile(r"((?:[\u4e00-\u9fff]{2,3}、)+[\u4e00-\u9fff]{2,3})|([\u4e00-\u9fff]{2,3})(?=等|地区)")
#: Latin: capitalised words after "to"/"a"/"en", with the list that follows ("to Alaska, Hawaii or Puerto Rico").
_LATIN_LIST = re.compile(
    r"\b(?:to|in|a|en)\s+((?:[A-Z][a-záéíóúñ]+(?:\s[A-Z][a-záéíóúñ]+)?)(?:\s*(?:,|\bor\b|\band\b|\by\b|\bo\b)\s*"
    r"(?:[A-Z][a-záéíóúñ]+(?:\s[A-Z][a-záéíóúñ]+)?))*)")
_LATIN_ITEM = re.compile(r"[A-Z][a-záéíóúñ]+(?:\s[A-Z][a-záéíóúñ]+)?")
#: Chinese items that are no place ("偏远" is kept: "偏远地区" names the remote regions as a whole).
_ZH_STOP = frozenset({"其他", "部分", "所有", "全国", "其它", "个别"})
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def faq_regions(r: "Reading", p: "Product") -> list[Region]:
    """The regions ``p``'s FAQ answers give terms for (none when its data lists regions of its own)."""
    if p.shipping.regions:
        return list(p.shipping.regions)
    key = (p.product_id, r.vocab.locale)
    cache = _cache(r)
    if key in cache:
        return cache[key]
    own = {w.lower() for x in r.room.products for w in re.findall(r"[A-Za-z]+", f"{x.title} {x.brand}")}
    out: list[Region] = []
    for f in p.faq:
        a = normalize(f.a, r.vocab.locale).text
        not_sent = r.vocab.find("region_not_shipped", a) is not None
        extra = r.vocab.find("region_extra_fee", a)
        if not not_sent and extra is None:
            continue
        names = _places(a, r.vocab.lang, own)
        if not names:
            continue
        fee = 0.0
        if not not_sent and extra is not None:
            n = _NUMBER.search(a, extra.start())
            fee = float(n.group()) if n is not None else 0.0
            if not fee:
                continue  # an extra fee the answer does not state: no terms to judge by
        out.append(Region(names=names, fee=0.0 if not_sent else fee, ships=not not_sent))
    cache[key] = out
    return out


def _places(text: str, lang: str, own: set[str]) -> list[str]:
    """The place names an FAQ answer lists."""
    names: list[str] = []
    if lang == "zh":
        for m in _ZH_LIST.finditer(text):
            items = m.group(1).split("、") if m.group(1) else [m.group(2)]
            items = [re.sub(r"(?:等|地区)$", "", x) for x in items]
            names += [x for x in items if len(x) >= 2 and x not in _ZH_STOP]
    else:
        for m in _LATIN_LIST.finditer(text):
            names += [x for x in _LATIN_ITEM.findall(m.group(1)) if x.lower() not in own]
    return list(dict.fromkeys(names))


def _cache(r: "Reading") -> dict[tuple[str, str], list[Region]]:
    """The reading's cache of FAQ regions, by ``(product id, locale)`` (one per reading)."""
    c: dict[tuple[str, str], list[Region]] = r.__dict__.setdefault("_faq_regions", {})
    return c


__all__ = ["faq_regions"]
