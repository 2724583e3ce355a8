"""Claims about a product's structured after-sales terms (``returns.restocking_fee``, ``warranty_parts``,
``return_shipping_insurance``, ``no_return_when``: :mod:`hat_env.sim.after_sales`).

Each is judged in the clause that says it, against the subject product's data, and a true one answers the
after-sales question:

- a restocking fee (the locale's ``restocking_words``): a percent or an amount said in the clause must be the
  fee (a percent equal to the amount, or an amount equal to the percent of the price, is the same fee), and the
  fee's percent in a later clause of the sentence is true; "no restocking fee" is false where every return pays
  one (a fee with a condition, ``when``, may not apply to the case the clause names);
- a part the warranty names ("the strap", "鞋带", "las piedras"), with a warranty or coverage word
  (``warranty_words``, ``coverage_words``): covered or not as the part's data says; a length said there must be
  the part's (it replaces the product-wide reading of that clause);
- return shipping (``return_shipping_free``: words that say it is paid for the buyer, "运费险", "free returns";
  ``return_shipping_words``: words that only name it, then ``return_shipping_covered`` or
  ``return_shipping_paid`` say which): true when it matches ``return_shipping_insurance``;
- a final-sale condition ("engraved", "剪吊牌") with a return word (``returns_words``, ``return_verbs``): a
  return said possible under it is false, refused is true. A condition itself negated right before it
  ("未剪吊牌", "not worn": ``condition_unmet``) is the other case, left to the usual return reading.

Only products with such data are read: the data's words are the room's, the cue words the locale's vocabulary.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hat_env.scoring.claims.check_common import negated_after, claim_state, claim_in_clause
from hat_env.sim.room_words import regions_named
from hat_env.text import normalize

if TYPE_CHECKING:
    from hat_env.scoring.claims.facts import ProductFacts
    from hat_env.scoring.claims.read import Reading

_EPS = 0.005


def _has_terms(p: Any) -> bool:
    """Whether product ``p`` has any structured after-sales term."""
    r = p.returns
    return bool(r.restocking_fee is not None or r.warranty_parts or r.return_shipping_insurance is not None
                or r.no_return_when)


def _named(r: "Reading", i: int, items: list) -> list[tuple[int, int, int]]:
    """``(index, start, end)`` (clause offsets) of each of ``items`` (things with ``names``) clause ``i`` names,
    in text order."""
    return regions_named(r.ctext(i), [[normalize(n, r.vocab.locale).text for n in it.names] for it in items])


def _subject(r: "Reading", i: int, pos: int, want) -> "ProductFacts | None":
    """The clause's subject product (at ``pos``) that ``want(product)`` accepts, or ``None``."""
    pids, _how = r.subject(pos, i)
    for pf in r.pfs(pids):
        if want(pf.product):
            return pf
    return None


def _polarity(r: "Reading", i: int, s: int, e: int) -> bool:
    """Whether the word at clause offsets ``[s, e)`` is stated, not negated."""
    c0 = r.clauses[i].start
    return claim_state(r, i, c0 + s) and not negated_after(r, i, c0 + e)


def _claims_in(r: "Reading", i: int, attrs: tuple[str, ...]) -> list:
    """The claims recorded so far in clause ``i`` whose attribute is one of ``attrs``."""
    return [x for x in r.report.claims if x.attribute in attrs and claim_in_clause(r, x, i)]


def _drop(r: "Reading", gone: list) -> None:
    """Remove the claims ``gone`` from the report (a reading this module replaces)."""
    ids = {id(x) for x in gone}
    if ids:
        r.report.claims[:] = [x for x in r.report.claims if id(x) not in ids]


def _verdict(x: Any, ok: bool, reason: str, pid: str) -> None:
    """Re-judge claim ``x``: true, or false with ``reason``; either way about the after-sales terms of ``pid``."""
    x.verdict, x.reason = ("true", "") if ok else ("false", reason)
    x.answers = frozenset({("after_sales", pid)})


