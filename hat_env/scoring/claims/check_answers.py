"""Readings that decide whether an intent is answered in other words, from the room's own data rather than a list
of phrasings.

- *A gift named by its item* (:func:`read_gift_items`): a clause that names most of the content words of a gift a
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
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading
    from hat_env.scoring.claims.vocab import Vocab

#: A content word of a gift text: a run of Chinese characters (split by jieba) or a Latin word of 3+ letters.
_LATIN_WORD = re.compile(r"[^\W\d_]{3,}", re.UNICODE)
_HAN_RUN = re.compile(r"[\u3400-\u9fff]+")


@lru_cache(maxsize=512)
def gift_words(gift: str) -> tuple[str, ...]:
    """The content words of a gift's text, lowercased: jieba words of two or more characters for Chinese, words
    of three or more letters otherwise ("1 m braided USB-C cable" -> braided, usb, cable)."""
    from hat_env.text import segment

    low = gift.lower()
    words: list[str] = []
    for run in _HAN_RUN.findall(low):
        words += [w for w in segment(run) if len(w) >= 2]
    words += _LATIN_WORD.findall(_HAN_RUN.sub(" ", low))
    return tuple(dict.fromkeys(words))


def _names_gift(text: str, gift: str) -> int:
    """Where in ``text`` (lowercased clause) the gift is named by at least half of its content words (and one at
    least), as the offset of the first word found; -1 when it is not."""
    words = gift_words(gift)
    if not words:
        return -1
    found = [text.find(w) for w in words]
    hits = [x for x in found if x >= 0]
    if not hits or len(hits) * 2 < len(words):
        return -1
    return min(hits)


def named_gifts(r: "Reading") -> list[tuple[str, tuple[str, ...]]]:
    """The gifts of the room's running gift campaigns that the reply names anywhere (:func:`_names_gift` on the
    whole text), each with the products it comes with (every product for a room-wide gift): a cheap test before
    the per-clause reading, from the campaigns themselves (no product's facts are built)."""
    low = r.text.lower()
    out = []
    for c in r.room.campaigns:
        if c.type == "gift" and c.gift and c.active(r.room.t) and _names_gift(low, c.gift) >= 0:
            out.append((c.gift, tuple(p.product_id for p in r.room.products if c.applies_to(p.product_id))))
    return out


def read_gift_items(r: "Reading", i: int, gifts: list[tuple[str, tuple[str, ...]]]) -> None:
    """A stated clause naming the gift item of a running gift campaign of the product it is about: a true claim
    answering that product's campaign question.

    Args:
        r: the reading of the reply.
        i: the clause's index (a stated clause, not a question).
        gifts: the reply's :func:`named_gifts`.
    """
    from hat_env.scoring.claims.check_facts import _state

    c = r.clauses[i]
    low = r.ctext(i).lower()
    for gift, pids_with in gifts:
        at = _names_gift(low, gift)
        if at < 0:
            continue
        pos = c.start + at
        pids, _how = r.subject(pos, i)
        pid = next((p for p in pids if p in pids_with), None)
        if pid is None or not _state(r, i, pos):
            continue
        end = min(c.end, pos + max(len(w) for w in gift_words(gift)))
        r.claim(pos, end, (pid,), "gift", True, "", True, "true", "", [("campaign", pid)])
        return


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
    from hat_env.scoring.claims.numbers import read_quantities

    c = r.clauses[i]
    t = r.room.t
    bundles = [b for b in r.room.campaigns if b.type == "bundle" and b.active(t) and b.bundle_discount_pct]
    if not bundles:
        return
    qs = [q for q in read_quantities(r.m, r.vocab) if c.start <= q.start < c.end and q.dim in ("percent", "zhe")]
    if not qs:
        return
    sent = c.sentence
    named = {p for m in r.mentions if r.clauses[r.clause_at(m.start)].sentence == sent for p in m.pids}
    counts = {q.value for q in read_quantities(r.m, r.vocab)
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


__all__ = ["bare_yes_no", "gift_words", "named_gifts", "read_bundle_share", "read_gift_items", "read_no_deal"]
