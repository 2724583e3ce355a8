"""The reference agent's reply composer: :func:`compose_reply` turns :class:`ReplyPart` values (an intent plus
facts read from canonical tool results) into a short spoken reply that states every required fact and never uses a
forbidden term.

Every word comes from the ``reply`` section of the locale file (:mod:`hat_env.locales`): the social replies, spec
labels, order status phrases and separators, and the ``sentences`` that state facts (their keys and placeholders:
:data:`hat_env.locale_text.SENTENCE_FIELDS`); numbers and money follow its ``formats``. The code here only decides
which facts a part states and how a reply is shortened, so a new locale is a new file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hat_env.locale_text import Sentences
from hat_env.agents.reply_catalog import (
    after_sales_variants, bool_spec_variants, deal_variants, other_deal_words, region_variants, shipping_variants,
    variant_stock_variants,
)
from hat_env.locales import ReplyPhrases, get_locale
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
    * stock: ``{"stock": 25}``; ``variants`` and ``variant_hits`` (the names a viewer said) for a product with variants
    * campaign: ``{"campaigns": [campaign views], "coupon_amount": 10, "price": 99}``: ``coupon_amount`` (or
      the view's ``coupon`` dict) is the coupon that applies now, ``None`` when none does, and wins over the
      list; without it, the largest listed coupon whose threshold ``price`` meets is taken. A campaign intent
      whose ``attr`` names a kind of deal (``bundle``, ``code``, ``gift``) is answered with that deal when the
      list has one (a bundle's price and what stacks with it: :mod:`hat_env.agents.reply_catalog`)
    * shipping: ``{"ships_within_hours": 48, "carrier": str, "free_shipping": True, "fee": 0.0}``, and when the
      record has them ``ships_in`` (a window), ``oversize_fee``, ``cold_chain``, ``installation_fee``, ``region``
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


def _refs(link: int | None, S: Sentences) -> dict[str, str]:
    """The link reference placeholders: ``L`` (at sentence start), ``Ls`` (short) and ``Lm`` (mid-sentence)."""
    if link is None:
        return {"L": S.one("ref_none"), "Ls": S.one("ref_none"), "Lm": S.one("ref_none_mid")}
    return {"L": S.one("ref_full", n=link), "Ls": S.one("ref_short", n=link), "Lm": S.one("ref_mid", n=link)}


def _unavailable(intent: Intent, S: Sentences) -> list[str]:
    if intent.kind == "order_status":
        ref = S.one("unavailable_order", order_id=intent.order_id) if intent.order_id else S.one("unavailable_order_none")
    elif intent.link is not None:
        ref = S.one("unavailable_product", **_refs(intent.link, S))
    else:
        ref = S.one("unavailable_none")
    return S.all("unavailable", ref=ref)


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _variants(part: ReplyPart, loc: str, R: ReplyPhrases) -> list[str]:
    """Three wordings of one part, longest first; each states the part's required facts (``R``: the locale's
    phrase tables and sentences)."""
    it = part.intent
    f = part.facts or {}
    k = it.kind
    S = R.sentences
    F = get_locale(loc).formats
    M = F.amount
    N = F.number
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
        return _unavailable(it, S)
    refs = _refs(it.link, S)
    if k in ("price", "purchase") and f.get("in_stock") is False:
        return _sold_out(f, refs, S)
    if k in ("price", "purchase") and (gone := variant_stock_variants(f, refs, S, N, sold_out_only=True)):
        return gone  # the size / colour asked for is sold out
    if k == "price":
        fp = _num(f.get("final_price"))
        if fp is None:
            return _unavailable(it, S)
        c = _coupon_amount(f)
        title = f.get("title")
        t = S.one("price_title", title=title) if _safe(title) else ""
        if c:
            return S.all("price_coupon", **refs, T=t, price=M(fp), coupon=M(c))
        return S.all("price_now", **refs, T=t, price=M(fp))
    if k == "spec":
        v = f.get("value")
        if v is None or v == "":
            return _unavailable(it, S)
        attr = f.get("attr") or it.attr or ""
        lab = f.get("label") or R.spec_labels.get(attr, attr.replace("_", " ") if attr else R.generic_spec_label)
        if f.get("type") == "bool":  # a yes/no attribute
            return bool_spec_variants(refs, lab, v, S)
        return S.all("spec", **refs, label=lab, value=str(v))
    if k == "stock":
        n = _num(f.get("stock"))
        if n is None:
            return _unavailable(it, S)
        if n > 0 and (by_variant := variant_stock_variants(f, refs, S, N)):  # the size / colour named
            return by_variant
        if n > 0:
            return S.all("stock_in", **refs, n=N(n))
        return _sold_out(f, refs, S)
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
                cp = f.get("coupon")
                if isinstance(cp, dict):  # the coupon the product record names: its own threshold (maybe none)
                    coupon_th = _num(cp.get("threshold")) or 0.0
                else:
                    coupon_th = next((th for a, th in coupons if a == coupon), 0.0)
        else:
            base = _num(f.get("price"))
            if base is not None and flash is not None:
                base = min(base, flash)
            for a, th in coupons:
                if (base is None or base >= th) and (coupon is None or a > coupon):
                    coupon, coupon_th = a, th
        if it.attr:
            focused = deal_variants(f, it.attr, refs["L"] if it.link is not None else None, refs["Ls"], S, M, N, _safe,
                                    coupon, flash)
            if focused is not None:
                return focused
        if coupon:
            over = S.one("coupon_over", threshold=M(coupon_th)) if coupon_th > 0 else ""
            sale = S.one("coupon_sale", flash=M(flash)) if flash else ""
            return S.all("coupon", **refs, coupon=M(coupon), over=over, sale=sale)
        if flash:
            return S.all("flash", **refs, flash=M(flash))
        deal = _other_deal(camps, S, M, N)
        if deal is not None:
            full, short = deal
            return S.all("deal", **refs, full=full, short=short)
        return S.all("no_campaign", **refs)
    if k == "shipping":
        h = _num(f.get("ships_within_hours"))
        if h is None:
            return _unavailable(it, S)
        if regional := region_variants(f, refs, S, M):  # the region named: its extra fee, or not sent there
            return regional
        windowed = shipping_variants(f, refs, S, M, N, _safe(f.get("carrier")))
        if windowed is not None:  # shipping windows and fees (open catalog)
            return windowed
        carrier = f.get("carrier")
        free = f.get("free_shipping")
        fee = _num(f.get("fee"))
        via = S.one("shipping_via", carrier=carrier) if _safe(carrier) else ""
        cost = S.one("shipping_free") if free is True else (S.one("shipping_fee", fee=M(fee)) if fee else "")
        focus = f.get("focus")  # what the question asks: that fact first, kept in every wording
        if focus == "free" and free is True:
            return S.all("shipping_free_focus", **refs, hours=N(h), via=via)
        if focus == "free" and fee:
            return S.all("shipping_fee_focus", **refs, hours=N(h), via=via, fee=M(fee))
        if focus == "carrier" and _safe(carrier):
            return S.all("shipping_carrier_focus", **refs, hours=N(h), carrier=carrier, cost=cost)
        return S.all("shipping", **refs, hours=N(h), via=via, cost=cost)
    if k == "after_sales":
        d = _num(f.get("return_days"))
        if d is None:
            return _unavailable(it, S)
        policy = after_sales_variants(f, refs, S, N)
        if policy is not None:  # no returns, or a warranty in years (open catalog)
            return policy
        w = _num(f.get("warranty_months")) or 0
        warranty = S.one("warranty", months=N(w)) if w > 0 else ""
        if d > 0:
            ex = S.one("returns_exchange") if f.get("exchange") is True else ""
            return S.all("returns", **refs, days=N(d), exchange=ex, warranty=warranty)
        return S.all("no_returns", **refs, days=N(d), warranty=warranty)
    if k == "order_status":
        st = f.get("status")
        if not isinstance(st, str):
            return _unavailable(it, S)
        oid = f.get("order_id") or it.order_id
        oid_s = str(oid) if oid and _safe(str(oid)) else ""
        eta = _num(f.get("eta_days")) or 0
        eta_t: Any = ""
        if eta > 0:
            eta_t = S.all("order_eta", eta=N(eta), days=S.one("day_one" if eta == 1 else "day_other"))
        return S.all(
            "order",
            id=S.one("order_id", order_id=oid_s) if oid_s else "",
            status=R.order_status.get(st, st),  # type: ignore[call-overload]
            status_short=R.order_status_short.get(st, st),  # type: ignore[call-overload]
            eta=eta_t,
        )
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
            return _unavailable(it, S)
        if isinstance(prods, list) and len(prods) >= 2 and any(isinstance(x, dict) and x.get("in_stock") is False
                                                               for x in prods[:2]):
            return _compare_sold_out(it, prods[:2], S, R.sentence_sep, M)
        first = S.one("compare_first", n=it.link) if it.link is not None else S.one("compare_first_none")
        second = S.one("compare_second", n=it.link2) if it.link2 is not None else S.one("compare_second_none")
        return S.all(
            "compare", first=first, First=_cap(first), second=second,
            T1=S.one("compare_title", title=t1) if _safe(t1) else "",
            T2=S.one("compare_title", title=t2) if _safe(t2) else "",
            p1=M(p1), p2=M(p2),
        )
    if k == "purchase":
        fp = _num(f.get("final_price"))
        if fp is None:
            return _unavailable(it, S)
        sent = f.get("coupon_sent")
        if sent is None or sent is True:
            c = _coupon_amount(f)
        else:
            c = _num(sent) if _num(sent) else None
        head = S.one("purchase_pinned" if f.get("pinned") is True else "purchase_ready", **refs)
        sent_t: Any = S.all("purchase_sent", coupon=M(c)) if c else ""
        return S.all("purchase", **refs, head=head, price=M(fp), sent=sent_t)
    return _unavailable(it, S)


def _sold_out(f: dict[str, Any], refs: dict[str, str], S: Sentences) -> list[str]:
    """A sold-out product: said so, with an alternative to look at (``f["alternative"]``, a link of the same
    category) or the other links."""
    alt_link = f.get("alternative")
    if isinstance(alt_link, int):
        alt = S.one("sold_out_alt", alt=_refs(alt_link, S)["Lm"])
    else:
        alt = S.one("sold_out_other")
    return S.all("stock_out", **refs, alt=alt)


def _compare_sold_out(it: Intent, items: list[Any], S: Sentences, sep: str, M: Any) -> list[str]:
    """A comparison where a product is sold out: that one is sold out, the other's price (each with its link)."""
    out: list[list[str]] = []
    for x, link in zip(items, (it.link, it.link2)):
        refs = _refs(x.get("link", link) if isinstance(x, dict) else link, S)
        if isinstance(x, dict) and x.get("in_stock") is False:
            v = S.all("stock_out", **refs, alt="")
        else:
            v = S.all("price_now", **refs, T="", price=M(_num(x.get("final_price")) or 0.0))
        out.append([v[0], v[1], v[1]])  # the shortest keeps its link: two bare facts would not say which is which
    return [sep.join(w[i] for w in out) for i in range(3)]


