"""Order status claims: a status word ("shipped", "已发货") must be the status of the order the sentence is about."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hat_env.scoring.claims.check_common import orders_here, claim_state

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading


def read_order_status(r: "Reading", i: int) -> None:
    """An order status word in clause ``i`` must be the status of the order the sentence is about (any of the orders
    asked about when it names none)."""
    ct = r.ctext(i)
    c0 = r.clauses[i].start
    oids = orders_here(r, i)  # none for a sentence about a product, not an order
    if not oids:
        return
    orders = [r.room.orders[o] for o in oids if o in r.room.orders]
    if not orders:
        return
    for status, rx in r.vocab.order_status.items():
        m = rx.search(ct)
        if m is None:
            continue
        s, e = c0 + m.start(), c0 + m.end()
        if not claim_state(r, i, s):
            continue
        good = [o for o in orders if o.status == status]
        if good:
            r.claim(s, e, tuple(o.product_id for o in good), "order_status", status, "", True, "true", "",
                    [("order_status", o.order_id) for o in good])
        else:
            o = orders[0]
            r.claim(s, e, (o.product_id,), "order_status", status, "", True, "false",
                    f"order {o.order_id}: '{r.m.original(s, e)}' but its status is {o.status}",
                    [("order_status", o.order_id)])
        return


__all__ = ["read_order_status"]


# the old private names, for code that still imports them
_order_status = read_order_status
