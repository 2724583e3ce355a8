"""Readings that decide whether an intent is answered in other words, from the room's own data rather than a list
of phrasings.

- *A gift named by its item* (:func:`read_gift_items`): a clause that names most of the content words of a gift a
  running campaign gives with the product it is about ("a braided USB-C cable thrown in free" for the gift "1 m
  braided USB-C cable", "还送同色系发夹一个" for "同色系碎花发夹×1", "te regalamos 250 g de café en grano") states
  that deal: a true claim that answers the product's campaign question. The gift's words come from the campaign,
  so a room with other gifts reads the same way; no word list names a gift.

Only true claims are made here (a gift item of another product, or one negated or asked, is left to the other
detectors), so this reading never fails a reply: it only lets a right answer count.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading

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


__all__ = ["gift_words", "named_gifts", "read_gift_items"]
