"""Link numbers and order ids in a comment: ``3号``, ``三号链接``, ``链接3``, ``#3``, ``link 3``, ``No.3``,
``enlace 2``, ``3hao``, in words ("link two", "the second one", "第二个", "el 3", "la segunda"), lists joined by a joiner ("link 2 and link 5", "2号和3号"), and order ids (``A1003``, an
order of the room named as written)."""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from typing import Any

from hat_env.types import Intent
from hat_env.understanding.clauses import Mention, blank
from hat_env.understanding.fold import fold
from hat_env.understanding.lexicon import Lexicon, alternation

BARE_ID_RE = re.compile(r"(?<![A-Za-z0-9_-])([A-Z]{1,4}-?\d{4,12})(?![A-Za-z0-9_-])")
DIGIT = re.compile(r"\d")


def orders(work: str, f: str, lex: Lexicon, order_ids: tuple[str, ...]) -> tuple[list[tuple[int, Intent]], str]:
    """The order ids a comment names, as ``order_status`` intents.

    Args:
        work: the comment as written (ids are cut from it as written).
        f: the folded comment.
        lex: the compiled words (``order_re``: an id after an order word).
        order_ids: the room's order ids (named anywhere, in any case).

    Returns:
        ``([(position, order_status intent), ...], f with the ids blanked)``.
    """
    found: list[tuple[int, Intent]] = []
    spans: list[tuple[int, int]] = []
    if not order_ids and DIGIT.search(f) is None:  # every order id holds a digit
        return found, f
    for m in lex.order_re.finditer(f):
        found.append((m.start(), Intent("order_status", order_id=work[m.start(1) : m.end(1)])))
        spans.append((m.start(1), m.end(1)))
    for m in BARE_ID_RE.finditer(work):
        if not any(a <= m.start(1) < b for a, b in spans):
            found.append((m.start(), Intent("order_status", order_id=m.group(1))))
            spans.append((m.start(1), m.end(1)))
    for oid in order_ids:
        low = oid.lower()
        i = f.find(low)
        while i >= 0:
            if not any(a <= i < b for a, b in spans):
                found.append((i, Intent("order_status", order_id=oid)))
                spans.append((i, i + len(oid)))
            i = f.find(low, i + 1)
    for a, b in spans:
        f = blank(f, a, b)
    return found, f


@lru_cache(maxsize=1)
def link_words() -> tuple[re.Pattern[str] | None, dict[str, int]]:
    """Links said in words, from every locale's parser words (``link_numbers``, ``ordinal_heads``,
    ``link_lead_articles``, ``ordinal_not_before``, ``link_prefix``): a prefix and a number word ("link two",
    "enlace dos"), an ordinal and its head ("the second one", "第二个"), an article and a bare number or ordinal
    ("el 3", "la segunda"; not before a unit, "de" or "%"). Returns the pattern (groups ``w``, ``w2``, ``w3``: the
    word; ``d``: digits), or ``None`` without such words, and the words' numbers."""
    from hat_env.locales import builtin_locales, get_locale
    from hat_env.understanding.units import unit_tables

    specs = [get_locale(loc).parser for loc in builtin_locales()]

    def words(attr: str) -> list[str]:
        return sorted({fold(w) for p in specs for w in getattr(p, attr) if fold(w)})

    numbers = {fold(w): n for p in specs for w, n in p.link_numbers.items()}
    if not numbers:
        return None, {}
    nw = alternation(sorted(numbers))
    heads, leads = words("ordinal_heads"), words("link_lead_articles")
    latin_pre = [w for w in words("link_prefix") if w[:1].isalpha()]
    alts = [rf"(?<![a-z])(?:{alternation(latin_pre)})s?\s+(?P<w>{nw})(?![a-z])"] if latin_pre else []
    nb = words("ordinal_not_before")
    if heads:  # "第二个", not "第二个半价"
        alts.append(rf"(?P<w2>{nw})\s*(?:{alternation(heads)})(?!\s*(?:{alternation(nb)}))")
    if leads:
        stop = alternation(sorted({*unit_tables()[0], "de", "del", "por", "x"}))
        alts.append(rf"(?<![a-z])(?:{alternation(leads)})\s+(?:(?P<d>\d{{1,2}})(?![\d.,:])(?!\s*(?:%|€|\$|{stop})(?![a-z]))"
                    rf"|(?P<w3>{nw})(?![a-z])(?!\s+(?:{alternation(nb)})))")
    return (re.compile("|".join(alts)) if alts else None), numbers


