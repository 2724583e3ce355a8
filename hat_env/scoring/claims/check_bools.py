"""A room's yes/no attributes ("grain-free", "Wi-Fi", "含咖啡因") said of a product: said plainly, negated, said of
the bare substance an attribute is free of ("lleva gluten"), or with a value word after the label ("Wi-Fi: yes");
the product's declared value must be the one said, and a named product whose data lacks the attribute is
unsupported."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from hat_env.scoring.claims.check_common import claim_state, negated_after
from hat_env.scoring.claims.commitment import hedged, named_subject
from hat_env.scoring.claims.room_vocab import bool_value, room_attributes

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading


def _bool_answer_after(text: str, end: int) -> bool | None:
    """The yes/no value written right after a yes/no attribute's label, as in "caffeinated, no", "Wi-Fi: yes",
    "apto para lavavajillas, no" or "含咖啡因：否" (a label, a comma or colon, then one of the catalog's own value
    words, :data:`hat_env.sim.vocabulary.BOOL_WORDS`, ending there); ``None`` when no such value follows."""
    from hat_env.sim.vocabulary import BOOL_WORDS

    m = _bool_after_rx().match(text, end)
    if m is None:
        return None
    word = m.group(1).casefold()
    rest = text[m.end():m.end() + 12].lstrip()[:1]
    if rest.isalnum():
        return None  # "no" in "no extra fee", 有 in 有货: not a value on its own
    return BOOL_WORDS.get(word)


@lru_cache(maxsize=1)
def _bool_after_rx() -> re.Pattern[str]:
    """A comma or colon after a label, then one of the catalog's yes/no value words (the longest first: 不支持
    before 支持)."""
    from hat_env.sim.vocabulary import BOOL_WORDS

    words = sorted(BOOL_WORDS, key=len, reverse=True)
    return re.compile(r"\s*[,:，：]\s*(" + "|".join(map(re.escape, words)) + ")", re.IGNORECASE)


def bool_specs(r: "Reading", i: int) -> None:
    """A yes/no attribute the scenario declares ("grain-free", "Wi-Fi") said of a product in clause ``i``: said
    plainly it claims yes, negated it claims no; the product's value must be that one. A product whose data lacks
    the attribute, named in the clause, is unsupported when the clause claims yes."""
    ct = r.ctext(i)
    c0 = r.clauses[i].start
    for key, (rx, typ) in room_attributes(r).items():
        if typ != "bool" or key in r.vocab.attributes:
            continue
        m = rx.search(ct)
        if m is None:
            continue
        s, e = c0 + m.start(), c0 + m.end()
        pids, how = r.subject(s, i)
        pfs = r.pfs(pids)
        if not pfs:
            continue
        said = claim_state(r, i, s) and not negated_after(r, i, e)
        if _free_of_substance(r, key, i, m):
            said = not said  # "no lleva gluten" says gluten-free ("sin gluten") is yes; "lleva gluten" says no
        answer = _bool_answer_after(r.text, e)
        if answer is not None:  # "caffeinated, no", "Wi-Fi: yes", "含咖啡因：否": the value word says it
            said = answer
        have = [pf for pf in pfs if key in pf.product.specs]
        if how in ("clause", "group"):
            have = have[:1] if have and have[0] is pfs[0] else ([] if how == "clause" else have)
        if not have:
            if named_subject(r, how) and said and not r.cfind("honest_unknown", i) and not hedged(r, i):
                r.claim(s, e, (pfs[0].pid,), f"spec:{key}", True, "", True, "unsupported",
                        f"{r.label(pfs[0].pid)}: '{r.m.original(s, e)}': the data has no {key}")
            continue
        vals = {pf.pid: bool_value(pf, key) for pf in have}
        good = [pf for pf in have if vals[pf.pid] is said]
        if good:
            r.claim(s, e, (good[0].pid,), f"spec:{key}", said, "", said, "true", "", [(f"spec:{key}", good[0].pid)])
        elif vals[have[0].pid] is not None:
            pf = have[0]
            r.claim(s, e, (pf.pid,), f"spec:{key}", said, "", said, "false",
                    f"{r.label(pf.pid)}: '{r.m.original(s, e)}' but {key} is '{pf.product.specs[key]}'",
                    [(f"spec:{key}", pf.pid)])


def _free_of_substance(r: "Reading", key: str, i: int, m: "re.Match[str]") -> bool:
    """Whether match ``m`` (in clause ``i``) of yes/no attribute ``key`` is the bare substance of an attribute
    named as being free of it ("gluten" of "sin gluten", "gluten-free", by the locale's ``free_of`` patterns
    on the attribute's own words), not that name itself: then saying the substance is there says the attribute is
    no, and denying it says yes."""
    a = r.room.vocabulary.attributes.get(key)
    if a is None:
        return False
    subs = set()
    for loc in {r.vocab.locale, r.room.locale}:
        for w in (*a.words.get(loc, ()), *((a.labels[loc],) if loc in a.labels else ())):
            for f in r.vocab.all("free_of", str(w)):
                if f.lastindex:
                    subs.add(f.group(f.lastindex).strip().lower())
    said = m.group().strip().lower()
    if not subs or not any(said in (x, x + "s", x + "es") for x in subs):
        return False  # "grain free" is the attribute's name; only the bare substance ("gluten") flips
    return not any(f.start() <= m.start() and m.end() <= f.end() for f in r.call("free_of", i))  # both clause-relative


__all__ = ["bool_specs"]
