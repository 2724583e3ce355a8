"""Shipping claims about a region the product's data lists (``shipping.regions``): "新疆也包邮", "ships to
Hawaii", "envío gratis a Canarias", "西藏不发", "Alaska is $15 extra".

A clause that names one of the subject product's regions (by the region's own ``names``: :mod:`hat_env.sim.
room_words`) is about that region's terms, not the product's usual ones: its free-shipping, paid-shipping and
money claims are judged here, against the region (free there only when it ships there with no extra fee and the
product ships free; not sent there when ``ships`` is false; its fee is the region's extra fee, alone or on top of
the usual fee). A true statement of the fee or of the exclusion answers the shipping question. A clause naming a
region the product has no terms for is left to the usual detectors (the usual terms hold there). The words that
say a product is or is not sent somewhere are the claims vocabulary's ``region_not_shipped``, ``region_extra_fee``
and ``region_free_there`` (``vocab/<locale>.yaml``), with its shipping, free-shipping and negation words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hat_env.scoring.claims.check_common import negated_after, claim_state, claim_in_clause
from hat_env.scoring.claims.faq_regions import faq_regions
from hat_env.sim.room_words import regions_named
from hat_env.text import normalize

if TYPE_CHECKING:
    from hat_env.scoring.claims.facts import ProductFacts
    from hat_env.scoring.claims.read import Reading
    from hat_env.sim.catalog import Region

#: the default detectors' claims a region clause replaces
_REPLACED = frozenset({"free_shipping"})
_EPS = 0.005


def _names(r: "Reading", g: "Region") -> list[str]:
    """A region's names as the normalised reply writes them."""
    return [normalize(n, r.vocab.locale).text for n in g.names]


def region_clauses(r: "Reading", stated: list[int]) -> set[int]:
    """Judge every stated clause of ``r`` that names a region its subject product lists; returns those clauses
    (their usual free/paid-shipping claims are replaced by the region's)."""
    if not any(faq_regions(r, p) for p in r.room.products):
        return set()
    done: set[int] = set()
    for i in stated:
        if _region_clause(r, i):
            done.add(i)
        else:
            _everywhere_clause(r, i)
    return done


def _everywhere_clause(r: "Reading", i: int) -> None:
    """"Ships anywhere in the US", "enviamos a toda España" (the vocabulary's ``region_everywhere`` beside a
    shipping word, said as a fact) claims every region: false for a subject product with a region it is not sent
    to. A product sent everywhere keeps its usual shipping claims (nothing is added)."""
    if not r.has("region_everywhere"):
        return
    m = r.cfind("region_everywhere", i)
    sw = r.cfind("ship_words", i) or r.cfind("deliver_words", i)
    if m is None or sw is None:
        return
    c = r.clauses[i]
    a, b = c.start + m.start(), c.start + m.end()
    if not claim_state(r, i, c.start + sw.start()) or negated_after(r, i, c.start + sw.end()) or \
            r.vocab.find("region_not_shipped", r.ctext(i)) is not None:
        return  # "it doesn't ship everywhere in the US", "anywhere except Hawaii": no claim of every region
    pids, _many = r.subject(a, i)
    for pf in r.pfs(pids)[:1]:
        gone = [g for g in faq_regions(r, pf.product) if not g.ships]
        if gone:
            keys = [("shipping", pf.pid), ("shipping:free", pf.pid), ("shipping:carrier", pf.pid)]
            _add(r, a, b, pids, pf, "everywhere", True, False,
                 f"{r.label(pf.pid)}: '{r.m.original(a, b)}' but it is not sent to {gone[0].names[0]}", keys)