def read_after_sales(r: "Reading", stated: list[int]) -> None:
    """Judge every stated clause of ``r`` about a structured after-sales term of its subject product (see the
    module docstring)."""
    if not any(_has_terms(p) for p in r.room.products):
        return
    for i in stated:
        _restocking(r, i)
        _warranty_parts(r, i)
        _return_shipping(r, i)
        _final_sale(r, i)


def _restocking(r: "Reading", i: int) -> None:
    """A restocking fee said in clause ``i`` (its percent or amount, or none)."""
    m = r.cfind("restocking_words", i)
    if m is None:
        return
    pf = _subject(r, i, r.clauses[i].start + m.start(), lambda p: p.returns.restocking_fee is not None)
    if pf is None:
        return
    fee = pf.product.returns.restocking_fee
    price = pf.effective or pf.product.price
    amount = fee.amount if fee.amount is not None else round(price * float(fee.percent or 0) / 100, 2)
    pct = fee.percent if fee.percent is not None else (100 * float(fee.amount or 0) / price if price else None)
    said = f"{fee.percent:g}%" if fee.percent is not None else f"{fee.amount:g}"
    why = f"{r.label(pf.pid)}: the restocking fee is {said}" + (f" ({fee.when})" if fee.when else "")
    nums = _claims_in(r, i, ("percent", "price"))
    if not _polarity(r, i, m.start(), m.end()):
        # "no restocking fee": false where every return pays one; a fee with a condition may not apply to the case
        # the clause names ("unopened watches have no restocking fee")
        if not fee.when:
            c0 = r.clauses[i].start
            r.claim(c0 + m.start(), c0 + m.end(), (pf.pid,), "restocking_fee", False, "", False, "false",
                    f"{why}, not none", [("after_sales", pf.pid)])
            _drop(r, nums)
        nums = []
    for x in nums:
        v = float(x.value) if isinstance(x.value, (int, float)) else None
        if v is None:
            continue
        if x.attribute == "percent":
            ok = pct is not None and abs(v - pct) < 0.05
        else:
            ok = abs(v - amount) < _EPS + 0.01 * (fee.amount is None)
        _verdict(x, ok, f"{r.label(pf.pid)}: '{x.text}' but the restocking fee is {said}", pf.pid)
    # the fee said in a later clause of the sentence ("no fee unopened, opened ones pay 15%"): the fee's own
    # figure is true there; another figure keeps its usual reading
    sent = r.clauses[i].sentence
    for j in range(i + 1, len(r.clauses)):
        if r.clauses[j].sentence != sent:
            break
        for x in _claims_in(r, j, ("percent",)):
            if isinstance(x.value, (int, float)) and pct is not None and abs(float(x.value) - pct) < 0.05:
                _verdict(x, True, "", pf.pid)


def _warranty_parts(r: "Reading", i: int) -> None:
    """A part named with a warranty or coverage word in clause ``i``: covered or not, and for how long."""
    cue = r.cfind("warranty_words", i) or r.cfind("coverage_words", i)
    if cue is None:
        return
    pf = _subject(r, i, r.clauses[i].start + cue.start(), lambda p: bool(p.returns.warranty_parts))
    if pf is None:
        return
    parts = pf.product.returns.warranty_parts
    hits = _named(r, i, parts)
    if not hits:
        return
    k, s, e = hits[0]
    part = parts[k]
    c0 = r.clauses[i].start
    said = r.m.original(c0 + s, c0 + e)
    words = [w for w in (r.cfind("coverage_words", i), r.cfind("warranty_words", i)) if w is not None]
    w = min(words, key=lambda x: x.start())
    pol = _polarity(r, i, w.start(), w.end()) and _polarity(r, i, s, e)
    old = _claims_in(r, i, ("warranty",))
    lengths = [x for x in old if isinstance(x.value, (int, float)) and not isinstance(x.value, bool)]
    _drop(r, [x for x in old if x not in lengths])
    if part.covered:
        why = f"{r.label(pf.pid)}: the {said} is covered for {part.warranty.value} {part.warranty.unit}"
    else:
        why = f"{r.label(pf.pid)}: the {said} is not covered by the warranty"
    a, b = c0 + min(s, w.start()), c0 + max(e, w.end())
    r.claim(a, b, (pf.pid,), "warranty_part", part.names[0], "", pol, "true" if pol == part.covered else "false",
            "" if pol == part.covered else why, [("after_sales", pf.pid)])
    for x in lengths:
        months = part.warranty.months if part.warranty is not None else None
        ok = pol and months is not None and abs(float(x.value) - months) < 0.05
        _verdict(x, ok, f"{r.label(pf.pid)}: '{x.text}' for the {said} but " + why.split(": ", 1)[1], pf.pid)


