"""Commerce claims that are not numbers: availability (in stock, sold out, "only a few left"), free or paid
shipping, the carrier, same-day and next-day promises, selling a sold-out item, campaigns at the request's moment
(a flash sale now or later, countdowns and price deadlines, promo codes, "no deal" / "no coupon", a coupon's condition,
bundles and their terms; stacking: :mod:`.check_stacking` and :mod:`.check_stack_rules`,
gifts: :mod:`.check_gifts`), and a product given away. Every word list is the locale's vocabulary (:mod:`.vocab`);
the polarity and subject helpers every detector shares are in :mod:`.check_common`; return-policy claims
(returns, exchange, warranty, return promises) are :mod:`.check_returns`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hat_env.scoring.claims.check_common import bool_fact, exists_claim, claim_group, orders_here, claim_state
from hat_env.scoring.claims.check_common import said_of_data, states_time
from hat_env.scoring.claims.check_sets import together_total
from hat_env.scoring.claims.check_stacking import stacks_here
from hat_env.scoring.claims.tense import later_in_sentence, said_in_sentence
from hat_env.scoring.claims.facts import ProductFacts
from hat_env.scoring.claims.fees import free_fee_word

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading


def read_availability(r: "Reading", i: int) -> None:
    """In stock / sold out / "only a few left" in clause ``i``, checked against the stock of the products it is about
    (each of them when the reply names them all at once)."""
    c0 = r.clauses[i].start
    v = r.vocab
    seen: list[tuple[int, int]] = []
    for name in ("sold_out", "low_stock", "in_stock"):
        for m in r.call(name, i):
            s, e = c0 + m.start(), c0 + m.end()
            if any(a < e and s < b for a, b in seen):
                continue
            seen.append((s, e))
            if name == "sold_out" and _value_unavailable(r, i, s):
                continue
            if said_of_data(r, i, m.start()):
                continue  # "that detail isn't available", "no tengo esa información disponible": no stock claim
            pos = claim_state(r, i, s)
            pids, many = claim_group(r, i, s)
            pfs = r.pfs(pids)
            if not pfs:
                continue
            if name == "low_stock":
                want = "low"
                good = [pf for pf in pfs if 0 < pf.stock <= v.low_stock_max]
                ok = bool(good) if pos else True
            elif name == "in_stock" and pos and v.find("ample_stock", r.m.text[s:e]) is not None:
                want = "ample"  # "现货充足", "plenty left": more than a few
                good = [pf for pf in pfs if pf.stock > v.low_stock_max]
                ok = bool(good)
            else:
                want_in = (name == "in_stock") == pos
                want = "in stock" if want_in else "sold out"
                test = (lambda pf: pf.stock > 0) if want_in else (lambda pf: pf.stock <= 0)
                ok = all(test(pf) for pf in pfs) if many else any(test(pf) for pf in pfs)
                good = [pf for pf in pfs if test(pf)]
            if ok:
                r.claim(s, e, pids, "availability", want, "", pos, "true", "", [("stock", pf.pid) for pf in good])
            else:
                pf = pfs[0]
                # "quedan poquísimas" of a product in stock: false scarcity, yet it says the product is there; with
                # a count in the clause ("solo quedan 2") the count is the answer, and a wrong one answers nothing
                vague = name == "low_stock" and pos and not re.search(r"\d", r.ctext(i))
                r.claim(s, e, pids, "availability", want, "", pos, "false",
                        f"{r.label(pf.pid)}: '{r.m.original(s, e)}' but stock is {pf.stock}",
                        [] if name == "low_stock" else [("stock", pf.pid)])
                if vague and all(x.stock > 0 for x in pfs):
                    r.claim(s, e, pids, "availability", "in stock", "", True, "true", "", [("stock", x.pid) for x in pfs])


def _value_unavailable(r: "Reading", i: int, s: int) -> bool:
    """Whether a sold-out phrase at ``s`` says that the value the viewer asked about is not offered ("beige no hay",
    "en 135 no tenemos"): the viewers asked a spec and neither stock nor a purchase, and words that name no product
    stand before it in its clause."""
    if not any(it.kind == "spec" for it in r.intents) or any(it.kind in ("stock", "purchase") for it in r.intents):
        return False
    c0 = r.clauses[i].start
    lead = r.text[c0:s].strip(" ,.:;¡!¿?-")
    return bool(lead) and not any(c0 <= m.start < s for m in r.mentions)


def read_flash(r: "Reading", i: int) -> None:
    """A flash sale named in clause ``i``: running now (or, with "ended" / "starts later" words, not running) for the
    product at the request's moment."""
    c0 = r.clauses[i].start
    m = r.cfind("flash_words", i)
    if m is None:
        return
    s, e = c0 + m.start(), c0 + m.end()
    if r.cfind("inactive_words", i) is not None or later_in_sentence(r, i, after=True):
        pids, _many = claim_group(r, i, s)
        pfs = r.pfs(pids)
        later = [c for pf in pfs for c in pf.campaigns_later if c.type == "flash_sale" and c.start_s > r.room.t]
        ok = bool(later) and not any(pf.flash for pf in pfs)
        r.claim(s, e, pids, "flash_sale", "later", "", True, "true" if ok else "false",
                "" if ok else f"{r.label(pids[0] if pids else None)}: '{r.m.original(s, e)}' but no flash sale starts later",
                [("campaign", pf.pid) for pf in pfs] if ok else ())
        return
    soon = r.cfind("ending_soon", i) is not None  # "马上就结束了", "ends soon": still on
    # a negation in a clause that stacks deals denies the stacking, not the flash sale it names ("XIAN12不能和秒杀叠加",
    # "el cupón no se puede combinar con la oferta flash": the flash sale is on; :func:`.check_stacking.read_stacking` judges the rest)
    denied = not claim_state(r, i, s) and not stacks_here(r, i)
    ended = not soon and (r.cfind("ended_words", i) is not None or denied or said_in_sentence(r, i, "ended_words"))
    pids, _many = claim_group(r, i, s)
    pfs = r.pfs(pids)
    if not pfs:
        return
    if ended:
        ok = any(not pf.flash for pf in pfs)
        why = "a flash sale is on now"
    else:
        ok = any(pf.flash for pf in pfs)
        later = [c for pf in pfs for c in pf.campaigns_later if c.type == "flash_sale"]
        when = ""
        if later:
            c = later[0]
            when = f" (it ran {c.start_s:g}-{c.end_s:g} s; now is {r.room.t:g} s)"
        why = "no flash sale is on now" + when
    good = [pf for pf in pfs if bool(pf.flash) != ended]
    r.claim(s, e, pids, "flash_sale", not ended, "", not ended, "true" if ok else "false",
            "" if ok else f"{r.label(pfs[0].pid)}: '{r.m.original(s, e)}' but {why}",
            [("campaign", pf.pid) for pf in good] if ok else [("campaign", pfs[0].pid)])


