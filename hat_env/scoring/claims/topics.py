"""Which topic a time in a reply is about when its clause names two ("ships in about a week with a 2-year
warranty", "保质期12个月、未拆封7天无理由可退"): the topic word nearest to the number; and whether a clause restates a
data text (an FAQ answer, the after-sales note) whose number it repeats ("签收48小时内拍照联系客服")."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading

#: topic words of the times' families, each list with the family it names (the nearest to a time decides it)
_FAMILY_WORDS = (("returns_words", "returns"), ("warranty_words", "warranty"), ("ship_words", "shipping"))


def nearest_family(r: "Reading", i: int, pos: int) -> str | None:
    """When a clause holds topic words of two families ("ships in about a week, with a 2-year warranty", "保质期
    12个月，未拆封7天无理由可退"), the family of the word nearest to the time at ``pos`` (before it first, on a
    tie); ``None`` when at most one family is named (the usual order then decides)."""
    c0 = r.clauses[i].start
    found: list[tuple[int, int, str]] = []
    for name, fam in _FAMILY_WORDS:
        for m in r.call(name, i):
            s, e = c0 + m.start(), c0 + m.end()
            if name == "returns_words" and ("refund" in m.group().lower() or "退款" in m.group()):
                continue
            found.append((pos - e if e <= pos else s - pos, 0 if e <= pos else 1, fam))
    spec = [(k, rx) for k, rx in r.vocab.attributes.items() if k == "shelf_life"]
    for k, rx in spec:
        for m in rx.finditer(r.ctext(i)):
            s, e = c0 + m.start(), c0 + m.end()
            found.append((pos - e if e <= pos else s - pos, 0 if e <= pos else 1, f"spec:{k}"))
    if len({f for _d, _b, f in found}) < 2:
        return None
    return min(found)[2]


def shares_words(r: "Reading", i: int, text: str) -> bool:
    """Whether clause ``i`` shares content with a data text beyond its numbers: three 2-character runs for Chinese
    ("拍照", "小时", "时内"), one word of four letters or more otherwise."""
    ct = re.sub(r"[\d\s\W]+", " ", r.ctext(i).lower())
    tx = re.sub(r"[\d\s\W]+", " ", text.lower())
    if r.vocab.lang == "zh":
        grams = {w[k : k + 2] for w in ct.split() for k in range(len(w) - 1)}
        return sum(1 for g in grams if g in tx) >= 3
    words = {w for w in ct.split() if len(w) >= 4}
    return any(re.search(rf"\b{re.escape(w)}\b", tx) for w in words)


def restates_number_clause(r: "Reading", i: int, data: str, value: float, dim: str) -> bool:
    """Whether clause ``i`` shares a content word with the clause of the data text ``data`` (an FAQ answer) that
    states ``value`` in dimension ``dim``: a word of four letters or more (two characters in a row in Chinese),
    the unit words right after a number aside ("at the full 800 lumens" and "at 800 lumens it runs about 1.5
    hours"; "12 hours is on the flash mode" shares nothing with it)."""
    from hat_env.scoring.claims.numbers import read_quantities
    from hat_env.text import normalize

    m = normalize(data, r.vocab.locale)
    t = m.text
    units = re.compile(r"(?<=\d)\s*[^\W\d_]+|\d+(?:\.\d+)?")
    for x in read_quantities(m, r.vocab):
        if x.dim != dim or abs(x.base - value) > 1e-6:
            continue
        lo = max(t.rfind(ch, 0, x.start) for ch in ".;,:!?。；，：！？") + 1
        ends = [k for k in (t.find(ch, x.end) for ch in ".;,:!?。；，：！？") if k >= 0]
        part = units.sub(" ", t[lo : min(ends, default=len(t))]).lower()
        mine = units.sub(" ", r.ctext(i)).lower()
        if r.vocab.lang == "zh":
            grams = {w[k : k + 2] for w in re.findall(r"[\u3400-\u9fff]+", mine) for k in range(len(w) - 1)}
            return any(g in part for g in grams)
        return any(re.search(rf"\b{re.escape(w)}\b", part) for w in re.findall(r"[a-z]{4,}", mine))
    return False


__all__ = ["nearest_family", "restates_number_clause", "shares_words"]
