"""Amounts derived from the room's prices: unit prices ("一斤才7块7", "under $1.90 a pound", "合一件不到55"),
differences ("差40块才够满199", "坚果贵了37块1", "saves you $30.99", "you'd be $10.01 short") and totals of a price
and its fees ("$49.99 with the $4.99 shipping").

Units come from the vocabulary (``units``: each with its dimension and factor, the room's catalog units
included), so a unit price in any unit the data's quantity converts to is read: the product's quantity in that
dimension (its title or a spec value: "24 lb bag", "5kg", "90粒") over the unit's factor gives the count of units,
and a price of the product (or an amount the sentence states) over that count is the unit price. The words that
mark "per unit" are the locale's ``per_unit_after`` (after the amount: "a pound", "/lb") and ``per_unit_lead``
(before the unit, before the amount: "一斤才", "每斤", "合一件"). A unit price is a derived figure: it is true when
the amount rounds to it at the precision written (7.7 for 7.7), or as a bound ("不到", "under").
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hat_env.scoring.claims.numbers import Quantity
from hat_env.scoring.claims.vocab import Unit

if TYPE_CHECKING:
    from hat_env.scoring.claims.facts import ProductFacts
    from hat_env.scoring.claims.read import Reading

_EPS = 0.0051


def _unit_at(r: "Reading", pos: int) -> "Unit | None":
    """The unit whose word starts at ``pos`` (after optional spaces), or ``None``."""
    m = r.vocab.unit_rx.match(r.text, pos)
    if m is None or m.lastgroup is None:
        return None
    u = next((x for x in r.vocab.units if x.name == m.lastgroup), None)
    if u is None or u.dim in ("money", "time_h", "time_m", "percent", "zhe"):
        return None
    e = m.end()
    if e < len(r.text) and r.text[e].isascii() and r.text[e].isalpha() and m.group()[-1:].isalpha():
        return None  # "a pounding", not "a pound"
    return u


#: one item of a pack ("each", "cada una", "por toalla"): a count, divided by the pack's count
ITEM = Unit("item", "count", 1.0, re.compile("(?!x)x"))
_WORD = re.compile(r"[^\W\d_]{3,}")


def _title_word(r: "Reading", word: str) -> bool:
    """Whether ``word`` names the items of a product by its title ("toalla" of "Toallas de Baño", "towel")."""
    w = word.lower()
    if len(w) < 4 or r.vocab.lang == "zh":
        return False
    return any(t.lower().startswith(w[:-1]) or w.startswith(t.lower().rstrip("s"))
               for p in r.room.products for t in _WORD.findall(p.title) if len(t) >= 4)


def _unit_name(unit: "Unit") -> str:
    """How a note names a unit (``lb``, not the room-unit id ``room_lb``)."""
    return unit.name.removeprefix("room_")


def per_unit(r: "Reading", q: Quantity, i: int) -> "tuple[Unit, tuple[int, int] | None] | None":
    """The unit an amount is a price per, and the span of its per-unit marker, which is not a quantity claim ("1斤"
    in "1斤才7块7" and in "54.5元1斤"), or ``None`` when the amount is not a unit price."""
    c = r.clauses[i]
    after_rx = r.vocab.rx.get("per_unit_after")
    if after_rx is not None:
        m = after_rx.match(r.text, q.end, min(c.end, q.end + 12))
        if m is not None:
            u = _unit_at(r, m.end())
            if u is not None:
                um = r.vocab.unit_rx.match(r.text, m.end())
                assert um is not None
                return u, (m.start(), um.end())
            w = _WORD.match(r.text, m.end())
            if w is not None and _title_word(r, w.group()):
                return ITEM, (m.start(), w.end())  # "6,30 € por toalla" on the "Toallas ... Pack de 4"
    pi = r.vocab.rx.get("per_item_after")
    if pi is not None:
        m = pi.match(r.text, q.end, min(c.end, q.end + 16))
        if m is not None:
            return ITEM, (m.start(), m.end())  # "6,23 € cada una", "$6.23 each"
    lead = r.vocab.rx.get("per_unit_lead")
    fill = r.vocab.rx.get("per_unit_filler")
    if lead is None:
        return None
    lo = max(c.start, q.start - 16)
    for m in lead.finditer(r.text, lo, q.start):
        u = _unit_at(r, m.end())
        if u is None:
            continue
        um = r.vocab.unit_rx.match(r.text, m.end())
        assert um is not None
        gap = r.text[um.end() : q.start]
        if gap.strip() == "" or (fill is not None and fill.fullmatch(gap.strip())):
            return u, (m.start(), um.end())
    return None


def per_unit_markers(r: "Reading", qs: list[Quantity]) -> list[tuple[int, int]]:
    """Spans of per-unit markers ("1斤" in "1斤才7块7", "1件" in "合1件不到55") before unit prices: they name the
    unit, they do not state a quantity."""
    out: list[tuple[int, int]] = []
    if r.vocab.rx.get("per_unit_lead") is None:
        return out
    for q in qs:
        if q.dim not in ("money", "plain"):
            continue
        i = r.clause_at(q.start)
        got = per_unit(r, q, i)
        if got is not None and got[1] is not None:
            out.append(got[1])
    return out


def _quantities(pf: "ProductFacts", dim: str) -> list[float]:
    """The product's quantities in dimension ``dim`` (base units) from its title and spec values; a range ("dogs
    22-44 lb") is no pack size."""
    lows = [(f.attr, f.lo) for f in pf.numbers if f.lo is not None]  # a range's start is read as a number too
    return sorted({f.value for f in pf.numbers if f.dim == dim and f.value > 0 and f.lo is None
                   and (f.attr == "title" or f.attr.startswith("spec:"))
                   and not any(a == f.attr and abs(lo - f.value) < 1e-6 for a, lo in lows)})


