"""Near-miss codes: a grade, material or model code one character off the product's own ("XPE" for TPE, "IPX8"
for IPX7, "CR2025" for CR2032, "USB-A" for USB-C), said as the product's.

Read from the data, not from a word list: the codes are the product's Latin-letter tokens (with digits allowed)
of its spec values and FAQ answers; a token of a reply clause about that product, of the same length and
differing from one of them in exactly one character, that no data text of the room and no value the room knows
holds, is false (a carrier's name, the room's or the locale's, is the carrier check's: "UPS" is no near-miss of
"GPS"). A clause that negates it ("不是XPE", "not IPX8") or asks claims nothing; a token the viewer's own comment
holds is the viewer's, unless the reply affirms it as the product's (then the same rule applies). The
check prefers saying nothing: the product's code must be a real code (a letter and at least three characters, or
a letter and a digit), and one character apart only.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from hat_env.text import normalize

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading

#: a code: Latin letters and digits, joined by "-" or "+" ("TPE", "IPX7", "CR2032", "USB-C")
_CODE = re.compile(r"(?<![A-Za-z0-9])[A-Za-z0-9]+(?:[-+][A-Za-z0-9]+)*(?![A-Za-z0-9])")


def _is_code(tok: str) -> bool:
    """Whether ``tok`` looks like a code: at least one letter and three characters, all capitals or digits
    where it has letters ("TPE", "IPX7", "USB-C"; not "the", "Pro")."""
    letters = [ch for ch in tok if ch.isalpha()]
    return len(tok) >= 3 and bool(letters) and all(ch.isupper() for ch in letters)


def _one_off(a: str, b: str) -> bool:
    """Whether two codes of one length differ in exactly one character (case folded), not a digit for a digit
    alone in an otherwise numeric run ("5.3" / "5.2" are numbers, checked as quantities)."""
    if len(a) != len(b) or a.lower() == b.lower():
        return False
    diff = [(x, y) for x, y in zip(a.lower(), b.lower()) if x != y]
    return len(diff) == 1 and not (diff[0][0].isdigit() and diff[0][1].isdigit() and not any(ch.isalpha() for ch in a))


@lru_cache(maxsize=1024)
def _codes(texts: tuple[str, ...], locale: str) -> frozenset[str]:
    """The codes of some data texts (normalised)."""
    out: set[str] = set()
    for t in texts:
        out |= {m.group() for m in _CODE.finditer(normalize(t, locale).text) if _is_code(m.group())}
    return frozenset(out)


def _product_texts(p) -> tuple[str, ...]:  # type: ignore[no-untyped-def]
    """A product's data texts that state its codes: title, spec values, FAQ answers, the after-sales note."""
    return (p.title, *(str(v) for v in p.specs.values()), *(f.a for f in p.faq), p.returns.note or "")


def read_nearmiss_codes(r: "Reading") -> None:
    """Record a false claim for each code of a stated clause that is one character off the code of the product
    the clause is about (see the module docstring)."""
    loc = r.vocab.locale
    room_codes: frozenset[str] | None = None
    for i, c in enumerate(r.clauses):
        if c.question:
            continue
        ct = r.ctext(i)
        toks = [m for m in _CODE.finditer(ct) if _is_code(m.group())]
        if not toks:
            continue
        pids, how = r.subject(c.start, i)
        if how not in ("clause", "asked", "sentence") or not pids:
            continue
        pid = pids[0] if how != "asked" or len(pids) == 1 else None
        if pid is None or pid not in r.room.by_id:
            continue
        mine = _codes(_product_texts(r.room.by_id[pid]), loc)
        if not mine:
            continue
        if room_codes is None:
            # a carrier's name ("UPS" next to a product's "GPS") is read by the carrier check, not as a code
            carriers = {p.shipping.carrier for p in r.room.products} | set(r.vocab.carriers)
            room_codes = frozenset(x.lower() for p in r.room.products for x in _codes(_product_texts(p), loc)) \
                | {n.lower() for n in carriers if n}
        for m in toks:
            tok = m.group()
            if tok.lower() in room_codes or r.in_mention(c.start + m.start(), c.start + m.end()):
                continue
            near = next((x for x in sorted(mine) if _one_off(tok, x)), None)
            if near is None or r.negated(i, c.start + m.start()):
                continue
            s, e = c.start + m.start(), c.start + m.end()
            r.claim(s, e, (pid,), "code", tok, "", True, "false",
                    f"{r.label(pid)}: '{r.m.original(s, e)}' but the data says '{near}'",
                    [("spec:*", pid), ("spec:unknown", pid)])
            break


__all__ = ["read_nearmiss_codes"]
