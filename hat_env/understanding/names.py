"""Which product a clause is about: product names resolved against the room's catalog (titles, brands, short
names, Latin words, pinyin and homophone spellings), names that narrow each other, and the mention a keyword's
question belongs to (the nearest in its clause, else one carried from an earlier clause)."""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from typing import Any

from hat_env.understanding.catalog import Catalog, sound_name_table
from hat_env.understanding.clauses import Hit, Mention
from hat_env.understanding.fold import fold, fuzzy_sound
from hat_env.understanding.lexicon import lexicon

def _loose_pinyin(letters: str) -> str:
    """Pinyin letters with the initials and finals people mix up merged (zh/z, ch/c, sh/s, -ng/-n): "canshibei"
    is "cansibei"."""
    return letters.replace("zh", "z").replace("ch", "c").replace("sh", "s").replace("ng", "n")


def pinyin_names(f: str, cat: Catalog, names: list[Mention], bounds: list[int], free: Any,
                 whole: bool = False) -> None:
    """Product names written in pinyin ("fang shai shuang"), in a comment that reads as pinyin; with ``whole``
    (a Chinese comment with a Latin word in it: "weiyi多少钱") only a Latin word that is a whole name and no
    keyword or ordinary word. In a comment that reads as pinyin, a word of five letters or more that only
    starts one product's name, one or two letters short, or that is a name with zh/z, ch/c, sh/s or -ng/-n mixed
    up, names it too ("cheliz" for "chelizi", "canshibei" for "cansibei")."""
    table = pinyin_name_table(cat)
    if table is None:
        return
    rx, by = table
    lex = lexicon()
    found = len(names)
    for m in rx.finditer(f):
        if whole and (f[m.end():m.end() + 1].isascii() and f[m.end():m.end() + 1].isalnum()
                      or m.group() in lex.roles or m.group() in lex.common or " " in m.group()):
            continue
        if free(m.start(), m.end()):
            links = by.get(" ".join(m.group().split())) or by.get(m.group().replace(" ", ""))
            if links is None:
                letters = m.group().replace(" ", "")
                links = next((v for k, v in by.items() if k.replace(" ", "") == letters), None)
            if links:
                names.append((m.start(), m.end(), links, bisect_right(bounds, m.start())))
    if whole:
        return
    spans = [(a, b) for a, b, _, _ in names[found:]]
    for t in re.finditer(r"(?<![a-z])[a-z]{5,}(?![a-z])", f):
        if any(a < t.end() and t.start() < b for a, b in spans) or t.group() in lex.roles \
                or t.group() in lex.common or not free(t.start(), t.end()):
            continue
        loose = _loose_pinyin(t.group())
        got = {v for k, v in by.items() if (k.replace(" ", "").startswith(t.group())
                                            and 1 <= len(k.replace(" ", "")) - len(t.group()) <= 2)
               or _loose_pinyin(k.replace(" ", "")) == loose}
        if len(got) == 1:
            names.append((t.start(), t.end(), next(iter(got)), bisect_right(bounds, t.start())))


_HAN_RUN = re.compile(r"[\u4e00-\u9fff]{3,}")


def _is_subsequence(short: str, long: str) -> bool:
    it = iter(long)
    return all(ch in it for ch in short)


@lru_cache(maxsize=64)
def _title_runs(cat: Catalog) -> tuple[tuple[tuple[int, str], ...], frozenset[str]]:
    """The Chinese runs of the catalog's titles (three characters or more) with their links, and their last
    characters."""
    runs = tuple((e.link, r) for e in cat.entries for r in _HAN_RUN.findall(fold(e.title)))
    return runs, frozenset(r[-1] for _, r in runs)


