"""Number claims: money by role (what the viewer pays, the coupon, its threshold, the "was" price...), times
by attribute (ships within, returns, warranty, delivery, spec values), stock counts, percentages and 折, and
spec quantities (grams, ml, mAh, W, inches) with conversions (years = 12 months, days = 24 hours, kg = 1000 g).

(Over 500 lines: every number of a reply is read once and given one role; the roles decide each other, "was" vs
"now" vs coupon vs threshold, so they stay in one module. Labelled numbers are in check_codes.py, arithmetic
shown in a reply in arithmetic.py, sizes in check_sizes.py.)
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import TYPE_CHECKING

from hat_env.scoring.claims import conversions, derived, fees, topics
from hat_env.scoring.claims.facts import NumFact, ProductFacts
from hat_env.scoring.claims.numbers import Quantity, read_quantities

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading

_ROLE_ORDER = ("threshold", "coupon", "reference", "base", "flash", "fee", "difference", "savings", "upper", "lower")
_EPS = 0.0051
_NUMBER_NEXT = re.compile(r"\s*(?:[$¥€]|US\$)?\s*\d")


def _eq(a: float, b: float) -> bool:
    """Equal to the cent (or to a millionth, for large values)."""
    return abs(a - b) < _EPS or (b != 0 and abs(a - b) / abs(b) < 1e-6)


def _money(x: float) -> str:
    """An amount as notes write it (``49.99``, ``45``)."""
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _role(r: "Reading", q: Quantity, i: int) -> str:
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
            return role
    return "pay"


def _is_money(r: "Reading", q: Quantity, i: int) -> bool:
    """Whether a number is an amount of money: it has a currency unit or sign, or (a bare number) it has two
    decimals where the locale's ``bare_cents_money`` says so (English, Spanish "treinta y nueve con cincuenta"), or a money role or paying word stands right before it, or it directly follows a
    product reference ("4号129"); never when a non-money word follows it ("80字")."""
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
    raw = text[q.start : q.end]
    if r.vocab.raw.get("bare_cents_money", r.vocab.lang == "en") and "." in raw and len(raw.split(".")[1]) == 2:
        return True
    if _role(r, q, i) not in ("pay", "upper", "lower"):
        return True
    before = text[max(c.start, q.start - 12) : q.start]
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


def _pay_alternatives(r: "Reading", q: Quantity, i: int, pf: ProductFacts) -> bool:
    """An amount in plain "price" position that is still true: the price before the coupon in a sentence that
    goes on to the price after it ("现在229元，用券后199"), the shipping fee in a clause about shipping, a total
    for several units or for a bundle the data runs."""
    v = q.value
    vocab = r.vocab
    ct, st = r.ctext(i), r.stext(i)
    if any(_eq(v, x) for x in (pf.price, pf.base, pf.list_price)) and not _eq(v, pf.effective):
        # the price before a deal, in a sentence that also gives the price after it (in either order: "$49.99
        # with the coupon, normally $59.99"), when the sentence names a deal and this clause is not the "after"
        # (a list or table gives them on separate lines: "| Price | $59.99 |" then "| With coupon | $49.99 |")
        listed = "\n" in r.text
        other = [x for x in read_quantities(r.m, vocab) if (x.start > q.end or x.end < q.start)
                 and x.dim in ("money", "plain") and (listed or r.clauses[r.clause_at(x.start)].sentence == r.clauses[i].sentence)]
        scope_text = r.text if listed else st
        deal = vocab.find("coupon_words", scope_text) or vocab.find("pay_words", scope_text) or \
            vocab.find("flash_words", scope_text) or vocab.find("deal_words", scope_text) or _names_a_code(r, scope_text)
        after_here = vocab.find("pay_words", ct) and not any(x.start > q.end for x in other if _eq(x.value, pf.effective))
        if any(_eq(x.value, pf.effective) for x in other) and deal and (not after_here or _eq(v, pf.base)):
            return True
    if _eq(v, pf.base) and not _eq(v, pf.effective) and _order_total(r, q, i, pf):
        return True
    if (vocab.find("ship_words", st) or vocab.find("paid_shipping", st)) and _eq(v, pf.product.shipping.fee):
        return True  # the fee, in a sentence (or a "Shipping: ..." line) about shipping
    if _is_total(r, v):
        return True
    named = [c for _a, _t, c in pf.coupons if getattr(c, "code", None) and str(c.code).lower() in ct.lower()]
    if named and not vocab.find("pay_words", ct) and any(_eq(v, t) for _a, t, c in pf.coupons if c in named):
        return True  # "..., and PAW10 at 50": the threshold of the code the clause names
    if any(_eq(v, x) for x in derived.fee_totals(pf, stated=_stated_amounts(r, q))):
        return True  # the price with the fee its sentence states: "$49.99 with the $4.99 shipping"
    for k in range(2, 6):
        if _eq(v, k * pf.effective) and str(k) in ct:
            return True
    if pf.bundles and vocab.find("bundle_words", st):
        named = [r.facts.of(p) for m in r.mentions if r.clauses[r.clause_at(m.start)].sentence == r.clauses[i].sentence
                 for p in m.pids if m.how in ("link", "name")]
        named = list({x.pid: x for x in named}.values()) or [pf]
        for qty, pct in pf.bundles:
            f = 1 - pct / 100.0
            sums = [sum(x.effective for x in named), sum(x.price for x in named), qty * pf.effective, qty * pf.price]
            if any(_eq(v, s * f) or _eq(v, round(s * f, 2)) for s in sums):
                return True
    return False


def _stated_amounts(r: "Reading", q: Quantity) -> list[float]:
    """The other amounts of money or bare numbers of the reply ("el envío son 3,95 €; con el envío, 43,45 €")."""
    return [x.value for x in read_quantities(r.m, r.vocab) if x.start != q.start and x.dim in ("money", "plain")]


def _order_total(r: "Reading", q: Quantity, i: int, pf: ProductFacts) -> bool:
    """Whether the amount ``q`` (``pf``'s price before coupons) is a line of an order the sentence goes on to
    total and take an order coupon off: "凑上5号（259元）就能用，两件一共318元，减30后288元", "the charger ($39.99)
    and the buds ($59.99) make $99.98, and the coupon brings it to $89.98". Some later amount of the sentence is
    the sum of the lines' prices before coupons, or that sum less a coupon whose threshold it meets."""
    from itertools import combinations

    sent = r.clauses[i].sentence
    later = [x.value for x in read_quantities(r.m, r.vocab) if x.start > q.end and x.dim in ("money", "plain")
             and r.clauses[r.clause_at(x.start)].sentence == sent]
    if not later:
        return False
    pids = [p for p in dict.fromkeys([*r.scope, *r.report.mentioned, pf.pid]) if p in r.room.by_id and p != pf.pid]
    coupons = {(a, t) for p in r.room.products for a, t, _c in r.facts.of(p.product_id).coupons}
    for k in (1, 2):
        for combo in combinations(pids[:8], k):
            total = pf.base + sum(r.facts.of(p).base for p in combo)
            if any(_eq(x, total) for x in later):
                return True
            if any(total >= t and any(_eq(x, total - a) for x in later) for a, t in coupons):
                return True
    return False


def _is_total(r: "Reading", v: float) -> bool:
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
            if any(_eq(v, t) for t in totals):
                return True
    # the order's total less one store coupon its sum meets ("两件一共318元，减30后288元": 凑单)
    coupons = {(a, t) for p in pids for a, t, _c in r.facts.of(p).coupons}
    for k in (2, 3):
        for lines in combinations(pids, k):
            total = sum(r.facts.of(p).base for p in lines)
            if any(total >= t and _eq(v, total - a) for a, t in coupons):
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
    return [float(c.flash_price) for c in pf.campaigns_later if c.type == "flash_sale" and c.flash_price
            and c.start_s > r.room.t]


def _money_values(r: "Reading", pf: ProductFacts, role: str, i: int = 0, q: Quantity | None = None) -> list[float]:
    """The values money in ``role`` may take for product ``pf`` (``q``: the amount, for differences its sentence
    states)."""
    if role == "pay":  # a bundle's price for its quantity is a price one pays too
        return [pf.effective, *pf.bundle_prices, *_later_flash(r, pf, i, clause_only=False)]
    if role == "base":
        return [pf.price, pf.base]
    if role == "reference":
        return [pf.list_price, pf.price, *pf.history]
    if role == "flash":
        return [*pf.flash, pf.effective, *_later_flash(r, pf, i)]  # "秒杀309": the deal price with the coupon stacked is the flash deal too
    if role == "coupon":
        return [a for a, _t, _c in pf.coupons] + _savings(pf)
    if role == "threshold":
        return [t for _a, t, _c in pf.coupons if t > 0]
    if role == "fee":
        return [pf.product.shipping.fee] if pf.product.shipping.fee else [0.0]
    if role == "difference" and q is not None:
        gap = _threshold_gap(r, q, i, pf)
        if gap is not None:
            return gap  # "差30块就够满199": how far the price is from that threshold, nothing else
    if role in ("difference", "savings"):
        return _pairs(r) + _savings(pf) + [a for a, _t, _c in pf.coupons] + (derived.differences(r, q, i, pf) if q is not None else [])
    return []


def _threshold_gap(r: "Reading", q: Quantity, i: int, pf: ProductFacts) -> list[float] | None:
    """A difference followed in its clause by a threshold ("差30块就够满199", "$10.01 short of the $50 minimum"):
    the threshold less the product's prices; ``None`` when no threshold follows."""
    c = r.clauses[i]
    later = [x for x in read_quantities(r.m, r.vocab) if q.end <= x.start < c.end and x.dim in ("money", "plain")]
    for x in later:
        if _role(r, x, i) == "threshold":
            return [x.value - p for p in (pf.base, pf.effective, pf.price) if x.value > p]
    return None


def _check_money(r: "Reading", q: Quantity, i: int, pids: tuple[str, ...]) -> None:
    """Check one amount of money against the products it may be about, by its role; record the claim."""
    role = _role(r, q, i)
    if role == "threshold" and any(_threshold_gap(r, q, i, pf) is not None and
                                   not any(_eq(q.value, t) for _a, t, _c in pf.coupons) for pf in r.pfs(pids)[:1]):
        role = "difference"  # "再凑59块1就够满99": what is missing to the threshold named after it
    if role in ("pay", "upper", "lower") and derived.check_unit_price(r, q, i, pids, role):
        return  # "一斤才7块7", "under $1.90 a pound": a price per unit of the product's quantity
    fee_role = fees.amount_role(r, q, i, after_only=role not in ("pay", "fee"))
    if fee_role is not None:
        fees.check_fee_amount(r, q, i, pids, fee_role)
        return  # "$79 oversize fee", "installation is $99": that field of the product, not what the viewer pays
    v = q.value
    pfs = r.pfs(pids)
    if role == "pay" and (r.vocab.find("ship_words", r.stext(i)) or r.vocab.find("paid_shipping", r.stext(i))) and \
            any(pf.product.shipping.fee and _eq(v, pf.product.shipping.fee) and not _eq(v, pf.effective) for pf in pfs):
        role = "fee"  # "shipping on the Boom Mini is $4.99": the fee, in a sentence about shipping
    ok = False
    hit: ProductFacts | None = None
    for pf in pfs:
        if role == "upper":
            ok = pf.effective < v or pf.base < v
        elif role == "lower":
            ok = pf.effective > v
        else:
            ok = any(_eq(v, x) for x in _money_values(r, pf, role, i, q))
            if not ok and role == "pay":
                ok = _pay_alternatives(r, q, i, pf)
            if not ok and role in ("reference", "base"):
                ok = _is_total(r, v)  # "两件原价128.9": the products' prices before the deal, added
        if ok:
            hit = pf
            break
    answers: list[tuple[str, str | None]] = []
    if hit is not None:
        pid = hit.pid
        if role == "pay" and not any(_eq(v, x) for x in (hit.effective, *hit.bundle_prices)):
            answers.append(("campaign", pid))  # a later flash sale's price: the deal to come, not today's price
        elif role == "pay":
            answers += [("price", pid), ("purchase", pid)]
            dw = r.vocab.rx.get("deal_words")
            if dw is not None and dw.search(r.ctext(i)) and hit.effective < hit.price:
                answers.append(("campaign", pid))
        elif role in ("coupon", "threshold", "flash"):
            answers.append(("campaign", pid))
            if role == "flash" and _eq(v, hit.effective):
                answers += [("price", pid), ("purchase", pid)]
        elif role == "fee":
            answers.append(("shipping:free", pid))
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
    pf = pfs[0]
    what = {"pay": f"pays {_money(pf.effective)}", "base": f"price {_money(pf.price)}",
            "reference": f"was-price {_money(pf.list_price)}", "flash": "no flash sale now" if not pf.flash else
            f"flash price {_money(pf.flash[0])}", "coupon": "coupons " + (", ".join(_money(a) for a, _t, _c in pf.coupons) or "none"),
            "threshold": "thresholds " + (", ".join(_money(t) for _a, t, _c in pf.coupons if t) or "none"),
            "fee": "free shipping" if pf.product.shipping.free_shipping else f"shipping {_money(pf.product.shipping.fee)}",
            "upper": f"pays {_money(pf.effective)}", "lower": f"pays {_money(pf.effective)}",
            "difference": f"no difference or gap of its price ({_money(pf.effective)}) is that",
            "savings": f"no saving on its price ({_money(pf.effective)}) is that"}.get(role, f"pays {_money(pf.effective)}")
    other = [p for p in r.room.products if p.product_id not in pids and _eq(v, r.room.effective_price(p))]
    tail = f" ({_money(v)} is {r.label(other[0].product_id)}'s price)" if other and role == "pay" else ""
    deal = r.vocab.find("coupon_words", r.stext(i)) is not None
    would = {"pay": [("price", pf.pid), ("purchase", pf.pid)] + ([("campaign", pf.pid)] if deal else []),
             "coupon": [("campaign", pf.pid)],
             "threshold": [("campaign", pf.pid)], "flash": [("campaign", pf.pid), ("price", pf.pid)],
             "fee": [("shipping", pf.pid)],
             "difference": [("campaign", pf.pid)] if _threshold_gap(r, q, i, pf) is not None else []}.get(role, [])
    r.claim(q.start, q.end, pids, "price", v, role, True, "false",
            f"{r.label(pf.pid)}: '{r.m.original(q.start, q.end)}' ({role}) but the viewer {what}{tail}"
            if role == "pay" else f"{r.label(pf.pid)}: '{r.m.original(q.start, q.end)}' ({role}) but {what}", would)


def _check_eligibility(r: "Reading", q: Quantity, i: int, pfs: list[ProductFacts], role: str) -> None:
    """A coupon named in a positive clause without a condition must apply to the product: its price (after a
    flash sale) meets the threshold."""
    ct = r.ctext(i)
    if r.clauses[i].question or r.cfind("coupon_conditions", i) or r.negated(i, r.clauses[i].end):
        return
    if not r.cfind("use_coupon", i) and not r.cfind("pay_words", i):
        return  # stating a coupon's terms ("满199减30") is not saying it applies
    if len(pfs) != 1:
        return
    pf = pfs[0]
    v = q.value
    matching = [c for a, t, c in pf.coupons if (role == "coupon" and _eq(a, v)) or (role == "threshold" and _eq(t, v))]
    if not matching:
        return
    if any(pf.base >= c.threshold for c in matching):
        return
    c = matching[0]
    r.claim(q.start, q.end, (pf.pid,), "coupon", c.campaign_id, role, True, "false",
            f"{r.label(pf.pid)}: '{c.title}' needs {_money(c.threshold)}, price is {_money(pf.base)}",
            [("campaign", pf.pid), ("price", pf.pid)])


def _family(r: "Reading", i: int, pfs: list[ProductFacts], clause_only: bool = False,
            pos: int | None = None) -> str | None:
    """Which attribute a time or count in clause ``i`` is about, from its words (returns, warranty, order, delivery,
    shipping, a spec key the products have), or ``None``; ``pos``: where the number stands (when the clause names
    two topics, the nearest word decides)."""
    ct = r.ctext(i)
    v = r.vocab
    near = topics.nearest_family(r, i, pos) if pos is not None else None
    if near is not None:
        return near
    if r.cfind("returns_words", i):
        return "returns"
    if r.cfind("warranty_words", i):
        return "warranty"
    if r.orders or any(m.how == "order" for m in r.mentions):
        if r.cfind("eta_words", i) and not r.cfind("ship_words", i):
            return "order"
    if r.cfind("deliver_words", i) and not r.cfind("ship_words", i):
        return "delivery"
    if r.cfind("ship_words", i):
        return "shipping"
    named = spec_named(r, i, pfs)
    if named is not None:
        return named
    if not clause_only:
        # a clause without its topic word ("You've got a full month - 30 days - to send it back", "Returns: 30
        # days"): the sentence's (or the line's) topic
        sent = r.clauses[i].sentence
        others = [k for k, c in enumerate(r.clauses) if c.sentence == sent and k != i]
        fams: list[tuple[str, int]] = []
        for name, fam in (("returns_words", "returns"), ("warranty_words", "warranty"), ("ship_words", "shipping"),
                          ("deliver_words", "delivery")):
            fams += [(fam, k) for k in others if r.cfind(name, k)]
        if len({f for f, _k in fams}) == 1 and fams[0][0] != "delivery" and \
                not any(re.search(r"\d", r.ctext(k)) for _f, k in fams):
            return fams[0][0]  # one topic in the sentence, in a clause without its own number
    return None


def spec_named(r: "Reading", i: int, pfs: list[ProductFacts]) -> str | None:
    """``spec:KEY`` when clause ``i`` names a spec attribute one of ``pfs`` has (by the locale's attribute words,
    else the words the scenario declares for it), else ``None``."""
    from hat_env.scoring.claims.check_product import room_attributes

    ct = r.ctext(i)
    keys = {k for pf in pfs for k in pf.product.specs}
    for k, rx in r.vocab.attributes.items():
        if k in keys and rx.search(ct):
            return f"spec:{k}"
    for k, (rx, _typ) in room_attributes(r).items():
        if k in keys and rx.search(ct):
            return f"spec:{k}"
    return None


def _fact_in_family(f: NumFact, fam: str) -> bool:
    """Whether a number fact belongs to an attribute family."""
    if fam == "warranty":
        return f.attr in ("warranty", "spec:warranty")
    if fam in ("order", "delivery"):
        return f.attr.startswith("order:")
    return f.attr == fam


def _would(attr: str, pid: str) -> list[tuple[str, str | None]]:
    """What a number claim about ``attr`` would answer (a false one voids it)."""
    out: list[tuple[str, str | None]] = []
    if attr == "shipping":
        out.append(("shipping", pid))
    elif attr in ("returns", "warranty", "spec:warranty"):
        out.append(("after_sales", pid))
        if "warranty" in attr:
            out.append(("spec:warranty", pid))
    elif attr.startswith("spec:") or attr == "stock":
        out.append((attr, pid))
    return out


def _deal_time(r: "Reading", q: Quantity, i: int, pids: tuple[str, ...], pfs: list[ProductFacts],
               record_false: bool = True) -> bool:
    """A time in a clause about a deal ("the launch deal runs for the first ten minutes"): a deal of the product
    must last, have left, or end at that time (within a minute or 10%). Records the claim; returns whether the
    clause was about a deal that has a window."""
    t = r.room.t
    camps = [c for pf in pfs for c in (*pf.campaigns_active, *pf.campaigns_later)]
    if not camps:
        return False
    hours = [x / 3600.0 for c in camps for x in (c.end_s - c.start_s, c.end_s - t, c.end_s, c.start_s - t, c.start_s)
             if x > 0]
    ok = any(abs(q.base - h) <= max(1 / 60, 0.1 * h) for h in hours)
    if not ok and not record_false:
        return False
    orig = r.m.original(q.start, q.end)
    r.claim(q.start, q.end, pids, "deadline", q.base, q.unit, True, "true" if ok else "false",
            "" if ok else f"{r.label(pfs[0].pid)}: '{orig}' but no deal of it lasts, starts or ends then")
    return True


def _convert_time(q: Quantity, dim: str) -> float | None:
    """A time in days/hours as months or the reverse, by the calendar's conventions (a month is 30 days, a year
    365 days): "a month to return it" for 30 days, "365 days of warranty" for 12 months; ``None`` when it does
    not convert to a whole number of the other dimension's units."""
    if q.dim == "time_m" and dim == "time_h":
        return q.value * 8760.0 if q.unit == "years" else q.base * 720.0
    if q.dim == "time_h" and dim == "time_m":
        days = q.base / 24.0
        if abs(days / 365.0 - round(days / 365.0)) < 1e-6 and days >= 365:
            return round(days / 365.0) * 12.0
        if abs(days / 30.0 - round(days / 30.0)) < 1e-6 and days >= 30:
            return float(round(days / 30.0))
    return None


def _approximate(r: "Reading", q: Quantity, i: int) -> bool:
    """Whether the reply marks a (non-money) quantity as approximate ("about 540 g", "约30ml", "30ml左右")."""
    c = r.clauses[i]
    bef, aft = _approx_patterns(r.vocab.locale)
    before = r.text[max(c.start, q.start - 12) : q.start]
    after = r.text[q.end : min(c.end, q.end + 4)]
    return bool((bef is not None and bef.search(before)) or (aft is not None and aft.search(after)))


@lru_cache(maxsize=16)
def _approx_patterns(locale: str) -> tuple["re.Pattern[str] | None", "re.Pattern[str] | None"]:
    """The locale's ``approximate`` words split by where they stand: those anchored at the end of the text
    before a number, and those anchored at the start of the text after it (a sentence-final "~" after a number
    is a tone mark, not "about")."""
    from hat_env.scoring.claims.vocab import load_vocab

    words = [str(w) for w in load_vocab(locale).raw.get("approximate") or ()]
    aft = [w for w in words if w.startswith("^")]
    bef = [w for w in words if not w.startswith("^")]
    return (re.compile("|".join(bef), re.IGNORECASE) if bef else None,
            re.compile("|".join(aft), re.IGNORECASE) if aft else None)


#: How far an approximate quantity ("about half a kilo" for 540 g) may be from the data's value.
APPROX_TOLERANCE = 0.1


def _range_fits(lo: float, hi: float, f: NumFact, facts: list[NumFact]) -> bool:
    """A range the reply states (``lo`` to ``hi``) against fact ``f``: inside one of the data's ranges when the
    data states one in that dimension ("25到30码" of "25-32码"; "25到34码" is not), else holding the data's value
    (a bound: "between $40 and $50" for 45)."""
    ranged = [g for g in facts if g.lo is not None]  # the data's ranges in this dimension (not an FAQ's one value)
    if ranged:
        return any(g.lo - _EPS <= lo and hi <= g.value + _EPS for g in ranged)
    return lo - _EPS <= f.value <= hi + _EPS


def _within(v: float, f: NumFact, single: bool, approx: bool) -> bool:
    """A single value inside a range the data states ("a 12.9-inch iPad" on a stand that fits 4 to 13 inch), or
    an approximate value within :data:`APPROX_TOLERANCE` of the data's value."""
    if single and f.lo is not None and f.lo - _EPS <= v <= f.value + _EPS:
        return True
    return approx and f.value > 0 and abs(v - f.value) <= APPROX_TOLERANCE * f.value + _EPS


#: How far a stated supply duration may be from the pack's count over the daily dose (months differ in length).
SUPPLY_TOLERANCE = 0.15


def _dose_in(text: str, value: float, per_day: "re.Pattern[str]") -> bool:
    """Whether ``value`` stands in a data text right after a per-day word ("成人每天1片")."""
    k = text.find(f"{value:g}")
    return k > 0 and per_day.search(text[max(0, k - 6) : k]) is not None


def _supply(r: "Reading", q: Quantity, i: int, pfs: list[ProductFacts]) -> bool:
    """"一天一片大概能吃两个月", "lasts about two months at one a day": a pack's count (its size or title) over the
    daily dose (a count after a per-day word in the reply's sentence, else in the product's FAQ) in days.
    Records a true or false claim and returns True; returns False (not read here) when no dose is known."""
    per_day, after = r.vocab.rx.get("per_day"), r.vocab.rx.get("per_day_after")
    if per_day is None:
        return False
    st_start = next(c.start for c in r.clauses if c.sentence == r.clauses[i].sentence)
    doses = [x.value for x in read_quantities(r.m, r.vocab) if x.dim in ("count", "plain") and x.value > 0
             and st_start <= x.start and x.end <= r.clauses[i].end and x.start != q.start
             and (per_day.search(r.text[max(st_start, x.start - 6) : x.start])
                  or (after is not None and after.search(r.text[x.end : x.end + 12])))]
    for pf in pfs:
        packs = [f.value for f in pf.numbers if f.dim == "count" and f.value > 1
                 and (f.attr.startswith("spec:") or f.attr == "title")]
        dose = doses[-1] if doses else next((f.value for f in pf.numbers if f.attr == "faq" and f.dim == "count"
                                             and _dose_in(f.label, f.value, per_day)), None)
        if not packs or not dose:
            continue
        days = q.base / 24.0 if q.dim == "time_h" else q.base * 30.0
        ok = any(abs(days - n / dose) <= SUPPLY_TOLERANCE * (n / dose) for n in packs)
        orig = r.m.original(q.start, q.end)
        r.claim(q.start, q.end, (pf.pid,), "supply", days, "days", True, "true" if ok else "false",
                "" if ok else f"{r.label(pf.pid)}: '{orig}' but {packs[0]:g} at {dose:g} a day last {packs[0] / dose:g} days",
                [("spec:*", pf.pid), ("spec:unknown", pf.pid)] if ok else [])
        return True
    return False


def _check_measure(r: "Reading", q: Quantity, i: int, pids: tuple[str, ...]) -> None:
    """Check a time, count, percentage, 折 or spec quantity against the facts of its products; record the claim."""
    pfs = r.pfs(pids)
    if not pfs:
        return
    if q.dim in ("time_h", "time_m"):
        ub = r.vocab.rx.get("usage_duration_before")
        if ub is not None and ub.search(r.text[max(r.clauses[i].start, q.start - 8) : q.start]):
            return  # "已经吃了大半年": how long someone has used it (compliance reads the endorsement)
        age = r.vocab.rx.get("age_after")
        if age is not None and age.match(r.text, q.end):
            return  # "an 8-month-old", "8个月大的狗狗": the age of the viewer's pet or child, not a fact of the product
    if conversions.check_conversion(r, q, i, pids, _approximate(r, q, i)):
        return  # "10斤也就是5公斤", "60 in, roughly 152 cm", "under 2 oz": a restatement or a bound
    sw = r.cfind("supply_words", i) if q.dim in ("time_h", "time_m") else None
    if sw is not None and q.start >= r.clauses[i].start + sw.end() and _supply(r, q, i, pfs):
        return  # how long a pack lasts: its count over the daily dose, not the shelf life
    fam = _family(r, i, pfs, pos=q.start) if q.dim in ("time_h", "time_m", "count") else None
    if q.dim == "time_h" and (r.cfind("flash_words", i) or r.cfind("coupon_words", i)) and \
            _deal_time(r, q, i, pids, pfs, record_false=fam is None):
        return  # a deal's window; with another topic word in the clause, only when it matches one
    ct = r.ctext(i)
    v = r.vocab
    orig = r.m.original(q.start, q.end)
    if q.dim == "count":
        if any(rx.match(r.text, q.end) for rx in v.attributes.values()):
            return  # a count of values ("三个色号", "two colors"): check_lists reads it
        if q.value <= 1 and fam is None and not (r.cfind("stock_context", i) or r.cfind("low_stock", i)):
            return
        if r.cfind("sales_figures", i):
            r.claim(q.start, q.end, pids, "sales", q.value, q.unit, True, "unsupported",
                    f"'{orig}': the data has no sales figures")
            return
        if r.cfind("reviews", i):
            r.claim(q.start, q.end, pids, "reviews", q.value, q.unit, True, "unsupported",
                    f"'{orig}': the data has no reviews")
            return
        c0 = r.clauses[i].start
        if any(c0 + b.start() <= q.start and q.end <= c0 + b.end() for b in r.call("bundle_words", i)):
            return  # the quantity of a deal ("任选2件打九折", "buy 2"): the bundle's, read with the deal
        stockish = r.cfind("in_stock", i) or r.cfind("low_stock", i) or q.unit == "count" and any(
            w in r.text[q.start : q.end].lower() for w in ("left", "in stock", "available", "remaining"))
        if stockish or fam == "stock" or r.cfind("stock_context", i):
            step = 10 ** math.floor(math.log10(q.value)) if q.more and q.value > 0 else 0
            ok = any(_eq(q.value, pf.stock) or (q.more and q.value <= pf.stock < q.value + step) for pf in pfs)
            if ok:
                r.claim(q.start, q.end, pids, "stock", q.value, q.unit, True, "true", "",
                        [("stock", pf.pid) for pf in pfs if _eq(q.value, pf.stock)])
            else:
                r.claim(q.start, q.end, pids, "stock", q.value, q.unit, True, "false",
                        f"{r.label(pfs[0].pid)}: '{orig}' but stock is {pfs[0].stock}", [("stock", pfs[0].pid)])
            return
        # a count of a spec the clause names ("一瓶六十片" for size "60片"): the spec's count, else false
        if fam is not None and fam.startswith("spec:") and q.value != 1 and not r.cfind("buy_words", i):
            spec = [(pf, f) for pf in pfs for f in pf.numbers if f.attr == fam and f.dim == "count"]
            if spec:
                good = [pf for pf, f in spec if _eq(q.base, f.value)]
                if good:
                    r.claim(q.start, q.end, pids, fam, q.value, q.unit, True, "true", "",
                            [(fam, pf.pid) for pf in good])
                else:
                    r.claim(q.start, q.end, pids, fam, q.value, q.unit, True, "false",
                            f"{r.label(spec[0][0].pid)}: '{orig}' but {spec[0][1].label}", [(fam, spec[0][0].pid)])
                return
        # a quantity bought ("买2件"), or a count the data states (spec, bundle, an FAQ answer: "每天2粒")
        facts = [(pf, f) for pf in pfs for f in pf.numbers if f.dim == "count"]
        hit = [(pf, f) for pf, f in facts if _eq(q.base, f.value)]
        if hit:
            r.claim(q.start, q.end, pids, "number", q.value, q.unit, True, "true", "",
                    [a for pf, f in hit if f.attr == "faq" for a in (("spec:unknown", pf.pid), ("spec:*", pf.pid))])
        return
    if q.dim == "percent" and q.value >= 100:
        return
    facts = [f for pf in pfs for f in pf.numbers if f.dim == q.dim]
    extra: list[float] = []
    named = spec_named(r, i, pfs) if q.dim == "percent" else None
    if named is not None and not (r.cfind("coupon_words", i) or r.cfind("flash_words", i) or r.cfind("bundle_words", i)):
        # "30% protein": the attribute the clause names, not a discount the number happens to equal
        facts = [f for f in facts if f.attr == named] or facts
    elif q.dim == "percent":
        for pf in pfs:
            for ref in (pf.price, pf.list_price, pf.base):
                if ref > 0 and pf.effective < ref - 0.004:
                    off = (1 - pf.effective / ref) * 100
                    extra += [math.floor(off), math.ceil(off), round(off, 1)]
                if ref > 0 and pf.base < ref - 0.004:
                    off = (1 - pf.base / ref) * 100
                    extra += [math.floor(off), math.ceil(off), round(off, 1)]
            extra += [float(p) for _q, p in pf.bundles]
    if q.dim == "zhe":
        in_bundle = r.cfind("bundle_words", i) is not None
        for pf in pfs:
            if not in_bundle:
                for ref in (pf.price, pf.list_price):
                    if ref > 0 and pf.effective < ref:
                        z = pf.effective / ref * 10
                        extra += [round(z, 1)] + ([float(round(z))] if abs(z - round(z)) < 0.05 else [])
            extra += [(100 - p) / 10 for _q, p in pf.bundles]
    if fam is not None and q.dim in ("time_h", "time_m"):
        said = [(pf, f) for pf in pfs for f in pf.numbers if f.attr in ("faq", "note") and f.dim == q.dim
                and _eq(f.value, q.base) and topics.shares_words(r, i, f.label)] if not fam.startswith("spec:") else []
        if said:  # "签收48小时内拍照联系客服" restating the FAQ or the after-sales note: its window, whatever the topic word
            r.claim(q.start, q.end, pids, said[0][1].attr, q.base, q.unit, True, "true", "",
                    [a for pf, _f in said for a in (("after_sales", pf.pid), ("spec:unknown", pf.pid))])
            return
        fam_facts = [f for pf in pfs for f in pf.numbers if _fact_in_family(f, fam)]
        if fam == "delivery" and not fam_facts:
            h = pfs[0].product.shipping.ships_within_hours
            r.claim(q.start, q.end, pids, "delivery", q.base, q.unit, True, "unsupported",
                    f"{r.label(pfs[0].pid)}: '{orig}' delivery, but the data only says it ships within {h} h")
            return
        if fam_facts:
            all_facts = facts
            facts = [f for f in fam_facts if f.dim == q.dim]
            if not facts:
                conv = _convert_time(q, fam_facts[0].dim)
                if conv is not None:
                    q = Quantity(conv, q.unit, fam_facts[0].dim, conv, q.start, q.end, None, q.inherited)
                    facts = [f for f in fam_facts if f.dim == q.dim]
            other = [f for f in all_facts if f.attr.startswith("spec:")]
            if not facts and fam.startswith("spec:") and other:
                # the named spec states no time ("60 hours on a charge" where battery is "4400mAh"): the number is
                # about the product's spec that states one (burn_time "60 hours"), checked against those
                facts, fam = other, None
            elif not facts:
                r.claim(q.start, q.end, pids, fam, q.base, q.unit, True, "false",
                        f"{r.label(pfs[0].pid)}: '{orig}' but {fam_facts[0].label}", _would(fam, pfs[0].pid))
                return
    lo = q.lo * (q.base / q.value) if q.lo is not None and q.value else None
    approx = _approximate(r, q, i)
    ok = any(_eq(q.base, f.value) or (lo is not None and _range_fits(lo, q.base, f, facts))
             or _within(q.base, f, lo is None, approx) or conversions.rounds_to(r, q, f.value, f.label)
             for f in facts)
    ok = ok or any(_eq(q.value, x) for x in extra)
    attr = fam or (facts[0].attr if facts else q.dim)
    if ok:
        hit = [f for f in facts if _eq(q.base, f.value) or _within(q.base, f, lo is None, approx)
               or conversions.rounds_to(r, q, f.value, f.label)]
        answers: list[tuple[str, str | None]] = []
        for pf in pfs:
            for f in pf.numbers:
                if f in hit or (lo is not None and lo <= f.value <= q.base and f.dim == q.dim):
                    if f.attr == "shipping":
                        answers.append(("shipping", pf.pid))
                    elif f.attr in ("returns", "warranty"):
                        answers.append(("after_sales", pf.pid))
                    elif f.attr.startswith("spec:"):
                        answers.append(("spec:" + f.attr[5:], pf.pid))
                        if f.attr == "spec:warranty":
                            answers.append(("after_sales", pf.pid))
                    elif f.attr.startswith("order:"):
                        answers.append(("order_eta", f.attr[6:]))
                    elif f.attr == "stock":
                        answers.append(("stock", pf.pid))
                    elif f.attr == "faq":
                        answers += [("spec:unknown", pf.pid), ("spec:*", pf.pid)]
        if q.dim in ("percent", "zhe"):
            answers += [("campaign", pf.pid) for pf in pfs if pf.effective < pf.price]
        r.claim(q.start, q.end, pids, attr, q.base, q.unit, True, "true", "", answers)
        return
    if not facts and not extra:
        r.claim(q.start, q.end, pids, attr, q.base, q.unit, True, "unsupported",
                f"{r.label(pfs[0].pid)}: '{orig}': the data states no such value")
        return
    shown = facts[0].label if facts else f"{q.dim} {extra[0]:g}"
    would = _would(attr, pfs[0].pid) + ([("campaign", pf.pid) for pf in pfs] if q.dim in ("percent", "zhe") else [])
    would += [("spec:*", pfs[0].pid), ("spec:unknown", pfs[0].pid)]  # a wrong value answers no spec question
    r.claim(q.start, q.end, pids, attr, q.base, q.unit, True, "false", f"{r.label(pfs[0].pid)}: '{orig}' but {shown}",
            would)


_LIST_JOIN = re.compile(r"\s*(?:[/、,，]|和|及|与|or|and)\s*")
_MARKER_AFTER = re.compile(r"(?:[.)、:：]\s|\ufe0f?\u20e3)")
_MARKER_BEFORE = re.compile(r"(?:^|\n)[\s*#>•\-]*$")


def _list_marker(text: str, q: Quantity) -> bool:
    """Whether a bare number opens a list item ("1. ", "2) ", "3、", the keycap "2️⃣")."""
    return bool(_MARKER_BEFORE.search(text[max(0, q.start - 8) : q.start])) and bool(_MARKER_AFTER.match(text, q.end))


def read_number_claims(r: "Reading") -> None:
    """Read and check every number claim of the reply (appends to ``r.report.claims``)."""
    qs = read_quantities(r.m, r.vocab)
    markers = derived.per_unit_markers(r, qs)
    idb = r.vocab.rx.get("id_before")
    cd = r.vocab.rx.get("countdown")
    countdowns = [(m.start(), m.end()) for m in cd.finditer(r.text)] if cd is not None else []
    neg_end = -1
    for q in qs:
        if r.in_mention(q.start, q.end) or r.in_mention(q.start, q.start + 1):
            continue
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
        money = _is_money(r, q, i)
        if not money and q.dim == "plain":
            cb = r.vocab.rx.get("count_before")
            named = any(m.how == "name" and 0 <= m.start - q.end <= 1 for m in r.mentions)
            if not named and (cb is None or not cb.search(r.text[max(c.start, q.start - 12) : q.start])):
                continue
            q.dim, q.unit = "count", "count"
        pids, _how = r.subject(q.start, i)
        if money:
            _check_money(r, q, i, pids)
            continue
        if q.dim not in ("percent", "zhe"):
            # a negated quantity, and those listed right after it ("没有165cm/55kg的建议"), assert nothing
            if r.negated(i, q.start) or (neg_end >= 0 and _LIST_JOIN.fullmatch(r.text[neg_end : q.start])):
                neg_end = q.end
                continue
        neg_end = -1
        _check_measure(r, q, i, pids)


__all__ = ["read_number_claims"]
