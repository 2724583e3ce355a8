"""A total for several units said at the price of one ("Dos cremas por 16,50 € en total" where one costs 16,50 €,
"two bags for $44.99 total", "两套一共199元" for 199 a set): a count of two or more in the sentence, a total word
of the locale (``total_words``: "en total", "for both", "一共") by the amount, and the amount is the price of
one unit. The total of several is never the price of one unless a running bundle sells them for that, so the
claim is false; any other amount is left to the money checks (a bundle, a stacked coupon, a rounded sum).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hat_env.scoring.claims.amounts import eq

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading

#: how far a total word may stand from its amount (characters, either side)
_NEAR = 16


#: words for the units a viewer buys ("2 units", "dos unidades", "两件")
_UNIT_WORDS = re.compile(r"^\s*(?:units?|items?|pieces?|packs?|bags?|bottles?|boxes?|sets?|pairs?|unidades|uds|piezas|"
                         r"packs|botes|cajas|[件套个瓶盒支袋箱份双])", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]{3,}")


def _counts_units(after: str, title: str, lang: str) -> bool:
    """Whether the words right after a count (``after``) name the units bought: a unit-of-sale word, or a word of
    the product's title (``title``; "2 cremas" of "Crema Calma ...", by its first four letters; in Chinese two
    characters of the title)."""
    if _UNIT_WORDS.match(after):
        return True
    if lang == "zh":
        head = after.strip()[:4]
        return any(head[k : k + 2] in title for k in range(len(head) - 1))
    words = _WORD.findall(after)[:2]
    return any(w[:4] in {t[:4] for t in _WORD.findall(title)} for w in words)


def read_unit_price_totals(r: "Reading") -> None:
    """Record a false price claim for each total of two or more units the reply states at the price of one."""
    rx = r.vocab.rx.get("total_words")
    if rx is None:
        return
    for q in r.quantities:
        if q.dim != "money":
            continue
        i = r.clause_at(q.start)
        if r.clauses[i].question:
            continue
        sent = [c for c in r.clauses if c.sentence == r.clauses[i].sentence]
        lo, hi = sent[0].start, sent[-1].end
        if not rx.search(r.text, max(lo, q.start - _NEAR), min(hi, q.end + _NEAR)):
            continue
        counts = [x for x in r.quantities if x.dim in ("count", "plain") and lo <= x.start < q.start
                  and x.value >= 2 and float(x.value).is_integer() and not r.in_mention(x.start, x.end)]
        if not counts:
            continue
        n = int(counts[-1].value)
        pids, _how = r.subject(q.start, i)
        pfs = r.pfs(pids)
        if not pfs:
            continue
        after = r.text[counts[-1].end : counts[-1].end + 14].lower()
        bad = []
        for pf in pfs:
            zh_measured = r.vocab.lang == "zh" and counts[-1].dim == "count"  # "两支": the measure word is the unit
            if not zh_measured and not _counts_units(after, pf.product.title.lower(), r.vocab.lang):
                break  # "2 pilas", "2 años": a count of something else than the units bought
            unit = [x for x in (pf.effective, pf.base, pf.price) if x > 0]
            if not any(eq(q.base, x) for x in unit) or any(eq(q.base, x) for x in pf.bundle_prices[:1]) \
                    or any(eq(q.base, n * x) for x in unit):
                break
            bad.append(pf)
        else:
            if bad:
                pf = bad[0]
                r.claim(q.start, q.end, (pf.pid,), "price", q.base, "pay", True, "false",
                        f"{r.label(pf.pid)}: '{r.m.original(q.start, q.end)}' for {n} is the price of one",
                        [("price", pf.pid), ("purchase", pf.pid), ("campaign", pf.pid)])


__all__ = ["read_unit_price_totals"]