def _region_clause(r: "Reading", i: int) -> bool:
    c = r.clauses[i]
    ct = r.ctext(i)
    hits: list[tuple[int, int, "ProductFacts", "Region"]] = []
    for p in r.room.products:
        regs = faq_regions(r, p)
        if not regs:
            continue
        for k, s, e in regions_named(ct, [_names(r, g) for g in regs]):
            if not r.in_mention(c.start + s, c.start + e):
                hits.append((c.start + s, c.start + e, r.facts.of(p.product_id), regs[k]))
    if not hits:
        return False
    s, e = hits[0][0], hits[0][1]
    pids, _many = r.subject(s, i)
    # the likeliest subject first: the product the clause is about, not the first of the room with terms there
    mine = sorted(((pf, g) for a, _b, pf, g in hits if pf.pid in pids and a == s), key=lambda x: pids.index(x[0].pid))
    if not mine:
        return False  # a region the subject product has no terms for: the usual terms hold
    pf, g = mine[0]
    r.report.claims[:] = [x for x in r.report.claims if not (x.attribute in _REPLACED and claim_in_clause(r, x, i))]
    keys = [("shipping", pf.pid), ("shipping:free", pf.pid), ("shipping:carrier", pf.pid)]
    said = r.m.original(s, e)
    ship = pf.product.shipping
    free_there = g.ships and not g.fee and ship.free_shipping
    money = [x for x in r.report.claims if x.attribute == "price" and claim_in_clause(r, x, i)]
    m = r.cfind("free_shipping", i)
    if m is None:  # "ships to Hawaii for free"
        fm = r.vocab.find("region_free_there", ct)
        m = fm if fm is not None and (r.cfind("ship_words", i) or r.cfind("deliver_words", i)) else None
    if m is not None:
        a, b = c.start + m.start(), c.start + m.end()
        pol = claim_state(r, i, a) and not negated_after(r, i, b)
        ok = free_there == pol
        why = "it is not sent there" if not g.ships else f"it is {g.fee:g} extra there" if g.fee else "it ships free there"
        _add(r, a, b, pids, pf, "free", pol, ok, f"{r.label(pf.pid)}: '{r.m.original(a, b)}' to {said} but {why}", keys)
    else:
        nm = r.vocab.find("region_not_shipped", ct)
        sw = r.cfind("ship_words", i) or r.cfind("deliver_words", i)
        neg = nm is not None or (sw is not None and not (claim_state(r, i, c.start + sw.start())
                                                         and not negated_after(r, i, c.start + sw.end())))
        paid = r.cfind("paid_shipping", i) is not None or r.vocab.find("region_extra_fee", ct) is not None
        if neg:
            w = nm if nm is not None else sw
            assert w is not None
            a, b = c.start + w.start(), c.start + w.end()
            _add(r, a, b, pids, pf, "ships", False, not g.ships,
                 f"{r.label(pf.pid)}: '{r.m.original(a, b)}' {said} but it ships there", keys)
        elif paid or money:
            ok = g.ships and bool(g.fee or not ship.free_shipping)
            _add(r, s, e, pids, pf, "paid", True, ok, f"{r.label(pf.pid)}: a fee to {said} but " + (
                "it is not sent there" if not g.ships else "it ships free there"), keys)
        elif sw is not None:
            a, b = c.start + sw.start(), c.start + sw.end()
            _add(r, a, b, pids, pf, "ships", True, g.ships,
                 f"{r.label(pf.pid)}: '{r.m.original(a, b)}' to {said} but it is not sent there", keys)
    _fees(r, money, pf, g, said, keys)
    return True


def _fees(r: "Reading", money: list, pf: "ProductFacts", g: "Region", said: str,
          keys: list[tuple[str, str]]) -> None:
    """Re-judge the amounts of a region clause: the region's extra fee (alone, or with the usual fee) is true
    and answers the shipping question; another amount said as that region's shipping is false."""
    ship = pf.product.shipping
    fees = {g.fee, g.fee + ship.fee} if g.ships and g.fee else set()
    usual = {x for x in (pf.effective, pf.base, pf.price)}
    for x in money:
        v = float(x.value) if isinstance(x.value, (int, float)) else None
        if v is None:
            continue
        if any(abs(v - f) < _EPS for f in fees):
            x.verdict, x.reason, x.answers = "true", "", frozenset(keys)
        elif x.unit in ("pay", "shipping", "fee") and not any(abs(v - u) < _EPS for u in usual):
            x.verdict = "false"
            x.reason = f"{r.label(pf.pid)}: '{x.text}' to {said} but " + (
                "it is not sent there" if not g.ships else f"the extra fee there is {g.fee:g}" if g.fee
                else "it costs nothing extra there")
            x.answers = frozenset(keys)


def _add(r: "Reading", s: int, e: int, pids: tuple[str, ...], pf: "ProductFacts", value: str, pol: bool,
         ok: bool, reason: str, keys: list[tuple[str, str]]) -> None:
    r.claim(s, e, pids, "shipping_region", value, "", pol, "true" if ok else "false", "" if ok else reason, keys)


__all__ = ["region_clauses"]
