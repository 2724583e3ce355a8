"""A yes/no FAQ the data answers "no", stated as a yes: the reply says the question's own words as a fact ("se puede
tirar al váter" of an FAQ "¿Se puede tirar al váter?" answered "No, se tira a la basura"), unnegated. The question's
words are the room's data, so no word list is needed; the reading is structural (the answer's first word)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hat_env.scoring.claims.check_lists import content_words

if TYPE_CHECKING:
    from hat_env.scoring.claims.facts import ProductFacts
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


#: a restriction in an FAQ answer ("Top rack only", "solo a mano", "只能手洗"): the reply must say it back
_ONLY = re.compile(r"\bonly\b|\bsolo\b|\bsólo\b|\bunicamente\b|\búnicamente\b|只|仅")
#: a word of an FAQ answer a reply may say back (four letters or more; Chinese is compared by character pairs)
_ANSWER_WORD = re.compile(r"[^\W\d_]{4,}")


def faq_granted(r: "Reading", i: int, rx: "re.Pattern[str]", pf: "ProductFacts") -> bool:
    """Whether a feature said in clause ``i`` (matched by ``rx``) is granted by an FAQ entry of ``pf`` that asks
    about it (the question has the feature's words) and answers without a no: plainly, or with a restriction
    ("Dishwasher safe?" - "Top rack only; the lid seal lasts longer hand-washed.") that the reply's sentence says
    back (two of the answer's words, anywhere in the reply)."""
    from hat_env.text import normalize

    no = _NO.get(r.vocab.lang)
    sent = r.text.lower()  # the whole reply: a restriction may follow in the next sentence
    for f in pf.product.faq:
        if not rx.search(normalize(f.q, r.vocab.locale).text.lower()):
            continue
        a = normalize(f.a, r.vocab.locale).text.lower()
        if no is not None and no.search(a):
            continue
        if not _ONLY.search(a):
            return True  # "Dishwasher safe?" - "Yes, both parts.": granted as asked
        if r.vocab.lang == "zh":
            said = {a[k : k + 2] for k in range(len(a) - 1)} & {sent[k : k + 2] for k in range(len(sent) - 1)}
        else:
            said = {w[:5] for w in _ANSWER_WORD.findall(a)} & {w[:5] for w in _ANSWER_WORD.findall(sent)}
        if len(said) >= 2:
            return True
    return False

