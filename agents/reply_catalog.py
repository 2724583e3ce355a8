"""The reply composer's sentences for the open catalog schema: shipping windows and fees, no-returns and warranty
units, and the deals a viewer combines by hand (bundles with their price and stacking, checkout codes, gifts).

Each function returns three wordings, longest first (as :func:`hat_env.agents.reply._variants` does), or ``None``
when the facts carry none of what it words, so the composer keeps its older sentences for rooms that do not use
these fields (their replies stay byte for byte what they were). Facts are canonical tool results
(:mod:`hat_env.sim.tools`): ``ships_in``, ``oversize_fee``, ``cold_chain``, ``installation_fee``; ``return_days``
0, ``warranty``; campaign views with ``bundle_price``, ``bundle_price_with``, ``stacks_with``,
``does_not_stack_with``, ``code``.
"""

from __future__ import annotations

from typing import Any, Callable

from hat_env.sim.campaigns import fmt_money

Money = Callable[[float], str]


def _num(x: Any) -> float | None:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return None
    return float(x)


def _n(x: float) -> str:
    return fmt_money(x)


# --- shipping -----------------------------------------------------------------------------------------------


def _span(w: dict[str, Any], zh: bool) -> tuple[str, bool] | None:
    """``("5-7天" / "5-7 days", within)`` of a ``ships_in`` window; ``within`` when it has no start."""
    hi = _num(w.get("max"))
    if hi is None:
        return None
    lo = _num(w.get("min"))
    days = w.get("unit") == "days"
    within = lo is None or lo == hi
    if zh:
        u = "天" if days else "小时"
        return (f"{_n(hi)}{u}" if within else f"{_n(lo)}-{_n(hi)}{u}"), within  # type: ignore[arg-type]
    u = ("day" if days else "hour") + ("" if within and hi == 1 else "s")
    return (f"{_n(hi)} {u}" if within else f"{_n(lo)}-{_n(hi)} {u}"), within  # type: ignore[arg-type]


def shipping_variants(f: dict[str, Any], L: str, Ls: str, zh: bool, M: Money, carrier_ok: bool) -> list[str] | None:
    """Wordings of a shipping answer with a window or extra fees, or ``None`` for a plain "within N hours" record.

    Args:
        f: the shipping facts (a ``shipping_policy`` result).
        L, Ls: the full and short link references at sentence start.
        zh: Chinese wording (else English).
        M: money formatter of the locale.
        carrier_ok: whether the carrier name may be quoted.
    """
    extra = any(k in f for k in ("ships_in", "oversize_fee", "cold_chain", "installation_fee"))
    if not extra:
        return None
    w = f.get("ships_in")
    got = _span(w, zh) if isinstance(w, dict) else None
    if got is None:
        h = _num(f.get("ships_within_hours"))
        if h is None:
            return None
        got = _span({"max": h, "unit": "hours"}, zh)
    assert got is not None
    span, within = got
    free, fee = f.get("free_shipping"), _num(f.get("fee"))
    ofee, ifee = _num(f.get("oversize_fee")), _num(f.get("installation_fee"))
    if zh:
        when = f"{span}内发货" if within else f"{span}发货"
        full = f"{L}付款后{when}"
        if carrier_ok:
            full += f"，{f.get('carrier')}"
        if f.get("cold_chain") is True:
            full += "，冷链配送"
        if free is True:
            full += "，包邮"
        elif fee:
            full += f"，运费{M(fee)}"
        if f.get("oversize") is True and ofee:
            full += f"，大件另收{M(ofee)}"
        if ifee is not None:
            full += "，免费安装" if ifee == 0 else f"，安装费{M(ifee)}"
        return [full, f"{Ls}{when}", when]
    when = f"within {span}" if within else f"in {span}"
    full = f"{L} ships {when}"
    if carrier_ok:
        full += f" via {f.get('carrier')}"
    if f.get("cold_chain") is True:
        full += ", cold-chain packed"
    if free is True:
        full += ", free shipping"
    elif fee:
        full += f", shipping is {M(fee)}"
    if f.get("oversize") is True and ofee:
        full += f", plus a {M(ofee)} oversize fee"
    if ifee is not None:
        full += ", free installation" if ifee == 0 else f", installation is {M(ifee)}"
    return [full, f"{Ls} ships {when}", f"Ships {when}"]


