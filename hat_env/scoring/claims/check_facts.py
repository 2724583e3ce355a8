"""Claims that are not numbers: availability, free shipping, exchange, no-questions returns, same-day shipping
promises, coupons (codes, "no deal"), flash sales now, countdowns and deadlines, bundles, stacking, gifts, free
items, guarantees, health effects, features (checked against the product's own specs, FAQ and title), spec
values, order status; and what the reply does socially (greets, discloses it is an AI, says the data does not
have something, leaks tool names). Every word list is the locale's vocabulary (:mod:`.vocab`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hat_env.scoring.claims.facts import ProductFacts

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading

_TOKEN = re.compile(r"[a-z]+|[\u3400-\u9fff]+")


def _state(r: "Reading", i: int, pos: int) -> bool:
    """Polarity of a claim at ``pos`` in clause ``i``: False when negated."""
    return not r.negated(i, pos)


def _group(r: "Reading", i: int, pos: int) -> tuple[tuple[str, ...], bool]:
    """The products a claim at ``pos`` is about, and whether the reply named them all at once ("everything",
    "links 1 to 6": the claim must hold for each)."""
    pids, how = r.subject(pos, i)
    return pids, how == "group"


def _availability(r: "Reading", i: int) -> None:
    ct = r.ctext(i)
    c0 = r.clauses[i].start
    v = r.vocab
    seen: list[tuple[int, int]] = []
    for name in ("sold_out", "low_stock", "in_stock"):
        for m in r.call(name, i):
            s, e = c0 + m.start(), c0 + m.end()
            if any(a < e and s < b for a, b in seen):
                continue
            seen.append((s, e))
            pos = _state(r, i, s)
            pids, many = _group(r, i, s)
            pfs = r.pfs(pids)
            if not pfs:
                continue
            if name == "low_stock":
                want = "low"
                good = [pf for pf in pfs if 0 < pf.stock <= v.low_stock_max]
                ok = bool(good) if pos else True
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
                r.claim(s, e, pids, "availability", want, "", pos, "false",
                        f"{r.label(pf.pid)}: '{r.m.original(s, e)}' but stock is {pf.stock}",
                        [] if name == "low_stock" else [("stock", pf.pid)])


def _bool_fact(r: "Reading", i: int, name: str, attr: str, getter, answer: str, claim_value: bool = True,
               note: str = "") -> None:
    ct = r.ctext(i)
    c0 = r.clauses[i].start
    for m in r.call(name, i):
        s, e = c0 + m.start(), c0 + m.end()
        pol = _state(r, i, s) == claim_value
        pids, _many = _group(r, i, s)
        pfs = r.pfs(pids)
        if not pfs:
            continue
        good = [pf for pf in pfs if bool(getter(pf)) == pol or _in_note(r, i, pf)]
        if good:
            r.claim(s, e, pids, attr, pol, "", pol, "true", "", [(answer, pf.pid) for pf in good])
        else:
            r.claim(s, e, pids, attr, pol, "", pol, "false", f"{r.label(pfs[0].pid)}: '{r.m.original(s, e)}' but {note or attr} is {not pol}",
                    [(answer, pfs[0].pid)])
        return


def _in_note(r: "Reading", i: int, pf: ProductFacts) -> bool:
    """Whether clause ``i`` restates the product's after-sales note ("拆封后非质量问题不支持退换")."""
    from hat_env.text import fuzz

    note = pf.product.returns.note
    if not note:
        return False
    ct = r.ctext(i).strip(" ,，.。!！~～")
    return len(ct) >= 4 and fuzz().partial_ratio(ct.lower(), note.lower()) >= 80


def _exists_claim(r: "Reading", i: int, name: str, attr: str, has, answer: str, why: str, need_positive: bool = True,
                  void: bool = True) -> None:
    """A positive mention of ``name`` needs ``has(pf)`` for the product the clause is about. ``void``: when
    false, it voids the ``answer`` it would have given (an invented extra deal beside a right one does not)."""
    ct = r.ctext(i)
    c0 = r.clauses[i].start
    for m in r.call(name, i):
        s, e = c0 + m.start(), c0 + m.end()
        if need_positive and not _state(r, i, s):
            continue
        pids, _many = _group(r, i, s)
        pfs = r.pfs(pids)
        if not pfs:
            continue
        good = [pf for pf in pfs if has(pf)]
        if good:
            r.claim(s, e, pids, attr, True, "", True, "true", "", [(answer, pf.pid) for pf in good])
        else:
            r.claim(s, e, pids, attr, True, "", True, "false", f"{r.label(pfs[0].pid)}: '{r.m.original(s, e)}' but {why}",
                    [(answer, pfs[0].pid)] if void else [])
        return


