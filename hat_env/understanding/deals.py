"""Deal words in a comment's questions: a deal named as the condition of a price question asks the price, not
about the deal (:func:`deal_prices`); a question about a kind of deal is asked once (:func:`focus_deals`); and the
token right after a quantity word (:func:`next_token`), which tells whether "how much" asks a price. Used by
:mod:`~hat_env.understanding.assemble` and :mod:`~hat_env.understanding.parser`."""

from __future__ import annotations

import re
from bisect import bisect_right

from hat_env.types import Intent
from hat_env.understanding.clauses import Hit, is_emoji
from hat_env.understanding.lexicon import Lexicon
from hat_env.understanding.questions import QUESTION_CHARS


def deal_prices(f: str, hits: list[Hit], bounds: list[int], lex: Lexicon) -> list[Hit]:
    """A deal named as the condition of a price question asks the price after it, not about the deal.

    A word that is both a deal and a price ("秒杀价", "flash price") asks the price when its part of the clause also
    asks "how much" (or names another price word), else it asks about the deal ("blender flash price til when")
    unless another deal word of its part does ("flash price + PAW code stack?": the price and the code); a
    deal word right after a deal-condition lead ("how much w coupon", "cuánto cuesta con cupón", "how much with
    the deal") in a part of a clause that asks a price is no campaign question.

    Args:
        f: the folded comment.
        hits: the keyword hits, sorted.
        bounds: the clause bounds.
        lex: the compiled words (``joint_re`` parts, ``deal_condition_re``).

    Returns:
        The hits without the dropped campaign (or price) roles.
    """
    deals = [h for h in hits if (h[2] == "kind" and h[3] == "campaign") or h[2] == "deal"]
    if not deals:
        return hits
    parts = sorted({m.start() for m in lex.joint_re.finditer(f)} | set(bounds))
    drop: set[Hit] = set()
    priced: list[Hit] = []
    for d in deals:
        part = bisect_right(parts, d[0])
        start = parts[part - 1] if part > 0 else 0
        same = [h for h in hits if bisect_right(parts, h[0]) == part]
        if d[2] == "deal":  # "how much w the code", "price with the coupon": the deal is the price's condition
            asked = [h for h in same if ((h[2] == "qty" and h[3] != "count") or (h[2] == "kind" and h[3] == "price"))
                     and h[1] <= d[0] and lex.deal_condition_re.fullmatch(f[h[1]:d[0]].strip()) is not None]
            if asked:
                drop.add(d)
                for h in asked:
                    if h[2] == "qty":
                        drop.add(h)
                        priced.append((h[0], h[1], "kind", "price"))
            continue
        if _price_right_after(f, d, same, parts, part):  # "羽绒服秒杀多少钱", "flash sale price?": the price at it
            drop.add(d)
            continue
        compound = [h for h in same if h[2] == "kind" and h[3] == "price" and (h[0], h[1]) == (d[0], d[1])]
        asks_price = any((h[2] == "qty" and h[3] != "count"  # not "cuánto me ahorro"
                          and (next_token(f, h[1], parts) in (None, *lex.qty_next)
                               or lex.deal_condition_re.fullmatch(f[h[1]:d[0]].strip()) is not None))  # "how much w"
                         or (h[2] == "kind" and h[3] == "price" and (h[0], h[1]) != (d[0], d[1])) for h in same)
        other_deal = any((h[2] == "deal" or (h[2] == "kind" and h[3] == "campaign")) and (h[0], h[1]) != (d[0], d[1])
                         for h in same)
        buying = any(h[2] == "kind" and h[3] == "purchase" for h in same)
        if compound and buying and not asks_price:  # "秒杀价拍两盒": the price it is bought at, no question
            drop.add(d)
            drop.update(compound)
        elif compound and asks_price:
            drop.add(d)
        elif compound and not other_deal:  # the only deal word of its part: the question is about the deal
            drop.update(compound)
        elif asks_price and lex.deal_condition_re.search(f, start, d[0]) is not None:
            drop.add(d)
            for h in same:  # its quantity word asks the price ("how much w coupon")
                if h[2] == "qty" and h[3] != "count":
                    drop.add(h)
                    priced.append((h[0], h[1], "kind", "price"))
    if not drop:
        return hits
    for d in deals:  # "cuánto con la flash y el cupón": a deal joined on to a condition is a condition too
        part = bisect_right(parts, d[0])
        if d in drop or part == 0 or not any(x in drop and bisect_right(parts, x[0]) == part - 1
                                             and bisect_right(bounds, x[0]) == bisect_right(bounds, d[0]) for x in deals):
            continue
        j = lex.joint_re.match(f, parts[part - 1])
        rest = f[j.end():d[0]].split() if j is not None else None
        if rest is not None and len(rest) <= 1 and all(len(w) <= 3 for w in rest):
            drop.add(d)
    return sorted([h for h in hits if h not in drop] + priced)


#: what may follow the price word that closes a deal-conditioned price question ("秒杀多少钱呀", "flash sale price?")
_CLOSING = re.compile(r"[\s?？!！。.,，~～呀啊呢吗嘛哇]*")


def _price_right_after(f: str, d: Hit, same: list[Hit], parts: list[int], part: int) -> bool:
    """Whether the campaign word ``d`` is right before (at most a space or "的" between) a price word or price
    quantity word that ends its part of the clause ("羽绒服秒杀多少钱", "券多少钱", "一起买多少钱", "flash sale
    price?"): the deal says which price is asked, it asks nothing about the deal."""
    end = parts[part] if part < len(parts) else len(f)
    for h in same:
        if not ((h[2] == "kind" and h[3] == "price") or (h[2] == "qty" and h[3] != "count")) or h[0] < d[1]:
            continue
        if f[d[1]:h[0]].strip(" 的") or h[0] - d[1] > 2:
            continue
        if any(x[0] >= h[1] and x[2] in ("kind", "spec", "deal", "value") for x in same):
            continue
        if _CLOSING.fullmatch(f, h[1], end) is not None:
            return True
    return False



def focus_deals(out: list[Intent]) -> list[Intent]:
    """A question about a kind of deal is asked once: "any deal on the bundle?" drops the plain campaign question
    about the same link, and "does the code work with the bundle?" is one question about the bundle (its answer
    says what stacks with it)."""
    if len(out) < 2:
        return out
    focused = {it.link for it in out if it.kind == "campaign" and it.attr is not None}
    if not focused:
        return out
    out = [it for it in out if not (it.kind == "campaign" and it.attr is None and it.link in focused)]
    bundles = {it.link for it in out if it.kind == "campaign" and it.attr == "bundle"}
    return [it for it in out if not (it.kind == "campaign" and it.attr in ("code", "coupon") and it.link in bundles)]


def next_token(f: str, end: int, joints: list[int]) -> str | None:
    """The token right after a quantity word, or ``None`` at the end of its part of the clause."""
    stop = joints[bisect_right(joints, end - 1)] if bisect_right(joints, end - 1) < len(joints) else len(f)
    i = end
    while i < stop and f[i] in " \t":
        i += 1
    if i >= stop or f[i] in QUESTION_CHARS or is_emoji(f[i]) and f[i] not in "💰💵":
        return None
    if f[i].isascii() and (f[i].isalpha() or f[i] == "'"):
        m = re.match(r"'?[a-z]+", f[i:stop])
        return m.group() if m else None
    return f[i]



__all__ = ["deal_prices", "focus_deals", "next_token"]
