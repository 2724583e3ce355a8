"""Non-money number claims: a time, count, percentage, 折 or spec quantity checked against the facts of its
products (stock counts, spec counts, return and warranty windows, discounts as percentages, unit conversions)."""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any

from hat_env.scoring.claims import conversions, topics
from hat_env.scoring.claims.check_grades import check_count_per_unit
from hat_env.scoring.claims.amounts import eq
from hat_env.scoring.claims.data_counts import data_counts, data_labelled, zh_labelled
from hat_env.scoring.claims.durations import deal_time, supply
from hat_env.scoring.claims.families import asked_spec, fact_in_family, family, spec_named, would_answer
from hat_env.scoring.claims.numbers import Quantity
from hat_env.scoring.claims.tolerance import APPROX_TOLERANCE, approximate, convert_time, range_fits, within

if TYPE_CHECKING:
    from hat_env.scoring.claims.facts import ProductFacts
    from hat_env.scoring.claims.read import Reading


#: millilitres in a US fluid ounce, grams in an ounce
_FL_OZ_ML = 29.5735
_OZ_G = 28.3495



def _continues_stock(r: "Reading", q: "Quantity", i: int) -> bool:
    """Whether ``q`` is a bare bound opening its clause ("más de cien", "over 200") right after a clause of the same
    sentence that spoke of stock ("quedan un montón, más de cien"): the bound is on that stock."""
    if i == 0 or r.clauses[i - 1].sentence != r.clauses[i].sentence or _bound_before(r, q, i) is None:
        return False
    if re.search(r"[^\W\d_]", r.text[r.clauses[i].start : q.start]) is None:
        return False
    lead = r.text[r.clauses[i].start : q.start]
    low, up = r.vocab.rx.get("measure_lower"), r.vocab.rx.get("measure_upper")
    if not any(rx is not None and (m := rx.search(lead)) is not None and not re.search(r"[^\W\d_]", lead[: m.start()])
               for rx in (low, up)):
        return False
    return any(r.cfind(name, i - 1) for name in ("in_stock", "low_stock", "stock_context"))


def _bound_before(r: "Reading", q: "Quantity", i: int) -> str | None:
    """``"lower"`` / ``"upper"`` when a ``measure_lower`` / ``measure_upper`` word of the locale stands right before
    the quantity in its clause ("más de 50", "more than 200", "menos de 5"), else ``None``."""
    before = r.text[max(r.clauses[i].start, q.start - 24) : q.start]
    low, up = r.vocab.rx.get("measure_lower"), r.vocab.rx.get("measure_upper")
    if low is not None and low.search(before):
        return "lower"
    if up is not None and up.search(before):
        return "upper"
    return None

def _time_bound(r: "Reading", q: Quantity, i: int, facts: list) -> list:
    """The facts a time said as a bound fits ("a bit under two days" for a 41-hour power reserve, "over 30 hours"
    for 32): a ``measure_upper`` word before it and a fact below it, but above half of it; a ``measure_lower`` word
    and a fact above it, below twice it (a bound far from the value misleads). Empty for no bound or no fit."""
    if q.dim not in ("time_h", "time_m") or q.lo is not None:
        return []
    bound = _bound_before(r, q, i)
    if bound == "upper":
        return [f for f in facts if f.dim == q.dim and 0.5 * q.base <= f.value < q.base]
    if bound == "lower":
        return [f for f in facts if f.dim == q.dim and q.base < f.value <= 2 * q.base]
    return []


def _fluid_ounces(q: Quantity, pfs: list) -> Quantity:
    """An ounce said of products whose data states volumes and no mass ("a one-ounce bottle (30 ml)" of a 30 ml
    serum) is a fluid ounce: ``q`` as a volume in ml; any other quantity as it is."""
    if q.dim != "mass" or not q.value or abs(q.base / q.value - _OZ_G) > 0.01:
        return q  # an ounce by its factor (the locale's or the room's unit named "oz")
    dims = {f.dim for pf in pfs for f in pf.numbers}
    if "mass" in dims or "volume" not in dims:
        return q
    ml = q.value * _FL_OZ_ML
    lo = q.lo * _FL_OZ_ML if q.lo is not None else None
    return Quantity(q.value, "fl_oz", "volume", ml, q.start, q.end, lo, q.inherited)