def _pack_counts(pf: "ProductFacts") -> list[float]:
    """Bare numbers of the product's title above 1 ("Pack de 4"): how many items a pack holds."""
    return sorted({f.value for f in pf.numbers if f.attr == "title" and f.dim == "plain" and f.value > 1})


def _decimals(r: "Reading", q: Quantity) -> int:
    """How many decimals the amount was written with (``7块7``: 1, ``$1.87``: 2, ``54``: 0)."""
    raw = r.text[q.start : q.end]
    m = re.search(r"\d+(?:[.,]\d+)?", raw)
    digits = m.group() if m else raw
    if "." in digits:
        return len(digits.split(".")[1])
    if re.search(r"[块元]\d毛\d", raw):
        return 2
    if re.search(r"[块元]\d", raw):
        return 1
    return 0


def _prices(r: "Reading", pf: "ProductFacts", q: Quantity, i: int) -> list[float]:
    """Amounts a unit price may divide: what the product costs now, before coupons, its bundle's per-unit price,
    and the amounts its sentence states before this one."""
    out = [pf.effective, pf.base, pf.price, *pf.bundle_prices]
    sent = r.clauses[i].sentence
    out += [x.value for x in r.quantities if x.dim in ("money", "plain") and x.end <= q.start
            and x.value > 0 and r.clauses[r.clause_at(x.start)].sentence == sent]
    return out


def _bundle_units(r: "Reading", pf: "ProductFacts") -> list[float]:
    """Per-unit prices of a running bundle over the products the reply names or the viewers asked about ("坚果和
    牛肉干一起拍85折，合一件不到55")."""
    out: list[float] = []
    pids = [p for p in dict.fromkeys([*r.scope, *r.report.mentioned]) if p in r.room.by_id]
    for qty, pct in pf.bundles:
        if qty < 2:
            continue
        f = 1 - pct / 100.0
        others = [r.facts.of(p) for p in pids if p != pf.pid]
        sets = [[pf] * qty] + ([[pf, *others[: qty - 1]]] if len(others) >= qty - 1 else [])
        for s in sets:
            for attr in ("effective", "price", "base"):
                out.append(sum(getattr(x, attr) for x in s) * f / qty)
    return out