def _flash(r: "Reading", i: int) -> None:
    ct = r.ctext(i)
    c0 = r.clauses[i].start
    v = r.vocab
    m = r.cfind("flash_words", i)
    if m is None:
        return
    s, e = c0 + m.start(), c0 + m.end()
    if r.cfind("inactive_words", i) is not None:
        pids, _many = _group(r, i, s)
        pfs = r.pfs(pids)
        later = [c for pf in pfs for c in pf.campaigns_later if c.type == "flash_sale" and c.start_s > r.room.t]
        ok = bool(later) and not any(pf.flash for pf in pfs)
        r.claim(s, e, pids, "flash_sale", "later", "", True, "true" if ok else "false",
                "" if ok else f"{r.label(pids[0] if pids else None)}: '{r.m.original(s, e)}' but no flash sale starts later",
                [("campaign", pf.pid) for pf in pfs] if ok else ())
        return
    ended = r.cfind("ended_words", i) is not None or not _state(r, i, s)
    pids, _many = _group(r, i, s)
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


def _countdown(r: "Reading", i: int) -> None:
    ct = r.ctext(i)
    c0 = r.clauses[i].start
    for m in r.call("countdown", i):
        nums = [g for g in m.groups() if g is not None]
        if len(nums) < 2:
            continue
        n, unit = float(nums[0]), nums[1].lower()
        secs = n * (3600 if unit.startswith(("h", "小")) else 1 if unit.startswith(("s", "秒")) else 60)
        s, e = c0 + m.start(), c0 + m.end()
        pids, _ = _group(r, i, s)
        pfs = r.pfs(pids)
        ends = [x for pf in pfs for x in pf.flash_ends] + [c.end_s - r.room.t for pf in pfs for c in pf.campaigns_active
                                                          if c.end_s < r.room.scenario.duration_s]
        bound = re.search(r"under|less than|不到|以内", m.group(), re.I) is not None
        ok = any((0 < x <= secs + 1) if bound else abs(x - secs) <= max(10.0, 0.2 * secs) for x in ends)
        r.claim(s, e, pids, "countdown", secs, "s", True, "true" if ok else "unsupported",
                "" if ok else f"'{r.m.original(s, e)}': no deal of {r.label(pids[0] if pids else None)} ends then")
        return


def _promo_code(r: "Reading", i: int) -> None:
    ct = r.ctext(i)
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


def _features(r: "Reading", i: int, only: str | None = None) -> None:
    """Features ("waterproof", "noise cancelling", "孕妇能用") claimed, checked against the product's own data
    (its specs, FAQ answers, title, note): said there, denied there (or a ``data_no`` phrase), or not said."""
    ct = r.ctext(i)
    c0 = r.clauses[i].start
    v = r.vocab
    neg = v.rx.get("negation")
    for name, rx in v.features.items():
        if only is not None and name != only:
            continue
        m = rx.search(ct)
        if m is None:
            continue
        s, e = c0 + m.start(), c0 + m.end()
        pol = _state(r, i, s)
        pids, _ = _group(r, i, s)
        pfs = r.pfs(pids)
        if not pfs:
            continue
        absolute = r.cfind("absolute_degree", i) is not None
        verdicts = []
        no = v.features_no.get(name)
        says_no = no is not None and no.search(r.stext(i)) is not None  # the reply restates the data's "no"
        for pf in pfs:
            dm = rx.search(pf.text)
            if no is not None and no.search(pf.text):
                data = False
                if says_no:
                    verdicts.append(("true", ""))
                    continue
            elif dm is None:
                data = None
            else:
                lo = max(0, dm.start() - v.negation_window)
                seg = pf.text[lo : dm.start()]
                cut = max(seg.rfind("."), seg.rfind(","), seg.rfind("。"), seg.rfind(","))
                seg = seg[cut + 1 :] if cut >= 0 else seg
                data = not (neg is not None and neg.search(seg))
            if pol:
                if data is True:
                    ab = absolute and v.find("absolute_degree", pf.text) is None
                    verdicts.append(("unsupported", f"'{ct.strip()}' goes beyond the data") if ab else ("true", ""))
                elif data is False:
                    verdicts.append(("false", "the data says it does not"))
                else:
                    verdicts.append(("unsupported", "the data does not say so"))
            else:
                if data is True:
                    verdicts.append(("false", "the data says it does"))
                elif data is False or r.report.honest_unknown or r.cfind("honest_unknown", i):
                    verdicts.append(("true", ""))
                else:
                    verdicts.append(("unsupported", "the data does not say so"))
        best = next((x for x in verdicts if x[0] == "true"), verdicts[0])
        r.claim(s, e, pids, f"feature:{name}", pol, "", pol, best[0],
                "" if best[0] == "true" else f"{r.label(pfs[0].pid)}: '{r.m.original(s, e)}': {best[1]}",
                [("spec:unknown", pf.pid) for pf in pfs[:1]] + [("spec:*", pf.pid) for pf in pfs[:1]])


