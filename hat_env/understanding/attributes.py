"""Which attribute a spec question asks: the room's own spec keys and their words, the attribute a unit's value is
written in ("watts?"), a value word of a named product ("is the puppy food chicken?"), ``"unknown"`` when the
product has no such key; and the spec words of a condition, which ask nothing ("if the flavor ..., can I return")."""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from typing import Any

from hat_env.understanding.catalog import Catalog
from hat_env.understanding.clauses import Hit, Mention, clause_text
from hat_env.understanding.fold import fold
from hat_env.understanding.lexicon import Lexicon, lexicon
from hat_env.understanding.names import link_for
from hat_env.understanding.questions import is_question


def spec_attr(cat: Catalog | None, lex: Lexicon, link: int | None, attr: str | None,
              vocabulary: Any = None, stated: bool = False) -> str | None:
    """The spec key a spec word's attribute is for the product asked about.

    Args:
        cat: the room's catalog, or ``None`` (the attribute is kept as the words say).
        lex: the compiled words (``spec_fallbacks``: "capacity" is ``size`` in a room without ``capacity``;
            ``attributes``: every attribute a spec word names).
        link: the product asked about, or ``None``.
        attr: the attribute the spec word names, or ``None``.
        vocabulary: the room's catalog vocabulary (its attributes' units), or ``None`` for the default one.
        stated: whether the spec word is a unit written after the viewer's own number ("my dog is 60 lbs"): a
            measure of something else, not the product's own measure asked.

    Returns:
        ``attr`` when the product has it, else (unless ``stated``) its first fallback key whose value is written in
        a unit of what ``attr`` measures ("how many lbs": a size "24 lb bag"), else the product's one key whose unit measures the same thing ("weight"
        of a product whose own attribute is trail_weight in oz), else its one key that has the attribute's name as a
        word ("size" of a frame_size) when no fallback but a mass is left, else its first fallback the product has, else
        ``"unknown"`` (with a known catalog); without a product, ``"unknown"`` for an attribute no product and no spec word has.
    """
    if attr is None:
        return None
    if cat is not None and cat.specs_known:
        if link is not None:
            if cat.has_attr(link, attr):
                return attr
            keys = cat.spec_keys.get(link, frozenset())
            # a shop policy ("warranty", in months) is no measure of the product: never another key of its unit's
            # dimension ("garantía" of a tablet is no battery_hours)
            measured = None if stated else _fallback_measured(cat, lex, link, attr, vocabulary)
            if measured is not None:
                return measured  # "how many lbs is the bag": its size "24 lb bag", not the dogs it suits
            same = None if attr in lex.policy_attrs else _same_dimension(vocabulary, keys, attr)
            if same is not None:
                return same  # "weight" of a product whose own attribute is trail_weight (oz)
            fallback = next((alt for alt in lex.spec_fallbacks.get(attr, ()) if cat.has_attr(link, alt)), None)
            named = [k for k in keys if attr in k.split("_")]
            if len(named) == 1 and (fallback is None or _measures(vocabulary, fallback) == "mass"):
                return named[0]  # "what sizes" of a helmet whose own attribute is frame_size (not its weight)
            if attr == "size" and not named and "dimensions" not in keys:  # "el rascador cuánto mide": its one
                lengths = _length_keys(cat, link)  # length (a height in cm), not its weight
                if len(lengths) == 1:
                    return next(iter(lengths))
            return fallback or "unknown"
        if attr not in lex.attributes and not any(attr in k for k in cat.spec_keys.values()):
            return "unknown"
    return attr


def _fallback_measured(cat: Catalog, lex: Lexicon, link: int, attr: str, vocabulary: Any) -> str | None:
    """The first of ``attr``'s fallback keys (the locale files' ``spec_fallbacks``: "weight" -> ``size``) that product
    ``link`` has with a value written in a unit of what ``attr`` measures ("24 lb bag" for a weight), or ``None``.

    A fallback is the product's own measure of that name; another key in the same unit (``dog_size``: "dogs 22-44
    lb") measures something else the product is for, so the fallback whose value is that measure comes first."""
    dim = _measures(vocabulary, attr)
    if dim is None:
        return None
    from hat_env.understanding.units import unit_dimensions

    dims = unit_dimensions()
    written = {k for u, ks in cat.units.get(link, {}).items() if dims.get(u) == dim for k in ks}
    return next((alt for alt in lex.spec_fallbacks.get(attr, ()) if alt in written and cat.has_attr(link, alt)), None)