def check_measure(r: "Reading", q: Quantity, i: int, pids: tuple[str, ...]) -> None:
    """Check a time, count, percentage, 折 or spec quantity against the facts of its products; record the claim."""
    pfs = r.pfs(pids)
    if not pfs:
        return
    if q.dim in ("time_h", "time_m"):
        ub = r.vocab.rx.get("usage_duration_before")
        if ub is not None and ub.search(r.text[max(r.clauses[i].start, q.start - 8) : q.start]):
            return  # "已经吃了大半年": how long someone has used it (compliance reads the endorsement)
        if _dose_period(r, q, i):
            return  # "一天两片": the day a dose is taken in, not a shipping or other time of the product
        age = r.vocab.rx.get("age_after")
        if age is not None and age.match(r.text, q.end):
            return  # "an 8-month-old", "8个月大的狗狗": the age of the viewer's pet or child, not a fact of the product
    q = _fluid_ounces(q, pfs)
    cmp_after = r.vocab.rx.get("compared_after")
    if cmp_after is not None and cmp_after.match(r.text, q.end, r.clauses[i].end):
        return  # "so an 80 lb pup is over that", "200斤的话超过承重了": the viewer's own measure held against the data
    yb, ya = r.vocab.rx.get("yardstick_before"), r.vocab.rx.get("yardstick_after")
    if yb is not None and ya is not None and q.dim != "money" and \
            yb.search(r.text[max(r.clauses[i].start, q.start - 4) : q.start]) and ya.match(r.text, q.end, r.clauses[i].end):
        return  # "30天无理由，比七天还长": the measure held up as a yardstick, no value of the product claimed
    na = r.vocab.rx.get("negation_after")
    if na is not None and q.dim not in ("plain", "count") and na.match(r.text[q.end : q.end + 40]):
        return  # "en 5 litros no hay", "in 5 litres we don't have it": the measure is denied, no value claimed
    if check_count_per_unit(r, q, i, pids):
        return  # "一斤三四十只": a grade (how many to the unit), checked against the product's "30-40只/斤"
    if conversions.unit_reference(r, q, i):
        return  # "一斤是500克", "一斤绒里九成五": one of a unit, defined or as a basis, is no fact of the product
    if conversions.check_conversion(r, q, i, pids, approximate(r, q, i)):
        return  # "10斤也就是5公斤", "60 in, roughly 152 cm", "under 2 oz": a restatement or a bound
    sw = r.cfind("supply_words", i) if q.dim in ("time_h", "time_m") else None
    if sw is not None and q.start >= r.clauses[i].start + sw.end() and supply(r, q, i, pfs):
        return  # how long a pack lasts: its count over the daily dose, not the shelf life
    fam = family(r, i, pfs, pos=q.start, dim=q.dim if q.dim in ("time_h", "time_m") else None) \
        if q.dim in ("time_h", "time_m", "count") else None
    if fam is None and q.dim in ("time_h", "time_m"):
        # no topic word anywhere ("Around 72 hours — three full days off the wrist" for "power reserve?"): the
        # spec the viewer asked about, when the product states a time for it
        fam = asked_spec(r, pfs, ("time_h", "time_m"))
    if q.dim == "time_h" and (r.cfind("flash_words", i) or r.cfind("coupon_words", i)) and \
            deal_time(r, q, i, pids, pfs, record_false=fam is None):
        return  # a deal's window; with another topic word in the clause, only when it matches one
    v = r.vocab
    orig = r.m.original(q.start, q.end)
    if q.dim == "count":
        if any(rx.match(r.text, q.end) for rx in v.attributes.values()):
            return  # a count of values ("三个色号", "two colors"): check_lists reads it
        if q.value <= 1 and fam is None and not (r.cfind("stock_context", i) or r.cfind("low_stock", i)):
            # "一个", "one": an article or a pronoun more often than a count; but a single one of what the data's own
            # words count ("每天1粒" where the FAQ says "每天2粒", "1 scoop a day") is that count, checked against it
            # (in English only when written as a digit: "one plays music" is a pronoun)
            if not r.cfind("buy_words", i) and (v.lang == "zh" or any(ch.isdigit() for ch in orig)) \
                    and not _counted_by_data(r, q, i, pids, pfs, orig):
                _zh_said(r, q, i, pids, pfs, orig)
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
        if not stockish and _continues_stock(r, q, i):
            stockish = True  # "quedan un montón, más de cien": a bound going on with the clause before
        if stockish or fam == "stock" or r.cfind("stock_context", i):
            step = 10 ** math.floor(math.log10(q.value)) if q.more and q.value > 0 else 0
            bound = _bound_before(r, q, i)
            if bound is not None:  # "más de cien", "over 200 left", "menos de 5": a bound on the count, not a count
                ok = any(pf.stock >= q.value if bound == "lower" else pf.stock <= q.value for pf in pfs)
            else:
                ok = any(eq(q.value, pf.stock) or (q.more and q.value <= pf.stock < q.value + step) for pf in pfs)
            if ok:
                r.claim(q.start, q.end, pids, "stock", q.value, q.unit, True, "true", "",
                        [("stock", pf.pid) for pf in pfs if eq(q.value, pf.stock)])
            else:
                r.claim(q.start, q.end, pids, "stock", q.value, q.unit, True, "false",
                        f"{r.label(pfs[0].pid)}: '{orig}' but stock is {pfs[0].stock}", [("stock", pfs[0].pid)])
            return
        # a count of a spec the clause names ("一瓶六十片" for size "60片"): the spec's count, else false
        if fam is not None and fam.startswith("spec:") and q.value != 1 and not r.cfind("buy_words", i):
            spec = [(pf, f) for pf in pfs for f in pf.numbers if f.attr == fam and f.dim == "count"]
            if spec:
                good = [pf for pf, f in spec if eq(q.base, f.value)]
                if good:
                    r.claim(q.start, q.end, pids, fam, q.value, q.unit, True, "true", "",
                            [(fam, pf.pid) for pf in good])
                else:
                    r.claim(q.start, q.end, pids, fam, q.value, q.unit, True, "false",
                            f"{r.label(spec[0][0].pid)}: '{orig}' but {spec[0][1].label}", [(fam, spec[0][0].pid)])
                return
        # a count of what the data counts ("About eight full phone charges" for the FAQ's "About 4 full charges")
        if not r.cfind("buy_words", i) and _counted_by_data(r, q, i, pids, pfs, orig):
            return
        if not r.cfind("buy_words", i) and _zh_said(r, q, i, pids, pfs, orig):
            return
        # a quantity bought ("买2件"), or a count the data states (spec, bundle, an FAQ answer: "每天2粒")
        facts = [(pf, f) for pf in pfs for f in pf.numbers if f.dim == "count"]
        hit = [(pf, f) for pf, f in facts if eq(q.base, f.value)]
        if hit:
            r.claim(q.start, q.end, pids, "number", q.value, q.unit, True, "true", "",
                    [a for pf, f in hit if f.attr == "faq" for a in (("spec:unknown", pf.pid), ("spec:*", pf.pid))])
        return
    if q.dim == "percent" and q.value >= 100 and not _whole_of_a_spec(r, i, pfs, q):
        return
    facts = [f for pf in pfs for f in pf.numbers if f.dim == q.dim]
    if fam is None and q.dim == "time_h" and q.base < 1.0 and not any(f.value < 1.0 for f in facts) and \
            not _about_shipping(r, i):
        return  # "泡三分钟就可以喝", "let it cool a minute": minutes of use; no time of the data is that short
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
                and eq(f.value, q.base) and topics.shares_words(r, i, f.label)] if not fam.startswith("spec:") else \
            [(pf, f) for pf in pfs for f in pf.numbers if f.attr == "faq" and f.dim == q.dim and eq(f.value, q.base)
             and any(f.label == f"FAQ '{x.a}'" for x in pf.product.faq)  # an answer, not a question's words
             and topics.restates_number_clause(r, i, f.label, f.value, f.dim)]
        if said:  # "签收48小时内拍照联系客服" restating the FAQ or the after-sales note: its window, whatever the topic word
            r.claim(q.start, q.end, pids, said[0][1].attr, q.base, q.unit, True, "true", "",
                    [a for pf, _f in said for a in (("after_sales", pf.pid), ("spec:unknown", pf.pid))])
            return
        fam_facts = [f for pf in pfs for f in pf.numbers if fact_in_family(f, fam)]
        if fam == "delivery" and not fam_facts:
            h = pfs[0].product.shipping.ships_within_hours
            r.claim(q.start, q.end, pids, "delivery", q.base, q.unit, True, "unsupported",
                    f"{r.label(pfs[0].pid)}: '{orig}' delivery, but the data only says it ships within {h} h")
            return
        if fam_facts:
            all_facts = facts
            facts = [f for f in fam_facts if f.dim == q.dim]
            if not facts:
                conv = convert_time(q, fam_facts[0].dim)
                if conv is not None:
                    q = Quantity(conv, q.unit, fam_facts[0].dim, conv, q.start, q.end, None, q.inherited)
                    facts = [f for f in fam_facts if f.dim == q.dim]
            other = [f for f in all_facts if f.attr.startswith("spec:")]
            if not facts and fam.startswith("spec:") and other:
                # the named spec states no time ("60 hours on a charge" where battery is "4400mAh"): the number is
                # about the product's spec that states one (burn_time "60 hours"), checked against those
                facts, fam = other, None
            elif not facts and fam.startswith("spec:") and all_facts and \
                    not any(f.dim in ("time_h", "time_m") for f in fam_facts):
                # the named spec is no time at all ("尺码不合适15天内能换" of size "S、M、L"): the time is the
                # product's other times' (its 15-day returns), checked against those
                facts, fam = all_facts, None
            elif not facts:
                r.claim(q.start, q.end, pids, fam, q.base, q.unit, True, "false",
                        f"{r.label(pfs[0].pid)}: '{orig}' but {fam_facts[0].label}", would_answer(fam, pfs[0].pid))
                return
    if q.dim in ("time_h", "time_m") and (not facts or fam is None and not any(
            eq(q.base, f.value) or within(q.base, f, True, approximate(r, q, i)) for f in facts)):
        # a time the data states only in the other unit ("a month — 30 days" for 30-day returns, "半年左右（180天）"
        # for a 180-day shelf life): converted by the calendar's conventions and checked against those times
        other = "time_h" if q.dim == "time_m" else "time_m"
        conv = convert_time(q, other)
        alt = [f for pf in pfs for f in pf.numbers if f.dim == other]
        # a year is 365 days, and 12 months of 30 days ("半年" for 180 days)
        cands = [c for c in (conv, q.base * 720.0 if q.dim == "time_m" else None) if c is not None]
        near = approximate(r, q, i)
        fit = [c for c in cands if any(eq(c, f.value) or within(c, f, True, near) for f in alt)]
        if fit:
            # taken only when the converted time is one the data states: otherwise the claim keeps the unit it
            # was said in (a "6-month warranty" on a part is checked in months by the after-sales checks)
            q = Quantity(fit[0], q.unit, other, fit[0], q.start, q.end, None, q.inherited)
            facts = alt
    if q.dim not in ("time_h", "time_m", "percent", "zhe") and _zh_said(r, q, i, pids, pfs, orig):
        return
    if fam is None and q.dim not in ("time_h", "time_m", "count", "percent", "zhe"):
        facts = _by_shared_word(r, i, pfs, facts)
    lo = q.lo * (q.base / q.value) if q.lo is not None and q.value else None
    approx = approximate(r, q, i)
    top = r.vocab.rx.get("range_top_before")
    # "only fits tablets up to 11 inches" of a stand that fits 4 to 13 inch: "up to" claims the range's top, so a
    # value inside the range is no longer true by being inside it (a top within the tolerance still is)
    topped = top is not None and lo is None and top.search(r.text, max(r.clauses[i].start, q.start - 16), q.start)
    ok = any(eq(q.base, f.value) or (lo is not None and range_fits(lo, q.base, f, facts))
             or (within(q.base, f, lo is None, approx) if not (topped and f.lo is not None)
                 else abs(q.base - f.value) <= APPROX_TOLERANCE * f.value)
             or conversions.rounds_to(r, q, f.value, f.label)
             for f in facts)
    ok = ok or any(eq(q.value, x) for x in extra)
    bounded = _time_bound(r, q, i, facts) if not ok else []
    ok = ok or bool(bounded)
    attr = fam or (facts[0].attr if facts else q.dim)
    if ok:
        hit = [f for f in facts if eq(q.base, f.value) or within(q.base, f, lo is None, approx)
               or conversions.rounds_to(r, q, f.value, f.label)] + bounded
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
        listed = _listed_in_spec(q, pfs)
        if listed is not None:
            # "有59/66/73/80这几个码, 66码也没货": one of the values a spec lists ("size: 59/66/73/80")
            # (true, but it answers nothing by itself: the viewer's own size said back)
            r.claim(q.start, q.end, pids, f"spec:{listed[1]}", q.value, q.unit, True, "true", "")
            return
        r.claim(q.start, q.end, pids, attr, q.base, q.unit, True, "unsupported",
                f"{r.label(pfs[0].pid)}: '{orig}': the data states no such value")
        return
    shown = facts[0].label if facts else f"{q.dim} {extra[0]:g}"
    would = would_answer(attr, pfs[0].pid) + ([("campaign", pf.pid) for pf in pfs] if q.dim in ("percent", "zhe") else [])
    would += [("spec:*", pfs[0].pid), ("spec:unknown", pfs[0].pid)]  # a wrong value answers no spec question
    # a wrong ETA of an order ("已发货，预计5天到" of a 2-day ETA) answers neither where the order is nor when it comes
    would += [(k, f.attr[6:]) for f in facts[:1] if f.attr.startswith("order:") for k in ("order_eta", "order_status")]
    r.claim(q.start, q.end, pids, attr, q.base, q.unit, True, "false", f"{r.label(pfs[0].pid)}: '{orig}' but {shown}",
            would)


