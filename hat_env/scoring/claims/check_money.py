"""Money claims: one amount of a reply checked by its role against the products it may be about, and a coupon
said to apply checked against its threshold."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hat_env.scoring.claims import derived, fees
from hat_env.scoring.claims.amounts import eq, fmt_money
from hat_env.scoring.claims.facts import ProductFacts
from hat_env.scoring.claims.money_roles import money_role
from hat_env.scoring.claims.money_values import is_total, money_values, pay_alternatives, threshold_gap
from hat_env.scoring.claims.numbers import Quantity

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading


def check_money(r: "Reading", q: Quantity, i: int, pids: tuple[str, ...]) -> None:
    """Check one amount of money against the products it may be about, by its role; record the claim."""
    rest = _restated(r, q, i)
    if rest == "skip":
        return  # "about twenty-nine dollars apart, $29.01 to be exact": the exact amount after it is the claim
    role = rest or money_role(r, q, i)
    _spoken_hundreds(r, q, i, role, pids)
    if role in ("threshold", "pay") and _qualifying_order(r, q, i, pids):
        return  # "on a $70 order DEWY10 is the better one": the viewer's own order amount, at or over the threshold
    if role == "threshold" and any(threshold_gap(r, q, i, pf) is not None and
                                   not any(eq(q.value, t) for _a, t, _c in pf.coupons) for pf in r.pfs(pids)[:1]):
        role = "difference"  # "再凑59块1就够满99": what is missing to the threshold named after it
    if role in ("pay", "upper", "lower") and derived.check_unit_price(r, q, i, pids, role):
        return  # "一斤才7块7", "under $1.90 a pound": a price per unit of the product's quantity
    fee_role = fees.amount_role(r, q, i, after_only=role not in ("pay", "fee"))
    if fee_role is not None:
        fees.check_fee_amount(r, q, i, pids, fee_role)
        return  # "$79 oversize fee", "installation is $99": that field of the product, not what the viewer pays
    v = q.base if q.dim == "money" else q.value  # "50 céntimos" is 0.50 of the money unit
    pfs = r.pfs(pids)
    if role in ("fee", "pay") and not any(eq(v, pf.effective) for pf in pfs) and fees.claim_named_fee(r, q, i, pfs):
        return  # "since it's oversize there's a fifteen-dollar fee": the fee the sentence names
    if role == "pay" and (r.vocab.find("ship_words", r.stext(i)) or r.vocab.find("paid_shipping", r.stext(i))) and \
            any(pf.product.shipping.fee and eq(v, pf.product.shipping.fee) and not eq(v, pf.effective) for pf in pfs):
        role = "fee"  # "shipping on the Boom Mini is $4.99": the fee, in a sentence about shipping
    ok = False
    hit: ProductFacts | None = None
    for pf in pfs:
        if role == "upper":
            ok = pf.effective < v or pf.base < v
        elif role == "lower":
            ok = pf.effective > v
        else:
            ok = any(eq(v, x) for x in money_values(r, pf, role, i, q))
            if not ok and role == "pay":
                ok = pay_alternatives(r, q, i, pf)
            if not ok and role in ("reference", "base"):
                ok = is_total(r, v)  # "两件原价128.9": the products' prices before the deal, added
        if ok:
            hit = pf
            break
    answers: list[tuple[str, str | None]] = []
    if hit is not None:
        pid = hit.pid
        if role == "pay" and not any(eq(v, x) for x in (hit.effective, *hit.bundle_prices)):
            answers.append(("campaign", pid))  # a later flash sale's price: the deal to come, not today's price
        elif role == "pay":
            answers += [("price", pid), ("purchase", pid)]
            dw = r.vocab.rx.get("deal_words")
            if dw is not None and dw.search(r.ctext(i)) and hit.effective < hit.price:
                answers.append(("campaign", pid))
        elif role in ("coupon", "threshold", "flash"):
            answers.append(("campaign", pid))
            if role == "flash" and eq(v, hit.effective):
                answers += [("price", pid), ("purchase", pid)]
        elif role == "fee":
            answers.append(("shipping:free", pid))
        elif role == "reference" and hit.effective < v - 0.004:
            answers.append(("campaign", pid))  # a true prior price above today's ("antes estaba a 14,90"): the cut
    if role == "difference" and ok:
        answers.append(("difference", None))
    if role == "upper" and hit is not None and 0 < v - hit.effective <= max(1.0, 0.02 * v):
        answers += [("price", hit.pid), ("purchase", hit.pid)]  # "不到90块" for 89, "just under $50" for 49.99
    if hit is not None:
        r.claim(q.start, q.end, (hit.pid,), "price", v, role, True, "true", "", answers)
        if role in ("coupon", "threshold"):
            _check_eligibility(r, q, i, [hit], role)
        return
    if not pfs:
        return
    if role in ("pay", "difference") and _spec_amount(r, q, i, pfs):
        return
    pf = pfs[0]
    what = {"pay": f"pays {fmt_money(pf.effective)}", "base": f"price {fmt_money(pf.price)}",
            "reference": f"was-price {fmt_money(pf.list_price)}", "flash": "no flash sale now" if not pf.flash else
            f"flash price {fmt_money(pf.flash[0])}", "coupon": "coupons " + (", ".join(fmt_money(a) for a, _t, _c in pf.coupons) or "none"),
            "threshold": "thresholds " + (", ".join(fmt_money(t) for _a, t, _c in pf.coupons if t) or "none"),
            "fee": "free shipping" if pf.product.shipping.free_shipping else f"shipping {fmt_money(pf.product.shipping.fee)}",
            "upper": f"pays {fmt_money(pf.effective)}", "lower": f"pays {fmt_money(pf.effective)}",
            "difference": f"no difference or gap of its price ({fmt_money(pf.effective)}) is that",
            "savings": f"no saving on its price ({fmt_money(pf.effective)}) is that"}.get(role, f"pays {fmt_money(pf.effective)}")
    other = [p for p in r.room.products if p.product_id not in pids and eq(v, r.room.effective_price(p))]
    tail = f" ({fmt_money(v)} is {r.label(other[0].product_id)}'s price)" if other and role == "pay" else ""
    # a wrong price to pay voids the deal answer when the sentence names a coupon; and when it names another deal or
    # the viewers asked about the deals of that product but not its price (the deal's outcome is what they asked,
    # and it is wrong: "秒杀价再减10，到手27.9" where it comes to 39.9); asked its price too, the price is what is wrong
    link = r.room.by_id[pf.pid].link if pf.pid in r.room.by_id else None
    asked = {it.kind for it in r.intents if it.link is not None and int(it.link) == link}
    deal = r.vocab.find("coupon_words", r.stext(i)) is not None or ("price" not in asked and (
        "campaign" in asked or any(r.vocab.find(w, r.stext(i)) is not None for w in ("flash_words", "bundle_words"))))
    would = {"pay": [("price", pf.pid), ("purchase", pf.pid)] + ([("campaign", pf.pid)] if deal else []),
             "coupon": [("campaign", pf.pid)],
             "threshold": [("campaign", pf.pid)], "flash": [("campaign", pf.pid), ("price", pf.pid)],
             "fee": [("shipping", pf.pid)],
             "difference": [("campaign", pf.pid)] if threshold_gap(r, q, i, pf) is not None else []}.get(role, [])
    r.claim(q.start, q.end, pids, "price", v, role, True, "false",
            f"{r.label(pf.pid)}: '{r.m.original(q.start, q.end)}' ({role}) but the viewer {what}{tail}"
            if role == "pay" else f"{r.label(pf.pid)}: '{r.m.original(q.start, q.end)}' ({role}) but {what}", would)


def _qualifying_order(r: "Reading", q: Quantity, i: int, pids: tuple[str, ...]) -> bool:
    """Whether ``q`` is the amount of an order the viewer may place ("on a $70 order", "en un pedido de 70 €": the
    locale's ``order_amount_before`` and ``order_amount_after`` around it) at or over a threshold of a coupon of
    the products it may be about (or of the room's): their amount, no claim. An order below every threshold stays
    a claim (a coupon said to apply to it is checked)."""
    b, a = r.vocab.rx.get("order_amount_before"), r.vocab.rx.get("order_amount_after")
    if b is None or a is None:
        return False
    c = r.clauses[i]
    if b.search(r.text[max(c.start, q.start - 30) : q.start]) is None or a.match(r.text[q.end : c.end]) is None:
        return False
    pfs = r.pfs(pids) or r.pfs(p.product_id for p in r.room.products)
    ts = [t for pf in pfs for _a, t, _c in pf.coupons if t > 0]
    return bool(ts) and q.value >= min(ts) - 0.004


def _spoken_hundreds(r: "Reading", q: Quantity, i: int, role: str, pids: tuple[str, ...]) -> None:
    """A price said in words as a digit and a two-digit number ("one twenty-nine", "four ninety-nine") is read as
    dollars and cents (1.29); spoken of a product that costs hundreds it is 129. When the amount in its role
    matches none of the products it may be about as cents and does as hundreds, read it as hundreds (``q`` is
    changed in place)."""
    if not 1 <= q.value < 10 or round(q.value * 100) % 100 < 10 or any(ch.isdigit() for ch in r.m.original(q.start, q.end)):
        return
    alt = round(q.value * 100, 2)
    vals = [x for pf in r.pfs(pids) for x in money_values(r, pf, role, i, q)]
    if not any(eq(q.value, x) for x in vals) and any(eq(alt, x) for x in vals):
        q.value = q.base = alt


def _restated(r: "Reading", q: Quantity, i: int) -> str | None:
    """An amount and its exact restatement next in its sentence (the locale's ``exact_restatement`` after the second:
    "about $29 apart, $29.01 to be exact"): ``"skip"`` for the approximate one (the exact one is the claim), the
    first one's money role for the restatement, else ``None``."""
    rx = r.vocab.rx.get("exact_restatement")
    if rx is None:
        return None
    sent = [c for c in r.clauses if c.sentence == r.clauses[i].sentence]
    lo, hi = sent[0].start, sent[-1].end
    amounts = [x for x in r.quantities if x.dim in ("money", "plain") and lo <= x.start < hi]
    k = next((n for n, x in enumerate(amounts) if x.start == q.start), None)
    if k is None:
        return None

    def close(a: float, b: float) -> bool:
        """Whether ``a`` is ``b`` rounded (within a dollar or 5%)."""
        return abs(a - b) <= max(1.0, 0.05 * abs(b))

    if k + 1 < len(amounts) and rx.search(r.text[amounts[k + 1].end : hi]) and close(q.value, amounts[k + 1].value):
        ap = r.vocab.rx.get("approximate")
        if ap is not None and ap.search(r.text[max(lo, q.start - 20) : q.start].rstrip("$€¥￥ ") + " "):
            return "skip"
    if k > 0 and rx.search(r.text[q.end : hi]) and close(amounts[k - 1].value, q.value):
        return money_role(r, amounts[k - 1], r.clause_at(amounts[k - 1].start))
    return None


def _spec_amount(r: "Reading", q: Quantity, i: int, pfs: list[ProductFacts]) -> bool:
    """An amount in plain price position, or said as a difference ("costs $10 more"), that a spec the clause names
    states as money ("Engraving inside the band is $10 extra" of an engraving spec "..., $10 extra, ..."; "刻字加10元"):
    that spec's value, not the price.
    Records the true claim and returns whether it did."""
    from hat_env.scoring.claims.families import spec_named

    key = spec_named(r, i, pfs)
    if key is None:
        return False
    good = [pf for pf in pfs if any(f.attr == key and f.dim == "money" and eq(q.value, f.value) for f in pf.numbers)]
    if not good:
        return False
    r.claim(q.start, q.end, tuple(pf.pid for pf in good), key, q.value, "money", True, "true", "",
            [(key, pf.pid) for pf in good])
    return True


def _check_eligibility(r: "Reading", q: Quantity, i: int, pfs: list[ProductFacts], role: str) -> None:
    """A coupon named in a positive clause without a condition (in it or earlier in its sentence) must apply to
    the product: its price (after a flash sale) meets the threshold."""
    if r.clauses[i].question or r.cfind("coupon_conditions", i) or r.negated(i, r.clauses[i].end):
        return
    sent = r.clauses[i].sentence
    if any(r.clauses[k].sentence == sent and r.cfind("coupon_conditions", k) for k in range(i)):
        return  # "add $5 more and the $10-off coupon kicks in": the condition comes first in its sentence
    if not r.cfind("use_coupon", i) and not r.cfind("pay_words", i):
        return  # stating a coupon's terms ("满199减30") is not saying it applies
    if len(pfs) != 1:
        return
    pf = pfs[0]
    if any(x.dim in ("money", "plain") and r.clauses[r.clause_at(x.start)].sentence == sent
           and _qualifying_order(r, x, r.clause_at(x.start), (pf.pid,)) for x in r.quantities):
        return  # "en un pedido de 50 € el cupón de 5 € sí se aplica": said of the viewer's order, which meets it
    v = q.value
    matching = [c for a, t, c in pf.coupons if (role == "coupon" and eq(a, v)) or (role == "threshold" and eq(t, v))]
    if not matching:
        return
    if any(pf.base >= c.threshold for c in matching):
        return
    c = matching[0]
    r.claim(q.start, q.end, (pf.pid,), "coupon", c.campaign_id, role, True, "false",
            f"{r.label(pf.pid)}: '{c.title}' needs {fmt_money(c.threshold)}, price is {fmt_money(pf.base)}",
            [("campaign", pf.pid), ("price", pf.pid)])


__all__ = ["check_money"]