# --- returns and warranty -----------------------------------------------------------------------------------


def _warranty(f: dict[str, Any], zh: bool) -> str:
    w = f.get("warranty")
    if isinstance(w, dict) and _num(w.get("value")):
        v = _n(_num(w["value"]))  # type: ignore[arg-type]
        years = w.get("unit") == "years"
        if zh:
            return f"，保修{v}年" if years else f"，保修{v}个月"
        return f", with a {v}-{'year' if years else 'month'} warranty"
    m = _num(f.get("warranty_months")) or 0
    if m <= 0:
        return ""
    return f"，保修{_n(m)}个月" if zh else f", with a {_n(m)}-month warranty"


def after_sales_variants(f: dict[str, Any], L: str, Ls: str, zh: bool) -> list[str] | None:
    """Wordings of an after-sales answer for a product without returns or with a warranty in years, or ``None``
    for the composer's usual wording. No returns is said as such, never as "0-day returns"."""
    d = _num(f.get("return_days"))
    if d is None or (d > 0 and not isinstance(f.get("warranty"), dict)):
        return None
    ex = f.get("exchange") is True
    w = _warranty(f, zh)
    if d <= 0:
        if zh:
            return [f"{L}不支持退货" + ("，可以换货" if ex else "") + w, f"{Ls}不支持退货", "不支持退货"]
        return [f"{L} is final sale, no returns" + (", exchanges are fine" if ex else "") + w,
                f"{Ls}: no returns", "No returns"]
    ds = _n(d)
    if zh:
        return [f"{L}支持{ds}天无理由退货" + ("，也能换货" if ex else "") + w, f"{Ls}{ds}天可退", f"{ds}天可退"]
    return [f"{L} has {ds}-day returns" + (" and exchanges" if ex else "") + w, f"{Ls}: {ds}-day returns",
            f"{ds}-day returns"]


# --- deals --------------------------------------------------------------------------------------------------


def _name(cv: dict[str, Any], zh: bool, M: Money, safe: Callable[[Any], bool]) -> str | None:
    """How a reply names a coupon or code view ("the $5 coupon", "code PAW10"), or ``None``."""
    a = _num(cv.get("amount"))
    if cv.get("type") == "coupon" and a:
        return f"{M(a)}券" if zh else f"the {M(a)} coupon"
    if cv.get("type") == "code" and safe(cv.get("code")):
        return f"优惠码{cv['code']}" if zh else f"code {cv['code']}"
    return None


def _join(names: list[str], zh: bool) -> str:
    return "、".join(names) if zh else " and ".join(names)


