"""A quantity of a reply written as the room's own data names its product or gift ("the RoadEye 4K dash cam" of
"RoadEye 4K Front and Rear Dash Cam", "a free 64 GB microSD card" of the gift "64 GB microSD card", "the 4-piece
mats" of "Floor Mats, 4-Piece Set", "230g气罐" of "丁烷气罐 230g×4罐"): the product's or gift's name, not a claim
about a price, a spec or a count. Only a number with the letters of a unit or word after it counts; a bare number
("2" of "Set of 2") is still read as a claim.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    from hat_env.scoring.claims.facts import ProductFacts
    from hat_env.scoring.claims.numbers import Quantity
    from hat_env.scoring.claims.read import Reading

#: the letters right after a number as written, across one space or hyphen ("64 GB", "4-Piece", "230g", "4罐")
_TAIL = re.compile(r"[ \-]?([^\W\d_]+)")


def _norm(text: str) -> str:
    """``text`` lower-cased, hyphens as spaces, runs of spaces as one, no space between a digit and a letter."""
    t = re.sub(r"[\s\-‐–]+", " ", text.lower())
    return re.sub(r"(\d) (?=[^\W\d_])", r"\1", t)


def _stands_in(phrase: str, text: str) -> bool:
    """Whether ``phrase`` (normalised) stands in ``text`` (normalised) not inside a longer number or word: no digit
    or decimal point before it, and no Latin letter or digit after a phrase ending in one."""
    k = text.find(phrase)
    while k >= 0:
        before = text[k - 1] if k > 0 else ""
        after = text[k + len(phrase)] if k + len(phrase) < len(text) else ""
        end = phrase[-1]
        if not (before.isdigit() or before == ".") and not (
                end.isascii() and end.isalnum() and after.isascii() and after.isalnum()):
            return True
        k = text.find(phrase, k + 1)
    return False


def _cjk_letter(ch: str) -> bool:
    """Whether ``ch`` is a letter of a script written without spaces (Chinese, Japanese): not ASCII, not a digit."""
    return not ch.isascii() and ch.isalpha()


def _word_windows(source: str, s: int, e: int, reach: int = 3) -> Iterable[str]:
    """The runs of ``source`` around the number word ``source[s:e]`` with at least two letters of a script written
    without spaces beside it (up to ``reach`` on each side, letters only), normalised: "三合一" and "三合一冲" of
    "峰行三合一冲锋衣". A run that short of context ("一条") is never yielded, so a count stays a count.

    Args:
        source: the reply as written; s, e: the span of the number word in it; reach: the most letters per side.
    """
    left = 0
    while left < reach and s - left - 1 >= 0 and _cjk_letter(source[s - left - 1]):
        left += 1
    right = 0
    while right < reach and e + right < len(source) and _cjk_letter(source[e + right]):
        right += 1
    for a in range(left + 1):
        for b in range(right + 1):
            if a + b >= 2:
                yield _norm(source[s - a : e + b])


def _phrases(r: "Reading", q: "Quantity") -> Iterable[str]:
    """The ways the reply writes ``q`` with letters: its own span when that holds a letter ("4K"), and the span with
    the word right after it ("64 GB"; a Chinese word by each prefix), normalised."""
    s, e = r.m.span(q.start, q.end)
    said = r.m.source[s:e]
    lead = r.m.source[:s].rstrip()
    if lead and unicodedata.category(lead[-1]) == "Sc":
        return  # "$4K": an amount of money as written, whatever a title holds
    if not re.search(r"\d", said):
        # a number word ("一" of "一条头巾") is no piece of a title's "三合一" by itself; written inside a run of the
        # title's own Chinese letters ("三合一" of "三合一冲锋衣"), it is
        yield from _word_windows(r.m.source, s, e)
        return
    if re.search(r"[^\W\d_]", said):
        yield _norm(said)
    tail = _TAIL.match(r.m.source, e)
    if tail is not None:
        word = tail.group(1)
        # a Latin word whole ("64 GB", not "64 G"); Chinese, which writes no spaces, by each prefix ("4罐" of "4罐装")
        cuts = range(1, len(word) + 1) if not word[0].isascii() else (len(word),)
        for n in cuts:
            yield _norm(said + r.m.source[e : tail.start(1)] + word[:n])


def names_own_item(r: "Reading", q: "Quantity", pfs: "list[ProductFacts]") -> bool:
    """Whether quantity ``q`` of the reply, with the letters written right after it, is a piece of the title or of
    an active gift's text of one of ``pfs`` (the products the clause speaks of): the item's own name.

    Args:
        r: the reading of the reply.
        q: one of its quantities.
        pfs: the facts of the products its clause speaks of.

    Returns:
        True when the number as written names the product or its gift, so no claim is read from it.
    """
    if not pfs:
        return False
    names = [_norm(t) for pf in pfs for t in (pf.product.title, *pf.gifts) if t]
    return any(_stands_in(p, n) for p in _phrases(r, q) for n in names if p)


__all__ = ["names_own_item"]
