"""Readings that decide whether an intent is answered in other words, from the room's own data rather than a list
of phrasings.

- *A gift named by its item* (:func:`.check_gifts.read_gift_items`, with the other gift readings): a clause that names most of the content words of a gift a
  running campaign gives with the product it is about ("a braided USB-C cable thrown in free" for the gift "1 m
  braided USB-C cable", "还送同色系发夹一个" for "同色系碎花发夹×1", "te regalamos 250 g de café en grano") states
  that deal: a true claim that answers the product's campaign question. The gift's words come from the campaign,
  so a room with other gifts reads the same way; no word list names a gift.
- *No deal, by structure* (:func:`read_no_deal`): a deal noun of the locale (``deal_nouns``: promo, 优惠, oferta)
  negated in a stated clause ("the stand isn't part of any promo today", "口红目前没有能用的优惠", "no entra en
  ninguna promo") says no deal runs; when the data agrees (nothing lowers the price, no gift, no bundle) it
  answers the campaign question truly.
- *A bundle by its share* (:func:`read_bundle_share`): the percentage (or 折) a running bundle takes off, in a
  sentence naming two of its products or its quantity ("pair the air fryer with the blender and you save 15%"),
  states that bundle.
- *A bare yes or no* (:func:`bare_yes_no`): a reply whose first clause is only a yes or a no (the locale's
  ``yes_reply`` / ``no_reply``: "Yep!", "Nope,", "有的", "Sí,"). Its meaning is the question's ("in stock?" /
  "sold out?"), so it is read where the comment is known (:mod:`hat_env.scoring.claims.answers`), as an answer
  only: it claims nothing for accuracy.

Only true claims are made here (a gift item of another product, or one negated or asked, is left to the other
detectors), so this reading never fails a reply: it only lets a right answer count.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading
    from hat_env.scoring.claims.vocab import Vocab

def read_no_deal(r: "Reading", i: int) -> None:
    """A negated deal noun in stated clause ``i``: a true "no deal runs" claim, answering the campaign question,
    for the products it is about that have no running deal at all (a price no lower than the list price, no
    gift, no bundle). Nothing is claimed when the data disagrees (that is the ``no_deal`` list's reading)."""
    c = r.clauses[i]
    neg = r.vocab.rx.get("negation")
    # the negation may stand a few words before the noun ("没有能用的优惠", "isn't part of any promo"): a wider
    # window than a claim word's, as the compliance rules read a negated claim (8 Chinese characters)
    width = max(r.vocab.negation_window, 8)
    for m in r.call("deal_nouns", i):
        pos = c.start + m.start()
        if neg is None or neg.search(r.text, max(c.start, pos - width), pos) is None:
            continue
        pids, _how = r.subject(pos, i)
        good = [pf for pf in r.pfs(pids) if pf.effective >= pf.price and not pf.gifts and not pf.bundles]
        if good and len(good) == len(r.pfs(pids)):
            r.claim(pos, c.start + m.end(), tuple(pf.pid for pf in good), "coupon", "none", "", False, "true", "",
                    [("campaign", pf.pid) for pf in good])
        return


def read_bundle_share(r: "Reading", i: int) -> None:
    """A percentage (or 折) in stated clause ``i`` equal to what a running bundle of the product takes off, in a
    sentence that names two of the bundle's products or its quantity: a true bundle claim answering the campaign
    question of the bundle's products named or asked about."""
    c = r.clauses[i]
    t = r.room.t
    bundles = [b for b in r.room.campaigns if b.type == "bundle" and b.active(t) and b.bundle_discount_pct]
    if not bundles:
        return
    qs = [q for q in r.quantities if c.start <= q.start < c.end and q.dim in ("percent", "zhe")]
    if not qs:
        return
    sent = c.sentence
    named = {p for m in r.mentions if r.clauses[r.clause_at(m.start)].sentence == sent for p in m.pids}
    counts = {q.value for q in r.quantities
              if r.clauses[r.clause_at(q.start)].sentence == sent and q.dim in ("plain", "count")}
    for q in qs:
        for b in bundles:
            pct = float(b.bundle_discount_pct)
            share = q.value if q.dim == "percent" else round(100 - 10 * q.value, 6)
            if abs(share - pct) > 1e-6:
                continue
            mine = [p.product_id for p in r.room.products if b.applies_to(p.product_id)]
            if len(named & set(mine)) < 2 and not (float(b.bundle_qty or 0) in counts and named & set(mine)):
                continue
            said = [p for p in mine if p in named or p in r.scope]
            r.claim(q.start, q.end, tuple(said), "bundle", pct, "", True, "true", "", [("campaign", p) for p in said])
            return


_FIRST_CLAUSE = re.compile(r"^[^,.!?;:，。！？；：~～\n]*[,.!?;:，。！？；：~～\n]?")


def bare_yes_no(reply_norm: str, vocab: "Vocab") -> bool | None:
    """True when the reply's first clause is only a yes ("Yep!", "Sí,", "有的"), False when only a no ("Nope,",
    "No,", "没有了"), else ``None``.

    Args:
        reply_norm: the normalised reply.
        vocab: the locale's vocabulary (``yes_reply``, ``no_reply``).
    """
    m = _FIRST_CLAUSE.match(reply_norm.strip())
    first = m.group() if m else ""
    if not first.strip():
        return None
    if vocab.find("yes_reply", first.lower()) is not None:
        return True
    if vocab.find("no_reply", first.lower()) is not None:
        return False
    return None


def yes_no_spec(reply_norm: str, question: str, value: str, vocab: "Vocab") -> bool:
    """Whether a bare yes or no ("能！", "不行哦") answers a yes/no question about a spec, rightly: the thing asked
    (the locale's ``yes_no_core``: "机洗" of "能机洗吗") is written in the spec's ``value``, and a yes when it is
    written plainly ("可机洗"), a no when a negation comes right before it ("不可机洗", "不掉色").

    Args:
        reply_norm: the normalised reply.
        question: the viewer's comment.
        value: the product's value of the attribute the question asks about.
        vocab: the locale's vocabulary (``yes_reply``, ``no_reply``, ``yes_no_core``, ``negation``).

    Returns:
        True when the reply is only a yes or a no and it is what the value says; False otherwise (no bare yes or
        no, no such question, or a value that does not say the thing asked).
    """
    said = bare_yes_no(reply_norm, vocab)
    m = vocab.find("yes_no_core", question.lower().strip()) if said is not None else None
    if m is None or not m.groupdict().get("core"):
        return False
    core, low = m.group("core").removesuffix("的"), value.lower()
    k = low.find(core) if len(core) >= 2 else -1
    if k < 0:
        return False
    negated = vocab.find("negation", low[max(0, k - 2) : k]) is not None
    return said != negated


__all__ = ["bare_yes_no", "read_bundle_share", "read_no_deal", "yes_no_spec"]
