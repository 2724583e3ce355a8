"""Returns refused outright of a product the data lets viewers return ("灰枣是食品，不支持退货", "sorry, no returns
on food", "no se admiten devoluciones"): false, unless the reply gives a condition the refusal is under.

A returnable product (``return_days`` > 0) may still refuse some returns: its after-sales note says when ("拆封后
不退", "Unopened bags can be returned"), its ``no_return_when`` names the cases, and a window ends. A refusal that
says any of that restates the policy, so the check leaves alone a refusal whose sentence holds a number (the
window, "after 7 days"), or whose sentence up to it holds a conditional or a no-reason word ("不支持无理由退货"), and a reply that says a word of
the note's own condition or a ``no_return_when`` name anywhere ("opened", "拆封", "used"), or that grants returns
in another clause ("30 days to return ... you won't want to return it"). A refusal about return
shipping ("不退运费") is a fee, read by :mod:`.check_after_sales`. The words are the room's data and the locale's
vocabulary; nothing here lists a product's words.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hat_env.scoring.claims.check_lists import EN_STOP_WORDS, content_words
from hat_env.text import normalize

if TYPE_CHECKING:
    from hat_env.scoring.claims.facts import ProductFacts
    from hat_env.scoring.claims.read import Reading

#: Lists whose words in a refusal's sentence make it conditional or about something else than the policy itself.
_CONDITION_LISTS = ("conditional", "no_reason", "return_shipping_words", "ship_words", "paid_shipping",
                    "free_shipping", "honest_unknown", "data_lacks")
#: Lists whose words in a note are the policy's own vocabulary, not its condition.
_POLICY_LISTS = ("returns_words", "exchange_words", "negation", "no_reason")
#: Generic words of a return policy that carry no condition (both the note and a plain refusal use them).
_GENERIC = frozenset({"支持", "可以", "能够", "不能", "不可以", "无法", "接受", "商品", "产品", "within", "can", "accepted",
                      "accept", "item", "items", "product", "products", "days", "day", "admite", "admiten", "puede",
                      "pueden", "dentro", "días", "plazo", "productos", "producto"})
_SUFFIX = re.compile(r"(?:ing|ed|es|s|e)$")


#: A Latin word of three or more letters, accented ones included ("devolución", "días").
_LATIN_WORD = re.compile(r"[^\W\d_]{3,}")


def _content_words(text: str, lang: str) -> set[str]:
    """The content words of lower-case ``text``: :func:`.check_lists.content_words` for Chinese, Latin words with their
    accents (the function words of English left out) otherwise."""
    if lang == "zh":
        return set(content_words(text, lang))
    return {w for w in _LATIN_WORD.findall(text) if w not in EN_STOP_WORDS}


def _stem(w: str) -> str:
    """A Latin word without a negating ``un``/``in`` prefix and an inflection ("unopened", "opening" -> "open");
    a Chinese word as it is."""
    if re.search(r"[\u3400-\u9fff]", w):
        return w
    if w.startswith(("un", "in")) and len(w) > 5:
        w = w[2:]
    return _SUFFIX.sub("", w) if len(w) > 4 else w


def _condition_words(r: "Reading", pf: "ProductFacts") -> set[str]:
    """The stems of the words of ``pf``'s after-sales note that state a condition (not its policy words: return,
    exchange, a negation, generic verbs), and of its ``no_return_when`` names."""
    v = r.vocab
    note = normalize(pf.product.returns.note or "", v.locale).text.lower()
    out: set[str] = set()
    for w in _content_words(note, v.lang):
        if w in _GENERIC or any(v.find(name, w) is not None for name in _POLICY_LISTS):
            continue
        if re.search(r"\d", w):
            continue
        out.add(_stem(w))
    for cond in pf.product.returns.no_return_when:
        for n in cond.names:
            out.add(_stem(normalize(str(n), v.locale).text.lower()))
    return {w for w in out if len(w) >= 2}


def _says_condition(r: "Reading", pf: "ProductFacts") -> bool:
    """Whether the reply says one of ``pf``'s return conditions (a word of its note's condition or a
    ``no_return_when`` name, by stem, either inside the other)."""
    cond = _condition_words(r, pf)
    if not cond:
        return False
    low = r.text.lower()
    said = {_stem(w) for w in _content_words(low, r.vocab.lang)}
    for c in cond:
        if r.vocab.lang == "zh" and (c in low or c[0] in low):
            return True  # "拆开" for the note's "拆封": a Chinese condition is its verb
        if any(c == w or (len(c) >= 4 and len(w) >= 4 and (c in w or w in c)) for w in said):
            return True
    return False


def _returns_granted_elsewhere(r: "Reading", i: int) -> bool:
    """Whether another stated clause of the reply says returns are possible (a returns word, not negated: "30
    days to return, ... you won't want to return it"): the refusal is then no policy but a remark."""
    from hat_env.scoring.claims.check_common import negated_after, claim_state

    for k, c in enumerate(r.clauses):
        if k == i or c.question:
            continue
        for m in r.call("returns_words", k):
            if claim_state(r, k, c.start + m.start()) and not negated_after(r, k, c.start + m.end()):
                return True
    return False


def refused_returnable(r: "Reading", i: int, s: int, e: int, pids: "tuple[str, ...]",
                       pfs: "list[ProductFacts]") -> None:
    """Record a false ``returnable`` claim when clause ``i`` refuses returns (the returns word at ``s``..``e``,
    negated) of products ``pfs`` that can all be returned, with no condition said (see the module)."""
    from hat_env.scoring.claims.check_common import negated_after, claim_state

    c = r.clauses[i]
    if c.question or (claim_state(r, i, s) and not negated_after(r, i, e)):
        return
    st = r.stext(i)
    s0 = min(x.start for x in r.clauses if x.sentence == c.sentence)
    upto = r.text[s0:c.end]  # a condition stands before the refusal or in its clause ("拆了的话就不能退")
    if re.search(r"\d", st) or any(r.vocab.find(name, upto) is not None for name in _CONDITION_LISTS):
        return
    if any(_says_condition(r, pf) for pf in pfs) or _returns_granted_elsewhere(r, i):
        return
    pf = pfs[0]
    days = pf.product.returns.return_days
    r.claim(s, e, pids, "returnable", False, "", False, "false",
            f"{r.label(pf.pid)}: '{r.m.original(s, e)}' but it can be returned within {days} days"
            + (f" ({pf.product.returns.note})" if pf.product.returns.note else ""),
            [("after_sales", pf.pid)])


__all__ = ["refused_returnable"]
