"""A variant written right after the product's name in a clause that asks something else picks which one is meant
("cuánto cuesta la freidora negra", "me llevo la sartén en rojo", "price of the earbuds in white?"): Spanish and
English put a colour or size after the noun as often as before it; it asks no spec."""

from __future__ import annotations

import re
from bisect import bisect_right

from hat_env.understanding.clauses import Hit, Mention, clause_text
from hat_env.understanding.lexicon import lexicon
from hat_env.understanding.qualifiers import VARIANT_ATTRS
from hat_env.understanding.questions import is_question

#: what a clause may ask beside a variant that only picks the product (no spec question)
PICKING_KINDS = frozenset({"price", "purchase", "campaign", "shipping"})


def drop_values_after_names(f: str, hits: list[Hit], value_hits: list[tuple[int, int, int, str]],
                            mentions: list[Mention], bounds: list[int]
                            ) -> tuple[list[Hit], list[tuple[int, int, int, str]]]:
    """``value_hits`` without the variant values (colour, size, shade) of a product written right after a mention
    of it (nothing, or one ``variant_leads`` word such as "en", "in", between), in a clause whose keywords ask a
    :data:`PICKING_KINDS` question and no spec, or in a clause that is the name and the value alone ("la freidora blanca": no keyword, no question).

    Args:
        f: the folded comment.
        hits: the keyword hits.
        value_hits: ``(start, end, link, attr)`` spec values of named products.
        mentions: the product mentions ``(start, end, links, clause)``.
        bounds: the clause bounds.

    Returns:
        ``(hits, value_hits)`` without those variant values (a value keyword among the hits, "white", as well as
        a catalog value; "how much" then asks the price: "how much are the earbuds in white").
    """
    asking: dict[int, set[str]] = {}
    for h in hits:
        if h[2] in ("kind", "spec") or (h[2] == "qty" and h[3] != "count"):
            asking.setdefault(bisect_right(bounds, h[0]), set()).add(
                {"kind": h[3], "spec": "spec"}.get(h[2], "qty") if h[2] != "kind" else h[3])
    leads = lexicon().variant_leads

    def picks(v: tuple[int, int, int, str]) -> bool:
        c = bisect_right(bounds, v[0])
        kinds = asking.get(c, set())
        if v[3] not in VARIANT_ATTRS or "spec" in kinds:
            return False
        if not kinds & (PICKING_KINDS | {"qty"}) and (kinds or not _bare(f, v, c)):
            return False  # "la freidora blanca", nothing else, names the one meant and asks nothing
        for m in mentions:
            gap = f[m[1]:v[0]].split()
            if m[1] <= v[0] and (v[2] in m[2] or v[2] < 0) and (not gap or (len(gap) == 1 and gap[0] in leads)):
                return True
        return False

    def _bare(f: str, v: tuple[int, int, int, str], c: int) -> bool:
        # the clause is the name and the value alone, with articles and leads, and no question
        text = clause_text(f, bounds, c)
        if is_question(text):
            return False
        lo = bounds[c - 1] + 1 if c > 0 else 0
        g = f[: v[0]] + " " * (v[1] - v[0]) + f[v[1] :]
        for m in mentions:
            if m[3] == c:
                g = g[: m[0]] + " " * (m[1] - m[0]) + g[m[1] :]
        hi = bounds[c] if c < len(bounds) else len(f)
        return all(w in leads for w in re.findall(r"\w+", g[lo:hi]))

    kept = [h for h in hits if not (h[2] == "value" and h[3] is not None and picks((h[0], h[1], -1, h[3])))]
    return kept, [v for v in value_hits if not picks(v)]


__all__ = ["PICKING_KINDS", "drop_values_after_names"]