def elided_names(f: str, cat: Catalog, hits: list[Hit], names: list[Mention], mentions: list[Mention],
                 bounds: list[int], free: Any) -> None:
    """Chinese names written with a character of the title left out ("鹅绒被" for "白鹅绒冬被"), in clauses that name
    no product: three or four characters of the comment that are, in order, characters of one product's title run
    ending with that run's last character (its head noun: 被, 枕, 壳), when exactly one product has such a run.
    A keyword inside the name is part of it ("鹅绒" of "鹅绒被") and is dropped from ``hits``.

    Args:
        f: the folded comment.
        cat: the room's catalog (its titles).
        hits: the keyword hits so far; those inside a name found are removed.
        names: the product-name mentions so far; the names found are appended.
        mentions: the link-number mentions (their clauses are named).
        bounds: the clause bounds.
        free: whether a span is free of link references.
    """
    named = {m[3] for m in names} | {m[3] for m in mentions}
    if len(named) > len(bounds):  # every clause names a product
        return
    runs, heads = _title_runs(cat)
    if not runs:
        return
    spans = [(m[0], m[1]) for m in names]
    for m in _HAN_RUN.finditer(f):
        a0, b0 = m.span()
        for j in range(a0 + 2, b0):
            if f[j] not in heads or bisect_right(bounds, j) in named:
                continue
            for n in (4, 3):
                a, b = j + 1 - n, j + 1
                if a < a0:
                    continue
                cand = f[a:b]
                if any(x < b and a < y for x, y in spans) or not free(a, b) \
                        or any(h[0] < b and a < h[1] and not (a <= h[0] and h[1] <= b) for h in hits):
                    continue
                links = {ln for ln, r in runs if r[-1] == cand[-1] and cand not in r and _is_subsequence(cand, r)}
                if len(links) == 1:
                    names.append((a, b, frozenset(links), bisect_right(bounds, a)))
                    hits[:] = [h for h in hits if not (a <= h[0] and h[1] <= b)]
                    spans.append((a, b))
                    break


def head_char_names(f: str, cat: Catalog, names: list[Mention], mentions: list[Mention], bounds: list[int],
                    free: Any) -> None:
    """A title run's head character written alone ("线 怎么卖" for the 数据线, "黑龙江那个米 一袋几公斤" for the 大米), in
    a clause that names no product: the character is the last of exactly one product's title runs, no Chinese
    character follows it, and none or a :func:`modifier_gaps` word comes before it ("多少米", "米色" name nothing).

    Args:
        f: the folded comment.
        cat: the room's catalog (its titles).
        names: the product-name mentions so far; the names found are appended.
        mentions: the link-number mentions (their clauses are named).
        bounds: the clause bounds.
        free: whether a span is free of link references.
    """
    named = {m[3] for m in names} | {m[3] for m in mentions}
    if len(named) > len(bounds):
        return
    runs, _ = _title_runs(cat)
    by_head: dict[str, set[int]] = {}
    for ln, r in runs:
        by_head.setdefault(r[-1], set()).add(ln)
    gaps = [g for g in modifier_gaps() if g]
    for i, ch in enumerate(f):
        links = by_head.get(ch)
        if links is None or len(links) != 1 or bisect_right(bounds, i) in named or not free(i, i + 1):
            continue
        end = i + 2 if f[i + 1:i + 2] == ch else i + 1  # "熊熊": a doubled head character is one name
        if end == i + 1 and not _name_ends(f, end):
            continue
        before = f[:i]
        if before and "\u4e00" <= before[-1] <= "\u9fff" and not any(before.endswith(g) for g in gaps):
            continue
        if any(a <= i < b for a, b, _, _ in names):
            continue
        names.append((i, end, frozenset(links), bisect_right(bounds, i)))
        named.add(bisect_right(bounds, i))


def _name_ends(f: str, end: int) -> bool:
    """Whether a head character ending at ``end`` stands alone as a name: no Chinese character follows, or what
    follows opens the clause's predicate, read from the locale data: a function character (``function_chars``:
    "熊有多大", "熊的尺寸", "熊是哪产的"; not a final particle, ``question_marks``: "你吃过这个米吗"), a question or ability word (``question_words``, ``ability_words``:
    "熊多少钱", "熊能机洗吗") or a shipping verb (``ship_verbs``: "熊发什么快递")."""
    if end >= len(f) or not "\u4e00" <= f[end] <= "\u9fff":
        return True
    lex = lexicon()
    if f[end] in lex.question_marks:  # "你吃过这个米吗": a particle right after it is no predicate
        return False
    if f[end] in lex.function_chars:
        return True
    rest = f[end:]
    return any(r is not None and r.match(rest) is not None
               for r in (lex.question_re, lex.ability_re, lex.ship_re))


