"""Free shipping from an order total (``shipping.free_over``): "满99包邮", "free shipping over $50", "envío gratis
desde 35 €".

A stated clause with a free-shipping word about a product whose data has ``free_over`` is judged here instead of
by the plain free-shipping fact (which is false for such a product): an amount said next to one of the claims
vocabulary's ``free_over_words`` (满, over, desde...) is the threshold, true when it is ``free_over`` (then it
answers the shipping question) and false otherwise; "free shipping" said with no threshold is a claim about one
item bought alone, true when its price now reaches ``free_over`` and false below it. A negated free-shipping word
("单买不包邮") keeps the usual reading (shipping is paid below the threshold). Rooms without ``free_over`` are not
read here at all.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hat_env.scoring.claims.check_common import negated_after, claim_state, claim_in_clause

if TYPE_CHECKING:
    from hat_env.scoring.claims.facts import ProductFacts
    from hat_env.scoring.claims.read import Reading

_EPS = 0.005
#: an amount as the normalised text writes it
_NUM = re.compile(r"\d+(?:[.,]\d{1,2})?")
#: how far after a threshold word its amount may be (characters)
_GAP = 12


def free_over_clauses(r: "Reading", stated: list[int]) -> set[int]:
    """Judge every stated clause of ``r`` that says free shipping of a product with a ``free_over`` threshold;
    returns those clauses (the plain free-shipping fact is not read there).

    A threshold may be said in the clause of the free-shipping words or next to it ("Spend $50 or more | and
    shipping is free"); a clause with a threshold reads as free shipping also with a plain free word next to a
    shipping word ("shipping is $5.99, free on orders over $50", "el envío es gratis")."""
    if not any(p.shipping.free_over for p in r.room.products):
        return set()
    said = {i: _amounts(r, i) for i in stated}
    free = {i: _free_word(r, i, bool(said[i])) for i in stated}
    done: set[int] = set()
    for i in stated:
        if said[i] and (free[i] or free.get(i - 1) or free.get(i + 1)):
            if _judge(r, i, said[i], free[i] or free.get(i + 1) or free.get(i - 1)):
                done.add(i)
        elif free[i] and (not free[i][2] or not (said.get(i - 1) or said.get(i + 1))):
            if _judge(r, i, [], free[i]):
                done.add(i)
    # a free clause whose threshold a clause next to it says (and judged there) is not read on its own
    done |= {i for i in stated if free[i] and not said[i] and ({i - 1, i + 1} & done)}
    return done


def _free_word(r: "Reading", i: int, loose: bool) -> "tuple[int, int, bool] | None":
    """Where clause ``i`` says shipping is free or not (its span and polarity): a free-shipping word, or, in a
    clause that says a threshold (``loose``), a plain free word with a shipping word in it or the clause before."""
    c = r.clauses[i]
    m = r.cfind("free_shipping", i)
    if m is None and loose and r.has("region_free_there"):
        fm = r.vocab.find("region_free_there", r.ctext(i))
        ship = any(r.cfind(n, j) for j in (i, i - 1) if j >= 0 for n in ("ship_words", "deliver_words"))
        m = fm if ship else None
    if m is None:
        return None
    a, b = c.start + m.start(), c.start + m.end()
    return a, b, claim_state(r, i, a) and not negated_after(r, i, b)


def _amounts(r: "Reading", i: int) -> list[tuple[int, int, float]]:
    """The amounts said as a threshold in clause ``i``: a number within a few characters after a
    ``free_over_words`` word or just before a ``free_over_after`` word (normalised offsets in the reply, value)."""
    c = r.clauses[i]
    ct = r.ctext(i)
    out: list[tuple[int, int, float]] = []
    seen: set[int] = set()
    found: list[re.Match[str]] = []
    for w in r.call("free_over_words", i):  # "满99", "over $50", "desde 35 €"
        n = _NUM.search(ct, w.end(), min(len(ct), w.end() + _GAP))
        if n is not None:
            found.append(n)
    for w in r.call("free_over_after", i):  # "$50+", "99元以上", "35 € o más": the amount just before
        before = [x for x in _NUM.finditer(ct, max(0, w.start() - _GAP), w.start()) if w.start() - x.end() <= 4]
        if before:
            found.append(before[-1])
    for n in found:
        if n.start() in seen or r.in_mention(c.start + n.start(), c.start + n.end()):
            continue
        seen.add(n.start())
        out.append((c.start + n.start(), c.start + n.end(), float(n.group().replace(",", "."))))
    return out


def _judge(r: "Reading", i: int, said: list[tuple[int, int, float]], at: "tuple[int, int, bool] | None") -> bool:
    """Judge clause ``i``: its threshold amounts ``said`` against ``free_over``, or, with none, free shipping
    (or not, ``at``'s polarity) of one item (the free word at ``at``) against its price now. False when its
    subject has no threshold, or when a threshold is said with a negated free word ("不满99不包邮": the usual
    reading holds)."""
    a, b, pol = at if at is not None else (said[0][0], said[0][1], True)
    if said and not pol:
        return False
    pids, _how = r.subject(a, i)
    pfs = [pf for pf in r.pfs(pids) if pf.product.shipping.free_over]
    if not pfs:
        return False
    pf = pfs[0]
    limit = float(pf.product.shipping.free_over or 0)
    keys = [("shipping", pf.pid), ("shipping:free", pf.pid)]
    r.report.claims[:] = [x for x in r.report.claims if not (x.attribute == "free_shipping" and claim_in_clause(r, x, i))]
    if said:
        ok = any(abs(v - limit) < _EPS for _s, _e, v in said)
        values = {v for _s, _e, v in said}
        for x in r.report.claims:  # the threshold's amount, read as a coupon threshold or a price: judged here
            if x.attribute == "price" and claim_in_clause(r, x, i) and isinstance(x.value, (int, float)) \
                    and float(x.value) in values:
                x.verdict = "true" if abs(float(x.value) - limit) < _EPS else "false"
                x.reason = "" if x.verdict == "true" else f"{r.label(pf.pid)}: '{x.text}' but shipping is free from {limit:g}"
                x.answers = frozenset(keys)
        s, e = said[0][0], said[0][1]
        r.claim(s, e, pids, "free_over", said[0][2], "", True, "true" if ok else "false",
                "" if ok else f"{r.label(pf.pid)}: free shipping from '{r.m.original(s, e)}' but it is from {limit:g}",
                keys)
        return True
    ok = (_price(pf) >= limit - _EPS) == pol
    why = (f"shipping is free only from {limit:g} and one costs {_price(pf):g}" if pol
           else f"one costs {_price(pf):g} and shipping is free from {limit:g}")
    r.claim(a, b, pids, "free_shipping", pol, "", pol, "true" if ok else "false",
            "" if ok else f"{r.label(pf.pid)}: '{r.m.original(a, b)}' but {why}", keys)
    return True


def _price(pf: "ProductFacts") -> float:
    """What one item costs now (its effective price)."""
    return float(pf.effective)


__all__ = ["free_over_clauses"]