#: Kinds dropped first when a reply is too long (after the free ones): they answer with friendliness, not facts.
_SOCIAL_KINDS = frozenset({"chitchat", "troll", "other_language"})
#: Kinds answered by not saying something (an injection's payload): their wording is the first to go.
_FREE_KINDS = frozenset({"injection"})


def _merged(parts: list[ReplyPart]) -> list[ReplyPart]:
    """``parts`` without those another part already answers, and with a product's title said at most once:

    - a purchase of a product states its price (or that it is sold out): its price part goes;
    - a price or purchase part of a sold-out product says so: its stock part goes;
    - a title is said in the first price part of its product, and not when a spec of it is stated (the title's
      words could read as that spec)."""
    buy = {(p.intent.link, _num(p.facts.get("final_price")), p.facts.get("in_stock"))
           for p in parts if p.intent.kind == "purchase" and not p.facts.get("unavailable")}
    out_links = {p.intent.link for p in parts
                 if p.intent.kind in ("price", "purchase") and p.facts.get("in_stock") is False}
    spec = {p.intent.link for p in parts if p.intent.kind == "spec"}
    titled: set[int | None] = set()
    out: list[ReplyPart] = []
    for p in parts:
        k, link = p.intent.kind, p.intent.link
        if k == "price" and (link, _num(p.facts.get("final_price")), p.facts.get("in_stock")) in buy:
            continue
        if k == "stock" and link in out_links and _num(p.facts.get("stock")) == 0:
            continue
        if k == "price" and p.facts.get("title"):
            if link in titled or link in spec:
                p = ReplyPart(p.intent, {**p.facts, "title": None})
            titled.add(link)
        out.append(p)
    return out



