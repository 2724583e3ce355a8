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


def ordered_links(f: str, mentions: list[Mention], lex: Lexicon, id_clauses: set[int]) -> set[int]:
    """The products a comment that names an order id says are the order's: one named in a clause with an id ("ya
    pedí el lector (OL1234), llega mañana?") or right after a possessive ("ES1002 pagado, cuándo sale mi taza?");
    a shipping or after-sales question about one asks about the order, not the product.

    Args:
        f: the folded comment.
        mentions: the product mentions ``(start, end, links, clause)``.
        lex: the compiled words (``possessive_re``).
        id_clauses: the clauses that name an order id (call it only when the comment names one).

    Returns:
        the links of those products (each mention naming one product).
    """
    return {next(iter(m[2])) for m in mentions if len(m[2]) == 1 and (
        m[3] in id_clauses or (lex.possessive_re is not None
                               and lex.possessive_re.search(f, max(0, m[0] - 12), m[0]) is not None))}


__all__ = ["drop_possessed", "ordered_links"]
