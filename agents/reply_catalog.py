"""The reply composer's answers for the open catalog schema: shipping windows and fees, no-returns and warranty
units, the deals a viewer combines by hand (bundles with their price and stacking, checkout codes, gifts) and
yes/no attributes.

Each function returns three wordings, longest first (as :func:`hat_env.agents.reply._variants` does), or ``None``
when the facts carry none of what it words, so the composer keeps its older sentences for rooms that do not use
these fields. Every word comes from the locale file's ``reply.sentences`` (the keys under "open catalog" in
:data:`hat_env.locale_text.SENTENCE_FIELDS`); the code here only picks which of them a fact calls for. Facts are
canonical tool results (:mod:`hat_env.sim.tools`): ``ships_in``, ``oversize_fee``, ``cold_chain``,
``installation_fee``, the ``regions`` a viewer names; the ``variants`` of a stock record a viewer names;
``return_days`` 0, ``warranty``; campaign views with ``bundle_price``,
``bundle_price_with``, ``stacks_with``, ``does_not_stack_with``, ``code``.
"""

from __future__ import annotations

from typing import Any, Callable

from hat_env.locale_text import Sentences

Money = Callable[[float], str]
Number = Callable[[float], str]


def _num(x: Any) -> float | None:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return None
    return float(x)


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _opt(S: Sentences, key: str, cond: Any, **values: Any) -> str:
    """Sentence ``key`` filled with ``values`` when ``cond`` holds, else nothing (an optional clause)."""
    return S.one(key, **values) if cond else ""


# --- shipping -----------------------------------------------------------------------------------------------


def _span(w: dict[str, Any], S: Sentences, N: Number) -> tuple[str, bool] | None:
    """``("5-7天" / "5-7 days", within)`` of a ``ships_in`` window; ``within`` when it has no start."""
    hi = _num(w.get("max"))
    if hi is None:
        return None
    lo = _num(w.get("min"))
    unit = "days" if w.get("unit") == "days" else "hours"
    within = lo is None or lo == hi
    if within:
        return S.one(f"window_{unit}_one" if hi == 1 else f"window_{unit}", max=N(hi)), True
    return S.one(f"window_range_{unit}", min=N(lo), max=N(hi)), False  # type: ignore[arg-type]


def shipping_variants(f: dict[str, Any], refs: dict[str, str], S: Sentences, M: Money, N: Number,
                      carrier_ok: bool) -> list[str] | None:
    """Wordings of a shipping answer with a window or extra fees, or ``None`` for a plain "within N hours" record.

    Args:
        f: the shipping facts (a ``shipping_policy`` result).
        refs: the link reference placeholders (``L``, ``Ls``, ``Lm``: see :func:`hat_env.agents.reply._refs`).
        S: the locale's sentences.
        M, N: the locale's money and number formatters.
        carrier_ok: whether the carrier name may be quoted.
    """
    if not any(k in f for k in ("ships_in", "oversize_fee", "cold_chain", "installation_fee")):
        return None
    w = f.get("ships_in")
    got = _span(w, S, N) if isinstance(w, dict) else None
    if got is None:
        h = _num(f.get("ships_within_hours"))
        if h is None:
            return None
        got = _span({"max": h, "unit": "hours"}, S, N)
    assert got is not None
    span, within = got
    free, fee = f.get("free_shipping"), _num(f.get("fee"))
    ofee, ifee = _num(f.get("oversize_fee")), _num(f.get("installation_fee"))
    cost = S.one("shipping_free") if free is True else _opt(S, "shipping_fee", fee, fee=M(fee or 0))
    install = "" if ifee is None else (
        S.one("window_install_free") if ifee == 0 else S.one("window_install_fee", fee=M(ifee)))
    return S.all(
        "ship_window", **refs, when=S.one("ships_within" if within else "ships_in_range", span=span),
        via=_opt(S, "shipping_via", carrier_ok, carrier=f.get("carrier")),
        cold=_opt(S, "window_cold_chain", f.get("cold_chain") is True), cost=cost,
        oversize=_opt(S, "window_oversize", f.get("oversize") is True and ofee, fee=M(ofee or 0)), install=install,
    )


