"""The reference agent's reply composer: :func:`compose_reply` turns :class:`ReplyPart` values (an intent plus
facts read from canonical tool results) into a short spoken reply that states every required fact and never uses a
forbidden term.

The sentences that state facts are written here, per locale; the fixed phrases (social replies, spec labels, order
status phrases, separators) are the ``reply`` section of the locale file (:mod:`hat_env.locales`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hat_env.agents.reply_catalog import (
    after_sales_variants, code_phrase, deal_variants, other_deal_words, shipping_variants,
)
from hat_env.locales import ReplyPhrases, get_locale
from hat_env.sim.campaigns import fmt_money
from hat_env.sim.vocab import NO_CAMPAIGN_WORDS, ORDER_STATUS_WORDS, SOLD_OUT_WORDS
from hat_env.types import Intent

#: Terms a reply must never contain (absolute/advertising-law terms, checked case-insensitively).
FORBIDDEN_REPLY_TERMS: tuple[str, ...] = (
    "最", "第一", "唯一", "顶级", "国家级", "极品", "全网最低", "NO.1", "best", "#1", "guaranteed", "cure",
)
#: Scarcity / human-claim phrases the phrasebook avoids, on top of :data:`FORBIDDEN_REPLY_TERMS`.
_AVOID_TERMS: tuple[str, ...] = FORBIDDEN_REPLY_TERMS + (
    "只剩", "仅剩", "最后", "手慢", "抢", "限时", "限量", "真人", "hurry", "only", "last", "limited",
    "left", "human", "real person", "selling fast",
)


@dataclass(slots=True)
class ReplyPart:
    """One thing the reply must answer: an intent and the facts read for it from canonical tool results.

    ``facts`` by intent kind (all optional keys may be left out):

    * price: ``{"final_price": 89.0, "title": str, "list_price": float, "coupon_amount": 10}`` (or the whole
      product view, whose ``coupon`` dict gives the amount)
    * spec: ``{"attr": "shade", "value": "01 自然色", "label": "色号", "type": "text"}`` (a missing value is
      answered as unavailable; ``label`` and ``type`` from the room's vocabulary, when known)
    * stock: ``{"stock": 25}``
    * campaign: ``{"campaigns": [campaign views], "coupon_amount": 10, "price": 99}``: ``coupon_amount`` (or
      the view's ``coupon`` dict) is the coupon that applies now, ``None`` when none does, and wins over the
      list; without it, the largest listed coupon whose threshold ``price`` meets is taken. A campaign intent
      whose ``attr`` names a kind of deal (``bundle``, ``code``, ``gift``) is answered with that deal when the
      list has one (a bundle's price and what stacks with it: :mod:`hat_env.agents.reply_catalog`)
    * shipping: ``{"ships_within_hours": 48, "carrier": str, "free_shipping": True, "fee": 0.0}``, and when the
      record has them ``ships_in`` (a window), ``oversize_fee``, ``cold_chain``, ``installation_fee``
    * after_sales: ``{"return_days": 7, "warranty_months": 12, "exchange": True}`` (``return_days`` 0: no
      returns; ``warranty`` ``{"value": 2, "unit": "years"}`` when the record has it)
    * order_status: ``{"status": "shipped", "eta_days": 2, "order_id": "A1001"}``
    * compare: ``{"final_price": 89, "final_price2": 99, "title": str, "title2": str}`` (or
      ``{"items": [{"title", "final_price", "link"}, {...}]}`` / ``{"products": [view1, view2]}``, which win)
    * purchase: ``{"final_price": 89, "coupon_amount": 10, "pinned": True, "coupon_sent": True}``; the coupon
      is mentioned when ``coupon_sent`` is true (or an amount), or when ``coupon_sent`` is absent and
      ``coupon_amount`` is set; ``coupon_sent: False`` means no coupon went out
    * chitchat, troll, injection: ``{}``
    * any kind: ``{"unavailable": True}`` when the tool failed
    """

    intent: Intent
    facts: dict[str, Any] = field(default_factory=dict)


def _money(x: float, loc: str) -> str:
    return f"{fmt_money(x)}元" if loc == "zh_CN" else f"${fmt_money(x)}"


def _safe(s: Any) -> bool:
    """Whether a fact string may be quoted in a reply: short and free of forbidden or risky terms."""
    if not isinstance(s, str) or not s or len(s) > 24:
        return False
    low = s.lower()
    return not any(t.lower() in low for t in _AVOID_TERMS)


def _num(x: Any) -> float | None:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return None
    return float(x)


def _int_str(x: float) -> str:
    return fmt_money(x)


def _coupon_amount(facts: dict[str, Any]) -> float | None:
    c = _num(facts.get("coupon_amount"))
    if c is not None and c > 0:
        return c
    cp = facts.get("coupon")
    if isinstance(cp, dict):
        c = _num(cp.get("amount"))
        if c is not None and c > 0:
            return c
    return None


def _refs(link: int | None, loc: str) -> tuple[str, str, str]:
    """(full reference at sentence start, short reference at sentence start, reference mid-sentence)."""
    if loc == "zh_CN":
        if link is None:
            return "这款", "这款", "这款"
        return f"{link}号链接", f"{link}号", f"{link}号链接"
    if link is None:
        return "This one", "This one", "this one"
    return f"Link {link}", f"Link {link}", f"link {link}"


def _unavailable(intent: Intent, loc: str) -> list[str]:
    if intent.kind == "order_status":
        ref_zh = f"订单{intent.order_id}" if intent.order_id else "订单"
        ref_en = f"order {intent.order_id}" if intent.order_id else "your order"
    else:
        ref_zh = _refs(intent.link, "zh_CN")[1] if intent.link is not None else "这个"
        ref_en = _refs(intent.link, "en_US")[2] if intent.link is not None else "that"
    if loc == "zh_CN":
        return [f"{ref_zh}的信息暂时查不到，稍后再告诉大家", f"{ref_zh}暂时查不到", "暂时查不到"]
    return [f"Sorry, I can't check {ref_en} right now", f"Sorry, can't check {ref_en}", "Sorry, can't check"]


def _variants(part: ReplyPart, loc: str, R: ReplyPhrases) -> list[str]:
    """Three wordings of one part, longest first; each states the part's required facts (``R``: the locale's
    phrase tables)."""
    it = part.intent
    f = part.facts or {}
    k = it.kind
    zh = loc == "zh_CN"
    M = lambda x: _money(x, loc)  # noqa: E731
    if k == "chitchat":
        return list(R.chitchat)
    if k == "troll":
        return list(R.troll)
    if k in ("identity", "efficacy", "other_language"):
        return list(getattr(R, k) or R.chitchat)
    if k == "injection":
        v = list(R.injection)
        if it.payload:
            v = [s for s in v if it.payload not in s] or [R.injection_short]
            while len(v) < 3:
                v.append(v[-1])
        return v
    if f.get("unavailable"):
        return _unavailable(it, loc)
    L, Ls, Lm = _refs(it.link, loc)
    if k == "price":
        fp = _num(f.get("final_price"))
        if fp is None:
            return _unavailable(it, loc)
        c = _coupon_amount(f)
        title = f.get("title")
        code = code_phrase(f, zh, _safe)
        if zh:
            t = f"{title}，" if _safe(title) else ""
            full = f"{L}{t}领{M(c)}券后到手{M(fp)}" if c else f"{L}{t}现在到手{M(fp)}"
            if code:
                full = f"{L}{t}领{M(c)}券再用优惠码{code}到手{M(fp)}" if c else f"{L}{t}用优惠码{code}到手{M(fp)}"
            return [full, f"{Ls}到手{M(fp)}", f"到手{M(fp)}"]
        t = f" ({title})" if _safe(title) else ""
        full = f"{L}{t} is {M(fp)} after the {M(c)} coupon" if c else f"{L}{t} is {M(fp)} now"
        if code:
            full = (f"{L}{t} is {M(fp)} after the {M(c)} coupon and code {code}" if c
                    else f"{L}{t} is {M(fp)} with code {code}")
        return [full, f"{Ls} is {M(fp)}", f"It's {M(fp)}"]
    if k == "spec":
        v = f.get("value")
        if v is None or v == "":
            return _unavailable(it, loc)
        v = str(v)
        attr = f.get("attr") or it.attr or ""
        lab = f.get("label") or R.spec_labels.get(attr, attr.replace("_", " ") if attr else R.generic_spec_label)
        if f.get("type") == "bool":
            if zh:
                return [f"{L}{lab}：{v}", f"{Ls}{lab}：{v}", f"{lab}：{v}"]
            return [f"{L}: {lab}, {v}", f"{Ls} {lab}: {v}", f"{lab}: {v}"]
        if zh:
            return [f"{L}的{lab}是{v}", f"{Ls}{lab}：{v}", f"{lab}：{v}"]
        return [f"The {lab} of {Lm} is {v}", f"{Ls} {lab}: {v}", v]
    if k == "stock":
        n = _num(f.get("stock"))
        if n is None:
            return _unavailable(it, loc)
        ni = _int_str(n)
        if n > 0:
            if zh:
                return [f"{L}有货，库存{ni}件", f"{Ls}库存{ni}件", f"库存{ni}"]
            return [f"{L} is in stock, {ni} available", f"{Ls}: {ni} in stock", f"{ni} in stock"]
        so = SOLD_OUT_WORDS[loc][0]
        if zh:
            return [f"{L}目前{so}了，可以看看其他链接", f"{Ls}{so}了", so]
        return [f"{L} is {so} at the moment, feel free to check the other links", f"{Ls} is {so}", f"It's {so}"]
    if k == "campaign":
        # The coupon that applies (threshold met) is the product view's ``coupon``/``coupon_amount`` when the
        # facts carry it; otherwise the largest coupon in the campaigns list whose threshold the price meets
        # (every coupon when no price is known).
        coupons: list[tuple[float, float]] = []
        flash = _num(f.get("flash_price"))
        camps = f.get("campaigns")
        if isinstance(camps, list):
            for cv in camps:
                if not isinstance(cv, dict):
                    continue
                if cv.get("type") == "coupon":
                    a = _num(cv.get("amount"))
                    if a is not None and a > 0:
                        coupons.append((a, _num(cv.get("threshold")) or 0.0))
                elif cv.get("type") == "flash_sale":
                    fp = _num(cv.get("flash_price"))
                    if fp is not None and fp > 0 and (flash is None or fp < flash):
                        flash = fp
        coupon: float | None = None
        coupon_th = 0.0
        if "coupon_amount" in f or "coupon" in f:
            coupon = _coupon_amount(f)
            if coupon:
                coupon_th = next((th for a, th in coupons if a == coupon), 0.0)
                cp = f.get("coupon")
                if isinstance(cp, dict) and _num(cp.get("threshold")):
                    coupon_th = _num(cp.get("threshold")) or 0.0
        else:
            base = _num(f.get("price"))
            if base is not None and flash is not None:
                base = min(base, flash)
            for a, th in coupons:
                if (base is None or base >= th) and (coupon is None or a > coupon):
                    coupon, coupon_th = a, th
        if it.attr:
            focused = deal_variants(f, it.attr, L if it.link is not None else None, Ls, zh, M, _safe, coupon, flash)
            if focused is not None:
                return focused
        if coupon:
            if zh:
                full = f"{L}可以领{M(coupon)}券"
                if coupon_th > 0:
                    full += f"，满{M(coupon_th)}可用"
                if flash:
                    full += f"，活动价{M(flash)}"
                return [full, f"{Ls}有{M(coupon)}券", f"{M(coupon)}券"]
            full = f"{L} has a {M(coupon)} coupon"
            if coupon_th > 0:
                full += f" for orders over {M(coupon_th)}"
            if flash:
                full += f", plus a sale price of {M(flash)}"
            return [full, f"{Ls}: {M(coupon)} coupon", f"{M(coupon)} coupon"]
        if flash:
            if zh:
                return [f"{L}现在活动价{M(flash)}", f"{Ls}活动价{M(flash)}", f"活动价{M(flash)}"]
            return [f"{L} has a sale price of {M(flash)}", f"{Ls}: sale price {M(flash)}", f"Sale price {M(flash)}"]
        deal = _other_deal(camps, zh, M)
        if deal is not None:
            full, short = deal
            if zh:
                return [f"{L}{full}", f"{Ls}{short}", short]
            return [f"{L}: {full}", f"{Ls}: {short}", short]
        nc = NO_CAMPAIGN_WORDS[loc]
        if zh:
            return [f"{L}{nc[2]}哦，现在的价格就是到手价", f"{Ls}{nc[0]}", nc[0]]
        return [f"{L} has {nc[0]} at the moment", f"{Ls}: {nc[0]}", f"There's {nc[0]}"]
    if k == "shipping":
        h = _num(f.get("ships_within_hours"))
        if h is None:
            return _unavailable(it, loc)
        windowed = shipping_variants(f, L, Ls, zh, M, _safe(f.get("carrier")))
        if windowed is not None:
            return windowed
        hs = _int_str(h)
        carrier = f.get("carrier")
        free = f.get("free_shipping")
        fee = _num(f.get("fee"))
        if zh:
            full = f"{L}付款后{hs}小时内发货"
            if _safe(carrier):
                full += f"，{carrier}"
            if free is True:
                full += "，包邮"
            elif fee:
                full += f"，运费{M(fee)}"
            return [full, f"{Ls}{hs}小时内发货", f"{hs}小时内发货"]
        full = f"{L} ships within {hs} hours"
        if _safe(carrier):
            full += f" via {carrier}"
        if free is True:
            full += ", free shipping"
        elif fee:
            full += f", shipping is {M(fee)}"
        return [full, f"{Ls} ships within {hs}h", f"Ships in {hs}h"]
    if k == "after_sales":
        d = _num(f.get("return_days"))
        if d is None:
            return _unavailable(it, loc)
        policy = after_sales_variants(f, L, Ls, zh)
        if policy is not None:
            return policy
        ds = _int_str(d)
        w = _num(f.get("warranty_months")) or 0
        ex = f.get("exchange") is True
        if zh:
            if d > 0:
                full = f"{L}支持{ds}天无理由退货" + ("，也能换货" if ex else "")
                short = [f"{Ls}{ds}天可退", f"{ds}天可退"]
            else:
                full = f"{L}不支持无理由退货，退货期{ds}天"
                short = [f"{Ls}退货期{ds}天", f"退货期{ds}天"]
            if w > 0:
                full += f"，保修{_int_str(w)}个月"
            return [full] + short
        if d > 0:
            full = f"{L} has {ds}-day returns" + (" and exchanges" if ex else "")
        else:
            full = f"{L} has a {ds}-day return window, so no free returns"
        if w > 0:
            full += f", with a {_int_str(w)}-month warranty"
        return [full, f"{Ls}: {ds}-day returns", f"{ds}-day returns"]
    if k == "order_status":
        st = f.get("status")
        if not isinstance(st, str):
            return _unavailable(it, loc)
        oid = f.get("order_id") or it.order_id
        oid_s = str(oid) if oid and _safe(str(oid)) else ""
        eta = _num(f.get("eta_days")) or 0
        es = _int_str(eta)
        if zh:
            word = R.order_status.get(st, ORDER_STATUS_WORDS.get(st, {}).get(loc, [st])[0])
            tail = f"，预计{es}天送达" if eta > 0 else ""
            short_tail = f"，{es}天到" if eta > 0 else ""
            return [f"订单{oid_s}{word}{tail}", f"订单{oid_s}{word}{short_tail}", f"{word}{short_tail}"]
        phrase = R.order_status.get(st, f"is {st}")
        word = min(ORDER_STATUS_WORDS.get(st, {}).get(loc, [st]), key=len)
        tiny_tail = f", {es}d" if eta > 0 else ""
        days = "day" if eta == 1 else "days"
        tail = f", about {es} {days} to arrive" if eta > 0 else ""
        short_tail = f", {es} {days}" if eta > 0 else ""
        ref = f"order {oid_s}" if oid_s else "order"
        return [
            f"Your {ref} {phrase}{tail}",
            f"{ref[0].upper()}{ref[1:]} {phrase}{short_tail}",
            f"Order {word}{tiny_tail}",
        ]
    if k == "compare":
        p1, p2 = _num(f.get("final_price")), _num(f.get("final_price2"))
        t1, t2 = f.get("title"), f.get("title2")
        prods = f.get("items") if isinstance(f.get("items"), list) else f.get("products")
        if isinstance(prods, list) and len(prods) >= 2 and isinstance(prods[1], dict):
            a = prods[0] if isinstance(prods[0], dict) else {}
            b = prods[1]
            p1, p2 = _num(a.get("final_price")), _num(b.get("final_price"))
            t1, t2 = a.get("title"), b.get("title")
        if p1 is None or p2 is None:
            return _unavailable(it, loc)
        n1 = it.link
        n2 = it.link2
        if zh:
            r1 = f"{n1}号" if n1 is not None else "这款"
            r2 = f"{n2}号" if n2 is not None else "另一款"
            x1 = f"{t1}" if _safe(t1) else ""
            x2 = f"{t2}" if _safe(t2) else ""
            return [
                f"{r1}{x1}到手{M(p1)}，{r2}{x2}到手{M(p2)}，按需求选哦",
                f"{r1}{M(p1)}，{r2}{M(p2)}",
                f"{M(p1)}对{M(p2)}",
            ]
        r1 = f"link {n1}" if n1 is not None else "the first one"
        r2 = f"link {n2}" if n2 is not None else "the other one"
        return [
            f"{r1[0].upper()}{r1[1:]} is {M(p1)} and {r2} is {M(p2)}, pick what fits your needs",
            f"{r1[0].upper()}{r1[1:]} {M(p1)}, {r2} {M(p2)}",
            f"{M(p1)} vs {M(p2)}",
        ]
    if k == "purchase":
        fp = _num(f.get("final_price"))
        if fp is None:
            return _unavailable(it, loc)
        sent = f.get("coupon_sent")
        if sent is None or sent is True:
            c = _coupon_amount(f)
        else:
            c = _num(sent) if _num(sent) else None
        pinned = f.get("pinned") is True
        code = code_phrase(f, zh, _safe)
        if zh:
            head = f"{L}已经给大家挂上了，" if pinned else f"{L}直接拍就可以，"
            ct = f"，{M(c)}券已经发了，记得领" if c else ""
            ct += f"，下单输入优惠码{code}" if code else ""
            cs = f"，{M(c)}券已发" if c else ""
            return [f"{head}到手{M(fp)}{ct}", f"{Ls}到手{M(fp)}{cs}", f"到手{M(fp)}{cs}"]
        head = f"{L} is pinned for you, " if pinned else f"{L} is ready to order, "
        ct = f", and a {M(c)} coupon was just sent" if c else ""
        ct += f", use code {code} at checkout" if code else ""
        cs = f", {M(c)} coupon sent" if c else ""
        return [f"{head}{M(fp)} final price{ct}", f"{Ls} {M(fp)}{cs}", f"{M(fp)} + {M(c)} coupon" if c else M(fp)]
    return _unavailable(it, loc)


_SOCIAL_KINDS = frozenset({"chitchat", "troll"})


def _other_deal(camps: Any, zh: bool, M: Any) -> tuple[str, str] | None:
    """``(full, short)`` words for a running deal when no coupon applies at this price and there is no flash
    sale: a coupon whose threshold the price does not reach, a gift, or a bundle (``None`` when there is none)."""
    if not isinstance(camps, list):
        return None
    for cv in camps:
        if not isinstance(cv, dict):
            continue
        t = cv.get("type")
        if t == "coupon" and _num(cv.get("amount")):
            a, th = M(_num(cv["amount"])), _num(cv.get("threshold")) or 0.0
            if zh:
                return (f"满{M(th)}减{a}", f"满{M(th)}减{a}") if th else (f"有{a}券", f"{a}券")
            return (f"{a} off orders over {M(th)}", f"{a} off {M(th)}+") if th else (f"{a} coupon", f"{a} coupon")
        if t == "gift" and _safe(cv.get("gift")):
            return (f"下单送{cv['gift']}", f"送{cv['gift']}") if zh else (f"free gift: {cv['gift']}", f"gift: {cv['gift']}")
        if t == "bundle" and _safe(cv.get("title")):
            return (f"有{cv['title']}活动", cv["title"]) if zh else (f"bundle deal: {cv['title']}", cv["title"])
        if t in ("bundle", "code"):  # a title too long or risky to quote: say the deal's terms
            words = other_deal_words(cv, zh, M, _safe)
            if words is not None:
                return words
    return None


def compose_reply(parts: list[ReplyPart], locale: str, max_chars: int = 120) -> str:
    """Write the host's spoken reply for ``parts``, in ``locale``, at most ``max_chars`` characters.

    Args:
        parts: what to answer, in order (duplicates that would read the same are said once).
        locale: ``"zh_CN"`` (Chinese sentences joined with "。") or ``"en_US"`` (English, joined with ". ").
        max_chars: the length limit, counted with ``len()``.

    Returns:
        The reply. Each part states its required facts (price with currency, spec value verbatim, stock number
        or a sold-out word, coupon amount / flash price / no-campaign word, shipping hours, return days, order
        status word and ETA, both compare prices, purchase price and the sent coupon, an unavailable word when
        the tool failed); social parts greet, redirect calmly, or refuse without repeating the payload. No
        forbidden term, no scarcity, no human claim, no number that is not a fact (or a link / order id).
        When too long, parts switch to shorter wordings one at a time (the longest first); only when every
        part is at its shortest are parts dropped (chitchat/troll first, then from the end), and a single
        remaining part is cut at ``max_chars`` as the last resort. With up to 3 parts and ``max_chars >= 60``
        every part's facts survive for ordinary fact sizes.
    """
    loc = locale
    R = get_locale(loc).reply
    max_chars = max(1, int(max_chars))
    items: list[tuple[str, list[str]]] = []
    seen: set[str] = set()
    for p in parts:
        v = _variants(p, loc, R)
        if v[0] in seen:
            continue
        seen.add(v[0])
        items.append((p.intent.kind, v))
    if not items:
        items.append(("chitchat", _variants(ReplyPart(Intent("chitchat")), loc, R)))
    sep, end = R.sentence_sep, R.end
    levels = [0] * len(items)

    def body_len() -> int:
        return sum(len(v[lv]) for (_, v), lv in zip(items, levels)) + len(sep) * (len(items) - 1)

    while body_len() > max_chars:
        best = -1
        best_len = -1
        for i, ((_, v), lv) in enumerate(zip(items, levels)):
            if lv < 2 and len(v[lv]) > best_len:
                best, best_len = i, len(v[lv])
        if best < 0:
            break
        levels[best] += 1
    while body_len() > max_chars and len(items) > 1:
        drop = next((i for i in range(len(items) - 1, -1, -1) if items[i][0] in _SOCIAL_KINDS), len(items) - 1)
        del items[drop]
        del levels[drop]
    text = sep.join(v[lv] for (_, v), lv in zip(items, levels))
    if len(text) > max_chars:
        return text[:max_chars]
    if len(text) + len(end) <= max_chars:
        text += end
    return text


__all__ = ["FORBIDDEN_REPLY_TERMS", "ReplyPart", "compose_reply"]
