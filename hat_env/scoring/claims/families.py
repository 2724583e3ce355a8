"""Which attribute a time or count of a reply is about (returns, warranty, order, delivery, shipping, a spec
key), whether a number fact belongs to it, and what a claim about it answers."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hat_env.scoring.claims import topics
from hat_env.scoring.claims.facts import NumFact, ProductFacts

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading


def family(r: "Reading", i: int, pfs: list[ProductFacts], clause_only: bool = False,
            pos: int | None = None, dim: str | None = None) -> str | None:
    """Which attribute a time or count in clause ``i`` is about, from its words (returns, warranty, order, delivery,
    shipping, a spec key the products have), or ``None``; ``pos``: where the number stands (when the clause names
    two topics, the nearest word decides); ``dim``: the number's dimension, when given a spec the clause names is its
    topic only when the spec has a value of that dimension ("刀具套装两天内（48小时）发出": 套装 names the set's size,
    a length, not the two days)."""
    near = topics.nearest_family(r, i, pos) if pos is not None else None
    if near is not None:
        return near
    if r.cfind("returns_words", i):
        return "returns"
    if r.cfind("warranty_words", i):
        return "warranty"
    if r.orders or any(m.how == "order" for m in r.mentions):
        if r.cfind("eta_words", i) and not r.cfind("ship_words", i):
            return "order"
    if r.cfind("deliver_words", i) and not r.cfind("ship_words", i):
        return "delivery"
    if r.cfind("ship_words", i):
        return "shipping"
    named = spec_named(r, i, pfs)
    if named is not None and (dim is None or any(f.dim == dim and f.attr == named
                                                 for pf in pfs for f in pf.numbers)):
        return named
    if not clause_only:
        # a clause without its topic word ("You've got a full month - 30 days - to send it back", "Returns: 30
        # days"): the sentence's (or the line's) topic
        sent = r.clauses[i].sentence
        others = [k for k, c in enumerate(r.clauses) if c.sentence == sent and k != i]
        fams: list[tuple[str, int]] = []
        for name, fam in (("returns_words", "returns"), ("warranty_words", "warranty"), ("ship_words", "shipping"),
                          ("deliver_words", "delivery")):
            fams += [(fam, k) for k in others if r.cfind(name, k)]
        if len({f for f, _k in fams}) == 1 and fams[0][0] != "delivery" and \
                not any(re.search(r"\d", r.ctext(k)) for _f, k in fams):
            return fams[0][0]  # one topic in the sentence, in a clause without its own number
    return None


#: Intent kinds whose answer states a time of its own (a return window, a shipping time, an order's ETA).
_TIMED_KINDS = frozenset({"after_sales", "shipping", "order_status", "campaign"})


def asked_spec(r: "Reading", pfs: list[ProductFacts], dims: tuple[str, ...]) -> str | None:
    """``spec:KEY`` when the viewers asked about one spec attribute (a ``spec`` intent's ``attr``) for which one of
    ``pfs`` states a number of one of ``dims``, else ``None``; none when a viewer also asked something whose answer
    states a time of its own (returns, shipping, an order, a deal's window)."""
    keys = {it.attr for it in r.intents if it.kind == "spec" and it.attr and it.attr != "unknown"}
    if len(keys) != 1 or any(it.kind in _TIMED_KINDS for it in r.intents):
        return None
    fam = f"spec:{keys.pop()}"
    return fam if any(f.attr == fam and f.dim in dims for pf in pfs for f in pf.numbers) else None


def spec_named(r: "Reading", i: int, pfs: list[ProductFacts]) -> str | None:
    """``spec:KEY`` when clause ``i`` names a spec attribute one of ``pfs`` has (by the locale's attribute words,
    else the words the scenario declares for it), else ``None``."""
    from hat_env.scoring.claims.room_vocab import room_attributes

    ct = r.ctext(i)
    keys = {k for pf in pfs for k in pf.product.specs}
    for k, rx in r.vocab.attributes.items():
        if k in keys and rx.search(ct):
            return f"spec:{k}"
    for k, (rx, _typ) in room_attributes(r).items():
        if k in keys and rx.search(ct):
            return f"spec:{k}"
    return None


def fact_in_family(f: NumFact, fam: str) -> bool:
    """Whether a number fact belongs to an attribute family."""
    if fam == "warranty":
        return f.attr in ("warranty", "spec:warranty")
    if fam in ("order", "delivery"):
        return f.attr.startswith("order:")
    return f.attr == fam


def would_answer(attr: str, pid: str) -> list[tuple[str, str | None]]:
    """What a number claim about ``attr`` would answer (a false one voids it)."""
    out: list[tuple[str, str | None]] = []
    if attr == "shipping":
        out.append(("shipping", pid))
    elif attr in ("returns", "warranty", "spec:warranty"):
        out.append(("after_sales", pid))
        if "warranty" in attr:
            out.append(("spec:warranty", pid))
    elif attr.startswith("spec:") or attr == "stock":
        out.append((attr, pid))
    return out


__all__ = ["family", "spec_named", "fact_in_family", "would_answer"]
