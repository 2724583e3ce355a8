"""A product's variant values read from its own specs: the values of its colour, size, shade or flavour (the
attributes whose values tell one product's variants apart), as a viewer names one of them.

Two readings (calibration README conventions) use them, in :mod:`~hat_env.understanding.parser` before the
intents are assembled:

- *Which product*: a name several products share ("遥控车" of two cars, "the salmon one") said beside a value only
  some of them have ("红色的遥控车", "黄色那个车") names those products only.
- *Stock of a variant*: a clause that names one product, one of its variant values ("66码", "60cm", "chocolate",
  "lila") and a variant-stock word ("还有…吗", "do you have", "hay", "queda"; the locale's ``variant_stock_words``)
  and asks nothing else asks the stock of that variant, not its spec ("连体衣还有66码吗", "do u have chocolate
  whey", "la esterilla lila hay?").

The values come from the room's data, split as the catalog splits values: words (two or more Han characters, three
or more Latin letters) and numbers written with their unit ("60cm", "66" of "59/66/73/80").
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from typing import Any

from hat_env.understanding.clauses import Hit, Mention
from hat_env.understanding.fold import fold

#: the attributes whose values tell a product's variants apart (qualifiers.VARIANT_ATTRS and the flavour)
VARIANT_KEYS = frozenset({"color", "size", "shade", "flavor"})
_SPLIT = re.compile(r"[、,，/;；|()（）\s]+|和|或")
_NUM = re.compile(r"\d+(?:\.\d+)?[a-z]*")
_HAN = re.compile(r"[\u4e00-\u9fff]{2,}")
_LATIN = re.compile(r"[a-z][a-z-]{2,}")
#: Han words of a value that say how many values there are, not a value ("两个尺寸")
_NOT_VALUE = re.compile(r"[两二三四五六七八九十几多]个|尺寸|颜色|口味|色号")


@lru_cache(maxsize=256)
def _tokens(value: str) -> tuple[tuple[str, bool], ...]:
    """``(token, numeric)`` of one spec value: its words and its numbers with their unit."""
    out: list[tuple[str, bool]] = []
    for piece in _SPLIT.split(fold(value)):
        if not piece:
            continue
        for m in _NUM.finditer(piece):
            out.append((m.group(), True))
        for w in _HAN.findall(piece):
            w = _NOT_VALUE.sub("", w)
            if len(w) >= 2:
                out.append((w, False))
        out.extend((w, False) for w in _LATIN.findall(piece))
    return tuple(dict.fromkeys(out))


def variant_tokens(cat: Any, link: int) -> tuple[tuple[str, bool], ...]:
    """The variant values of product ``link`` in the catalog ``cat``: ``(token, numeric)``, without the words of
    its title ("150" of "Sábanas ... 150": part of its name, no variant) and attribute keywords ("tallas" of
    "tallas S, M, L y XL"). Read once per catalog (:func:`_variant_table`)."""
    try:
        return _variant_table(cat).get(link, ())
    except TypeError:  # a catalog that cannot be a cache key
        return _variant_table.__wrapped__(cat).get(link, ())


@lru_cache(maxsize=64)
def _variant_table(cat: Any) -> dict[int, tuple[tuple[str, bool], ...]]:
    """link -> :func:`variant_tokens` of every product of ``cat`` (catalogs are built once per product set, so
    this is computed once per room)."""
    from hat_env.understanding.lexicon import lexicon

    roles = lexicon().roles
    table: dict[int, list[tuple[str, bool]]] = {}
    for e in getattr(cat, "entries", ()):
        title = fold(e.title)
        out = table.setdefault(e.link, [])
        for k, v in e.specs:
            if k in VARIANT_KEYS:
                out.extend((t, n) for t, n in _tokens(v)
                           if _find(title, 0, len(title), t, n) is None and not _attribute_word(t, roles))
    return {ln: tuple(v) for ln, v in table.items()}


def _attribute_word(word: str, roles: dict[str, Any]) -> bool:
    """Whether ``word`` is a keyword of the parser other than a value word ("tallas": a size word)."""
    return any(r[0] in ("kind", "spec", "cond", "qty", "deal") for r in roles.get(word) or ())


def _find(f: str, lo: int, hi: int, token: str, numeric: bool) -> tuple[int, int] | None:
    """Where ``token`` stands in ``f[lo:hi]`` as a whole (a number not inside a longer one, a Latin word whole)."""
    if numeric:
        pat = rf"(?<![\d.]){re.escape(token)}(?![\d])" if not token.isdigit() else rf"(?<![\d.]){token}(?![\d.])"
    elif token.isascii():
        pat = rf"(?<![a-z]){re.escape(token)}(?![a-z])"
    else:
        pat = re.escape(token)
    m = re.compile(pat).search(f, lo, hi)
    return (m.start(), m.end()) if m else None


def _clause_span(bounds: list[int], c: int, n: int) -> tuple[int, int]:
    return (bounds[c - 1] if c > 0 else 0, bounds[c] if c < len(bounds) else n)


def narrow_by_variant(f: str, mentions: list[Mention], bounds: list[int], cat: Any) -> list[Mention]:
    """The mentions, a shared name narrowed to the products that have a variant value its clause names outside
    the names ("红色的遥控车": the red car of two cars). Words only: a bare number picks nothing."""
    if cat is None or not any(len(m[2]) > 1 for m in mentions):
        return mentions
    out = []
    for m in mentions:
        if len(m[2]) > 1:
            lo, hi = _clause_span(bounds, m[3], len(f))
            named = [(x[0], x[1]) for x in mentions if x[3] == m[3]]
            having = set()
            for ln in m[2]:
                for tok, numeric in variant_tokens(cat, ln):
                    at = None if numeric else _find(f, lo, hi, tok, numeric)
                    if at and not any(a <= at[0] < b for a, b in named):
                        having.add(ln)
            if having and having != set(m[2]):
                m = (m[0], m[1], frozenset(having), m[3])
        out.append(m)
    return out


def value_names(f: str, mentions: list[Mention], bounds: list[int], cat: Any) -> list[Mention]:
    """A comment that names no product but a variant value only one product has ("the blue one still in stock?",
    "焦糖色那款"): that value names its product. Words only, and one product in all: a value several products
    share ("black") names none."""
    if cat is None or mentions:
        return mentions
    found: dict[int, tuple[int, int]] = {}
    for e in getattr(cat, "entries", ()):
        for tok, numeric in variant_tokens(cat, e.link):
            if numeric:
                continue
            at = _find(f, 0, len(f), tok, numeric)
            if at is not None:
                found.setdefault(e.link, at)
    if len(found) != 1:
        return mentions
    (ln, (a, b)), = found.items()
    return [(a, b, frozenset({ln}), bisect_right(bounds, a))]


def variant_stock_hits(f: str, hits: list[Hit], values: list[tuple[int, int, int, str]], mentions: list[Mention],
                       bounds: list[int], cat: Any, stock_re: "re.Pattern[str] | None") \
        -> tuple[list[Hit], list[tuple[int, int, int, str]]]:
    """The hits and value hits with a variant's stock question read (module docstring): in such a clause its
    variant spec hits and value hits give way to one ``stock`` hit on the value."""
    if cat is None or stock_re is None or not mentions:
        return hits, values
    from hat_env.understanding.lexicon import lexicon
    from hat_env.understanding.questions import is_question

    bare = lexicon().bare_stock
    for c in range(len(bounds) + 1):
        lo, hi = _clause_span(bounds, c, len(f))
        own = [m for m in mentions if m[3] == c]
        before = lo  # where the variant may be written: this clause, or the one before that names the product
        if not own and c > 0:  # "连体衣，还有66码吗": the name closes the clause before, which asks nothing
            own = [m for m in mentions if m[3] == c - 1]
            before = _clause_span(bounds, c - 1, len(f))[0]  # "羽绒服L码 有没有": or it names a variant only
            if not own or any(before <= h[0] < lo and h[3] != "chitchat" and not (
                    h[2] in ("spec", "value") and h[3] in VARIANT_KEYS) for h in hits):
                continue
        links = {ln for m in own for ln in m[2]}
        said = stock_re.search(f, lo, hi)
        if len(links) != 1 or said is None:
            continue
        ln = next(iter(links))
        others = [h for h in hits if lo <= h[0] < hi and h[3] != "chitchat"
                  and not (h[2] == "spec" and h[3] in VARIANT_KEYS) and not (h[2] == "kind" and h[3] == "stock")
                  and not (h[2] == "value" and h[3] in VARIANT_KEYS)]
        if others:
            continue
        named = [(m[0], m[1]) for m in own]
        at = None
        if before < lo and is_question(f[before:lo]):
            before = lo  # "卫衣有燕麦色吗 还有货没": the clause before asks about the colour itself
        for a0, b0 in ((lo, hi), (before, lo)) if before < lo else ((lo, hi),):
            for tok, numeric in variant_tokens(cat, ln):
                where = _find(f, a0, b0, tok, numeric)
                if where and not any(a <= where[0] < b and (a, b) != where for a, b in named):  # (a name of its own:
                    at = where  # value_names)
                    break
            if at is not None:
                break
        if at is None or (said.group() in bare and at[0] > said.start()):
            continue  # "¿hay en azul?": does it come in blue, a colour question ("rascador gris hay?": its stock)
        lo = min(lo, at[0])
        hits = [h for h in hits if not (lo <= h[0] < hi and ((h[2] in ("spec", "value") and h[3] in VARIANT_KEYS)
                                                             or (h[2] == "kind" and h[3] == "stock")))]
        hits.append((at[0], at[1], "kind", "stock"))
        values = [v for v in values if not lo <= v[0] < hi]
    return hits, values


__all__ = ["VARIANT_KEYS", "narrow_by_variant", "value_names", "variant_stock_hits", "variant_tokens"]


def stated_values(f: str, intents: list[Any], cat: Any, where: dict[Any, int] | None = None,
                  parts: list[int] | None = None) -> list[Any]:
    """``intents`` without the spec intents a variant value merely names: a comment that asks the stock of (or
    buys) a product and states one of the values of the asked attribute ("labial tono nude queda?", "表带还有货吗
    薄荷绿", "5号链接 我要了 驼色") picks that variant, it does not ask which values there are.

    A spec intent is dropped when a stock or purchase intent of its product is there, its attribute is a spec of the
    product, a value word of that spec (not a word of the title) stands in the comment ``f`` (folded), and the spec
    intent is read in the same part of the comment as the stock or purchase one, or in a part that says little more
    than the value ("薄荷绿"). A part of its own that asks about the value stays a question ("卫衣有燕麦色吗 还有货没",
    "粉底液有几个色？02自然色还有吗"). ``where``: the position each intent was read at; ``parts``: where the
    comment's parts start (without them every intent is taken to be in one part)."""
    if cat is None:
        return intents
    asked = {it.link for it in intents if it.kind in ("stock", "purchase") and it.link is not None}
    if not asked:
        return intents
    where = where or {}
    parts = parts or []
    entries = {e.link: e for e in getattr(cat, "entries", ())}

    def part(it: Any) -> int:
        return bisect_right(parts, where.get(it, 0))

    out = []
    for it in intents:
        e = entries.get(it.link) if it.kind == "spec" and it.link in asked else None
        value = dict(e.specs).get(it.attr) if e is not None and it.attr else None
        if value is not None:
            title = fold(e.title)
            spans = [sp for t, n in _tokens(str(value)) if _find(title, 0, len(title), t, n) is None
                     and (sp := _find(f, 0, len(f), t, n)) is not None]
            k = part(it)
            same = any(o.kind in ("stock", "purchase") and o.link == it.link and part(o) == k for o in intents)
            lo = parts[k - 1] if k > 0 else 0
            hi = parts[k] if k < len(parts) else len(f)
            bare = any(lo <= a and b <= hi and len(re.sub(r"[\W_的呢啊呀吧]+", "", f[lo:a] + f[b:hi])) <= 1
                       for a, b in spans)
            if spans and (same or bare):
                continue
        out.append(it)
    return out