def _other_deal(camps: Any, S: Sentences, M: Any, N: Any) -> tuple[str, str] | None:
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
            if th:
                full, short = S.all("deal_threshold", amount=a, threshold=M(th))
            else:
                full, short = S.all("deal_coupon", amount=a)
            return full, short
        if t == "gift" and _safe(cv.get("gift")):
            full, short = S.all("deal_gift", gift=cv["gift"])
            return full, short
        if t == "bundle" and _safe(cv.get("title")):
            full, short = S.all("deal_bundle", title=cv["title"])
            return full, short
        if t in ("bundle", "code"):  # a title too long or risky to quote: say the deal's terms
            words = other_deal_words(cv, S, M, N, _safe)
            if words is not None:
                return words
    return None


def compose_reply(parts: list[ReplyPart], locale: str, max_chars: int = 120, banned: tuple[str, ...] = ()) -> str:
    """Write the host's spoken reply for ``parts``, in ``locale``, at most ``max_chars`` characters, without any
    ``banned`` word.

    Args:
        parts: what to answer, in the order the viewers asked (see :func:`_merged` for parts another part answers;
            parts that would read the same are said once).
        locale: a locale id (:func:`hat_env.locales.known_locales`): its sentences, separators and formats.
        max_chars: the length limit, counted with ``len()``.
        banned: words the harness forbids (matched case-insensitively inside words, as its hook does): a wording
            holding one is never used, and a part whose every wording does is not said.

    Returns:
        The reply. Each part states its required facts (price with currency, spec value verbatim, stock number
        or a sold-out word, coupon amount / flash price / no-campaign word, shipping hours or what a shipping
        question asks, return days, order status word and ETA, both compare prices, purchase price and the sent
        coupon, an unavailable word when the tool failed); social parts greet, redirect calmly, or refuse without
        repeating the payload. No forbidden term, no scarcity, no human claim, no number that is not a fact (or a
        link / order id), and no sentence said twice.
        When too long, parts switch to shorter wordings one at a time (the longest first, never to a wording
        another part already says); only when every part is at its shortest are parts dropped, in the declared
        order of :mod:`hat_env.scoring.limits`: injection refusals first, then greetings and trolls, then "the
        lookup failed" parts (they answer nothing), then the product and order answers from the last one asked; then parts take back longer wordings while the reply
        fits. A single part that cannot fit gives way to the shortest greeting that does.
    """
    loc = locale
    R = get_locale(loc).reply
    max_chars = max(1, int(max_chars))
    bad = [w.casefold() for w in banned if w]

    def clean(t: str) -> bool:
        low = t.casefold()
        return not any(w in low for w in bad)

    items: list[tuple[str, list[str]]] = []
    seen: set[str] = set()
    for p in _merged(parts):
        v = _variants(p, loc, R)
        if v[0] in seen:
            continue
        seen.add(v[0])
        ok = [t for t in dict.fromkeys(v) if clean(t)]
        if ok:  # a lookup that failed answers nothing: such a part goes before the answers
            items.append(("unavailable" if v == _unavailable(p.intent, R.sentences) else p.intent.kind, ok))
    social = [t for t in dict.fromkeys(_variants(ReplyPart(Intent("chitchat")), loc, R)) if clean(t)]
    if not items:
        items.append(("chitchat", social or list(R.chitchat)))
    sep, end = R.sentence_sep, R.end
    levels = [0] * len(items)

    def text(i: int, lv: int | None = None) -> str:
        w = items[i][1]
        return w[levels[i] if lv is None else lv]

    def body_len() -> int:
        return sum(len(text(i)) for i in range(len(items))) + len(sep) * (len(items) - 1)

    def distinct(i: int, lv: int) -> bool:
        t = text(i, lv)
        return all(text(j) != t for j in range(len(items)) if j != i)

    while body_len() > max_chars:  # shorter wordings, the longest part first
        best, best_len, best_lv = -1, -1, 0
        for i in range(len(items)):
            nxt = next((lv for lv in range(levels[i] + 1, len(items[i][1])) if distinct(i, lv)), None)
            if nxt is not None and len(text(i)) > best_len:
                best, best_len, best_lv = i, len(text(i)), nxt
        if best < 0:
            break
        levels[best] = best_lv
    while body_len() > max_chars and len(items) > 1:  # drop parts in the declared order
        kinds = [k for k, _ in items]
        drop = len(items) - 1
        for group in (_FREE_KINDS, _SOCIAL_KINDS, {"unavailable"}):
            hit = next((i for i in range(len(items) - 1, -1, -1) if kinds[i] in group), None)
            if hit is not None:
                drop = hit
                break
        del items[drop]
        del levels[drop]
    for i in range(len(items)):  # take back longer wordings while the reply fits
        for lv in range(levels[i]):
            old = levels[i]
            if not distinct(i, lv):
                continue
            levels[i] = lv
            if body_len() <= max_chars:
                break
            levels[i] = old
    out = sep.join(text(i) for i in range(len(items)))
    if len(out) > max_chars:
        fit = [t for t in social if len(t) <= max_chars]
        out = min(fit, key=len) if fit else out[:max_chars]
        return out
    if len(out) + len(end) <= max_chars:
        out += end
    return out


__all__ = ["FORBIDDEN_REPLY_TERMS", "ReplyPart", "compose_reply"]
