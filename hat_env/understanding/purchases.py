"""Purchases said without a buy verb: by a count and a product ("2 of link 4 please", "2 de la tarjeta porfa": a count
(digits or a locale's ``count_words``), a ``count_of_words`` word ("of", "de la") and right after it a product
mention, in a clause that asks nothing and holds no other keyword), and as made ("已拍 跑鞋41码", "ok bought the
watch": :func:`done_purchases`)."""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache

from hat_env.types import Intent
from hat_env.understanding.clauses import Hit, Mention, clause_text
from hat_env.understanding.lexicon import Lexicon
from hat_env.understanding.questions import is_question
from hat_env.understanding.wordpat import latin_whole_re, locale_words


def count_purchases(f: str, hits: list[Hit], mentions: list[Mention], bounds: list[int], lex: Lexicon) -> list[Hit]:
    """The purchase hits of the count purchases of ``f`` (see the module docstring).

    Args:
        f: the folded comment.
        hits: the keyword hits so far.
        mentions: the product mentions ``(start, end, links, clause)``.
        bounds: the clause bounds.
        lex: the compiled words.
    """
    if lex.count_of_re is None or not mentions:
        return []
    out: list[Hit] = []
    for m in lex.count_of_re.finditer(f):
        c = bisect_right(bounds, m.start())
        if not any(x[3] == c and x[0] == m.end() for x in mentions):
            continue
        if any(bisect_right(bounds, h[0]) == c and h[2] in ("kind", "spec", "value", "qty", "deal")
               and h[3] != "chitchat" for h in hits) or is_question(clause_text(f, bounds, c)):
            continue
        out.append((m.start(), m.end(), "kind", "purchase"))
    return out


@lru_cache(maxsize=1)
def _past_re() -> re.Pattern[str] | None:
    """Every locale's ``past_times`` words as one pattern (Latin ones whole), or ``None``."""
    return latin_whole_re(list(locale_words("past_times")))


def done_purchases(f: str, found: list[tuple[int, Intent]], hits: list[Hit], mentions: list[Mention],
                   bounds: list[int], lex: Lexicon) -> list[tuple[int, Intent]]:
    """A purchase said as made, of the one product the comment names, when it says and asks nothing else.

    "已拍 跑鞋41码", "熊熊 奶白40 拍了", "ok bought the watch": the viewer tells the host they bought it (the host
    confirms the order); a value named beside it ("41码", "奶白") says which variant, it asks no spec. A thanks,
    greeting or praise with it ("谢谢主播 维C已拍", "just ordered the kit, ty", "yyds 又囤了两瓶") is a ``chitchat``
    next to the purchase (the host thanks back and confirms), and a question with it ("冲了 有券吗") is that question.

    Args:
        f: the folded comment.
        found: the ``(position, intent)`` pairs read so far (a ``chitchat`` of the greeting may be among them).
        hits: the keyword hits (any kind other than a purchase or a chitchat, or a deal word, keeps ``found``).
        mentions: the product mentions.
        bounds: the clause bounds (a clause that is a question keeps ``found``).
        lex: the compiled words (a word of a time past, ``past_times``, keeps ``found``; ``done_re``: the locales'
            ``purchase_done`` words; ``greeting_re``, ``thanks_re``, ``praise_re``: a greeting, thanks or praise
            beside the purchase).

    Returns:
        ``[(position, purchase)]`` of the product named, with ``(position, chitchat)`` of a greeting, thanks or
        praise beside it, or ``found`` unchanged.
    """
    if lex.done_re is None or not mentions or any(it.kind not in ("spec", "chitchat") for _, it in found):
        return found
    done = lex.done_re.search(f)
    if done is None or any(h[2] == "deal" or (h[2] == "kind" and h[3] not in ("purchase", "chitchat")) for h in hits):
        return found
    links = {ln for m in mentions for ln in m[2]}
    if len(links) != 1 or any(is_question(clause_text(f, bounds, c)) for c in range(len(bounds) + 1)):
        return found
    past = _past_re()
    if past is not None and past.search(f) is not None:
        return found  # "bought the bands yesterday and love them": a story of a purchase, no order to confirm
    named = [(m[0], m[1]) for m in mentions]
    out = [(min(m[0] for m in mentions), Intent("purchase", link=next(iter(links))))]
    for pat in (lex.greeting_re, lex.thanks_re, lex.praise_re):
        said = None if pat is None else next(
            (m for m in pat.finditer(f) if not any(a < m.end() and m.start() < b for a, b in [*named, done.span()])),
            None)
        if said is not None:
            out.append((said.start(), Intent("chitchat")))
            break
    return sorted(out, key=lambda x: x[0])


__all__ = ["count_purchases", "done_purchases"]