def read_countdown(r: "Reading", i: int) -> None:
    """"Ends in N minutes" / "还剩N分钟": some deal of the product must end then (an upper bound when said as "under")."""
    c0 = r.clauses[i].start
    for m in r.call("countdown", i):
        nums = [g for g in m.groups() if g is not None]
        if len(nums) < 2:
            continue
        n, unit = float(nums[0]), nums[1].lower()
        secs = n * (3600 if unit.startswith(("h", "小")) else 1 if unit.startswith(("s", "秒")) else 60)
        s, e = c0 + m.start(), c0 + m.end()
        pids, _ = claim_group(r, i, s)
        pfs = r.pfs(pids)
        ends = [x for pf in pfs for x in pf.flash_ends] + [c.end_s - r.room.t for pf in pfs for c in pf.campaigns_active
                                                          if c.end_s < r.room.scenario.duration_s]
        bound = re.search(r"under|less than|不到|以内", m.group(), re.I) is not None
        at = r.vocab.rx.get("stream_time_before")
        if at is not None and at.search(r.text, max(0, s - 6), s):
            ends = [x + r.room.t for x in ends]  # "到300秒结束": the stream's clock when it ends, as the tools give it
        ok = any((0 < x <= secs + 1) if bound else abs(x - secs) <= max(10.0, 0.2 * secs) for x in ends)
        r.claim(s, e, pids, "countdown", secs, "s", True, "true" if ok else "unsupported",
                "" if ok else f"'{r.m.original(s, e)}': no deal of {r.label(pids[0] if pids else None)} ends then")
        return


