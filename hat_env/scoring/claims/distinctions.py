"""A feature word denied while the data's own, weaker word for it is said: a distinction, not a denial of the data.

"It's water-resistant, not waterproof" of a pack whose data says "water-resistant DWR coating" (the locale's
feature words for waterproof hold both), "鞋面防泼水…但不是全防水" of a boot whose ``waterproof`` spec is "防泼水":
the reply says what the data says and denies the stronger word, which the data does not claim either. A product
whose data says the denied word itself ("waterproof 20000 mm") is still denied falsely.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hat_env.scoring.claims.room_vocab import room_attributes

if TYPE_CHECKING:
    from hat_env.scoring.claims.facts import ProductFacts
    from hat_env.scoring.claims.read import Reading


def attribute_value_said(r: "Reading", i: int, denied: str, pf: "ProductFacts") -> bool:
    """Whether the denied feature word names an attribute of ``pf`` (the vocabulary's attribute words: 防水 of
    ``waterproof``) whose own value, another one ("防泼水"), the reply says plainly (:func:`distinguished`)."""
    pats = [*r.vocab.attributes.items(), *((k, rx) for k, (rx, _t) in room_attributes(r).items())]
    for key, arx in pats:
        val = pf.spec_text.get(key)
        if val and arx.fullmatch(denied.strip()) and distinguished(r, i, denied, str(val)):
            return True
    return False


def distinguished(r: "Reading", i: int, denied: str, data_word: str) -> bool:
    """Whether a denied feature word is told apart from the data's own word for that feature: the data says it in
    other words ("water-resistant DWR coating") and the reply says those words plainly while denying the one it
    denies ("It's water-resistant, not waterproof", "Not waterproof, no. It's water-resistant", "防泼水，但不是全防水")."""
    a, b = denied.strip().lower(), data_word.strip().lower()
    if not b or a == b or b in a:
        return False
    st = r.text.lower()
    k = st.find(b)
    neg = r.vocab.rx.get("negation")
    while k >= 0:
        seg = st[max(0, k - r.vocab.negation_window) : k]
        seg = re.split(r"[.!?。！？;；,，]", seg)[-1]
        if neg is None or neg.search(seg) is None:
            return True
        k = st.find(b, k + 1)
    return False


__all__ = ["attribute_value_said", "distinguished"]
