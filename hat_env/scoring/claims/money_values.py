"""The values an amount of money in a role may take for a product: its price, coupons, thresholds, savings,
differences between products, totals of several products or of an order, later flash prices, and the true
alternatives of an amount in plain price position (the price before the deal, the fee, a bundle)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hat_env.scoring.claims import derived
from hat_env.scoring.claims.amounts import eq
from hat_env.scoring.claims.facts import ProductFacts
from hat_env.scoring.claims.money_roles import money_role
from hat_env.scoring.claims.numbers import Quantity

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading


def _pairs(r: "Reading") -> list[float]:
    """Differences between the effective prices of the products asked about or named."""
    pids = list(dict.fromkeys([*r.scope, *r.report.mentioned]))
    effs = [r.facts.of(p).effective for p in pids if p in r.room.by_id]
    return [abs(a - b) for k, a in enumerate(effs) for b in effs[k + 1 :]]


def _savings(pf: ProductFacts) -> list[float]:
    """Savings the data gives: price or list price minus what the viewer pays, price minus the flash price."""
    out = [pf.price - pf.effective, pf.list_price - pf.effective, pf.base - pf.effective, pf.price - pf.base,
           pf.list_price - pf.price]
    return [x for x in out if x > 0.004]


def _names_a_code(r: "Reading", text: str) -> bool:
    """Whether ``text`` names a promo code of the room ("once you apply PAW10"): a deal, like a coupon word."""
    low = text.lower()
    return any(c.code and re.search(rf"(?<![a-z0-9]){re.escape(c.code.lower())}(?![a-z0-9])", low)
               for c in r.room.campaigns if getattr(c, "code", None))


def pay_alternatives(r: "Reading", q: Quantity, i: int, pf: ProductFacts) -> bool:
    """An amount in plain "price" position that is still true: the price before the coupon in a sentence that
    goes on to the price after it ("现在229元，用券后199"), the shipping fee in a clause about shipping, a total
    for several units or for a bundle the data runs."""
    v = q.value
    vocab = r.vocab
    ct, st = r.ctext(i), r.stext(i)
    if any(eq(v, x) for x in (pf.price, pf.base, pf.list_price)) and not eq(v, pf.effective):
        # the price before a deal, in a sentence that also gives the price after it (in either order: "$49.99
        # with the coupon, normally $59.99"), when the sentence names a deal and this clause is not the "after"
        # (a list or table gives them on separate lines: "| Price | $59.99 |" then "| With coupon | $49.99 |")
        listed = "\n" in r.text
        other = [x for x in r.quantities if (x.start > q.end or x.end < q.start)
                 and x.dim in ("money", "plain") and (listed or r.clauses[r.clause_at(x.start)].sentence == r.clauses[i].sentence)]
        scope_text = r.text if listed else st
        deal = vocab.find("coupon_words", scope_text) or vocab.find("pay_words", scope_text) or \
            vocab.find("flash_words", scope_text) or vocab.find("deal_words", scope_text) or _names_a_code(r, scope_text)
        after_here = vocab.find("pay_words", ct) and not any(x.start > q.end for x in other if eq(x.value, pf.effective))
        if any(eq(x.value, pf.effective) for x in other) and deal and (not after_here or eq(v, pf.base)):
            return True
        if not listed and _before_deal_in_reply(r, q, i, pf):
            return True
        if not listed and not eq(v, pf.list_price) and _order_line(r, q, i):
            return True
    if eq(v, pf.base) and not eq(v, pf.effective) and _order_total(r, q, i, pf):
        return True
    if (vocab.find("ship_words", st) or vocab.find("paid_shipping", st)) and eq(v, pf.product.shipping.fee):
        return True  # the fee, in a sentence (or a "Shipping: ..." line) about shipping
    if is_total(r, v):
        return True
    codes = [c for _a, _t, c in pf.coupons if getattr(c, "code", None) and str(c.code).lower() in ct.lower()]
    if codes and not vocab.find("pay_words", ct) and any(eq(v, t) or eq(v, a) for a, t, c in pf.coupons if c in codes):
        return True  # "..., and PAW10 at 50", "$25 with HOME25": the threshold or amount of the code the clause names
    if any(eq(v, x) for x in derived.fee_totals(pf, stated=_stated_amounts(r, q))):
        return True  # the price with the fee its sentence states: "$49.99 with the $4.99 shipping"
    for k in range(2, 6):
        # k units at the unit price, unless a running bundle prices k units lower ("两箱119.8" when the second is
        # half price: 89.85)
        if eq(v, k * pf.effective) and str(k) in ct and not any(qty == k for qty, _pct in pf.bundles):
            return True
    # a bundle named in the sentence, or earlier in the reply when this sentence states the bundle's own cut ("...
    # stack with the duo bundle. Serum + sunscreen at 20% off is $41.60")
    if pf.bundles and (vocab.find("bundle_words", st) or (vocab.find("bundle_words", r.text[: r.clauses[i].start])
                                                         and _states_bundle_cut(r, i, pf))):
        named = [r.facts.of(p) for m in r.mentions if r.clauses[r.clause_at(m.start)].sentence == r.clauses[i].sentence
                 for p in m.pids if m.how in ("link", "name")]
        named = list({x.pid: x for x in named}.values()) or [pf]
        # the products asked about that the same bundle covers, when the reply names them in words the mentions
        # do not read ("维C（69元）加益生菌（159元）...打完九折205.2元" asked about links 1 and 4)
        bundles = [c for c in pf.campaigns_active if c.type == "bundle"]
        partners = list({p: r.facts.of(p) for p in [pf.pid, *r.scope] if p in r.room.by_id
                         and any(c.applies_to(p) for c in bundles)}.values())
        for qty, pct in pf.bundles:
            f = 1 - pct / 100.0
            sums = [sum(x.effective for x in named), sum(x.price for x in named), qty * pf.effective, qty * pf.price]
            if len(partners) == qty:
                sums += [sum(x.effective for x in partners), sum(x.price for x in partners)]
            if any(eq(v, s * f) or eq(v, round(s * f, 2)) for s in sums):
                return True
            if qty > 1 and any(eq(v, x) for x in _bundle_unit_prices(pf, qty, f)):
                return True
    return False


def _states_bundle_cut(r: "Reading", i: int, pf: ProductFacts) -> bool:
    """Whether the sentence of clause ``i`` states the percent off of one of ``pf``'s running bundles ("at 20% off",
    "打八折", "al 25 %")."""
    sent = r.clauses[i].sentence
    for x in r.quantities:
        if r.clauses[r.clause_at(x.start)].sentence != sent:
            continue
        off = x.value if x.dim == "percent" else (100 - 10 * x.value if x.dim == "zhe" and x.value < 10 else None)
        if off is not None and any(abs(off - pct) < 0.01 for _q, pct in pf.bundles):
            return True
    return False


def _bundle_unit_prices(pf: ProductFacts, qty: int, f: float) -> list[float]:
    """What one unit of a bundle of ``qty`` units of ``pf`` at factor ``f`` (0.75 for 25% off) costs said per unit:
    the average ("两件148.5，平均一件74.25", "each works out to $35.70") and the last unit when the others keep their
    price ("la primera a 16,50 € y la segunda a mitad de precio, 8,25 €", "第二件半价49.5")."""
    out = []
    for unit in dict.fromkeys((pf.effective, pf.price, pf.base)):
        total = qty * unit * f
        out += [total / qty, round(total / qty, 2)]
        last = total - (qty - 1) * unit
        if last > 0.004:
            out += [last, round(last, 2)]
    return out


def _before_deal_in_reply(r: "Reading", q: Quantity, i: int, pf: ProductFacts) -> bool:
    """The price before a deal in a sentence with no deal or pay word of its own, when another sentence of the
    reply names a deal and gives the price after it ("The washer is $649; the coupon and HOME25 take $45 off, so you
    pay $604.": a semicolon ends a sentence)."""
    vocab = r.vocab
    st = r.stext(i)
    # a "now" word ("秒杀已经结束了，现在89元；下单输入XIAN12…到手77元") dates the price, it does not say a deal is in
    # it; a flash sale said to have ended is no deal in it either
    aw, pw = vocab.rx.get("active_words"), vocab.rx.get("pay_words")
    now = [(m.start(), m.end()) for m in aw.finditer(st)] if aw is not None else []
    if pw is not None and any(not any(a <= m.start() and m.end() <= b for a, b in now) for m in pw.finditer(st)):
        return False
    if vocab.find("coupon_words", st) or (vocab.find("flash_words", st) and not vocab.find("ended_words", st)):
        return False
    sent = r.clauses[i].sentence
    for x in r.quantities:
        if x.dim not in ("money", "plain") or not eq(x.value, pf.effective) or x.start < q.end:
            continue
        k = r.clause_at(x.start)
        if r.clauses[k].sentence == sent:
            continue
        xs = r.stext(k)
        if vocab.find("coupon_words", xs) or vocab.find("pay_words", xs) or vocab.find("flash_words", xs) or \
                vocab.find("deal_words", xs) or _names_a_code(r, xs):
            return True
    return False


def _order_line(r: "Reading", q: Quantity, i: int) -> bool:
    """The price before coupons of a product added to an order that the sentence goes on to take a coupon off ("Add
    the Volt Buds Pro ($59.99) and your order clears $50, so $10 comes off the total."): the clause holds no deal
    or pay word of its own, and a later amount of its sentence is a coupon's amount or threshold."""
    vocab = r.vocab
    ct = r.ctext(i)
    if vocab.find("pay_words", ct) or vocab.find("coupon_words", ct) or vocab.find("flash_words", ct) or \
            _names_a_code(r, ct):
        return False
    sent = r.clauses[i].sentence
    amounts = {a for p in r.room.products for a, _t, _c in r.facts.of(p.product_id).coupons} | \
        {t for p in r.room.products for _a, t, _c in r.facts.of(p.product_id).coupons if t > 0}
    for x in r.quantities:
        if x.start <= q.end or x.dim not in ("money", "plain"):
            continue
        k = r.clause_at(x.start)
        if r.clauses[k].sentence != sent or k == i:
            continue
        if money_role(r, x, k) in ("coupon", "threshold") and any(eq(x.value, a) for a in amounts):
            return True
    return False


def _stated_amounts(r: "Reading", q: Quantity) -> list[float]:
    """The other amounts of money or bare numbers of the reply ("el envío son 3,95 €; con el envío, 43,45 €")."""
    return [x.value for x in r.quantities if x.start != q.start and x.dim in ("money", "plain")]


def _order_total(r: "Reading", q: Quantity, i: int, pf: ProductFacts) -> bool:
    """Whether the amount ``q`` (``pf``'s price before coupons) is a line of an order the sentence goes on to
    total and take an order coupon off: "凑上5号（259元）就能用，两件一共318元，减30后288元", "the charger ($39.99)
    and the buds ($59.99) make $99.98, and the coupon brings it to $89.98". Some later amount of the sentence is
    the sum of the lines' prices before coupons, or that sum less a coupon whose threshold it meets."""
    from itertools import combinations

    sent = r.clauses[i].sentence
    later = [x.value for x in r.quantities if x.start > q.end and x.dim in ("money", "plain")
             and r.clauses[r.clause_at(x.start)].sentence == sent]
    if not later:
        return False
    pids = [p for p in dict.fromkeys([*r.scope, *r.report.mentioned, pf.pid]) if p in r.room.by_id and p != pf.pid]
    coupons = {(a, t) for p in r.room.products for a, t, _c in r.facts.of(p.product_id).coupons}
    for k in (1, 2):
        for combo in combinations(pids[:8], k):
            total = pf.base + sum(r.facts.of(p).base for p in combo)
            if any(eq(x, total) for x in later):
                return True
            if any(total >= t and any(eq(x, total - a) for x in later) for a, t in coupons):
                return True
    return False


def is_total(r: "Reading", v: float) -> bool:
    """Whether ``v`` is what two or three of the products asked about or named cost together (each at what the
    viewer pays, its price or its flash price): "together that's $84.99", "合计468"."""
    from itertools import combinations

    pids = [p for p in dict.fromkeys([*r.scope, *r.report.mentioned]) if p in r.room.by_id]
    if len(pids) < 2 or len(pids) > 8:
        return False
    opts = []
    for p in pids:
        pf = r.facts.of(p)
        opts.append({pf.effective, pf.price, pf.base})
    for k in (2, 3):
        for combo in combinations(opts, k):
            totals = {0.0}
            for o in combo:
                totals = {t + x for t in totals for x in o}
            if any(eq(v, t) for t in totals):
                return True
    # the order's total less one store coupon its sum meets ("两件一共318元，减30后288元": 凑单)
    coupons = {(a, t) for p in pids for a, t, _c in r.facts.of(p).coupons}
    for k in (2, 3):
        for lines in combinations(pids, k):
            total = sum(r.facts.of(p).base for p in lines)
            if any(total >= t and eq(v, total - a) for a, t in coupons):
                return True
    return False


def _later_flash(r: "Reading", pf: ProductFacts, i: int, clause_only: bool = True) -> list[float]:
    """Flash prices of ``pf``'s flash sales that start later, when clause ``i`` speaks of later ("等下还有秒杀139元",
    "coming up later: $89"); with ``clause_only`` false, also when its sentence does and the clause itself does not
    speak of now ("4号等下有秒杀，到时候139元", not "..., 现在139元")."""
    if r.cfind("inactive_words", i) is None:
        if clause_only or r.cfind("active_words", i) is not None or \
                r.vocab.find("inactive_words", r.stext(i)) is None:
            return []
    out = []
    for c in pf.campaigns_later:
        if c.type == "flash_sale" and c.flash_price and c.start_s > r.room.t:
            out += [float(c.flash_price), *later_stacked(r, pf, c)]
    return out


def later_stacked(r: "Reading", pf: ProductFacts, flash: object) -> list[float]:
    """A later flash sale's price less each coupon of ``pf`` that stacks with it and whose threshold that price meets
    ("秒杀799元的场次等会儿开，到时候叠券769": 799 - 30)."""
    fp = float(getattr(flash, "flash_price", 0) or 0)
    return [round(fp - a, 2) for a, t, c in pf.coupons if fp >= t and fp - a > 0 and r.room.stacks(flash, c)]


def stacks_later(r: "Reading", i: int, pf: ProductFacts) -> bool:
    """Whether clause ``i`` speaks of a flash sale to come (in it or its sentence: "秒杀等会儿开，到时候叠券") and a
    coupon of ``pf`` stacks with that sale at its price (a stacking said of that later sale is true)."""
    if r.cfind("inactive_words", i) is None and r.vocab.find("inactive_words", r.stext(i)) is None:
        return False
    return any(later_stacked(r, pf, c) for c in pf.campaigns_later
               if c.type == "flash_sale" and c.flash_price and c.start_s > r.room.t)


def _past_flash(r: "Reading", pf: ProductFacts, i: int) -> list[float]:
    """Flash prices of ``pf``'s flash sales that have ended, when clause ``i`` says a deal ended ("上半场秒杀339已经
    结束啦", "the $109 launch deal is over"), or its sentence does and the clause itself does not speak of now."""
    if r.cfind("ended_words", i) is None:
        if r.cfind("active_words", i) is not None or r.vocab.find("ended_words", r.stext(i)) is None:
            return []
    return [float(c.flash_price) for c in pf.campaigns_later if c.type == "flash_sale" and c.flash_price
            and c.end_s <= r.room.t]


def _later_savings(r: "Reading", pf: ProductFacts, i: int) -> list[float]:
    """What a flash sale said to come later saves on today's price ("等秒杀开始能便宜20块，139元")."""
    return [pf.effective - x for x in _later_flash(r, pf, i, clause_only=False) if pf.effective - x > 0.004]


def money_values(r: "Reading", pf: ProductFacts, role: str, i: int = 0, q: Quantity | None = None) -> list[float]:
    """The values money in ``role`` may take for product ``pf`` (``q``: the amount, for differences its sentence
    states)."""
    if role == "pay":  # a bundle's price for its quantity is a price one pays too
        # "the $49 blender flash deal already wrapped up": in a clause naming a flash deal it says ended, the
        # amount is that ended deal's price
        past = _past_flash(r, pf, i) if r.cfind("flash_words", i) is not None else []
        return [pf.effective, *pf.bundle_prices, *_later_flash(r, pf, i, clause_only=False), *past]
    if role == "base":
        return [pf.price, pf.base]
    if role == "reference":
        # "4 bags come to $44.97 instead of $59.96": a bundle's units before its cut are a prior price too
        before_bundle = [qty * x for qty, _pct in pf.bundles if qty > 1 for x in (pf.price, pf.base, pf.effective)]
        return [pf.list_price, pf.price, *pf.history, *_past_flash(r, pf, i), *before_bundle]
    if role == "flash":
        # "秒杀309": the deal price with the coupon stacked is the flash deal too; a flash sale said to come later
        # (in the clause, or in its sentence: "待会还有秒杀，秒杀价79元") or to have ended gives that sale's price
        return [*pf.flash, pf.effective, *_later_flash(r, pf, i, clause_only=False), *_past_flash(r, pf, i)]
    if role == "coupon":
        # "坚果便宜2块：..." in a clause without a coupon word: a saving may also be what sets two products apart
        pairs = _pairs(r) if r.cfind("coupon_words", i) is None else []
        gaps = _reference_gaps(r, q, i) if q is not None else []
        return [a for a, _t, _c in pf.coupons] + _savings(pf) + pairs + _later_savings(r, pf, i) + gaps
    if role == "threshold":
        return [t for _a, t, _c in pf.coupons if t > 0] + _free_shipping_thresholds(r, pf, i)
    if role == "fee":
        return [pf.product.shipping.fee] if pf.product.shipping.fee else [0.0]
    if role == "difference" and q is not None:
        gap = threshold_gap(r, q, i, pf)
        if gap is not None:
            return gap  # "差30块就够满199": how far the price is from that threshold, nothing else
    if role in ("difference", "savings"):
        return _pairs(r) + _savings(pf) + _later_savings(r, pf, i) + [a for a, _t, _c in pf.coupons] + (
            derived.differences(r, q, i, pf) + _gap_to_earlier_threshold(r, q, i, pf) if q is not None else [])
    return []


def _gap_to_earlier_threshold(r: "Reading", q: Quantity, i: int, pf: ProductFacts) -> list[float]:
    """A difference after a threshold its sentence named ("el cupón es para pedidos desde 40 €, así que no llegan
    por 50 céntimos", "the coupon needs $50, you're $10 short"): the threshold less the product's prices."""
    s0 = next(c.start for c in r.clauses if c.sentence == r.clauses[i].sentence)
    ths = [x.value for x in r.quantities if s0 <= x.start < q.start and x.dim in ("money", "plain")
           and money_role(r, x, r.clause_at(x.start)) == "threshold"]
    return [t - p for t in ths for p in (pf.base, pf.effective, pf.price) if t > p]


def _reference_gaps(r: "Reading", q: Quantity, i: int) -> list[float]:
    """A saving said with a saving word ("省", "save", "ahorras") that is a "was" price its sentence states minus
    another amount it states ("原价399，现在券后259，相当于直接省一百四"): that gap, the reply's own arithmetic (the
    "was" price is judged on its own, as a reference price). Empty when the amount has no saving word before it or
    the sentence states no "was" price."""
    b, _a = r.vocab.money_roles.get("savings", (None, None))
    c = r.clauses[i]
    if b is None or b.search(r.text[max(c.start, q.start - 30) : q.start]) is None:
        return []
    sent = c.sentence
    stated = [x for x in r.quantities if x.dim in ("money", "plain") and x.value > 0
              and x.start != q.start and r.clauses[r.clause_at(x.start)].sentence == sent]
    refs = [x for x in stated if money_role(r, x, r.clause_at(x.start)) == "reference"]
    return [x.value - y.value for x in refs for y in stated if y is not x and x.value - y.value > 0.004]


def _free_shipping_thresholds(r: "Reading", pf: ProductFacts, i: int) -> list[float]:
    """An order threshold for free shipping that only the product's FAQ answers state ("Gratis en pedidos desde
    35 €"), when clause ``i`` or the next one says shipping is free ("si tu pedido llega a 35 € el envío es
    gratis"): the amounts of those answers that the locale's threshold words lead."""
    near = [k for k in (i, i + 1) if k < len(r.clauses)]
    if not any(r.cfind("free_shipping", k) is not None or r.cfind("fee_free", k) is not None
               for k in near):
        return []
    before, _after = r.vocab.money_roles.get("threshold", (None, None))
    if before is None:
        return []
    out = []
    for f in pf.product.faq:
        a = str(getattr(f, "a", "") or "")
        for m in re.finditer(r"(?<![\d.,])(\d+(?:[.,]\d{1,2})?)", a):
            lead = a[max(0, m.start() - 30) : m.start()].rstrip("$€¥ ") + " "
            if before.search(lead) or before.search(lead.rstrip()):
                out.append(float(m.group(1).replace(",", ".")))
    return out


def threshold_gap(r: "Reading", q: Quantity, i: int, pf: ProductFacts) -> list[float] | None:
    """A difference followed in its clause by a threshold ("差30块就够满199", "$10.01 short of the $50 minimum"):
    the threshold less the product's prices, or less an amount its sentence stated before as true of the product
    ("拍两支198元，还差1块钱才能用满199减30": two at 99); ``None`` when no threshold follows."""
    c = r.clauses[i]
    later = [x for x in r.quantities if q.end <= x.start < c.end and x.dim in ("money", "plain")]
    for x in later:
        if money_role(r, x, i) == "threshold":
            return [x.value - p for p in (pf.base, pf.effective, pf.price, *_stated_before(r, q, i, pf)) if x.value > p]
    return None


def _stated_before(r: "Reading", q: Quantity, i: int, pf: ProductFacts) -> list[float]:
    """Amounts the reply's sentence holding clause ``i`` stated before ``q`` and that were read as true of ``pf``
    (a price, the price of several units, a total): what a gap to a threshold may be counted from."""
    start = next(c.start for c in r.clauses if c.sentence == r.clauses[i].sentence)
    lo, hi = r.m.span(start, q.start)
    return [float(c.value) for c in r.report.claims if c.attribute == "price" and c.verdict == "true"
            and c.unit in ("pay", "base") and pf.pid in c.pids and lo <= c.span[0] and c.span[1] <= hi
            and isinstance(c.value, (int, float))]


__all__ = ["money_values", "pay_alternatives", "is_total", "threshold_gap", "later_stacked", "stacks_later"]