def _return_shipping(r: "Reading", i: int) -> None:
    """Return shipping said paid for the buyer or not in clause ``i``."""
    free = r.cfind("return_shipping_free", i)
    named = free or r.cfind("return_shipping_words", i)
    if named is None:
        return
    c0 = r.clauses[i].start
    pf = _subject(r, i, c0 + named.start(), lambda p: p.returns.return_shipping_insurance is not None)
    if pf is None:
        return
    paid = r.cfind("return_shipping_paid", i)
    covered = r.cfind("return_shipping_covered", i)
    if free is None and paid is None and covered is None:
        return  # return shipping named, not said to be paid or free
    pol = _polarity(r, i, named.start(), named.end()) and paid is None
    if covered is not None and free is None and paid is None:
        pol = pol and _polarity(r, i, covered.start(), covered.end())
    have = bool(pf.product.returns.return_shipping_insurance)
    na, nb = r.m.span(c0 + named.start(), c0 + named.end())
    gone = [x for x in r.report.claims if claim_in_clause(r, x, i) and (
        x.attribute in ("host_promise", "free_shipping") or (x.attribute == "price" and x.unit in ("pay", "shipping"))
        # "赠运费险", "送运费险": the gift given is the return-shipping insurance itself
        or (x.attribute == "gift" and x.span[0] < nb and x.span[1] >= na - 2))]
    _drop(r, gone)
    why = (f"{r.label(pf.pid)}: return shipping is " + ("paid for the buyer (return-shipping insurance)" if have
                                                       else "the buyer's to pay (no return-shipping insurance)"))
    r.claim(c0 + named.start(), c0 + named.end(), (pf.pid,), "return_shipping", pol, "", pol,
            "true" if pol == have else "false", "" if pol == have else why, [("after_sales", pf.pid)])


def _final_sale(r: "Reading", i: int) -> None:
    """A return said possible or refused under a final-sale condition (in clause ``i`` or the one before it)."""
    ret = r.cfind("returns_words", i) or r.cfind("return_verbs", i)
    if ret is None:
        return
    c0 = r.clauses[i].start
    pf = _subject(r, i, c0 + ret.start(), lambda p: bool(p.returns.no_return_when) and p.returns.returnable)
    if pf is None:
        return
    conds = pf.product.returns.no_return_when
    j = i
    hits = _named(r, i, conds)
    if not hits and i > 0 and r.clauses[i - 1].sentence == r.clauses[i].sentence and not (
            r.cfind("returns_words", i - 1) or r.cfind("return_verbs", i - 1)):
        j = i - 1  # the condition heads the sentence ("Los anillos grabados también se pueden devolver")
        hits = _named(r, j, conds)
    if not hits:
        return
    k, s, e = hits[0]
    unmet = r.vocab.rx.get("condition_unmet")
    if unmet is not None and any(m.end() == s for m in unmet.finditer(r.ctext(j), max(0, s - 12), s)):
        return  # "未剪吊牌", "not worn": the returnable case
    pol = _polarity(r, i, ret.start(), ret.end())
    _drop(r, [x for jj in sorted({i, j}) for x in _claims_in(r, jj, ("returns", "returnable"))])
    cj = r.clauses[j].start
    said = r.m.original(cj + s, cj + e)
    a, b = min(cj + s, c0 + ret.start()), max(cj + e, c0 + ret.end())
    r.claim(a, b, (pf.pid,), "final_sale", conds[k].names[0], "", pol, "false" if pol else "true",
            f"{r.label(pf.pid)}: '{r.m.original(a, b)}' but it cannot be returned once {said}" if pol else "",
            [("after_sales", pf.pid)])


__all__ = ["read_after_sales"]