def read_promo_code(r: "Reading", i: int) -> None:
    """A promo code must be one of the room's campaigns."""
    c0 = r.clauses[i].start
    for m in r.call("promo_code", i):
        code = next((g for g in m.groups() if g), None)
        if not code:
            continue
        known = any(code.lower() in (c.campaign_id.lower(), c.title.lower()) or code.lower() in c.title.lower()
                    for c in r.room.campaigns)
        s, e = c0 + m.start(), c0 + m.end()
        r.claim(s, e, (), "promo_code", code, "", True, "true" if known else "unsupported",
                "" if known else f"code '{code}' is not a campaign of this room")


def read_shipping_promise(r: "Reading", i: int) -> None:
    """Same-day or next-day shipping or delivery: the data says "within N hours", so it is unsupported (next-day
    delivery is true of an order whose ETA is one day)."""
    ct = r.ctext(i)
    ship = r.cfind("ship_words", i)
    deliver = r.cfind("deliver_words", i)
    if ship is None and deliver is None:
        return
    for name in ("same_day", "next_day", "ships_on_order"):
        m = r.cfind(name, i)
        if m is None:
            continue
        if name == "ships_on_order" and states_time(r, i):
            continue  # "sale en 24 horas en cuanto lo pidas": the window it gives starts with the order
        c0 = r.clauses[i].start
        s, e = c0 + m.start(), c0 + m.end()
        if not claim_state(r, i, s):
            continue
        pids, _ = claim_group(r, i, s)
        pfs = r.pfs(pids)
        eta_ok = name == "next_day" and deliver is not None and any(
            r.room.orders[o].eta_days == 1 for o in r.orders)
        h = pfs[0].product.shipping.ships_within_hours if pfs else None
        r.claim(s, e, pids, "shipping" if ship is not None else "delivery", name, "", True,
                "true" if eta_ok else "unsupported", "" if eta_ok else
                f"{r.label(pids[0] if pids else None)}: '{ct.strip()}' but the data says it ships within {h} h",
                [("shipping", p) for p in pids[:1]] + [("order_status", o) for o in orders_here(r, i)])
        return


def _name_at(text: str, name: str) -> int:
    """Where carrier name ``name`` stands in ``text`` as a word (-1 when nowhere): a name edged by a Latin letter or
    digit must not continue a longer word ("UPS" is not the tail of "pickups"); a Chinese name
    ("顺丰") may stand inside a run of characters ("顺丰快递")."""
    k = text.find(name)
    while k >= 0:
        before = text[k - 1] if k > 0 else ""
        after = text[k + len(name)] if k + len(name) < len(text) else ""
        left_ok = not (name[0].isascii() and name[0].isalnum() and before.isascii() and before.isalnum())
        right_ok = not (name[-1].isascii() and name[-1].isalnum() and after.isascii() and after.isalnum())
        if left_ok and right_ok:
            return k
        k = text.find(name, k + 1)
    return -1


def read_carrier(r: "Reading", i: int) -> None:
    """A carrier named in a clause must be the product's (names from the room's data and the locale's list)."""
    ct = r.ctext(i).lower()
    names = {p.shipping.carrier for p in r.room.products} | set(r.vocab.carriers)
    said = [n for n in sorted(names, key=len, reverse=True) if n and _name_at(ct, n.lower()) >= 0]
    said = [n for n in said if not any(n != o and n.lower() in o.lower() for o in said)]
    if not said:
        return
    pos = r.clauses[i].start + _name_at(ct, said[0].lower())
    pids, _ = claim_group(r, i, pos)
    pfs = r.pfs(pids)
    if not pfs:
        return
    e = pos + len(said[0])
    good = [pf for pf in pfs if said[0].lower() in pf.product.shipping.carrier.lower()
            or pf.product.shipping.carrier.lower() in said[0].lower()]
    if good:
        r.claim(pos, e, pids, "carrier", said[0], "", True, "true", "", [("shipping:carrier", pf.pid) for pf in good])
    else:
        r.claim(pos, e, pids, "carrier", said[0], "", True, "false",
                f"{r.label(pfs[0].pid)}: '{r.m.original(pos, e)}' but it ships by {pfs[0].product.shipping.carrier}",
                [("shipping:carrier", pfs[0].pid)])


