"""A yes/no FAQ the data answers "no", stated as a yes: the reply says the question's own words as a fact ("se puede
tirar al váter" of an FAQ "¿Se puede tirar al váter?" answered "No, se tira a la basura"), unnegated. The question's
words are the room's data, so no word list is needed; the reading is structural (the answer's first word)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hat_env.scoring.claims.check_lists import content_words

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading

#: an FAQ answer that says no: its first word(s)
_NO = {"en": re.compile(r"^\W*(?:no|nope)\b", re.I), "es": re.compile(r"^\W*no\b", re.I),
       "zh": re.compile(r"^\W*(?:不|没有|不能|不会|不是|不可以)(?![错少久过])")}
#: share of the question's content words the clause must say
SHARE = 0.75


def read_faq_denied(r: "Reading", i: int) -> None:
    """A stated, unnegated clause saying most (and at least two) of the content words of a product's FAQ question
    whose answer says no is false of that product."""
    c = r.clauses[i]
    if c.question:
        return
    no = _NO.get(r.vocab.lang)
    neg = r.vocab.rx.get("negation")
    ct = r.ctext(i)
    if no is None or (neg is not None and neg.search(ct)):
        return
    pids, _how = r.subject(c.start, i)
    cw = content_words(ct, r.vocab.lang)
    for pf in r.pfs(pids[:1]):
        for f in pf.product.faq:
            if not no.match(f.a):
                continue
            qw = content_words(f.q, r.vocab.lang)
            if len(qw) < 2:
                continue
            hit = sum(1 for w in qw if w in cw)
            if hit >= 2 and hit / len(qw) >= SHARE:
                r.claim(c.start, c.end, (pf.pid,), "faq", ct.strip(), "", True, "false",
                        f"{r.label(pf.pid)}: '{ct.strip()}' but FAQ '{f.q}' '{f.a}'", [("spec:*", pf.pid)])
                return