def check_unit_price(r: "Reading", q: Quantity, i: int, pids: tuple[str, ...], role: str) -> bool:
    """Check an amount written as a price per unit ("一斤才7块7", "under $1.90 a pound"); record the claim and
    return True, or return False when the amount is not a unit price (or no quantity of the products converts
    to its unit)."""
    got = per_unit(r, q, i)
    if got is None:
        return False
    unit, _span = got
    pfs = r.pfs(pids)
    cands: list[tuple["ProductFacts", float]] = []
    for pf in pfs:
        if unit.dim == "count" and unit.factor == 1:
            cands += [(pf, x) for x in [*_bundle_units(r, pf), *pf.bundle_prices[1:]]]
        counts = _quantities(pf, unit.dim) + (_pack_counts(pf) if unit is ITEM else [])
        for amount in counts:
            n = amount / unit.factor
            if n <= 0:
                continue
            cands += [(pf, p / n) for p in _prices(r, pf, q, i)]
    if not cands:
        return False
    v = q.value
    half = 0.5 * 10 ** -_decimals(r, q) + _EPS
    if role == "upper":
        hit = [(pf, x) for pf, x in cands if x < v + _EPS and x > 0.5 * v]
    elif role == "lower":
        hit = [(pf, x) for pf, x in cands if x > v - _EPS]
    else:
        hit = [(pf, x) for pf, x in cands if abs(x - v) <= half]
    orig = r.m.original(q.start, q.end)
    if not hit and role == "pay" and any(abs(v - x) < _EPS for pf in pfs for x in (
            pf.effective, pf.base, pf.price, *pf.bundle_prices)):
        return False  # "39.9元一包": the price of one pack as sold, read as a price
    if hit:
        r.claim(q.start, q.end, (hit[0][0].pid,), "unit_price", v, unit.name, True, "true", "", [])
    else:
        pf = pfs[0]
        real = next((x for p, x in cands if p is pf), cands[0][1])
        r.claim(q.start, q.end, pids, "unit_price", v, unit.name, True, "false",
                f"{r.label(pf.pid)}: '{orig}' per {_unit_name(unit)} but it is {real:.2f} per {_unit_name(unit)}")
    return True


def differences(r: "Reading", q: Quantity, i: int, pf: "ProductFacts") -> list[float]:
    """Differences a reply may state about ``pf``: how far its price is from a coupon's threshold ("差40块才够满
    199"), between any two prices of the products asked about or named (now, before coupons, on the tag), and
    between two amounts its sentence states ("比页面价229省了60")."""
    out: list[float] = []
    for _a, t, _c in pf.coupons:
        for p in (pf.base, pf.effective, pf.price):
            if t > p:
                out.append(t - p)
    pids = [p for p in dict.fromkeys([*r.scope, *r.report.mentioned, pf.pid]) if p in r.room.by_id]
    vals = [(p, x) for p in pids for x in {r.facts.of(p).effective, r.facts.of(p).base, r.facts.of(p).price}]
    out += [abs(a - b) for k, (pa, a) in enumerate(vals) for pb, b in vals[k + 1 :] if pa != pb]
    sent = r.clauses[i].sentence
    stated = [x.value for x in r.quantities if x.dim in ("money", "plain") and x.value > 0
              and x.start != q.start and r.clauses[r.clause_at(x.start)].sentence == sent]
    out += [abs(a - b) for k, a in enumerate(stated) for b in stated[k + 1 :]]
    return [x for x in out if x > 0.004]


def fee_totals(pf: "ProductFacts", stated: list[float] | None = None) -> list[float]:
    """What the product costs with its fees (shipping, oversize, installation) added, each alone and all together:
    "$49.99 with the $4.99 shipping". ``stated``: when given, only the fees among these amounts (the sentence
    says which fee it adds, so "$49.99 with free shipping" is no total)."""
    s = pf.product.shipping
    fees = [x for x in (s.fee, s.oversize_fee, s.installation_fee) if x]
    if stated is not None:
        fees = [x for x in fees if any(abs(x - y) < _EPS for y in stated)]
    out: list[float] = []
    for p in {pf.effective, pf.base, pf.price}:
        out += [p + x for x in fees]
        if len(fees) > 1:
            out.append(p + sum(fees))
    return out


__all__ = ["check_unit_price", "differences", "fee_totals", "per_unit", "per_unit_markers"]