def deal_variants(f: dict[str, Any], focus: str | None, L: str | None, Ls: str, zh: bool, M: Money,
                  safe: Callable[[Any], bool], coupon: float | None, flash: float | None) -> list[str] | None:
    """Wordings of an answer about one kind of deal the viewer asked for (``focus``: ``bundle``, ``code`` or
    ``gift``), or ``None`` when no such deal is in the facts (the composer then answers the campaign question as
    usual). The coupon that applies to one unit (``coupon``) or else the flash price (``flash``) is stated too.

    Args:
        f: the campaign facts (``campaigns``: campaign views of the product, or of the room).
        focus: the kind of deal asked about.
        L, Ls: the full and short references at sentence start; ``L`` ``None`` for a question about the room's
            deals (no link): the deal itself is the subject, and no one-unit coupon or flash price is added.
        zh: Chinese wording (else English).
        M: money formatter.
        safe: whether a text from the data may be quoted.
        coupon: the amount of the coupon in the one-unit price, if any.
        flash: the flash-sale price, if any.
    """
    camps = [cv for cv in (f.get("campaigns") or []) if isinstance(cv, dict)]
    by_id = {cv.get("campaign_id"): cv for cv in camps}
    hit = next((cv for cv in camps if cv.get("type") == focus), None)
    if hit is None or focus not in ("bundle", "code", "gift"):
        return None
    wide = L is None  # the room's deal of that kind: the deal is the subject
    if wide:
        L = Ls = {"bundle": ("套装活动", "The bundle"), "code": ("", ""), "gift": ("", "")}[focus][0 if zh else 1]
        coupon = flash = None
    tail_zh = f"，单买可领{M(coupon)}券" if coupon else (f"，单件活动价{M(flash)}" if flash else "")
    tail_en = f", the {M(coupon)} coupon is on single items" if coupon else (
        f", sale price {M(flash)} each" if flash else "")
    if focus == "bundle":
        qty, pct = _num(hit.get("bundle_qty")), _num(hit.get("bundle_discount_pct"))
        if not qty or not pct:
            return None
        price = _num(hit.get("bundle_price"))
        in_price = [by_id[x] for x in hit.get("bundle_price_with") or [] if x in by_id]
        with_ = [n for n in (_name(cv, zh, M, safe) for cv in in_price) if n]
        stack, apart = set(hit.get("stacks_with") or []), set(hit.get("does_not_stack_with") or [])
        others = [cv for cv in camps if cv.get("type") in ("coupon", "code") and cv not in in_price]
        works = [n for n in (_name(cv, zh, M, safe) for cv in others if cv.get("campaign_id") in stack) if n]
        nope = [n for n in (_name(cv, zh, M, safe) for cv in others if cv.get("campaign_id") in apart) if n]
        in_full = coupon and any(cv.get("type") == "coupon" for cv in in_price + others)
        in_short = coupon and any(cv.get("type") == "coupon" for cv in in_price)
        tz_full, te_full = ("", "") if in_full else (tail_zh, tail_en)
        if in_short:
            tail_zh = tail_en = ""
        q, z, pc = _n(qty), _n((100 - pct) / 10), _n(pct)
        if zh:
            head = f"买{q}件到手{M(price)}" if price else f"任选{q}件"
            full = f"{L}{head}" + (f"，已含{_join(with_, zh)}" if with_ else "") + (
                f"，整套省{pc}%" if wide else f"，整套{z}折（省{pc}%）")
            # "凑满": a coupon with the bundle is used on the set's total (its threshold is the set's, not one unit's)
            full += (f"，套装凑满也能用{_join(works, zh)}" if works else "") + (f"，{_join(nope, zh)}不能叠加" if nope else "")
            short = f"{Ls}{head}" + (f"，含{_join(with_, zh)}" if with_ else "") + f"，省{pc}%"
            return [full + tz_full, short + tail_zh, f"{head}，省{pc}%" + tail_zh]
        head = f"buy {q} for {M(price)}" if price else f"buy {q}"
        if wide:
            full = f"{L}: {head}, {pc}% off the set" + (f", {_join(works, zh)} works with it" if works else "")
        else:
            full = f"{L}: {head} with the bundle" + (f" and {_join(with_, zh)}" if with_ else "")
            full += f" ({pc}% off the set)" + (f", {_join(works, zh)} also works with the bundle" if works else "")
        full += (
            f", {_join(nope, zh)} doesn't stack with it" if nope else "")
        short = f"{Ls}: {head}" + (f" with {_join(with_, zh)}" if with_ else "") + f", {pc}% off"
        return [full + te_full, short + tail_en, f"{head[0].upper()}{head[1:]}, {pc}% off" + tail_en]
    if focus == "code":
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
        if zh:
            full = f"{L}下单输入优惠码{code}立减{M(a)}" + (f"，满{M(th)}可用" if th else "")
            full += "".join("，可以和套装叠加" if b.get("campaign_id") in stack else "，不能和套装叠加" for b in bundles[:1])
            full += "".join("，秒杀期间也能用" if x.get("campaign_id") in stack else "，秒杀期间不能用" for x in flashes[:1])
            full += "".join(f"，可以和{M(_num(c['amount']))}券叠加" if c.get("campaign_id") in stack  # type: ignore[arg-type]
                            else f"，不能和{M(_num(c['amount']))}券同享" for c in coupons[:1])  # type: ignore[arg-type]
            cp = f"，{M(coupon)}券" if coupon else (f"，单件活动价{M(flash)}" if flash else "")
            return [full + (cp if not coupons or not coupon else ""), f"{Ls}优惠码{code}减{M(a)}" + cp,
                    f"{code}减{M(a)}" + cp]
        if th:  # its terms, not "use it": the price asked about may not reach the threshold
            full = (f"{L}: code" if L else "Code") + f" {code} takes {M(a)} off orders of {M(th)} or more"
        else:
            full = (f"{L}: use" if L else "Use") + f" code {code} at checkout for {M(a)} off"
        full += "".join(", it works with the bundle" if b.get("campaign_id") in stack else ", not with the bundle"
                        for b in bundles[:1])
        full += "".join(", it works during the flash sale" if x.get("campaign_id") in stack
                        else ", not during the flash sale" for x in flashes[:1])
        full += "".join(f", it works with the {M(_num(c['amount']))} coupon" if c.get("campaign_id") in stack  # type: ignore[arg-type]
                        else f", not with the {M(_num(c['amount']))} coupon" for c in coupons[:1])  # type: ignore[arg-type]
        cp = f", {M(coupon)} coupon too" if coupon else (f", sale price {M(flash)}" if flash else "")
        return [full + (cp if not coupons or not coupon else ""), (f"{Ls}: " if Ls else "") + f"code {code}, {M(a)} off" + cp,
                f"Code {code}: {M(a)} off" + cp]
    gift = hit.get("gift")
    if not safe(gift):
        return None
    if zh:
        return [f"{L}下单送{gift}" + tail_zh, f"{Ls}送{gift}" + tail_zh, f"送{gift}" + tail_zh]
    if not L:
        return [f"Free gift: {gift}", f"Free {gift}", f"Free {gift}"]
    return [f"{L} comes with a free gift: {gift}" + tail_en, f"{Ls}: free {gift}" + tail_en, f"Free {gift}" + tail_en]


