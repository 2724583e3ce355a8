"""Number claims: money by role (what the viewer pays, the coupon, its threshold, the "was" price...), times
by attribute (ships within, returns, warranty, delivery, spec values), stock counts, percentages and 折, and
spec quantities (grams, ml, mAh, W, inches) with conversions (years = 12 months, days = 24 hours, kg = 1000 g).

Each number of a reply is read once and given one role: money (check_money.py, its role in money_roles.py,
the values a role may take in money_values.py) or a measure (check_measures.py, with families.py, tolerance.py,
durations.py). Labelled numbers are in check_codes.py, arithmetic shown in a reply in arithmetic.py, sizes in
check_sizes.py.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hat_env.scoring.claims import derived
from hat_env.scoring.claims.check_measures import check_measure
from hat_env.scoring.claims.amounts import EPS
from hat_env.scoring.claims.own_names import names_own_item
from hat_env.scoring.claims.check_money import check_money
from hat_env.scoring.claims.data_counts import data_counts, data_labelled, fold
from hat_env.scoring.claims.families import spec_named
from hat_env.scoring.claims.money_roles import is_money
from hat_env.scoring.claims.numbers import Quantity

if TYPE_CHECKING:
    from hat_env.scoring.claims.facts import ProductFacts
    from hat_env.scoring.claims.read import Reading

_LIST_JOIN = re.compile(r"\s*(?:[/、,，]|和|及|与|or|and)\s*")
_MARKER_AFTER = re.compile(r"(?:[.)、:：]\s|\ufe0f?\u20e3)")
_MARKER_BEFORE = re.compile(r"(?:^|\n)[\s*#>•\-]*$")


def _list_marker(text: str, q: Quantity) -> bool:
    """Whether a bare number opens a list item ("1. ", "2) ", "3、", the keycap "2️⃣")."""
    return bool(_MARKER_BEFORE.search(text[max(0, q.start - 8) : q.start])) and bool(_MARKER_AFTER.match(text, q.end))


_WORD = re.compile(r"[^\W\d_]{3,}")


def _catalog_words(r: "Reading") -> frozenset[str]:
    """The words (three letters or more, lower case, accents dropped) of the room's product titles and spec
    values."""
    out: set[str] = set()
    for p in r.room.products:
        for text in (p.title, *(str(v) for v in p.specs.values())):
            out.update(fold(w) for w in _WORD.findall(text))
    return frozenset(out)


def _counts_a_catalog_noun(r: "Reading", q: Quantity, cache: list[frozenset[str]]) -> bool:
    """Whether a bare number is followed by a word of the room's catalog, singular or plural ("three bags of the
    WhiskerWell left" for a "7 lb bag", "cincuenta batidoras" for a "Batidora"): a count of those things, in a
    language that writes words apart (a Chinese count has its measure word as a unit)."""
    if r.vocab.lang == "zh":
        return False
    m = _WORD.match(r.text, q.end + 1) if r.text[q.end : q.end + 1] == " " else None
    if m is None:
        return False
    if not cache:
        cache.append(_catalog_words(r))
    w = fold(m.group())
    return any(x in cache[0] for x in (w, w[:-1], w[:-2]) if len(x) >= 3)


_LATIN_NEXT = re.compile(r"[A-Za-z]")


#: A number right after a bare number, with a space between: the first counts what the second measures.
_COUNT_OF_MEASURED = re.compile(r" \d+(?:[.,]\d+)?\s?[A-Za-z\u00b5\u00b0]")


def _bare_spec_value(r: "Reading", q: Quantity, i: int) -> None:
    """A bare number (no unit) in a clause that names a spec attribute whose value holds only numbers without a
    unit the locale knows (none, or one of the catalog's own: "脐橙糖度二十度" for "12-15 Brix"): that attribute's value, true when one of its numbers
    (or ranges) holds it. A number glued to a Latin word is a label's (check_codes) and is left alone; a negated or asking clause
    asserts nothing."""
    if q.dim != "plain" or r.clauses[i].question or r.negated(i, q.start):
        return
    t = r.text
    if (q.start > 0 and _LATIN_NEXT.match(t, q.start - 1)) or _LATIN_NEXT.match(t, q.end) or \
            t[max(0, q.start - 1) : q.start] in ("-", "/", "#", "."):
        return
    if _COUNT_OF_MEASURED.match(t, q.end):
        return  # "two 2.0 Ah batteries", "three 5 lb bags": a count of things the number after it measures
    pids, _how = r.subject(q.start, i)
    pfs = r.pfs(pids)
    key = spec_named(r, i, pfs)
    if key is None:
        return
    # the value's numbers as the data writes them ("12-15 Brix"; not the 五 of "五香", a word's character)
    facts = [(pf, f) for pf in pfs for f in pf.numbers if f.attr == key
             and re.search(r"\d", str(pf.product.specs.get(key[5:], "")))]
    if not facts or any(f.dim != "plain" and not f.dim.startswith("room:") for _pf, f in facts):
        return  # the value has a unit ("50ml", "fits 4 to 13 inch"): a bare number may be anything else
    lo = q.lo if q.lo is not None else q.value
    good = [pf for pf, f in facts if (f.lo if f.lo is not None else f.value) - EPS <= lo and q.value <= f.value + EPS]
    orig = r.m.original(q.start, q.end)
    if good:
        r.claim(q.start, q.end, tuple(pf.pid for pf in good), key, q.value, "", True, "true", "",
                [(key, pf.pid) for pf in good])
    else:
        pf, f = facts[0]
        r.claim(q.start, q.end, pids, key, q.value, "", True, "false", f"{r.label(pf.pid)}: '{orig}' but {f.label}",
                [(key, pf.pid), ("spec:*", pf.pid), ("spec:unknown", pf.pid)])


_LABEL_TAIL = re.compile(r"[^\W\d_]{1,3}")


def _own_label(r: "Reading", q: Quantity, pfs: "list[ProductFacts]") -> bool:
    """Whether bare number ``q`` and the letters right after it are a title word or the whole spec value of one of
    ``pfs`` ("3段" of "奶粉 3段 800g", stage "3段"): the product's own name for a kind, not a count of anything."""
    tail = _LABEL_TAIL.match(r.text, q.end)
    if tail is None or r.text[q.start : q.end] != f"{q.value:g}":
        return False
    t = tail.group().lower()
    said = {f"{q.value:g}{t[:n]}" for n in range(1, len(t) + 1)}
    for pf in pfs:
        words = set(pf.product.title.lower().split()) | {str(v).strip().lower() for v in pf.spec_text.values()}
        if said & words:
            return True
    return False
def _range_low_end(qs: "list[Quantity]", k: int, text: str) -> bool:
    """Whether quantity ``k`` is the low end of a time range the next quantity closes ("24" of "24-48 hours",
    which took its unit from "48 hours"): the range carries the claim, so a list of products each inside it ("the
    serum and the sunscreen ship within 24-48 hours") is not read as the first promising the low end."""
    q = qs[k]
    if not q.inherited or k + 1 >= len(qs) or not q.dim.startswith("time"):
        return False
    nxt = qs[k + 1]
    return nxt.lo == q.value and nxt.dim == q.dim and nxt.start - q.end <= 5


def read_number_claims(r: "Reading") -> None:
    """Read and check every number claim of the reply (appends to ``r.report.claims``)."""
    qs = r.quantities
    markers = derived.per_unit_markers(r, qs)
    idb = r.vocab.rx.get("id_before")
    cd = r.vocab.rx.get("countdown")
    countdowns = [(m.start(), m.end()) for m in cd.finditer(r.text)] if cd is not None else []
    neg_end = -1
    nouns: list[frozenset[str]] = []  # the catalog's words, read once when a bare number needs them
    first = len(r.report.claims)
    own: list[tuple[int, int]] = []  # spans (as written) of numbers that name their product or gift
    for k, q in enumerate(qs):
        if r.in_mention(q.start, q.end) or r.in_mention(q.start, q.start + 1):
            continue
        if _range_low_end(qs, k, r.text):
            continue  # "24" of "ships within 24-48 hours": the range is the claim, checked as one
        if any(a <= q.start < b for a, b in countdowns):
            continue  # checked as a countdown (check_facts)
        if any(a <= q.start < b for a, b in markers):
            continue  # "1斤" of "1斤才7块7": the unit of a unit price, not a quantity
        i = r.clause_at(q.start)
        c = r.clauses[i]
        if idb is not None and q.dim == "plain" and idb.search(r.text[max(0, q.start - 12) : q.start]):
            continue
        if (q.dim == "plain" or q.inherited) and _list_marker(r.text, q):
            continue  # "1. Weight: 32 g", "2️⃣ 规格"
        hu = r.cfind("honest_unknown", i)
        if hu is not None and c.start + hu.start() < q.start:
            continue  # what the data lacks ("资料里没有165cm/55kg的建议"), not a claim
        if c.question:
            continue
        if names_own_item(r, q, r.pfs(r.subject(q.start, i)[0])):
            own.append(r.m.span(q.start, q.end))  # "the 4K dash cam", "a free 64 GB card": a name, not a claim
        money = is_money(r, q, i)
        if not money and q.dim == "plain" and _own_label(r, q, r.pfs(r.subject(q.start, i)[0])):
            continue  # "3段奶粉" of a "3段" formula: its own stage, title word or spec value, not a count
        if not money and q.dim == "plain":
            cb = r.vocab.rx.get("count_before")
            named = any(m.how == "name" and 0 <= m.start - q.end <= 1 for m in r.mentions)
            if not named and (cb is None or not cb.search(r.text[max(c.start, q.start - 26) : q.start])) and \
                    not _counts_a_catalog_noun(r, q, nouns) and not data_counts(r, q, r.pfs(r.subject(q.start, i)[0])) \
                    and not data_labelled(r, q, i, r.pfs(r.subject(q.start, i)[0])):
                _bare_spec_value(r, q, i)
                continue
            q.dim, q.unit = "count", "count"
        pids, _how = r.subject(q.start, i)
        if money:
            check_money(r, q, i, pids)
            continue
        if q.dim not in ("percent", "zhe"):
            # a negated quantity, and those listed right after it ("没有165cm/55kg的建议"), assert nothing
            if r.negated(i, q.start) or (neg_end >= 0 and _LIST_JOIN.fullmatch(r.text[neg_end : q.start])):
                neg_end = q.end
                continue
        neg_end = -1
        check_measure(r, q, i, pids)
    if own:
        # a number naming its product or gift is never false; read as true it still answers ("the 5.8 qt fryer")
        r.report.claims[first:] = [c for c in r.report.claims[first:] if c.verdict == "true" or not any(
            a < c.span[1] and c.span[0] < b for a, b in own)]


__all__ = ["read_number_claims", "spec_named"]