def _tokens(s: str) -> set[str]:
    return set(_TOKEN.findall(s.lower()))


def _spec_values(r: "Reading", i: int) -> None:
    """Spec values named in a clause: each must be the product's (its spec for that attribute, or a value the
    locale or the room knows for the attribute); a listed value next to the product's own values that is not
    one of them is invented ("01正红、02豆沙、04枫叶红")."""
    ct = r.ctext(i)
    c0 = r.clauses[i].start
    v = r.vocab
    low = ct.lower()
    asked = {it.attr for it in r.intents if it.kind == "spec" and it.attr}
    for key, rx in v.attributes.items():
        m = rx.search(ct)
        if m is None and key not in asked:
            continue
        s = c0 + (m.start() if m is not None else 0)
        e = c0 + (m.end() if m is not None else len(ct))
        pids, how = r.subject(s, i)
        pfs = r.pfs(pids)
        if not pfs:
            continue
        if how not in ("clause", "group"):
            # weakly attributed: the product (of those it may be about) that has this attribute
            pfs = [x for x in pfs if key in x.spec_text] or pfs
        pf = pfs[0]
        if m is None and not any(it.attr == key and r.room.by_link.get(it.link or -1) is pf.product for it in r.intents):
            continue
        known = set(v.values.get(key, ())) | _room_values(r, key)
        said = [w for w in sorted(known, key=len, reverse=True) if w and re.search(
            (r"\b" + re.escape(w) + r"\b") if w.isascii() else re.escape(w), low)]
        # drop words inside a longer word said ("棉" inside "棉涤混纺")
        said = [w for w in said if not any(w != o and w in o for o in said)]
        if how not in ("clause", "group") and said:
            fits = [x for x in pfs if key in x.spec_text and all(w in x.spec_text[key].lower() for w in said)]
            pf = fits[0] if fits else pf
        value = pf.spec_text.get(key)
        invented = _invented_items(ct, value) if value else []
        if not said and not invented:
            continue
        if value is None:
            if said and _state(r, i, s) and not r.cfind("honest_unknown", i) and m is not None and how == "clause":
                r.claim(s, e, pids, f"spec:{key}", said[0], "", True, "unsupported",
                        f"{r.label(pf.pid)}: '{r.m.original(s, e)}': the data has no {key}")
            continue
        vl = value.lower()
        wrong = [w for w in said if w not in vl and not any(w in part for part in _tokens(vl))]
        wrong = [w for w in wrong if not any(w != k and w in k and k in vl for k in known)]
        wrong += invented
        if wrong and _state(r, i, s):
            r.claim(s, e, pids, f"spec:{key}", wrong[0], "", True, "false",
                    f"{r.label(pf.pid)}: '{wrong[0]}' but {key} is '{pf.product.specs.get(key, value)}'",
                    [(f"spec:{key}", pf.pid)])
        elif not wrong:
            r.claim(s, e, pids, f"spec:{key}", said[0], "", True, "true", "", [(f"spec:{key}", pf.pid)])


def _room_values(r: "Reading", key: str) -> set[str]:
    """The values the room's products give attribute ``key`` (split into parts), lower-case, normalised."""
    from hat_env.text import normalize

    out: set[str] = set()
    for p in r.room.products:
        val = p.specs.get(key)
        if val is not None:
            t = normalize(str(val), r.vocab.locale).text
            out |= {w.strip().lower() for w in re.split(r"[,、，/]| or | and |和|或", t) if w.strip()}
    return out


