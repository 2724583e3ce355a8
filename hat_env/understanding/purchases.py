"""Purchases said by a count and a product, without a verb ("2 of link 4 please", "2 de la tarjeta porfa"): a count
(digits or a locale's ``count_words``), a ``count_of_words`` word ("of", "de la") and right after it a product
mention, in a clause that asks nothing and holds no other keyword."""

from __future__ import annotations

from bisect import bisect_right

from hat_env.understanding.clauses import Hit, Mention, clause_text
from hat_env.understanding.lexicon import Lexicon
from hat_env.understanding.questions import is_question


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


__all__ = ["count_purchases"]
