"""Exclusive claims: "Android-only", "only works with Android", "solo es compatible con Android", "只支持安卓".

A product's data often lists alternatives in one text: "works with iOS 15 or later and Android 9 or later",
"Bluetooth 5.2, GPS", "black, white". The alternatives of a data text are its labelled numbers' labels
("ios", "android") and the items of a listed spec value ("black", "white"). A clause with an exclusive word (the
``exclusive`` lists of every locale's vocabulary, so a reply in another language than the room's reads too)
that names one alternative of such a text and none of the others says the others do not hold (an FAQ
answer's or note's list of three or more short items counts too: "铁壶、玻璃壶、陶壶都能用"): it is false
("'Android-only' but its data says 'works with iOS 15 or later and Android 9 or later'"). Naming every
alternative, or a word that is no alternative, makes no exclusive claim here.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from hat_env.scoring.claims.check_codes import LABEL_NUMBER, data_texts

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading
    from hat_env.sim.catalog import Product

#: Items of a listed value (project code: fixed, linear).
_ITEMS = re.compile(r"\s*(?:,|、|，|/|;|；| and | or | y | o |和|及|与|或)\s*")
_WORD = re.compile(r"[a-z][a-z0-9+-]{1,20}")


@lru_cache(maxsize=1)
def _exclusive() -> "re.Pattern[str] | None":
    """The exclusive words of every locale's vocabulary, as one pattern (``None`` when no locale has any)."""
    from hat_env.scoring.claims.vocab import available_locales, load_vocab

    pats = [load_vocab(loc).rx.get("exclusive") for loc in available_locales()]
    srcs = [p.pattern for p in pats if p is not None]
    return re.compile("|".join(f"(?:{s})" for s in srcs), re.IGNORECASE) if srcs else None


def _alternatives(p: "Product") -> list[tuple[str, frozenset[str]]]:
    """``(data text, its alternatives)`` for each data text of ``p`` that lists two or more."""
    out = []
    for key, text in data_texts(p):
        low = text.lower()
        labels = {m.group(1).lower() for m in LABEL_NUMBER.finditer(low)}
        if len(labels) < 2 and key is not None:  # a spec value listing items; FAQ sentences are no lists
            items = [x.strip() for x in _ITEMS.split(low) if x.strip()]
            if len(items) >= 2 and all(len(x) <= 12 for x in items):
                labels = {x for x in items}
        if len(labels) < 2 and key is None:
            labels = _listed(low)
        if len(labels) >= 2:
            out.append((text, frozenset(labels)))
    return out


#: A list of three or more short items in an FAQ answer or note: "铁壶、玻璃壶、陶壶都能用", "cast iron, glass and
#: clay kettles" (what follows the last item up to a particle is cut: 都, 也, 均, 等).
_ZH_LIST = re.compile(r"[\u3400-\u9fff]{1,6}(?:、[\u3400-\u9fff]{1,6}){2,}")
_EN_LIST = re.compile(r"\b[a-z][a-z0-9-]*(?: [a-z][a-z0-9-]*)?(?:, [a-z][a-z0-9-]*(?: [a-z][a-z0-9-]*)?)+,? (?:and|or) [a-z][a-z0-9-]*(?: [a-z][a-z0-9-]*)?")


def _listed(low: str) -> set[str]:
    """The items of the first list of three or more short items in a data sentence (see :data:`_ZH_LIST`)."""
    m = _ZH_LIST.search(low)
    if m is not None:
        items = [re.split(r"[都也均等]", x)[0] for x in m.group().split("、")]
        return {x for x in items if len(x) >= 2}
    m = _EN_LIST.search(low)
    if m is not None:
        items = [x.strip() for x in re.split(r",|\band\b|\bor\b", m.group()) if x.strip()]
        return {x for x in items if len(x) >= 3} if len(items) >= 3 else set()
    return set()


def read_exclusive_claims(r: "Reading") -> None:
    """Record a false ``exclusive`` claim for each clause that names one alternative of a product's data text
    with an exclusive word and none of the others (see the module docstring)."""
    rx = _exclusive()
    if rx is None or rx.search(r.text) is None:
        return
    for i, c in enumerate(r.clauses):
        if c.question:
            continue
        seg = r.text[c.start : c.end]
        m = rx.search(seg)
        if m is None:
            continue
        low = seg.lower()
        pids, _how = r.subject(c.start + m.start(), i)
        for pid in pids[:1]:
            for text, alts in _alternatives(r.room.by_id[pid]):
                # the exclusive word governs what follows it, or the word it ends ("Android-only"): "the 65W GaN
                # charger only comes in white" says nothing of GaN
                named = {a for a in alts if _names(low[m.start():], a) or _ends_at(low, a, m.start())}
                if len(named) == 1 and len(alts) > 1:
                    said = r.m.original(c.start, c.end).strip()
                    r.claim(c.start, c.end, (pid,), "exclusive", next(iter(named)), "", True, "false",
                            f"{r.label(pid)}: '{said}' but its data says '{text}'", [])
                    return


def _ends_at(clause: str, alt: str, pos: int) -> bool:
    """Whether alternative ``alt`` ends right before ``pos`` of the clause (a space or hyphen between)."""
    head = clause[:pos].rstrip(" -")
    return head.endswith(alt) and (len(head) == len(alt) or not head[-len(alt) - 1].isalnum()
                                   or bool(re.search(r"[\u3400-\u9fff]", alt)))


def _names(clause: str, alt: str) -> bool:
    """Whether a clause (lower case) names alternative ``alt``: as a word in Latin script, as a substring in
    Chinese."""
    if re.search(r"[\u3400-\u9fff]", alt):
        return alt in clause
    return re.search(rf"(?<![a-z0-9]){re.escape(alt)}(?![a-z0-9])", clause) is not None


__all__ = ["read_exclusive_claims"]