def sound_names(f: str, cat: Catalog, hits: list[Hit], names: list[Mention], mentions: list[Mention],
                 bounds: list[int], free: Any) -> None:
    """Homophone typos of Chinese product names ("防嗮霜", "鱼由", "车里子"), in clauses that name no product:
    a run that sounds like a name (toneless pinyin), differs from it in one character, starts with the
    name's first character (a pinyin input method picked a wrong later one), and overlaps no keyword.

    Args:
        f: the folded comment.
        cat: the room's catalog.
        hits: the keyword hits so far (not changed; a name may not overlap one).
        names: the product-name mentions so far; the names found are appended.
        mentions: the link-number mentions.
        bounds: the clause bounds.
        free: whether a span is free of link references.
    """
    named = {m[3] for m in names} | {m[3] for m in mentions}
    if len(named) > len(bounds):  # every clause names a product
        return
    table = sound_name_table(cat)
    if table is None:
        return
    rx, by = table
    s = fuzzy_sound(f)
    spans = [(h[0], h[1]) for h in hits] + [(m[0], m[1]) for m in names]
    for m in rx.finditer(s):
        a, b = m.span()
        c = bisect_right(bounds, a)
        if c in named or not free(a, b) or any(x < b and a < y for x, y in spans):
            continue
        written = f[a:b]
        links: set[int] = set()
        for word, ls in by[m.group()]:
            if written[0] == word[0] and sum(1 for x, y in zip(written, word) if x != y) == 1:
                links.update(ls)
        if links:
            names.append((a, b, frozenset(links), c))
            spans.append((a, b))
            named.add(c)


def name_links(w: str, names: dict[str, frozenset[int]]) -> frozenset[int] | None:
    return names.get(w) or names.get(" ".join(w.split())) or plural_base(w, names)


@lru_cache(maxsize=64)
def pinyin_name_table(cat: Catalog) -> tuple[re.Pattern[str], dict[str, frozenset[int]]] | None:
    """The catalog's Chinese names in pinyin (two syllables or more) and their pattern."""
    from hat_env.understanding.fold import pinyin_of
    from hat_env.understanding.lexicon import trie_pattern

    by: dict[str, set[int]] = {}
    for w, links in cat.names.items():
        if w.isascii():
            continue
        parts = re.findall(r"[\u4e00-\u9fff]+|[a-z0-9]+", w)
        if "".join(parts) != w.replace(" ", ""):
            continue
        py: list[str] = []
        for part in parts:  # "维c": the Chinese characters in pinyin, Latin letters as written ("wei c")
            if part.isascii():
                py.append(part)
            else:
                got = pinyin_of(part)
                if not got:
                    py = []
                    break
                py.extend(got)
        if len(py) >= 2:
            by.setdefault(" ".join(py), set()).update(links)
    if not by:
        return None
    return re.compile(r"(?<![a-z])" + trie_pattern(sorted(by), True, sep=r"\s*")), {k: frozenset(v) for k, v in by.items()}


