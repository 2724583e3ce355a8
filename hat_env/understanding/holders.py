"""A spec only one product of the room has names that product.

"what ring sizes do u have" in a room where only the ring has ``ring_sizes``, "¿tiene SPF 50?" where only the
sunscreen has ``spf``: the viewer names no product, but the question can only be about the one that has the spec
(the host answers with it). :func:`only_holders` gives such a link-less spec question that product's link.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache

from hat_env.types import Intent
from hat_env.understanding.catalog import Catalog
from hat_env.understanding.clauses import Hit


def only_holders(found: list[tuple[int, Intent]], cat: Catalog | None, hits: list[Hit] = (),  # type: ignore[assignment]
                 bounds: list[int] = ()) -> list[tuple[int, Intent]]:  # type: ignore[assignment]
    """``found`` with each ``spec`` intent that names no product and asks a key exactly one product has given that
    product's link.

    Args:
        found: the ``(position, intent)`` pairs read so far (call it only when the comment names no product and no
            link number: a name or a number says which product is asked).
        cat: the room's catalog (its products' spec keys), or ``None`` (nothing changes).
        hits: the keyword hits; bounds: the clause bounds. A clause that names a health condition or effect ("will
            the down bag help my asthma") asks about that, its spec word is no question about the product's spec.

    Returns:
        The pairs, in order; an intent that would repeat one already there is left as it was.
    """
    if cat is None or not cat.specs_known:
        return found
    health = {bisect_right(bounds, h[0]) for h in hits if h[2] == "cond" or h[2:] == ("kind", "efficacy")}
    out: list[tuple[int, Intent]] = []
    for p, it in found:
        if it.kind == "spec" and it.link is None and it.attr not in (None, "unknown") \
                and bisect_right(bounds, p) not in health:
            having = [ln for ln, keys in cat.spec_keys.items() if it.attr in keys]
            if len(having) == 1:
                new = Intent("spec", link=having[0], attr=it.attr)
                if not any(q == new for _, q in found):
                    it = new
        out.append((p, it))
    return out


@lru_cache(maxsize=1)
def _lead_re() -> re.Pattern[str] | None:
    """Every locale's ``holder_leads`` ending where it is searched up to ("las de ", "the one with "), or ``None``."""
    from hat_env.understanding.wordpat import alternation, locale_words

    leads = list(locale_words("holder_leads"))
    return re.compile(r"(?<![a-z\u00e0-\u00ff])(?:" + alternation(leads) + r")\s*$") if leads else None


def _policy() -> frozenset[str]:
    """The spec keys a product without them answers by the shop's policy (``policy_attrs``: "warranty")."""
    from hat_env.understanding.lexicon import lexicon

    return lexicon().policy_attrs


def picked_holders(f: str, found: list[tuple[int, Intent]], cat: Catalog | None, hits: list[Hit] = (),  # type: ignore[assignment]
                   bounds: list[int] = ()) -> list[tuple[int, Intent]]:  # type: ignore[assignment]
    """``found`` with a spec word written to say which product ("qué política de devolución tienen las de pantalla",
    "the one with the screen, how much") read as the one product that has that key: its link-less intents get
    that product's link, and the spec word asks nothing of its own. The product is the one whose title has the
    word ("Gafas Luz Azul Pantalla"), else the one that has the key.

    Args:
        f: the folded comment (call it only when it names no product and no link number).
        found: the ``(position, intent)`` pairs read so far.
        cat: the room's catalog (its products' spec keys), or ``None`` (nothing changes).
        hits: the keyword hits (a ``spec`` hit right after a locale's ``holder_leads`` word picks the product).
        bounds: the clause bounds (a clause that names a health condition is left as it is).

    Returns:
        The pairs, in order, or ``found`` unchanged when no such word picks exactly one product.
    """
    lead = _lead_re()
    if cat is None or not cat.specs_known or lead is None:
        return found
    picks = [h for h in hits if h[2] == "spec" and lead.search(f, 0, h[0]) is not None]
    from hat_env.understanding.fold import fold

    titled = {h: {e.link for e in cat.entries if re.search(r"(?<![a-z])" + re.escape(f[h[0]:h[1]]), fold(e.title))}
              for h in picks}  # "las de pantalla": the one "Gafas ... Pantalla", a word of its title
    links = {ln for h in picks for ln in (titled[h] if len(titled[h]) == 1 else
                                          {ln for ln, keys in cat.spec_keys.items() if h[3] in keys})}
    if not picks or len(links) != 1 or any(h[2] == "cond" for h in hits):
        return found
    ln = next(iter(links))
    at = {h[0] for h in picks}
    out: list[tuple[int, Intent]] = []
    for p, it in found:
        if it.kind == "spec" and it.link is None and p in at:
            continue  # "las de pantalla": which one, not a question about the screen
        if it.link is None and it.kind not in ("chitchat", "troll", "injection", "identity", "other_language",
                                               "order_status", "compare"):
            it = Intent(it.kind, link=ln, attr=it.attr)
            if it.kind == "spec" and it.attr not in cat.spec_keys.get(ln, ()):  # "las de pantalla tienen garantía?"
                it = Intent("after_sales", link=ln) if it.attr in _policy() else Intent("spec", link=ln, attr="unknown")
        if it not in (q for _, q in out):
            out.append((p, it))
    return out if any(it.link == ln for _, it in out) else found


__all__ = ["only_holders", "picked_holders"]