def link_mentions(f: str, lex: Lexicon, bounds: list[int], pinyin: Any = None, links: frozenset[int] | None = None
                  ) -> tuple[list[Mention], list[tuple[int, int]], dict[int, int]]:
    """The link-number references of a comment.

    Args:
        f: the folded comment (order ids blanked).
        lex: the compiled words (``link_re``, ``zh_link_re``, ``joiner_re``).
        bounds: the clause bounds.
        pinyin: the pinyin tables when the comment reads as pinyin (their ``pinyin_link_re``: "3hao"), else ``None``.
        links: the room's links when its catalog is known: an article and a bare number that is none of them is a
            size or a quantity, no link ("las zapatillas en la 44", "llegan hasta la 46"); ``None``: every number.

    Returns:
        ``(mentions, taken spans, group_of)``: a mention per reference; the spans they take (no keyword or name is
        read there); ``group_of`` maps a mention's start to its group's id for links joined by a joiner word.
    """
    mentions: list[Mention] = []
    taken: list[tuple[int, int]] = []
    group_of: dict[int, int] = {}  # mention start -> group id (links joined by a joiner word)
    has_digit = DIGIT.search(f) is not None
    link_iters = [lex.link_re.finditer(f)] if has_digit else []
    if lex.zh_link_re is not None and not f.isascii():
        link_iters.append(lex.zh_link_re.finditer(f))
    if pinyin is not None and pinyin.pinyin_link_re is not None:
        link_iters.append(pinyin.pinyin_link_re.finditer(f))
    word_re, numbers = link_words()
    if word_re is not None:  # "link two", "the second one", "第二个", "el 3", "la segunda"
        link_iters.append(word_re.finditer(f))
    for it in link_iters:
        for m in it:
            if taken and not all(m.end() <= x or y <= m.start() for x, y in taken):
                continue
            n = link_number(m, lex, numbers)
            if n is None or (links and m.groupdict().get("d") and n not in links):
                continue
            mentions.append((m.start(), m.end(), frozenset((n,)), bisect_right(bounds, m.start())))
            taken.append((m.start(), m.end()))
            end = m.end()
            while True:
                jm = lex.joiner_re.match(f, end)
                if jm is None:
                    break
                group_of.setdefault(m.start(), m.start())
                group_of[jm.start("n")] = group_of[m.start()]
                mentions.append((jm.start("n"), jm.end(), frozenset((int(jm.group("n")),)),
                                 bisect_right(bounds, jm.start("n"))))
                taken.append((jm.start("n"), jm.end()))
                end = jm.end()
    return mentions, taken, group_of


def link_number(m: re.Match[str], lex: Lexicon, numbers: dict[str, int] | None = None) -> int | None:
    """The link number of a link-reference match (digits, Chinese numerals up to 99, or a word of ``numbers``:
    :func:`link_words`); ``None`` for none."""
    g = m.groupdict()
    for k in ("n", "m", "d"):
        if g.get(k):
            return int(g[k])
    for k in ("w", "w2", "w3"):
        if g.get(k):
            return (numbers or {}).get(g[k]) or None
    z = g.get("z") or g.get("y")
    if not z:
        return None
    vals = [lex.numeral_values[c] for c in z]
    if len(vals) == 1:
        return vals[0] or None
    if len(vals) == 2 and vals[0] == 10:
        return 10 + vals[1]
    if len(vals) == 2 and vals[1] == 10:
        return vals[0] * 10
    if len(vals) == 3 and vals[1] == 10:
        return vals[0] * 10 + vals[2]
    return None


__all__ = ["BARE_ID_RE", "DIGIT", "link_mentions", "link_number", "link_words", "orders"]