def other_deal_words(cv: dict[str, Any], zh: bool, M: Money, safe: Callable[[Any], bool]) -> tuple[str, str] | None:
    """``(full, short)`` words for a running bundle or code when the composer names any running deal and the
    deal's title cannot be quoted, or ``None``."""
    t = cv.get("type")
    if t == "bundle":
        qty, pct = _num(cv.get("bundle_qty")), _num(cv.get("bundle_discount_pct"))
        if not qty or not pct:
            return None
        price = _num(cv.get("bundle_price"))
        q, z = _n(qty), _n((100 - pct) / 10)
        if zh:
            return (f"买{q}件到手{M(price)}，整套{z}折" if price else f"任选{q}件打{z}折", f"{q}件{z}折")
        return ((f"bundle deal: buy {q} for {M(price)}" if price else f"bundle deal: buy {q}, {_n(pct)}% off"),
                f"{q} for {M(price)}" if price else f"buy {q}, {_n(pct)}% off")
    if t == "code" and safe(cv.get("code")) and _num(cv.get("amount")):
        a = M(_num(cv["amount"]))  # type: ignore[arg-type]
        th = _num(cv.get("threshold")) or 0  # the price does not reach it here (else the code is in the price)
        if zh:
            if th:
                return (f"满{M(th)}输入优惠码{cv['code']}立减{a}", f"满{M(th)}用{cv['code']}减{a}")
            return (f"下单输入优惠码{cv['code']}立减{a}", f"优惠码{cv['code']}减{a}")
        if th:
            return (f"code {cv['code']} takes {a} off orders of {M(th)} or more", f"code {cv['code']}: {a} off {M(th)}+")
        return (f"code {cv['code']} takes {a} off at checkout", f"code {cv['code']}: {a} off")
    return None


def code_phrase(f: dict[str, Any], zh: bool, safe: Callable[[Any], bool]) -> str | None:
    """The checkout code in a one-unit price (the product record's ``code``), as the reply names it, or ``None``."""
    cd = f.get("code")
    if isinstance(cd, dict) and safe(cd.get("code")):
        return str(cd["code"])
    return None


__all__ = ["after_sales_variants", "code_phrase", "deal_variants", "other_deal_words", "shipping_variants"]