#: A word of a spec value that may name it in a reply ("bag" of "24 lb bag"; units are shorter or shared).
_VALUE_WORD = re.compile(r"[A-Za-z\u00c0-\u024f]{3,}")


def _about_shipping(r: "Reading", i: int) -> bool:
    """Whether clause ``i`` speaks of shipping or delivery (a ship, deliver or ETA word of the locale)."""
    return any(r.cfind(w, i) is not None for w in ("ship_words", "deliver_words", "eta_words", "same_day", "next_day"))


def _by_shared_word(r: "Reading", i: int, pfs: list, facts: list) -> list:
    """The facts of the one spec whose value shares a word with clause ``i`` ("It's a 30 lb bag!" is about size
    "24 lb bag", not dog_size "dogs 22-44 lb") and those of no spec (title, FAQ), when the facts are of several
    specs; else ``facts``."""
    keys = {f.attr for f in facts if f.attr.startswith("spec:")}
    if len(keys) < 2:
        return facts
    words = {w.lower() for w in _VALUE_WORD.findall(r.ctext(i))}
    shared = {k for k in keys for pf in pfs if k[5:] in pf.product.specs
              and words & {w.lower() for w in _VALUE_WORD.findall(str(pf.product.specs[k[5:]]))}}
    if len(shared) != 1:
        return facts
    return [f for f in facts if f.attr in shared or not f.attr.startswith("spec:")]


