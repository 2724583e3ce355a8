"""Stacked deals: "叠加", "stacks with the coupon", "se acumula" claimed (the data must stack a coupon on the flash
price, more than one coupon or code, or run a bundle), or denied ("优惠券不能和秒杀同时用", "can't be combined with the
flash deal", "no se acumula con la oferta flash"): a denial is true where the price the viewer pays stacks nothing,
false where it does, and says nothing where only a bundle runs (the data does not say what a bundle combines
with). A negation in a clause naming a stacking is the stacking's: :func:`stacks_here` tells the flash-sale reading
(:func:`.check_facts.read_flash`) that the flash sale it names is not denied.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hat_env.scoring.claims.check_common import exists_claim, claim_group, negated_after, claim_state

if TYPE_CHECKING:
    from hat_env.scoring.claims.facts import ProductFacts
    from hat_env.scoring.claims.read import Reading


def read_stacking(r: "Reading", i: int) -> None:
    """Deals stacked: the data stacks a flash price with one coupon, or a bundle. Stacking denied ("不能叠加",
    "can't be combined with the flash deal", "no se acumula"): :func:`_no_stacking`."""
    if _no_stacking(r, i):
        return
    from hat_env.scoring.claims.money_values import stacks_later

    exists_claim(r, i, "stacking_words", "stacking", lambda pf: (bool(pf.flash) and pf.applied_coupon is not None)
                  or bool(pf.bundles) or stacked_coupons(pf) or stacks_later(r, i, pf), "campaign",
                  "the data stacks no deals on it")


def _run_on(r: "Reading", i: int) -> bool:
    """Whether clause ``i`` goes straight on from the clause before it, in the same sentence with no punctuation
    between (the splitter cut "优惠券不能和秒杀 | 同时用" at a conjunction word)."""
    if i <= 0 or r.clauses[i - 1].sentence != r.clauses[i].sentence:
        return False
    gap = r.text[r.clauses[i - 1].end - 1 : r.clauses[i].start + 1]
    return not re.search(r"[,.!?;:，。！？；：、~～\n]", gap)


def stacks_here(r: "Reading", i: int) -> bool:
    """Whether clause ``i`` (or the clause it runs on into) names stacking deals."""
    if r.cfind("stacking_words", i) is not None:
        return True
    return i + 1 < len(r.clauses) and _run_on(r, i + 1) and r.cfind("stacking_words", i + 1) is not None


def _stacking_denied(r: "Reading", i: int, s: int, e: int) -> bool:
    """Whether the stacking word at ``[s, e)`` of clause ``i`` is negated: the usual polarity, a negation right
    after it, or one a few words before it across the deal it names ("满减券不能和秒杀一起用": the window is at
    least 8 characters, as :func:`.check_answers.read_no_deal` reads a negated deal noun, and reaches into the
    clause it runs on from)."""
    if not claim_state(r, i, s) or negated_after(r, i, e):
        return True
    neg = r.vocab.rx.get("negation")
    start = r.clauses[i - 1].start if _run_on(r, i) else r.clauses[i].start
    lo = max(start, s - max(r.vocab.negation_window, 8))
    return neg is not None and neg.search(r.text, lo, s) is not None


def _no_stacking(r: "Reading", i: int) -> bool:
    """A negated stacking word in stated clause ``i``: the deals of the product it is about do not combine. True
    (answering the campaign question) unless the price the viewer pays takes a coupon on top of a flash price, or
    more than one coupon or code; a bundle says nothing either way (the data does not say what a bundle combines
    with), so a product with a bundle and nothing else stacked gets no claim. Returns whether the clause denies
    a stacking (then no positive stacking claim is read in it)."""
    c0 = r.clauses[i].start
    for m in r.call("stacking_words", i):
        s, e = c0 + m.start(), c0 + m.end()
        if not _stacking_denied(r, i, s, e):
            continue
        pids, _many = claim_group(r, i, s)
        pfs = r.pfs(pids)
        if not pfs:
            return True
        stacked = [pf for pf in pfs if (bool(pf.flash) and pf.applied_coupon is not None) or stacked_coupons(pf)]
        if stacked:
            r.claim(s, e, pids, "stacking", False, "", False, "false",
                    f"{r.label(stacked[0].pid)}: '{r.m.original(s, e)}' but its price stacks deals", [("campaign", stacked[0].pid)])
        elif not any(pf.bundles for pf in pfs):
            r.claim(s, e, pids, "stacking", False, "", False, "true", "", [("campaign", pf.pid) for pf in pfs])
        return True
    return False


def stacked_coupons(pf: "ProductFacts") -> bool:
    """Whether the price the viewer pays takes more than one coupon or code off (the room's stacking rules let a
    coupon and a checkout code combine: the washer is 649 - 20 - 25)."""
    met = [a for a, t, _c in pf.coupons if pf.base >= t]
    return bool(met) and pf.effective < pf.base - max(met) - 0.005


__all__ = ["read_stacking", "stacked_coupons", "stacks_here"]