def region_variants(f: dict[str, Any], refs: dict[str, str], S: Sentences, M: Money) -> list[str] | None:
    """Wordings of a shipping answer for the region the viewer named (``f["region"]``: ``{"said", "fee",
    "ships"}``, set by the reference agent from the record's ``regions``), or ``None`` when none was named or it
    ships there on the usual terms: not sent there (``region_no_ship``), or the extra fee with the usual terms
    elsewhere (``region_extra``).

    Args:
        f: the shipping facts with ``region``.
        refs: the link reference placeholders (``L``, ``Ls``, ``Lm``).
        S: the locale's sentences.
        M: the locale's money formatter.
    """
    g = f.get("region")
    if not isinstance(g, dict) or not isinstance(g.get("said"), str):
        return None
    if g.get("ships") is False:
        return S.all("region_no_ship", **refs, region=g["said"])
    extra = _num(g.get("fee"))
    if not extra:
        return None
    fee = _num(f.get("fee"))
    base = S.one("region_base_free") if f.get("free_shipping") is True else _opt(
        S, "region_base_fee", fee, fee=M(fee or 0))
    return S.all("region_extra", **refs, region=g["said"], fee=M(extra), base=base)


def variant_stock_variants(f: dict[str, Any], refs: dict[str, str], S: Sentences, N: Number,
                           sold_out_only: bool = False) -> list[str] | None:
    """Wordings of a stock answer for the variants the viewer named (``f["variant_hits"]``: names, set by the
    reference agent from the record's ``variants``), each with its stock or said sold out; when every one named
    is sold out, up to two variants in stock follow. ``None`` when the viewer named none (or, with
    ``sold_out_only``, when one of those named has stock: a price or purchase answer then goes on as usual).

    Args:
        f: the stock facts (a ``stock`` result, or a price / purchase part's ``variants``) with ``variant_hits``.
        refs: the link reference placeholders.
        S: the locale's sentences.
        N: the locale's number formatter.
    """
    hits = f.get("variant_hits")
    rows = [v for v in f.get("variants") or [] if isinstance(v, dict) and isinstance(v.get("name"), str)]
    if not hits or not rows:
        return None
    named = [v for v in rows if v["name"] in hits]
    if not named:
        return None
    gone = all(not _num(v.get("stock")) for v in named)
    if sold_out_only and not gone:
        return None
    shown = list(named)
    if gone:
        shown += [v for v in rows if v not in named and _num(v.get("stock"))][:2]

    def item(v: dict[str, Any]) -> str:
        n = _num(v.get("stock"))
        return S.one("variant_in", variant=v["name"], n=N(n)) if n else S.one("variant_out", variant=v["name"])

    items = S.one("variant_sep").join(item(v) for v in shown)
    return S.all("variant_stock", **refs, items=items)


# --- returns and warranty -----------------------------------------------------------------------------------


def _warranty(f: dict[str, Any], S: Sentences, N: Number) -> str:
    w = f.get("warranty")
    if isinstance(w, dict) and _num(w.get("value")):
        v = N(_num(w["value"]))  # type: ignore[arg-type]
        if w.get("unit") == "years":
            return S.one("warranty_years_one" if _num(w["value"]) == 1 else "warranty_years", years=v)
        return S.one("warranty", months=v)
    m = _num(f.get("warranty_months")) or 0
    return S.one("warranty", months=N(m)) if m > 0 else ""


def after_sales_variants(f: dict[str, Any], refs: dict[str, str], S: Sentences, N: Number) -> list[str] | None:
    """Wordings of an after-sales answer for a product without returns or with a warranty in years, or ``None``
    for the composer's usual wording. No returns is said as such (``final_sale``), never as "0-day returns".

    Args:
        f: the after-sales facts (a ``return_policy`` result).
        refs: the link reference placeholders (``L``, ``Ls``, ``Lm``).
        S: the locale's sentences.
        N: the locale's number formatter.
    """
    d = _num(f.get("return_days"))
    if d is None or (d > 0 and not isinstance(f.get("warranty"), dict)):
        return None
    ex = f.get("exchange") is True
    w = _warranty(f, S, N)
    if d <= 0:
        return S.all("final_sale", **refs, exchange=_opt(S, "final_sale_exchange", ex), warranty=w)
    return S.all("returns", **refs, days=N(d), exchange=_opt(S, "returns_exchange", ex), warranty=w)


# --- deals --------------------------------------------------------------------------------------------------