def release_keywords(f: str, names: list[Mention], cat: Any, lex: Any) -> list[Mention]:
    """``names`` with a trailing keyword given back: a name of several words whose last one is a spec or intent
    keyword ("tint spf" of "Lumen Skin Tint SPF 30") while the words before it name the same products alone
    ("tint"), and the comment does not go on with the title ("tint spf 30"), is that shorter name; the keyword
    asks ("tint spf and finish", "cleanser sulfate free and how much")."""
    out: list[Mention] = []
    for a, b, links, c in names:
        text = f[a:b]
        cut = text.rfind(" ")
        if cut > 0:
            last, head = text[cut + 1:], text[:cut].rstrip()
            roles = lex.roles.get(last, ())
            nxt = re.match(r"\s*([a-z0-9]+)", f[b:])
            if any(r[0] in ("spec", "kind") and r[1] not in ("chitchat", "troll") for r in roles) \
                    and name_links(head, cat.names) == links \
                    and not (nxt is not None and f"{last} {nxt.group(1)}" in cat.names):
                out.append((a, a + len(head), links, c))
                continue
        out.append((a, b, links, c))
    return [m for m in out if not _asked_word(f, m, out, cat, lex)]


def _asked_word(f: str, m: Mention, names: list[Mention], cat: Any, lex: Any) -> bool:
    """Whether the name ``m`` is one word that is a spec keyword ("brushless" of a "20V Brushless Drill",
    "polarizadas" of "Gafas de Sol Polarizadas") while another name of its clause, apart from it, names some of the
    same products or products that have that spec ("is the drill brushless?", "las sprint son polarizadas?"): the
    word asks that spec, the other name says which product."""
    a, b, links, c = m
    w = f[a:b]
    attrs = [r[1] for r in lex.roles.get(w, ()) if r[0] == "spec"]
    if " " in w.strip() or not attrs:
        return False
    return any(o is not m and o[3] == c and (f[o[1]:a].strip() if o[1] <= a else f[b:o[0]].strip())
               and (o[2] <= links or all(any(cat.has_attr(ln, x) for x in attrs) for ln in o[2]))
               for o in names)


def modifier_gaps() -> frozenset[str]:
    """What may stand between a value and the name it picks out (every locale's ``modifier_gaps``, folded; and
    nothing: :attr:`Lexicon.modifier_gaps <hat_env.understanding.lexicon.Lexicon.modifier_gaps>`)."""
    return lexicon().modifier_gaps


def drop_picking_values(f: str, hits: list[Hit], value_hits: list[tuple[int, int, int, str]], mentions: list[Mention],
                        bounds: list[int]) -> tuple[list[Hit], list[tuple[int, int, int, str]]]:
    """The spec and value hits without those that pick out the product named right after them, in a clause that
    asks something else ("那个白色的充电器多少钱", "L码的纸尿裤多少钱", "the black earbuds how much": which one, no
    spec question): nothing or a :func:`modifier_gaps` word between the value and the name.

    Args:
        f: the folded comment.
        hits: the keyword hits (``spec``/``value`` ones may be dropped).
        value_hits: ``(start, end, link, attr)`` spec values of named products.
        mentions: the product mentions.
        bounds: the clause bounds.

    Returns:
        ``(hits, value_hits)`` without the picking values.
    """
    asking = {bisect_right(bounds, h[0]) for h in hits
              if (h[2] == "kind" and h[3] not in ("chitchat", "troll")) or (h[2] == "qty" and h[3] != "count")}
    if not asking or not mentions:
        return hits, value_hits
    gaps = modifier_gaps()

    def picks(start: int, end: int, attribute: bool = False) -> bool:
        c = bisect_right(bounds, start)
        # an attribute's word joined to the name by a word ("el peso del móvil", "la garantía de la tablet") is that
        # product's attribute, as "de la" already kept it; only a value picks out which one ("la L del arnés"; a
        # Chinese "的" keeps its reading: "白色的充电器")
        return c in asking and any(m[3] == c and m[0] >= end and f[end:m[0]].strip() in gaps
                                   and not (attribute and f[end:m[0]].strip().isalpha() and f[end:m[0]].isascii())
                                   for m in mentions)

    return ([h for h in hits if not (h[2] in ("spec", "value") and picks(h[0], h[1], h[2] == "spec"))],
            [v for v in value_hits if not picks(v[0], v[1])])


def is_joiner_gap(gap: str) -> bool:
    """Whether the text between two product mentions only joins them ("和", " and the ", " y la ")."""
    return bool(gap) and len(gap) <= 12 and lexicon().joiner_gap_re.match(gap) is not None


