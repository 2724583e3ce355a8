"""What every clause detector shares: a claim's polarity (negated before or after its word), the products it is about,
and the two generic checks built on them: a yes/no policy word against a product's field (:func:`bool_fact`) and
a positive mention that needs the product's data to have it (:func:`exists_claim`); the after-sales note's own
wording and conditions; the orders a clause is about.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hat_env.scoring.claims.facts import ProductFacts
from hat_env.scoring.claims.note_grants import note_grants

if TYPE_CHECKING:
    from hat_env.scoring.claims.model import Claim
    from hat_env.scoring.claims.read import Reading


def claim_state(r: "Reading", i: int, pos: int) -> bool:
    """Polarity of a claim at ``pos`` in clause ``i``: False when negated."""
    return not r.negated(i, pos)


_NEG_AFTER = re.compile(r"^\W*(?:[A-Za-z]+\W+){0,2}?(?:is|are|was|were|isn.t|aren.t|wasn.t|weren.t)?\s*(?:not|n.t|never)\b"
                        r"|^\W*(?:isn.t|aren.t|wasn.t|weren.t)\b", re.IGNORECASE)


def negated_after(r: "Reading", i: int, e: int) -> bool:
    """Negation right after a claim word: English ("exchanges aren't offered", "returns are not accepted"), or
    a Chinese potential complement ("治不了", "降不下来": the locale's ``negation_after``)."""
    c = r.clauses[i]
    after = r.text[e : min(c.end, e + 30)]
    na = r.vocab.rx.get("negation_after")
    if na is not None and na.match(after):
        return True
    if r.vocab.lang == "zh":
        return False
    return bool(_NEG_AFTER.match(after))


def claim_group(r: "Reading", i: int, pos: int) -> tuple[tuple[str, ...], bool]:
    """The products a claim at ``pos`` is about, and whether the reply named them all at once ("everything",
    "links 1 to 6": the claim must hold for each)."""
    pids, how = r.subject(pos, i)
    return pids, how == "group"


def bool_fact(r: "Reading", i: int, name: str, attr: str, getter, answer: str, claim_value: bool = True,
               note: str = "") -> None:
    """A yes/no policy word of list ``name`` (free shipping, exchange) against ``getter(pf)``; a negation flips it, and
    a clause that restates the after-sales note is true."""
    c0 = r.clauses[i].start
    for m in r.call(name, i):
        s, e = c0 + m.start(), c0 + m.end()
        pol = (claim_state(r, i, s) and not negated_after(r, i, e)) == claim_value
        pids, _many = claim_group(r, i, s)
        pfs = r.pfs(pids)
        if not pfs:
            continue
        good = [pf for pf in pfs if bool(getter(pf)) == pol or _in_note(r, i, pf)
                or (not pol and _note_condition(r, i, pf)) or (pol and note_grants(r, i, pf))]
        if good:
            r.claim(s, e, pids, attr, pol, "", pol, "true", "", [(answer, pf.pid) for pf in good])
        else:
            r.claim(s, e, pids, attr, pol, "", pol, "false", f"{r.label(pfs[0].pid)}: '{r.m.original(s, e)}' but {note or attr} is {not pol}",
                    [(answer, pfs[0].pid)])
        return


def _in_note(r: "Reading", i: int, pf: ProductFacts) -> bool:
    """Whether clause ``i`` restates the product's after-sales note ("拆封后非质量问题不支持退换")."""
    from hat_env.scoring.claims.check_lists import covers_note  # lazy: check_lists imports this module
    from hat_env.text import fuzz

    note = pf.product.returns.note
    if not note:
        return False
    ct = r.ctext(i).strip(" ,，.。!！~～")
    if len(ct) >= 4 and fuzz().partial_ratio(ct.lower(), note.lower()) >= 80:
        return True
    return covers_note(ct, note, r.vocab.lang, r.vocab.rx.get("negation"))


def _note_condition(r: "Reading", i: int, pf: ProductFacts) -> bool:
    """Whether the sentence of clause ``i`` denies a return or exchange under the condition the product's note
    puts on it: the note refuses something ("拆封后非质量问题不支持退换", "Final sale once opened") and the sentence
    shares one of its condition words ("用过了就不退不换啦，除非是质量问题": 质量问题), not only its return words."""
    from hat_env.scoring.claims.check_lists import content_words

    note = pf.product.returns.note
    neg = r.vocab.rx.get("negation")
    if not note or neg is None or neg.search(note) is None:
        return False
    v = r.vocab
    low = note.lower()

    def after_negation(w: str) -> bool:
        """Whether note word ``w`` stands right after a negation ("支持" of "不支持"): the refusal, not its condition."""
        k = low.find(w)
        return k > 0 and neg.search(low[max(0, k - 4) : k]) is not None

    cond = {w for w in content_words(note, v.lang) if v.find("returns_words", w) is None and v.find("exchange_words", w) is None
            and neg.search(w) is None and not after_negation(w)}
    said = content_words(r.stext(i), v.lang)
    return any(w in said or any(w in x or x in w for x in said if len(x) >= 2) for w in cond if len(w) >= 2)


def _in_a_title(r: "Reading", s: int, e: int) -> bool:
    """Whether the words at ``s:e`` with the word after them, or with the word before them ("Halo Stack" of a
    "Halo Stack ... Ring"), are written in the title or brand of a product of the room."""
    names = [f"{p.title} {p.brand}".lower() for p in r.room.products]
    m = re.match(r"\S*(?:\s+\S+){0,2}", r.text[s:])
    if m is not None:
        words = m.group().lower().rstrip(",.!?;:")
        if len(words) > e - s and any(words in n for n in names):
            return True
    b = re.search(r"[^\W\d_][\w'-]*\s+$", r.text[max(0, s - 40) : s])
    if b is None:
        return False
    words = (b.group() + r.text[s:e]).lower()
    return any(re.search(rf"(?<!\w){re.escape(words)}(?!\w)", n) for n in names)


def exists_claim(r: "Reading", i: int, name: str, attr: str, has, answer: str, why: str, need_positive: bool = True,
                  void: bool = True, strict: bool = False) -> None:
    """A positive mention of ``name`` needs ``has(pf)`` for the product the clause is about. ``void``: when
    false, it voids the ``answer`` it would have given (an invented extra deal beside a right one does not).
    ``strict``: a product named in the clause before the claim is its only subject (a product name inside the
    claim's own words, "卫衣也送碎花发夹" with 碎花 the dress's short name, is not another subject)."""
    c0 = r.clauses[i].start
    for m in r.call(name, i):
        s, e = c0 + m.start(), c0 + m.end()
        if need_positive and not claim_state(r, i, s):
            continue
        if need_positive and r.cfind("data_lacks", i) is not None:
            continue  # "小样的信息暂时没有", "no viene indicado si trae regalo": the data's silence, not a deal
        if _in_a_title(r, s, e):
            continue  # "Pack de 4" of "Toallas ... Pack de 4": the product's own name, not a deal
        pids, _many = claim_group(r, i, s)
        if strict:
            before = [x for x in r.mentions if x.pids and r.clauses[i].start <= x.start and x.end <= s]
            if before and len(before[-1].pids) == 1:
                pids = before[-1].pids
        pfs = r.pfs(pids)
        if not pfs:
            continue
        good = [pf for pf in pfs if has(pf)]
        if good:
            r.claim(s, e, pids, attr, True, "", True, "true", "", [(answer, pf.pid) for pf in good])
        else:
            r.claim(s, e, pids, attr, True, "", True, "false", f"{r.label(pfs[0].pid)}: '{r.m.original(s, e)}' but {why}",
                    [(answer, pfs[0].pid)] if void else [])
        return


def orders_here(r: "Reading", i: int) -> list[str]:
    """The orders a clause is about: named in its sentence, else (a sentence naming no product) those asked."""
    sent = r.clauses[i].sentence
    here = [m for m in r.mentions if r.clauses[r.clause_at(m.start)].sentence == sent]
    oids = [m.order_id for m in here if m.how == "order" and m.order_id]
    if oids or any(m.how != "order" for m in here):
        return oids
    return list(r.orders)


def claim_in_clause(r: "Reading", x: "Claim", i: int) -> bool:
    """Whether claim ``x`` lies in clause ``i`` (claims carry the reply's own spans)."""
    a, b = r.m.span(r.clauses[i].start, r.clauses[i].end)
    return a <= x.span[0] and x.span[1] <= b


def states_time(r: "Reading", i: int) -> bool:
    """Whether clause ``i`` states a time: a number with a unit of time ("ships in 2 days", "a 2-year warranty")."""
    c = r.clauses[i]
    return any(c.start <= q.start < c.end and q.dim.startswith("time") for q in r.quantities)


def said_of_data(r: "Reading", i: int, at: int) -> bool:
    """Whether an availability word at ``at`` (offset in clause ``i``) is said of information rather than of a
    product: a word of the locale's ``data_nouns`` ("info", "detail", "información", "信息") stands just before it in
    its clause, with at most a few words between ("that information available", "the detail isn't available")."""
    lead = r.ctext(i)[:at]
    nouns = r.vocab.all("data_nouns", lead)
    return bool(nouns) and len(lead) - nouns[-1].end() <= 12


# the old private names, for code that still imports them
_state = claim_state
_negated_after = negated_after
_group = claim_group
_bool_fact = bool_fact
_exists_claim = exists_claim
_orders_here = orders_here
