"""What a room's own vocabulary says, as the detectors read it: the spec attributes its scenario declares (with the
words and labels for them in the reply's locale and the room's, one pattern each) and the values an attribute takes
in the room (its products' values and the closed set the vocabulary declares). Cached per vocabulary and locale.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hat_env.text import normalize

if TYPE_CHECKING:
    from hat_env.scoring.claims.facts import ProductFacts
    from hat_env.scoring.claims.read import Reading


#: (id of a vocabulary, locale, the spec keys the room's products have) -> (that vocabulary, its attributes'
#: patterns): rooms sharing one vocabulary (the default one) but not the same attributes get their own entry,
#: and the vocabulary is kept so that an id reused after it is freed never returns another one's words.
_DECLARED: dict[tuple[int, str, frozenset[str]], tuple[object, dict[str, tuple[re.Pattern[str], str]]]] = {}


def room_attributes(r: "Reading") -> dict[str, tuple[re.Pattern[str], str]]:
    """The spec attributes the room's scenario declares (``attributes`` of its vocabulary) that some product of
    the room has, with the words for them in the reply's locale and the room's (their words and labels), as one
    pattern each, and their type (``bool``, ``list``, ...). The locale's own attribute keywords come first: an
    attribute listed there is read with those."""
    voc = r.room.vocabulary
    have = frozenset(k for p in r.room.products for k in p.specs)
    key = (id(voc), r.vocab.locale, have)
    hit = _DECLARED.get(key)
    got = hit[1] if hit is not None and hit[0] is voc else None
    if got is None:
        got = {}
        for name, a in voc.attributes.items():
            if name not in have:
                continue
            words = {str(w).lower() for loc in {r.vocab.locale, r.room.locale}
                     for w in (*a.words.get(loc, ()), *((a.labels[loc],) if loc in a.labels else ()))}
            words = {w for w in words if len(w) >= 2}
            if a.type == "bool":
                # a yes/no label that names its attribute with a certification word ("有机认证") is said without it
                # too ("是有机的")
                words |= {w[: -len(x)] for w in words for x in ("认证", "certified", " certified")
                          if w.endswith(x) and len(w) - len(x) >= 2}
            if not words:
                continue
            alts = sorted((re.escape(w) if not w.isascii() else rf"(?<![a-z]){re.escape(w)}(?![a-z])" for w in words),
                          key=len, reverse=True)
            if a.type == "bool":
                # a yes/no word led by its has-verb ("有香味", "含香精") is said with words between them too
                # ("有淡淡的奶香味", "含少量香精")
                alts += [f"{re.escape(w[0])}[^，,。；;！!？?\\s]{{1,5}}?{re.escape(w[1:])}" for w in words
                         if w[0] in "有含带" and len(w) >= 3 and not w.isascii()]
            got[name] = (re.compile("|".join(alts), re.IGNORECASE), a.type)
        if len(_DECLARED) > 64:
            _DECLARED.clear()
        _DECLARED[key] = (voc, got)
    return got


def room_values(r: "Reading", key: str) -> set[str]:
    """The values the room's products give attribute ``key`` (split into parts at list marks and plus signs), and
    the closed set its scenario's vocabulary declares for it (a value no product has is still one of that
    attribute's values), lower-case, normalised."""
    out: set[str] = closed_values(r, key)
    for p in r.room.products:
        val = p.specs.get(key)
        if val is not None:
            t = normalize(str(val), r.vocab.locale).text
            # parts joined by a list mark or a plus ("尼龙织带+3M反光条", "不锈钢梳针+ABS"): each is a value of its own
            out |= {w.strip().lower() for w in re.split(r"[,、，/;；+]| or | and |和|或", t) if w.strip()}
    return out


def closed_values(r: "Reading", key: str) -> set[str]:
    """The closed set of values the scenario's vocabulary declares for attribute ``key`` (a baby room's 段数
    ``[1段, 2段, 3段, 4段]``, a dash cam's ``[1080P, 2K, 4K]``), lower-case, normalised; empty when none is."""
    declared = (getattr(getattr(r.room, "vocabulary", None), "attributes", None) or {}).get(key)
    return {normalize(str(val), r.vocab.locale).text.strip().lower() for val in getattr(declared, "values", None) or ()}


def declared_bools(r: "Reading", name: str, said: str) -> list[str]:
    """The yes/no attributes the room declares that feature ``name`` (its words ``said`` in the reply) is: the one
    of the same key, or one whose words are exactly ``said``."""
    return [k for k, (rx, typ) in room_attributes(r).items()
            if typ == "bool" and (k == name or rx.fullmatch(said.strip()) is not None)]


def bool_value(pf: "ProductFacts", key: str) -> bool | None:
    """The product's yes/no value of declared attribute ``key`` ("sí" / "no" / "是"...), ``None`` when it has none."""
    from hat_env.sim.vocabulary import BOOL_WORDS

    if key not in pf.product.specs:
        return None
    return BOOL_WORDS.get(str(pf.product.specs[key]).strip().lower())


__all__ = ["bool_value", "closed_values", "declared_bools", "room_attributes", "room_values"]
