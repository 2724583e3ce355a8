"""Return-policy claims that are not numbers: returns said possible or not (a product the data says cannot be
returned, or a returnable one said not to be), return promises beyond the after-sales note ("no questions
asked", "opened or not", "拆封也能退"), exchange allowed or not, and a warranty named of a product that has none.
The return window's length is a number (:mod:`.check_numbers`); a lifetime warranty is :mod:`.check_warranty`;
the structured after-sales terms (restocking fee, covered parts, return shipping, final-sale conditions) are
:mod:`.check_after_sales`. Every word list is the locale's vocabulary (:mod:`.vocab`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hat_env.scoring.claims.check_common import bool_fact, exists_claim, claim_group, negated_after, claim_state
from hat_env.scoring.claims.return_terms import refused_returnable
from hat_env.text import normalize

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading


def read_no_questions(r: "Reading", i: int) -> None:
    """"No questions asked" / "拆封也能退": a return promise the product's after-sales note must make."""
    c = r.clauses[i]
    m = r.cfind("no_questions", i)
    if m is None or not claim_state(r, i, c.start + m.start()):
        return
    if not _about_returns(r, i) and not _answers_returns(r, i):
        return  # "ask me anytime": a return promise is about returns
    pids, _ = claim_group(r, i, c.start + m.start())
    pfs = r.pfs(pids)
    ok = any(m.group().lower() in pf.product.returns.note.lower() for pf in pfs)
    if not ok and any(x.start() == 0 and x.end() == len(m.group()) for x in r.vocab.all("no_reason", m.group())):
        # "不满意可以退" / "for any reason": a return that needs no reason, which a note allowing returns without
        # one states in its own words ("支持7天无理由退换"; not "生鲜不支持无理由退货")
        ok = any(pf.product.returns.returnable and _note_says_no_reason(r, pf.product.returns.note) for pf in pfs)
    # a condition beyond the policy is false, but the return window beside it still answers
    r.claim(c.start + m.start(), c.start + m.end(), pids, "returns", m.group(), "", True,
            "true" if ok else "unsupported", "" if ok else
            f"'{r.m.original(c.start + m.start(), c.start + m.end())}': the return policy does not say so")


def _about_returns(r: "Reading", i: int) -> bool:
    """Whether clause ``i``'s sentence, or the sentence just before it, speaks of returns or exchanges: "Opened
    bags are fine too!" after "You can send it back within 30 days." is a return condition."""
    sent = r.clauses[i].sentence
    before = [k for k, c in enumerate(r.clauses) if c.sentence == sent - 1]
    texts = [r.stext(i)] + ([r.stext(before[0])] if before else [])
    return any(r.vocab.find(w, t) is not None for t in texts for w in ("returns_words", "exchange_words"))


def _answers_returns(r: "Reading", i: int) -> bool:
    """Whether clause ``i`` answers a return question without naming returns: a viewer asked an after-sales
    question and the clause is in the reply's first sentence, the direct answer ("can I return opened dog food?"
    "Sure, opened or not, 30 days."); a later sentence ("ask me anytime") is not read as the policy."""
    if not any(it.kind == "after_sales" for it in r.intents):
        return False
    first = min((c.sentence for c in r.clauses if not c.question), default=None)
    return r.clauses[i].sentence == first


def _note_says_no_reason(r: "Reading", note: str) -> bool:
    """Whether an after-sales note allows returns without a reason (a ``no_reason`` phrase of the locale, not
    negated: "支持7天无理由退换", "no questions asked"; not "生鲜不支持无理由退货")."""
    if not note:
        return False
    text = normalize(note, r.vocab.locale).text.lower()
    neg = r.vocab.rx.get("negation")
    for m in r.vocab.all("no_reason", text):
        before = text[max(0, m.start() - r.vocab.negation_window - 2) : m.start()]
        if neg is None or neg.search(before) is None:
            return True
    return False


def read_exchange(r: "Reading", i: int) -> None:
    """Exchange allowed or not (a clause about returns only is not an exchange claim)."""
    if not r.cfind("returns_words", i) or r.cfind("exchange_words", i):
        bool_fact(r, i, "exchange_words", "exchange", lambda pf: pf.product.returns.exchange, "after_sales")


def read_warranty(r: "Reading", i: int) -> None:
    """A warranty named positively ("终身保修", "lifetime warranty"): the product must have one (its warranty
    months, a warranty spec, or a covered part of ``returns.warranty_parts``); its length is checked as a number
    when one is said."""
    exists_claim(r, i, "warranty_words", "warranty", lambda pf: bool(pf.product.returns.warranty_months)
                  or "warranty" in pf.product.specs or any(w.covered for w in pf.product.returns.warranty_parts),
                  "after_sales", "it has no warranty", void=False)


def read_no_returns(r: "Reading", i: int) -> None:
    """Returns said possible or not of a product the data says cannot be returned (``return_days`` 0: "no
    returns", "final sale"); of a returnable product the return window's number is the claim, read elsewhere."""
    c0 = r.clauses[i].start
    for m in r.call("returns_words", i):
        if "refund" in m.group().lower() or "退款" in m.group():
            continue  # a refund is an order's state, not the return policy
        s = c0 + m.start()
        pids, many = claim_group(r, i, s)
        pfs = r.pfs(pids)
        if pfs and all(pf.product.returns.returnable for pf in pfs):
            refused_returnable(r, i, s, c0 + m.end(), pids, pfs)
            return
        if not pfs:
            return
        pol = claim_state(r, i, s) and not negated_after(r, i, c0 + m.end())
        if many and pol:
            # "30-day returns on everything", "like everything else in the shop": said of each product the group
            # names, so one of them that cannot be returned makes it false
            unmet = [pf for pf in pfs if not pf.product.returns.returnable]
            r.claim(s, c0 + m.end(), pids, "returnable", pol, "", pol, "false",
                    f"{r.label(unmet[0].pid)}: '{r.m.original(s, c0 + m.end())}' said of every product, but it "
                    "cannot be returned", [("after_sales", unmet[0].pid)])
            return
        good = [pf for pf in pfs if pf.product.returns.returnable == pol]
        if good:
            r.claim(s, c0 + m.end(), pids, "returnable", pol, "", pol, "true", "", [("after_sales", pf.pid) for pf in good])
        else:
            r.claim(s, c0 + m.end(), pids, "returnable", pol, "", pol, "false",
                    f"{r.label(pfs[0].pid)}: '{r.m.original(s, c0 + m.end())}' but it cannot be returned",
                    [("after_sales", pfs[0].pid)])
        return



__all__ = ["read_exchange", "read_no_questions", "read_no_returns", "read_warranty", "refused_returnable"]


# the old private names, for code that still imports them
_exchange = read_exchange
_no_questions = read_no_questions
_no_returns = read_no_returns
_warranty = read_warranty
