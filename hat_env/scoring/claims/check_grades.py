"""A grade said as how many go to one unit ("一斤三四十只", "20-30只一斤", "30-40只/斤"): the count range next to one
of a unit is checked against the product's spec value of the same form ("30-40只/斤"), and the one unit is no weight
of the product (``conversions.unit_reference`` leaves it unread)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hat_env.scoring.claims.numbers import Quantity

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading

_DIGIT = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
#: a spec value of the form "30-40只/斤" (low, high, counted word, unit word)
_SPEC_GRADE = re.compile(r"(\d+)\s*[-~～到至]\s*(\d+)\s*([^\d\s/]{1,2})\s*/\s*([^\d\s/]{1,3})")
#: a count range next to the unit in the reply: digits ("20-30只"), or the paired tens of number words ("三四十只")
_RANGE_DIGITS = re.compile(r"(\d+)\s*[-~～到至]\s*(\d+)\s*(?:来)?(只|个|颗|粒|头|条|枚)")
_RANGE_TENS = re.compile(r"([一二三四五六七八九])([一二三四五六七八九])十\s*(?:来)?(只|个|颗|粒|头|条|枚)")
_GAP = r"\s*(?:/|每|约|大约|大概|差不多|有|能有|左右)?\s*"


def _range_at(text: str, start: int, end: int, after: bool) -> tuple[int, int, int, int] | None:
    """The count range right after ``end`` (``after``) or right before ``start`` in ``text``: ``(lo, hi, s, e)``."""
    for rx in (_RANGE_DIGITS, _RANGE_TENS):
        for m in rx.finditer(text):
            gap = text[end : m.start()] if after else text[m.end() : start]
            if (m.start() < end if after else m.end() > start) or not re.fullmatch(_GAP, gap):
                continue
            if rx is _RANGE_DIGITS:
                lo, hi = int(m.group(1)), int(m.group(2))
            else:
                lo, hi = _DIGIT[m.group(1)] * 10, _DIGIT[m.group(2)] * 10
            return lo, hi, m.start(), m.end()
    return None


def check_count_per_unit(r: "Reading", q: Quantity, i: int, pids: tuple[str, ...]) -> bool:
    """When ``q`` is one of a unit next to a count range and one of ``pids``'s specs is a grade of that form, record
    the range as a claim of that spec (true when it is the spec's range) and return True; else False.

    Args:
        r: the reply's reading; q: the quantity (one 斤, one kg...); i: its clause; pids: the products it is about.
    """
    if abs(q.value - 1) > 1e-9 or q.lo is not None or r.vocab.lang != "zh":
        return False
    c = r.clauses[i]
    text = r.text[c.start : c.end]
    s, e = q.start - c.start, q.end - c.start
    got = _range_at(text, s, e, True) or _range_at(text, s, e, False)
    if got is None:
        return False
    lo, hi, gs, ge = got
    for pf in r.pfs(pids):
        for key, val in pf.product.specs.items():
            m = _SPEC_GRADE.search(str(val))
            if m is None:
                continue
            ok = (int(m.group(1)), int(m.group(2))) == (lo, hi)
            a, b = c.start + min(gs, s), c.start + max(ge, e)
            r.claim(a, b, (pf.pid,), f"spec:{key}", f"{lo}-{hi}", "", True, "true" if ok else "false",
                    "" if ok else f"{r.label(pf.pid)}: '{r.m.original(a, b)}' but {key} is '{val}'",
                    [(f"spec:{key}", pf.pid), ("spec:*", pf.pid)] + ([("spec:unknown", pf.pid)] if ok else []))
            return True
    return False


__all__ = ["check_count_per_unit"]