def read_sold_out_sale(r: "Reading", i: int) -> None:
    """Urging to buy (or confirming an order of) a product with no stock is false. It voids the answer to a
    purchase question (what a buyer needs is that it is sold out), not the product's right price: a price
    question is answered by the price, whatever urging follows it (accuracy and compliance judge the urging)."""
    m = r.cfind("buy_words", i)
    if m is None:
        return
    s = r.clauses[i].start + m.start()
    if not claim_state(r, i, s):
        return
    pids, _ = claim_group(r, i, s)
    pfs = r.pfs(pids)
    if pfs and pfs[0].stock <= 0:
        r.claim(s, r.clauses[i].start + m.end(), pids, "availability", "buy", "", True, "false",
                f"{r.label(pfs[0].pid)}: '{r.m.original(s, r.clauses[i].start + m.end())}' but it is sold out",
                [("purchase", pfs[0].pid)])


_NUMBER = re.compile(r"(?<![\d.])\d+(?:\.\d+)?(?![\d.])")


def _named_coupons(r: "Reading", i: int, pfs: "list[ProductFacts]") -> list:
    """The coupons and codes running now for ``pfs`` that the sentence of clause ``i`` names: by their code word
    ("TRAIL15") or by their threshold amount ("needs $150", "满199"), from the room's own campaigns."""
    st = r.stext(i)
    low = st.lower()
    nums = {float(x) for x in _NUMBER.findall(st)}
    out = []
    for pf in pfs:
        for c in pf.campaigns_active:
            if c.type not in ("coupon", "code") or not c.threshold:
                continue
            code = str(getattr(c, "code", "") or "").lower()
            if (code and re.search(rf"(?<![a-z0-9]){re.escape(code)}(?![a-z0-9])", low)) or float(c.threshold) in nums:
                if c not in out:
                    out.append(c)
    return out


def read_no_coupon(r: "Reading", i: int) -> None:
    """"No coupon applies" / "不够满减" is true when no coupon applies to the product at its price now."""
    c0 = r.clauses[i].start
    m = r.cfind("no_coupon", i)
    if m is None:
        return
    pids, _ = claim_group(r, i, c0 + m.start())
    pfs = r.pfs(pids)
    if not pfs:
        return
    good = [pf for pf in pfs if pf.applied_coupon is None]
    if not good:
        named = _named_coupons(r, i, pfs)
        if named:
            # "TRAIL15 needs $150, so it doesn't apply", "满199减30这张它单买够不上": the deal the sentence names by
            # its code or threshold is the one said not to apply
            good = [pf for pf in pfs if all(pf.base < float(c.threshold or 0) for c in named)]
    r.claim(c0 + m.start(), c0 + m.end(), pids, "coupon", "none", "", False, "true" if good else "false",
            "" if good else f"{r.label(pfs[0].pid)}: '{r.m.original(c0 + m.start(), c0 + m.end())}' but "
            f"'{pfs[0].applied_coupon.title if pfs[0].applied_coupon else ''}' applies",
            [("campaign", pf.pid) for pf in (good or pfs[:1])])


def read_bundle_terms(r: "Reading", i: int) -> None:
    """Spoken bundle terms ("第二件半价", "buy one get one") must be the terms of a bundle running now."""
    ct = r.ctext(i)
    c0 = r.clauses[i].start
    for rx, qty, pct in r.vocab.bundle_terms:
        m = rx.search(ct)
        if m is None:
            continue
        pids, _ = claim_group(r, i, c0 + m.start())
        pfs = r.pfs(pids)
        ok = any((qty, pct) in pf.bundles for pf in pfs)
        r.claim(c0 + m.start(), c0 + m.end(), pids, "bundle", m.group(), "", True, "true" if ok else "false",
                "" if ok else f"{r.label(pids[0] if pids else None)}: '{r.m.original(c0 + m.start(), c0 + m.end())}' "
                f"but the bundle is " + (", ".join(f"{q} for {100 - p}%" for pf in pfs for q, p in pf.bundles) or "none"),
                [("campaign", pf.pid) for pf in pfs[:1]])
        return
    _bundle_nxm(r, i)