#: What separates the items of a spec value that lists bare numbers ("59/66/73/80", "S, M, L").
_LIST_SEP = re.compile(r"\s*[/、,，;；|]\s*")


def _listed_in_spec(q: Quantity, pfs: list) -> "tuple[Any, str] | None":
    """The product and spec key whose value lists ``q``'s number as one of its items written without a unit
    ("size: 59/66/73/80" for "66码"), or ``None``."""
    want = f"{q.value:g}"
    for pf in pfs:
        for key, val in pf.product.specs.items():
            items = _LIST_SEP.split(str(val).strip())
            if len(items) >= 2 and all(re.fullmatch(r"\d+(?:\.\d+)?", x) for x in items) and want in items:
                return pf, key
    return None


def _counted_by_data(r: "Reading", q: Quantity, i: int, pids: tuple[str, ...], pfs: list, orig: str) -> bool:
    """A count of what the product's data counts by the same words (data_counts, data_labelled: "About eight full
    phone charges" for the FAQ's "About 4 full charges"): records the claim, true when it is one of those counts
    (within the tolerance when the reply approximates), and returns True; False when the data counts no such thing."""
    counted = data_counts(r, q, pfs) or data_labelled(r, q, i, pfs)
    if not counted:
        return False
    approx = approximate(r, q, i)
    good = [pf for pf, x, _t in counted if eq(q.base, x) or (approx and abs(q.base - x) <= APPROX_TOLERANCE * x)]
    if good:
        r.claim(q.start, q.end, pids, "number", q.value, q.unit, True, "true", "",
                [a for pf in good for a in (("spec:unknown", pf.pid), ("spec:*", pf.pid))])
    else:
        pf, x, text = counted[0]
        r.claim(q.start, q.end, pids, "number", q.value, q.unit, True, "false",
                f"{r.label(pf.pid)}: '{orig}' but the data says '{text}'",
                [("spec:unknown", pf.pid), ("spec:*", pf.pid)])
    return True