def joined_past_variant(gap: str, links: frozenset[int], cat: Any) -> bool:
    """Whether ``gap``, the text after a mention of ``links``, joins it to the next mention once that product's
    spec values in it (each with a lead word before it: "en", "in") are left out ("la freidora blanca y la
    sartén", "the earbuds in white and the speaker"). ``cat``: the room's catalog, or ``None`` (then: no)."""
    if cat is None or cat.values_re is None:
        return False
    out, n = gap, 0
    for m in cat.values_re.finditer(gap):
        if any(ln in links for ln, _ in cat.values.get(m.group(), ())):
            a = m.start()
            lead = re.search(r"(\S+)\s+$", gap[:a])
            if lead is not None and lead.group(1) in lexicon().variant_leads:
                a = lead.start(1)
            out = out[:a] + " " * (m.end() - a) + out[m.end():]
            n += 1
    return n > 0 and is_joiner_gap(re.sub(r"\s+", " ", out))


def plural_base(w: str, names: dict[str, frozenset[int]]) -> frozenset[int] | None:
    for cut in ("'s", "es", "s"):
        if w.endswith(cut) and w[: -len(cut)] in names:
            return names[w[: -len(cut)]]
    return None


def merge_names(names: list[Mention], f: str) -> list[Mention]:
    """Consecutive mentions in one clause that share products narrow each other ("花漾的…精华", "海蓝的鱼油",
    "1号精华"); a name of one product right before a name of several is that product ("puppy food"). ``f``: the
    folded comment the mentions' positions are in."""
    out: list[Mention] = []
    for m in names:
        if out:
            a = out[-1]
            if a[3] == m[3] and m[0] - a[1] <= 6 and a[2] & m[2] and m[0] >= a[1]:
                out[-1] = (a[0], m[1], a[2] & m[2], a[3])
                continue
            if (a[3] == m[3] and len(a[2]) == 1 < len(m[2]) and m[0] >= a[1]
                    and not f[a[1]:m[0]].strip()):  # a modifier naming one product, then a generic head noun
                out[-1] = (a[0], m[1], a[2], a[3])  # ("puppy food", "salmon kibble")
                continue
            if m[0] < a[1]:  # overlapping typo/sound names: keep the first
                continue
        out.append(m)
    return out


def drop_modifiers(f: str, mentions: list[Mention], cat: Catalog | None, links: list[tuple[int, int]],
                   spec_ends: list[int] = ()) -> list[Mention]:  # type: ignore[assignment]
    """Mentions that are no product of their own: a name right after another product's name that names a
    different product ("the air fryer dishwasher safe": a property, not the dishwasher), a name written in a spec
    value of the product named before it in its clause ("爽肤水成分有烟酰胺吗": an ingredient of the toner, not the
    niacinamide serum; "for cats" of a litter box), and a name joined to such a value ("for cats or dogs").

    Args:
        f: the folded comment.
        mentions: the product mentions, merged and sorted.
        cat: the room's catalog (its products' spec values), or ``None``.
        links: the spans of link-number references (always products of their own).
        spec_ends: where the spec words and value words of the comment end (a name joined to one that is also a
            spec value is another value: "for cats or dogs").

    Returns:
        The mentions without those.
    """
    if len(mentions) < 2:
        return mentions
    out: list[Mention] = []
    dropped: Mention | None = None  # the last value dropped: a name joined to it is another value ("cats or dogs")
    for m in mentions:
        if (dropped is not None and dropped[3] == m[3] and is_joiner_gap(f[dropped[1]:m[0]])) \
                or ((m[0], m[1]) not in links and cat is not None and _is_value(f[m[0]:m[1]], cat)
                    and any(e <= m[0] and is_joiner_gap(f[e:m[0]]) for e in spec_ends)):
            dropped = m
            continue
        prev = out[-1] if out else None
        if prev is not None and prev[3] == m[3] and len(prev[2]) == 1 and not prev[2] <= m[2] \
                and (m[0], m[1]) not in links:
            if len(m[2]) == 1 and not f[prev[1]:m[0]].strip():
                continue  # right after another product's name
            if cat is not None and cat.specs_known:
                (link,) = prev[2]
                word = "".join(f[m[0]:m[1]].split())
                forms = {word, word[:-1]} if word.isascii() and word.endswith("s") and len(word) > 3 else {word}
                if any(w in "".join(fold(v).split()) for e in cat.entries if e.link == link for _, v in e.specs
                       for w in forms):  # "dogs" of "for dogs or cats": the species "dog"
                    dropped = m
                    continue  # a value of the product before
        out.append(m)
    return out