_ITEM_SPLIT = re.compile(r"[、,，/]|和|或| and | or ")
_CODE = re.compile(r"^\s*(\d{2})\s*\D")


def _invented_items(ct: str, value: str) -> list[str]:
    """Items of an enumeration in ``ct`` shaped like the value's coded parts ("01正红") that are not among them."""
    parts = [p.strip() for p in _ITEM_SPLIT.split(value) if p.strip()]
    codes = {m.group(1) for p in parts if (m := _CODE.match(p))}
    if len(codes) < 2 or not any(p.lower() in ct.lower() for p in parts):
        return []  # the clause is not listing this attribute's values
    out = []
    for item in _ITEM_SPLIT.split(ct):
        mm = re.match(r"\s*(\d{2})(?=[\u3400-\u9fff])", item)
        if mm and mm.group(1) not in codes:
            out.append(item.strip())
    return out


def _order_status(r: "Reading", i: int) -> None:
    ct = r.ctext(i)
    c0 = r.clauses[i].start
    sent = r.clauses[i].sentence
    here = [m for m in r.mentions if r.clauses[r.clause_at(m.start)].sentence == sent]
    oids = [m.order_id for m in here if m.how == "order" and m.order_id]
    if not oids:
        if any(m.how != "order" for m in here):
            return  # a sentence about a product, not an order
        oids = list(r.orders)
    if not oids:
        return
    orders = [r.room.orders[o] for o in oids if o in r.room.orders]
    if not orders:
        return
    for status, rx in r.vocab.order_status.items():
        m = rx.search(ct)
        if m is None:
            continue
        s, e = c0 + m.start(), c0 + m.end()
        if not _state(r, i, s):
            continue
        good = [o for o in orders if o.status == status]
        if good:
            r.claim(s, e, tuple(o.product_id for o in good), "order_status", status, "", True, "true", "",
                    [("order_status", o.order_id) for o in good])
        else:
            o = orders[0]
            r.claim(s, e, (o.product_id,), "order_status", status, "", True, "false",
                    f"order {o.order_id}: '{r.m.original(s, e)}' but its status is {o.status}",
                    [("order_status", o.order_id)])
        return


def _orders_here(r: "Reading", i: int) -> list[str]:
    """The orders a clause is about: named in its sentence, else (a sentence naming no product) those asked."""
    sent = r.clauses[i].sentence
    here = [m for m in r.mentions if r.clauses[r.clause_at(m.start)].sentence == sent]
    oids = [m.order_id for m in here if m.how == "order" and m.order_id]
    if oids or any(m.how != "order" for m in here):
        return oids
    return list(r.orders)


def _positive_unsupported(r: "Reading", i: int, name: str, attr: str, why: str) -> None:
    """A positive mention of list ``name`` in clause ``i`` is unsupported (no data states it)."""
    c0 = r.clauses[i].start
    m = r.cfind(name, i)
    if m is None:
        return
    s, e = c0 + m.start(), c0 + m.end()
    if not _state(r, i, s):
        return
    pids, _ = _group(r, i, s)
    # a promise about an order (a delivery guarantee) voids the order's answer
    r.claim(s, e, pids, attr, True, "", True, "unsupported", f"'{r.m.original(s, e)}': {why}",
            [("order_status", o) for o in _orders_here(r, i)] if attr == "promise" else [])


def _shipping_promise(r: "Reading", i: int) -> None:
    ct = r.ctext(i)
    v = r.vocab
    ship = r.cfind("ship_words", i)
    deliver = r.cfind("deliver_words", i)
    if ship is None and deliver is None:
        return
    for name in ("same_day", "next_day"):
        m = r.cfind(name, i)
        if m is None:
            continue
        c0 = r.clauses[i].start
        s, e = c0 + m.start(), c0 + m.end()
        if not _state(r, i, s):
            continue
        pids, _ = _group(r, i, s)
        pfs = r.pfs(pids)
        eta_ok = name == "next_day" and deliver is not None and any(
            r.room.orders[o].eta_days == 1 for o in r.orders)
        h = pfs[0].product.shipping.ships_within_hours if pfs else None
        r.claim(s, e, pids, "shipping" if ship is not None else "delivery", name, "", True,
                "true" if eta_ok else "unsupported", "" if eta_ok else
                f"{r.label(pids[0] if pids else None)}: '{ct.strip()}' but the data says it ships within {h} h",
                [("shipping", p) for p in pids[:1]] + [("order_status", o) for o in _orders_here(r, i)])
        return


