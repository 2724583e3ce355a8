"""Two deals said to combine ("$49 flash price, and add the air fryer for another 15% off on top", "第二套半价，再用满
299减30的券"): the room's stacking rules must let them.

A sentence with a stacking word (``stacking_words``) or a second discount said to come on top (``extra_discount``:
"another 15% off", "再用...券", "otro 15 %") names the deals it combines by their kinds: a flash sale
(``flash_words``), a coupon or code (``coupon_words``, a running code's own word, or a running coupon's amount:
"额外再减30"), a bundle (``bundle_words``,
spoken bundle terms, or the percent a running bundle takes off). When it names two kinds or more and each has a
campaign running now for the products in play (the clause's subject and the products asked about), some choice
of one campaign per kind must stack pairwise as the room's ``stacking`` rules say
(:meth:`hat_env.sim.room.RoomState.stacks`); else the sentence is false. A sentence with a negation ("the code
doesn't go on top of the bundle") is left to the other checks, as is a deal that does not run (it is false there),
except a second deal refused on top of a flash price of a product whose price takes both ("不能再用券了").
"""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING

from hat_env.scoring.claims.check_common import claim_state

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading
    from hat_env.sim.campaigns import Campaign

_PERCENT = re.compile(r"(\d+(?:\.\d+)?)\s?%")


def _kinds(r: "Reading", st: str, camps: "list[Campaign]") -> list[tuple[str, ...]]:
    """The deal kinds sentence ``st`` names, each as the campaign types that may be it (a coupon word may be a
    coupon or a code)."""
    v = r.vocab
    low = st.lower()
    out: list[tuple[str, ...]] = []
    if v.find("flash_words", st) is not None:
        out.append(("flash_sale",))
    nums = {float(x) for x in re.findall(r"(?<![\d.])\d+(?:\.\d+)?(?![\d.%])", st)}
    codes = [c for c in camps if c.type == "code" and c.code and re.search(
        rf"(?<![a-z0-9]){re.escape(c.code.lower())}(?![a-z0-9])", low)]
    if codes:
        out.append(("code",))
    elif v.find("coupon_words", st) is not None or any(
            c.type in ("coupon", "code") and c.amount is not None and float(c.amount) in nums for c in camps):
        out.append(("coupon", "code"))  # a coupon word, or a running coupon's amount ("额外再减30")
    pcts = {float(x) for x in _PERCENT.findall(st)}
    bundle = v.find("bundle_words", st) is not None or any(rx.search(st) for rx, _q, _p in v.bundle_terms) or any(
        c.type == "bundle" and c.bundle_discount_pct is not None and float(c.bundle_discount_pct) in pcts for c in camps)
    if bundle:
        out.append(("bundle",))
    return out


def read_stacked_deals(r: "Reading", i: int) -> None:
    """Record a false ``stacking`` claim when clause ``i``'s sentence combines deals the room does not stack (see
    the module)."""
    c = r.clauses[i]
    m = r.cfind("extra_discount", i) or r.cfind("stacking_words", i)
    if m is None or c.question:
        return
    s, e = c.start + m.start(), c.start + m.end()
    st = r.stext(i)
    neg = r.vocab.rx.get("negation")
    if not claim_state(r, i, s):
        _refused_stack(r, i, s, e, st)
        return
    if neg is not None and neg.search(st) is not None:
        return
    pids, _how = r.subject(s, i)
    inplay = list(dict.fromkeys((*pids, *r.scope)))
    pfs = r.pfs(tuple(inplay))
    camps = list({x.campaign_id: x for pf in pfs for x in pf.campaigns_active}.values())
    kinds = _kinds(r, st, camps)
    if len(kinds) < 2:
        return
    slots = [[x for x in camps if x.type in k] for k in kinds]
    if any(not sl for sl in slots):
        return  # a deal that does not run: false by its own check
    for pick in itertools.product(*slots):
        if all(r.room.stacks(a, b) for a, b in itertools.combinations(pick, 2)):
            return
    names = " with ".join("/".join(k) for k in kinds)
    r.claim(s, e, tuple(inplay), "stacking", True, "", True, "false",
            f"{r.label(inplay[0] if inplay else None)}: '{r.m.original(s, e)}' but the data does not stack {names}",
            [("campaign", p) for p in inplay[:1]])


def _refused_stack(r: "Reading", i: int, s: int, e: int, st: str) -> None:
    """A second deal refused on top of a flash price ("秒杀价199就是到手价，不能再用券了", "no coupon on top of the
    flash price") of a product whose price takes both now (a flash sale, then a coupon or code): false. Bundles
    are left alone (whether one takes a coupon is the bundle's own quote)."""
    pids, _how = r.subject(s, i)
    pfs = r.pfs(tuple(dict.fromkeys((*pids, *r.scope))))
    camps = list({x.campaign_id: x for pf in pfs for x in pf.campaigns_active}.values())
    kinds = _kinds(r, st, camps)
    if sorted(kinds) != sorted([("flash_sale",), ("coupon", "code")]) and \
            sorted(kinds) != sorted([("flash_sale",), ("code",)]):
        return
    took = [pf for pf in pfs if pf.flash and pf.applied_coupon is not None and pf.effective < pf.base - 0.005]
    if len(took) != len(pfs) or not took:
        return  # some product in play takes no coupon on its flash price: the refusal may be about it
    pf = took[0]
    r.claim(s, e, (pf.pid,), "stacking", False, "", False, "false",
            f"{r.label(pf.pid)}: '{r.m.original(s, e)}' but '{pf.applied_coupon.title}' applies on top of the flash "
            f"price ({pf.effective:g} to pay)", [("campaign", pf.pid), ("price", pf.pid)])


__all__ = ["read_stacked_deals"]
