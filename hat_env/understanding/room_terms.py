"""What a comment asks when it names one of the room's shipping regions or product variants, by the names the
room's own data gives them (``shipping.regions[].names``, ``variants[].name``; :mod:`hat_env.sim.room_words`
finds them). No room's words are known here.

- A region named in a clause with a shipping word or a sending verb (``ship_verbs``: "2号发西藏吗", "send it to
  Hawaii?", "¿mandan a Canarias?") asks shipping (of the product the clause names, else as the parser attributes
  it); a region named without one asks nothing ("我在西藏").
- A variant of a product named (or of the clause's only product with it, when no product is named) says which one
  a stock, price or purchase question is about: its words ask no spec ("1号黑色39码多少钱" is the price). Named in a
  question with a ``variant_stock_words`` word and nothing else asked ("any Black / L left?", "¿queda el negro
  39?") it asks the stock. A colour asked of a product without variants stays a spec question.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import Any

from hat_env.sim.room_words import regions_named, variants_named
from hat_env.understanding.clauses import Hit, Mention, clause_text
from hat_env.understanding.fold import fold
from hat_env.understanding.lexicon import lexicon
from hat_env.understanding.questions import is_question

#: the words of a clause, Latin ones whole, Chinese ones by character
_WORDS = re.compile(r"[a-z0-9\u00e0-\u00ff']+|[\u4e00-\u9fff]")
#: the question kinds a variant named beside them qualifies (it says which one)
QUALIFIED = frozenset({"stock", "price", "purchase"})


@dataclass(frozen=True)
class RoomTerms:
    """The region and variant names of one room, folded.

    Attributes:
        regions: each region's names (regions of every product; the product asked about is the clause's).
        variants: ``{link: (variant name, ...)}`` of the products that list variants.
    """

    regions: tuple[tuple[str, ...], ...] = ()
    variants: tuple[tuple[int, tuple[str, ...]], ...] = ()


def room_terms(products: Any) -> RoomTerms | None:
    """The :class:`RoomTerms` of ``products`` (a room or its products: objects with ``link``, and optional
    ``shipping.regions`` and ``variants``); ``None`` when none lists a region or a variant."""
    products = getattr(products, "products", products)
    if products is None:
        return None
    regions: list[tuple[str, ...]] = []
    variants: list[tuple[int, tuple[str, ...]]] = []
    try:
        items = list(products)
    except TypeError:
        return None
    for p in items:
        link = getattr(p, "link", None)
        for reg in getattr(getattr(p, "shipping", None), "regions", None) or ():
            names = tuple(fold(str(n)) for n in getattr(reg, "names", ()) if str(n).strip())
            if names and names not in regions:
                regions.append(names)
        names_v = tuple(fold(str(getattr(v, "name", ""))) for v in getattr(p, "variants", None) or ())
        if isinstance(link, int) and any(n.strip() for n in names_v):
            variants.append((link, names_v))
    if not regions and not variants:
        return None
    return RoomTerms(tuple(regions), tuple(variants))


def _only_leads(f: str, a: int, lo: int, hi: int, c: int, bounds: list[int], mentions: list[Mention]) -> bool:
    """Whether clause ``c`` (from ``a``) holds nothing but the variant (``lo:hi``), product names and
    ``variant_leads`` words ("sling bag in olive?", "¿la z50 en plata?"): a question whether that one is left."""
    leads = lexicon().variant_leads
    if not leads:
        return False
    end = bounds[c] + 1 if c < len(bounds) else len(f)
    chars = list(f[a:end])
    for s, e in [(lo, hi), *((m[0], m[1]) for m in mentions if m[3] == c)]:
        for i in range(max(s, a), min(e, end)):
            chars[i - a] = " "
    words = _WORDS.findall("".join(chars))
    return all(w in leads for w in words)


def region_word_hits(f: str, bounds: list[int], hits: list[Hit], lex: "Any") -> list[Hit]:
    """Shipping hits at the regions any shop may be asked about (``ParserSpec.region_words``: "发海南吗", "ship it to
    Guam?", "¿envían a Tenerife?"), read as the room's own regions are: in a question clause with a sending verb
    and no shipping hit yet."""
    if lex.region_re is None or lex.ship_re is None:
        return []
    out: list[Hit] = []
    done = {bisect_right(bounds, h[0]) for h in hits if h[2] == "kind" and h[3] == "shipping"}
    for m in lex.region_re.finditer(f):
        c = bisect_right(bounds, m.start())
        if c in done:
            continue
        text = clause_text(f, bounds, c)
        if lex.ship_re.search(text) is not None and is_question(text):
            out.append((m.start(), m.end(), "kind", "shipping"))
            done.add(c)
    return out


def region_variant_hits(f: str, bounds: list[int], hits: list[Hit], values: list[tuple[int, int, int, str]],
                        mentions: list[Mention], terms: RoomTerms) -> tuple[list[Hit], list[tuple[int, int, int, str]],
                                                                            list[Mention]]:
    """The hits, spec values and mentions of a comment once its regions and variants are read (module docstring).

    Args:
        f: the folded comment.
        bounds: its clause bounds.
        hits: the keyword hits ``(start, end, role, value)``.
        values: the spec values of named products ``(start, end, link, attr)``.
        mentions: the product mentions ``(start, end, links, clause)``.
        terms: the room's region and variant names.

    Returns:
        ``(hits, values, mentions)``: a shipping hit at a region asked about, a stock hit at a variant asked about,
        no spec hit or value inside a variant's words, and a mention of the variant's product where its clause
        names none.
    """
    hits, values, mentions = list(hits), list(values), list(mentions)

    def kinds_in(c: int) -> set[str]:
        return {str(h[3]) for h in hits if h[2] == "kind" and bisect_right(bounds, h[0]) == c}

    if terms.regions:
        ship = lexicon().ship_re
        for _k, s, e in regions_named(f, terms.regions):
            c = bisect_right(bounds, s)
            if "shipping" in kinds_in(c):
                continue
            text = clause_text(f, bounds, c)
            if ship is not None and ship.search(text) is not None and is_question(text):
                hits.append((s, e, "kind", "shipping"))
    if terms.variants:
        spans: dict[int, list[tuple[int, int, int]]] = {}  # clause -> (link, start, end)
        for link, names in terms.variants:
            got = variants_named(f, names)
            if got:
                s, e = min(g[1] for g in got), max(g[2] for g in got)
                spans.setdefault(bisect_right(bounds, s), []).append((link, s, e))
        left = lexicon().variant_stock_re
        for c, found in spans.items():
            named = {ln for m in mentions if m[3] == c for ln in m[2]}
            if named:
                found = [x for x in found if x[0] in named]  # another product named: not its variant
            if not found:
                continue
            lo, hi = min(x[1] for x in found), max(x[2] for x in found)
            # a word between the variants' words is no question of its own ("black L or white M left?": no compare)
            kinds = {str(h[3]) for h in hits if h[2] == "kind" and bisect_right(bounds, h[0]) == c
                     and not (lo <= h[0] and h[1] <= hi)}
            text = clause_text(f, bounds, c)
            qualified = bool(kinds & QUALIFIED) or any(h[2] == "qty" and h[3] != "count"  # "white M how much"
                                                       and bisect_right(bounds, h[0]) == c for h in hits)
            a = bounds[c - 1] + 1 if c > 0 else 0
            rest = f[a:lo] + f[hi:bounds[c] + 1 if c < len(bounds) else len(f)]  # "1号有黑色吗": 有...吗
            asks_left = not qualified and not (kinds - {"chitchat"}) and is_question(text) \
                and ((left is not None and left.search(rest) is not None) or _only_leads(f, a, lo, hi, c, bounds, mentions))
            if not (qualified or asks_left):
                continue
            name_stock = lexicon().name_stock  # "any Black / L left on link 1?": "left" after the variant asks its stock
            hits = [(lo, hi, h[2], h[3]) if h[2:] == ("kind", "stock") and f[h[0]:h[1]] in name_stock
                    and bisect_right(bounds, h[0]) == c and 0 <= h[0] - hi <= 1 else h for h in hits]
            hits = [h for h in hits if not ((h[2] in ("spec", "value") or h[2:] == ("kind", "compare"))
                                            and lo <= h[0] and h[1] <= hi)]
            values = [v for v in values if not (lo <= v[0] and v[1] <= hi)]
            if asks_left:
                hits.append((lo, hi, "kind", "stock"))
            if not named:
                mentions.append((lo, hi, frozenset(x[0] for x in found), c))
        mentions.sort()
    return hits, values, mentions


__all__ = ["QUALIFIED", "RoomTerms", "region_variant_hits", "region_word_hits", "room_terms"]