def _carrier(r: "Reading", i: int) -> None:
    """A carrier named in a clause must be the product's (names from the room's data and the locale's list)."""
    ct = r.ctext(i).lower()
    names = {p.shipping.carrier for p in r.room.products} | set(r.vocab.carriers)
    said = [n for n in sorted(names, key=len, reverse=True) if n and n.lower() in ct]
    said = [n for n in said if not any(n != o and n.lower() in o.lower() for o in said)]
    if not said:
        return
    pos = r.clauses[i].start + ct.find(said[0].lower())
    pids, _ = _group(r, i, pos)
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


def _sold_out_sale(r: "Reading", i: int) -> None:
    """Urging to buy (or confirming an order of) a product with no stock is false."""
    ct = r.ctext(i)
    m = r.cfind("buy_words", i)
    if m is None:
        return
    s = r.clauses[i].start + m.start()
    if not _state(r, i, s):
        return
    pids, _ = _group(r, i, s)
    pfs = r.pfs(pids)
    if pfs and pfs[0].stock <= 0:
        r.claim(s, r.clauses[i].start + m.end(), pids, "availability", "buy", "", True, "false",
                f"{r.label(pfs[0].pid)}: '{r.m.original(s, r.clauses[i].start + m.end())}' but it is sold out",
                [("purchase", pfs[0].pid), ("price", pfs[0].pid)])


def _no_coupon(r: "Reading", i: int) -> None:
    """"No coupon applies" / "不够满减" is true when no coupon applies to the product at its price now."""
    ct = r.ctext(i)
    c0 = r.clauses[i].start
    m = r.cfind("no_coupon", i)
    if m is None:
        return
    pids, _ = _group(r, i, c0 + m.start())
    pfs = r.pfs(pids)
    if not pfs:
        return
    good = [pf for pf in pfs if pf.applied_coupon is None]
    r.claim(c0 + m.start(), c0 + m.end(), pids, "coupon", "none", "", False, "true" if good else "false",
            "" if good else f"{r.label(pfs[0].pid)}: '{r.m.original(c0 + m.start(), c0 + m.end())}' but "
            f"'{pfs[0].applied_coupon.title if pfs[0].applied_coupon else ''}' applies",
            [("campaign", pf.pid) for pf in (good or pfs[:1])])


def _effects(r: "Reading", i: int) -> None:
    """An effect of using the product ("皮肤状态特别好", "美白") needs the product's own data to say it."""
    ct = r.ctext(i)
    c0 = r.clauses[i].start
    m = r.cfind("effect_claims", i)
    if m is None or not _state(r, i, c0 + m.start()):
        return
    pids, _ = _group(r, i, c0 + m.start())
    pfs = r.pfs(pids)
    word = m.group().lower()
    if any(word in pf.text for pf in pfs):
        return
    r.claim(c0 + m.start(), c0 + m.end(), pids, "effect", m.group(), "", True, "unsupported",
            f"'{r.m.original(c0 + m.start(), c0 + m.end())}': an effect the product's data does not state")


def _bundle_terms(r: "Reading", i: int) -> None:
    """Spoken bundle terms ("第二件半价", "buy one get one") must be the terms of a bundle running now."""
    ct = r.ctext(i)
    c0 = r.clauses[i].start
    for rx, qty, pct in r.vocab.bundle_terms:
        m = rx.search(ct)
        if m is None:
            continue
        pids, _ = _group(r, i, c0 + m.start())
        pfs = r.pfs(pids)
        ok = any((qty, pct) in pf.bundles for pf in pfs)
        r.claim(c0 + m.start(), c0 + m.end(), pids, "bundle", m.group(), "", True, "true" if ok else "false",
                "" if ok else f"{r.label(pids[0] if pids else None)}: '{r.m.original(c0 + m.start(), c0 + m.end())}' "
                f"but the bundle is " + (", ".join(f"{q} for {100 - p}%" for pf in pfs for q, p in pf.bundles) or "none"),
                [("campaign", pf.pid) for pf in pfs[:1]])
        return