def _name(cv: dict[str, Any], S: Sentences, M: Money, safe: Callable[[Any], bool]) -> str | None:
    """How a reply names a coupon or code view ("the $5 coupon", "code PAW10"), or ``None``."""
    a = _num(cv.get("amount"))
    if cv.get("type") == "coupon" and a:
        return S.one("deal_name_coupon", amount=M(a))
    if cv.get("type") == "code" and safe(cv.get("code")):
        return S.one("deal_name_code", code=cv["code"])
    return None


def _names(cvs: list[dict[str, Any]], S: Sentences, M: Money, safe: Callable[[Any], bool]) -> str:
    """The nameable views of ``cvs`` joined by the locale's ``list_and`` ("" when none is)."""
    return S.one("list_and").join(n for n in (_name(cv, S, M, safe) for cv in cvs) if n)


def _bundle(f: dict[str, Any], hit: dict[str, Any], camps: list[dict[str, Any]], wide: bool, L: str, Ls: str,
            S: Sentences, M: Money, N: Number, safe: Callable[[Any], bool], tail: str,
            coupon: float | None) -> list[str] | None:
    qty, pct = _num(hit.get("bundle_qty")), _num(hit.get("bundle_discount_pct"))
    if not qty or not pct:
        return None
    by_id = {cv.get("campaign_id"): cv for cv in camps}
    price = _num(hit.get("bundle_price"))
    in_price = [by_id[x] for x in hit.get("bundle_price_with") or [] if x in by_id]
    stack, apart = set(hit.get("stacks_with") or []), set(hit.get("does_not_stack_with") or [])
    others = [cv for cv in camps if cv.get("type") in ("coupon", "code") and cv not in in_price]
    incl = _names(in_price, S, M, safe)
    works = _names([cv for cv in others if cv.get("campaign_id") in stack], S, M, safe)
    nope = _names([cv for cv in others if cv.get("campaign_id") in apart], S, M, safe)
    in_full = coupon and any(cv.get("type") == "coupon" for cv in in_price + others)
    in_short = coupon and any(cv.get("type") == "coupon" for cv in in_price)
    q, pc = N(qty), N(pct)
    head = S.one("bundle_head_price", qty=q, price=M(price)) if price else S.one("bundle_head", qty=q)
    key = "bundle_room" if wide else "bundle_deal"
    return S.all(
        key, L=L, Ls=Ls, head=head, Head=_cap(head), pct=pc, tenths=N((100 - pct) / 10),
        incl=S.all("bundle_incl", names=incl) if incl else "",
        works=_opt(S, f"{key}_works", works, names=works), nope=_opt(S, "bundle_nope", nope, names=nope),
        tail=["" if in_full else tail, "" if in_short else tail, "" if in_short else tail],
    )


def _code(hit: dict[str, Any], camps: list[dict[str, Any]], wide: bool, L: str, Ls: str, S: Sentences,
          M: Money, safe: Callable[[Any], bool], coupon: float | None, flash: float | None) -> list[str] | None:
    code, a = hit.get("code"), _num(hit.get("amount"))
    if not safe(code) or not a:
        return None
    th = _num(hit.get("threshold")) or 0
    stack = set(hit.get("stacks_with") or [])
    near = stack | set(hit.get("does_not_stack_with") or [])
    bundles = [cv for cv in camps if cv.get("type") == "bundle" and cv.get("campaign_id") in near]
    flashes = [cv for cv in camps if cv.get("type") == "flash_sale" and cv.get("campaign_id") in near]
    coupons = [cv for cv in camps if cv.get("type") == "coupon" and _num(cv.get("amount"))
               and cv.get("campaign_id") in near]
    # its terms, not "use it": the price asked about may not reach the threshold
    terms = (S.one("code_terms_threshold", code=code, amount=M(a), threshold=M(th)) if th
             else S.one("code_terms", code=code, amount=M(a)))
    rules = "".join(S.one("code_with_bundle" if b.get("campaign_id") in stack else "code_not_bundle")
                    for b in bundles[:1])
    rules += "".join(S.one("code_in_flash" if x.get("campaign_id") in stack else "code_not_flash")
                     for x in flashes[:1])
    rules += "".join(S.one("code_with_coupon" if c.get("campaign_id") in stack else "code_not_coupon",
                           coupon=M(_num(c["amount"])))  # type: ignore[arg-type]
                     for c in coupons[:1])
    cp = (S.one("code_tail_coupon", coupon=M(coupon)) if coupon else
          _opt(S, "code_tail_flash", flash, flash=M(flash or 0)))
    return S.all("code_room" if wide else "code_deal", L=L, Ls=Ls, terms=terms, Terms=_cap(terms), rules=rules,
                 code=code, amount=M(a), tail=[cp if not coupons or not coupon else "", cp, cp])


