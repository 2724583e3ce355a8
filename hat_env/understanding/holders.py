"""A spec only one product of the room has names that product.

"what ring sizes do u have" in a room where only the ring has ``ring_sizes``, "¿tiene SPF 50?" where only the
sunscreen has ``spf``: the viewer names no product, but the question can only be about the one that has the spec
(the host answers with it). :func:`only_holders` gives such a link-less spec question that product's link.
"""

from __future__ import annotations

from bisect import bisect_right

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


__all__ = ["only_holders"]