def _no_questions(r: "Reading", i: int) -> None:
    """"No questions asked" / "拆封也能退": a return promise the product's after-sales note must make."""
    c = r.clauses[i]
    m = r.cfind("no_questions", i)
    if m is None or not _state(r, i, c.start + m.start()):
        return
    pids, _ = _group(r, i, c.start + m.start())
    pfs = r.pfs(pids)
    ok = any(m.group().lower() in pf.product.returns.note.lower() for pf in pfs)
    # a condition beyond the policy is false, but the return window beside it still answers
    r.claim(c.start + m.start(), c.start + m.end(), pids, "returns", m.group(), "", True,
            "true" if ok else "unsupported", "" if ok else
            f"'{r.m.original(c.start + m.start(), c.start + m.end())}': the return policy does not say so")


def _no_deal(r: "Reading", i: int) -> None:
    """"No deal" is true when nothing lowers the product's price and no gift or bundle runs."""
    c = r.clauses[i]
    m = r.cfind("no_deal", i)
    if m is None:
        return
    pids, _ = _group(r, i, c.start + m.start())
    pfs = r.pfs(pids)
    good = [pf for pf in pfs if pf.effective >= pf.price and not pf.gifts and not pf.bundles]
    r.claim(c.start + m.start(), c.start + m.end(), pids, "coupon", "none", "", False,
            "true" if good else "false", "" if good else f"{r.label(pfs[0].pid if pfs else None)}: a deal is running",
            [("campaign", pf.pid) for pf in good])


def _coupon_condition(r: "Reading", i: int) -> None:
    """A coupon named with its condition ("needs a $50 order") for a product whose price does not meet it
    answers the campaign question truly: no coupon applies."""
    c = r.clauses[i]
    cw = r.cfind("coupon_words", i)
    if cw is None or r.cfind("no_deal", i) is not None or r.cfind("coupon_conditions", i) is None:
        return
    pids, _ = _group(r, i, c.start + cw.start())
    pfs = r.pfs(pids)
    unmet = [pf for pf in pfs if any(t > 0 for _a, t, _c in pf.coupons)
             and all(pf.base < t for _a, t, _c in pf.coupons if t > 0)]
    if unmet:
        r.claim(c.start + cw.start(), c.start + cw.end(), pids, "coupon", "condition", "", False, "true", "",
                [("campaign", pf.pid) for pf in unmet])


def _free_item(r: "Reading", i: int) -> None:
    """"Link 5 is free": a product given away, which no price in the data allows."""
    c = r.clauses[i]
    m = r.cfind("free_item", i)
    if m is None or not _state(r, i, c.start + m.start()):
        return
    pids, _ = _group(r, i, c.start + m.start())
    r.claim(c.start + m.start(), c.start + m.end(), pids, "price", 0.0, "pay", True, "false",
            f"{r.label(pids[0] if pids else None)}: '{r.m.original(c.start + m.start(), c.start + m.end())}' but it is not free")


def _health(r: "Reading", i: int) -> None:
    """A health effect asserted (not denied, not asked) is unsupported: no product's data states one."""
    c = r.clauses[i]
    hm = r.cfind("health", i)
    if hm is None:
        return
    rep = r.report
    if not _state(r, i, c.start + hm.start()) or r.cfind("health_denial", i):
        rep.health_denial = True
        return
    rep.health_claim = True
    pids, _ = _group(r, i, c.start + hm.start())
    r.claim(c.start + hm.start(), c.start + hm.end(), pids, "health", hm.group(), "", True, "unsupported",
            f"'{r.m.original(c.start + hm.start(), c.start + hm.end())}': a health effect the data does not state")


def _exchange(r: "Reading", i: int) -> None:
    if not r.cfind("returns_words", i) or r.cfind("exchange_words", i):
        _bool_fact(r, i, "exchange_words", "exchange", lambda pf: pf.product.returns.exchange, "after_sales")


def _free_shipping(r: "Reading", i: int) -> None:
    _bool_fact(r, i, "free_shipping", "free_shipping", lambda pf: pf.product.shipping.free_shipping, "shipping:free")


def _paid_shipping(r: "Reading", i: int) -> None:
    _bool_fact(r, i, "paid_shipping", "free_shipping", lambda pf: pf.product.shipping.free_shipping, "shipping:free",
               claim_value=False)


def _bundles(r: "Reading", i: int) -> None:
    _exists_claim(r, i, "bundle_words", "bundle", lambda pf: bool(pf.bundles), "campaign", "no bundle deal runs now",
                  void=False)


