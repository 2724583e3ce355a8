"""Questions spread to other products: a product intent also for the other links of its joined group ("link 2 and
link 5 price", "2号和3号有货吗"), and for a follow-up clause that only names another product ("3号有货吗 5号呢"). Used by
:mod:`~hat_env.understanding.parser` after :func:`~hat_env.understanding.assemble.assemble`."""

from __future__ import annotations

from bisect import bisect_right

from hat_env.types import Intent
from hat_env.understanding.catalog import Catalog
from hat_env.understanding.clauses import Mention, clause_text
from hat_env.understanding.later import PRODUCT_KINDS
from hat_env.understanding.names import is_joiner_gap, joined_past_variant
from hat_env.understanding.questions import is_question


def spread(found: list[tuple[int, Intent]], mentions: list[Mention], group_of: dict[int, int], bounds: list[int],
            f: str, cat: Catalog | None = None) -> list[tuple[int, Intent]]:
    """Product intents also for the other links of their group ("link 2 and link 5 price", "2号和3号有货吗"), and
    for a follow-up clause that only names another product ("3号有货吗 5号呢"). With the room's catalog ``cat``, a
    variant of the first product between the two still joins them ("me llevo la freidora blanca y la sartén")."""
    if len(mentions) < 2:
        return found
    kinds_with_link = [(p, it) for p, it in found if it.link is not None and it.kind in PRODUCT_KINDS]
    if not kinds_with_link or any(it.kind == "compare" for _, it in found):
        return found
    out = list(found)
    # groups of link mentions joined by a joiner word, or link mentions next to each other in one clause
    singles = [m for m in mentions if len(m[2]) == 1]
    groups: dict[int, list[Mention]] = {}
    for i, m in enumerate(singles):
        gid = group_of.get(m[0])
        if gid is None and i > 0:
            prev = singles[i - 1]
            gap = f[prev[1] : m[0]]
            if is_joiner_gap(gap) or not gap or joined_past_variant(gap, prev[2], cat):  # only spaces, joiners and articles (it may be a clause bound), or
                # nothing ("1号2号3号各多少")
                gid = group_of.get(prev[0], prev[0])
                if prev[0] not in group_of:
                    groups.setdefault(gid, []).append(prev)
                group_of[prev[0]] = gid
                group_of[m[0]] = gid
        if gid is not None:
            groups.setdefault(gid, []).append(m)
    named_clauses = {m[3] for m in mentions}
    for ms in groups.values():
        links = {next(iter(m[2])) for m in ms}
        own = {m[3] for m in ms}
        if len(own) == 1:  # asked before the group and again after it, in its clause: each end asks its own
            lo, hi = min(m[0] for m in ms), max(m[1] for m in ms)  # ("cuánto cuesta la freidora y la sartén tiene
            inside = [p for p, it in kinds_with_link if bisect_right(bounds, p) in own]  # garantía?")
            if any(p < lo for p in inside) and any(p >= hi for p in inside):
                continue
        for p, it in kinds_with_link:
            c = bisect_right(bounds, p)  # asked in the group's clause, or in a later one that names nothing
            if c not in own and (c < max(own) or c in named_clauses):  # ("口红和粉底一起买便宜吗 粉底油皮行不")
                continue
            if it.link in links:
                for m in ms:
                    (ln,) = m[2]
                    out.append((m[0], Intent(it.kind, link=ln, attr=it.attr if it.kind in ("spec", "campaign") else None)))
    # follow-up clauses: a product named, nothing asked, the previous clause asked something
    asked_clauses = {bisect_right(bounds, p) for p, _ in kinds_with_link}
    for m in singles:
        c = m[3]
        if c in asked_clauses or c == 0 or not is_question(clause_text(f, bounds, c)):
            continue
        prev = [it for p, it in kinds_with_link if bisect_right(bounds, p) == c - 1]
        (ln,) = m[2]
        for it in prev:
            out.append((m[0], Intent(it.kind, link=ln, attr=it.attr if it.kind in ("spec", "campaign") else None)))
    return out



__all__ = ["spread"]