def _length_keys(cat: Catalog, link: int) -> frozenset[str]:
    """The spec keys of product ``link`` whose value is a length ("120 cm"), by the units its values are written in."""
    from hat_env.understanding.units import unit_dimensions

    dims = unit_dimensions()
    return frozenset(k for u, ks in cat.units.get(link, {}).items() if dims.get(u) == "length" for k in ks)


def _measures(vocabulary: Any, key: str) -> str | None:
    """What the unit of the attribute ``key`` measures ("mass" for weight in g), by the room's vocabulary (else the
    default one); ``None`` when it has no unit."""
    from hat_env.sim.vocabulary import default_vocabulary

    voc = vocabulary if vocabulary is not None else default_vocabulary()
    a = voc.attributes.get(key)
    u = voc.units.get(a.unit) if a is not None and a.unit else None
    return u.dimension if u is not None else None


def _same_dimension(vocabulary: Any, keys: "frozenset[str]", attr: str) -> str | None:
    """The one spec key of ``keys`` whose unit measures what ``attr``'s unit measures ("weight" in g and a room's
    trail_weight in oz), by the room's catalog vocabulary (else the default one); ``None`` when none or several."""
    from hat_env.sim.vocabulary import default_vocabulary

    voc = vocabulary if vocabulary is not None else default_vocabulary()
    a = voc.attributes.get(attr)
    ua = voc.units.get(a.unit) if a is not None and a.unit else None
    if ua is None:
        return None
    same = [k for k in sorted(keys) if (b := voc.attributes.get(k)) is not None and b.unit
            and (ub := voc.units.get(b.unit)) is not None and ub.dimension == ua.dimension]
    if len(same) > 1:  # several ("hull_weight" and "max_load" in lb): the one whose words name the asked attribute
        names = {attr.casefold(), *(x.casefold() for x in a.labels.values())}
        same = [k for k in same if names & {w.casefold() for ws in voc.attributes[k].words.values() for w in ws}]
    return same[0] if len(same) == 1 else None


def value_hits(f: str, cat: Catalog | None, hits: list[Hit], mentions: list[Mention], bounds: list[int],
               buys: list[re.Match[str]], free: Any, pinyin: bool = False) -> list[tuple[int, int, int, str]]:
    """Spec values of the products named, written in a clause (or a part of one, after a joiner) that names no spec
    word ("is the puppy food chicken?": ``flavor``; "el reloj tiene gps y cuánto dura la batería"), except a value
    that, with the name right before it, is the value as written.

    Args:
        f: the folded comment.
        cat: the room's catalog (``values_re``: its products' spec values), or ``None``.
        hits: the keyword hits.
        mentions: the product mentions.
        bounds: the clause bounds.
        buys: the purchase-by-count matches (no value is read inside one).
        free: whether a span is free of link references.
        pinyin: whether the comment reads as pinyin (then Chinese value words are also read in pinyin: "xiang la").

    Returns:
        ``(start, end, link, attr)`` per value word (a word several products share gives one per product).
    """
    out: list[tuple[int, int, int, str]] = []
    if cat is None or cat.values_re is None or not mentions:
        return out
    joint_re = lexicon().joint_re  # parts of clauses: "el reloj tiene gps y cuánto dura la batería" asks both
    parts = sorted({j.start() for j in joint_re.finditer(f)} | set(bounds))
    spec_parts = {bisect_right(parts, h[0]) for h in hits if h[2] in ("spec", "value")}
    spec_clauses = {bisect_right(bounds, h[0]) for h in hits if h[2] in ("spec", "value")}
    by_clause = any(m[3] not in spec_clauses for m in mentions)  # a named product's clause asks no spec
    if by_clause or any(bisect_right(parts, m[0]) not in spec_parts for m in mentions):
        for m in cat.values_re.finditer(f):
            if not free(m.start(), m.end()) or any(a <= m.start() < b for a, b, _, _ in mentions) \
                    or any(b.start() <= m.start() < b.end() for b in buys) \
                    or (not by_clause and bisect_right(parts, m.start()) in spec_parts):
                continue
            if joint_re.fullmatch(m.group()) is not None:  # "and" of "mahogany back and sides" joins, names nothing
                continue
            if m.group() in lexicon().measures:  # "how much is the salmon bag": the bag is the product, not its size
                continue
            pairs = cat.values.get(m.group(), ()) or cat.values.get(m.group().rstrip("s"), ())
            if any(quotes_value(f, m.start(), m.end(), link, attr, mentions, cat) for link, attr in pairs):
                continue  # "the 24 lb bag": the name and the word are its value, as written (no other's value)
            out.extend((m.start(), m.end(), link, attr) for link, attr in pairs)
        table = pinyin_value_table(cat) if pinyin else None
        if table is not None:
            py_re, py_values = table
            for m in py_re.finditer(f):  # "niu rou gan you xiang la de ma"
                if free(m.start(), m.end()) and not any(a < m.end() and m.start() < b for a, b, _, _ in mentions) \
                        and not any(h[0] < m.end() and m.start() < h[1] for h in hits):
                    for link, attr in py_values.get(m.group().replace(" ", ""), ()):
                        out.append((m.start(), m.end(), link, attr))
        spaced = _spaced_re(cat) if " " in f else None
        for m in spaced.finditer(f) if spaced is not None else ():  # "usb c" for the value word "usb-c"
            if free(m.start(), m.end()) and not any(a < m.end() and m.start() < b for a, b, _, _ in mentions):
                for link, attr in cat.values.get(m.group().replace(" ", "-"), ()):
                    out.append((m.start(), m.end(), link, attr))
    return out


