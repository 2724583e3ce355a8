"""The viewer's own pet, child or skin is no product: a name several products share ("cat", "perro", "宝宝") right
after a possessive ("my cat is scared of noises", "mi perro tiene 60 de pecho", "我家猫") names what the viewer
has, not something the room sells; a product's own name ("my whiskerwell arrived") still names it."""

from __future__ import annotations

from hat_env.understanding.clauses import Mention
from hat_env.understanding.lexicon import Lexicon


def drop_possessed(f: str, mentions: list[Mention], lex: Lexicon,
                   links: list[tuple[int, int]]) -> tuple[list[Mention], list[tuple[int, int]]]:
    """The mentions without the shared names right after a possessive determiner, and the spans of those names (a
    spec value written there, "cat" of a ``species``, is the viewer's pet too: no value asked).

    Args:
        f: the folded comment.
        mentions: the product mentions ``(start, end, links, clause)``.
        lex: the compiled words (``possessive_re``: the locales' ``possessives``).
        links: the spans of link-number references (always products of their own).

    Returns:
        ``(mentions, spans)``: the mentions less each one that names two or more products and follows a possessive
        ("my", "mi", "我家"), and the spans of those left out.
    """
    if lex.possessive_re is None or not mentions:
        return mentions, []
    keep: list[Mention] = []
    spans: list[tuple[int, int]] = []
    for m in mentions:
        if len(m[2]) < 2 or (m[0], m[1]) in links or lex.possessive_re.search(f, max(0, m[0] - 12), m[0]) is None:
            keep.append(m)
        else:
            spans.append((m[0], m[1]))
    return keep, spans


__all__ = ["drop_possessed"]
