"""Prices said of a mixed set: a bundle campaign of two or more different products for one ``set_price``
(:class:`hat_env.sim.campaigns.Campaign`): "1号加2号一起买只要369", "the watch and the shoe together are $299",
"el anillo y los pendientes juntos por 85 €".

A stated clause is about a running set when its sentence names two or more of the set's products, or when the
clause has a bundle word (the locale's ``bundle_words``, with the room's own deal words) and its subject is one of
them. An amount in that clause equal to the set price is true and answers the price and campaign questions of
the set's products. Another amount there keeps its usual reading when it is one product's own price or the set's
products bought one by one; else, in a clause with a bundle word, it is false (the set costs the set price).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hat_env.scoring.claims.check_common import claim_in_clause

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading

_EPS = 0.005
#: what may stand between a total word and its amount ("合计458", "一共才 458", "total: $458")
_TO_AMOUNT = re.compile(r"\s*(?:只要|才|是|为|就|of|is|son|es|:|：)?\s*(?:[$€¥￥]\s*)?\d")


def together_total(r: "Reading", i: int) -> bool:
    """Whether every bundle word of clause ``i`` is a buy-together word followed at once by a total and its
    amount ("和炸锅一起拍合计458", "buy both together, total $458"): the sum of the products' prices, no bundle
    deal claimed."""
    found = r.call("bundle_words", i)
    together = r.call("buy_together", i)
    if not found or not together:
        return False
    ct = r.ctext(i)
    tw = r.vocab.rx.get("total_words")
    for m in found:
        t = next((t for t in together if t.start() <= m.start() < t.end()), None)
        if t is None or tw is None:
            return False
        at = t.end() + len(ct[t.end():]) - len(ct[t.end():].lstrip(" ，,"))  # "一起拍，合计", "together, total"
        tm = tw.match(ct, at)
        if tm is None or not _TO_AMOUNT.match(ct, tm.end()):
            return False
    return True


def read_set_prices(r: "Reading", stated: list[int]) -> None:
    """Judge the amounts of every stated clause of ``r`` about a running mixed set (see the module docstring)."""
    t = r.room.t
    sets = [c for c in r.room.campaigns if c.type == "bundle" and c.mixed and c.active(t)]
    if not sets:
        return
    for i in stated:
        money = [x for x in r.report.claims if x.attribute == "price" and claim_in_clause(r, x, i)
                 and isinstance(x.value, (int, float)) and not isinstance(x.value, bool)]
        if not money:
            continue
        sent = r.clauses[i].sentence
        named = {p for m in r.mentions if m.pids and r.clauses[r.clause_at(m.start)].sentence == sent for p in m.pids}
        cue = r.cfind("bundle_words", i) is not None
        subject = set(r.subject(r.clauses[i].start, i)[0]) if cue else set()
        for s in sets:
            mine = set(s.products)
            if not (len(named & mine) >= 2 or (cue and (named | subject) & mine)):
                continue
            price = float(s.set_price or 0)
            own = {v for x in r.room.products if x.product_id in mine
                   for v in (float(x.price), float(r.room.quote(x).total))}
            apart = sum(float(r.room.quote(x).total) for x in r.room.products if x.product_id in mine)
            names = " + ".join(r.label(p) for p in s.products)
            keys = frozenset(k for p in s.products for k in (("price", p), ("campaign", p)))
            for x in money:
                v = float(x.value)
                if abs(v - price) < _EPS:
                    x.verdict, x.reason, x.answers = "true", "", keys
                elif any(abs(v - o) < _EPS for o in own) or abs(v - apart) < _EPS:
                    continue
                elif cue:
                    x.verdict, x.answers = "false", keys
                    x.reason = f"{names}: '{x.text}' but the set costs {price:g}"
            break


__all__ = ["read_set_prices"]