@lru_cache(maxsize=64)
def pinyin_value_table(cat: Catalog) -> tuple[re.Pattern[str], dict[str, tuple[tuple[int, str], ...]]] | None:
    """The catalog's Chinese value words of two characters or more in toneless pinyin ("香辣" -> "xiang la"): their
    pattern (syllables with or without spaces) and the ``(link, attr)`` pairs by the syllables written together
    ("xiangla"); ``None`` when there are none."""
    from hat_env.understanding.fold import pinyin_of
    from hat_env.understanding.lexicon import trie_pattern

    by: dict[str, tuple[tuple[int, str], ...]] = {}
    for w, pairs in cat.values.items():
        if w.isascii() or not re.fullmatch(r"[\u4e00-\u9fff]{2,}", w):
            continue
        got = pinyin_of(w)
        if got and len(got) == len(w):
            key = " ".join(got)
            by[key] = tuple(dict.fromkeys(by.get(key, ()) + tuple(pairs)))
    if not by:
        return None
    return re.compile(r"(?<![a-z])" + trie_pattern(sorted(by), True, sep=r"\s*") + r"(?![a-z])"), \
        {k.replace(" ", ""): v for k, v in by.items()}


@lru_cache(maxsize=64)
def _spaced_re(cat: Catalog) -> re.Pattern[str] | None:
    """The catalog's hyphenated value words written with a space instead ("usb c", "non stick"), ``None`` when
    there are none."""
    spaced = sorted({w.replace("-", " ") for w in cat.values if "-" in w.strip("-")}, key=len, reverse=True)
    if not spaced:
        return None
    return re.compile(r"(?<![a-z0-9])(?:" + "|".join(re.escape(w) for w in spaced) + r")(?![a-z0-9])")


#: what joins a spec word to the unit it is asked in ("size in quarts", "peso en kilos", "容量 毫升")
_UNIT_OF = re.compile(r"\s*(?:in|en|de)?\s*")


def unit_questions(f: str, cat: Catalog, hits: list[Hit], mentions: list[Mention], bounds: list[int],
                    free: Any) -> None:
    """A question that names a unit ("watts?", "de cuántos cm", "几毫升") asks for the spec of its product
    whose value is in that unit, when exactly one is (else, when none is, the one in another unit of its dimension:
    "多少斤" of a 5kg bag); a spec hit is appended for it (``"unknown"`` when none of its values is in that unit and
    nothing else is asked in the clause). A spec word with the unit after it ("size in quarts", "peso en kilos")
    asks even without a question mark, and the unit's spec takes the place of a spec word the product lacks.

    Args:
        f: the folded comment.
        cat: the room's catalog (its products' units).
        hits: the keyword hits so far; the unit's spec hit is appended (never over another hit).
        mentions: the product mentions (the unit's product is found as a keyword's is).
        bounds: the clause bounds.
        free: whether a span is free of link references.
    """
    if not cat.units:
        return
    from hat_env.understanding.units import asked_units, same_dimension_keys

    for a, b, unit in asked_units(f):
        if not free(a, b) or any(m[0] <= a < m[1] for m in mentions) \
                or any(h[0] < b and a < h[1] for h in hits):
            continue
        c = bisect_right(bounds, a)
        clause = clause_text(f, bounds, c)
        measured = [h for h in hits if h[2] == "spec" and bisect_right(bounds, h[0]) == c and h[1] <= a
                    and _UNIT_OF.fullmatch(f[h[1]:a]) is not None]  # "size in quarts": the measure asked in it
        if not measured and not is_question(clause) and lexicon().question_re.search(clause) is None:
            continue  # "de cuántos cm es" asks; "5 quarts fills it" does not
        link = link_for(a, c, mentions)
        keys = cat.units.get(link, {}).get(unit) if link is not None else None
        if keys is None and link is not None:  # "五常米多少斤" of a 5kg bag: its one spec of that dimension
            keys = same_dimension_keys(cat.units.get(link, {}), unit) or None
        if keys is not None and len(keys) == 1:
            for h in measured:  # "air fryer size in quarts": the spec in quarts, not a size it lacks
                if not cat.has_attr(link, str(h[3])):
                    hits.remove(h)
            hits.append((a, b, "spec", next(iter(keys))))
        elif link is not None and keys is None and not any(
                h[2] in ("spec", "value", "kind") and bisect_right(bounds, h[0]) == c for h in hits):
            hits.append((a, b, "spec", "unknown"))  # "la freidora cuántos watios tiene": no spec in watts
    stated_unit_questions(f, cat, hits, mentions, bounds, free)


