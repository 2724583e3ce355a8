"""Readings of a clause's words that say which product or which amount is asked, not what: a variant's value or a
size said with a stock or purchase word (calibration README conventions: a variant + stock words asks the stock),
and a Chinese measure noun before "多少" (its amount, not the price). Used by :mod:`~hat_env.understanding.assemble`."""

from __future__ import annotations

import re
from bisect import bisect_right

from hat_env.understanding.clauses import Hit

#: the attributes whose values tell a product's variants apart: a value of one said with a stock word ("rascador
#: gris hay?", "卫衣 XL有吗") or in a purchase says which one, it asks no spec (calibration README conventions)
VARIANT_ATTRS = frozenset({"color", "size", "shade"})
#: a size said right after a size word ("talla M", "size 40", "talla 39")
_SIZE_AFTER = re.compile(r"\s*(?:\d{1,3}(?:[.,]5)?|[2-4]?x{0,3}[sml]|xxs|xs)(?![\w])")


def names_its_value(f: str, start: int, end: int) -> bool:
    """Whether the size word at ``f[start:end]`` is followed by a size ("talla M", "size 10")."""
    return _SIZE_AFTER.match(f, end) is not None


def variant_then_stock(h: Hit, hits: list[Hit], bounds: list[int]) -> bool:
    """Whether the bare stock word ``h`` ("hay") closes a clause that names only variant values before it
    ("rascador gris hay?", "pulso x5 en negro hay?"): the stock of that variant is asked (when the clause names
    the product; "米色的有吗" alone stays a colour question)."""
    c = bisect_right(bounds, h[0])
    own = [x for x in hits if x is not h and bisect_right(bounds, x[0]) == c and x[3] != "chitchat"]
    return bool(own) and all(x[2] == "value" and x[3] in VARIANT_ATTRS and x[1] <= h[0] for x in own)


def other_values_next(h: Hit, hits: list[Hit], bounds: list[int]) -> bool:
    """Whether the clause after spec hit ``h``'s names values of other attributes only ("卫衣有哪些颜色 XL有吗": the
    size asked after the colours is a question of its own)."""
    c = bisect_right(bounds, h[0]) + 1
    nxt = [x for x in hits if x[2] == "value" and bisect_right(bounds, x[0]) == c]
    return bool(nxt) and all(x[3] != h[3] for x in nxt)


#: the last character of a Chinese measure noun ("充绒量", "防晒值", "硬度", "含糖率"): "多少" after one asks that amount
_MEASURE_ENDS = frozenset("量值度率")
#: the last character of a Chinese dimension noun ("筒高", "袖长", "肩宽", "净重", "直径", "腰围", "尺寸"): "多少" after
#: one asks that dimension, not the price; read only right after a product's name and outside it ("乐高多少")
_DIMENSION_ENDS = frozenset("高长宽重径围深厚寸")


def measure_before(f: str, start: int, joints: list[int], named: "list[tuple[int, int]] | None" = None) -> bool:
    """Whether the quantity word at ``start`` follows (a "是" between) a measure noun of its part of the clause:
    one ending in a measure character, or in a dimension character outside the product names ``named`` (spans)."""
    lo = joints[bisect_right(joints, start) - 1] if bisect_right(joints, start) > 0 else 0
    i = start
    while i > lo and f[i - 1] in " 是":
        i -= 1
    if not (i - 2 >= lo and "\u4e00" <= f[i - 2] <= "\u9fff"):
        return False
    if f[i - 1] in _MEASURE_ENDS:
        return True
    # a dimension noun of two or three characters right after a product's name or a "的" ("雪地靴筒高多少",
    # "帆布鞋鞋跟高多少", "裙子的袖长多少"), itself no part of a name
    han3 = i - 3 >= lo and "\u4e00" <= f[i - 3] <= "\u9fff" and f[i - 3] != "的"
    after = any(any(b == j for _a, b in named or ()) or (j - 1 >= lo and f[j - 1] == "的")
                for j in ((i - 2, i - 3) if han3 else (i - 2,)))  # j: where the noun starts
    return f[i - 1] in _DIMENSION_ENDS and after and not any(a <= i - 1 < b for a, b in named or ())


__all__ = ["VARIANT_ATTRS", "measure_before", "names_its_value", "other_values_next", "variant_then_stock"]