def _is_value(name: str, cat: Catalog) -> bool:
    """Whether a (folded) name, or its singular, is also a spec value word of a product ("dogs": species "dog")."""
    w = " ".join(name.split())
    return w in cat.values or (w.isascii() and w.endswith("s") and w[:-1] in cat.values)


def two_products(mentions: list[Mention]) -> tuple[int, int, int] | None:
    """(position, first, second) of the first two distinct products named, or of a name of exactly two."""
    singles: list[tuple[int, int]] = []
    for m in mentions:
        if len(m[2]) == 1:
            (n,) = m[2]
            if not singles or all(n != s for _, s in singles):
                singles.append((m[0], n))
            if len(singles) == 2:
                return singles[0][0], singles[0][1], singles[1][1]
    for m in mentions:
        if len(m[2]) == 2:
            a, b = sorted(m[2])
            return m[0], a, b
    return None


def link_for(pos: int, clause: int, mentions: list[Mention]) -> int | None:
    """The product a keyword at ``pos`` in ``clause`` is about: the nearest mention before it in the clause, else
    the first after it in the clause, else the last of an earlier clause, else the first anywhere; a name of
    several products names none of them."""
    m = chosen_mention(pos, clause, mentions)
    return next(iter(m[2])) if m is not None and len(m[2]) == 1 else None


def chosen_mention(pos: int, clause: int, mentions: list[Mention]) -> Mention | None:
    """The mention a keyword at ``pos`` in clause ``clause`` belongs to: the last one before it in its clause,
    the first after it in the clause, else the last of an earlier clause, else the first anywhere; ``None`` when
    there are no mentions."""
    before: Mention | None = None
    after: Mention | None = None
    carried: Mention | None = None
    for m in mentions:
        if m[3] == clause:
            if m[0] <= pos:
                before = m
            elif after is None:
                after = m
        elif m[3] < clause:
            carried = m
    return next((m for m in (before, after, carried) if m is not None), mentions[0] if mentions else None)


#: the most products a shared name ("康源的", "ridgeline tents") asks about one by one; a name of more is a category
SHARED_MAX = 3


def shared_links(pos: int, clause: int, mentions: list[Mention]) -> tuple[int, ...]:
    """The products a keyword at ``pos`` asks about when the mention it belongs to (as :func:`link_for` chooses
    it) is a name several products share and no other name narrows it ("康源家的有满减吗", "ridgeline tents
    price", "las cosas de prana"): each of them, in link order; ``()`` when that mention names one product, more
    than :data:`SHARED_MAX`, or there is none.

    Args:
        pos: the keyword's position in the folded comment.
        clause: the keyword's clause.
        mentions: the product mentions, merged (a narrowed name already names one product).
    """
    m = chosen_mention(pos, clause, mentions)
    return tuple(sorted(m[2])) if m is not None and 1 < len(m[2]) <= SHARED_MAX else ()


__all__ = ["SHARED_MAX", "release_keywords", "drop_modifiers", "drop_picking_values", "elided_names", "head_char_names", "is_joiner_gap", "joined_past_variant", "modifier_gaps", "link_for", "merge_names", "name_links", "pinyin_name_table", "pinyin_names",
           "plural_base", "shared_links", "sound_names", "two_products"]
