"""Letter sizes a reply names ("S到XXL都有", "sizes S to 2XL", "最大到4XL", "有XXL码"), checked against the size
range of the product's own data ("S-XL").

Letter sizes are ordered (XXS < XS < S < M < L < XL < XXL < XXXL < 4XL < 5XL; ``2XL`` is ``XXL``, ``3XL``
is ``XXXL``). A product whose spec value (any key) is a range of letter sizes ("S-XL", "S～XXL") or a list of
them ("S、M、L") has those sizes. Each size a positive clause about the product names must be among them: a
range the reply gives ("S到4XL") must lie inside the data's range, so a size the data does not reach is false
(invented), and naming sizes that all hold answers the spec question of that key. A negated clause ("没有XXL")
is true when the size is outside the range. Products without letter sizes in their data are not checked here.

Advice is another claim: a size after an advice word of the locale (``size_advice``: 穿, 建议, 选; "go with",
"I'd take") recommends it ("165 55穿S码正好", "腰围2尺建议穿28码"). Only the product's FAQ gives size advice, so
the size must be one its FAQ answers recommend; a size the FAQ does not advise is false when the FAQ advises
others, else unsupported. Numbered sizes ("28码") count here too.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading

_ORDER = ("XXS", "XS", "S", "M", "L", "XL", "XXL", "XXXL", "4XL", "5XL", "6XL")
#: One letter size as written, not inside a word (project code: fixed, linear).
#: Upper case only, as size labels are written ("it's" holds no size S).
_SIZE = re.compile(r"(?<![A-Za-z0-9'’])(XXS|XS|[2-6]XL|X{1,3}L|S|M|L)(?![A-Za-z])")
#: A range of sizes: "S-XL", "S到XXL", "S to 2XL", "S～XXL".
_RANGE = re.compile(r"^\s?(?:-|–|~|～|到|至|to|through|-to-)\s?$", re.IGNORECASE)
#: A numbered size as advice gives it ("28码", "size 28").
_NUMBERED = re.compile(r"(?<![\d.])(\d{2})\s?码|\bsize (\d{1,2})\b", re.IGNORECASE)


def _rank(token: str) -> int:
    t = token.upper()
    if t[0].isdigit():
        t = "X" * int(t[0]) + "L" if int(t[0]) <= 3 else t
    return _ORDER.index(t) if t in _ORDER else -1


def _sizes_in(text: str) -> list[tuple[int, int, int, int]]:
    """``(start, end, lowest rank, highest rank)`` of each size or size range of ``text``."""
    toks = [(m.start(), m.end(), _rank(m.group(1))) for m in _SIZE.finditer(text)]
    toks = [t for t in toks if t[2] >= 0]
    out: list[tuple[int, int, int, int]] = []
    k = 0
    while k < len(toks):
        s, e, a = toks[k]
        if k + 1 < len(toks) and _RANGE.fullmatch(text[e : toks[k + 1][0]]):
            b = toks[k + 1][2]
            out.append((s, toks[k + 1][1], min(a, b), max(a, b)))
            k += 2
            continue
        out.append((s, e, a, a))
        k += 1
    return out


def product_sizes(specs: dict[str, str]) -> dict[str, set[int]]:
    """Spec key -> the ranks of the letter sizes its value gives (only keys whose whole value is sizes)."""
    out: dict[str, set[int]] = {}
    for key, value in specs.items():
        val = str(value)
        found = _sizes_in(val)
        if not found:
            continue
        rest = _SIZE.sub("", val)
        if re.sub(r"[\s\-–~～到至、,，/码号]", "", rest):
            continue  # sizes inside other words ("S码偏小"): not a size list
        out[key] = {k for _s, _e, a, b in found for k in range(a, b + 1)}
    return out


def _faq_sizes(r: "Reading", pid: str) -> set[str]:
    """The sizes the product's FAQ answers name (letter sizes by rank as ``"r<rank>"``, numbered as digits)."""
    out: set[str] = set()
    for f in r.room.by_id[pid].faq:
        a = str(f.a)
        out |= {f"r{k}" for _s, _e, lo, hi in _sizes_in(a) for k in range(lo, hi + 1)}
        out |= {m.group(1) or m.group(2) for m in _NUMBERED.finditer(a)}
    return out


def _advice(r: "Reading", i: int) -> bool:
    """Record a claim for each size clause ``i`` recommends after an advice word; whether it found one."""
    c = r.clauses[i]
    m = r.cfind("size_advice", i)
    if m is None:
        return False
    text = r.text
    start = c.start + m.end()
    seg = text[start : c.end]
    found = [(s, e, f"r{a}") for s, e, a, b in _sizes_in(seg) if a == b]
    found += [(x.start(), x.end(), x.group(1) or x.group(2)) for x in _NUMBERED.finditer(seg)]
    if not found:
        return False
    s, e, size = min(found)
    pos = start + s
    pids, how = r.subject(pos, i)
    if not pids:
        return False
    pid = pids[0]
    if how not in ("clause", "group"):
        # weakly attributed ("腰围2尺大概66厘米，建议拍26码" with the jeans asked or named earlier): the product of
        # those it may be about whose FAQ gives this advice
        pid = next((p for p in pids if p in r.room.by_id and size in _faq_sizes(r, p)), pid)
    specs = r.room.by_id[pid].specs
    if not product_sizes(specs) and not any(_NUMBERED.search(str(v)) or "码" in str(v) for v in specs.values()):
        return False  # a product sold without sizes: nothing to advise
    advised = _faq_sizes(r, pid)
    said = r.m.original(pos, start + e)
    ok = size in advised
    verdict = "true" if ok else ("false" if advised else "unsupported")
    why = "" if ok else (f"{r.label(pid)}: '{said}' but the FAQ advises otherwise" if advised
                         else f"{r.label(pid)}: '{said}': the data gives no size advice")
    keys = [k for k in r.room.by_id[pid].specs if k in ("size",)] or list(product_sizes(r.room.by_id[pid].specs))
    answers = [(f"spec:{k}", pid) for k in keys] + [("spec:*", pid), ("spec:unknown", pid)]
    r.claim(pos, start + e, (pid,), "advice:size", said, "", True, verdict, why, answers)
    return True


def read_size_claims(r: "Reading") -> None:
    """Record a ``spec:<key>`` claim for each letter size or size range a clause names about a product with
    letter sizes, and an ``advice:size`` claim for each size a clause recommends (see the module docstring)."""
    text = r.text
    if not _SIZE.search(text) and not _NUMBERED.search(text):
        return
    for i, c in enumerate(r.clauses):
        if c.question or _advice(r, i):
            continue
        seg = text[c.start : c.end]
        found = _sizes_in(seg)
        if not found:
            continue
        for s, e, a, b in found:
            pos = c.start + s
            if r.in_mention(pos, c.start + e):
                continue
            pids, _how = r.subject(pos, i)
            for pid in pids[:1]:
                sizes = product_sizes(r.room.by_id[pid].specs)
                if not sizes:
                    continue
                key, have = next(iter(sizes.items()))
                inside = all(k in have for k in range(a, b + 1))
                negated = r.negated(i, pos)
                ok = (not inside) if negated else inside
                said = r.m.original(c.start + s, c.start + e)
                data = r.room.by_id[pid].specs[key]
                r.claim(c.start + s, c.start + e, (pid,), f"spec:{key}", said, "", not negated,
                        "true" if ok else "false", "" if ok else f"{r.label(pid)}: '{said}' but {key} is '{data}'",
                        [(f"spec:{key}", pid), ("spec:*", pid)])


__all__ = ["product_sizes", "read_size_claims"]