def _bundle_nxm(r: "Reading", i: int) -> None:
    """An "N for M" bundle said in the locale's short form (``bundle_nxm``: "3x2", "2 por 1": take N, pay M) or as
    "buy M, get one free" (``bundle_buy_free``) must be a bundle running now on its product: N units at
    (N - M) / N off."""
    rx = r.vocab.rx.get("bundle_nxm")
    m = rx.search(r.ctext(i)) if rx is not None else None
    if m is not None:
        n, k = int(m.group(1)), int(m.group(2))
        s, e = r.clauses[i].start + m.start(), r.clauses[i].start + m.end()
    else:
        s, e, n, k = _buy_get_free(r, i)
        if s < 0:
            return
    if not 0 < k < n:
        return
    pids, _ = claim_group(r, i, s)
    pfs = r.pfs(pids)
    if not pfs:
        return
    pct = 100.0 * (n - k) / n
    ok = any(q == n and abs(p - pct) <= 1.5 for pf in pfs for q, p in pf.bundles)
    orig = r.m.original(s, e)
    r.claim(s, e, pids, "bundle", r.text[s:e], "", True, "true" if ok else "false",
            "" if ok else f"{r.label(pids[0] if pids else None)}: '{orig}' but the bundle is "
            + (", ".join(f"{q} for {100 - p}%" for pf in pfs for q, p in pf.bundles) or "none"),
            [("campaign", pf.pid) for pf in pfs[:1]])


_COUNT_WORDS = {"a": 1, "an": 1, "one": 1, "another": 1, "una": 1, "un": 1, "otra": 1, "otro": 1, "two": 2, "dos": 2,
                "three": 3, "tres": 3, "four": 4, "cuatro": 4}
_NTH_WORDS = {"second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5, "5th": 5,
              "segunda": 2, "segundo": 2, "tercera": 3, "tercero": 3, "tercer": 3, "cuarta": 4, "cuarto": 4,
              "quinta": 5, "quinto": 5}


def _count(word: "str | None", table: "dict[str, int]", default: int) -> int:
    """The number a count word ``word`` says (digits or a word of ``table``); ``default`` when none is said, 0
    when the word is no count."""
    if not word:
        return default
    word = word.lower()
    return int(word) if word.isdigit() else table.get(word, 0)


def _buy_get_free(r: "Reading", i: int) -> tuple[int, int, int, int]:
    """A bundle said as "buy N, get M free" (``bundle_buy_free``: groups ``pay``, optional ``free`` (how many come
    free, one when unsaid) and ``nth`` ("get a third one free")) in the sentence of clause ``i``, starting in that
    clause (the phrase may span clauses: "buy 2 and get one free"): ``(start, end, units taken, units paid)`` in
    the reply's text, or ``(-1, -1, 0, 0)`` when none starts there."""
    rx = r.vocab.rx.get("bundle_buy_free")
    c = r.clauses[i]
    s0 = next(x.start for x in r.clauses if x.sentence == c.sentence)
    m = rx.search(r.stext(i)) if rx is not None else None
    if m is None or not c.start <= s0 + m.start() < c.end:
        return -1, -1, 0, 0
    groups = m.groupdict()
    pay = _count(groups.get("pay"), _COUNT_WORDS, 0)
    nth = _count(groups.get("nth"), _NTH_WORDS, 0)
    take = nth or pay + _count(groups.get("free"), _COUNT_WORDS, 1)
    if pay <= 0 or take <= pay:
        return -1, -1, 0, 0
    return s0 + m.start(), s0 + m.end(), take, pay


def read_no_deal_words(r: "Reading", i: int) -> None:
    """"No deal" is true when nothing lowers the product's price and no gift or bundle runs."""
    c = r.clauses[i]
    m = r.cfind("no_deal", i)
    if m is None:
        return
    pids, _ = claim_group(r, i, c.start + m.start())
    pfs = r.pfs(pids)
    price_only = r.vocab.find("no_discount", m.group()) is not None  # a gift is no discount
    good = [pf for pf in pfs if pf.effective >= pf.price and (price_only or (not pf.gifts and not pf.bundles))]
    r.claim(c.start + m.start(), c.start + m.end(), pids, "coupon", "none", "", False,
            "true" if good else "false", "" if good else f"{r.label(pfs[0].pid if pfs else None)}: a deal is running",
            [("campaign", pf.pid) for pf in good])