def _dose_period(r: "Reading", q: Quantity, i: int) -> bool:
    """Whether time ``q`` is the period of a dose: a count follows it within three characters and the locale's
    ``per_day`` words end right before that count ("一天两片", "每天吃1粒")."""
    pd = r.vocab.rx.get("per_day")
    if pd is None:
        return False
    c0 = r.clauses[i].start
    return any(x.dim == "count" and q.end <= x.start <= q.end + 3 and pd.search(r.text[c0 : x.start])
               for x in r.quantities)


def _supply_premise(r: "Reading", q: Quantity, i: int) -> bool:
    """Whether count ``q`` is a daily dose (the locale's ``per_day`` words right before it) that its sentence goes on
    to turn into how long a pack lasts (a ``supply_words`` word after it: "一天两片，能吃一个月")."""
    pd = r.vocab.rx.get("per_day")
    if pd is None or not pd.search(r.text[max(r.clauses[i].start, q.start - 6) : q.start]):
        return False
    sent = r.clauses[i].sentence
    return any(c.sentence == sent and k >= i and (m := r.cfind("supply_words", k)) is not None
               and c.start + m.start() >= q.end for k, c in enumerate(r.clauses))


def _zh_said(r: "Reading", q: Quantity, i: int, pids: tuple[str, ...], pfs: list, orig: str) -> bool:
    """A Chinese quantity that the same words come before as a quantity of the product's FAQ or note (data_counts.
    zh_labelled): true when it is that quantity, false otherwise ("一勺含蛋白质三十克" for "...含蛋白质24g"). Records
    the claim and returns True; returns False when no such quantity of the data is found."""
    said = zh_labelled(r, q, i, pfs)
    if not said:
        return False
    if _supply_premise(r, q, i):
        return True  # "一天两片，能吃一个月": the dose a supply is worked out from, checked with the supply

    good = [pf for pf, v, _t in said if eq(q.base, v)]
    if good:
        r.claim(q.start, q.end, pids, "faq", q.base, q.unit, True, "true", "",
                [a for pf in good for a in (("spec:unknown", pf.pid), ("spec:*", pf.pid))])
    else:
        pf, _v, text = said[0]
        r.claim(q.start, q.end, pids, "faq", q.base, q.unit, True, "false", f"{r.label(pf.pid)}: '{orig}' but FAQ '{text}'",
                [("spec:unknown", pf.pid), ("spec:*", pf.pid)])
    return True


def _whole_of_a_spec(r: "Reading", i: int, pfs: "list[ProductFacts]", q: Quantity) -> bool:
    """Whether a 100% (or more) is said of a spec the clause names whose own value is a smaller share ("filtran el
    100 % de la luz azul" of a filter stating "en torno al 40%"): then it is that spec's number, checked as one; a
    100% anywhere else is an intensifier ("100% cotton", "100% satisfied") and no claim."""
    named = spec_named(r, i, pfs)
    if named is None:
        return False
    own = [f for pf in pfs for f in pf.numbers if f.dim == "percent" and f.attr == named]
    return bool(own) and all(f.value < 100 for f in own)


__all__ = ["check_measure"]
