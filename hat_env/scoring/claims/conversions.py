"""Spec quantities said in another unit: a conversion restating the quantity before it ("10斤也就是5公斤", "5 feet
tall (60 in, roughly 152 cm)", "a 24 lb bag, about 10.9 kg"), and bounds on a measure ("under 2 oz" for 48 g).

Units and their factors are the vocabulary's (``units`` of the locale file plus the room's catalog units), so
any pair of units of one dimension converts. A conversion is a restatement: the quantity right before it in the
sentence, of the same dimension, is what it must equal, rounded at the precision it is written with (``10.9 kg``
for 10.886 kg), or within the approximate tolerance when the reply marks it approximate ("about", "约"). The
quantity before it is checked against the data as usual. The words between the two that make the second a
restatement are the locale's ``conversion_words`` ("that's", "or", "(", "也就是", "相当于"); a bound is a
measure after ``measure_upper`` / ``measure_lower`` words.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hat_env.scoring.claims.numbers import Quantity

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading

#: dimensions of spec measures (times, counts, money, percentages and 折 are read by their own rules)
MEASURE_DIMS = frozenset({"mass", "volume", "length", "power", "capacity", "energy", "temperature"})
#: how far an approximate conversion may be from the quantity it restates
APPROX = 0.1
_EPS = 1e-6
_PUNCT = re.compile(r"[\s,，、:：=≈~()（）]+")
_DIMS = re.compile(r"\s?(?:[×xX*]|乘以?|by)\s?")


#: The largest share of the value before it a conversion may be off by, however coarse its unit.
_COARSE_SHARE = 0.25
#: The largest share of the data's value a measure said in another unit may be off by (:func:`rounds_to`).
_ROUNDING_SHARE = 0.1


def _precision(r: "Reading", q: Quantity) -> float:
    """Half of the last written digit's place, in the quantity's base unit (``10.9 kg``: 0.05 kg)."""
    m = re.search(r"\d+(?:\.(\d+))?", r.text[q.start : q.end])
    dec = len(m.group(1)) if m and m.group(1) else 0
    shown = f"{q.value:g}"
    if "." in shown:  # a decimal said after the unit ("1米5" is 1.5 m): the value's own decimals
        dec = max(dec, len(shown.split(".")[1]))
    unit = next((u for u in r.vocab.units if u.name == q.unit), None)
    factor = unit.factor if unit is not None else q.base / q.value if q.value else 1.0  # an offset scale: its factor
    return 0.5 * 10 ** -dec * abs(factor)


def _is_measure(q: Quantity) -> bool:
    """Whether ``q`` is a spec measure (mass, volume, length... or a room unit's dimension)."""
    return q.dim in MEASURE_DIMS or q.dim.startswith("room:")


def restated(r: "Reading", q: Quantity, i: int) -> Quantity | None:
    """The quantity ``q`` restates in another unit: the nearest quantity before it in its sentence, of the same
    dimension and another unit, with only conversion words (or an approximate word) between them; else ``None``."""
    if not _is_measure(q):
        return None
    conv = r.vocab.rx.get("conversion_words")
    if conv is None:
        return None
    sent = r.clauses[i].sentence
    qs = r.quantities
    q0 = _run_start(r, qs, q)  # "69 x 79 x 99 cm": the run restates the run before it
    before = [x for x in qs if x.end <= q0.start and r.clauses[r.clause_at(x.start)].sentence == sent]
    if not before:
        return None
    prev = before[-1]
    if prev.dim != q.dim or prev.unit == q.unit:
        return None
    gap = r.text[prev.end : q0.start]
    dims = r.vocab.rx.get("dimension_words")
    if dims is not None:
        # "长一米八，宽三十厘米", "2 ft tall, 60 cm wide": each names its own dimension, neither restates the other
        near_prev = {m.group().lower() for m in dims.finditer(r.text, max(0, prev.start - 3), prev.start)} | \
            {m.group().lower() for m in dims.finditer(r.text, prev.end, min(len(r.text), prev.end + 8))}
        near_q = {m.group().lower() for m in dims.finditer(r.text, max(prev.end, q0.start - 3), q0.start)} | \
            {m.group().lower() for m in dims.finditer(r.text, q.end, min(len(r.text), q.end + 8))}
        if near_q - near_prev:
            return None  # the second names a dimension the first does not: another measure
    rest = _PUNCT.sub(" ", conv.sub(" ", gap)).split()
    brk = r.vocab.rx.get("conversion_breaks")
    if brk is not None and any(brk.search(w) for w in rest):
        return None  # "(10-20 kg), so a 70 lb lab": an article opens another item
    if len(gap) > 24 or conv.search(gap) is None or len(rest) > 1 or (rest and r.vocab.lang == "zh" and len(rest[0]) > 2):
        return None  # more than the measure's noun ("24 lb bag, that's about") stands between: another item
    return prev


def _run_start(r: "Reading", qs: list[Quantity], q: Quantity) -> Quantity:
    """The first quantity of the dimension run ``q`` ends ("27 x 31 x 39 in" for 39), or of the range it ends
    ("10-20 kg" for 20), or ``q``."""
    cur = q
    for x in reversed([x for x in qs if x.end <= q.start]):
        if _DIMS.fullmatch(r.text[x.end : cur.start]) or (cur.lo is not None and x.inherited and x.unit == cur.unit
                                                            and abs(x.value - cur.lo) < _EPS):
            cur = x
            continue
        break
    return cur


def _range_end(r: "Reading", q: Quantity) -> Quantity | None:
    """The quantity whose range ``q`` starts ("10" of "10-20 kg"), or ``None``."""
    if not q.inherited:
        return None
    nxt = next((x for x in r.quantities if x.start >= q.end), None)
    if nxt is not None and nxt.lo is not None and nxt.unit == q.unit and abs(nxt.lo - q.value) < _EPS:
        return nxt
    return None


def _lo_base(r: "Reading", q: Quantity) -> float | None:
    """The lower end of range ``q`` in the base unit, or ``None``."""
    if q.lo is None:
        return None
    u = next((u for u in r.vocab.units if u.name == q.unit), None)
    return u.to_base(q.lo) if u is not None else None


def restated_all(r: "Reading", q: Quantity, i: int) -> list[Quantity]:
    """What ``q`` may restate: :func:`restated`'s quantity and the others of its dimension pair ("180×30厘米，
    也就是1.8米长": 180 or 30 cm)."""
    prev = restated(r, q, i)
    if prev is None:
        return []
    qs = [x for x in r.quantities if x.end <= prev.start]
    out = [prev]
    cur = prev
    for x in reversed(qs):
        if not _DIMS.fullmatch(r.text[x.end : cur.start]) or x.dim != prev.dim:
            break
        out.append(x)
        cur = x
    return out


def check_conversion(r: "Reading", q: Quantity, i: int, pids: tuple[str, ...], approximate: bool) -> bool:
    """Check a measure that restates the one before it, or that is a bound; record the claim and return True,
    or return False when ``q`` is neither (the usual checks then read it)."""
    if not _is_measure(q):
        return False
    c = r.clauses[i]
    before = r.text[max(c.start, q.start - 14) : q.start]
    up, low = r.vocab.rx.get("measure_upper"), r.vocab.rx.get("measure_lower")
    bound = "upper" if up is not None and up.search(before) else "lower" if low is not None and low.search(before) else ""
    end = _range_end(r, q)
    prevs = restated_all(r, end if end is not None else q, i)
    orig = r.m.original(q.start, q.end)
    if prevs and end is not None:
        # the start of a range restating a range ("10" of "10-20 kg" after "22-44 lb"): the start of that range
        ref = [b for b in (_lo_base(r, prevs[0]),) if b is not None]
        if not ref:
            return False
        what = f"the start of '{r.m.original(prevs[0].start, prevs[0].end)}'"
    elif prevs:
        ref = [x.base for x in prevs]
        what = f"'{r.m.original(prevs[0].start, prevs[0].end)}'"
    elif bound:
        pfs = r.pfs(pids)
        ref = [f.value for pf in pfs for f in pf.numbers if f.dim == q.dim and f.value > 0
               and (f.attr.startswith("spec:") or f.attr == "title")]
        if not ref:
            return False
        what = "the data's value"
    else:
        return False
    if bound == "upper":
        ok = any(x < q.base + _EPS for x in ref)
    elif bound == "lower":
        ok = any(x > q.base - _EPS for x in ref)
    else:
        # either side may be the rounded one ("about 12.3 oz (350 g)" for 350 g): the coarser precision holds
        tol = max(_precision(r, q), *(_precision(r, x) for x in prevs[:1]), APPROX * abs(q.base) if approximate else 0.0)
        # a coarse unit's half is no licence to double the value ("250克，大概一斤" is not 500 g restated)
        ok = any(abs(x - q.base) <= tol + _EPS and abs(x - q.base) <= _COARSE_SHARE * abs(x) + _EPS for x in ref)
    if ok:
        r.claim(q.start, q.end, pids, "conversion", q.base, q.unit, True, "true", "", [])
    else:
        r.claim(q.start, q.end, pids, "conversion", q.base, q.unit, True, "false",
                f"'{orig}' but {what} is not that")
    return True


#: what may stand between one of a unit and the count it is the basis of ("一斤大概三四十只", "30-40只/斤")
_PER_GAP = re.compile(r"\s*(?:/|每|约|大约|大概|差不多|有|能有|左右)?\s*")


def _counted_per(r: "Reading", q: Quantity, i: int) -> bool:
    """Whether one of a unit ``q`` is the basis of a count right next to it: "一斤三四十只", "1kg约20个", "三四十只
    一斤" (a grade: how many to the unit), so it is no weight or volume of the product."""
    after, before = r.vocab.rx.get("counted_per_after"), r.vocab.rx.get("counted_per_before")
    c = r.clauses[i]
    if (after is not None and after.match(r.text, q.end, c.end)) or (
            before is not None and before.search(r.text[c.start : q.start])):
        return True  # "一斤三四十只", "三四十只一斤": counts in number words the quantity reader leaves unread
    for x in r.quantities:
        if x.dim != "count" or x is q or r.clause_at(x.start) != i:
            continue
        if x.start >= q.end and _PER_GAP.fullmatch(r.text[q.end : x.start]):
            return True
        if x.end <= q.start and _PER_GAP.fullmatch(r.text[x.end : q.start]):
            return True
    return False


def unit_reference(r: "Reading", q: Quantity, i: int) -> bool:
    """Whether measure ``q`` is one of a unit, not a fact of a product: a unit's definition ("一斤是500克",
    "1 lb = 454 g": one of a unit, the locale's ``unit_equals`` word, the same amount in another unit; either side)
    or the basis of a share ("一斤绒里九成五都是绒朵": one of a unit, a noun, then a ``unit_basis`` word)."""
    if not _is_measure(q):
        return False
    eq, basis = r.vocab.rx.get("unit_equals"), r.vocab.rx.get("unit_basis")
    if eq is None and basis is None:
        return False
    one = abs(q.value - 1) < _EPS and q.lo is None
    if one and basis is not None and basis.match(r.text, q.end, r.clauses[i].end):
        return True
    if one and _counted_per(r, q, i):
        return True
    if eq is None:
        return False
    qs = [x for x in r.quantities if r.clause_at(x.start) == i]
    for a, b in zip(qs, qs[1:]):
        if q is not a and q is not b and (q.start, q.end) not in ((a.start, a.end), (b.start, b.end)):
            continue
        if abs(a.value - 1) > _EPS or a.lo is not None or a.dim != b.dim or a.unit == b.unit:
            continue
        if eq.fullmatch(r.text[a.end : b.start]) and abs(a.base - b.base) <= max(_precision(r, b), 0.01 * abs(a.base)) + _EPS:
            return True
    return False


def rounds_to(r: "Reading", q: Quantity, value: float, data_text: str) -> bool:
    """Whether measure ``q``, said in a unit the data text does not use, is the data's ``value`` rounded at the
    precision written ("61 cm" for 24 in, "10.9 kg" for a 24 lb bag); the same unit gets no tolerance."""
    if not _is_measure(q) or not q.value:
        return False
    if any(m.lastgroup == q.unit for m in r.vocab.unit_rx.finditer(data_text)):
        return False
    # at the precision written, and near the value: "1 litro" rounds 75 cl at a whole litre, but a 75 cl bottle is
    # no one-litre bottle (a rounding off by more than a tenth changes the fact)
    return abs(q.base - value) <= _precision(r, q) + _EPS and abs(q.base - value) <= _ROUNDING_SHARE * abs(value) + _EPS


__all__ = ["MEASURE_DIMS", "check_conversion", "restated", "rounds_to", "unit_reference"]