def deal_variants(f: dict[str, Any], focus: str | None, L: str | None, Ls: str, S: Sentences, M: Money,
                  N: Number, safe: Callable[[Any], bool], coupon: float | None,
                  flash: float | None) -> list[str] | None:
    """Wordings of an answer about one kind of deal the viewer asked for (``focus``: ``bundle``, ``code`` or
    ``gift``), or ``None`` when no such deal is in the facts (the composer then answers the campaign question as
    usual). The coupon that applies to one unit (``coupon``) or else the flash price (``flash``) is stated too.

    Args:
        f: the campaign facts (``campaigns``: campaign views of the product, or of the room).
        focus: the kind of deal asked about.
        L, Ls: the full and short references at sentence start; ``L`` ``None`` for a question about the room's
            deals (no link): the deal itself is the subject (the ``*_room`` sentences), and no one-unit coupon or
            flash price is added.
        S: the locale's sentences.
        M, N: money and number formatters.
        safe: whether a text from the data may be quoted.
        coupon: the amount of the coupon in the one-unit price, if any.
        flash: the flash-sale price, if any.
    """
    camps = [cv for cv in (f.get("campaigns") or []) if isinstance(cv, dict)]
    hit = next((cv for cv in camps if cv.get("type") == focus), None)
    if hit is None or focus not in ("bundle", "code", "gift"):
        return None
    wide = L is None  # the room's deal of that kind: the deal is the subject
    if wide:
        L = Ls = ""
        coupon = flash = None
    assert L is not None
    tail = (S.one("deal_tail_coupon", coupon=M(coupon)) if coupon else
            _opt(S, "deal_tail_flash", flash, flash=M(flash or 0)))
    if focus == "bundle":
        return _bundle(f, hit, camps, wide, L, Ls, S, M, N, safe, tail, coupon)
    if focus == "code":
        return _code(hit, camps, wide, L, Ls, S, M, safe, coupon, flash)
    gift = hit.get("gift")
    if not safe(gift):
        return None
    return S.all("gift_room" if wide else "gift_deal", L=L, Ls=Ls, gift=gift, tail=tail)


def other_deal_words(cv: dict[str, Any], S: Sentences, M: Money, N: Number,
                     safe: Callable[[Any], bool]) -> tuple[str, str] | None:
    """``(full, short)`` words for a running bundle or code when the composer names any running deal and the
    deal's title cannot be quoted, or ``None``."""
    t = cv.get("type")
    if t == "bundle":
        qty, pct = _num(cv.get("bundle_qty")), _num(cv.get("bundle_discount_pct"))
        if not qty or not pct:
            return None
        price = _num(cv.get("bundle_price"))
        vals = {"qty": N(qty), "pct": N(pct), "tenths": N((100 - pct) / 10)}
        full, short = (S.all("other_bundle_price", price=M(price), **vals) if price
                       else S.all("other_bundle", **vals))
        return full, short
    if t == "code" and safe(cv.get("code")) and _num(cv.get("amount")):
        a = M(_num(cv["amount"]))  # type: ignore[arg-type]
        th = _num(cv.get("threshold")) or 0  # the price does not reach it here (else the code is in the price)
        if th:
            full, short = S.all("other_code_threshold", code=cv["code"], amount=a, threshold=M(th))
        else:
            full, short = S.all("other_code", code=cv["code"], amount=a)
        return full, short
    return None


# --- yes/no attributes --------------------------------------------------------------------------------------


def bool_spec_variants(refs: dict[str, str], label: str, value: Any, S: Sentences) -> list[str]:
    """Wordings of a yes/no attribute's answer (``spec_bool``): its ``label`` and the catalog's ``value`` verbatim
    (``refs``: the link reference placeholders; ``S``: the locale's sentences)."""
    return S.all("spec_bool", **refs, label=label, value=str(value))


__all__ = ["after_sales_variants", "bool_spec_variants", "deal_variants", "other_deal_words", "shipping_variants"]