def stated_unit_questions(f: str, cat: Catalog, hits: list[Hit], mentions: list[Mention], bounds: list[int],
                          free: Any) -> None:
    """A number with a unit in a question clause that asks no other spec ("fridge 38db really?", "will the washer
    fit thru a 28 in door", "支持100w吗") asks the product's one spec whose value is in that unit; a spec hit is
    appended for it. Not a number glued to a product name ("the 65w charger": a name) or inside one."""
    from hat_env.understanding.units import stated_units

    done: set[int] = set()
    for a, b, unit in stated_units(f):
        c = bisect_right(bounds, a)
        if c in done or not free(a, b) or any(m[0] <= a < m[1] or m[0] < b <= m[1] for m in mentions) \
                or any(h[0] < b and a < h[1] for h in hits) \
                or any(h[2] in ("spec", "value") and bisect_right(bounds, h[0]) == c for h in hits):
            continue
        if any(m[3] == c and 0 <= m[0] - b <= 1 for m in mentions):  # "the 55L pack", "65w charger": its name
            continue
        if not is_question(clause_text(f, bounds, c)):
            continue
        link = link_for(a, c, mentions)
        keys = cat.units.get(link, {}).get(unit) if link is not None else None
        if keys is not None and len(keys) == 1:
            hits.append((a, b, "spec", next(iter(keys))))
            done.add(c)


def drop_conditions(f: str, hits: list[Hit], bounds: list[int], lex: Lexicon) -> list[Hit]:
    """The hits without the spec words of a condition ("if my dog hates the chicken flavor, can I return the
    bag": the flavor is the condition, the return is asked): from a condition lead to the next question inversion
    in its clause, or to the clause's end, when something other than a spec is asked after it."""
    assert lex.condition_re is not None
    spans, buys = [], []
    for m in lex.condition_re.finditer(f):
        c = bisect_right(bounds, m.start())
        end = bounds[c] if c < len(bounds) else len(f)
        inv = lex.inversion_re.search(f, m.end(), end) if lex.inversion_re is not None else None
        stop = inv.start() if inv is not None else end
        if any(h[0] >= stop and h[2] == "kind" for h in hits):
            spans.append((m.start(), stop))
        # "envío gratis si compro solo el labial?", "does the coupon work if i buy two": a purchase supposed
        # is no purchase when something else is asked
        if any(h[2] in ("kind", "deal", "spec") and h[3] != "purchase" and not m.start() <= h[0] < stop for h in hits):
            buys.append((m.start(), stop))
    if not spans and not buys:
        return hits
    return [h for h in hits if not (h[2] in ("spec", "value") and any(a <= h[0] < b for a, b in spans))
            and not (h[2:] == ("kind", "purchase") and any(a <= h[0] < b for a, b in buys))]


def quotes_value(f: str, a: int, b: int, link: int, attr: str, mentions: list[Mention], cat: Catalog) -> bool:
    """Whether the value word at ``f[a:b]`` and the product name right before it are, together, the product's
    ``attr`` value as written ("24 lb bag" of a "24 lb bag" size): a name, not a question about the value."""
    prev = [m for m in mentions if m[1] <= a and not f[m[1]:a].strip() and link in m[2]]
    if not prev:
        return False
    phrase = "".join(f[prev[-1][0]:b].split())
    return any(k == attr and phrase in "".join(fold(v).split()) for e in cat.entries if e.link == link
               for k, v in e.specs)


__all__ = ["drop_conditions", "pinyin_value_table", "quotes_value", "spec_attr", "stated_unit_questions", "unit_questions",
           "value_hits"]