def _gifts(r: "Reading", i: int) -> None:
    _exists_claim(r, i, "gift_words", "gift", lambda pf: bool(pf.gifts), "campaign", "no gift comes with it now",
                  void=False)


def _deadline(r: "Reading", i: int) -> None:
    _exists_claim(r, i, "deadline_words", "deadline", lambda pf: bool(pf.flash) or (
        pf.applied_coupon is not None and bool(pf.applied_coupon.products)), "campaign", "no deal on it ends then")


def _stacking(r: "Reading", i: int) -> None:
    _exists_claim(r, i, "stacking_words", "stacking", lambda pf: (bool(pf.flash) and pf.applied_coupon is not None)
                  or bool(pf.bundles), "campaign", "the data stacks no deals on it")


def _unsupported_lists(r: "Reading", i: int) -> None:
    for name, attr, why in _UNSUPPORTED:
        if r.has(name):
            _positive_unsupported(r, i, name, attr, why)


#: Lists whose positive mention is unsupported by any data: (list, attribute, why).
_UNSUPPORTED = (
    ("guarantee", "promise", "the data guarantees nothing"),
    ("certification", "certification", "the data states no such certification"),
    ("absolute_price", "price", "the data has no prices of other sellers"),
    ("ranking", "ranking", "the data ranks nothing"),
    ("sales_figures", "sales", "the data has no sales figures"),
    ("reviews", "reviews", "the data has no reviews"),
)

#: Per-clause detectors and the lists that must occur somewhere in the reply for each to run (a detector whose
#: lists are all absent is skipped for the whole reply).
_DETECTORS: tuple[tuple[tuple[str, ...], "object"], ...] = (
    (("sold_out", "low_stock", "in_stock"), _availability),
    (("free_shipping",), _free_shipping),
    (("paid_shipping",), _paid_shipping),
    (("exchange_words",), _exchange),
    (("no_questions",), _no_questions),
    (("same_day", "next_day"), _shipping_promise),
    (("flash_words",), _flash),
    (("countdown",), _countdown),
    (("promo_code",), _promo_code),
    (("no_deal",), _no_deal),
    (("coupon_conditions",), _coupon_condition),
    (("bundle_words",), _bundles),
    (("gift_words",), _gifts),
    (("deadline_words",), _deadline),
    (("stacking_words",), _stacking),
    (("free_item",), _free_item),
    (tuple(n for n, _a, _w in _UNSUPPORTED), _unsupported_lists),
    (("buy_words",), _sold_out_sale),
    (("no_coupon",), _no_coupon),
    (("effect_claims",), _effects),
    (("health",), _health),
)


def read_fact_claims(r: "Reading", tool_names: tuple[str, ...]) -> None:
    """Read and check every non-number claim of the reply, and the reply's social acts (fills ``r.report``)."""
    rep = r.report
    low = r.text.lower()
    rep.honest_unknown = r.has("honest_unknown")
    rep.unavailable = r.has("unavailable")
    rep.greeting = r.has("greeting")
    rep.insult = r.has("insult")
    rep.leak = any(n and "_" in n and n.lower() in low for n in tool_names) or r.has("leak_words")
    rep.health_denial = r.has("health_denial")
    stated = [i for i, c in enumerate(r.clauses) if not c.question]
    if r.has("ai_disclosure"):
        rep.ai_disclosure = True
    if r.has("human_claim"):
        for i, c in enumerate(r.clauses):
            hc = r.cfind("human_claim", i)
            if hc is not None and _state(r, i, c.start + hc.start()):
                rep.human_claim = True
    for names, fn in _DETECTORS:
        if any(r.has(n) for n in names):
            for i in stated:
                fn(r, i)  # type: ignore[operator]
    if r.vocab.bundle_terms:
        for i in stated:
            _bundle_terms(r, i)
    carriers = {p.shipping.carrier for p in r.room.products} | set(r.vocab.carriers)
    if any(cn and cn.lower() in low for cn in carriers):
        for i in stated:
            _carrier(r, i)
    if any(r.has(n) for n in ("features",)) or r.vocab.features:
        for name, rx in r.vocab.features.items():
            if rx.search(r.text):
                for i in stated:
                    _features(r, i, only=name)
    if r.vocab.attributes:
        for i in stated:
            _spec_values(r, i)
    if r.orders or any(m.how == "order" for m in r.mentions):
        for i in stated:
            _order_status(r, i)


__all__ = ["read_fact_claims", "ProductFacts"]
