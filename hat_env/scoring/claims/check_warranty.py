"""A warranty without end ("终身质保", "lifetime warranty") said of a product whose warranty has a length: false,
and it answers no after-sales question (a wrong length, like a wrong number). A product with no warranty at all
is read by ``check_returns.read_warranty`` (the warranty word itself is then the false claim). The words are the
locale's ``lifetime_words``, read right before a ``warranty_words`` word, or after it in a clause that states no
length of its own ("the warranty covers you for life", "质保是终身的").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hat_env.scoring.claims.check_common import claim_group, claim_state, states_time

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading


def read_lifetime_warranty(r: "Reading", i: int) -> None:
    """Record a false ``warranty`` claim for a lifetime warranty said in clause ``i`` of a product whose
    warranty has a length (its ``warranty_months`` or a ``warranty`` spec)."""
    life, w = r.cfind("lifetime_words", i), r.cfind("warranty_words", i)
    if life is None or w is None:
        return
    if 0 <= w.start() - life.end() <= 2:
        lo, hi = life.start(), w.end()  # "终身质保", "lifetime warranty"
    elif life.start() >= w.end() and not states_time(r, i):
        # "the warranty covers you for life", "质保是终身的", "garantía para toda la vida": the warranty's length
        # said after it, in a clause stating no length of its own
        lo, hi = w.start(), life.end()
    else:
        return
    c0 = r.clauses[i].start
    s, e = c0 + lo, c0 + hi
    if not claim_state(r, i, s):
        return
    pids, _many = claim_group(r, i, s)
    pfs = r.pfs(pids)
    if not pfs:
        return
    pf = pfs[0]
    months = pf.product.returns.warranty_months
    if not months and "warranty" not in pf.product.specs:
        return  # no warranty at all: the claim above is the false one
    length = f"{months} months" if months else f"'{pf.product.specs['warranty']}'"
    # "终身质保", "lifetime warranty": a warranty without end where the data's has a length; a wrong length
    # answers no after-sales question
    r.claim(s, e, pids, "warranty", "lifetime", "", True, "false",
            f"{r.label(pf.pid)}: '{r.m.original(s, e)}' but its warranty is {length}", [("after_sales", pf.pid)])


__all__ = ["read_lifetime_warranty"]
