"""Every gift reading in one place (:func:`read_gifts`, the detector; :func:`named_gifts` and :func:`read_gift_items`,
a gift named by its item's content words; :func:`check_gift_item`, the item named by its head noun).

Which gift a reply names: "comes with a free neoprene hood", "viene con un molinillo de café de regalo". A gift
campaign running for the product makes a gift claim true only when the item named is that campaign's gift (its
``gift`` text or its title): the head noun of the named item must be one of their words.

The words are the locale's: ``gift_object`` (regexes whose group 1 is the head noun of the item named: the last
word after "free" in English, the first word after the article before "de regalo" in Spanish) and
``gift_generic`` (heads that name no item: "gift", "bonus", "regalo", "sorpresa"), ``gift_measure`` (heads that
measure the item named after them: "un paquete de café", "a bag of treats").
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from hat_env.scoring.claims.check_common import exists_claim, claim_group, claim_state
from hat_env.text import normalize

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading

_WORD = re.compile(r"[^\W\d_][\w-]*")


def _stem(w: str) -> str:
    """A lower-case word without a plural ending ("toys" -> "toy", "sacks" -> "sack")."""
    w = w.lower()
    if len(w) > 4 and w.endswith("es") and w[-3] in "sxz":
        return w[:-2]
    if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
        return w[:-1]
    return w


def check_gift_item(r: "Reading", i: int, s: int, pids: tuple[str, ...]) -> bool:
    """Check the item a gift claim at ``s`` of clause ``i`` names against the gifts of ``pids`` running now; record
    a false claim and return True when it names another item, else return False (nothing named, or the gift)."""
    rx = r.vocab.rx.get("gift_object")
    if rx is None:
        return False
    pfs = [pf for pf in r.pfs(pids) if pf.gifts]
    if not pfs:
        return False
    c = r.clauses[i]
    generic = r.vocab.rx.get("gift_generic")
    for m in rx.finditer(r.text, c.start, c.end):
        head = m.group(1)
        if not head or (generic is not None and generic.fullmatch(head)):
            continue
        words = {_stem(w) for pf in pfs for txt in (*pf.gifts, *(x.title for x in pf.campaigns_active if x.type == "gift"))
                 for w in _WORD.findall(txt)}
        if _stem(head) in words:
            return False
        measure = r.vocab.rx.get("gift_measure")
        if measure is not None and measure.fullmatch(head) and \
                any(_stem(w) in words for w in _WORD.findall(r.text[m.end(1) : m.end()])):
            return False  # "un paquete de café" for "250 g de café en grano": a measure of the gift
        gift = pfs[0].gifts[0]
        r.claim(m.start(), m.end(), tuple(pf.pid for pf in pfs), "gift", head,
                "", True, "false", f"{r.label(pfs[0].pid)}: '{r.m.original(m.start(), m.end())}' but the gift is '{gift}'")
        return True
    return False



def read_gifts(r: "Reading", i: int) -> None:
    """A gift named: one must come with the product now, and be the item named: the campaign's item by its head noun
    (check_gifts), and a gift the reply names by its item ("送同款腰带", "a free ice tray") shares a content word
    with the data's gift text."""
    m = r.cfind("gift_words", i)
    if m is not None and claim_state(r, i, r.clauses[i].start + m.start()):
        pids, _many = claim_group(r, i, r.clauses[i].start + m.start())
        if check_gift_item(r, i, r.clauses[i].start + m.start(), pids):
            return  # "a free neoprene hood" when the gift is a phone pouch
    n = len(r.report.claims)
    exists_claim(r, i, "gift_words", "gift", lambda pf: bool(pf.gifts), "campaign", "no gift comes with it now",
                  void=False, strict=True)
    if len(r.report.claims) == n or r.report.claims[-1].verdict != "true":
        return
    head_rx = r.vocab.rx.get("gift_object")
    if head_rx is not None and head_rx.search(r.text, r.clauses[i].start, r.clauses[i].end):
        return  # the clause names a gift's item by its head noun ("a free X"): check_gift_item above read it
    c = r.report.claims[-1]
    pfs = [pf for pf in r.pfs(c.pids) if pf.gifts]
    obj = _gift_item(r, i)
    if obj is None or not pfs:
        return
    from hat_env.scoring.claims.check_lists import content_words

    lang = r.vocab.lang
    said = {w for w in content_words(obj, lang) if r.vocab.find("gift_words", w) is None and not w.isdigit()}
    generic = r.vocab.rx.get("gift_generic")
    said = {w for w in said if generic is None or generic.fullmatch(w) is None}
    if not said:
        return
    have = {w for pf in pfs for g in pf.gifts for w in content_words(normalize(g, r.vocab.locale).text, lang)}
    if any(w in h or h in w for w in said for h in have if len(h) >= 2):
        return
    r.report.claims[-1] = c.__class__(c.product_id, c.attribute, c.value, c.unit, c.polarity, c.span, c.text, "false",
                                      f"{r.label(pfs[0].pid)}: '{c.text.strip()}' but the gift is '{pfs[0].gifts[0]}'",
                                      c.pids, frozenset())


#: Words before a Spanish gift's noun ("un", "unas", "tu"): not the item.
_ES_ARTICLES = frozenset("un una unos unas el la los las del tu tus su sus te les nos".split())


def _gift_item(r: "Reading", i: int) -> str | None:
    """The item a gift word gives in clause ``i``: the words after 送 ("送同款腰带一条"), or the words a gift
    pattern captures ("a free ice tray set"); ``None`` when the clause names no item."""
    ct = r.ctext(i)
    for m in r.call("gift_words", i):
        if m.re.groups and m.lastindex and m.group(m.lastindex):
            return m.group(m.lastindex)
        g = m.group()
        if r.vocab.lang == "zh" and g.startswith("送") and len(g) > 1:
            return g[1:]
        if r.vocab.lang == "es" and re.search(r"regal|gratis", g, re.IGNORECASE):
            # "te regalamos un molinillo", "de regalo café en grano": a Spanish noun phrase starts with its noun
            rest = re.split(r"[,.;:!?]|\b(?:y|con|para|si|al)\b", ct[m.end():], maxsplit=1)[0]
            generic = r.vocab.rx.get("gift_generic")
            head = [w for w in re.findall(r"[^\W\d_]{3,}", rest.lower()) if w not in _ES_ARTICLES
                    and (generic is None or generic.fullmatch(w) is None) and r.vocab.unit_rx.fullmatch(w) is None]
            if head:
                return head[0]
            continue
        if r.vocab.lang != "zh" and re.search(r"(?:free|bonus)\s*$", g, re.IGNORECASE):
            # "comes with a free rinse aid bottle": the words after it, to a preposition or the clause's end
            rest = re.split(r"[,.;:!?]|\b(?:with|for|when|if|on|in|to|and)\b", ct[m.end():], maxsplit=1)[0]
            if rest.strip():
                return rest
    return None


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
    c = r.clauses[i]
    low = r.ctext(i).lower()
    for gift, pids_with in gifts:
        at = _names_gift(low, gift)
        if at < 0:
            continue
        pos = c.start + at
        pids, _how = r.subject(pos, i)
        pid = next((p for p in pids if p in pids_with), None)
        if pid is None or not claim_state(r, i, pos):
            continue
        end = min(c.end, pos + max(len(w) for w in gift_words(gift)))
        r.claim(pos, end, (pid,), "gift", True, "", True, "true", "", [("campaign", pid)])
        return


__all__ = ["check_gift_item", "gift_words", "named_gifts", "read_gift_items", "read_gifts"]


# the old private names, for code that still imports them
_gifts = read_gifts
