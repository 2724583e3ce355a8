"""What an after-sales note grants under its own condition, said in other words: "If it shows up damaged, we swap
it at no cost" for "Final sale once installed; delivery damage is replaced free" (an exchange the data's
``exchange`` flag denies, which the note still grants for that case)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hat_env.scoring.claims.facts import ProductFacts
    from hat_env.scoring.claims.read import Reading


def note_grants(r: "Reading", i: int, pf: "ProductFacts") -> bool:
    """Whether the sentence of clause ``i`` grants, under a condition, what a part of the product's note grants
    ("If it shows up damaged, we swap it at no cost" for "Final sale once installed; delivery damage is replaced
    free"): the sentence has a ``conditional`` word, and a part of the note with no negation and a
    ``replace_words`` word shares a content word with it (four letters or more, or two characters in Chinese)."""
    from hat_env.scoring.claims.check_lists import content_words

    note = pf.product.returns.note
    v = r.vocab
    rep, neg = v.rx.get("replace_words"), v.rx.get("negation")
    st = r.stext(i)
    if not note or rep is None or v.find("conditional", st) is None:
        return False
    least = 2 if v.lang == "zh" else 4
    said = [x for x in content_words(st, v.lang) if len(x) >= least]
    for part in re.split(r"[;；,，.。]", note):
        if not rep.search(part.lower()) or (neg is not None and neg.search(part.lower())):
            continue
        words = [w for w in content_words(part, v.lang) if len(w) >= least and not rep.search(w)]
        if any(w in x or x in w for w in words for x in said):
            return True
    return False


__all__ = ["note_grants"]
