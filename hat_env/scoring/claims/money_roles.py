"""The money role of a number of a reply (what the viewer pays, the coupon, its threshold, the "was" price, a
flash price, a fee, a difference, a bound) from the words around it, and whether a number is money at all."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hat_env.scoring.claims.numbers import Quantity

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading

_ROLE_ORDER = ("threshold", "coupon", "reference", "base", "flash", "fee", "difference", "savings", "upper", "lower")
_NUMBER_NEXT = re.compile(r"\s*(?:[$¥€]|US\$)?\s*\d")


def money_role(r: "Reading", q: Quantity, i: int) -> str:
    """The money role of a number from the words just before and after it in its clause (``pay`` by default)."""
    c = r.clauses[i]
    text = r.text
    before = text[max(c.start, q.start - 30) : q.start]
    after = text[q.end : min(c.end, q.end + 30)]
    pa = r.vocab.rx.get("money_after_pay")
    m = pa.search(after) if pa is not None else None
    # a pay word that goes on to a number of its own introduces that number ("满300减30到手369": 369 is paid, 30 is
    # the coupon), it does not say what the number before it is
    if m is not None and not _NUMBER_NEXT.match(after, m.end()):
        for role in ("upper", "lower"):  # "不到90块到手": a bound on what one pays
            b, _a = r.vocab.money_roles.get(role, (None, None))
            if b is not None and b.search(before):
                return role
        return "pay"
    for role in _ROLE_ORDER:
        b, a = r.vocab.money_roles.get(role, (None, None))
        if (b is not None and b.search(before)) or (a is not None and a.search(after)):
            if role == "threshold":
                _db, da = r.vocab.money_roles.get("difference", (None, None))
                if da is not None and da.search(after) and not (a is not None and a.search(after)):
                    return "difference"  # "you'd need five more dollars": what is missing, not the threshold
            if role == "threshold" and not _deal_clause(r, i):
                # "over $3.30 a pound", "a little over $49": a bound word that a threshold shares is a bound in a
                # clause that names no deal ("orders over $50" keeps its own threshold pattern)
                for bound in ("lower", "upper"):
                    bb, _a = r.vocab.money_roles.get(bound, (None, None))
                    if bb is not None and bb.search(before):
                        return bound
            return role
    return "pay"


def _deal_clause(r: "Reading", i: int) -> bool:
    """Whether clause ``i`` names a coupon, a deal or one of the room's promo codes."""
    ct = r.ctext(i)
    if r.cfind("coupon_words", i) is not None or r.cfind("deal_words", i) is not None:
        return True
    low = ct.lower()
    return any(getattr(c, "code", None) and str(c.code).lower() in low for c in r.room.campaigns)


def is_money(r: "Reading", q: Quantity, i: int) -> bool:
    """Whether a number is an amount of money: it has a currency unit or sign, or (a bare number) it has two
    decimals in an English room, or a money role or paying word stands right before it, or one unit of what is sold
    follows it ("39.9一箱") or a count of it precedes it ("两箱119.8"), or it directly follows a product reference
    ("4号129"); never when a non-money word follows it ("80字")."""
    if q.dim == "money":
        return True
    if q.dim != "plain" or q.value == 0:
        return False
    text = r.text
    c = r.clauses[i]
    after = text[q.end : min(c.end, q.end + 12)]
    nm = r.vocab.rx.get("not_money_after")
    if nm is not None and nm.search(after):
        return False
    pa = r.vocab.rx.get("money_after_pay")
    if pa is not None and pa.search(after) and q.value >= 1:
        return True
    pi = r.vocab.rx.get("money_per_item_after")
    if pi is not None and pi.search(after) and q.value >= 1:
        cb = r.vocab.rx.get("count_before")
        if cb is None or not cb.search(text[max(c.start, q.start - 12) : q.start]):
            return True  # "39.9一箱": a price for one unit of what is sold
    ac = r.vocab.rx.get("money_after_count")
    if ac is not None and q.value >= 1 and ac.search(text[max(c.start, q.start - 8) : q.start]):
        return True  # "两箱119.8": what that many units cost
    raw = text[q.start : q.end]
    if r.vocab.raw.get("bare_cents_money", r.vocab.lang == "en") and "." in raw and len(raw.split(".")[1]) == 2:
        return True
    if money_role(r, q, i) not in ("pay", "upper", "lower"):
        return True
    before = text[max(c.start, q.start - 12) : q.start]
    cb = r.vocab.rx.get("count_before")
    if cb is not None and cb.search(before):
        return False  # a stock count by its lead ("quedan solo 3", "只剩3"), though "solo" also leads a price
    if _data_quantity(r, q, before):
        return False  # "es 5 ATM", "de la añada 2020": a number the products' own specs or titles write
    pb = r.vocab.rx.get("pay_before")
    if pb is not None and pb.search(before) and q.value >= 1:
        return True
    pw = r.vocab.rx.get("pay_words")
    if pw is not None and r.vocab.lang == "zh" and pw.search(text[max(c.start, q.start - 4) : q.start]):
        return True
    for m in r.mentions:
        if m.how in ("link", "name") and 0 <= q.start - m.end <= 1 and q.value >= 10 and \
                text[m.end : q.start] in ("", " ", ":", "："):
            return True
    return False


def _data_quantity(r: "Reading", q: Quantity, before: str) -> bool:
    """Whether bare whole number ``q`` is one a product of the room writes as a whole number in a spec value or
    its title ("5 ATM", "2020") and no price of any product, with no price word just before it (the locale's
    ``price_question`` words: "cuesta 5" stays an amount)."""
    raw = r.text[q.start : q.end]
    if not raw.isdigit():
        return False
    pq = r.vocab.rx.get("price_question")
    if pq is not None and pq.search(before):
        return False
    whole = re.compile(rf"(?<![\d.,]){re.escape(raw)}(?![\d]|[.,]\d)")
    hit = False
    for p in r.room.products:
        pf = r.facts.of(p.product_id)
        if any(abs(x - q.value) < 0.005 for x in (p.price, p.list_price, pf.effective, pf.base)):
            return False
        if not hit and any(whole.search(str(v)) for v in (*p.specs.values(), p.title)):
            hit = True
    return hit


__all__ = ["money_role", "is_money"]