def read_coupon_condition(r: "Reading", i: int) -> None:
    """A coupon named with its condition ("needs a $50 order") for a product whose price does not meet it
    answers the campaign question truly: no coupon applies."""
    c = r.clauses[i]
    cw = r.cfind("coupon_words", i)
    if cw is None or r.cfind("no_deal", i) is not None or r.cfind("coupon_conditions", i) is None:
        return
    pids, _ = claim_group(r, i, c.start + cw.start())
    pfs = r.pfs(pids)
    unmet = [pf for pf in pfs if any(t > 0 for _a, t, _c in pf.coupons)
             and all(pf.base < t for _a, t, _c in pf.coupons if t > 0)]
    if unmet:
        r.claim(c.start + cw.start(), c.start + cw.end(), pids, "coupon", "condition", "", False, "true", "",
                [("campaign", pf.pid) for pf in unmet])


def read_free_item(r: "Reading", i: int) -> None:
    """"Link 5 is free": a product given away, which no price in the data allows."""
    c = r.clauses[i]
    m = r.cfind("free_item", i)
    if m is None or not claim_state(r, i, c.start + m.start()):
        return
    if free_fee_word(r, i, c.start + m.start()) is not None:
        return  # "shipping itself is free", "installation is free": a fee, read by fees.read_free_fees
    head = r.ctext(i)[: m.start()]
    if r.vocab.find("ship_words", head) or r.vocab.find("deliver_words", head):
        return  # "delivery by FedEx Freight is free": the clause's subject is the shipping, not a product
    pids, _ = claim_group(r, i, c.start + m.start())
    r.claim(c.start + m.start(), c.start + m.end(), pids, "price", 0.0, "pay", True, "false",
            f"{r.label(pids[0] if pids else None)}: '{r.m.original(c.start + m.start(), c.start + m.end())}' but it is not free")


def read_free_shipping(r: "Reading", i: int) -> None:
    """Free shipping claimed."""
    bool_fact(r, i, "free_shipping", "free_shipping", lambda pf: pf.product.shipping.free_shipping, "shipping:free")


def read_paid_shipping(r: "Reading", i: int) -> None:
    """Paid shipping claimed."""
    bool_fact(r, i, "paid_shipping", "free_shipping", lambda pf: pf.product.shipping.free_shipping, "shipping:free",
               claim_value=False)


def _adds_for_a_threshold(r: "Reading", i: int) -> bool:
    """Whether clause ``i``'s bundle words are buying another product with it to reach a coupon's threshold
    ("再凑一支6号洁面一起拍，合计218就满199能减30"): each is a buy-together word after an add-another word of its
    sentence, and the sentence names the threshold."""
    found = r.call("bundle_words", i)
    if not found or r.vocab.find("threshold_reached", r.stext(i)) is None:
        return False
    c0 = r.clauses[i].start
    s0 = min(c.start for c in r.clauses if c.sentence == r.clauses[i].sentence)
    together = r.call("buy_together", i)
    return all(any(t.start() <= m.start() < t.end() for t in together)
               and r.vocab.find("add_another", r.text[s0:c0 + m.start()]) is not None for m in found)


def read_bundles(r: "Reading", i: int) -> None:
    """A bundle deal named: one must run for the product now (a coupon's threshold reached with another
    product is none)."""
    if _adds_for_a_threshold(r, i) or together_total(r, i):
        return
    exists_claim(r, i, "bundle_words", "bundle", lambda pf: bool(pf.bundles or pf.sets), "campaign",
                  "no bundle deal runs now",
                  void=False)


def read_deadline(r: "Reading", i: int) -> None:
    """"Today only" / "price goes up tomorrow": a flash sale or the product's own coupon must be running."""
    exists_claim(r, i, "deadline_words", "deadline", lambda pf: bool(pf.flash) or (
        pf.applied_coupon is not None and bool(pf.applied_coupon.products)), "campaign", "no deal on it ends then")


# the old private names, for code that still imports them
_availability = read_availability
_bundle_terms = read_bundle_terms
_bundles = read_bundles
_carrier = read_carrier
_countdown = read_countdown
_coupon_condition = read_coupon_condition
_deadline = read_deadline
_flash = read_flash
_free_item = read_free_item
_free_shipping = read_free_shipping
_no_coupon = read_no_coupon
_no_deal = read_no_deal_words
_paid_shipping = read_paid_shipping
_promo_code = read_promo_code
_shipping_promise = read_shipping_promise
_sold_out_sale = read_sold_out_sale
